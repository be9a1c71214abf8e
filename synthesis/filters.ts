import { mulberry32Seed } from './seeded.js';

/**
 * Online filters of iterative rejection sampling (GUI-Owl §2.2.3 (c)): every filter decides per step and its
 * decision is recorded with a reason (`FilterDecision`), kept or not, so a dataset can be audited and re-cut.
 */

export type FilterName = 'critic_tau_c' | 'consistency_rule' | 'consistency_model' | 'reweight' | 'hint_match';

export interface FilterDecision {
  sampleId: string;
  filter: FilterName;
  keep: boolean;
  reason: string;
  /** Extra numbers (score, τc, p_succ, weight, copies). */
  details?: Record<string, number | string>;
}

/** Filter 1, critic-based: keep iff CriticScore(s_t) ≥ τc (a step without a score passes only at τc = 0). */
export function criticGate(sampleId: string, score: number | null, tauC: number): FilterDecision {
  if (score === null) return { sampleId, filter: 'critic_tau_c', keep: tauC === 0, reason: tauC === 0 ? 'no score; τc = 0' : `no critic score (τc ${tauC})`, details: { tauC } };
  const keep = score >= tauC;
  return { sampleId, filter: 'critic_tau_c', keep, reason: `CriticScore ${score.toFixed(2)} ${keep ? '≥' : '<'} τc ${tauC}`, details: { score, tauC } };
}

/** Re-weighting bounds: a solved task (p_succ = 1) keeps a quarter of its steps, an unsolved one 1.75 copies. */
export const REWEIGHT = { floor: 0.25, slope: 1.5 } as const;

/**
 * Filter 3, task re-weighting by p_succ: w(q) = 0.25 + 1.5 · (1 − p_succ(q)) expected copies of each of the query's
 * steps (p_succ = 1 → 0.25, 0.5 → 1.0, 0 → 1.75). Copies = ⌊w⌋ plus one more with probability w − ⌊w⌋, drawn
 * from a generator seeded by the sample id (a re-run makes the same choice). Down-samples easy tasks and
 * up-samples hard ones; the mean weight over a uniform p_succ is 1, so the dataset size stays about the same.
 */
export function reweight(sampleId: string, pSucc: number): { decision: FilterDecision; copies: number } {
  const p = Math.min(1, Math.max(0, pSucc));
  const w = REWEIGHT.floor + REWEIGHT.slope * (1 - p);
  const base = Math.floor(w);
  const copies = base + (mulberry32Seed(sampleId)() < w - base ? 1 : 0);
  return {
    copies,
    decision: { sampleId, filter: 'reweight', keep: copies > 0, reason: `p_succ ${p.toFixed(2)} → weight ${w.toFixed(2)}, ${copies} cop${copies === 1 ? 'y' : 'ies'}`, details: { pSucc: p, weight: w, copies } },
  };
}
