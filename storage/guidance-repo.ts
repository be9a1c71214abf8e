import { z } from 'zod';
import { many, maybeOne, type Queryable } from './db.js';

/** Guidance, reasoning samples and filter decisions (migration 0015). Every write is an upsert on its natural key. */

export const StoredGuidance = z
  .object({
    query_id: z.string(),
    version: z.number(),
    text: z.string(),
    steps: z.array(z.string()),
    source: z.enum(['model', 'scripted', 'human']),
    reference_id: z.string(),
    status: z.enum(['active', 'retired']),
    retired_reason: z.string().nullable(),
    guided_attempts: z.number(),
    guided_successes: z.number(),
    unguided_attempts: z.number(),
    unguided_successes: z.number(),
  })
  .transform((r) => ({
    queryId: r.query_id,
    version: r.version,
    text: r.text,
    steps: r.steps,
    source: r.source,
    referenceId: r.reference_id,
    status: r.status,
    retiredReason: r.retired_reason,
    guidedAttempts: r.guided_attempts,
    guidedSuccesses: r.guided_successes,
    unguidedAttempts: r.unguided_attempts,
    unguidedSuccesses: r.unguided_successes,
  }));
export type StoredGuidance = z.infer<typeof StoredGuidance>;

/**
 * Stores guidance synthesised from `referenceId`: the query's next version, or — when this reference already made
 * one — that version updated in place (a retried activity never adds a version). Returns the version.
 */
export async function upsertGuidance(
  db: Queryable,
  g: { queryId: string; text: string; steps: string[]; described: unknown; source: string; referenceId: string; cycleId: string | null; models: unknown },
): Promise<number> {
  const row = await maybeOne(
    db,
    `insert into query_guidance (query_id, version, text, steps, described, source, reference_id, cycle_id, models)
     values ($1, (select coalesce(max(version), 0) + 1 from query_guidance where query_id = $1), $2, $3, $4, $5, $6, $7, $8)
     on conflict (query_id, reference_id) do update set
       text = excluded.text, steps = excluded.steps, described = excluded.described, models = excluded.models, updated_at = now()
     returning version`,
    [g.queryId, g.text, JSON.stringify(g.steps), JSON.stringify(g.described), g.source, g.referenceId, g.cycleId, JSON.stringify(g.models)],
    z.object({ version: z.number() }),
  );
  return row!.version;
}

export async function getGuidance(db: Queryable, queryId: string, version: number): Promise<StoredGuidance | undefined> {
  return maybeOne(db, `select * from query_guidance where query_id = $1 and version = $2`, [queryId, version], StoredGuidance);
}

/** The newest active guidance of each query given. */
export async function activeGuidance(db: Queryable, queryIds: readonly string[]): Promise<StoredGuidance[]> {
  return many(
    db,
    `select distinct on (query_id) * from query_guidance where status = 'active' and query_id = any($1::text[]) order by query_id, version desc`,
    [queryIds],
    StoredGuidance,
  );
}

/** The guidance a rollout read (guided attempts), or undefined. */
export async function rolloutGuidance(db: Queryable, rolloutId: string, queryId: string): Promise<{ version: number; text: string } | undefined> {
  return maybeOne(
    db,
    `select g.version, g.text from rollouts r join query_guidance g on g.query_id = $2 and g.version = r.guidance_version where r.id = $1`,
    [rolloutId, queryId],
    z.object({ version: z.number(), text: z.string() }),
  );
}

/** The guidance each of these rollouts read (guided attempts only), by rollout id: one round trip for many rollouts. */
export async function rolloutGuidanceMany(db: Queryable, rolloutIds: readonly string[]): Promise<Map<string, { version: number; text: string; source: string }>> {
  if (rolloutIds.length === 0) return new Map();
  const rows = await many(
    db,
    `select r.id, g.version, g.text, g.source from rollouts r join query_guidance g on g.query_id = r.query_id and g.version = r.guidance_version
     where r.id = any($1::text[])`,
    [rolloutIds],
    z.object({ id: z.string(), version: z.number(), text: z.string(), source: z.string() }),
  );
  return new Map(rows.map((r) => [r.id, { version: r.version, text: r.text, source: r.source }]));
}

/** Records the guidance version a guided rollout read (lineage; its purpose follows from its id, migration 0015). */
export async function setRolloutGuidance(db: Queryable, rolloutId: string, guidanceVersion: number): Promise<void> {
  await db.query(`update rollouts set guidance_version = $2 where id = $1`, [rolloutId, guidanceVersion]);
}

/** Retirement rule: after this many guided attempts, guidance whose guided success rate is not above the unguided one is retired. */
export const RETIRE_AFTER_ATTEMPTS = 4;

/**
 * Recomputes a guidance version's uplift from the stored rollouts: guided = judged rollouts that read this version;
 * unguided = judged plain attempts of the same query (success = effective acceptance). Retires the version when it
 * has had RETIRE_AFTER_ATTEMPTS guided attempts and its guided success rate is not above the unguided rate.
 */
