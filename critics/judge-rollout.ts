/**
 * The critic glue of one rollout, without storage or Temporal: the step critic over every step (each seeing the
 * earlier steps' summaries), OCR captions of every distinct screen, then both trajectory-critic channels and
 * their consensus — the same inputs activities/index.ts (`judgeSteps` + `judgeTrajectory`) builds, for
 * benchmarks and offline re-judging. Firewall: only the instruction, the steps, screenshots and the agent's own
 * outcome go in; never ground truth.
 */
import type { ActionSpace } from '../domain/action.js';
import type { StepAnnotation, StepVerdict } from '../domain/entities.js';
import type { Step } from '../domain/entities.js';
import type { BlobStore, ChatModel } from '../domain/ports.js';
import type { OcrEngine } from '../domain/ports.js';
import type { ConsensusRule } from '../domain/entities.js';
import { criticScore, judgeStep } from './step-critic.js';
import { judgeTrajectory, type TrajectoryJudgement, type VoteRule } from './trajectory-critic.js';
import { combineLearned, featureInputOf, type LearnedConsensus, type LearnedCritic, type LearnedVerdict } from './learned-critic.js';
import { deriveReviewCandidates, type ReviewCandidate } from './review.js';
import type { TrajectoryStatus } from '../domain/entities.js';

export interface JudgeRolloutDeps {
  blobs: Pick<BlobStore, 'get'>;
  ocr: OcrEngine;
  models: { stepCritic: ChatModel; text: ChatModel; multimodal: ChatModel };
  /** The learned channel (critics/learned-critic.ts `loadLearnedCritic`), when it should run. */
  learned?: LearnedCritic | undefined;
}

export interface JudgeRolloutInput {
  instruction: string;
  steps: readonly Step[];
  outcome?: string | undefined;
  /** The rollout's status (for review candidates: a terminate-success the critics rejected); default `terminated`. */
  status?: TrajectoryStatus | undefined;
  /** The rollout's action space (absent: mobile); desktop step summaries speak of clicks and keys. */
  actionSpace?: ActionSpace | undefined;
}

export interface JudgeRolloutOptions {
  votes?: number;
  voteRule?: VoteRule;
  consensus?: ConsensusRule;
  /** Most screenshots for the multimodal channel (default 6, as the activity). */
  maxImages?: number;
  /** How the learned channel enters the final verdict (default `off`, as the config default). */
  learnedConsensus?: LearnedConsensus;
}

export interface JudgedStep extends StepVerdict {
  idx: number;
  score: number;
}

export interface RolloutJudgement {
  steps: JudgedStep[];
  trajectory: TrajectoryJudgement;
  /** OCR caption of each distinct screen, the final screen last (what the text channel saw). */
  captions: string[];
  /** The learned channel's verdict, when deps.learned was given. */
  learned?: LearnedVerdict;
  /** The final verdict: `trajectory.correct` combined with the learned channel per `learnedConsensus`. */
  accepted: boolean;
  /** Disagreements worth a human look (critics/review.ts), as the judgeTrajectory activity records them. */
  review: ReviewCandidate[];
}

const UNPARSEABLE_SUMMARY = 'The critic reply could not be parsed.';

/** Step critic over every executed step; an unparsable reply is NEUTRAL (as in the judgeSteps activity). */
export async function judgeRolloutSteps(deps: JudgeRolloutDeps, input: JudgeRolloutInput): Promise<JudgedStep[]> {
  const summaries: string[] = [];
  const out: JudgedStep[] = [];
  for (const step of input.steps) {
    if (!step.action) {
      summaries.push('(invalid action)');
      continue;
    }
    const before = await deps.blobs.get(step.before.screenshotKey);
    const after = await deps.blobs.get((step.after ?? step.before).screenshotKey);
    const result = await judgeStep(deps.models.stepCritic, { instruction: input.instruction, history: [...summaries], action: step.action, before, after, actionSpace: input.actionSpace });
    const verdict: StepVerdict =
      'verdict' in result
        ? result.verdict
        : { analysis: `unparseable critic reply (${result.error.kind}): ${result.error.message}`, summary: UNPARSEABLE_SUMMARY, annotation: 'NEUTRAL' as StepAnnotation };
    summaries.push(verdict.summary);
    out.push({ idx: step.index, ...verdict, score: criticScore(verdict.annotation) });
  }
  return out;
}

