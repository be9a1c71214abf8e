import { ApplicationFailure, executeChild, proxyActivities, workflowInfo, type ActivityOptions } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { synthesizeGuidance } from './guidance.js';
import { synthesizeReasoningData } from './reasoning.js';
import { CycleInput, queueNames, type CycleResult, type RolloutInput, type RolloutResult } from './contracts.js';

type Activities = ReturnType<typeof createActivities>;

/**
 * Database and light bookkeeping work. Ten attempts (backoff 1 s doubling, capped at 30 s: about 3 minutes in all)
 * outlast a database or Temporal restart; every activity is an idempotent upsert, so a retry is safe.
 */
const dbOptions: ActivityOptions = { startToCloseTimeout: '2m', retry: { maximumAttempts: 10, maximumInterval: '30s' } };
/**
 * One episode = one activity on the environment queue (see README: why). Workers heartbeat every running activity
 * every 5 s (cli/runtime.ts `keepAlive`) and after every step, so a killed or frozen worker is noticed within the
 * 20 s heartbeat timeout and the episode retried elsewhere; a hung page or browser is bounded inside the
 * environment (the action timeout). Ten attempts: a crashing worker fleet (bench/chaos.ts kills one every few
 * seconds) must not fail the cycle.
 */
const episodeOptions: ActivityOptions = {
  startToCloseTimeout: '20m',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 10, maximumInterval: '30s', nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};
/** Critics, OCR and export: CPU-bound, on their own queue so they scale separately from environments. */
const cpuOptions: ActivityOptions = {
  startToCloseTimeout: '15m',
  heartbeatTimeout: '20s',
  retry: { maximumAttempts: 10, maximumInterval: '30s', nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};

function activitiesFor(prefix: string): { main: Activities; env: Activities; cpu: Activities } {
  const q = queueNames(prefix);
  return {
    main: proxyActivities<Activities>({ ...dbOptions, taskQueue: q.main }),
    env: proxyActivities<Activities>({ ...episodeOptions, taskQueue: q.env }),
    cpu: proxyActivities<Activities>({ ...cpuOptions, taskQueue: q.cpu }),
  };
}

/**
 * One production cycle: generate queries → K rollouts per query (each judged by the critics) → export
 * the accepted, cleansed steps as a versioned dataset. Child workflow ids derive from business keys
 * (`cycle-7/q-food-…/a1`), so a restarted cycle never duplicates work.
 */
export async function productionCycle(raw: unknown): Promise<CycleResult> {
  const parsed = CycleInput.safeParse(raw);
  if (!parsed.success) {
    throw ApplicationFailure.nonRetryable(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
      'InvalidInput',
    );
  }
  const input = parsed.data;
  const { main } = activitiesFor(input.taskQueuePrefix);
  const started = await main.startCycle({ cycleId: input.cycleId, config: input.config });

  const { queryIds } = await executeChild(generateQueries, {
    workflowId: `${input.cycleId}/generate-queries`,
    taskQueue: queueNames(input.taskQueuePrefix).main,
    args: [input],
  });

  const jobs: RolloutInput[] = queryIds.flatMap((queryId) =>
    Array.from({ length: input.config.attempts }, (_, attempt) => ({
      cycleId: input.cycleId,
      queryId,
      attempt,
      config: input.config,
      taskQueuePrefix: input.taskQueuePrefix,
    })),
  );
  // A sliding window keeps the number of open children (and environment sessions) bounded.
  const window = Math.max(1, input.config.concurrency * 2);
  let next = 0;
  const results: RolloutResult[] = [];
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      results.push(
        await executeChild(rollout, {
          workflowId: `${job.cycleId}/${job.queryId}/a${job.attempt}`,
          taskQueue: queueNames(input.taskQueuePrefix).main,
          args: [job],
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, jobs.length) }, worker));
  // Guidance for hard queries (workflows/guidance.ts): its guided attempts are judged before calibration and export.
  const guidance = input.config.guidance.enabled && input.config.guidance.maxQueries > 0
    ? await executeChild(synthesizeGuidance, { workflowId: `${input.cycleId}/guidance`, taskQueue: queueNames(input.taskQueuePrefix).main, args: [input] })
    : undefined;
  // Reasoning data from the accepted rollouts (workflows/reasoning.ts): consistency filter + hint-guided rejection sampling.
  const reasoning = input.config.reasoning.enabled && input.config.reasoning.maxRollouts > 0
    ? await executeChild(synthesizeReasoningData, { workflowId: `${input.cycleId}/reasoning`, taskQueue: queueNames(input.taskQueuePrefix).main, args: [input] })
    : undefined;
  // Critic calibration against checker ground truth (stored per critic version; the summary goes in the result).
  const calibration = await main.calibrateCritics({ cycleId: input.cycleId, config: input.config });

  const dataset = await executeChild(exportDataset, {
    workflowId: `${input.cycleId}/export`,
    taskQueue: queueNames(input.taskQueuePrefix).main,
    args: [{ cycleId: input.cycleId, config: input.config, createdAt: started.startedAt, taskQueuePrefix: input.taskQueuePrefix }],
  });
  const counts = await main.finishCycle({ cycleId: input.cycleId, exportedSamples: dataset?.samples ?? 0 });
  return { cycleId: input.cycleId, configHash: started.configHash, counts, calibration, dataset, ...(guidance ? { guidance } : {}), ...(reasoning ? { reasoning } : {}) };
}

