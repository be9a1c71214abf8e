import { parseArgs } from 'node:util';
import { ValidationError } from '../domain/errors.js';
import { FORMATS, type FormatName } from '../export/formats.js';
import { SnapshotManifest, diffManifests } from '../export/manifest.js';
import { REWARD_PRESETS, type RewardPreset } from '../export/selection.js';
import { parseSplitSpec } from '../export/splits.js';
import type { SnapshotRequest } from '../export/snapshot.js';
import { datasetItemCounts, datasetRollouts, listDatasets } from '../storage/dataset-repo.js';
import { getDataset } from '../storage/repos.js';
import type { Queryable } from '../storage/db.js';
import { loadConfig } from './config.js';
import { withDatabase } from './database.js';

/**
 * `trajforge export …`: a dataset snapshot across cycles (export/snapshot.ts);
 * `trajforge datasets list|show|diff`: what is registered and what changed between versions.
 */

const out = (line = ''): void => void process.stdout.write(`${line}\n`);
const CL = 'command line';

export const EXPORT_USAGE = `  trajforge export --name N [--format sft,sharegpt,grpo,trpo,roles,error_recovery,reasoning] [--cycles c1,c2 | --since DATE] [--apps a,b]
                  [--min-score τ] [--split train=0.9,val=0.05,test=0.05] [--seed S] [--reward-window LO:HI]
                  [--reward-preset online|swirl-mid|swirl-hard] [--images copy|uri] [--embed-images] [--eval-sets e1,e2]
                  [--no-image-ocr] [--keep-guidance]
                                 write an immutable, versioned dataset snapshot (all formats by default) from judged
                                 rollouts across cycles, with manifest, to the blob store; registered in Postgres
  trajforge datasets list [--name N]
  trajforge datasets show NAME[@VERSION]
  trajforge datasets diff NAME@A NAME@B
                                 registered dataset versions; one version's manifest; what changed between two`;

const list = (v: string | undefined): string[] | undefined => (v === undefined ? undefined : v.split(',').map((x) => x.trim()).filter(Boolean));

function num(v: string | undefined, field: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new ValidationError(`must be a number (got "${v}")`, field, CL);
  return n;
}

/** Parses `trajforge export` arguments into a snapshot request (validated again by the exporter's schema). */
export function parseExportArgs(args: string[]): { request: SnapshotRequest; ocr: boolean } {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      format: { type: 'string' },
      cycles: { type: 'string' },
      since: { type: 'string' },
      apps: { type: 'string' },
      'min-score': { type: 'string' },
      split: { type: 'string' },
      seed: { type: 'string' },
      'reward-window': { type: 'string' },
      'reward-preset': { type: 'string' },
      images: { type: 'string' },
      'embed-images': { type: 'boolean' },
      'eval-sets': { type: 'string' },
      'no-image-ocr': { type: 'boolean' },
      'keep-guidance': { type: 'boolean' },
    },
  });
  if (!values.name) throw new ValidationError('is required', '--name', CL);
  const formats = list(values.format);
  const bad = formats?.find((f) => !(FORMATS as string[]).includes(f));
  if (bad !== undefined) throw new ValidationError(`must be a comma-separated subset of ${FORMATS.join(',')} (got "${bad}")`, '--format', CL);
  let rewardWindow;
  if (values['reward-window'] !== undefined) {
    const [lo, hi, extra] = values['reward-window'].split(':');
    if (lo === undefined || hi === undefined || extra !== undefined) throw new ValidationError('must be LO:HI, e.g. 0.1:1', '--reward-window', CL);
    rewardWindow = { lo: num(lo, '--reward-window')!, hi: num(hi, '--reward-window')! };
  }
  const preset = values['reward-preset'];
  if (preset !== undefined && !(preset in REWARD_PRESETS)) {
    throw new ValidationError(`must be one of ${Object.keys(REWARD_PRESETS).join(', ')} (got "${preset}")`, '--reward-preset', CL);
  }
  if (values.cycles !== undefined && values.since !== undefined) throw new ValidationError('give --cycles or --since, not both', '--since', CL);
  const images = values.images;
  if (images !== undefined && images !== 'copy' && images !== 'uri') throw new ValidationError(`must be copy or uri (got "${images}")`, '--images', CL);
  const minScore = num(values['min-score'], '--min-score');
  const seed = num(values.seed, '--seed');
  const evalSets = list(values['eval-sets']);
  const cycles = list(values.cycles);
  const apps = list(values.apps);
  return {
    ocr: !values['no-image-ocr'],
    request: {
      name: values.name,
      ...(formats ? { formats: formats as FormatName[] } : {}),
      filters: {
        ...(cycles ? { cycles } : {}),
        ...(values.since !== undefined ? { since: values.since } : {}),
        ...(apps ? { apps } : {}),
        ...(rewardWindow ? { rewardWindow } : {}),
        ...(preset !== undefined ? { rewardPreset: preset as RewardPreset } : {}),
      },
      ...(values.split !== undefined ? { split: parseSplitSpec(values.split) } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(minScore !== undefined ? { minScore } : {}),
      ...(images ? { images } : {}),
      ...(values['embed-images'] ? { embedImages: true } : {}),
      ...(values['keep-guidance'] ? { keepGuidance: true } : {}),
      ...(evalSets ? { evalSets } : {}),
    },
  };
}

