import { ApplicationFailure, executeChild, proxyActivities, type ActivityOptions } from '@temporalio/workflow';
import type { createActivities } from '../activities/index.js';
import { queueNames } from './contracts.js';
import { evaluatePolicy } from './evaluate.js';
import { RetrainInput, type RetrainResult } from './loop-contracts.js';

type Activities = ReturnType<typeof createActivities>;

const dbOptions: ActivityOptions = { startToCloseTimeout: '2m', retry: { maximumAttempts: 5 } };
const cpuOptions: ActivityOptions = {
  startToCloseTimeout: '30m',
  heartbeatTimeout: '2m',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['InvalidInput', 'NotFound'] },
};

/**
 * One generation of GUI-Owl's loop, M(k+1) = Train(M(k), T(k) filtered): export a snapshot of the accepted
 * trajectories since the served model was trained → train a candidate with the configured adapter → register it
 * (`candidate`) → evaluate served and candidate versions on the frozen eval set over ≥ 3 seeds (`evaluating`) →
 * the gate promotes or rejects (evolution/gate.ts). Every step is keyed by `retrainId`: a restarted retrain
 * reuses the snapshot (content-addressed), the candidate version (fixed by `planRetrain` in history), the
 * registry rows and events (keyed), and the eval episodes (keyed by eval cycle and query).
 */
export async function retrain(raw: unknown): Promise<RetrainResult> {
  const parsed = RetrainInput.safeParse(raw);
  if (!parsed.success) {
    throw ApplicationFailure.nonRetryable(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '), 'InvalidInput');
  }
  const input = parsed.data;
  const q = queueNames(input.taskQueuePrefix);
  const main = proxyActivities<Activities>({ ...dbOptions, taskQueue: q.main });
  const cpu = proxyActivities<Activities>({ ...cpuOptions, taskQueue: q.cpu });
  // A GPU training job can take hours: the adapter heartbeats while it waits.
  const trainer = proxyActivities<Activities>({
    ...cpuOptions,
    startToCloseTimeout: input.trainer.kind === 'external' ? `${input.trainer.timeoutMinutes + 5}m` : '30m',
    taskQueue: q.cpu,
  });

  const plan = await main.planRetrain({ retrainId: input.retrainId });
  const snapshot = input.dataset
    ? await main.describeDataset({ dataset: input.dataset })
    : await cpu.exportTrainingSnapshot({ retrainId: input.retrainId, config: input.config, afterCycle: plan.afterCycle, throughCycle: plan.throughCycle });
  if (!snapshot) {
    return { retrainId: input.retrainId, status: 'skipped', reason: `no accepted trajectories after cycle-${plan.afterCycle}`, parentVersion: plan.servedVersion };
  }
  await trainer.trainCandidate({
    retrainId: input.retrainId,
    trainer: input.trainer,
    dataset: snapshot.dataset,
    parentVersion: plan.servedVersion,
    version: plan.candidateVersion,
    afterCycle: plan.afterCycle,
    throughCycle: plan.throughCycle,
    trainedAt: plan.plannedAt,
  });
  await main.markModel({ version: plan.candidateVersion, to: 'evaluating', actor: input.actor, eventKey: `${input.retrainId}:evaluating` });

  const evaluate = (version: string) =>
    executeChild(evaluatePolicy, {
      workflowId: `${input.retrainId}/eval-${version}`,
      taskQueue: q.main,
      args: [{ version, eval: input.eval, config: input.config, taskQueuePrefix: input.taskQueuePrefix }],
    });
  const current = await evaluate(plan.servedVersion);
  const candidate = await evaluate(plan.candidateVersion);
  const decision = await main.decideGate({
    retrainId: input.retrainId,
    candidateVersion: plan.candidateVersion,
    currentVersion: plan.servedVersion,
    current,
    candidate,
    actor: input.actor,
  });
  return {
    retrainId: input.retrainId,
    status: decision.promote ? 'promoted' : 'rejected',
    reason: decision.reason,
    parentVersion: plan.servedVersion,
    candidateVersion: plan.candidateVersion,
    dataset: snapshot.dataset,
    samples: snapshot.samples,
    current,
    candidate,
  };
}
