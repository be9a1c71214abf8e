import { z } from 'zod';
import { many, type Queryable } from './db.js';

/** One training cycle's yield funnel, critic precision (vs checkers) and cost, for `trajforge report`. */
export interface CycleYield {
  cycleId: string;
  modelVersion: string;
  queries: number;
  rollouts: number;
  judged: number;
  accepted: number;
  /** Accepted rollouts the checker also marks successful (critic precision = this / accepted). */
  acceptedTruePositives: number;
  exportedSamples: number;
  costUsd: number;
  tokens: number;
}

/** Finished `cycle-N` cycles in order, with their counts (cycles.counts) and model cost (model_usage). */
export async function listCycleYields(db: Queryable): Promise<CycleYield[]> {
  return many(
    db,
    `select c.id, c.model_version, c.counts,
            coalesce((select sum(u.cost_usd) from model_usage u where u.cycle_id = c.id), 0)::float8 as cost,
            coalesce((select sum(u.prompt_tokens + u.completion_tokens) from model_usage u where u.cycle_id = c.id), 0)::float8 as tokens
     from cycles c where c.id ~ '^cycle-[0-9]+$' and c.finished_at is not null
     order by substring(c.id from 7)::bigint`,
    [],
    z
      .object({ id: z.string(), model_version: z.string(), counts: z.record(z.string(), z.number()).nullable(), cost: z.number(), tokens: z.number() })
      .transform((r) => {
        const c = r.counts ?? {};
        return {
          cycleId: r.id,
          modelVersion: r.model_version,
          queries: c.queries ?? 0,
          rollouts: c.rollouts ?? 0,
          judged: (c.accepted ?? 0) + (c.rejected ?? 0),
          accepted: c.accepted ?? 0,
          acceptedTruePositives: c.acceptedTruePositives ?? 0,
          exportedSamples: c.exportedSamples ?? 0,
          costUsd: r.cost,
          tokens: r.tokens,
        };
      }),
  );
}

/** Production-wide yield funnel (eval runs excluded) and the rollout backlog of running cycles, for /metrics. */
export interface FunnelCounts {
  /** Queries assigned to production cycles. */
  queries: number;
  rollouts: number;
  /** Rollouts whose effective acceptance (critics, overridden by humans) is true. */
  accepted: number;
  /** Distinct rollouts in any exported dataset. */
  exported: number;
  /** Queries of running production cycles that have no rollout yet. */
  backlog: number;
}

export async function funnelCounts(db: Queryable): Promise<FunnelCounts> {
  const [row] = await many(
    db,
    `select
       (select count(*) from cycle_queries where cycle_id not like 'eval-%')::int as queries,
       (select count(*) from rollouts where cycle_id not like 'eval-%')::int as rollouts,
       (select count(*) from rollout_acceptance where cycle_id not like 'eval-%' and accepted)::int as accepted,
       (select count(distinct rollout_id) from dataset_items)::int as exported,
       (select count(*) from cycle_queries cq join cycles c on c.id = cq.cycle_id
          where c.status = 'running' and c.id not like 'eval-%'
            and not exists (select 1 from rollouts r where r.cycle_id = cq.cycle_id and r.query_id = cq.query_id))::int as backlog`,
    [],
    z.object({ queries: z.number(), rollouts: z.number(), accepted: z.number(), exported: z.number(), backlog: z.number() }),
  );
  return row!;
}

/** One eval-set query's checker outcomes for one model version, one per seed in seed order (null: degraded episode). */
export interface EvalQueryOutcome {
  modelVersion: string;
  queryId: string;
  instruction: string;
  /** Seed → checker success (eval runs are cycles `eval-<set>-<model>@<version>-s<seed>`). */
  bySeed: { seed: number; success: boolean | null }[];
}

/** Per-query outcomes of every eval run (the frozen eval set's episodes), grouped by version and query. */
export async function listEvalOutcomes(db: Queryable): Promise<EvalQueryOutcome[]> {
  const rows = await many(
    db,
    `select c.model_version, r.query_id, q.instruction, substring(c.id from '-s([0-9]+)$')::int as seed,
            case when r.degraded then null else coalesce(r.ground_truth, false) end as success
     from rollouts r join cycles c on c.id = r.cycle_id join queries q on q.id = r.query_id
     where c.id like 'eval-%'
     order by c.model_version, r.query_id, seed`,
    [],
    z.object({ model_version: z.string(), query_id: z.string(), instruction: z.string(), seed: z.number().nullable(), success: z.boolean().nullable() }),
  );
  const out = new Map<string, EvalQueryOutcome>();
  for (const r of rows) {
    const key = `${r.model_version}\n${r.query_id}`;
    const o = out.get(key) ?? { modelVersion: r.model_version, queryId: r.query_id, instruction: r.instruction, bySeed: [] };
    o.bySeed.push({ seed: r.seed ?? 0, success: r.success });
    out.set(key, o);
  }
  return [...out.values()];
}
