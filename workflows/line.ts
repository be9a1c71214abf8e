import {
  ApplicationFailure,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  defineUpdate,
  executeChild,
  proxyActivities,
  setHandler,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { queueNames, type CycleResult } from './contracts.js';
import { LineInput, type LineStatus, type RetrainResult } from './loop-contracts.js';
import { productionCycle } from './production-cycle.js';
import { retrain } from './retrain.js';

type Activities = ReturnType<typeof createActivities>;

const dbOptions: ActivityOptions = { startToCloseTimeout: '2m', retry: { maximumAttempts: 5 } };

/** Stop starting cycles until `resume` (the running cycle or retrain finishes). */
export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
/** Finish the running cycle (and its retrain, if triggered), then end the line. */
export const drainSignal = defineSignal('drain');
/** Queries per cycle from the next cycle on; returns the size now in force. */
export const setCycleSizeUpdate = defineUpdate<number, [number]>('setCycleSize');
export const statusQuery = defineQuery<LineStatus>('status');

/**
 * A standing production line: cycle after cycle on the served (promoted) policy version; after each cycle the
 * retrain trigger (evolution/trigger.ts) decides whether a generation starts (workflows/retrain.ts). Signals pause,
 * resume and drain it, an update changes the cycle size, a query reports live status. After `cyclesPerRun` cycles
 * (or when Temporal suggests it) the line continues as new with its state, so history stays bounded however long
 * it runs. `trajforge line stop` cancels it (the running cycle's children are cancelled with it).
 */
export async function productionLine(raw: unknown): Promise<LineStatus> {
  const parsed = LineInput.safeParse(raw);
  if (!parsed.success) {
    throw ApplicationFailure.nonRetryable(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '), 'InvalidInput');
  }
  const input = parsed.data;
  const state = { ...input.state, runs: input.state.runs + 1 };
  const q = queueNames(input.taskQueuePrefix);
  const main = proxyActivities<Activities>({ ...dbOptions, taskQueue: q.main });
  let phase: LineStatus['phase'] = 'idle';
  let servedVersion: string | null = null;
  let lastTrigger: string | null = null;
  const queries = (): number => state.queries ?? input.config.queries;

  setHandler(pauseSignal, () => {
    state.paused = true;
  });
  setHandler(resumeSignal, () => {
    state.paused = false;
  });
  setHandler(drainSignal, () => {
    state.draining = true;
  });
  setHandler(
    setCycleSizeUpdate,
    (n) => {
      state.queries = n;
      return n;
    },
    {
      validator: (n) => {
        if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error(`cycle size: expected an integer in 1..10000, got ${String(n)}`);
      },
    },
  );
  setHandler(statusQuery, () => ({
    ...state,
    lineId: input.lineId,
    phase: state.paused && phase === 'idle' ? 'paused' : phase,
    queries: queries(),
    servedVersion,
    lastTrigger,
  }));

  const finished = (): boolean =>
    state.draining ||
    (input.generations > 0 && state.generation >= input.generations) ||
    (input.maxCycles > 0 && state.cyclesRun >= input.maxCycles);
  let cyclesThisRun = 0;
  while (!finished()) {
    if (cyclesThisRun >= input.cyclesPerRun || workflowInfo().continueAsNewSuggested) {
      // Let pending signal/update handlers finish before handing the state over.
      await condition(() => true);
      return continueAsNew<typeof productionLine>({ ...input, state });
    }
    await condition(() => !state.paused || state.draining);
    if (finished()) break;
    const plan = await main.planCycle({});
    servedVersion = plan.servedVersion;
    phase = 'cycle';
    const config = { ...input.config, queries: queries(), policyVersion: plan.servedVersion };
    const cycle: CycleResult = await executeChild(productionCycle, {
      workflowId: `${input.lineId}/cycle-${plan.cycleNumber}`,
      taskQueue: q.main,
      args: [{ cycleId: `cycle-${plan.cycleNumber}`, cycleNumber: plan.cycleNumber, config, taskQueuePrefix: input.taskQueuePrefix }],
    });
    state.cyclesRun++;
    cyclesThisRun++;
    state.lastCycle = cycle.cycleId;
    const check = await main.retrainCheck({ trigger: input.trigger });
    lastTrigger = check.reason;
    if (check.due) {
      phase = 'retrain';
      const generation = state.generation + 1;
      const result: RetrainResult = await executeChild(retrain, {
        workflowId: `${input.lineId}/retrain-g${generation}`,
        taskQueue: q.main,
        args: [{ retrainId: `${input.lineId}/retrain-g${generation}`, config: input.config, trainer: input.trainer, eval: input.eval, taskQueuePrefix: input.taskQueuePrefix }],
      });
      state.generation = generation;
      const mean = (xs: number[] | undefined): number | null => (xs && xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
      state.generations.push({
        generation,
        retrainId: result.retrainId,
        status: result.status,
        candidateVersion: result.candidateVersion ?? null,
        reason: result.reason,
        meanCurrent: mean(result.current?.rates),
        meanCandidate: mean(result.candidate?.rates),
      });
    }
    phase = 'idle';
  }
  phase = 'done';
  return { ...state, lineId: input.lineId, phase, queries: queries(), servedVersion, lastTrigger };
}
