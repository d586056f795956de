import * as v from 'valibot';
import { idSchema } from './common';

export const FILE_KINDS = ['image', 'audio', 'video', 'other'] as const;
export const fileKindSchema = v.picklist(FILE_KINDS);
export type FileKind = (typeof FILE_KINDS)[number];

/** A stored upload, as attached to a message or shown back to its owner. */
export const fileRefSchema = v.object({
  fileId: idSchema,
  name: v.pipe(v.string(), v.maxLength(255)),
  url: v.pipe(v.string(), v.maxLength(500)),
  kind: fileKindSchema,
  mimeType: v.string(),
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type FileRef = v.InferOutput<typeof fileRefSchema>;

export const deleteUploadRequestSchema = v.object({ fileId: idSchema });
export type DeleteUploadRequest = v.InferInput<typeof deleteUploadRequestSchema>;

export { DEFAULT_UPLOAD_LIMIT_BYTES } from './constants';
