import { z } from 'zod';
import { Action, ActionSpace } from './action.js';
import { StepError } from './errors.js';

/** sha256 content address of a blob, as stored by the blob store: `sha256/<hex>` (optionally with an extension). */
export const BlobKey = z.string().regex(/^[a-z0-9][a-z0-9/_.-]*$/, 'blob keys are lowercase paths');
export type BlobKey = z.infer<typeof BlobKey>;

/**
 * The success-checker spec of a query. Firewall: it never reaches an agent or a critic (ARCHITECTURE.md);
 * it is used for rule-based rewards where configured and as ground truth for measuring critics.
 */
export const CheckerSpec = z.object({
  app: z.string(),
  family: z.string(),
  params: z.record(z.string(), z.string()),
});
export type CheckerSpec = z.infer<typeof CheckerSpec>;

export const Query = z.object({
  /** Natural key: a hash of (app, dag version, path, slots, instruction). */
  id: z.string().min(1),
  app: z.string(),
  dagVersion: z.string(),
  family: z.string(),
  /** What the agent is told. */
  instruction: z.string().min(1),
  /** The explicit-navigation form before refinement. */
  rawInstruction: z.string().min(1),
  path: z.array(z.string()).min(1),
  slots: z.record(z.string(), z.string()),
  checker: CheckerSpec,
  /** 1 (one page) upward: path length plus slots to fill. */
  difficulty: z.number().int().min(1),
  sampler: z.string(),
  seed: z.number().int(),
  /**
   * False for ZeroGUI-style infeasible queries (a slot value the app does not have); their checker family is
   * `infeasible` and success means the agent terminated with failure or answered (judged from the rollout).
   */
  feasible: z.boolean().optional(),
  /** How the query was produced (query-gen pipeline); absent on older rows. */
  lineage: z
    .object({
      sampler: z.string(),
      synthModel: z.string(),
      refineModel: z.string(),
      dagVersion: z.string(),
      seed: z.number().int(),
    })
    .optional(),
  /** Metadata the instruction was synthesised from: page descriptions D′ and slot-value pairs K′/V′. */
  metadata: z
    .object({
      descriptions: z.array(z.object({ page: z.string(), description: z.string() })),
      slots: z.record(z.string(), z.string()),
    })
    .optional(),
  /** Interface-validation result when the query was replayed in the real app. */
  validation: z
    .object({
      valid: z.boolean(),
      failedAt: z.object({ page: z.string(), reason: z.string(), detail: z.string().optional() }).optional(),
      checkedAt: z.string().optional(),
    })
    .optional(),
});
export type Query = z.infer<typeof Query>;

/** What an agent or critic sees of one screen: keys into the blob store, never bytes. */
export const ObservationRef = z.object({
  screenshotKey: BlobKey,
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** Accessibility tree (JSON) where the environment has one. */
  uiTreeKey: BlobKey.optional(),
});
export type ObservationRef = z.infer<typeof ObservationRef>;

/** Environment measurements of one executed step (`EnvSession.step` metrics). */
export const StepMetrics = z.object({
  actionMs: z.number().min(0),
  settleMs: z.number().min(0),
  screenshotBytes: z.number().int().min(0),
  uiTreeBytes: z.number().int().min(0).optional(),
  /** The settle wait ran out of budget: the page was still changing when the observation was taken. */
  unsettled: z.boolean().optional(),
});
export type StepMetrics = z.infer<typeof StepMetrics>;

/** One message of a role request as stored: its text parts joined, images as blob keys (never bytes). */
export const RoleMessageSummary = z.object({
  role: z.string(),
  text: z.string(),
  images: z.array(BlobKey).default([]),
});
export type RoleMessageSummary = z.infer<typeof RoleMessageSummary>;

/**
 * One role call of a multi-agent step (Mobile-Agent-v3 Manager/Worker/Reflector/Notetaker, SWIRL
 * Navigator/Interactor, CES Coordinator/Executor/State Tracker): the role's input, raw reply and parsed output
 * (`parsed` is absent when the reply failed its schema; `error` then says why).
 */
export const RoleCall = z.object({
  role: z.string().min(1),
  request: z.object({ messages: z.array(RoleMessageSummary) }),
  reply: z.string(),
  parsed: z.unknown().optional(),
  callKey: BlobKey.optional(),
  error: StepError.optional(),
});
export type RoleCall = z.infer<typeof RoleCall>;

export const Step = z.object({
  index: z.number().int().min(0),
  before: ObservationRef,
  after: ObservationRef.optional(),
  /** The normalised action, absent when the reply could not be parsed. */
  action: Action.optional(),
  error: StepError.optional(),
  reasoning: z.string().default(''),
  /** GUI-Owl's per-step conclusion: the only thing that enters history. */
  conclusion: z.string().default(''),
  /** Blob key of the stored model request/response pair for this step. */
  modelCallKey: BlobKey.optional(),
  latencyMs: z.number().min(0),
  /** Environment-side measurements of the executed action, where the environment reports them. */
  metrics: StepMetrics.optional(),
  /** Multi-agent modes: every role's input and output for this step, in call order. Absent for GUI-Owl E2E. */
  roles: z.array(RoleCall).optional(),
});
export type Step = z.infer<typeof Step>;

