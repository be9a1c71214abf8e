import { executeChild, proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { queueNames, type CycleInput, type GuidanceSummary, type RolloutInput, type RolloutResult } from './contracts.js';

type Activities = ReturnType<typeof createActivities>;

const dbOptions: ActivityOptions = { startToCloseTimeout: '2m', retry: { maximumAttempts: 10, maximumInterval: '30s' } };
const cpuOptions: ActivityOptions = {
  startToCloseTimeout: '15m',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 10, maximumInterval: '30s', nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};

/**
 * The guidance stage of a cycle (GUI-Owl §6.4): hard queries of this cycle (no accepted attempt after
 * `guidance.minAttempts`) → reference attempts in another role configuration (`…/rN`, judged like any rollout;
 * the first the critics accept is the reference) → guidance synthesised from it (describer, QC, synthesiser) →
 * guided attempts (`…/gN`, the guidance in the policy prompt) → uplift recorded (and the version retired when it
 * stops helping). Child ids derive from business keys, so a restarted stage redoes nothing.
 */
export async function synthesizeGuidance(input: CycleInput): Promise<GuidanceSummary> {
  const q = queueNames(input.taskQueuePrefix);
  const main = proxyActivities<Activities>({ ...dbOptions, taskQueue: q.main });
  const cpu = proxyActivities<Activities>({ ...cpuOptions, taskQueue: q.cpu });
  const g = input.config.guidance;
  const summary: GuidanceSummary = {
    hardQueries: 0,
    referenceAttempts: 0,
    referencesAccepted: 0,
    guidanceSynthesised: 0,
    guidedAttempts: 0,
    guidedAccepted: 0,
    guidedGtSuccesses: 0,
    unguidedGtSuccesses: 0,
    unguidedAttempts: 0,
  };
  const { hard, queryIds } = await main.findHardQueries({ cycleId: input.cycleId, config: input.config });
  summary.hardQueries = hard;
  const base = (queryId: string, attempt: number): RolloutInput => ({
    cycleId: input.cycleId,
    queryId,
    attempt,
    config: input.config,
    taskQueuePrefix: input.taskQueuePrefix,
  });
  // The rollout workflow is addressed by name: importing production-cycle.ts here would make an import cycle.
  const roll = (job: RolloutInput, tag: string): Promise<RolloutResult> =>
    executeChild('rollout', { workflowId: `${job.cycleId}/${job.queryId}/${tag}${job.attempt}`, taskQueue: q.main, args: [job] });

  await Promise.all(
    queryIds.map(async (queryId) => {
      let reference: string | undefined;
      for (let k = 0; k < g.referenceAttempts && !reference; k++) {
        const r = await roll({ ...base(queryId, k), purpose: 'reference', agentMode: g.referenceAgentMode }, 'r');
        summary.referenceAttempts++;
        if (r.correct === true) reference = r.rolloutId;
      }
      if (!reference) return;
      summary.referencesAccepted++;
      const made = await cpu.synthesizeQueryGuidance({ cycleId: input.cycleId, queryId, referenceRolloutId: reference });
      if (!made) return;
      summary.guidanceSynthesised++;
      for (let k = 0; k < g.guidedAttempts; k++) {
        await roll({ ...base(queryId, k), purpose: 'guided', guidanceVersion: made.version }, 'g');
      }
      const o = await main.recordGuidanceOutcome({ cycleId: input.cycleId, queryId, version: made.version });
      summary.guidedAttempts += o.guided;
      summary.guidedAccepted += o.guidedAccepted;
      summary.guidedGtSuccesses += o.guidedGt;
      summary.unguidedAttempts += o.unguided;
      summary.unguidedGtSuccesses += o.unguidedGt;
    }),
  );
  return summary;
}
