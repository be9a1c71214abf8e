import { z } from 'zod';
import { CycleConfig } from '../domain/config.js';
import type { ModeCalibration } from '../critics/calibration.js';

/**
 * Workflow inputs and outputs. Payloads carry ids, counts and blob keys only — screenshots never enter
 * Temporal history (non-negotiable 3).
 */
export const CycleInput = z.object({
  version: z.literal(1).default(1),
  cycleId: z.string().regex(/^cycle-\d+$/),
  cycleNumber: z.number().int().min(1),
  config: CycleConfig,
  /** Task queues are `${prefix}-main`, `${prefix}-env`, `${prefix}-cpu`. */
  taskQueuePrefix: z.string().min(1).default('trajforge'),
});
export type CycleInput = z.infer<typeof CycleInput>;

export interface QueueNames {
  main: string;
  env: string;
  cpu: string;
}

export function queueNames(prefix: string): QueueNames {
  return { main: `${prefix}-main`, env: `${prefix}-env`, cpu: `${prefix}-cpu` };
}

export interface CycleCounts {
  queries: number;
  rollouts: number;
  steps: number;
  stepErrors: number;
  stepVerdicts: number;
  accepted: number;
  rejected: number;
  degraded: number;
  exportedSamples: number;
  /** Accepted rollouts whose checker also says success / all accepted (data precision vs ground truth). */
  acceptedTruePositives: number;
  /** Rollouts the checker marks successful. */
  groundTruthSuccesses: number;
}

/** What calibration's validation split would choose (critics/calibration.ts selectRule), scored on the report split. */
export interface CalibrationSuggestion {
  voteRule: string;
  consensus: string;
  /** Trajectory τc (mean step CriticScore gate); apply it with `critic.trajectoryTauC`. */
  tauC: number;
  /** e.g. "votes any, consensus multimodal, τc 0.25". */
  description: string;
  meetsTarget: boolean;
  validationRollouts: number;
  reportRollouts: number;
  reportPrecision: number | null;
  reportRecall: number | null;
}

export interface CalibrationSummary {
  rollouts: number;
  consensus: { precision: number | null; recall: number | null };
  suggested: CalibrationSuggestion | null;
  /** The consensus per rollout mode, with channel disagreement (absent from cycles run before it existed). */
  byMode?: ModeCalibration[];
}

export interface CycleResult {
  cycleId: string;
  configHash: string;
  counts: CycleCounts;
  /** Critic calibration of this cycle against checker ground truth (absent from cycles run before it existed). */
  calibration?: CalibrationSummary;
  dataset: { name: string; version: number; manifestUri: string; samples: number } | null;
  /** The guidance stage (absent when disabled or from cycles run before it existed). */
  guidance?: GuidanceSummary;
  /** The reasoning-data stage (absent when disabled or from cycles run before it existed). */
  reasoning?: ReasoningSummary;
}

/** Reasoning data from a cycle's accepted rollouts (workflows/reasoning.ts; decisions in `filter_decisions`). */
export interface ReasoningSummary {
  rollouts: number;
  steps: number;
  /** Executed steps the thought–action consistency rule rejected. */
  consistencyRejected: number;
  /** Hint-style traces tried, kept (stored in `reasoning_samples`) and rejected (predicted action did not match). */
  traces: number;
  kept: number;
  rejected: number;
  /** Steps no hint style reproduced (queued for review as `needs_human`). */
  needsHuman: number;
  /** Multi-agent steps distilled into end-to-end traces (kept) and distillations the consistency rule rejected. */
  distilled?: number;
  distillRejected?: number;
}

export interface RolloutInput {
  cycleId: string;
  queryId: string;
  attempt: number;
  config: CycleConfig;
  taskQueuePrefix: string;
  /** `attempt` (default, id …/aN), `reference` for guidance (…/rN, in `agentMode`), `guided` (…/gN, reads `guidanceVersion`). */
  purpose?: 'attempt' | 'reference' | 'guided';
  agentMode?: CycleConfig['agentMode'];
  guidanceVersion?: number;
}

/** What the guidance stage of a cycle did (workflows/guidance.ts). */
export interface GuidanceSummary {
  hardQueries: number;
  referenceAttempts: number;
  referencesAccepted: number;
  /** References that came from the demonstration library (absent in summaries from before it existed). */
  demonstrations?: number;
  guidanceSynthesised: number;
  guidedAttempts: number;
  /** Guided attempts the critics accepted. */
  guidedAccepted: number;
  /** Guided attempts the checkers mark successful (measurement only). */
  guidedGtSuccesses: number;
  /** Unguided attempts of the same queries the checkers mark successful / judged (the uplift baseline). */
  unguidedGtSuccesses: number;
  unguidedAttempts: number;
}

export interface RolloutResult {
  rolloutId: string;
  status: string;
  steps: number;
  correct: boolean | null;
}