export const TrajectoryStatus = z.enum(['terminated', 'answered', 'max_steps', 'error', 'degraded']);
export type TrajectoryStatus = z.infer<typeof TrajectoryStatus>;

export const ModelRef = z.object({ name: z.string(), version: z.string() });
export type ModelRef = z.infer<typeof ModelRef>;

export const Rollout = z.object({
  /** Natural key: `${cycleId}/${queryId}/${attempt}`. */
  id: z.string(),
  cycleId: z.string(),
  queryId: z.string(),
  attempt: z.number().int().min(0),
  agentMode: z.string(),
  actionSpace: ActionSpace,
  model: ModelRef,
  status: TrajectoryStatus,
  /** `terminate` status or `answer` text the agent ended with. */
  outcome: z.string().optional(),
  steps: z.array(Step),
  /** Programmatic checker result: ground truth, never shown to agents or critics. */
  groundTruth: z.boolean().optional(),
  /** The checker's reason for `groundTruth` (measurement only, like it: never shown to agents or critics). */
  groundTruthReason: z.string().optional(),
});
export type Rollout = z.infer<typeof Rollout>;

export const StepAnnotation = z.enum(['GOOD', 'NEUTRAL', 'HARMFUL']);
export type StepAnnotation = z.infer<typeof StepAnnotation>;

const wordCount = (s: string): number => s.trim().split(/\s+/).filter(Boolean).length;

/** Step critic output (GUI-Owl §6.3). */
export const StepVerdict = z.object({
  analysis: z.string().min(1),
  summary: z.string().min(1).refine((s) => wordCount(s) <= 30, 'summary must be at most 30 words'),
  annotation: StepAnnotation,
});
export type StepVerdict = z.infer<typeof StepVerdict>;

export const TrajectoryChannel = z.enum(['text', 'multimodal']);
export type TrajectoryChannel = z.infer<typeof TrajectoryChannel>;

export const ChannelVerdict = z.object({
  channel: TrajectoryChannel,
  correct: z.boolean(),
  reason: z.string(),
});
export type ChannelVerdict = z.infer<typeof ChannelVerdict>;

export const ConsensusRule = z.enum(['both', 'either', 'text', 'multimodal']);
export type ConsensusRule = z.infer<typeof ConsensusRule>;

/** Consensus over channels; the paper's rule (Eq. 4) is `both`: Correct only if every channel says Correct. */
export function consensus(verdicts: readonly ChannelVerdict[], rule: ConsensusRule): boolean {
  const by = (c: TrajectoryChannel): boolean => verdicts.some((v) => v.channel === c && v.correct);
  switch (rule) {
    case 'both':
      return verdicts.length > 0 && verdicts.every((v) => v.correct);
    case 'either':
      return verdicts.some((v) => v.correct);
    case 'text':
      return by('text');
    case 'multimodal':
      return by('multimodal');
  }
}

/** Lineage every produced artifact carries (non-negotiable 5). */
export const Lineage = z.object({
  cycleId: z.string(),
  modelVersions: z.array(z.string()),
  criticVersion: z.string(),
  dagVersions: z.record(z.string(), z.string()),
  configHash: z.string(),
});
export type Lineage = z.infer<typeof Lineage>;

export const ManifestFile = z.object({
  path: z.string(),
  blobKey: BlobKey,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().min(0),
  rows: z.number().int().min(0).optional(),
});

export const DatasetManifest = z.object({
  name: z.string(),
  version: z.number().int().min(1),
  kind: z.enum(['sft']),
  format: z.string(),
  createdAt: z.string(),
  lineage: Lineage,
  counts: z.record(z.string(), z.number().int()),
  files: z.array(ManifestFile),
});
export type DatasetManifest = z.infer<typeof DatasetManifest>;

/**
 * Why a judged rollout is worth a human look (critics/review.ts derives them; migration 0006 stores them):
 * the critics disagree with each other, or the step labels contradict the trajectory verdict.
 */
export const ReviewKind = z.enum([
  'channels_split',
  'votes_split',
  'accepted_with_harmful_step',
  'rejected_all_good',
  'learned_disagrees',
  'claimed_success_rejected',
  // Reasoning data (synthesis/rejection-sampling.ts): no hint style reproduced a step's known-good action.
  'needs_human',
]);
export type ReviewKind = z.infer<typeof ReviewKind>;
export const REVIEW_KINDS = ReviewKind.options;

/** One review candidate of a rollout: its reason kind, a human-readable reason, priority 0–100, evidence. */
export interface ReviewCandidate {
  kind: ReviewKind;
  reason: string;
  priority: number;
  /** Structured evidence for a review UI (JSON-safe). */
  details: Record<string, unknown>;
}
