import { parseArgs } from 'node:util';
import { parsePolicyPrompt } from '../agents/gui-owl.js';
import type { BlobStore } from '../domain/ports.js';
import { PolicyMemory } from '../models/reference/memory.js';
import { REF_POLICY_BASE_VERSION, REF_POLICY_MODEL, memoryKey, nextPatch, parseJsonl, trainMemory } from '../models/reference/trainer.js';
import type { OcrEngine } from '../domain/ports.js';
import type { Queryable } from '../storage/db.js';
import { datasetTrainingFiles, latestModelVersion, nextDatasetVersion, upsertModelVersion } from '../storage/repos.js';
import { servedVersion } from '../storage/registry-repo.js';

export const TRAIN_USAGE = `  trajforge train --dataset NAME[@VERSION] [--out KEY]
                                 train the reference policy's memory on an exported SFT dataset (latest version by default)
                                 and register it as the next ref-policy version (used by later cycles)`;

/**
 * Loads the served ref-policy memory: that of the highest promoted version in the model registry (a candidate the
 * eval gate rejected, or a rolled-back version, is never served), if its row names one (meta.memoryKey).
 */
export async function loadLatestPolicyMemory(db: Queryable, blobs: BlobStore): Promise<PolicyMemory | undefined> {
  const latest = await servedVersion(db, REF_POLICY_MODEL);
  const key = latest?.meta.memoryKey;
  if (typeof key !== 'string') return undefined;
  return PolicyMemory.fromJSON(JSON.parse(Buffer.from(await blobs.get(key)).toString('utf8')));
}

/**
 * Trains the next ref-policy version on `dataset` (`name` or `name@version`): extends the latest memory,
 * writes it at `models/ref-policy/<version>/memory.json` (or `out`) and registers the model version row.
 */
export async function trainReferencePolicy(opts: {
  db: Queryable;
  blobs: BlobStore;
  ocr: OcrEngine;
  dataset: string;
  trainedAt: string;
  out?: string;
}): Promise<{ version: string; parentVersion: string; memoryKey: string; dataset: string; samples: number; used: number; skipped: number; entries: number }> {
  const [name, v] = opts.dataset.split('@') as [string, string | undefined];
  const version = v !== undefined ? Number(v.replace(/^v/, '')) : (await nextDatasetVersion(opts.db, name)) - 1;
  if (!name || !Number.isInteger(version) || version < 1) throw new Error(`no dataset ${opts.dataset}`);
  const dataset = `${name}@${version}`;
  const { sft: chosen } = await datasetTrainingFiles(opts.db, name, version);
  const text = (await Promise.all(chosen.map(async (f) => Buffer.from(await opts.blobs.get(f.blobKey)).toString('utf8')))).join('\n');
  // Version numbers follow the highest registered version (rejected ones included); the parent is the served one.
  const latest = await latestModelVersion(opts.db, REF_POLICY_MODEL);
  const parentVersion = (await servedVersion(opts.db, REF_POLICY_MODEL))?.version ?? REF_POLICY_BASE_VERSION;
  const next = nextPatch(latest?.version ?? REF_POLICY_BASE_VERSION);
  const base = await loadLatestPolicyMemory(opts.db, opts.blobs);
  const result = await trainMemory({ samples: parseJsonl(text), blobs: opts.blobs, ocr: opts.ocr, version: next, dataset, trainedAt: opts.trainedAt, parsePrompt: parsePolicyPrompt, ...(base ? { base } : {}) });
  const key = opts.out ?? memoryKey(next);
  await opts.blobs.putAt(key, Buffer.from(JSON.stringify(result.memory.toJSON(), null, 2)), { contentType: 'application/json' });
  await upsertModelVersion(opts.db, { name: REF_POLICY_MODEL, version: next, kind: 'policy', parentVersion, meta: { memoryKey: key, dataset, samples: result.samples } });
  return { version: next, parentVersion, memoryKey: key, dataset, samples: result.samples, used: result.used, skipped: result.skipped.length, entries: result.memory.size };
}

export async function trainCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { dataset: { type: 'string' }, out: { type: 'string' } } });
  const dataset = values.dataset;
  if (!dataset) throw new Error(`usage:\n${TRAIN_USAGE}`);
  const { loadConfig } = await import('./config.js');
  const { withDatabase } = await import('./database.js');
  const { createBlobStore } = await import('../storage/blob.js');
  const { createOcrEngine } = await import('../models/ocr.js');
  const config = loadConfig();
  await withDatabase(config, async (db) => {
    const r = await trainReferencePolicy({
      db,
      blobs: createBlobStore(config.blob),
      ocr: await createOcrEngine(),
      dataset,
      trainedAt: new Date().toISOString(),
      ...(values.out ? { out: values.out } : {}),
    });
    process.stdout.write(
      `trajforge: trained ${REF_POLICY_MODEL} ${r.version} (parent ${r.parentVersion}) on ${r.dataset}: ${r.used}/${r.samples} samples used (${r.skipped} skipped), ${r.entries} memory entries\n  memory ${r.memoryKey}\n`,
    );
  });
}
