/**
 * Review candidates (pure): where a rollout's judgement disagrees with itself, it is worth a human look. Derived
 * from what the critics said only (never ground truth — the firewall holds here too), stored by
 * storage/review-repo.ts and listed by `trajforge critics review-candidates`. Reason kinds:
 *
 *   channels_split              the text and multimodal channels returned different verdicts
 *   votes_split                 a channel's votes were not unanimous (votes > 1)
 *   accepted_with_harmful_step  the consensus accepted the trajectory but the step critic marked a step HARMFUL
 *   rejected_all_good           the consensus rejected the trajectory although every judged step is GOOD
 *   learned_disagrees           the learned channel's verdict differs from the consensus
 *   claimed_success_rejected    the agent terminated with `success` but the consensus rejected it
 *
 * Priority (0–100, higher = review first):
 *
 *   priority = round1( KIND_WEIGHT[kind] × (accepted ? 2 : 1) × (0.5 + 0.5 × strength) )
 *
 * - KIND_WEIGHT: accepted_with_harmful_step 50, channels_split 40, learned_disagrees 30,
 *   claimed_success_rejected 30, rejected_all_good 30, votes_split 20.
 * - accepted ×2: a wrong acceptance poisons the dataset, a wrong rejection only loses recall, so disagreements
 *   on accepted trajectories rank above those on rejected ones (of the same kind and strength).
 * - strength ∈ [0, 1], how strong the kind's evidence is:
 *     channels_split: 1;
 *     votes_split: closeness to an even split of the most split channel, 1 − |2·yes/n − 1|
 *       (n = 2 or 4 with an even split → 1; 2 of 3 → 2/3; 4 of 5 → 0.4);
 *     accepted_with_harmful_step: min(1, harmful steps / 2) (one HARMFUL step 0.5, two or more 1);
 *     rejected_all_good: min(1, GOOD steps / 5) (a long all-GOOD trajectory contradicts the rejection more);
 *     learned_disagrees: the learned model's confidence, |p − threshold| / max(threshold, 1 − threshold);
 *     claimed_success_rejected: 1.
 * The maximum, 100, is an accepted trajectory with two or more HARMFUL steps.
 */
import { REVIEW_KINDS, type ReviewCandidate, type ReviewKind, type StepAnnotation, type TrajectoryStatus } from '../domain/entities.js';

export { REVIEW_KINDS, type ReviewCandidate, type ReviewKind };

export const KIND_WEIGHT: Record<ReviewKind, number> = {
  accepted_with_harmful_step: 50,
  channels_split: 40,
  learned_disagrees: 30,
  claimed_success_rejected: 30,
  rejected_all_good: 30,
  votes_split: 20,
  // Raised by hint-guided rejection sampling, not by the critics: a step to verify, not a verdict in doubt.
  needs_human: 10,
};

export interface ReviewChannel {
  channel: 'text' | 'multimodal';
  correct: boolean;
  votes: readonly boolean[];
}

export interface ReviewInput {
  /** Step-critic annotations of the judged steps, in step order. */
  steps: readonly { idx: number; annotation: StepAnnotation }[];
  /** The LLM/VLM channels (after their vote rule). */
  channels: readonly ReviewChannel[];
  /** The learned channel, when it ran: its probability of Correct and the acceptance threshold. */
  learned?: { correct: boolean; probability: number; threshold: number } | undefined;
  /** The final (consensus) verdict: true = accepted. */
  accepted: boolean;
  /** The rollout's status and the agent's own outcome (`success`/`failure` for terminate, or the answer). */
  status: TrajectoryStatus;
  outcome?: string | undefined;
}

const round1 = (x: number): number => Math.round(x * 10) / 10;
const clamp01 = (x: number): number => Math.max(0, Math.min(1, x));

export function priorityOf(kind: ReviewKind, accepted: boolean, strength: number): number {
  return round1(KIND_WEIGHT[kind] * (accepted ? 2 : 1) * (0.5 + 0.5 * clamp01(strength)));
}

const verdictWord = (c: boolean): string => (c ? 'Correct' : 'Incorrect');

