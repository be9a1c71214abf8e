import { z } from 'zod';
import { Query } from '../domain/entities.js';
import { many, maybeOne, type Queryable } from './db.js';

/** Per-query statistics (migration 0008). Reward of a rollout = its effective acceptance, 1 or 0. */
export const QueryStats = z.object({
  queryId: z.string(),
  attempts: z.number().int(),
  successes: z.number().int(),
  pSucc: z.number(),
  rewardMean: z.number(),
  rewardVar: z.number(),
  /** Checker successes: measurement only. */
  gtSuccesses: z.number().int(),
  lastOutcome: z.string().nullable(),
  lastCycleId: z.string().nullable(),
  difficulty: z.number().int().nullable(),
});
export type QueryStats = z.infer<typeof QueryStats>;

const StatsRow = z
  .object({
    query_id: z.string(),
    attempts: z.number(),
    successes: z.number(),
    p_succ: z.number(),
    reward_mean: z.number(),
    reward_var: z.number(),
    gt_successes: z.number(),
    last_outcome: z.string().nullable(),
    last_cycle_id: z.string().nullable(),
    difficulty: z.number().nullable(),
  })
  .transform((r) => ({
    queryId: r.query_id,
    attempts: r.attempts,
    successes: r.successes,
    pSucc: r.p_succ,
    rewardMean: r.reward_mean,
    rewardVar: r.reward_var,
    gtSuccesses: r.gt_successes,
    lastOutcome: r.last_outcome,
    lastCycleId: r.last_cycle_id,
    difficulty: r.difficulty,
  }));

/**
 * Recomputes the statistics of every query rolled out in `cycleId` from all its judged, non-degraded rollouts
 * in any cycle (one statement; idempotent: a rerun writes the same values). Returns how many queries it updated.
 */
export async function refreshQueryStats(db: Queryable, cycleId: string): Promise<number> {
  const res = await db.query(
    `with touched as (select distinct query_id from rollouts where cycle_id = $1),
     judged as (
       select r.query_id, r.id, r.cycle_id, r.created_at, r.status, r.outcome, r.ground_truth,
              (case when a.accepted then 1 else 0 end)::double precision as reward
       from rollouts r join rollout_acceptance a on a.rollout_id = r.id
       where r.query_id in (select query_id from touched) and not r.degraded and a.accepted is not null
     ),
     agg as (
       select query_id, count(*)::int as attempts, sum(reward)::int as successes, avg(reward) as reward_mean,
              coalesce(var_pop(reward), 0) as reward_var,
              count(*) filter (where ground_truth)::int as gt_successes
       from judged group by query_id
     ),
     last as (
       select distinct on (query_id) query_id, cycle_id, coalesce(outcome, status) as outcome
       from judged order by query_id, created_at desc, id desc
     )
     insert into query_stats (query_id, attempts, successes, p_succ, reward_mean, reward_var, gt_successes,
                              last_outcome, last_cycle_id, difficulty, updated_at)
     select agg.query_id, agg.attempts, agg.successes, agg.successes::double precision / agg.attempts, agg.reward_mean,
            agg.reward_var, agg.gt_successes, last.outcome, last.cycle_id, q.difficulty, now()
     from agg join last using (query_id) join queries q on q.id = agg.query_id
     on conflict (query_id) do update set
       attempts = excluded.attempts, successes = excluded.successes, p_succ = excluded.p_succ,
       reward_mean = excluded.reward_mean, reward_var = excluded.reward_var, gt_successes = excluded.gt_successes,
       last_outcome = excluded.last_outcome, last_cycle_id = excluded.last_cycle_id,
       difficulty = excluded.difficulty, updated_at = now()`,
    [cycleId],
  );
  return res.rowCount ?? 0;
}

export async function getQueryStats(db: Queryable, queryId: string): Promise<QueryStats | undefined> {
  return maybeOne(db, `select * from query_stats where query_id = $1`, [queryId], StatsRow);
}

/** Statistics of many queries (absent ids are simply missing from the result). */
export async function listQueryStats(db: Queryable, queryIds?: readonly string[]): Promise<QueryStats[]> {
  return queryIds
    ? many(db, `select * from query_stats where query_id = any($1::text[]) order by query_id`, [queryIds], StatsRow)
    : many(db, `select * from query_stats order by query_id`, [], StatsRow);
}

/** Hard queries: at least `minAttempts` judged attempts and no success yet. */
export async function listHardQueries(db: Queryable, opts: { minAttempts: number }): Promise<QueryStats[]> {
  return many(db, `select * from query_stats where successes = 0 and attempts >= $1 order by query_id`, [opts.minAttempts], StatsRow);
}

// ------------------------------------------------------------------------------------------- eval sets

export interface EvalSet {
  name: string;
  fingerprint: string;
  spec: Record<string, unknown>;
  frozenAt: string;
  queries: Query[];
}

/**
 * Freezes an evaluation query set. Idempotent: freezing the same name with the same queries again is a no-op;
 * a different query list under an existing name is refused (frozen means frozen).
 */
export async function freezeEvalSet(
  db: Queryable,
  set: { name: string; fingerprint: string; spec: Record<string, unknown>; queries: readonly Query[] },
): Promise<{ created: boolean }> {
  const existing = await maybeOne(db, `select fingerprint from eval_sets where name = $1`, [set.name], z.object({ fingerprint: z.string() }));
  if (existing) {
    if (existing.fingerprint !== set.fingerprint) {
      throw new Error(`eval set ${set.name} is already frozen with other queries (fingerprint ${existing.fingerprint.slice(0, 12)})`);
    }
    return { created: false };
  }
  await db.query(
    `with s as (insert into eval_sets (name, fingerprint, spec) values ($1, $2, $3) on conflict (name) do nothing returning name)
     insert into eval_set_queries (eval_set, query_id, instruction, query)
     select s.name, q.id, q.instruction, q.query from s,
       jsonb_to_recordset($4::jsonb) as q(id text, instruction text, query jsonb)
     on conflict do nothing`,
    [set.name, set.fingerprint, JSON.stringify(set.spec), JSON.stringify(set.queries.map((q) => ({ id: q.id, instruction: q.instruction, query: q })))],
  );
  return { created: true };
}

export async function getEvalSet(db: Queryable, name: string): Promise<EvalSet | undefined> {
  const head = await maybeOne(
    db,
    `select name, fingerprint, spec, frozen_at from eval_sets where name = $1`,
    [name],
    z.object({ name: z.string(), fingerprint: z.string(), spec: z.record(z.string(), z.unknown()), frozen_at: z.date() }),
  );
  if (!head) return undefined;
  const rows = await many(db, `select query from eval_set_queries where eval_set = $1 order by query_id`, [name], z.object({ query: Query }));
  return { name: head.name, fingerprint: head.fingerprint, spec: head.spec, frozenAt: head.frozen_at.toISOString(), queries: rows.map((r) => r.query) };
}

export async function listEvalSets(db: Queryable): Promise<{ name: string; queries: number; frozenAt: string }[]> {
  return many(
    db,
    `select s.name, count(q.query_id)::int as queries, s.frozen_at from eval_sets s left join eval_set_queries q on q.eval_set = s.name group by s.name order by s.name`,
    [],
    z.object({ name: z.string(), queries: z.number(), frozen_at: z.date() }).transform((r) => ({ name: r.name, queries: r.queries, frozenAt: r.frozen_at.toISOString() })),
  );
}
