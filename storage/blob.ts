import { z } from 'zod';
import type { BlobStore } from '../domain/ports.js';
import { parseOrThrow } from '../domain/errors.js';
import { createLocalBlobStore } from './blob-local.js';
import { createS3BlobStore } from './blob-s3.js';

export { BlobConflictError, BlobKeyError, BlobNotFoundError, contentKey } from './blob-common.js';
export { createLocalBlobStore } from './blob-local.js';
export { createS3BlobStore } from './blob-s3.js';

export const BlobStoreConfig = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('local'), dir: z.string().min(1) }),
  z.object({
    kind: z.literal('s3'),
    bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name'),
    prefix: z.string().default(''),
    endpoint: z.string().url().optional(),
    region: z.string().min(1),
    forcePathStyle: z.boolean(),
    accessKeyId: z.string().optional(),
    secretAccessKey: z.string().optional(),
    /** Create the bucket on first use when it is missing (local/dev S3 servers). */
    createBucket: z.boolean().default(false),
  }),
]);
export type BlobStoreConfig = z.input<typeof BlobStoreConfig>;

/**
 * The blob store a config names. Synchronous: an S3 store with `createBucket` creates its bucket lazily
 * on first use. Static credentials are used when both keys are given, else the SDK's default chain.
 */
export function createBlobStore(config: BlobStoreConfig): BlobStore {
  const c = parseOrThrow(BlobStoreConfig, config, 'blob store config');
  if (c.kind === 'local') return createLocalBlobStore(c.dir);
  if ((c.accessKeyId === undefined) !== (c.secretAccessKey === undefined)) {
    throw new Error('blob store config: give both accessKeyId and secretAccessKey, or neither');
  }
  return createS3BlobStore({
    bucket: c.bucket,
    prefix: c.prefix,
    region: c.region,
    forcePathStyle: c.forcePathStyle,
    createBucket: c.createBucket,
    ...(c.endpoint ? { endpoint: c.endpoint } : {}),
    ...(c.accessKeyId && c.secretAccessKey
      ? { credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey } }
      : {}),
  });
}
