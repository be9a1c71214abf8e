import { z } from 'zod';
import { Query, Rollout, Step, StepAnnotation, type ModelRef } from '../domain/entities.js';
import { NotFoundError, many, maybeOne, one, type Queryable } from './db.js';

/**
 * Repositories: small named functions over a pool or a client (pass a transaction's client to group
 * writes). Every write is an upsert on a natural key, so a retried activity never duplicates rows.
 * Batches travel as one jsonb parameter expanded with `jsonb_to_recordset`. Rows are parsed with zod.
 */

const ts = z.date().transform((d) => d.toISOString());
const json = (v: unknown): string => JSON.stringify(v);
const BATCH = 5000;

function chunks<T>(rows: readonly T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------------------------------------- models

export interface ModelVersionInput extends ModelRef {
  kind: string;
  parentVersion?: string;
  endpoint?: string;
  meta?: Record<string, unknown>;
}

/** Registers a model version; an existing (name, version) is left as first written (versions are immutable). */
export async function upsertModelVersion(db: Queryable, mv: ModelVersionInput): Promise<void> {
  await db.query(
    `insert into model_versions (name, version, kind, parent_version, endpoint, meta)
     values ($1, $2, $3, $4, $5, $6::jsonb)
     on conflict (name, version) do nothing`,
    [mv.name, mv.version, mv.kind, mv.parentVersion ?? null, mv.endpoint ?? null, json(mv.meta ?? {})],
  );
}

// ---------------------------------------------------------------------------------------------- cycles

export const CycleRow = z
  .object({
    id: z.string(),
    started_at: ts,
    finished_at: ts.nullable(),
    config: z.unknown(),
    config_hash: z.string(),
    model_version: z.string(),
    critic_version: z.string(),
    status: z.string(),
    counts: z.record(z.string(), z.number()),
  })
  .transform((r) => ({
    id: r.id,
    startedAt: r.started_at,
    finishedAt: r.finished_at ?? undefined,
    config: r.config,
    configHash: r.config_hash,
    modelVersion: r.model_version,
    criticVersion: r.critic_version,
    status: r.status,
    counts: r.counts,
  }));
export type CycleRow = z.output<typeof CycleRow>;

/**
 * Records a cycle start. A cycle id is written once: re-running returns the row as first written
 * (its original `startedAt`), so a retried `startCycle` is a no-op.
 */
export async function upsertCycle(
  db: Queryable,
  cycle: { id: string; config: unknown; configHash: string; modelVersion: string; criticVersion: string },
): Promise<CycleRow> {
  await db.query(
    `insert into cycles (id, config, config_hash, model_version, critic_version)
     values ($1, $2::jsonb, $3, $4, $5)
     on conflict (id) do nothing`,
    [cycle.id, json(cycle.config), cycle.configHash, cycle.modelVersion, cycle.criticVersion],
  );
  return getCycleOrThrow(db, cycle.id);
}

export async function getCycle(db: Queryable, id: string): Promise<CycleRow | undefined> {
  return maybeOne(db, 'select * from cycles where id = $1', [id], CycleRow);
}

async function getCycleOrThrow(db: Queryable, id: string): Promise<CycleRow> {
  return one(db, 'select * from cycles where id = $1', [id], CycleRow, `cycle ${id}`);
}

/** The highest N among cycles named `cycle-N` (0 when there are none). */
export async function latestCycleNumber(db: Queryable): Promise<number> {
  const row = await one(
    db,
    `select coalesce(max(substring(id from '^cycle-([0-9]+)$')::bigint), 0) as n from cycles where id ~ '^cycle-[0-9]+$'`,
    [],
    z.object({ n: z.number().int() }),
  );
  return row.n;
}

/** Marks a cycle finished with its counts (re-finishing updates the counts, keeps the first finish time). */
export async function finishCycle(db: Queryable, id: string, counts: Record<string, number>): Promise<CycleRow> {
  const sql = `update cycles set finished_at = coalesce(finished_at, now()), status = 'finished', counts = $2::jsonb
               where id = $1 returning *`;
  const row = await maybeOne(db, sql, [id, json(counts)], CycleRow);
  if (!row) throw new NotFoundError(`cycle ${id} not found`, sql, [id]);
  return row;
}

// --------------------------------------------------------------------------------------------- queries

const QueryRow = z
  .object({
    id: z.string(),
    app: z.string(),
    dag_version: z.string(),
    family: z.string(),
    instruction: z.string(),
    raw_instruction: z.string(),
    path: z.unknown(),
    slots: z.unknown(),
    checker: z.unknown(),
    difficulty: z.number(),
    sampler: z.string(),
    seed: z.number(),
    feasible: z.boolean().nullish(),
    lineage: z.unknown().nullish(),
    validation: z.unknown().nullish(),
  })
  .transform((r) => ({
    id: r.id,
    app: r.app,
    dagVersion: r.dag_version,
    family: r.family,
    instruction: r.instruction,
    rawInstruction: r.raw_instruction,
    path: r.path,
    slots: r.slots,
    checker: r.checker,
    difficulty: r.difficulty,
    sampler: r.sampler,
    seed: r.seed,
    // Absent on rows written before 0003; `feasible` stays implicit (true) unless false.
    ...(r.feasible === false ? { feasible: false } : {}),
    ...(r.lineage ? splitLineage(r.lineage) : {}),
    ...(r.validation ? { validation: r.validation } : {}),
  }))
  .pipe(Query);

/** The `lineage` column holds the query's lineage plus its metadata (D′, K′/V′) under `metadata`. */
function splitLineage(stored: unknown): { lineage?: unknown; metadata?: unknown } {
  const { metadata, ...lineage } = stored as Record<string, unknown>;
  return { ...(Object.keys(lineage).length ? { lineage } : {}), ...(metadata !== undefined ? { metadata } : {}) };
}

/**
 * Stores queries (a query id is a content hash, so an existing one is left as is) and links them to the
 * cycle. `first_cycle_id` is the cycle that first produced the query.
 */
export async function upsertQueries(db: Queryable, cycleId: string, queries: readonly Query[]): Promise<void> {
  for (const batch of chunks(queries)) {
    const rows = batch.map((q) => ({
      id: q.id,
      app: q.app,
      dag_version: q.dagVersion,
      family: q.family,
      instruction: q.instruction,
      raw_instruction: q.rawInstruction,
      path: q.path,
      slots: q.slots,
      checker: q.checker,
      difficulty: q.difficulty,
      sampler: q.sampler,
      seed: q.seed,
      feasible: q.feasible ?? true,
      lineage: q.lineage || q.metadata ? { ...q.lineage, ...(q.metadata ? { metadata: q.metadata } : {}) } : null,
      validation: q.validation ?? null,
    }));
    // One statement: the queries insert and the link insert see each other (FK checks run at statement end).
    await db.query(
      `with input as (
         select * from jsonb_to_recordset($2::jsonb) as x(
           id text, app text, dag_version text, family text, instruction text, raw_instruction text,
           path jsonb, slots jsonb, checker jsonb, difficulty int, sampler text, seed int,
           feasible boolean, lineage jsonb, validation jsonb)
       ), ins as (
         insert into queries (id, app, dag_version, family, instruction, raw_instruction, path, slots, checker,
                              difficulty, sampler, seed, first_cycle_id, feasible, lineage, validation)
         select id, app, dag_version, family, instruction, raw_instruction, path, slots, checker,
                difficulty, sampler, seed, $1, coalesce(feasible, true), lineage, validation from input
         on conflict (id) do nothing
       )
       insert into cycle_queries (cycle_id, query_id)
       select distinct $1, id from input
       on conflict do nothing`,
      [cycleId, json(rows)],
    );
  }
}

export async function getQuery(db: Queryable, id: string): Promise<Query | undefined> {
  return maybeOne(db, 'select * from queries where id = $1', [id], QueryRow);
}

/** These queries, by id (ids not stored are absent): one round trip for many. */
export async function getQueries(db: Queryable, ids: readonly string[]): Promise<Map<string, Query>> {
  if (ids.length === 0) return new Map();
  const rows = await many(db, 'select * from queries where id = any($1::text[])', [ids], QueryRow);
  return new Map(rows.map((q) => [q.id, q]));
}

/** The queries linked to a cycle, by id. */
export async function listCycleQueries(db: Queryable, cycleId: string): Promise<Query[]> {
  return many(
    db,
    `select q.* from queries q join cycle_queries cq on cq.query_id = q.id where cq.cycle_id = $1 order by q.id`,
    [cycleId],
    QueryRow,
  );
}

// -------------------------------------------------------------------------------------------- rollouts

const RolloutRow = z.object({
  id: z.string(),
  cycle_id: z.string(),
  query_id: z.string(),
  attempt: z.number(),
  agent_mode: z.string(),
  action_space: z.string(),
  model_name: z.string(),
  model_version: z.string(),
  status: z.string(),
  outcome: z.string().nullable(),
  step_count: z.number(),
  ground_truth: z.boolean().nullable(),
  ground_truth_reason: z.string().nullable().optional(),
  degraded: z.boolean(),
  config_hash: z.string(),
});
type RolloutRow = z.infer<typeof RolloutRow>;

const StepRow = z
  .object({
    rollout_id: z.string(),
    idx: z.number(),
    before: z.unknown(),
    after: z.unknown(),
    action: z.unknown(),
    error: z.unknown(),
    reasoning: z.string(),
    conclusion: z.string(),
    model_call_key: z.string().nullable(),
    latency_ms: z.number(),
    metrics: z.unknown().optional(),
    roles: z.unknown().optional(),
  })
  .transform((r) => ({
    rolloutId: r.rollout_id,
    step: Step.parse({
      index: r.idx,
      before: r.before,
      ...(r.after != null ? { after: r.after } : {}),
      ...(r.action != null ? { action: r.action } : {}),
      ...(r.error != null ? { error: r.error } : {}),
      reasoning: r.reasoning,
      conclusion: r.conclusion,
      ...(r.model_call_key != null ? { modelCallKey: r.model_call_key } : {}),
      latencyMs: r.latency_ms,
      ...(r.metrics != null ? { metrics: r.metrics } : {}),
      ...(r.roles != null ? { roles: r.roles } : {}),
    }),
  }));

function toRollout(r: RolloutRow, steps: Step[]): Rollout {
  return Rollout.parse({
    id: r.id,
    cycleId: r.cycle_id,
    queryId: r.query_id,
    attempt: r.attempt,
    agentMode: r.agent_mode,
    actionSpace: r.action_space,
    model: { name: r.model_name, version: r.model_version },
    status: r.status,
    ...(r.outcome !== null ? { outcome: r.outcome } : {}),
    steps,
    ...(r.ground_truth !== null ? { groundTruth: r.ground_truth } : {}),
    ...(r.ground_truth_reason != null ? { groundTruthReason: r.ground_truth_reason } : {}),
  });
}

/**
 * Writes a rollout and all its steps atomically — one statement (rollout upsert, steps batch upsert, and
 * removal of steps beyond the new count), so it is all-or-nothing on a pool or inside a caller's
 * transaction alike. Writing the same rollout twice leaves one row and the same steps.
 */
export async function upsertRollout(
  db: Queryable,
  rollout: Rollout,
  meta: { degraded: boolean; configHash: string },
): Promise<void> {
  const steps = rollout.steps.map((s) => ({
    idx: s.index,
    before: s.before,
    after: s.after ?? null,
    action: s.action ?? null,
    error: s.error ?? null,
    error_kind: s.error?.kind ?? null,
    reasoning: s.reasoning,
    conclusion: s.conclusion,
    model_call_key: s.modelCallKey ?? null,
    latency_ms: s.latencyMs,
    metrics: s.metrics ?? null,
    roles: s.roles ?? null,
  }));
  const indexes = new Set(steps.map((s) => s.idx));
  if (indexes.size !== steps.length) throw new Error(`rollout ${rollout.id} has duplicate step indexes`);
  await db.query(
    `with r as (
       insert into rollouts (id, cycle_id, query_id, attempt, agent_mode, action_space, model_name, model_version,
                             status, outcome, step_count, ground_truth, degraded, config_hash, ground_truth_reason)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $16)
       on conflict (id) do update set
         cycle_id = excluded.cycle_id, query_id = excluded.query_id, attempt = excluded.attempt,
         agent_mode = excluded.agent_mode, action_space = excluded.action_space,
         model_name = excluded.model_name, model_version = excluded.model_version, status = excluded.status,
         outcome = excluded.outcome, step_count = excluded.step_count, ground_truth = excluded.ground_truth,
         degraded = excluded.degraded, config_hash = excluded.config_hash,
         ground_truth_reason = excluded.ground_truth_reason
       returning id
     ), stale as (
       delete from steps where rollout_id = $1 and not (idx = any (select (e ->> 'idx')::int from jsonb_array_elements($15::jsonb) e))
     )
     insert into steps (rollout_id, idx, before, after, action, error, error_kind, reasoning, conclusion,
                        model_call_key, latency_ms, metrics, roles)
     select (select id from r), x.idx, x.before, x.after, x.action, x.error, x.error_kind, x.reasoning,
            x.conclusion, x.model_call_key, x.latency_ms, x.metrics, x.roles
     from jsonb_to_recordset($15::jsonb) as x(idx int, before jsonb, after jsonb, action jsonb, error jsonb,
          error_kind text, reasoning text, conclusion text, model_call_key text, latency_ms real, metrics jsonb,
          roles jsonb)
     on conflict (rollout_id, idx) do update set
       before = excluded.before, after = excluded.after, action = excluded.action, error = excluded.error,
       error_kind = excluded.error_kind, reasoning = excluded.reasoning, conclusion = excluded.conclusion,
       model_call_key = excluded.model_call_key, latency_ms = excluded.latency_ms, metrics = excluded.metrics,
       roles = excluded.roles`,
    [
      rollout.id,
      rollout.cycleId,
      rollout.queryId,
      rollout.attempt,
      rollout.agentMode,
      rollout.actionSpace,
      rollout.model.name,
      rollout.model.version,
      rollout.status,
      rollout.outcome ?? null,
      steps.length,
      rollout.groundTruth ?? null,
      meta.degraded,
      meta.configHash,
      json(steps),
      rollout.groundTruthReason ?? null,
    ],
  );
}

export async function getRollout(db: Queryable, id: string): Promise<Rollout | undefined> {
  const row = await maybeOne(db, 'select * from rollouts where id = $1', [id], RolloutRow);
  if (!row) return undefined;
  const steps = await many(db, 'select * from steps where rollout_id = $1 order by idx', [id], StepRow);
  return toRollout(
    row,
    steps.map((s) => s.step),
  );
}

/** All rollouts of a cycle with their steps (two queries, no N+1), ordered by id. */
export async function listRollouts(db: Queryable, cycleId: string): Promise<Rollout[]> {
  const rows = await many(db, 'select * from rollouts where cycle_id = $1 order by id', [cycleId], RolloutRow);
  const steps = await many(
    db,
    `select s.* from steps s join rollouts r on r.id = s.rollout_id where r.cycle_id = $1 order by s.rollout_id, s.idx`,
    [cycleId],
    StepRow,
  );
  const byRollout = new Map<string, Step[]>();
  for (const s of steps) {
    const list = byRollout.get(s.rolloutId) ?? [];
    list.push(s.step);
    byRollout.set(s.rolloutId, list);
  }
  return rows.map((r) => toRollout(r, byRollout.get(r.id) ?? []));
}

/** Whether the rollout row is marked degraded (the environment failed under it). */
export async function isRolloutDegraded(db: Queryable, id: string): Promise<boolean | undefined> {
  const row = await maybeOne(db, 'select degraded from rollouts where id = $1', [id], z.object({ degraded: z.boolean() }));
  return row?.degraded;
}

// -------------------------------------------------------------------------------------------- verdicts

export interface StepVerdictInput {
  rolloutId: string;
  idx: number;
  criticVersion: string;
  analysis: string;
  summary: string;
  annotation: StepAnnotation;
  score: number;
}

export async function upsertStepVerdicts(db: Queryable, rows: readonly StepVerdictInput[]): Promise<void> {
  for (const batch of chunks(rows)) {
    await db.query(
      `insert into step_verdicts (rollout_id, idx, critic_version, analysis, summary, annotation, score)
       select x."rolloutId", x.idx, x."criticVersion", x.analysis, x.summary, x.annotation, x.score
       from jsonb_to_recordset($1::jsonb) as x("rolloutId" text, idx int, "criticVersion" text, analysis text,
            summary text, annotation text, score real)
       on conflict (rollout_id, idx, critic_version) do update set
         analysis = excluded.analysis, summary = excluded.summary, annotation = excluded.annotation,
         score = excluded.score`,
      [json(batch)],
    );
  }
}

export const StepVerdictRow = z
  .object({
    rollout_id: z.string(),
    idx: z.number(),
    critic_version: z.string(),
    analysis: z.string(),
    summary: z.string(),
    annotation: StepAnnotation,
    score: z.number(),
  })
  .transform((r) => ({
    rolloutId: r.rollout_id,
    idx: r.idx,
    criticVersion: r.critic_version,
    analysis: r.analysis,
    summary: r.summary,
    annotation: r.annotation,
    score: r.score,
  }));
export type StepVerdictRow = z.output<typeof StepVerdictRow>;

export async function listStepVerdicts(db: Queryable, rolloutId: string, criticVersion: string): Promise<StepVerdictRow[]> {
  return many(
    db,
    `select rollout_id, idx, critic_version, analysis, summary, annotation, score from step_verdicts
     where rollout_id = $1 and critic_version = $2 order by idx`,
    [rolloutId, criticVersion],
    StepVerdictRow,
  );
}

export type VerdictChannel = 'text' | 'multimodal' | 'learned' | 'consensus';

export interface TrajectoryVerdictInput {
  rolloutId: string;
  criticVersion: string;
  channel: VerdictChannel;
  correct: boolean;
  reason: string;
  votes?: unknown;
}

export async function upsertTrajectoryVerdicts(db: Queryable, rows: readonly TrajectoryVerdictInput[]): Promise<void> {
  for (const batch of chunks(rows)) {
    await db.query(
      `insert into trajectory_verdicts (rollout_id, critic_version, channel, correct, reason, votes)
       select x."rolloutId", x."criticVersion", x.channel, x.correct, x.reason, x.votes
       from jsonb_to_recordset($1::jsonb) as x("rolloutId" text, "criticVersion" text, channel text, correct boolean,
            reason text, votes jsonb)
       on conflict (rollout_id, critic_version, channel) do update set
         correct = excluded.correct, reason = excluded.reason, votes = excluded.votes`,
      [json(batch.map((r) => ({ ...r, votes: r.votes ?? null })))],
    );
  }
}

export const TrajectoryVerdictRow = z
  .object({
    rollout_id: z.string(),
    critic_version: z.string(),
    channel: z.enum(['text', 'multimodal', 'learned', 'consensus']),
    correct: z.boolean(),
    reason: z.string(),
    votes: z.unknown(),
  })
  .transform((r) => ({
    rolloutId: r.rollout_id,
    criticVersion: r.critic_version,
    channel: r.channel,
    correct: r.correct,
    reason: r.reason,
    votes: r.votes ?? undefined,
  }));
export type TrajectoryVerdictRow = z.output<typeof TrajectoryVerdictRow>;

export async function listTrajectoryVerdicts(
  db: Queryable,
  rolloutId: string,
  criticVersion: string,
): Promise<TrajectoryVerdictRow[]> {
  return many(
    db,
    `select rollout_id, critic_version, channel, correct, reason, votes from trajectory_verdicts
     where rollout_id = $1 and critic_version = $2 order by channel`,
    [rolloutId, criticVersion],
    TrajectoryVerdictRow,
  );
}

/**
 * Ids of the cycle's non-degraded rollouts whose effective acceptance (view `rollout_acceptance`: the consensus
 * verdict of this critic version, overridden by human reviewers where any decided) is true.
 */
export async function listAcceptedRollouts(db: Queryable, cycleId: string, criticVersion: string): Promise<string[]> {
  const rows = await many(
    db,
    `select r.id from rollouts r
     join rollout_acceptance a on a.rollout_id = r.id
     where r.cycle_id = $1 and a.critic_version = $2 and a.accepted and not r.degraded
     order by r.id`,
    [cycleId, criticVersion],
    z.object({ id: z.string() }),
  );
  return rows.map((r) => r.id);
}

// -------------------------------------------------------------------------------------------- datasets

export const DatasetRow = z
  .object({
    name: z.string(),
    version: z.number(),
    kind: z.string(),
    format: z.string(),
    manifest_key: z.string(),
    manifest: z.unknown(),
    config_hash: z.string(),
    fingerprint: z.string(),
    created_at: ts,
  })
  .transform((r) => ({
    name: r.name,
    version: r.version,
    kind: r.kind,
    format: r.format,
    manifestKey: r.manifest_key,
    manifest: r.manifest,
    configHash: r.config_hash,
    fingerprint: r.fingerprint,
    createdAt: r.created_at,
  }));
export type DatasetRow = z.output<typeof DatasetRow>;

export interface DatasetInput {
  name: string;
  version: number;
  kind: string;
  format: string;
  manifestKey: string;
  manifest: unknown;
  configHash: string;
  fingerprint: string;
}

/** The next free version number of a dataset name (1 for a new name). */
export async function nextDatasetVersion(db: Queryable, name: string): Promise<number> {
  const row = await one(
    db,
    'select coalesce(max(version), 0) + 1 as next from datasets where name = $1',
    [name],
    z.object({ next: z.number().int() }),
  );
  return row.next;
}

export async function getDatasetByFingerprint(db: Queryable, fingerprint: string): Promise<DatasetRow | undefined> {
  return maybeOne(db, 'select * from datasets where fingerprint = $1', [fingerprint], DatasetRow);
}

export async function getDataset(db: Queryable, name: string, version: number): Promise<DatasetRow | undefined> {
  return maybeOne(db, 'select * from datasets where name = $1 and version = $2', [name, version], DatasetRow);
}

/**
 * Inserts a dataset version keyed by its content fingerprint: if a dataset with the same fingerprint
 * exists, nothing is written and the existing row is returned (compare `version` to tell). A different
 * fingerprint at an existing (name, version) is a primary-key violation (a concurrent exporter won).
 */
export async function upsertDataset(db: Queryable, ds: DatasetInput): Promise<DatasetRow> {
  await db.query(
    `insert into datasets (name, version, kind, format, manifest_key, manifest, config_hash, fingerprint)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
     on conflict (fingerprint) do nothing`,
    [ds.name, ds.version, ds.kind, ds.format, ds.manifestKey, json(ds.manifest), ds.configHash, ds.fingerprint],
  );
  return one(db, 'select * from datasets where fingerprint = $1', [ds.fingerprint], DatasetRow, `dataset ${ds.fingerprint}`);
}

export interface DatasetItemInput {
  datasetName: string;
  datasetVersion: number;
  itemIdx: number;
  rolloutId: string;
  stepIdx?: number | null;
  sampleKey?: string | null;
}

export async function insertDatasetItems(db: Queryable, items: readonly DatasetItemInput[]): Promise<void> {
  for (const batch of chunks(items)) {
    await db.query(
      `insert into dataset_items (dataset_name, dataset_version, item_idx, rollout_id, step_idx, sample_key)
       select x."datasetName", x."datasetVersion", x."itemIdx", x."rolloutId", x."stepIdx", x."sampleKey"
       from jsonb_to_recordset($1::jsonb) as x("datasetName" text, "datasetVersion" int, "itemIdx" int,
            "rolloutId" text, "stepIdx" int, "sampleKey" text)
       on conflict (dataset_name, dataset_version, item_idx) do nothing`,
      [json(batch.map((i) => ({ ...i, stepIdx: i.stepIdx ?? null, sampleKey: i.sampleKey ?? null })))],
    );
  }
}

// ---------------------------------------------------------------------------------------------- counts

export const CycleCounts = z.object({
  queries: z.number().int(),
  rollouts: z.number().int(),
  degraded: z.number().int(),
  steps: z.number().int(),
  stepVerdicts: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  stepErrors: z.number().int(),
  /** Rollouts whose programmatic checker says success (ground truth; never shown to agents or critics). */
  groundTruthSuccesses: z.number().int(),
  /** Accepted rollouts that the checker also marks successful: the numerator of the data precision. */
  acceptedTruePositives: z.number().int(),
});
export type CycleCounts = z.infer<typeof CycleCounts>;

/**
 * What a cycle produced. Verdict counts use the cycle's own critic version; accepted/rejected are the
 * consensus verdicts of non-degraded rollouts.
 */
export async function cycleCounts(db: Queryable, cycleId: string): Promise<CycleCounts> {
  return one(
    db,
    `with c as (select id, critic_version from cycles where id = $1),
     r as (select id, degraded from rollouts where cycle_id = $1)
     select
       (select count(*) from cycle_queries where cycle_id = $1) as queries,
       (select count(*) from r) as rollouts,
       (select count(*) from r where degraded) as degraded,
       (select count(*) from steps s join r on r.id = s.rollout_id) as steps,
       (select count(*) from step_verdicts v join r on r.id = v.rollout_id
          where v.critic_version = (select critic_version from c)) as "stepVerdicts",
       (select count(*) from trajectory_verdicts v join r on r.id = v.rollout_id
          where v.channel = 'consensus' and v.correct and not r.degraded
            and v.critic_version = (select critic_version from c)) as accepted,
       (select count(*) from trajectory_verdicts v join r on r.id = v.rollout_id
          where v.channel = 'consensus' and not v.correct and not r.degraded
            and v.critic_version = (select critic_version from c)) as rejected,
       (select count(*) from steps s join r on r.id = s.rollout_id where s.error_kind is not null) as "stepErrors",
       (select count(*) from rollouts x join r on r.id = x.id where x.ground_truth and not r.degraded) as "groundTruthSuccesses",
       (select count(*) from trajectory_verdicts v join r on r.id = v.rollout_id join rollouts x on x.id = r.id
          where v.channel = 'consensus' and v.correct and not r.degraded and x.ground_truth
            and v.critic_version = (select critic_version from c)) as "acceptedTruePositives"`,
    [cycleId],
    CycleCounts,
  );
}

// ------------------------------------------------------------------------------------------ DAG coverage

export const QueryCoverageRow = z
  .object({ app: z.string(), path: z.array(z.string()), slots: z.record(z.string(), z.string()), rollouts: z.coerce.number(), accepted: z.coerce.number() })
  .transform((r) => r);
export type QueryCoverageRow = z.output<typeof QueryCoverageRow>;

/**
 * Per query (optionally only a cycle's): its path and slots, how many rollouts it got and how many of those the
 * critics accepted (a `consensus` trajectory verdict that is correct, under any critic version). `dag coverage`
 * folds these into page/edge/slot-value counts; the coverage-driven sampler weights by the accepted counts.
 */
export async function queryCoverage(db: Queryable, cycleId?: string): Promise<QueryCoverageRow[]> {
  return many(
    db,
    `select q.app, q.path, q.slots,
            count(distinct r.id) as rollouts,
            count(distinct r.id) filter (where exists (
              select 1 from trajectory_verdicts tv
              where tv.rollout_id = r.id and tv.channel = 'consensus' and tv.correct)) as accepted
       from queries q
       left join rollouts r on r.query_id = q.id and ($1::text is null or r.cycle_id = $1)
      where $1::text is null or exists (select 1 from cycle_queries cq where cq.query_id = q.id and cq.cycle_id = $1)
      group by q.id, q.app, q.path, q.slots
      order by q.id`,
    [cycleId ?? null],
    QueryCoverageRow,
  );
}

/** The highest (semantic) version registered under a model name, with its meta; undefined when none. */
export async function latestModelVersion(
  db: Queryable,
  name: string,
): Promise<{ version: string; parentVersion?: string; meta: Record<string, unknown> } | undefined> {
  const { rows } = await db.query<{ version: string; parent_version: string | null; meta: Record<string, unknown> | null }>(
    `select version, parent_version, meta from model_versions where name = $1`,
    [name],
  );
  const num = (v: string): number[] => v.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : -1));
  const cmp = (a: string, b: string): number => {
    const x = num(a);
    const y = num(b);
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
    return 0;
  };
  const best = rows.sort((a, b) => cmp(b.version, a.version))[0];
  if (!best) return undefined;
  return { version: best.version, meta: best.meta ?? {}, ...(best.parent_version ? { parentVersion: best.parent_version } : {}) };
}

