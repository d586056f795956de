import * as v from 'valibot';
import { timestampSchema } from './common';

/** The desktop systems the app is built for, in the order the download page lists them. */
export const DESKTOP_PLATFORMS = ['windows', 'macos', 'linux'] as const;
export const desktopPlatformSchema = v.picklist(DESKTOP_PLATFORMS);
export type DesktopPlatform = (typeof DESKTOP_PLATFORMS)[number];

/** A link: a path on this server (`/downloads/...`) or an absolute https URL. */
const linkSchema = v.pipe(
  v.string(),
  v.maxLength(1000),
  v.check((value) => /^\/(?!\/)/.test(value) || /^https:\/\//i.test(value), 'a link is a path on this server or an https URL'),
);

/** One installer of a platform, e.g. the Apple-silicon disk image of macOS. */
export const downloadFileSchema = v.object({
  /** Architecture or flavour, shown beside the link: `x64`, `arm64`, `universal`, `AppImage`, `deb`. */
  label: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  url: linkSchema,
  fileName: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  /** Bytes; absent when not known (the file is not on this server yet). */
  size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  sha256: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/))),
});
export type DownloadFile = v.InferOutput<typeof downloadFileSchema>;

export const platformReleaseSchema = v.object({
  platform: desktopPlatformSchema,
  version: v.pipe(v.string(), v.minLength(1), v.maxLength(40)),
  releasedAt: timestampSchema,
  /** e.g. "Windows 10 or later"; shown as written. */
  requirement: v.optional(v.pipe(v.string(), v.maxLength(120))),
  files: v.pipe(v.array(downloadFileSchema), v.minLength(1)),
});
export type PlatformRelease = v.InferOutput<typeof platformReleaseSchema>;

/** What `GET /api/app/download-manifest` answers: the current desktop release per platform. */
export const downloadManifestSchema = v.object({
  platforms: v.pipe(v.array(platformReleaseSchema), v.minLength(1)),
  /** Every release with its notes, when the project publishes them somewhere. */
  releasesPageUrl: v.optional(linkSchema),
});
export type DownloadManifest = v.InferOutput<typeof downloadManifestSchema>;
