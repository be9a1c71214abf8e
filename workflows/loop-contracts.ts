import { z } from 'zod';
import { CycleConfig } from '../domain/config.js';
import { EvalSpec, TrainerSpec } from '../evolution/specs.js';
import { TriggerPolicy } from '../evolution/trigger.js';

export { EvalSpec, TrainerSpec };

/**
 * Inputs and results of the self-evolving line's workflows (line.ts, retrain.ts, evaluate.ts). Ids, versions and
 * numbers only: datasets and models travel as keys and versions.
 */

export const RetrainInput = z.object({
  /** Business key of this retrain (`<line>/retrain-g<N>`): every registry event and eval run derives from it. */
  retrainId: z.string().min(1),
  config: CycleConfig,
  trainer: TrainerSpec,
  eval: EvalSpec,
  /** Train on this dataset (`name@version`) instead of exporting a snapshot of the accepted trajectories. */
  dataset: z.string().regex(/^[a-z0-9][a-z0-9_-]*@\d+$/).optional(),
  /** Who decides (recorded as `decided_by`). */
  actor: z.string().min(1).default('eval-gate'),
  taskQueuePrefix: z.string().min(1).default('trajforge'),
});
export type RetrainInput = z.infer<typeof RetrainInput>;

export interface EvalResult {
  version: string;
  evalSet: string;
  /** Checker success rate per seed, in `seeds` order. */
  rates: number[];
  seeds: number[];
  episodes: number;
}

export interface RetrainResult {
  retrainId: string;
  status: 'promoted' | 'rejected' | 'skipped';
  reason: string;
  parentVersion: string;
  candidateVersion?: string;
  dataset?: string;
  samples?: number;
  current?: EvalResult;
  candidate?: EvalResult;
}

/** A line's state, carried across continueAsNew. */
export const LineState = z.object({
  cyclesRun: z.number().int().min(0).default(0),
  generation: z.number().int().min(0).default(0),
  paused: z.boolean().default(false),
  draining: z.boolean().default(false),
  /** The cycle size changes apply from the next cycle. */
  queries: z.number().int().min(1).optional(),
  lastCycle: z.string().nullable().default(null),
  /** Per generation: what the retrain decided (kept short: bounded by `generations`). */
  generations: z
    .array(z.object({ generation: z.number().int(), retrainId: z.string(), status: z.string(), candidateVersion: z.string().nullable(), reason: z.string(), meanCurrent: z.number().nullable(), meanCandidate: z.number().nullable() }))
    .default([]),
  runs: z.number().int().min(0).default(0),
});
export type LineState = z.infer<typeof LineState>;

export const LineInput = z.object({
  lineId: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/),
  config: CycleConfig,
  trigger: TriggerPolicy.default({ minNewAccepted: 20, acceptanceDrop: null }),
  trainer: TrainerSpec.default({ kind: 'reference' }),
  eval: EvalSpec.default(EvalSpec.parse({})),
  /** Stop after this many generations (retrains); 0 = run until drained or stopped. */
  generations: z.number().int().min(0).default(0),
  /** Stop after this many cycles; 0 = no limit. */
  maxCycles: z.number().int().min(0).default(0),
  /** Cycles per workflow run before continueAsNew (bounded history). */
  cyclesPerRun: z.number().int().min(1).default(10),
  state: LineState.default(LineState.parse({})),
  taskQueuePrefix: z.string().min(1).default('trajforge'),
});
export type LineInput = z.infer<typeof LineInput>;

/** The live status a `status` query returns. */
export interface LineStatus extends LineState {
  lineId: string;
  phase: 'idle' | 'cycle' | 'retrain' | 'paused' | 'done';
  queries: number;
  servedVersion: string | null;
  lastTrigger: string | null;
}
