import { z } from 'zod';
import { many, type Queryable } from './db.js';

/**
 * Model usage and cost per activity attempt and role (migration 0007). Upserts replace, so recording the same
 * attempt twice never double-counts.
 */

export interface UsageScope {
  cycleId: string;
  /** `<activity type>:<workflow id>:<activity id>#<attempt>` */
  scope: string;
  activity: string;
}

/** What one role's calls used (the gateway's `RoleUsage`). */
export interface UsageCounts {
  calls: number;
  cachedCalls: number;
  failedCalls: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

export async function recordUsage(db: Queryable, at: UsageScope, byRole: Record<string, UsageCounts>): Promise<number> {
  let n = 0;
  for (const [role, u] of Object.entries(byRole)) {
    if (u.calls === 0 && u.failedCalls === 0) continue;
    await db.query(
      `insert into model_usage (cycle_id, scope, activity, role, calls, cached_calls, failed_calls, prompt_tokens, completion_tokens, cost_usd)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (cycle_id, scope, role) do update set
         activity = excluded.activity, calls = excluded.calls, cached_calls = excluded.cached_calls,
         failed_calls = excluded.failed_calls, prompt_tokens = excluded.prompt_tokens,
         completion_tokens = excluded.completion_tokens, cost_usd = excluded.cost_usd, recorded_at = now()`,
      [at.cycleId, at.scope, at.activity, role, u.calls, u.cachedCalls, u.failedCalls, u.promptTokens, u.completionTokens, u.costUsd],
    );
    n++;
  }
  return n;
}

const UsageRow = z.object({
  role: z.string(),
  calls: z.coerce.number(),
  cached_calls: z.coerce.number(),
  failed_calls: z.coerce.number(),
  prompt_tokens: z.coerce.number(),
  completion_tokens: z.coerce.number(),
  cost_usd: z.coerce.number(),
});

export interface CycleUsage extends UsageCounts {
  role: string;
}

/** A cycle's model usage summed per role, most expensive (then most tokens) first. */
export async function cycleUsage(db: Queryable, cycleId: string): Promise<CycleUsage[]> {
  const rows = await many(
    db,
    `select role, sum(calls) as calls, sum(cached_calls) as cached_calls, sum(failed_calls) as failed_calls,
            sum(prompt_tokens) as prompt_tokens, sum(completion_tokens) as completion_tokens, sum(cost_usd) as cost_usd
     from model_usage where cycle_id = $1 group by role
     order by sum(cost_usd) desc, sum(prompt_tokens + completion_tokens) desc, role`,
    [cycleId],
    UsageRow,
  );
  return rows.map((r) => ({
    role: r.role,
    calls: r.calls,
    cachedCalls: r.cached_calls,
    failedCalls: r.failed_calls,
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
    costUsd: r.cost_usd,
  }));
}
