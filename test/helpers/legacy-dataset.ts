/** A dataset in the pre-snapshot layout (`train.jsonl` + manifest), as exports wrote it before snapshots: for tests of readers that must keep accepting it, and of trainers fed arbitrary rows. */
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { DatasetManifest, Lineage } from '../../domain/entities.js';
import type { BlobStore } from '../../domain/ports.js';
import * as repo from '../../storage/repos.js';
import { withTransaction } from '../../storage/db.js';
import type { SftSample } from '../../export/gui-owl-sft.js';

export const SFT_FORMAT = 'gui-owl-e2e-messages@1';

const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes an immutable dataset version: `datasets/<name>/v<N>/train.jsonl` plus `manifest.json` listing
 * every file with its sha256, and the Postgres rows (dataset + one item per sample). Exporting the same
 * content again returns the existing version (fingerprint = hash of the content), and a retry after a
 * crash rewrites identical bytes at the same keys, which the blob store treats as a no-op.
 */
export async function writeDataset(opts: {
  db: Pool;
  blobs: BlobStore;
  name: string;
  createdAt: string;
  lineage: Lineage;
  samples: { sample: SftSample; rolloutId: string; step: number }[];
  counts: Record<string, number>;
}): Promise<{ name: string; version: number; manifestUri: string; manifestKey: string; reused: boolean }> {
  const jsonl = Buffer.from(opts.samples.map((s) => JSON.stringify(s.sample)).join('\n') + '\n');
  const fingerprint = sha256(`${opts.name}\n${sha256(jsonl)}`);
  const existing = await repo.getDatasetByFingerprint(opts.db, fingerprint);
  if (existing) {
    return { name: existing.name, version: existing.version, manifestKey: existing.manifestKey, manifestUri: opts.blobs.uri(existing.manifestKey), reused: true };
  }
  const version = await repo.nextDatasetVersion(opts.db, opts.name);
  const prefix = `datasets/${opts.name}/v${version}`;
  const dataKey = `${prefix}/train.jsonl`;
  await opts.blobs.putAt(dataKey, jsonl, { contentType: 'application/x-ndjson' });
  const manifest: DatasetManifest = {
    name: opts.name,
    version,
    kind: 'sft',
    format: SFT_FORMAT,
    createdAt: opts.createdAt,
    lineage: opts.lineage,
    counts: opts.counts,
    files: [{ path: 'train.jsonl', blobKey: dataKey, sha256: sha256(jsonl), bytes: jsonl.length, rows: opts.samples.length }],
  };
  const manifestKey = `${prefix}/manifest.json`;
  await opts.blobs.putAt(manifestKey, Buffer.from(JSON.stringify(manifest, null, 2)), { contentType: 'application/json' });
  await withTransaction(opts.db, async (client) => {
    await repo.upsertDataset(client, {
      name: opts.name,
      version,
      kind: 'sft',
      format: SFT_FORMAT,
      manifestKey,
      manifest,
      configHash: opts.lineage.configHash,
      fingerprint,
    });
    await repo.insertDatasetItems(
      client,
      opts.samples.map((s, i) => ({ datasetName: opts.name, datasetVersion: version, itemIdx: i, rolloutId: s.rolloutId, stepIdx: s.step, sampleKey: s.sample.id })),
    );
  });
  return { name: opts.name, version, manifestKey, manifestUri: opts.blobs.uri(manifestKey), reused: false };
}
