import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Pool } from 'pg';
import type { Query, Rollout, Step } from '../domain/entities.js';
import type { BlobStore, OcrEngine } from '../domain/ports.js';
import { parseOrThrow } from '../domain/errors.js';
import { withTransaction } from '../storage/db.js';
import * as repo from '../storage/repos.js';
import { cycleConfigHashes, insertSnapshotItems, stepVerdictsOf, type SnapshotItemInput } from '../storage/dataset-repo.js';
import { CLICK_TOLERANCE, TEXT_F1_THRESHOLD, smallestEnclosingBox } from '../synthesis/matchers.js';
import { loadContaminationGuard } from './contamination.js';
import {
  FORMATS,
  FORMAT_IDS,
  GRPO_COLUMNS,
  GRPO_SELECT,
  MALFORMED_KINDS,
  REPLAY_COLUMNS,
  RunningStats,
  TRPO_COLUMNS,
  TRPO_SELECT,
  llamaFactoryDatasetInfo,
  messagesRow,
  shareGptRow,
  trajectoryReward,
  type FormatName,
  type GroundTruth,
  type GrpoRow,
  type ImageCell,
  type ReplayRow,
  type RowMeta,
  type TrpoRow,
} from './formats.js';
import { buildSamples, type SftSample, type StepJudgement } from './gui-owl-sft.js';
import { ImageResolver, type ImageLocation } from './images.js';
import { encodeJsonl } from './jsonl.js';
import { SNAPSHOT_SCHEMA, type SnapshotManifest } from './manifest.js';
import { ParquetWriter } from './parquet.js';
import { buildRoleSamples, rebalanceReflector, type RoleDrops, type RoleSample } from './roles.js';
import { createScrubber, noPii, type PiiCounts } from './scrub.js';
import { listErrorRecoverySamples, type ErrorRecoverySampleRow } from '../storage/error-recovery-repo.js';
import { reasoningSamplesOf, rolloutGuidanceMany, type StoredReasoningSample } from '../storage/guidance-repo.js';
import { buildReasoningSamples, type ReasoningSample } from './reasoning.js';
import { SelectionFilters, selectRollouts, selectionQuery } from './selection.js';
import { ALL_TRAIN, SplitSpec, splitOf } from './splits.js';

/** What to export: the selection, the formats, splits and image handling. */
export const SnapshotRequest = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'dataset names are lowercase words, digits, - and _'),
    formats: z.array(z.enum(FORMATS as [FormatName, ...FormatName[]])).min(1).default([...FORMATS]),
    filters: SelectionFilters.default({}),
    split: SplitSpec.default(ALL_TRAIN),
    seed: z.number().int().default(0),
    /** Step cleansing τc: steps the step critic scored below it are dropped (SFT, GRPO, roles). */
    minScore: z.number().min(0).max(1).default(0.25),
    historyImages: z.number().int().min(1).max(3).default(1),
    /** `auto`: `copy` for a local store, `uri` for S3. */
    images: z.enum(['auto', 'copy', 'uri']).default('auto'),
    embedImages: z.boolean().default(false),
    /** Keep guided attempts' guidance text in the rebuilt prompts (`--keep-guidance`); by default only its version. */
    keepGuidance: z.boolean().default(false),
    /** Eval sets the contamination guard checks (default: every frozen one). */
    evalSets: z.array(z.string().min(1)).optional(),
  })
  .strict();
export type SnapshotRequest = z.input<typeof SnapshotRequest>;

export interface SnapshotDeps {
  db: Pool;
  blobs: BlobStore;
  /** OCR for blurring PII in screenshots; without it images are exported unscanned (the manifest counts scans). */
  ocr?: OcrEngine;
  /** Called once per processed rollout (activity heartbeats). */
  progress?: () => void;
}

export interface SnapshotResult {
  name: string;
  version: number;
  manifestKey: string;
  manifestUri: string;
  reused: boolean;
  manifest: SnapshotManifest;
  /** Rows per format (all splits). */
  rows: Record<string, number>;
}

const sha256 = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');
const UiTree = z.object({ nodes: z.array(z.object({ bounds: z.array(z.number()) }).passthrough()) }).passthrough();

interface OutFile {
  path: string;
  bytes: Uint8Array;
  sha256: string;
  rows?: number;
  contentType: string;
}

