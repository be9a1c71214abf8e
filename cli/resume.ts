import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { CycleResult } from '../workflows/contracts.js';
import type { Runtime } from './runtime.js';
import { resumePlan, unfinishedCycles } from './status.js';

/**
 * Finds every started, unfinished cycle of this checkout and finishes it with the workers already running
 * in this process: a cycle still Running in Temporal is followed to its end; one whose workflow is gone
 * (lost history, terminated, timed out) is started again under the same id, where idempotent writes and
 * business-key child ids keep finished work from being duplicated. Prints what it resumes and each result.
 */
export async function resumeUnfinished(
  rt: Runtime,
  out: (line: string) => void,
  printResult: (r: CycleResult, seconds: number) => void,
  printUsage: (cycleId: string) => Promise<void>,
): Promise<CycleResult[]> {
  const prefix = rt.config.temporal.taskQueuePrefix;
  const pending = await unfinishedCycles(rt.db, rt.temporal.client, prefix);
  const results: CycleResult[] = [];
  for (const c of pending) {
    const plan = resumePlan(c);
    out(`trajforge: ${plan.action === 'skip' ? 'not resuming' : 'resuming'} ${c.cycleId} (${plan.why})`);
    if (plan.action === 'skip') continue;
    const t0 = performance.now();
    let handle = rt.temporal.client.workflow.getHandle(c.cycleId);
    if (plan.action === 'restart') {
      try {
        handle = await rt.temporal.client.workflow.start('productionCycle', {
          workflowId: c.cycleId,
          taskQueue: `${prefix}-main`,
          args: [c.input!],
        });
      } catch (err) {
        // Someone else (another main job) restarted it in between: follow theirs.
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }
    if (rt.temporal.uiUrl) out(`  follow it: ${rt.temporal.uiUrl}/namespaces/${rt.config.temporal.namespace}/workflows/${c.cycleId}`);
    const result = (await handle.result()) as CycleResult;
    printResult(result, (performance.now() - t0) / 1000);
    await printUsage(result.cycleId);
    results.push(result);
  }
  return results;
}
