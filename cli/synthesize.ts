import { parseArgs } from 'node:util';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ValidationError } from '../domain/errors.js';
import { latestCycleNumber } from '../storage/repos.js';
import { DEFAULT_RECOVERY_SAMPLES, DEFAULT_RECOVERY_TEMPERATURE, ERROR_RECOVERY_GENERATOR } from '../synthesis/error-recovery.js';
import type { ErrorRecoveryCounts } from '../activities/synthesis.js';
import { loadConfig } from './config.js';

export const SYNTHESIZE_USAGE = `  trajforge synthesize error-recovery [--cycle ID] [--samples N] [--temperature T] [--max-per-rollout M]
                                 error-recovery samples (InfiGUI-R1) from a cycle's accepted rollouts (default: the
                                 latest cycle): error-prone steps by sampling, wrong actions executed for real`;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/** `trajforge synthesize error-recovery`: runs the `errorRecovery` workflow on the configured services. */
export async function synthesizeCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'error-recovery') throw new ValidationError(`usage:\n${SYNTHESIZE_USAGE}`, undefined, 'command line');
  const { values } = parseArgs({
    args: rest,
    options: { cycle: { type: 'string' }, samples: { type: 'string' }, temperature: { type: 'string' }, 'max-per-rollout': { type: 'string' } },
  });
  const samples = values.samples !== undefined ? Number(values.samples) : DEFAULT_RECOVERY_SAMPLES;
  const temperature = values.temperature !== undefined ? Number(values.temperature) : DEFAULT_RECOVERY_TEMPERATURE;
  const maxPerRollout = values['max-per-rollout'] !== undefined ? Number(values['max-per-rollout']) : 1;
  if (!Number.isInteger(samples) || samples < 2 || samples > 64) throw new ValidationError('must be an integer in 2..64', '--samples', 'command line');
  if (!(temperature > 0 && temperature <= 2)) throw new ValidationError('must be in (0, 2]', '--temperature', 'command line');
  if (!Number.isInteger(maxPerRollout) || maxPerRollout < 1) throw new ValidationError('must be a positive integer', '--max-per-rollout', 'command line');
  const config = loadConfig();
  const { startRuntime, startWorkers } = await import('./runtime.js');
  const rt = await startRuntime(config, (l) => out(`  ${l}`));
  let workers;
  try {
    const cycleId = values.cycle ?? `cycle-${await latestCycleNumber(rt.db)}`;
    if (cycleId === 'cycle-0') throw new ValidationError('no cycle has run yet (npm run cycle)', '--cycle', 'command line');
    workers = await startWorkers(rt);
    const workflowId = `${cycleId}/error-recovery/${ERROR_RECOVERY_GENERATOR}`;
    const t0 = performance.now();
    out(`trajforge: error-recovery data for ${cycleId} (${samples} samples at T=${temperature} per step, ≤${maxPerRollout} per rollout)`);
    let handle;
    try {
      handle = await rt.temporal.client.workflow.start('errorRecovery', {
        workflowId,
        taskQueue: `${config.temporal.taskQueuePrefix}-main`,
        args: [{ cycleId, samples, temperature, maxPerRollout, historyImages: config.cycle.historyImages, taskQueuePrefix: config.temporal.taskQueuePrefix }],
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      handle = rt.temporal.client.workflow.getHandle(workflowId);
      out(`trajforge: ${workflowId} is already running; following it`);
    }
    const r = (await handle.result()) as ErrorRecoveryCounts & { rollouts: number };
    out(`trajforge: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    out(`  accepted rollouts        ${r.rollouts}`);
    out(`  steps probed             ${r.probed}  (error-prone, 0 < p < 1: ${r.errorProne})`);
    out(`  outcomes                 ${Object.entries(r.outcomes).map(([k, v]) => `${k} ${v}`).join(', ') || '–'}`);
    out(`  counterfactuals          ${r.built}  (replay differed from the stored screens: ${r.replayMismatches}; Back restored the screen: ${r.escapeRestored})`);
    out(`  samples written          ${r.samples}  (table error_recovery_samples, generator ${ERROR_RECOVERY_GENERATOR})`);
  } finally {
    await workers?.shutdown();
    await rt.close();
  }
}
