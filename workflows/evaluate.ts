import { proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import type { CycleConfig } from '../domain/config.js';
import { queueNames } from './contracts.js';
import type { EvalResult, EvalSpec } from './loop-contracts.js';

type Activities = ReturnType<typeof createActivities>;

const dbOptions: ActivityOptions = { startToCloseTimeout: '2m', retry: { maximumAttempts: 5 } };
const cpuOptions: ActivityOptions = {
  startToCloseTimeout: '15m',
  heartbeatTimeout: '2m',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};
const episodeOptions: ActivityOptions = {
  startToCloseTimeout: '20m',
  heartbeatTimeout: '2m',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};

/**
 * Rolls one policy version out on the frozen eval set, once per seed, and returns the checker success rate of
 * each seed. Eval runs are cycles of their own (`eval-<set>-<model>@<version>-s<seed>`), never judged and never
 * exported; their episodes are keyed like any rollout, so a restarted evaluation — or the same version evaluated
 * again in a later generation — reuses the episodes already stored.
 */
export async function evaluatePolicy(input: {
  version: string;
  eval: EvalSpec;
  config: CycleConfig;
  taskQueuePrefix: string;
}): Promise<EvalResult> {
  const q = queueNames(input.taskQueuePrefix);
  const main = proxyActivities<Activities>({ ...dbOptions, taskQueue: q.main });
  const cpu = proxyActivities<Activities>({ ...cpuOptions, taskQueue: q.cpu });
  const env = proxyActivities<Activities>({ ...episodeOptions, taskQueue: q.env });
  const { queryIds } = await cpu.prepareEvalSet({ eval: input.eval, config: input.config });
  const config: CycleConfig = {
    ...input.config,
    policyVersion: input.version,
    policyTemperature: input.eval.temperature,
    greedyFirstAttempt: false,
    maxSteps: input.eval.maxSteps,
  };
  const window = Math.max(1, input.config.concurrency * 2);
  const rates: number[] = [];
  let episodes = 0;
  // Seeds one after another (each a bounded window of episodes) so one evaluation never floods the env queue.
  for (const seed of input.eval.seeds) {
    const { cycleId } = await main.startEvalRun({ evalSet: input.eval.evalSet, version: input.version, seed, queryIds, config });
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < queryIds.length) {
        const queryId = queryIds[next++]!;
        await env.runEpisode({ cycleId, queryId, attempt: 0, config });
      }
    };
    await Promise.all(Array.from({ length: Math.min(window, queryIds.length) }, worker));
    const result = await main.finishEvalRun({ cycleId });
    rates.push(result.rate);
    episodes += result.episodes;
  }
  return { version: input.version, evalSet: input.eval.evalSet, rates, seeds: [...input.eval.seeds], episodes };
}
