import type { BlobStore, OcrEngine } from '../../domain/ports.js';
import { PolicyMemory } from '../reference/memory.js';
import { memoryKey, parseJsonl, trainMemory } from '../reference/trainer.js';

/**
 * The built-in trainer adapter: trains the reference policy's memory (models/reference/trainer.ts) on a dataset
 * snapshot, starting from the parent version's memory, and writes it at `models/ref-policy/<version>/memory.json`.
 * Deterministic in its inputs: a retried training writes the same bytes to the same key.
 */
export async function trainReferenceCandidate(opts: {
  blobs: BlobStore;
  ocr: OcrEngine;
  /** Blob keys of the snapshot's SFT training files (storage/repos.ts datasetTrainingFiles). */
  trainKeys: readonly string[];
  /** `name@version` of the snapshot (provenance). */
  dataset: string;
  version: string;
  /** The parent's memory; absent for the bare heuristic policy. */
  base?: PolicyMemory;
  trainedAt: string;
  parsePrompt: Parameters<typeof trainMemory>[0]['parsePrompt'];
  onProgress?: () => void;
}): Promise<{ memoryKey: string; samples: number; used: number; skipped: number; entries: number }> {
  const text = (await Promise.all(opts.trainKeys.map(async (k) => Buffer.from(await opts.blobs.get(k)).toString('utf8')))).join('\n');
  const samples = parseJsonl(text);
  const result = await trainMemory({
    samples,
    blobs: opts.blobs,
    ocr: opts.ocr,
    version: opts.version,
    dataset: opts.dataset,
    trainedAt: opts.trainedAt,
    parsePrompt: opts.parsePrompt,
    ...(opts.base ? { base: opts.base } : {}),
  });
  opts.onProgress?.();
  const key = memoryKey(opts.version);
  await opts.blobs.putAt(key, Buffer.from(JSON.stringify(result.memory.toJSON(), null, 2)), { contentType: 'application/json' });
  return { memoryKey: key, samples: result.samples, used: result.used, skipped: result.skipped.length, entries: result.memory.size };
}

/** Reads a stored memory (written by `trainReferenceCandidate` or `trajforge train`). */
export async function readPolicyMemory(blobs: BlobStore, key: string): Promise<PolicyMemory> {
  return PolicyMemory.fromJSON(JSON.parse(Buffer.from(await blobs.get(key)).toString('utf8')));
}