export async function refreshUplift(db: Queryable, queryId: string, version: number): Promise<StoredGuidance | undefined> {
  await db.query(
    `with g as (
       select count(*)::int as n, count(*) filter (where a.accepted)::int as s
       from rollouts r join rollout_acceptance a on a.rollout_id = r.id
       where r.query_id = $1 and r.guidance_version = $2 and not r.degraded and a.accepted is not null
     ), u as (
       select count(*)::int as n, count(*) filter (where a.accepted)::int as s
       from rollouts r join rollout_acceptance a on a.rollout_id = r.id
       where r.query_id = $1 and r.purpose = 'attempt' and r.guidance_version is null and not r.degraded and a.accepted is not null
     )
     update query_guidance q set
       guided_attempts = g.n, guided_successes = g.s, unguided_attempts = u.n, unguided_successes = u.s,
       status = case when q.status = 'active' and g.n >= $3
                      and g.s::double precision / g.n <= case when u.n > 0 then u.s::double precision / u.n else 0 end
                     then 'retired' else q.status end,
       retired_reason = case when q.status = 'active' and g.n >= $3
                      and g.s::double precision / g.n <= case when u.n > 0 then u.s::double precision / u.n else 0 end
                     then format('no uplift: %s/%s guided vs %s/%s unguided', g.s, g.n, u.s, u.n) else q.retired_reason end,
       updated_at = now()
     from g, u where q.query_id = $1 and q.version = $2`,
    [queryId, version, RETIRE_AFTER_ATTEMPTS],
  );
  return getGuidance(db, queryId, version);
}

export interface FilterDecisionRow {
  sampleId: string;
  filter: string;
  keep: boolean;
  reason: string;
  details?: Record<string, unknown>;
}

/** Records filter decisions (upsert on sample × filter × version). */
export async function recordFilterDecisions(db: Queryable, version: string, rows: readonly (FilterDecisionRow & { rolloutId?: string; step?: number })[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `insert into filter_decisions (sample_id, filter, version, rollout_id, step, keep, reason, details)
     select x.sample_id, x.filter, $1, x.rollout_id, x.step, x.keep, x.reason, coalesce(x.details, '{}'::jsonb)
     from jsonb_to_recordset($2::jsonb) as x(sample_id text, filter text, rollout_id text, step int, keep boolean, reason text, details jsonb)
     on conflict (sample_id, filter, version) do update set keep = excluded.keep, reason = excluded.reason, details = excluded.details`,
    [version, JSON.stringify(rows.map((r) => ({ sample_id: r.sampleId, filter: r.filter, rollout_id: r.rolloutId ?? null, step: r.step ?? null, keep: r.keep, reason: r.reason, details: r.details ?? {} })))],
  );
}

/** Stores reasoning samples (hint-guided traces, distillations) with their lineage. */
export async function upsertReasoningSamples(
  db: Queryable,
  rows: readonly { id: string; rolloutId: string; step: number; kind: 'hint_rs' | 'distill'; hintStyle?: string; thought: string; conclusion: string; action: unknown; lineage: Record<string, unknown> }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `insert into reasoning_samples (id, rollout_id, step, kind, hint_style, thought, conclusion, action, lineage)
     select x.id, x.rollout_id, x.step, x.kind, x.hint_style, x.thought, x.conclusion, x.action, x.lineage
     from jsonb_to_recordset($1::jsonb) as x(id text, rollout_id text, step int, kind text, hint_style text, thought text, conclusion text, action jsonb, lineage jsonb)
     on conflict (id) do update set thought = excluded.thought, conclusion = excluded.conclusion, action = excluded.action, lineage = excluded.lineage`,
    [JSON.stringify(rows.map((r) => ({ id: r.id, rollout_id: r.rolloutId, step: r.step, kind: r.kind, hint_style: r.hintStyle ?? null, thought: r.thought, conclusion: r.conclusion, action: r.action, lineage: r.lineage })))],
  );
}

export const StoredReasoningSample = z
  .object({
    id: z.string(),
    rollout_id: z.string(),
    step: z.number(),
    kind: z.enum(['hint_rs', 'distill']),
    hint_style: z.string().nullable(),
    thought: z.string(),
    conclusion: z.string(),
    action: z.unknown(),
    lineage: z.record(z.string(), z.unknown()),
  })
  .transform((r) => ({
    id: r.id,
    rolloutId: r.rollout_id,
    step: r.step,
    kind: r.kind,
    hintStyle: r.hint_style,
    thought: r.thought,
    conclusion: r.conclusion,
    action: r.action,
    lineage: r.lineage,
  }));
export type StoredReasoningSample = z.infer<typeof StoredReasoningSample>;

/** The reasoning samples of these rollouts, by rollout id, each list in (step, kind, id) order: one round trip. */
export async function reasoningSamplesOf(db: Queryable, rolloutIds: readonly string[]): Promise<Map<string, StoredReasoningSample[]>> {
  const out = new Map<string, StoredReasoningSample[]>();
  if (rolloutIds.length === 0) return out;
  const rows = await many(
    db,
    `select id, rollout_id, step, kind, hint_style, thought, conclusion, action, lineage from reasoning_samples
     where rollout_id = any($1::text[]) order by rollout_id, step, kind, id`,
    [rolloutIds],
    StoredReasoningSample,
  );
  for (const r of rows) {
    const list = out.get(r.rolloutId) ?? [];
    list.push(r);
    out.set(r.rolloutId, list);
  }
  return out;
}

/**
 * For each of these queries: its task family (`app/family`) and how many queries of that family have had guidance
 * (any version, any status) — what the guidance stage needs to spread its few guided queries over families.
 */
export async function guidedFamilies(db: Queryable, queryIds: readonly string[]): Promise<{ queryId: string; family: string; guided: number }[]> {
  if (queryIds.length === 0) return [];
  const rows = await many(
    db,
    `select q.id as query_id, q.app || '/' || q.family as family,
            (select count(distinct g.query_id) from query_guidance g join queries o on o.id = g.query_id
              where o.app = q.app and o.family = q.family)::int as guided
     from queries q where q.id = any($1::text[])`,
    [queryIds],
    z.object({ query_id: z.string(), family: z.string(), guided: z.number().int() }),
  );
  return rows.map((r) => ({ queryId: r.query_id, family: r.family, guided: r.guided }));
}
