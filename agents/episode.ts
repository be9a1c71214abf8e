import type { ActionSpace } from '../domain/action.js';
import type { ObservationRef, Step, TrajectoryStatus } from '../domain/entities.js';
import { EnvError, StorageError, type BlobStore, type ChatModel, type EnvSession } from '../domain/ports.js';
import { buildPolicyRequest, parsePolicyReply } from './gui-owl.js';

export interface EpisodeInput {
  env: EnvSession;
  policy: ChatModel;
  blobs: BlobStore;
  app: string;
  instruction: string;
  /** Seeds the environment reset and the policy's sampling. */
  seed: number;
  maxSteps: number;
  /** How many of the latest screenshots go into each policy request (GUI-Owl keeps 1–3). */
  historyImages: number;
  temperature: number;
  guidance?: string;
  /** The environment's action space (default `mobile`); `desktop` offers the policy `computer_use`. */
  actionSpace?: ActionSpace;
  /** Called after every step (heartbeats, progress). */
  onStep?: (step: Step) => void;
}

export interface EpisodeResult {
  status: TrajectoryStatus;
  outcome?: string;
  steps: Step[];
  /** Set when the environment itself failed (crash, hang): the trajectory is kept and tagged. */
  environmentFailure?: string;
}

/** Consecutive unparsable replies after which the episode stops: the model is not going to recover. */
const MAX_CONSECUTIVE_FORMAT_ERRORS = 3;

export async function toDataUrl(blobs: BlobStore, key: string): Promise<string> {
  const bytes = await blobs.get(key);
  const mime = key.endsWith('.jpg') || key.endsWith('.jpeg') ? 'image/jpeg' : 'image/png';
  return `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
}

/**
 * One GUI-Owl end-to-end episode: observe → policy call through the gateway → strict parse → execute.
 * Every reply becomes a step: a valid action, or a typed error recorded on the step (format errors
 * feed the −0.5 malformed-action reward later). Only conclusions enter the history.
 */
export async function runEpisode(input: EpisodeInput): Promise<EpisodeResult> {
  const steps: Step[] = [];
  const history: string[] = [];
  const frames: ObservationRef[] = [];
  let formatErrors = 0;
  const push = (step: Step): void => {
    steps.push(step);
    input.onStep?.(step);
  };

  let current: ObservationRef;
  try {
    current = await input.env.reset({ app: input.app, seed: input.seed });
  } catch (err) {
    if (err instanceof StorageError) throw err; // the store's failure: the episode is rerun, not degraded
    return { status: 'degraded', steps, environmentFailure: `reset failed: ${errorMessage(err)}` };
  }
  frames.push(current);

  for (let index = 0; index < input.maxSteps; index++) {
    const started = performance.now();
    const screen = { width: current.width, height: current.height };
    const screenshots = await Promise.all(
      frames.slice(-input.historyImages).map(async (f) => ({ dataUrl: await toDataUrl(input.blobs, f.screenshotKey) })),
    );
    const request = {
      ...buildPolicyRequest({
        instruction: input.instruction,
        history,
        screenshots,
        screen,
        ...(input.guidance ? { guidance: input.guidance } : {}),
        ...(input.actionSpace ? { actionSpace: input.actionSpace } : {}),
      }),
      temperature: input.temperature,
      seed: input.seed * 1000 + index,
    };

    let reply;
    try {
      reply = await whileUsable(input.env, input.policy.complete(request));
    } catch (err) {
      if (err instanceof EnvError) {
        // The environment died (crashed, or its watchdog found it hung) while the model was thinking: stop now.
        push({ index, before: current, error: { kind: 'environment_error', message: err.message }, reasoning: '', conclusion: '', latencyMs: performance.now() - started });
        return { status: 'degraded', steps, environmentFailure: err.message };
      }
      push({ index, before: current, error: { kind: 'model_error', message: errorMessage(err) }, reasoning: '', conclusion: '', latencyMs: performance.now() - started });
      return { status: 'error', steps };
    }
    const choice = reply.response.choices[0]!;
    const parsed = parsePolicyReply(choice.message, input.actionSpace ?? 'mobile', screen);
    const base = {
      index,
      before: current,
      reasoning: parsed.reasoning,
      conclusion: parsed.conclusion,
      ...(reply.callKey ? { modelCallKey: reply.callKey } : {}),
    };

    if (!parsed.result.ok) {
      push({ ...base, error: parsed.result.error, latencyMs: performance.now() - started });
      history.push(parsed.conclusion || `(invalid action: ${parsed.result.error.kind})`);
      if (++formatErrors >= MAX_CONSECUTIVE_FORMAT_ERRORS) return { status: 'error', steps };
      continue;
    }
    formatErrors = 0;
    const action = parsed.result.action;

    if (action.action === 'terminate' || action.action === 'answer') {
      push({ ...base, action, latencyMs: performance.now() - started });
      return action.action === 'terminate'
        ? { status: 'terminated', outcome: action.status, steps }
        : { status: 'answered', outcome: action.text, steps };
    }

    try {
      const { observation, metrics } = await input.env.step(action);
      push({ ...base, action, after: observation, latencyMs: performance.now() - started, ...(metrics ? { metrics } : {}) });
      current = observation;
      frames.push(observation);
    } catch (err) {
      if (err instanceof StorageError) throw err;
      if (err instanceof EnvError && err.recoverable) {
        push({ ...base, action, error: { kind: 'execution_error', message: err.message }, latencyMs: performance.now() - started });
      } else {
        push({ ...base, action, error: { kind: 'environment_error', message: errorMessage(err) }, latencyMs: performance.now() - started });
        return { status: 'degraded', steps, environmentFailure: errorMessage(err) };
      }
    }
    history.push(parsed.conclusion || describe(action));
  }
  return { status: 'max_steps', steps };
}

/**
 * `work`, unless the session becomes unusable first (`EnvSession.whenUnusable`): then its EnvError is thrown and
 * `work` is left to finish on its own.
 */
export async function whileUsable<T>(env: EnvSession, work: Promise<T>): Promise<T> {
  const lost = env.whenUnusable?.();
  if (!lost) return work;
  work.catch(() => undefined);
  return Promise.race([work, lost.then((err): never => {
    throw err;
  })]);
}

function describe(action: { action: string }): string {
  return `Performed ${action.action}.`;
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
