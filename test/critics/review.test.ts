import { describe, expect, it } from 'vitest';
import { KIND_WEIGHT, deriveReviewCandidates, priorityOf, type ReviewInput } from '../../critics/review.js';
import { combineLearned } from '../../critics/learned-critic.js';

const good = (n: number): ReviewInput['steps'] => Array.from({ length: n }, (_, idx) => ({ idx, annotation: 'GOOD' as const }));

/** A rollout nobody disagrees about: both channels accept unanimously, all steps GOOD, agent says success. */
const agreed = (over: Partial<ReviewInput> = {}): ReviewInput => ({
  steps: good(3),
  channels: [
    { channel: 'text', correct: true, votes: [true, true, true] },
    { channel: 'multimodal', correct: true, votes: [true, true, true] },
  ],
  accepted: true,
  status: 'terminated',
  outcome: 'success',
  ...over,
});

const mixed: ReviewInput['steps'] = [
  { idx: 0, annotation: 'GOOD' },
  { idx: 1, annotation: 'NEUTRAL' },
];

const kinds = (x: ReviewInput): string[] => deriveReviewCandidates(x).map((c) => c.kind).sort();

describe('review candidates (critics/review.ts)', () => {
  it('a judgement that agrees with itself raises nothing, accepted or rejected', () => {
    expect(deriveReviewCandidates(agreed())).toEqual([]);
    const rejected = agreed({
      steps: [{ idx: 0, annotation: 'GOOD' }, { idx: 1, annotation: 'HARMFUL' }],
      channels: [
        { channel: 'text', correct: false, votes: [false] },
        { channel: 'multimodal', correct: false, votes: [false] },
      ],
      accepted: false,
      outcome: 'failure',
    });
    expect(deriveReviewCandidates(rejected)).toEqual([]);
  });

  it('channels split: text and multimodal disagree (reason names both verdicts)', () => {
    const c = deriveReviewCandidates(
      agreed({
        channels: [
          { channel: 'text', correct: true, votes: [true] },
          { channel: 'multimodal', correct: false, votes: [false] },
        ],
        steps: mixed,
        accepted: false,
        outcome: 'failure',
      }),
    );
    expect(c.map((x) => x.kind)).toEqual(['channels_split']);
    expect(c[0]!.reason).toBe('channels split: text says Correct, multimodal says Incorrect (trajectory rejected)');
    expect(c[0]!.priority).toBe(40);
    expect(c[0]!.details).toMatchObject({ text: true, multimodal: false, accepted: false });
  });

  it('votes split within a channel; an even split ranks above 2-of-3; unanimous and single votes do not count', () => {
    const twoOfThree = deriveReviewCandidates(
      agreed({
        channels: [
          { channel: 'text', correct: true, votes: [true, false, true] },
          { channel: 'multimodal', correct: true, votes: [true] },
        ],
      }),
    );
    expect(twoOfThree.map((x) => x.kind)).toEqual(['votes_split']);
    expect(twoOfThree[0]!.reason).toContain('text 2/3 Correct');
    expect(twoOfThree[0]!.details.channels).toEqual([{ channel: 'text', yes: 2, n: 3 }]);
    // accepted ×2, strength 1 − |2·2/3 − 1| = 2/3 → 20 · 2 · (0.5 + 1/3) = 33.3
    expect(twoOfThree[0]!.priority).toBe(33.3);
    const even = deriveReviewCandidates(
      agreed({
        channels: [
          { channel: 'text', correct: true, votes: [true, true, true] },
          { channel: 'multimodal', correct: false, votes: [true, false, false, true] },
        ],
        accepted: false,
      }),
    );
    const split = even.find((x) => x.kind === 'votes_split')!;
    expect(split.reason).toContain('multimodal 2/4 Correct');
    expect(split.priority).toBe(20);
    expect(kinds(agreed({ channels: [{ channel: 'text', correct: false, votes: [false, false, false] }, { channel: 'multimodal', correct: false, votes: [false] }], steps: mixed, accepted: false, outcome: 'failure' }))).toEqual([]);
  });

  it('accepted with a HARMFUL step: priority grows with the number of harmful steps and is the highest kind', () => {
    const one = deriveReviewCandidates(agreed({ steps: [{ idx: 0, annotation: 'GOOD' }, { idx: 3, annotation: 'HARMFUL' }] }));
    expect(one.map((x) => x.kind)).toEqual(['accepted_with_harmful_step']);
    expect(one[0]!.reason).toBe('accepted although the step critic marked step 3 HARMFUL');
    expect(one[0]!.priority).toBe(75);
    const two = deriveReviewCandidates(agreed({ steps: [{ idx: 1, annotation: 'HARMFUL' }, { idx: 2, annotation: 'HARMFUL' }] }));
    expect(two[0]!.priority).toBe(100);
    expect(two[0]!.details.harmfulSteps).toEqual([1, 2]);
    // The same step labels on a rejected trajectory are not a contradiction.
    expect(kinds(agreed({ steps: [{ idx: 0, annotation: 'HARMFUL' }], channels: [], accepted: false, outcome: 'failure' }))).toEqual([]);
  });

  it('rejected with all steps GOOD (not when no step was judged)', () => {
    const rejectAll = { channels: [{ channel: 'text' as const, correct: false, votes: [false] }, { channel: 'multimodal' as const, correct: false, votes: [false] }], accepted: false, outcome: 'failure' };
    const c = deriveReviewCandidates(agreed({ ...rejectAll, steps: good(5) }));
    expect(c.map((x) => x.kind)).toEqual(['rejected_all_good']);
    expect(c[0]!.reason).toBe('rejected although all 5 judged steps are GOOD');
    expect(c[0]!.priority).toBe(30);
    expect(deriveReviewCandidates(agreed({ ...rejectAll, steps: good(1) }))[0]!.priority).toBe(18);
    expect(kinds(agreed({ ...rejectAll, steps: [] }))).toEqual([]);
    expect(kinds(agreed({ ...rejectAll, steps: [{ idx: 0, annotation: 'GOOD' }, { idx: 1, annotation: 'NEUTRAL' }] }))).toEqual([]);
  });

  it('learned channel disagreeing with the consensus, weighted by its confidence', () => {
    const sure = deriveReviewCandidates(agreed({ learned: { correct: false, probability: 0.05, threshold: 0.6 } }));
    expect(sure.map((x) => x.kind)).toEqual(['learned_disagrees']);
    expect(sure[0]!.reason).toBe('learned critic says Incorrect (p=0.050, threshold 0.6) but the trajectory was accepted');
    // strength |0.05 − 0.6| / 0.6 = 0.9167 → 30 · 2 · 0.9583 = 57.5
    expect(sure[0]!.priority).toBe(57.5);
    const unsure = deriveReviewCandidates(agreed({ learned: { correct: false, probability: 0.59, threshold: 0.6 } }));
    expect(unsure[0]!.priority).toBeLessThan(sure[0]!.priority);
    expect(kinds(agreed({ learned: { correct: true, probability: 0.9, threshold: 0.6 } }))).toEqual([]);
  });

  it('agent claimed success but the critics rejected (only a terminate success, not an answer)', () => {
    const rejected = {
      steps: [{ idx: 0, annotation: 'NEUTRAL' as const }],
      channels: [{ channel: 'text' as const, correct: false, votes: [false] }, { channel: 'multimodal' as const, correct: false, votes: [false] }],
      accepted: false,
    };
    const c = deriveReviewCandidates(agreed({ ...rejected, status: 'terminated', outcome: 'success' }));
    expect(c.map((x) => x.kind)).toEqual(['claimed_success_rejected']);
    expect(c[0]!.priority).toBe(30);
    expect(kinds(agreed({ ...rejected, status: 'answered', outcome: 'success' }))).toEqual([]);
    expect(kinds(agreed({ ...rejected, status: 'terminated', outcome: 'failure' }))).toEqual([]);
  });

  it('several reasons at once, sorted by priority; accepted disagreements rank above rejected ones', () => {
    const c = deriveReviewCandidates(
      agreed({
        steps: [{ idx: 0, annotation: 'GOOD' }, { idx: 1, annotation: 'GOOD' }],
        channels: [
          { channel: 'text', correct: true, votes: [true, true, false] },
          { channel: 'multimodal', correct: false, votes: [false, false, false] },
        ],
        learned: { correct: true, probability: 0.8, threshold: 0.5 },
        accepted: false,
      }),
    );
    expect(c.map((x) => x.kind)).toEqual(['channels_split', 'claimed_success_rejected', 'learned_disagrees', 'rejected_all_good', 'votes_split']);
    for (let i = 1; i < c.length; i++) expect(c[i - 1]!.priority).toBeGreaterThanOrEqual(c[i]!.priority);
    for (const kind of Object.keys(KIND_WEIGHT) as (keyof typeof KIND_WEIGHT)[]) {
      expect(priorityOf(kind, true, 0.5)).toBeGreaterThan(priorityOf(kind, false, 0.5));
      expect(priorityOf(kind, true, 1)).toBeLessThanOrEqual(100);
    }
  });
});

describe('learned channel in the consensus (combineLearned)', () => {
  const ch = (text: boolean, mm: boolean) => [
    { channel: 'text', correct: text },
    { channel: 'multimodal', correct: mm },
  ];
  it('off keeps the LLM consensus; and vetoes; majority is 2 of 3', () => {
    expect(combineLearned('off', true, ch(true, true), false)).toBe(true);
    expect(combineLearned('and', true, ch(true, true), false)).toBe(false);
    expect(combineLearned('and', false, ch(true, false), true)).toBe(false);
    expect(combineLearned('majority', false, ch(true, false), true)).toBe(true);
    expect(combineLearned('majority', true, ch(true, true), false)).toBe(true);
    expect(combineLearned('majority', false, ch(false, true), false)).toBe(false);
    // No learned verdict (channel off): the consensus is untouched whatever the mode.
    expect(combineLearned('and', true, ch(true, true), undefined)).toBe(true);
  });
});
