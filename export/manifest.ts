import { z } from 'zod';
import { BlobKey } from '../domain/entities.js';
import { PII_KINDS } from './scrub.js';

export const SNAPSHOT_SCHEMA = 'trajforge-snapshot@1';

const PiiCounts = z.object(Object.fromEntries(PII_KINDS.map((k) => [k, z.number().int().min(0)])) as Record<(typeof PII_KINDS)[number], z.ZodNumber>);

/**
 * The manifest of a dataset snapshot (`datasets/<name>/v<N>/manifest.json`). Deliberately free of wall-clock time
 * (the `datasets` row records when): the same selection gives the same bytes, manifest included.
 */
export const SnapshotManifest = z.object({
  schema: z.literal(SNAPSHOT_SCHEMA),
  name: z.string(),
  version: z.number().int().min(1),
  /** Format name → format id (layout version). */
  formats: z.record(z.string(), z.string()),
  selection: z.object({
    filters: z.record(z.string(), z.unknown()),
    split: z.array(z.object({ name: z.string(), fraction: z.number() })),
    seed: z.number().int(),
    minScore: z.number(),
    historyImages: z.number().int(),
    images: z.object({ location: z.enum(['copy', 'uri']), embedded: z.boolean() }),
    evalSets: z.array(z.string()),
    /** The exact selection query and its parameters. */
    sql: z.string(),
    params: z.array(z.unknown()),
  }),
  lineage: z.object({
    cycles: z.array(z.string()),
    modelVersions: z.array(z.string()),
    criticVersions: z.array(z.string()),
    /** app → DAG versions seen. */
    dagVersions: z.record(z.string(), z.array(z.string())),
    configHashes: z.array(z.string()),
  }),
  counts: z.record(z.string(), z.number().int()),
  /** Per role: what its filters dropped, by reason. */
  roleDrops: z.record(z.string(), z.record(z.string(), z.number().int())),
  pii: z.object({ text: PiiCounts, image: PiiCounts, imagesScanned: z.number().int(), imagesBlurred: z.number().int(), regions: z.number().int() }),
  contamination: z.object({ evalSets: z.array(z.string()), dropped: z.record(z.string(), z.number().int()) }),
  files: z.array(
    z.object({ path: z.string(), blobKey: BlobKey, sha256: z.string().regex(/^[0-9a-f]{64}$/), bytes: z.number().int().min(0), rows: z.number().int().min(0).optional() }),
  ),
});
export type SnapshotManifest = z.infer<typeof SnapshotManifest>;

/** What changed between two snapshot manifests (plus the rollouts each registered): `trajforge datasets diff`. */
export function diffManifests(
  a: SnapshotManifest,
  b: SnapshotManifest,
  rollouts: { a: readonly string[]; b: readonly string[] },
): string[] {
  const lines: string[] = [];
  const show = (v: unknown): string => JSON.stringify(v);
  for (const key of ['filters', 'split', 'seed', 'minScore', 'historyImages', 'images', 'evalSets'] as const) {
    if (show(a.selection[key]) !== show(b.selection[key])) lines.push(`selection.${key}: ${show(a.selection[key])} → ${show(b.selection[key])}`);
  }
  if (show(a.formats) !== show(b.formats)) lines.push(`formats: ${Object.keys(a.formats).join(',')} → ${Object.keys(b.formats).join(',')}`);
  const setDiff = (label: string, x: readonly string[], y: readonly string[]): void => {
    const xs = new Set(x);
    const ys = new Set(y);
    const added = y.filter((v) => !xs.has(v));
    const removed = x.filter((v) => !ys.has(v));
    if (added.length || removed.length) {
      const list = (vs: string[]): string => (vs.length > 5 ? `${vs.slice(0, 5).join(', ')} … (+${vs.length - 5})` : vs.join(', '));
      lines.push(`${label}: +${added.length} −${removed.length}${added.length ? `  added: ${list(added)}` : ''}${removed.length ? `  removed: ${list(removed)}` : ''}`);
    }
  };
  setDiff('cycles', a.lineage.cycles, b.lineage.cycles);
  setDiff('model versions', a.lineage.modelVersions, b.lineage.modelVersions);
  setDiff('critic versions', a.lineage.criticVersions, b.lineage.criticVersions);
  setDiff('rollouts', rollouts.a, rollouts.b);
  const keys = [...new Set([...Object.keys(a.counts), ...Object.keys(b.counts)])].sort();
  for (const k of keys) {
    const x = a.counts[k] ?? 0;
    const y = b.counts[k] ?? 0;
    if (x !== y) lines.push(`count ${k}: ${x} → ${y} (${y - x >= 0 ? '+' : ''}${y - x})`);
  }
  const fa = new Map(a.files.map((f) => [f.path, f.sha256]));
  const fb = new Map(b.files.map((f) => [f.path, f.sha256]));
  const changed = [...fb.keys()].filter((p) => fa.has(p) && fa.get(p) !== fb.get(p)).length;
  const added = [...fb.keys()].filter((p) => !fa.has(p)).length;
  const removed = [...fa.keys()].filter((p) => !fb.has(p)).length;
  if (changed || added || removed) lines.push(`files: ${changed} changed, ${added} added, ${removed} removed`);
  if (lines.length === 0) lines.push('no differences (same selection, same content)');
  return lines;
}
