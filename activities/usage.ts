import { Context } from '@temporalio/activity';
import { UsageMeter, withUsageScope } from '../models/gateway.js';
import type { Queryable } from '../storage/db.js';
import { maybeOne } from '../storage/db.js';
import { recordUsage } from '../storage/usage-repo.js';
import { z } from 'zod';

/**
 * Model usage and cost accounting per activity attempt: each activity runs inside a scoped UsageMeter (the
 * gateway records every call made under it, models/gateway.ts `withUsageScope`), and when the attempt ends —
 * succeeded or failed, since failed calls are paid for too — its per-role totals are upserted into
 * `model_usage` under `<activity>:<workflow id>:<activity id>#<attempt>` (storage/usage-repo.ts). The cycle is
 * the input's `cycleId`, or the cycle of the input's `rolloutId`. Activities that make no model call write
 * nothing. Accounting never fails an activity: a failed write is logged and dropped.
 */
export function meterActivities<A extends Record<string, (input: never) => Promise<unknown>>>(db: Queryable, activities: A): A {
  const wrapped: Record<string, (input: never) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] = async (input: never) => {
      const meter = new UsageMeter();
      try {
        return await withUsageScope(meter, () => fn(input));
      } finally {
        const byRole = meter.snapshot();
        if (Object.keys(byRole).length > 0) await save(db, name, input, byRole);
      }
    };
  }
  return wrapped as A;
}

const CycleOfRollout = z.object({ cycle_id: z.string() });

async function save(db: Queryable, name: string, input: unknown, byRole: ReturnType<UsageMeter['snapshot']>): Promise<void> {
  try {
    const i = (input ?? {}) as { cycleId?: unknown; rolloutId?: unknown };
    let cycleId = typeof i.cycleId === 'string' ? i.cycleId : undefined;
    if (!cycleId && typeof i.rolloutId === 'string') {
      cycleId = (await maybeOne(db, 'select cycle_id from rollouts where id = $1', [i.rolloutId], CycleOfRollout))?.cycle_id;
    }
    if (!cycleId) return;
    const info = Context.current().info;
    const scope = `${name}:${info.workflowExecution?.workflowId ?? '-'}:${info.activityId}#${info.attempt}`;
    await recordUsage(db, { cycleId, scope, activity: name }, byRole);
  } catch (e) {
    console.warn(`trajforge: could not record model usage of ${name}: ${(e as Error).message}`);
  }
}