/** A file of a dataset version as its manifest lists it (path relative to the version's prefix). */
export interface DatasetFile {
  path: string;
  blobKey: string;
}

/**
 * The files of a dataset version and the SFT files a trainer reads: the snapshot's training split
 * (`sft/train.jsonl`), else every SFT split; datasets exported before snapshots (`gui-owl-e2e-messages@1`) have
 * one `train.jsonl`. Throws naming the dataset when it does not exist or has no SFT file.
 */
export async function datasetTrainingFiles(db: Queryable, name: string, version: number): Promise<{ all: DatasetFile[]; sft: DatasetFile[] }> {
  const row = await getDataset(db, name, version);
  if (!row) throw new NotFoundError(`no dataset ${name}@${version}`, 'datasets', [name, version]);
  const all = z.object({ files: z.array(z.object({ path: z.string(), blobKey: z.string() }).passthrough()).default([]) }).passthrough().parse(row.manifest).files;
  const sftFiles = all.filter((f) => /^(sft\/[^/]+|train)\.jsonl$/.test(f.path));
  const train = sftFiles.filter((f) => f.path === 'sft/train.jsonl' || f.path === 'train.jsonl');
  const sft = train.length > 0 ? train : sftFiles;
  if (sft.length === 0) throw new Error(`dataset ${name}@${version} has no SFT file (export it with --format sft)`);
  return { all: all.map((f) => ({ path: f.path, blobKey: f.blobKey })), sft: sft.map((f) => ({ path: f.path, blobKey: f.blobKey })) };
}