/**
 * Exports a dataset snapshot: selects judged rollouts across cycles through `rollout_acceptance` (human verdicts
 * win; reviewer-dropped steps never exported), drops what the contamination guard flags, scrubs PII from every text
 * field and image, splits by query, writes every requested format plus a manifest to `datasets/<name>/v<N>/` in the
 * blob store and registers the version in `datasets`/`dataset_items`. SFT, GRPO and role data take accepted
 * rollouts; TRPO records take every judged one (reward 1/0). Same selection → same bytes; exporting content that
 * already exists under the name returns that version (`reused`). Refuses to write when the guard cannot load.
 * Returns null (and writes nothing) when the selection yields no row in any requested format.
 */
export async function exportSnapshot(deps: SnapshotDeps, input: SnapshotRequest): Promise<SnapshotResult | null> {
  const req = parseOrThrow(SnapshotRequest, input, 'export request');
  const { db, blobs } = deps;
  let guard;
  try {
    guard = await loadContaminationGuard(db, req.evalSets);
  } catch (err) {
    throw new Error(`contamination guard could not load, refusing to export: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  const location: ImageLocation = req.images === 'auto' ? (blobs.kind === 's3' ? 'uri' : 'copy') : req.images;
  const formats = new Set(req.formats);
  const selected = await selectRollouts(db, req.filters);
  const configHashes = await cycleConfigHashes(db, [...new Set(selected.map((s) => s.cycleId))]);
  // Images are resolved (scrubbed, hashed) while rows are built and copied into the version's prefix only once the
  // content is known to be new; relative paths do not depend on the version.
  const images = new ImageResolver({ blobs, location, embed: req.embedImages, ...(deps.ocr ? { ocr: deps.ocr } : {}) });

  const counts: Record<string, number> = {};
  const count = (k: string, n = 1): void => void (counts[k] = (counts[k] ?? 0) + n);
  const textPii = noPii();
  // One scrubber per rollout: a code or number found once (say, read off the screen in a step's reasoning) is also
  // replaced where it recurs bare, typically in the next `type` action's text.
  const scrubberFor = (): ((text: string) => string) & { flush(): void } => {
    const scrubber = createScrubber();
    const flushed = noPii();
    return Object.assign((text: string) => scrubber.text(text), {
      // Adds what was found since the last flush to the snapshot's counts (callable more than once).
      flush: () => {
        for (const [k, n] of Object.entries(scrubber.counts)) {
          textPii[k as keyof PiiCounts] += n - flushed[k as keyof PiiCounts];
          flushed[k as keyof PiiCounts] = n;
        }
      },
    });
  };
  const contamination: Record<string, number> = {};
  const lineage = { cycles: new Set<string>(), models: new Set<string>(), critics: new Set<string>(), dags: new Map<string, Set<string>>(), configs: new Set<string>() };

  const sft: { split: string; sample: SftSample; meta: RowMeta; step: Step | undefined }[] = [];
  const trpo: { split: string; row: TrpoRow }[] = [];
  const replay: ReplayRow[] = [];
  let roleSamples: (RoleSample & { split: string; meta: RowMeta })[] = [];
  const reasoning: { split: string; sample: ReasoningSample; meta: RowMeta }[] = [];
  const recovery: { split: string; imageKeys: string[]; row: { id: string; messages: { role: string; content: string }[]; tools: string; meta: RowMeta & Record<string, unknown> } }[] = [];
  const roleDrops: RoleDrops = {};
  const stats = new RunningStats();
  const queries = new Map<string, Query>();

  // Rollouts and step verdicts are loaded per cycle in a few round trips (the selection is ordered by cycle).
  let loadedCycle: string | undefined;
  let rollouts = new Map<string, Rollout>();
  let verdicts = new Map<string, Map<number, StepJudgement>>();
  let guidances = new Map<string, { version: number; text: string; source: string }>();
  let recoveries = new Map<string, ErrorRecoverySampleRow[]>();
  let traces = new Map<string, StoredReasoningSample[]>();
  for (const sel of selected) {
    deps.progress?.();
    if (sel.cycleId !== loadedCycle) {
      loadedCycle = sel.cycleId;
      const inCycle = selected.filter((s) => s.cycleId === sel.cycleId);
      const accepted = inCycle.filter((s) => s.accepted).map((s) => s.rolloutId);
      rollouts = new Map((await repo.listRollouts(db, sel.cycleId)).map((r) => [r.id, r]));
      verdicts = await stepVerdictsOf(db, accepted, sel.criticVersion);
      guidances = await rolloutGuidanceMany(db, inCycle.map((s) => s.rolloutId));
      const missing = [...new Set(inCycle.map((s) => s.queryId))].filter((id) => !queries.has(id));
      for (const [id, q] of await repo.getQueries(db, missing)) queries.set(id, q);
      recoveries = new Map();
      traces = formats.has('reasoning') ? await reasoningSamplesOf(db, accepted) : new Map();
      if (formats.has('error_recovery')) {
        for (const e of await listErrorRecoverySamples(db, { rolloutIds: accepted })) {
          const list = recoveries.get(e.rolloutId) ?? [];
          list.push(e);
          recoveries.set(e.rolloutId, list);
        }
      }
    }
    const raw = rollouts.get(sel.rolloutId);
    if (!raw) continue;
    const query = queries.get(sel.queryId);
    if (!query) continue;
    const keys = raw.steps.flatMap((s) => [s.before.screenshotKey, ...(s.after ? [s.after.screenshotKey] : [])]);
    const hit = guard.check({ instruction: query.instruction, screenshotKeys: keys });
    if (hit) {
      contamination[hit.kind] = (contamination[hit.kind] ?? 0) + 1;
      count('rollouts_contaminated');
      continue;
    }
    count('rollouts_selected');
    count(sel.accepted ? 'rollouts_accepted' : 'rollouts_rejected');
    count(`acceptance_${sel.acceptanceSource}`);
    const scrub = scrubberFor();
    const scrubbedQuery: Query = { ...query, instruction: scrub(query.instruction) };
    const rollout = scrubRollout(raw, scrub);
    const split = splitOf(sel.queryId, req.seed, req.split);
    const modelVersion = `${raw.model.name}@${raw.model.version}`;
    const configHash = configHashes.get(sel.cycleId) ?? '';
    lineage.cycles.add(sel.cycleId);
    lineage.models.add(modelVersion);
    lineage.critics.add(sel.criticVersion);
    lineage.configs.add(configHash);
    const dags = lineage.dags.get(query.app) ?? new Set<string>();
    dags.add(query.dagVersion);
    lineage.dags.set(query.app, dags);
    // A guided attempt's guidance: its version always (lineage), its text only when asked (`keepGuidance`).
    const guidance = guidances.get(rollout.id);
    const base = {
      rollout,
      query: scrubbedQuery,
      historyImages: req.historyImages,
      ...(guidance ? { guidance: { version: guidance.version, source: guidance.source, ...(req.keepGuidance ? { text: scrub(guidance.text) } : {}) } } : {}),
      lineage: { cycleId: sel.cycleId, modelVersion, criticVersion: sel.criticVersion, dagVersion: query.dagVersion, configHash },
      uri: (k: string) => k,
    };
    // Every text of the rollout is scrubbed by now (guidance included): its PII counts go to the manifest.
    scrub.flush();
    const meta = (step: number): RowMeta => ({
      id: `${rollout.id}#${step}`,
      split,
      rollout_id: rollout.id,
      step,
      query_id: query.id,
      app: query.app,
      cycle_id: sel.cycleId,
      model_version: modelVersion,
      critic_version: sel.criticVersion,
      dag_version: query.dagVersion,
      config_hash: configHash,
      acceptance_source: sel.acceptanceSource,
      traj_num_steps: rollout.steps.length,
    });
    const humanDropped = new Set(sel.droppedSteps);
    if (sel.accepted) {
      const judgements = verdicts.get(rollout.id) ?? new Map<number, StepJudgement>();
      const built = buildSamples({ ...base, judgements, tauC: req.minScore, keep: (s) => !humanDropped.has(s.index) });
      for (const r of built.removed) count(`steps_removed_${r.reason === 'dropped' ? 'by_reviewer' : r.reason}`);
      for (const s of built.samples) sft.push({ split, sample: s, meta: meta(s.meta.step), step: rollout.steps.find((x) => x.index === s.meta.step) });
      if (formats.has('roles')) {
        const kept = new Set(built.samples.map((s) => s.meta.step));
        roleSamples.push(...buildRoleSamples(rollout, kept, roleDrops).map((r) => ({ ...r, split, meta: meta(r.step) })));
      }
      if (formats.has('reasoning')) {
        const built2 = buildReasoningSamples({ rollout, executed: raw, kept: built.samples, stored: traces.get(rollout.id) ?? [], scrub });
        for (const [reason, n] of Object.entries(built2.dropped)) count(`reasoning_dropped_${reason}`, n);
        for (const s of built2.samples) {
          count(`reasoning_${s.reasoning.kind}`);
          reasoning.push({ split, sample: s, meta: { ...meta(s.meta.step), id: s.id } });
        }
        scrub.flush();
      }
      replay.push({ task_id: query.id, rollout_id: rollout.id, cycle_id: sel.cycleId, split, instruction: scrubbedQuery.instruction, num_steps: rollout.steps.length, reward: 1 });
      if (formats.has('error_recovery')) {
        // InfiGUI-R1 error-recovery samples built from this accepted rollout (synthesis/error-recovery.ts).
        for (const e of recoveries.get(rollout.id) ?? []) {
          if (humanDropped.has(e.step)) continue;
          recovery.push({
            split,
            imageKeys: e.imageKeys,
            row: {
              id: `${rollout.id}#${e.step}/${e.kind}/${e.generator}`,
              messages: e.messages.map((m) => ({ ...m, content: scrub(m.content) })),
              tools: e.tools,
              meta: {
                ...meta(e.step),
                id: `${rollout.id}#${e.step}/${e.kind}/${e.generator}`,
                kind: e.kind,
                generator: e.generator,
                wrong_action: e.wrongAction,
                escape_action: e.escapeAction,
                target_action: e.targetAction,
                p_success: e.pSuccess,
                replay_verified: e.replayVerified,
                escape_restored: e.escapeRestored,
                seed: e.seed,
              },
            },
          });
        }
        scrub.flush();
      }
    }
    if (formats.has('trpo')) {
      const malformed = rollout.steps.some((s) => s.error !== undefined && MALFORMED_KINDS.has(s.error.kind));
      const reward = trajectoryReward(sel.accepted, malformed);
      const advantage = stats.advantage(reward);
      const built = buildSamples({ ...base, judgements: new Map(), tauC: 0, mode: 'all', keep: (s) => !humanDropped.has(s.index) });
      count('trpo_steps_without_action', built.removed.filter((r) => r.reason === 'error').length);
      for (const s of built.samples) {
        const m = meta(s.meta.step);
        trpo.push({
          split,
          row: {
            data_source: `trajforge/${query.app}`,
            prompt: s.messages.slice(0, -1),
            images: await imageCells(images, s.image_keys),
            response: s.messages[s.messages.length - 1]!.content,
            ability: 'gui_agent',
            task_id: query.id,
            success: sel.accepted,
            malformed,
            reward,
            advantage,
            traj_num_steps: rollout.steps.length,
            extra_info: { ...m, index: 0, tools: s.tools },
          },
        });
      }
    }
  }
  if (formats.has('roles')) roleSamples = rebalanceReflector(roleSamples, req.seed, roleDrops);

  // ------------------------------------------------------------------ rows → files
  const files: OutFile[] = [];
  const items: Omit<SnapshotItemInput, 'itemIdx'>[] = [];
  const splits = req.split.map((s) => s.name);
  const jsonl = (rows: unknown[]): Uint8Array => encodeJsonl(rows);
  const rowCounts: Record<string, number> = {};
  const addFile = (format: string, path: string, bytes: Uint8Array, rows: number, contentType: string): void => {
    files.push({ path, bytes, sha256: sha256(bytes), rows, contentType });
    rowCounts[format] = (rowCounts[format] ?? 0) + rows;
    count(`rows_${path.replace(/\.[a-z]+$/, '').replace(/\//g, '_')}`, rows);
  };
  const parquet = formats.has('grpo') || formats.has('trpo') ? await ParquetWriter.open() : undefined;
  // UI trees by blob key, parsed once (many steps share a screen's tree).
  const trees = new Map<string, Promise<z.infer<typeof UiTree> | undefined>>();
  try {
    if (formats.has('sft') || formats.has('sharegpt')) {
      const shareFiles: { split: string; path: string }[] = [];
      for (const split of splits) {
        const rows = sft.filter((s) => s.split === split);
        if (rows.length === 0) continue;
        const refs = await Promise.all(rows.map(async (r) => Promise.all(r.sample.image_keys.map(async (k) => (await images.resolve(k)).ref))));
        if (formats.has('sft')) {
          addFile('sft', `sft/${split}.jsonl`, jsonl(rows.map((r, i) => messagesRow(r.sample, refs[i]!, r.meta))), rows.length, 'application/x-ndjson');
          items.push(...rows.map((r) => ({ rolloutId: r.meta.rollout_id, stepIdx: r.meta.step, sampleKey: r.sample.id, format: 'sft', split })));
        }
        if (formats.has('sharegpt')) {
          const path = `sharegpt/${split}.jsonl`;
          addFile('sharegpt', path, jsonl(rows.map((r, i) => shareGptRow(r.sample, refs[i]!))), rows.length, 'application/x-ndjson');
          items.push(...rows.map((r) => ({ rolloutId: r.meta.rollout_id, stepIdx: r.meta.step, sampleKey: r.sample.id, format: 'sharegpt', split })));
          shareFiles.push({ split, path });
        }
      }
      if (formats.has('sharegpt') && shareFiles.length > 0) {
        const bytes = Buffer.from(JSON.stringify(llamaFactoryDatasetInfo(req.name, shareFiles), null, 2) + '\n');
        files.push({ path: 'dataset_info.json', bytes, sha256: sha256(bytes), contentType: 'application/json' });
      }
    }
    if (formats.has('grpo') && parquet) {
      for (const split of splits) {
        const rows = sft.filter((s) => s.split === split);
        if (rows.length === 0) continue;
        const out: GrpoRow[] = [];
        for (const [index, r] of rows.entries()) out.push(await grpoRow(blobs, images, r.sample, r.meta, index, r.step, trees));
        addFile('grpo', `grpo/${split}.parquet`, await parquet.write(out, GRPO_COLUMNS, GRPO_SELECT), out.length, 'application/vnd.apache.parquet');
        items.push(...rows.map((r) => ({ rolloutId: r.meta.rollout_id, stepIdx: r.meta.step, sampleKey: r.sample.id, format: 'grpo', split })));
      }
    }
    if (formats.has('trpo') && parquet) {
      for (const split of splits) {
        const rows = trpo.filter((t) => t.split === split).map((t, index) => ({ ...t.row, extra_info: { ...t.row.extra_info, index } }));
        if (rows.length === 0) continue;
        addFile('trpo', `trpo/${split}.parquet`, await parquet.write(rows, TRPO_COLUMNS, TRPO_SELECT), rows.length, 'application/vnd.apache.parquet');
        items.push(...rows.map((r) => ({ rolloutId: r.extra_info.rollout_id, stepIdx: r.extra_info.step, sampleKey: r.extra_info.id, format: 'trpo', split })));
      }
      if (replay.length > 0) {
        const sorted = [...replay].sort((a, b) => a.task_id.localeCompare(b.task_id) || a.rollout_id.localeCompare(b.rollout_id));
        addFile('trpo-replay', 'trpo/replay.parquet', await parquet.write(sorted, REPLAY_COLUMNS), sorted.length, 'application/vnd.apache.parquet');
        items.push(...sorted.map((r) => ({ rolloutId: r.rollout_id, stepIdx: null, sampleKey: r.rollout_id, format: 'trpo-replay', split: r.split })));
      }
    }
  } finally {
    await parquet?.close();
  }
  if (formats.has('roles')) {
    const datasets = [...new Set(roleSamples.map((r) => r.dataset))].sort();
    for (const dataset of datasets) {
      for (const split of splits) {
        const rows = roleSamples.filter((r) => r.dataset === dataset && r.split === split);
        if (rows.length === 0) continue;
        const out = [];
        for (const r of rows) {
          const refs = [];
          for (const k of r.imageKeys) refs.push((await images.resolve(k)).ref);
          // Role texts were scrubbed with the rollout (scrubRollout).
          out.push({ id: r.id, messages: r.messages, images: refs, meta: { ...r.meta, id: r.id, role: dataset, ...(r.outcome ? { outcome: r.outcome } : {}) } });
        }
        addFile('roles', `roles/${dataset}/${split}.jsonl`, jsonl(out), out.length, 'application/x-ndjson');
        items.push(...rows.map((r) => ({ rolloutId: r.rolloutId, stepIdx: r.step, sampleKey: r.id, format: `roles/${dataset}`, split })));
      }
    }
  }

  if (formats.has('reasoning')) {
    for (const split of splits) {
      const rows = reasoning.filter((r) => r.split === split);
      if (rows.length === 0) continue;
      const out = [];
      for (const r of rows) {
        const refs = [];
        for (const k of r.sample.image_keys) refs.push((await images.resolve(k)).ref);
        const row = messagesRow(r.sample, refs, r.meta);
        out.push({ ...row, meta: { ...row.meta, ...r.sample.reasoning } });
      }
      addFile('reasoning', `reasoning/${split}.jsonl`, jsonl(out), out.length, 'application/x-ndjson');
      items.push(...rows.map((r) => ({ rolloutId: r.meta.rollout_id, stepIdx: r.meta.step, sampleKey: r.sample.id, format: 'reasoning', split })));
    }
  }

  if (formats.has('error_recovery')) {
    for (const split of splits) {
      const rows = recovery.filter((r) => r.split === split);
      if (rows.length === 0) continue;
      const out = [];
      for (const r of rows) {
        const refs = [];
        for (const k of r.imageKeys) refs.push((await images.resolve(k)).ref);
        out.push({ ...r.row, images: refs });
      }
      addFile('error_recovery', `error_recovery/${split}.jsonl`, jsonl(out), out.length, 'application/x-ndjson');
      items.push(...rows.map((r) => ({ rolloutId: r.row.meta.rollout_id, stepIdx: r.row.meta.step, sampleKey: r.row.id, format: 'error_recovery', split })));
    }
  }

  // ------------------------------------------------------------------ version, blobs, manifest, rows
  if (files.length === 0) return null;
  const imageFiles = images.files();
  const fingerprint = sha256(
    [`${SNAPSHOT_SCHEMA}\n${req.name}`, ...files.map((f) => `${f.path} ${f.sha256}`), ...imageFiles.map((f) => `${f.path} ${f.sha256}`)].join('\n'),
  );
  const existing = await repo.getDatasetByFingerprint(db, fingerprint);
  if (existing) {
    const manifest = existing.manifest as SnapshotManifest;
    return { name: existing.name, version: existing.version, manifestKey: existing.manifestKey, manifestUri: blobs.uri(existing.manifestKey), reused: true, manifest, rows: rowCounts };
  }
  const version = await repo.nextDatasetVersion(db, req.name);
  const prefix = `datasets/${req.name}/v${version}`;
  for (const f of imageFiles) await blobs.putAt(`${prefix}/${f.path}`, await blobs.get(f.key), { contentType: 'image/png' });
  for (const f of files) await blobs.putAt(`${prefix}/${f.path}`, f.bytes, { contentType: f.contentType });
  const q = selectionQuery(req.filters);
  const manifest: SnapshotManifest = {
    schema: SNAPSHOT_SCHEMA,
    name: req.name,
    version,
    formats: Object.fromEntries(req.formats.map((f) => [f, FORMAT_IDS[f]])),
    selection: {
      filters: req.filters,
      split: req.split,
      seed: req.seed,
      minScore: req.minScore,
      historyImages: req.historyImages,
      images: { location, embedded: req.embedImages },
      evalSets: [...guard.evalSets],
      sql: q.sql,
      params: q.params,
    },
    lineage: {
      cycles: [...lineage.cycles],
      modelVersions: [...lineage.models].sort(),
      criticVersions: [...lineage.critics].sort(),
      dagVersions: Object.fromEntries([...lineage.dags.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([app, v]) => [app, [...v].sort()])),
      configHashes: [...lineage.configs].sort(),
    },
    counts: Object.fromEntries(Object.entries({ ...counts, images: imageFiles.length }).sort(([a], [b]) => a.localeCompare(b))),
    roleDrops: Object.fromEntries(Object.entries(roleDrops).sort(([a], [b]) => a.localeCompare(b))) as Record<string, Record<string, number>>,
    pii: { text: textPii, image: images.stats.pii, imagesScanned: images.stats.scanned, imagesBlurred: images.stats.blurred, regions: images.stats.regions },
    contamination: { evalSets: [...guard.evalSets], dropped: contamination },
    files: [
      ...files.map((f) => ({ path: f.path, blobKey: `${prefix}/${f.path}`, sha256: f.sha256, bytes: f.bytes.length, ...(f.rows !== undefined ? { rows: f.rows } : {}) })),
      ...imageFiles.map((f) => ({ path: f.path, blobKey: `${prefix}/${f.path}`, sha256: f.sha256, bytes: f.bytes })),
    ],
  };
  const manifestKey = `${prefix}/manifest.json`;
  await blobs.putAt(manifestKey, Buffer.from(JSON.stringify(manifest, null, 2) + '\n'), { contentType: 'application/json' });
  const configHash = manifest.lineage.configHashes.length === 1 ? manifest.lineage.configHashes[0]! : `mixed:${sha256(manifest.lineage.configHashes.join(',')).slice(0, 12)}`;
  await withTransaction(db, async (client) => {
    await repo.upsertDataset(client, { name: req.name, version, kind: 'snapshot', format: req.formats.map((f) => FORMAT_IDS[f]).join('+'), manifestKey, manifest, configHash, fingerprint });
    await insertSnapshotItems(client, req.name, version, items.map((it, itemIdx) => ({ ...it, itemIdx })));
  });
  return { name: req.name, version, manifestKey, manifestUri: blobs.uri(manifestKey), reused: false, manifest, rows: rowCounts };
}

