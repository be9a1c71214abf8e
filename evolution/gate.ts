import { z } from 'zod';

/**
 * THE EVAL GATE. A candidate is promoted iff, on the frozen evaluation set rolled out with ≥ `minSeeds` seeds per
 * model, its mean checker success beats the served model's by more than the larger of the two seed spreads:
 *
 *   promote ⇔ n_cand ≥ minSeeds ∧ n_cur ≥ minSeeds ∧ mean_cand − mean_cur > max(sd_cand, sd_cur)
 *
 * sd is the sample standard deviation (n − 1) of the per-seed success rates. A tie or a gain inside the noise
 * keeps the served model; so does a candidate evaluated on fewer seeds. Pure: the same rates decide the same way.
 */
export const GATE_RULE = 'promote iff mean_cand - mean_cur > max(sd_cand, sd_cur) over >= 3 seeds each';

export const GateInput = z.object({
  current: z.array(z.number().min(0).max(1)),
  candidate: z.array(z.number().min(0).max(1)),
  minSeeds: z.number().int().min(2).default(3),
});

export interface GateDecision {
  promote: boolean;
  meanCurrent: number;
  meanCandidate: number;
  sdCurrent: number;
  sdCandidate: number;
  /** mean_cand − mean_cur. */
  gain: number;
  /** max(sd_cand, sd_cur): the gain must exceed it. */
  margin: number;
  rule: string;
  reason: string;
}

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
export function sampleSd(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

export function gateDecision(raw: z.input<typeof GateInput>): GateDecision {
  const input = GateInput.parse(raw);
  const meanCurrent = mean(input.current);
  const meanCandidate = mean(input.candidate);
  const sdCurrent = sampleSd(input.current);
  const sdCandidate = sampleSd(input.candidate);
  const gain = meanCandidate - meanCurrent;
  const margin = Math.max(sdCurrent, sdCandidate);
  const base = { meanCurrent, meanCandidate, sdCurrent, sdCandidate, gain, margin, rule: GATE_RULE };
  const fmt = (x: number): string => x.toFixed(3);
  if (input.current.length < input.minSeeds || input.candidate.length < input.minSeeds) {
    return { ...base, promote: false, reason: `too few seeds (${input.candidate.length} candidate, ${input.current.length} current; need ${input.minSeeds})` };
  }
  const promote = gain > margin;
  return {
    ...base,
    promote,
    reason: promote
      ? `gain ${fmt(gain)} > spread ${fmt(margin)} (${fmt(meanCandidate)} vs ${fmt(meanCurrent)})`
      : `gain ${fmt(gain)} ≤ spread ${fmt(margin)} (${fmt(meanCandidate)} vs ${fmt(meanCurrent)}): keep the served model`,
  };
}
