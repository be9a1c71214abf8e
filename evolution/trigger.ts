import { z } from 'zod';

/**
 * THE RETRAIN TRIGGER. After every cycle of a line, a retrain starts when either
 * - at least `minNewAccepted` accepted trajectories were produced since the last training snapshot, or
 * - the last cycle's acceptance rate fell by more than `acceptanceDrop` (absolute) below the mean of the cycles
 *   before it since the last training (a drifting model or environment), with at least one accepted trajectory
 *   to train on.
 * `acceptanceDrop: null` turns the second clause off.
 */
export const TriggerPolicy = z.object({
  minNewAccepted: z.number().int().min(1).default(20),
  acceptanceDrop: z.number().gt(0).max(1).nullable().default(null),
});
export type TriggerPolicy = z.infer<typeof TriggerPolicy>;

export interface TriggerState {
  /** Accepted trajectories in training cycles since the last snapshot. */
  newAccepted: number;
  /** Acceptance rate (accepted / judged) of each training cycle since the last snapshot, oldest first. */
  acceptanceRates: readonly number[];
}

export function retrainDue(policy: TriggerPolicy, state: TriggerState): { due: boolean; reason: string } {
  if (state.newAccepted >= policy.minNewAccepted) {
    return { due: true, reason: `${state.newAccepted} new accepted trajectories ≥ ${policy.minNewAccepted}` };
  }
  const rates = state.acceptanceRates;
  if (policy.acceptanceDrop !== null && rates.length >= 2 && state.newAccepted > 0) {
    const last = rates[rates.length - 1]!;
    const before = rates.slice(0, -1);
    const base = before.reduce((a, b) => a + b, 0) / before.length;
    if (base - last > policy.acceptanceDrop) {
      return { due: true, reason: `acceptance fell from ${base.toFixed(2)} to ${last.toFixed(2)} (> ${policy.acceptanceDrop})` };
    }
  }
  return { due: false, reason: `${state.newAccepted} new accepted trajectories < ${policy.minNewAccepted}` };
}