/** As agents/episode.ts `toDataUrl`: the MIME type follows the blob key's extension. */
function dataUrl(key: string, bytes: Uint8Array): string {
  const mime = key.endsWith('.jpg') || key.endsWith('.jpeg') ? 'image/jpeg' : 'image/png';
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

function subsample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.round((i * (items.length - 1)) / (max - 1))]!);
  return out;
}

/** Both trajectory channels over the step summaries, OCR captions and (subsampled) screenshots. */
export async function judgeRolloutTrajectory(
  deps: JudgeRolloutDeps,
  input: JudgeRolloutInput,
  stepVerdicts: readonly JudgedStep[],
  opts: JudgeRolloutOptions = {},
): Promise<TrajectoryJudgement & { captions: string[] }> {
  const verdicts = new Map(stepVerdicts.map((v) => [v.idx, v]));
  const screens = [input.steps[0]?.before, ...input.steps.map((s) => s.after)].filter((o) => o !== undefined);
  const keys = [...new Set(screens.map((o) => o.screenshotKey))];
  const captions: string[] = [];
  for (const key of keys) {
    const lines = await deps.ocr.recognize(await deps.blobs.get(key));
    captions.push(lines.map((l) => l.text).join(' | '));
  }
  const picked = subsample(keys, opts.maxImages ?? 6);
  const steps = input.steps.map((s) => ({
    summary: verdicts.get(s.index)?.summary ?? s.conclusion,
    actionText: s.action ? JSON.stringify(s.action) : `(invalid: ${s.error?.kind ?? 'unknown'})`,
  }));
  const judgement = await judgeTrajectory(
    { text: deps.models.text, multimodal: deps.models.multimodal },
    {
      instruction: input.instruction,
      steps,
      captions,
      screenshots: await Promise.all(picked.map(async (k) => dataUrl(k, await deps.blobs.get(k)))),
      ...(input.outcome !== undefined ? { outcome: input.outcome } : {}),
    },
    {
      ...(opts.votes !== undefined ? { votes: opts.votes } : {}),
      ...(opts.voteRule !== undefined ? { voteRule: opts.voteRule } : {}),
      ...(opts.consensus !== undefined ? { consensus: opts.consensus } : {}),
    },
  );
  return { ...judgement, captions };
}

export async function judgeRollout(deps: JudgeRolloutDeps, input: JudgeRolloutInput, opts: JudgeRolloutOptions = {}): Promise<RolloutJudgement> {
  const steps = await judgeRolloutSteps(deps, input);
  const { captions, ...trajectory } = await judgeRolloutTrajectory(deps, input, steps, opts);
  const learned = deps.learned
    ? await deps.learned.judge(
        featureInputOf({ instruction: input.instruction, outcome: input.outcome, annotations: steps.map((s) => s.annotation), channels: trajectory.channels, captions }),
      )
    : undefined;
  const accepted = combineLearned(opts.learnedConsensus ?? 'off', trajectory.correct, trajectory.channels, learned?.correct);
  const review = deriveReviewCandidates({
    steps: steps.map((s) => ({ idx: s.idx, annotation: s.annotation })),
    channels: trajectory.channels,
    ...(learned && deps.learned ? { learned: { correct: learned.correct, probability: learned.probability, threshold: deps.learned.spec.threshold } } : {}),
    accepted,
    status: input.status ?? 'terminated',
    outcome: input.outcome,
  });
  return { steps, trajectory, captions, ...(learned ? { learned } : {}), accepted, review };
}
