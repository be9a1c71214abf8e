import { createHash } from 'node:crypto';
import type { BlobStore, OcrEngine } from '../domain/ports.js';
import { noPii, scrubImage, type PiiCounts } from './scrub.js';

/**
 * Where a snapshot's JSONL/Parquet rows point for each image:
 * - `copy`: the image is written into the snapshot (`images/<sha256>.<ext>`) and referenced by that path relative
 *   to the snapshot root, so a snapshot directory copied anywhere resolves every image (default for a local store);
 * - `uri`: the store's own URI (`s3://bucket/key`; default for an S3 store, where the cluster reads the bucket).
 * Independently, `embed` puts the bytes themselves into the Parquet files (Hugging Face `Image` layout
 * `{bytes, path}`), so `datasets` can load them without any store.
 */
export type ImageLocation = 'copy' | 'uri';

export interface ResolvedImage {
  /** Blob key of the bytes exported (a new blob when PII was blurred). */
  key: string;
  sha256: string;
  /** What JSONL rows and the Parquet `path` field carry: a snapshot-relative path or a store URI. */
  ref: string;
  bytes?: Uint8Array;
}

export interface ImageStats {
  images: number;
  scanned: number;
  blurred: number;
  regions: number;
  pii: PiiCounts;
}

const sha256 = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/**
 * Resolves screenshot blob keys into portable references, once per key: reads the bytes, blurs PII regions found by
 * OCR (export/scrub.ts; the blurred image is stored as a new blob), and records what the snapshot must copy.
 */
export class ImageResolver {
  private readonly cache = new Map<string, Promise<ResolvedImage>>();
  private readonly copied = new Map<string, { path: string; key: string; sha256: string; bytes: number }>();
  readonly stats: ImageStats = { images: 0, scanned: 0, blurred: 0, regions: 0, pii: noPii() };

  constructor(
    private readonly opts: {
      blobs: BlobStore;
      location: ImageLocation;
      /** Keep the bytes for Parquet embedding. */
      embed: boolean;
      /** OCR for PII blurring; absent = images are not scanned (the manifest says how many were). */
      ocr?: OcrEngine;
    },
  ) {}

  resolve(key: string): Promise<ResolvedImage> {
    let p = this.cache.get(key);
    if (!p) {
      p = this.load(key);
      this.cache.set(key, p);
    }
    return p;
  }

  /** The images to copy into the snapshot (`copy`): snapshot path, source blob key, hash, size; sorted by path. */
  files(): { path: string; key: string; sha256: string; bytes: number }[] {
    return [...this.copied.values()].sort((a, b) => a.path.localeCompare(b.path));
  }

  private async load(key: string): Promise<ResolvedImage> {
    const { blobs } = this.opts;
    let bytes = await blobs.get(key);
    let outKey = key;
    const lines = this.opts.ocr ? await this.opts.ocr.recognize(bytes) : [];
    const scrubbed = await scrubImage(bytes, lines);
    this.stats.images++;
    if (this.opts.ocr) this.stats.scanned++;
    if (scrubbed.regions > 0) {
      bytes = scrubbed.image;
      outKey = await blobs.put(bytes, { ext: '.png', contentType: 'image/png' });
      this.stats.blurred++;
      this.stats.regions += scrubbed.regions;
      for (const [k, n] of Object.entries(scrubbed.counts)) this.stats.pii[k as keyof PiiCounts] += n;
    }
    const sha = sha256(bytes);
    const ext = /\.([a-z0-9]+)$/.exec(outKey)?.[1] ?? 'png';
    let ref: string;
    if (this.opts.location === 'copy') {
      const path = `images/${sha}.${ext}`;
      if (!this.copied.has(path)) this.copied.set(path, { path, key: outKey, sha256: sha, bytes: bytes.length });
      ref = path;
    } else ref = blobs.uri(outKey);
    return { key: outKey, sha256: sha, ref, ...(this.opts.embed ? { bytes } : {}) };
  }
}