/** Every review candidate of one judged rollout, highest priority first (ties: REVIEW_KINDS order). */
export function deriveReviewCandidates(x: ReviewInput): ReviewCandidate[] {
  const out: ReviewCandidate[] = [];
  const add = (kind: ReviewKind, strength: number, reason: string, details: Record<string, unknown>): void => {
    out.push({ kind, reason, priority: priorityOf(kind, x.accepted, strength), details: { accepted: x.accepted, ...details } });
  };
  const verdictText = x.accepted ? 'accepted' : 'rejected';

  const text = x.channels.find((c) => c.channel === 'text');
  const mm = x.channels.find((c) => c.channel === 'multimodal');
  if (text && mm && text.correct !== mm.correct) {
    add('channels_split', 1, `channels split: text says ${verdictWord(text.correct)}, multimodal says ${verdictWord(mm.correct)} (trajectory ${verdictText})`, {
      text: text.correct,
      multimodal: mm.correct,
    });
  }

  const split = x.channels
    .filter((c) => c.votes.length > 1)
    .map((c) => {
      const yes = c.votes.filter(Boolean).length;
      return { channel: c.channel, yes, n: c.votes.length, evenness: 1 - Math.abs((2 * yes) / c.votes.length - 1) };
    })
    .filter((c) => c.yes > 0 && c.yes < c.n);
  if (split.length > 0) {
    const strength = Math.max(...split.map((c) => c.evenness));
    add('votes_split', strength, `votes split: ${split.map((c) => `${c.channel} ${c.yes}/${c.n} Correct`).join(', ')} (trajectory ${verdictText})`, {
      channels: split.map(({ channel, yes, n }) => ({ channel, yes, n })),
    });
  }

  const harmful = x.steps.filter((s) => s.annotation === 'HARMFUL').map((s) => s.idx);
  if (x.accepted && harmful.length > 0) {
    add(
      'accepted_with_harmful_step',
      harmful.length / 2,
      `accepted although the step critic marked ${harmful.length === 1 ? 'step' : 'steps'} ${harmful.join(', ')} HARMFUL`,
      { harmfulSteps: harmful },
    );
  }

  if (!x.accepted && x.steps.length > 0 && x.steps.every((s) => s.annotation === 'GOOD')) {
    add('rejected_all_good', x.steps.length / 5, `rejected although all ${x.steps.length} judged steps are GOOD`, { goodSteps: x.steps.length });
  }

  if (x.learned && x.learned.correct !== x.accepted) {
    const { probability: p, threshold: t } = x.learned;
    const strength = Math.abs(p - t) / Math.max(t, 1 - t, 1e-9);
    add(
      'learned_disagrees',
      strength,
      `learned critic says ${verdictWord(x.learned.correct)} (p=${p.toFixed(3)}, threshold ${t}) but the trajectory was ${verdictText}`,
      { probability: p, threshold: t, learned: x.learned.correct },
    );
  }

  if (!x.accepted && x.status === 'terminated' && x.outcome?.trim().toLowerCase() === 'success') {
    add('claimed_success_rejected', 1, 'the agent terminated with success but the critics rejected the trajectory', { outcome: x.outcome });
  }

  return out.sort((a, b) => b.priority - a.priority || REVIEW_KINDS.indexOf(a.kind) - REVIEW_KINDS.indexOf(b.kind));
}

/**
 * The `needs_human` candidate of an accepted rollout whose known-good steps no hint style reproduced (offline
 * hint-guided rejection sampling, synthesis/reasoning-stage.ts): those steps have no reasoning trace, so a person
 * writes or checks one. strength = min(1, steps / 3); the rollout was accepted, so priority = 10 × 2 × (0.5 + 0.5 ×
 * strength) ∈ [10, 20]: below every critic disagreement. Undefined when every step was reproduced.
 */
export function needsHumanCandidate(steps: readonly number[], styles: readonly string[]): ReviewCandidate | undefined {
  if (steps.length === 0) return undefined;
  const sorted = [...new Set(steps)].sort((a, b) => a - b);
  return {
    kind: 'needs_human',
    reason: `no hint style (${styles.join(', ')}) reproduced the executed action at step${sorted.length > 1 ? 's' : ''} ${sorted.join(', ')}`,
    priority: priorityOf('needs_human', true, Math.min(1, sorted.length / 3)),
    details: { accepted: true, steps: sorted, styles: [...styles] },
  };
}
