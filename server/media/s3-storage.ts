import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { S3Settings } from '../config';
import { metrics } from '../observability/metrics';
import { checkKey, readAll, type FileStorage } from './storage';

export function s3Client(settings: S3Settings): S3Client {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // MinIO, Garage, SeaweedFS and the like answer on one host with the bucket in the path.
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible servers refuse the newer
    // trailing-checksum uploads the SDK sends by default.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  // Every call that fails is counted (/metrics), but a missing object: that is an answer, not a
  // fault. A missing bucket is one (also a 404).
  client.middlewareStack.add((next) => async (args) => {
    try {
      return await next(args);
    } catch (error) {
      if (!(error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound'))) metrics.bucketFailed();
      throw error;
    }
  });
  return client;
}

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);

/** One area (`uploads/`, `downloads/`) of an S3-compatible bucket shared by every instance. */
export function createS3Storage(client: S3Client, bucket: string, prefix: string): FileStorage {
  const keyOf = (key: string) => {
    checkKey(key);
    return `${prefix}${key}`;
  };
  const storage: FileStorage = {
    async put(key, source, contentType) {
      // S3 wants the length first: a stream of unknown size (an upload, bounded by its limit and
      // admitted before a byte was read) is collected before it is sent.
      const bytes = source instanceof Uint8Array ? source : source.size === undefined ? await readAll(Readable.toWeb(source.stream) as ReadableStream<Uint8Array>) : null;
      const body = bytes ?? (source as { stream: Readable }).stream;
      const size = bytes ? bytes.byteLength : (source as { size: number }).size;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(key), Body: body, ContentType: contentType, ContentLength: size }));
    },
    async get(key) {
      const object = await storage.open(key);
      return object ? readAll(object.body) : null;
    },
    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
        return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async open(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
        if (!object.Body) return null;
        return {
          body: object.Body.transformToWebStream() as ReadableStream<Uint8Array>,
          size: object.ContentLength ?? 0,
          contentType: object.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(key) }));
    },
  };
  return storage;
}

/**
 * Whether the bucket can be used now: null when it answers, else why not (it does not exist, or
 * the storage does not answer within `timeoutMs`). For the start (a missing bucket refuses it) and
 * for /readyz.
 */
export async function probeBucket(client: S3Client, bucket: string, timeoutMs = 3000): Promise<string | null> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(timeoutMs) });
    return null;
  } catch (error) {
    if (error instanceof S3ServiceException && (error.name === 'NotFound' || error.name === 'NoSuchBucket' || error.$metadata.httpStatusCode === 404)) {
      return `the bucket "${bucket}" does not exist`;
    }
    return `the file storage does not answer (${error instanceof Error ? error.name : 'error'})`;
  }
}
