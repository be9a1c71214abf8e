import { z } from 'zod';
import { many, type Queryable } from '../storage/db.js';

/**
 * Reward-statistics windows over `query_stats` (per-query effective-acceptance reward, refreshed by finishCycle):
 * - `online`: the online-filter window 0.1 < mean < 1 (GUI-Owl/DAPO-style: drop all-fail and all-success tasks);
 * - `swirl-mid`: SWIRL's stage window, mean ∈ [0.3, 0.4];
 * - `swirl-hard`: SWIRL's hard-and-uncertain window, mean < 0.6 ∧ var > 0.175.
 */
export const REWARD_PRESETS = {
  online: { sql: 's.reward_mean > 0.1 and s.reward_mean < 1', description: '0.1 < mean < 1' },
  'swirl-mid': { sql: 's.reward_mean >= 0.3 and s.reward_mean <= 0.4', description: '0.3 ≤ mean ≤ 0.4' },
  'swirl-hard': { sql: 's.reward_mean < 0.6 and s.reward_var > 0.175', description: 'mean < 0.6 ∧ var > 0.175' },
} as const;
export type RewardPreset = keyof typeof REWARD_PRESETS;

/** Which rollouts a snapshot takes, across cycles. Every field is optional: no filter = every judged rollout. */
export const SelectionFilters = z
  .object({
    cycles: z.array(z.string().min(1)).min(1).optional(),
    /** ISO date or timestamp: cycles started at or after it. */
    since: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
    apps: z.array(z.string().min(1)).min(1).optional(),
    /** Exclusive window on the query's reward mean: lo < mean < hi. */
    rewardWindow: z
      .object({ lo: z.number().min(0).max(1), hi: z.number().min(0).max(1) })
      .refine((w) => w.lo < w.hi, 'lo must be below hi')
      .optional(),
    rewardPreset: z.enum(Object.keys(REWARD_PRESETS) as [RewardPreset, ...RewardPreset[]]).optional(),
  })
  .strict();
export type SelectionFilters = z.infer<typeof SelectionFilters>;

/** One judged, non-degraded rollout as the selection returns it (effective acceptance from `rollout_acceptance`). */
export const SelectedRollout = z
  .object({
    rollout_id: z.string(),
    cycle_id: z.string(),
    query_id: z.string(),
    app: z.string(),
    critic_version: z.string(),
    accepted: z.boolean(),
    source: z.enum(['human', 'critics']),
    dropped_steps: z.array(z.number().int()).nullable(),
  })
  .transform((r) => ({
    rolloutId: r.rollout_id,
    cycleId: r.cycle_id,
    queryId: r.query_id,
    app: r.app,
    criticVersion: r.critic_version,
    accepted: r.accepted,
    acceptanceSource: r.source,
    /** Steps a reviewer marked `false` in review_verdicts.steps: never exported. */
    droppedSteps: r.dropped_steps ?? [],
  }));
export type SelectedRollout = z.output<typeof SelectedRollout>;

/**
 * The selection as SQL text plus parameters: recorded verbatim in the manifest, so a snapshot says exactly what it
 * took. Acceptance always comes from the `rollout_acceptance` view (critics' consensus of the rollout's cycle critic
 * version, overridden by human verdicts); degraded and unjudged rollouts are never selected. Order: cycle start, then
 * rollout id — the order the running statistics of the TRPO advantage follow.
 */
export function selectionQuery(filters: SelectionFilters): { sql: string; params: (string | string[] | number)[] } {
  const where: string[] = ['r.degraded = false', 'ra.accepted is not null'];
  const params: (string | string[] | number)[] = [];
  const p = (v: string | string[] | number): string => {
    params.push(v);
    return `$${params.length}`;
  };
  if (filters.cycles) where.push(`ra.cycle_id = any(${p(filters.cycles)}::text[])`);
  if (filters.since) where.push(`c.started_at >= ${p(filters.since)}::timestamptz`);
  if (filters.apps) where.push(`q.app = any(${p(filters.apps)}::text[])`);
  if (filters.rewardWindow) where.push(`s.reward_mean > ${p(filters.rewardWindow.lo)}::float8 and s.reward_mean < ${p(filters.rewardWindow.hi)}::float8`);
  if (filters.rewardPreset) where.push(`(${REWARD_PRESETS[filters.rewardPreset].sql})`);
  const sql = [
    'select ra.rollout_id, ra.cycle_id, ra.query_id, q.app, ra.critic_version, ra.accepted, ra.source,',
    '  (select array_agg(distinct e.key::int order by e.key::int) from review_verdicts v, jsonb_each(v.steps) e',
    "   where v.rollout_id = ra.rollout_id and e.value = 'false'::jsonb) as dropped_steps",
    'from rollout_acceptance ra',
    'join rollouts r on r.id = ra.rollout_id',
    'join queries q on q.id = ra.query_id',
    'join cycles c on c.id = ra.cycle_id',
    'left join query_stats s on s.query_id = ra.query_id',
    `where ${where.join('\n  and ')}`,
    'order by c.started_at, ra.cycle_id, ra.rollout_id',
  ].join('\n');
  return { sql, params };
}

/** Runs the selection. */
export async function selectRollouts(db: Queryable, filters: SelectionFilters): Promise<SelectedRollout[]> {
  const q = selectionQuery(filters);
  return many(db, q.sql, q.params, SelectedRollout);
}