/** A copy of the rollout with every exported text field scrubbed (reasoning, conclusion, role texts and replies). */
function scrubRollout(r: Rollout, scrub: (t: string) => string): Rollout {
  return {
    ...r,
    ...(r.outcome !== undefined ? { outcome: scrub(r.outcome) } : {}),
    steps: r.steps.map((s) => ({
      ...s,
      reasoning: scrub(s.reasoning),
      conclusion: scrub(s.conclusion),
      ...(s.action && 'text' in s.action && typeof s.action.text === 'string' ? { action: { ...s.action, text: scrub(s.action.text) } as Step['action'] } : {}),
      ...(s.roles
        ? { roles: s.roles.map((c) => ({ ...c, reply: scrub(c.reply), request: { messages: c.request.messages.map((m) => ({ ...m, text: scrub(m.text) })) } })) }
        : {}),
    })),
  };
}

async function imageCells(images: ImageResolver, keys: readonly string[]): Promise<ImageCell[]> {
  const cells: ImageCell[] = [];
  for (const k of keys) {
    const img = await images.resolve(k);
    cells.push({ bytes: img.bytes ? Buffer.from(img.bytes).toString('base64') : null, path: img.ref });
  }
  return cells;
}

async function grpoRow(
  blobs: BlobStore,
  images: ImageResolver,
  sample: SftSample,
  meta: RowMeta,
  index: number,
  step: Step | undefined,
  trees: Map<string, Promise<z.infer<typeof UiTree> | undefined>>,
): Promise<GrpoRow> {
  const action = step?.action;
  if (!step || !action) throw new Error(`sample ${sample.id} has no stored step action`);
  const gt: GroundTruth = {
    action,
    screen: { width: step.before.width, height: step.before.height },
    tolerance: CLICK_TOLERANCE,
    text_f1: TEXT_F1_THRESHOLD,
  };
  const treeKey = step.before.uiTreeKey;
  if ('coordinate' in action && action.coordinate && treeKey) {
    let tree = trees.get(treeKey);
    if (!tree) {
      tree = blobs.get(treeKey).then(
        (bytes) => {
          try {
            const parsed = UiTree.safeParse(JSON.parse(Buffer.from(bytes).toString('utf8')));
            return parsed.success ? parsed.data : undefined;
          } catch {
            return undefined;
          }
        },
        () => undefined, // an unreadable tree only loses the box: the 14% tolerance still applies
      );
      trees.set(treeKey, tree);
    }
    const parsed = await tree;
    const box = parsed ? smallestEnclosingBox(parsed, action.coordinate) : undefined;
    if (box) gt.box = box;
  }
  return {
    data_source: `trajforge/${meta.app}`,
    prompt: sample.messages.slice(0, -1),
    images: await imageCells(images, sample.image_keys),
    ability: 'gui_agent',
    reward_model: { style: 'rule', ground_truth: JSON.stringify(gt) },
    extra_info: { ...meta, index, tools: sample.tools },
  };
}
