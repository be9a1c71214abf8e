import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { BlobStore } from '../domain/ports.js';
import {
  BlobConflictError,
  BlobNotFoundError,
  assertKey,
  assertPrefix,
  contentKey,
  sameBytes,
} from './blob-common.js';

export interface S3BlobStoreOptions {
  bucket: string;
  /** Key prefix inside the bucket (no leading/trailing slash needed). */
  prefix?: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Create the bucket on first use if it does not exist. */
  createBucket?: boolean;
}

function status(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}
function errName(err: unknown): string | undefined {
  return (err as { name?: string; Code?: string } | undefined)?.name;
}
const isNotFound = (err: unknown): boolean =>
  status(err) === 404 || ['NotFound', 'NoSuchKey'].includes(errName(err) ?? '');
/** The object appeared between our check and our conditional write (412), or a concurrent conditional write is in flight (409). */
const isConditionalLoss = (err: unknown): boolean =>
  status(err) === 412 || status(err) === 409 || ['PreconditionFailed', 'ConditionalRequestConflict'].includes(errName(err) ?? '');

/**
 * A content-addressed blob store on S3 (or any S3-compatible server). Writes are HeadObject, then
 * PutObject with `If-None-Match: *` so an existing object is never replaced; losing that race (412/409)
 * means another writer stored the key first: fine for `put` (same bytes by construction), re-checked
 * byte-for-byte for `putAt`. Servers that ignore `If-None-Match` still get the HeadObject check.
 */
export function createS3BlobStore(opts: S3BlobStoreOptions): BlobStore {
  const client = new S3Client({
    region: opts.region,
    forcePathStyle: opts.forcePathStyle,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
  });
  const bucket = opts.bucket;
  const base = (opts.prefix ?? '').replace(/^\/+|\/+$/g, '');
  if (base) assertKey(base);
  const full = (key: string): string => (base ? `${base}/${assertKey(key)}` : assertKey(key));
  const where = `s3://${bucket}${base ? `/${base}` : ''}`;

  let bucketReady: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    if (!opts.createBucket) return Promise.resolve();
    bucketReady ??= (async () => {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
        try {
          await client.send(new CreateBucketCommand({ Bucket: bucket }));
        } catch (createErr) {
          const name = errName(createErr);
          if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw createErr;
        }
      }
    })().catch((err: unknown) => {
      bucketReady = undefined; // let a later call retry
      throw err;
    });
    return bucketReady;
  };

  async function exists(key: string): Promise<boolean> {
    await ready();
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: full(key) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async function get(key: string): Promise<Uint8Array> {
    await ready();
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: full(key) }));
      if (!res.Body) throw new BlobNotFoundError(key, where);
      return await res.Body.transformToByteArray();
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key, where);
      throw err;
    }
  }

  /** Conditional create; true when written, false when the key already held an object. */
  async function create(key: string, bytes: Uint8Array, contentType: string | undefined): Promise<boolean> {
    try {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: full(key),
          Body: bytes,
          IfNoneMatch: '*',
          ...(contentType ? { ContentType: contentType } : {}),
        }),
      );
      return true;
    } catch (err) {
      if (isConditionalLoss(err)) return false;
      throw err;
    }
  }

  return {
    kind: 's3',

    async put(bytes, putOpts) {
      const key = contentKey(bytes, putOpts?.ext);
      if (await exists(key)) return key;
      await create(key, bytes, putOpts?.contentType);
      return key;
    },

    async putAt(key, bytes, putOpts) {
      assertKey(key);
      if (!(await exists(key)) && (await create(key, bytes, putOpts?.contentType))) return;
      let existing: Uint8Array;
      try {
        existing = await get(key);
      } catch (err) {
        // 409 from a concurrent writer whose upload has not landed yet: report it as a conflict to retry.
        if (err instanceof BlobNotFoundError) throw new BlobConflictError(key, where);
        throw err;
      }
      if (!sameBytes(existing, bytes)) throw new BlobConflictError(key, where);
    },

    get,
    has: exists,

    async list(prefix) {
      assertPrefix(prefix);
      await ready();
      const fullPrefix = base ? `${base}/${prefix}` : prefix;
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const res = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: fullPrefix,
            ...(token ? { ContinuationToken: token } : {}),
          }),
        );
        for (const o of res.Contents ?? []) {
          if (o.Key) keys.push(base ? o.Key.slice(base.length + 1) : o.Key);
        }
        token = res.IsTruncated ? res.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },

    uri(key) {
      return `s3://${bucket}/${full(key)}`;
    },
  };
}