/** Samples, validates and persists this cycle's queries; returns their ids. */
export async function generateQueries(input: CycleInput): Promise<{ queryIds: string[] }> {
  const { cpu } = activitiesFor(input.taskQueuePrefix);
  return cpu.generateQueries({ cycleId: input.cycleId, cycleNumber: input.cycleNumber, config: input.config });
}

/** One attempt at one query: the episode, then its judgement. */
export async function rollout(input: RolloutInput): Promise<RolloutResult> {
  const { env } = activitiesFor(input.taskQueuePrefix);
  const episode = await env.runEpisode({
    cycleId: input.cycleId,
    queryId: input.queryId,
    attempt: input.attempt,
    config: input.config,
    ...(input.purpose ? { purpose: input.purpose } : {}),
    ...(input.agentMode ? { agentMode: input.agentMode } : {}),
    ...(input.guidanceVersion !== undefined ? { guidanceVersion: input.guidanceVersion } : {}),
  });
  const verdict = await executeChild(judgeTrajectory, {
    workflowId: `${workflowInfo().workflowId}/judge`,
    args: [{ rolloutId: episode.rolloutId, config: input.config, taskQueuePrefix: input.taskQueuePrefix }],
  });
  return { rolloutId: episode.rolloutId, status: episode.status, steps: episode.steps, correct: verdict.correct };
}

/** Step critic over every step, then the two trajectory-critic channels and their consensus. */
export async function judgeTrajectory(input: {
  rolloutId: string;
  config: RolloutInput['config'];
  taskQueuePrefix: string;
}): Promise<{ correct: boolean | null }> {
  const { cpu } = activitiesFor(input.taskQueuePrefix);
  await cpu.judgeSteps({ rolloutId: input.rolloutId });
  return cpu.judgeTrajectory({ rolloutId: input.rolloutId, config: input.config });
}

/** Builds the cycle's SFT dataset version from accepted, cleansed trajectories. */
export async function exportDataset(input: {
  cycleId: string;
  config: RolloutInput['config'];
  createdAt: string;
  taskQueuePrefix: string;
}): Promise<CycleResult['dataset']> {
  const { cpu } = activitiesFor(input.taskQueuePrefix);
  return cpu.exportDataset({ cycleId: input.cycleId, config: input.config, createdAt: input.createdAt });
}
