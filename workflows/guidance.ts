import { executeChild, proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { queueNames, type CycleInput, type GuidanceSummary, type RolloutInput, type RolloutResult } from './contracts.js';

type Activities = ReturnType<typeof createActivities>;

const dbOptions: ActivityOptions = { startToCloseTimeout: '2m', retry: { maximumAttempts: 10, maximumInterval: '30s' } };
const envOptions: ActivityOptions = {
  startToCloseTimeout: '10m',
  heartbeatTimeout: '2m',
  retry: { maximumAttempts: 3, maximumInterval: '30s', nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};
const cpuOptions: ActivityOptions = {
  startToCloseTimeout: '15m',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 10, maximumInterval: '30s', nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};

/**
 * The guidance stage of a cycle (GUI-Owl §6.4): hard queries of this cycle (no accepted attempt after
 * `guidance.minAttempts`) → a reference from `guidance.referenceSources` in order: the demonstration library
 * (a person's recording or the family's scripted demonstration, checker-verified) or attempts in another role
 * configuration (`…/rN`, judged like any rollout; the first the critics accept) → guidance synthesised from it (describer, QC, synthesiser) →
 * guided attempts (`…/gN`, the guidance in the policy prompt) → uplift recorded (and the version retired when it
 * stops helping). Child ids derive from business keys, so a restarted stage redoes nothing.
 */
export async function synthesizeGuidance(input: CycleInput): Promise<GuidanceSummary> {
  const q = queueNames(input.taskQueuePrefix);
  const main = proxyActivities<Activities>({ ...dbOptions, taskQueue: q.main });
  const cpu = proxyActivities<Activities>({ ...cpuOptions, taskQueue: q.cpu });
  const env = proxyActivities<Activities>({ ...envOptions, taskQueue: q.env });
  const g = input.config.guidance;
  // Reference sources in order (absent: the one role configuration of before, so old histories replay unchanged).
  const sources = g.referenceSources ?? [g.referenceAgentMode];
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
      let reference: { referenceRolloutId: string } | { demonstration: NonNullable<Awaited<ReturnType<Activities['demonstrateQuery']>>> } | undefined;
      // Reference attempts are numbered across the agent-mode sources (…/r0, …/r1, …): ids stay unique.
      let k = 0;
      for (const source of sources) {
        if (reference) break;
        if (source === 'demonstration') {
          const d = await env.demonstrateQuery({ cycleId: input.cycleId, queryId, config: input.config });
          if (d) {
            // A demonstration the library has and the checker verified counts as an accepted reference attempt.
            summary.demonstrations = (summary.demonstrations ?? 0) + 1;
            summary.referenceAttempts++;
            reference = { demonstration: d };
          }
          continue;
        }
        for (let j = 0; j < g.referenceAttempts && !reference; j++, k++) {
          const r = await roll({ ...base(queryId, k), purpose: 'reference', agentMode: source }, 'r');
          summary.referenceAttempts++;
          if (r.correct === true) reference = { referenceRolloutId: r.rolloutId };
        }
      }
      if (!reference) return;
      summary.referencesAccepted++;
      const made = await cpu.synthesizeQueryGuidance({ cycleId: input.cycleId, queryId, ...reference });
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
