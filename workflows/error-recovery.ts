import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import type { ErrorRecoveryCounts } from '../activities/synthesis.js';
import { queueNames } from './contracts.js';

type Activities = ReturnType<typeof createActivities>;

const dbOptions: ActivityOptions = { startToCloseTimeout: '2m', retry: { maximumAttempts: 5 } };
/** One rollout's probes and counterfactuals in one leased session, heartbeating per step. */
const envOptions: ActivityOptions = { startToCloseTimeout: '30m', heartbeatTimeout: '5m', retry: { maximumAttempts: 3 } };

export interface ErrorRecoveryWorkflowInput {
  cycleId: string;
  samples: number;
  temperature: number;
  maxPerRollout: number;
  historyImages: number;
  taskQueuePrefix: string;
}

/**
 * Error-recovery data for a cycle's accepted rollouts (synthesis/error-recovery.ts): one activity per rollout on
 * the env queue (the session lives there), at most as many at once as the env workers allow. Returns the summed counts.
 */
export async function errorRecovery(input: ErrorRecoveryWorkflowInput): Promise<ErrorRecoveryCounts & { rollouts: number }> {
  const q = queueNames(input.taskQueuePrefix);
  const main = proxyActivities<Activities>({ ...dbOptions, taskQueue: q.main });
  const env = proxyActivities<Activities>({ ...envOptions, taskQueue: q.env });
  const ids = await main.listErrorRecoveryCandidates({ cycleId: input.cycleId });
  const results = await Promise.all(
    ids.map((rolloutId) =>
      env.synthesizeErrorRecovery({ rolloutId, samples: input.samples, temperature: input.temperature, maxPerRollout: input.maxPerRollout, historyImages: input.historyImages }),
    ),
  );
  const total: ErrorRecoveryCounts & { rollouts: number } = { rollouts: ids.length, probed: 0, errorProne: 0, built: 0, samples: 0, replayMismatches: 0, escapeRestored: 0, outcomes: {} };
  for (const r of results) {
    total.probed += r.probed;
    total.errorProne += r.errorProne;
    total.built += r.built;
    total.samples += r.samples;
    total.replayMismatches += r.replayMismatches;
    total.escapeRestored += r.escapeRestored;
    for (const [k, v] of Object.entries(r.outcomes)) total.outcomes[k] = (total.outcomes[k] ?? 0) + v;
  }
  return total;
}