export async function exportCommand(args: string[]): Promise<void> {
  const { request, ocr: useOcr } = parseExportArgs(args);
  const config = loadConfig();
  const { createBlobStore } = await import('../storage/blob.js');
  const { exportSnapshot } = await import('../export/snapshot.js');
  // OCR finds the PII regions to blur in screenshots; it loads a model (seconds), so only when asked for.
  const ocr = useOcr ? await (await import('../models/ocr.js')).createOcrEngine() : undefined;
  const t0 = performance.now();
  await withDatabase(config, async (db) => {
    const result = await exportSnapshot({ db, blobs: createBlobStore(config.blob), ...(ocr ? { ocr } : {}) }, request);
    if (!result) {
      out(`trajforge: nothing to export: the selection has no row in the requested formats`);
      return;
    }
    const m = result.manifest;
    out(`trajforge: dataset ${result.name} v${result.version}${result.reused ? ' (same content as this existing version)' : ''} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    out(`  manifest   ${result.manifestUri}`);
    out(`  rollouts   ${m.counts.rollouts_selected ?? 0} judged (${m.counts.rollouts_accepted ?? 0} accepted; human verdicts ${m.counts.acceptance_human ?? 0}) from ${m.lineage.cycles.length} cycle(s)`);
    for (const f of m.files.filter((x) => x.rows !== undefined)) out(`  ${f.path.padEnd(34)} ${String(f.rows).padStart(7)} rows`);
    out(`  images     ${m.counts.images ?? 0} copied into the snapshot (${m.selection.images.location}${m.selection.images.embedded ? ', embedded in Parquet' : ''}); ${m.pii.imagesScanned} scanned for PII, ${m.pii.imagesBlurred} blurred`);
    const dropped = Object.values(m.contamination.dropped).reduce((a, b) => a + b, 0);
    out(`  guard      ${dropped} rollout(s) dropped as eval contamination (eval sets: ${m.contamination.evalSets.join(', ') || 'none frozen'})`);
  });
}

function parseRef(ref: string | undefined, what: string): { name: string; version?: number } {
  if (!ref) throw new ValidationError('is required', what, CL);
  const [name, v] = ref.split('@');
  if (!name) throw new ValidationError(`must be NAME or NAME@VERSION (got "${ref}")`, what, CL);
  if (v === undefined) return { name };
  const version = Number(v);
  if (!Number.isInteger(version) || version < 1) throw new ValidationError(`version must be a positive integer (got "${v}")`, what, CL);
  return { name, version };
}

async function resolveRef(db: Queryable, ref: { name: string; version?: number }, what: string): Promise<{ name: string; version: number; manifest: unknown; createdAt: string }> {
  const version = ref.version ?? (await listDatasets(db, ref.name)).at(-1)?.version;
  const row = version === undefined ? undefined : await getDataset(db, ref.name, version);
  if (!row) throw new ValidationError(`no dataset ${ref.name}${ref.version ? `@${ref.version}` : ''}`, what, CL);
  return row;
}

function snapshotManifest(m: unknown, what: string): SnapshotManifest {
  const parsed = SnapshotManifest.safeParse(m);
  if (!parsed.success) throw new ValidationError('is not a snapshot (an export from before snapshots); show/diff need snapshot manifests', what, CL);
  return parsed.data;
}

export async function datasetsCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const config = loadConfig();
  if (sub === 'list') {
    const { values } = parseArgs({ args: rest, options: { name: { type: 'string' } } });
    await withDatabase(config, async (db) => {
      const rows = await listDatasets(db, values.name);
      if (rows.length === 0) out('no datasets');
      for (const r of rows) out(`${`${r.name}@${r.version}`.padEnd(28)} ${r.kind.padEnd(9)} ${String(r.items).padStart(8)} items  ${r.createdAt}  ${r.format}`);
    });
    return;
  }
  if (sub === 'show') {
    const ref = parseRef(rest[0], 'NAME[@VERSION]');
    await withDatabase(config, async (db) => {
      const row = await resolveRef(db, ref, 'NAME[@VERSION]');
      const m = snapshotManifest(row.manifest, 'NAME[@VERSION]');
      out(`${m.name}@${m.version}  created ${row.createdAt}`);
      out(`  formats    ${Object.entries(m.formats).map(([k, v]) => `${k}=${v}`).join(', ')}`);
      out(`  filters    ${JSON.stringify(m.selection.filters)}  split ${m.selection.split.map((s) => `${s.name}=${s.fraction}`).join(',')}  seed ${m.selection.seed}  min-score ${m.selection.minScore}`);
      out(`  lineage    cycles ${m.lineage.cycles.join(', ')}; models ${m.lineage.modelVersions.join(', ')}; critics ${m.lineage.criticVersions.join(', ')}`);
      out(`  counts     ${Object.entries(m.counts).sort(([x], [y]) => x.localeCompare(y)).map(([k, v]) => `${k}=${v}`).join(' ')}`);
      for (const [role, drops] of Object.entries(m.roleDrops)) out(`  role drops ${role}: ${Object.entries(drops).map(([k, v]) => `${k}=${v}`).join(' ')}`);
      for (const c of await datasetItemCounts(db, m.name, m.version)) out(`  items      ${c.format.padEnd(22)} ${c.split.padEnd(6)} ${String(c.items).padStart(7)} rows from ${c.rollouts} rollouts`);
      out(`  files      ${m.files.length} (${m.files.filter((f) => f.path.startsWith('images/')).length} images)`);
      out(`  selection SQL:`);
      for (const line of m.selection.sql.split('\n')) out(`    ${line}`);
      out(`    params ${JSON.stringify(m.selection.params)}`);
    });
    return;
  }
  if (sub === 'diff') {
    const a = parseRef(rest[0], 'A');
    const b = parseRef(rest[1], 'B');
    await withDatabase(config, async (db) => {
      const ra = await resolveRef(db, a, 'A');
      const rb = await resolveRef(db, b, 'B');
      out(`${ra.name}@${ra.version} → ${rb.name}@${rb.version}`);
      const lines = diffManifests(snapshotManifest(ra.manifest, 'A'), snapshotManifest(rb.manifest, 'B'), {
        a: await datasetRollouts(db, ra.name, ra.version),
        b: await datasetRollouts(db, rb.name, rb.version),
      });
      for (const l of lines) out(`  ${l}`);
    });
    return;
  }
  throw new ValidationError(`unknown subcommand "${sub ?? ''}" (list, show, diff)`, 'datasets', CL);
}
