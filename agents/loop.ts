import type { Action } from '../domain/action.js';
import type { ObservationRef, Step, StepMetrics, TrajectoryStatus } from '../domain/entities.js';
import type { StepError } from '../domain/errors.js';
import { EnvError, type BlobStore, type ChatModel, type EnvSession } from '../domain/ports.js';
import type { EpisodeResult } from './episode.js';

/** What every multi-agent loop (agents/mobile-agent-v3.ts, swirl.ts, ces.ts) is given. */
export interface MultiAgentInput {
  env: EnvSession;
  blobs: BlobStore;
  app: string;
  instruction: string;
  seed: number;
  maxSteps: number;
  temperature: number;
  onStep?: (step: Step) => void;
}

/** Why a multi-agent loop stopped (beyond `status`). */
export type StopReason = 'completed' | 'terminate' | 'answer' | 'stalemate' | 'max_steps' | 'role_errors' | 'model_error' | 'environment';

export interface MultiAgentResult extends EpisodeResult {
  stopReason: StopReason;
}

/** Consecutive unusable role replies after which a loop stops (as agents/episode.ts does for the policy). */
export const MAX_CONSECUTIVE_ROLE_ERRORS = 3;

export type Executed =
  | { ok: true; after: ObservationRef; metrics?: StepMetrics }
  | { ok: false; error: StepError; fatal: boolean };

/** Runs one valid action; a recoverable EnvError is `execution_error`, anything else a fatal `environment_error`. */
export async function execute(env: EnvSession, action: Action): Promise<Executed> {
  try {
    const { observation, metrics } = await env.step(action);
    return { ok: true, after: observation, ...(metrics ? { metrics } : {}) };
  } catch (err) {
    if (err instanceof EnvError && err.recoverable) return { ok: false, error: { kind: 'execution_error', message: err.message }, fatal: false };
    return { ok: false, error: { kind: 'environment_error', message: errorMessage(err) }, fatal: true };
  }
}

export async function resetEnv(input: MultiAgentInput): Promise<{ ok: true; obs: ObservationRef } | { ok: false; result: MultiAgentResult }> {
  try {
    return { ok: true, obs: await input.env.reset({ app: input.app, seed: input.seed }) };
  } catch (err) {
    return { ok: false, result: { status: 'degraded', steps: [], environmentFailure: `reset failed: ${errorMessage(err)}`, stopReason: 'environment' } };
  }
}

/** Distinct, reproducible seeds per (episode, step, role call). */
export function roleSeed(seed: number, step: number, call: number): number {
  return seed * 1000 + step * 10 + call;
}

export function endFor(status: TrajectoryStatus, steps: Step[], stopReason: StopReason, outcome?: string, environmentFailure?: string): MultiAgentResult {
  return {
    status,
    steps,
    stopReason,
    ...(outcome !== undefined ? { outcome } : {}),
    ...(environmentFailure !== undefined ? { environmentFailure } : {}),
  };
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export type { ChatModel };
