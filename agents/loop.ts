import type { Action } from '../domain/action.js';
import type { ObservationRef, RoleCall, Step, StepMetrics, TrajectoryStatus } from '../domain/entities.js';
import type { StepError } from '../domain/errors.js';
import { EnvError, StorageError, type BlobStore, type ChatModel, type EnvSession } from '../domain/ports.js';
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
    if (err instanceof StorageError) throw err; // the store's failure: the episode is rerun, not degraded
    if (err instanceof EnvError && err.recoverable) return { ok: false, error: { kind: 'execution_error', message: err.message }, fatal: false };
    return { ok: false, error: { kind: 'environment_error', message: errorMessage(err) }, fatal: true };
  }
}

export async function resetEnv(input: MultiAgentInput): Promise<{ ok: true; obs: ObservationRef } | { ok: false; result: MultiAgentResult }> {
  try {
    return { ok: true, obs: await input.env.reset({ app: input.app, seed: input.seed }) };
  } catch (err) {
    if (err instanceof StorageError) throw err;
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

/** A role reply as the loops see it (agents/roles.ts `RoleCallResult`). */
export interface StageResult<T> {
  call: RoleCall;
  value?: T;
  error?: StepError;
}

/**
 * The two-role loop SWIRL and CES share: an instructing role (Navigator / Coordinator: reasoning + one
 * low-level instruction) then an acting role (Interactor / Executor: one atomic action), executed on the
 * environment. Every step keeps both role calls (plus whatever `observe` adds); ends on terminate/answer,
 * T_max, a model error, a fatal environment error, or MAX_CONSECUTIVE_ROLE_ERRORS unusable replies in a row.
 */
export interface InstructedLoop {
  instruct(t: number, current: ObservationRef): Promise<StageResult<{ reasoning: string; instruction: string }>>;
  act(t: number, current: ObservationRef, instruction: string): Promise<StageResult<{ action: Action }>>;
  /** After a non-final action ran (successfully or with a recoverable error): extra role calls for the step. */
  observe?(t: number, act: RoleCall, executed: Executed): Promise<RoleCall[]>;
  /** An unusable reply of the named stage (`instruction` is set when the acting role failed). */
  onRoleError?(stage: 'instruct' | 'act', instruction?: string): void;
  /** A non-final action ran. */
  onExecuted?(action: Action, ok: boolean, instruction: string): void;
}

export async function runInstructedLoop(input: MultiAgentInput, loop: InstructedLoop): Promise<MultiAgentResult> {
  const steps: Step[] = [];
  const push = (step: Step): void => {
    steps.push(step);
    input.onStep?.(step);
  };
  const reset = await resetEnv(input);
  if (!reset.ok) return reset.result;
  let current: ObservationRef = reset.obs;
  let roleErrors = 0;
  // A role reply that cannot be used: recorded as the step's error; too many in a row (or a model error) ends the episode.
  const unusable = (error: StepError): MultiAgentResult | undefined => {
    if (error.kind === 'model_error') return endFor('error', steps, 'model_error');
    if (++roleErrors >= MAX_CONSECUTIVE_ROLE_ERRORS) return endFor('error', steps, 'role_errors');
    return undefined;
  };

  for (let t = 0; t < input.maxSteps; t++) {
    const started = performance.now();
    const roles: RoleCall[] = [];
    const first = await loop.instruct(t, current);
    roles.push(first.call);
    if (!first.value) {
      push({ index: t, before: current, error: first.error!, reasoning: '', conclusion: '', latencyMs: performance.now() - started, roles });
      loop.onRoleError?.('instruct');
      const end = unusable(first.error!);
      if (end) return end;
      continue;
    }
    const instruction = first.value.instruction;
    const second = await loop.act(t, current, instruction);
    roles.push(second.call);
    const base = { index: t, before: current, reasoning: first.value.reasoning, conclusion: instruction, ...(second.call.callKey ? { modelCallKey: second.call.callKey } : {}) };
    if (!second.value) {
      push({ ...base, error: second.error!, latencyMs: performance.now() - started, roles });
      loop.onRoleError?.('act', instruction);
      const end = unusable(second.error!);
      if (end) return end;
      continue;
    }
    roleErrors = 0;
    const action = second.value.action;
    if (action.action === 'terminate' || action.action === 'answer') {
      push({ ...base, action, latencyMs: performance.now() - started, roles });
      return action.action === 'terminate' ? endFor('terminated', steps, 'terminate', action.status) : endFor('answered', steps, 'answer', action.text);
    }
    const exec = await execute(input.env, action);
    if (!exec.ok && exec.fatal) {
      push({ ...base, action, error: exec.error, latencyMs: performance.now() - started, roles });
      return endFor('degraded', steps, 'environment', undefined, exec.error.message);
    }
    if (loop.observe) roles.push(...(await loop.observe(t, second.call, exec)));
    push({ ...base, action, ...(exec.ok ? { after: exec.after, ...(exec.metrics ? { metrics: exec.metrics } : {}) } : { error: exec.error }), latencyMs: performance.now() - started, roles });
    loop.onExecuted?.(action, exec.ok, instruction);
    if (exec.ok) current = exec.after;
  }
  return endFor('max_steps', steps, 'max_steps');
}
