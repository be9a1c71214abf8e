import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { queueNames, type CycleInput, type ReasoningSummary } from './contracts.js';

type Activities = ReturnType<typeof createActivities>;

const dbOptions: ActivityOptions = { startToCloseTimeout: '2m', retry: { maximumAttempts: 5 } };
const cpuOptions: ActivityOptions = {
  startToCloseTimeout: '20m',
  heartbeatTimeout: '5m',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};

/**
 * Reasoning data as a cycle stage (GUI-Owl §2.2.3): on the cycle's accepted rollouts (at most
 * `reasoning.maxRollouts`, first by id), one cpu activity each runs the thought–action consistency rule on every
 * executed step and hint-guided rejection sampling on the consistent ones (synthesis/reasoning-stage.ts); every
 * filter decision is stored with its reason. Activities upsert on natural keys, so a restarted stage rewrites the
 * same rows. Returns the summed counts for the cycle summary.
 */
export async function synthesizeReasoningData(input: CycleInput): Promise<ReasoningSummary> {
  const q = queueNames(input.taskQueuePrefix);
  const main = proxyActivities<Activities>({ ...dbOptions, taskQueue: q.main });
  const cpu = proxyActivities<Activities>({ ...cpuOptions, taskQueue: q.cpu });
  const ids = (await main.listErrorRecoveryCandidates({ cycleId: input.cycleId })).slice(0, input.config.reasoning.maxRollouts);
  const results = await Promise.all(ids.map((rolloutId) => cpu.synthesizeReasoning({ cycleId: input.cycleId, rolloutId, styles: input.config.reasoning.styles })));
  const total: ReasoningSummary = { rollouts: ids.length, steps: 0, consistencyRejected: 0, traces: 0, kept: 0, rejected: 0, needsHuman: 0 };
  for (const r of results) {
    total.steps += r.steps;
    total.consistencyRejected += r.consistencyRejected;
    total.traces += r.traces;
    total.kept += r.kept;
    total.rejected += r.rejected;
    total.needsHuman += r.needsHuman;
    total.distilled = (total.distilled ?? 0) + (r.distilled ?? 0);
    total.distillRejected = (total.distillRejected ?? 0) + (r.distillRejected ?? 0);
  }
  return total;
}
