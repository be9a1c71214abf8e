import sharp from 'sharp';
import type { Action, MobileAction } from '../domain/action.js';
import type { ObservationRef, Query, Rollout, Step } from '../domain/entities.js';
import { EnvError, type BlobStore, type ChatModel, type EnvSession } from '../domain/ports.js';
import { buildPolicyRequest, describeAction, parsePolicyReply } from '../agents/gui-owl.js';
import { toDataUrl } from '../agents/episode.js';
import { formatAssistantTurn } from '../export/gui-owl-sft.js';
import { matchAction, smallestEnclosingBox, type Box, type UiTreeLike } from './matchers.js';

/**
 * Error-recovery data (InfiGUI-R1 §3.2.3, DIGEST §5.3), built from real counterfactual execution:
 * (a) error-prone detection — the policy is sampled `samples` times at `temperature` on step s's own prompt
 *     (rebuilt with the agents' builder) and each sample is compared with the executed action (synthesis/
 *     matchers.ts); the step is error-prone iff 0 < p_success < 1;
 * (b) counterfactual execution — the state before s is restored by resetting an environment session with the
 *     rollout's seed and replaying steps 0..s−1 (environments are deterministic given the seed; every replayed
 *     screenshot is compared with the stored one and the result recorded), then a wrong sampled action is
 *     executed and the screen it really produces is captured (it must differ from step s's own screens);
 * (c) two samples in the GUI-Owl messages layout — Error-Escape (error screen, history ⊕ wrong → escape action)
 *     and Back-on-Track (original screen s, history ⊕ wrong ⊕ escape → the original action). The escape action is
 *     also executed, to record whether it really brought the original screen back (`escapeRestored`).
 * N_sample and T are not given by the paper; the defaults here (8, 1.0) follow GUI-Owl's n_g = 8 partial-failure
 * sampling and the reference policy's temperature scale.
 */

/** Version of this generator: part of every row's key, so a changed generator writes new rows, not over old ones. */
export const ERROR_RECOVERY_GENERATOR = 'error-recovery@1';

/** The platform's escape action: Android's Back. */
export const ESCAPE_ACTION: MobileAction = { action: 'system_button', button: 'Back' };

export const DEFAULT_RECOVERY_SAMPLES = 8;
export const DEFAULT_RECOVERY_TEMPERATURE = 1.0;

/** Screen-independent wording of the escape turn (no app names or data: the firewall applies to synthetic turns). */
const ESCAPE_REASONING =
  'The last action did not lead where the task needs to go: this screen is not the expected next step towards the goal. Going back undoes that action, so the task can continue from the previous screen.';
const ESCAPE_CONCLUSION = 'Pressed Back to undo the previous, mistaken action and return to the screen before it.';

export type ProbeOutcome =
  | 'built'
  | 'not_probeable'
  | 'always_right'
  | 'always_wrong'
  | 'no_wrong_action'
  | 'no_wrong_effect';

export interface PolicySample {
  action?: Action;
  reasoning: string;
  conclusion: string;
  match: boolean;
  reason: string;
}

export interface ErrorRecoverySample {
  kind: 'error_escape' | 'back_on_track';
  /** system, user (with `<image>` placeholders), assistant. */
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  /** Blob keys of the placeholders, in order. */
  imageKeys: string[];
  /** The tool spec, JSON (as SFT samples carry it). */
  tools: string;
  targetAction: Action;
}

export interface ErrorRecoveryResult {
  outcome: ProbeOutcome;
  samples: PolicySample[];
  matches: number;
  pSuccess: number;
  /** Set once a counterfactual ran. */
  counterfactual?: {
    wrongAction: Action;
    wrongConclusion: string;
    errorObservation: ObservationRef;
    /** Every replayed screenshot equalled the stored one, up to SAME_SCREEN_MAX_PIXELS (reset, steps 0..s−1, screen s). */
    replayVerified: boolean;
    /** Where the replay differed beyond SAME_SCREEN_MAX_PIXELS: `reset`, `step <i>`, `before <s>`. */
    replayMismatches: string[];
    /** Where it matched only within SAME_SCREEN_MAX_PIXELS. */
    replayNearMatches: string[];
    escapeObservation: ObservationRef;
    escapeRestored: boolean;
    /** Wrong candidates tried before one produced a new screen. */
    tried: number;
  };
  built: ErrorRecoverySample[];
}

const TERMINAL = new Set(['terminate', 'answer']);
/** Actions that cannot produce an "unintended next observation" by themselves. */
const NO_EFFECT = new Set(['terminate', 'answer', 'wait']);

/** The history of conclusions and the screenshot chain as the policy had them at step `s` (mirrors agents/episode.ts). */
export function promptStateAt(rollout: Rollout, s: number): { history: string[]; frames: string[] } {
  const history: string[] = [];
  const first = rollout.steps[0];
  const frames: string[] = first ? [first.before.screenshotKey] : [];
  for (const step of rollout.steps.slice(0, s)) {
    history.push(step.conclusion || `Performed ${step.action?.action ?? 'an invalid action'}.`);
    if (step.after) frames.push(step.after.screenshotKey);
  }
  return { history, frames };
}

/** Whether step s can be probed: a valid, executed, non-terminal action. */
export function probeable(step: Step | undefined): step is Step & { action: Action } {
  return step !== undefined && step.action !== undefined && !step.error && !TERMINAL.has(step.action.action);
}

async function gtBoxOf(blobs: BlobStore, step: Step): Promise<Box | undefined> {
  const a = step.action as { coordinate?: [number, number] } | undefined;
  if (!a?.coordinate || !step.before.uiTreeKey) return undefined;
  try {
    const tree = JSON.parse(Buffer.from(await blobs.get(step.before.uiTreeKey)).toString('utf8')) as UiTreeLike;
    return Array.isArray(tree.nodes) ? smallestEnclosingBox(tree, a.coordinate) : undefined;
  } catch {
    // No readable tree: the matcher falls back to the 14%-of-width tolerance.
    return undefined;
  }
}

/**
 * (a) Samples the policy `n` times on step s's prompt and matches each sample with the executed action. A reply
 * that does not parse counts as a wrong sample (it is one) but cannot be executed.
 */
export async function probeStep(opts: {
  policy: ChatModel;
  blobs: BlobStore;
  rollout: Rollout;
  instruction: string;
  step: number;
  samples: number;
  temperature: number;
  seed: number;
  historyImages: number;
}): Promise<{ samples: PolicySample[]; matches: number; pSuccess: number }> {
  const step = opts.rollout.steps[opts.step];
  if (!probeable(step)) throw new Error(`step ${opts.step} of ${opts.rollout.id} has no executable action to probe`);
  const { history, frames } = promptStateAt(opts.rollout, opts.step);
  const screen = { width: step.before.width, height: step.before.height };
  const screenshots = await Promise.all(frames.slice(-opts.historyImages).map(async (k) => ({ dataUrl: await toDataUrl(opts.blobs, k) })));
  const request = buildPolicyRequest({ instruction: opts.instruction, history, screenshots, screen });
  const gtBox = await gtBoxOf(opts.blobs, step);
  const ctx = { ...screen, ...(gtBox ? { gtBox } : {}) };
  const samples: PolicySample[] = [];
  for (let k = 0; k < opts.samples; k++) {
    // Distinct, reproducible seeds per sample, away from the rollout's own (seed·1000 + step).
    const reply = await opts.policy.complete({ ...request, temperature: opts.temperature, seed: opts.seed * 1000 + opts.step + 7919 * (k + 1) });
    const parsed = parsePolicyReply(reply.response.choices[0]!.message, 'mobile', screen);
    if (!parsed.result.ok) {
      samples.push({ reasoning: parsed.reasoning, conclusion: parsed.conclusion, match: false, reason: `unparsable: ${parsed.result.error.kind}` });
      continue;
    }
    const m = matchAction(parsed.result.action, step.action, ctx);
    samples.push({ action: parsed.result.action, reasoning: parsed.reasoning, conclusion: parsed.conclusion, match: m.match, reason: m.reason });
  }
  const matches = samples.filter((x) => x.match).length;
  return { samples, matches, pSuccess: matches / samples.length };
}

/**
 * Pixels that may differ between two renderings of the same screen for them to count as the same screen. Headless
 * Chromium occasionally anti-aliases a glyph edge differently between runs (measured: one pixel of a focused
 * input after typing, on a loaded machine), which changes the content hash but not the screen.
 */
export const SAME_SCREEN_MAX_PIXELS = 16;

/** How many pixels differ between two stored screenshots (Infinity when their sizes differ). */
export async function differingPixels(blobs: BlobStore, a: string, b: string): Promise<number> {
  if (a === b) return 0;
  let x, y;
  try {
    [x, y] = await Promise.all([a, b].map(async (k) => sharp(await blobs.get(k)).removeAlpha().raw().toBuffer({ resolveWithObject: true })));
  } catch {
    // A stored key whose blob is gone or unreadable cannot be shown equal: it differs.
    return Infinity;
  }
  if (x!.info.width !== y!.info.width || x!.info.height !== y!.info.height) return Infinity;
  let n = 0;
  for (let i = 0; i < x!.data.length; i += 3) {
    if (x!.data[i] !== y!.data[i] || x!.data[i + 1] !== y!.data[i + 1] || x!.data[i + 2] !== y!.data[i + 2]) n++;
  }
  return n;
}

const sameScreen = async (blobs: BlobStore, a: string, b: string): Promise<boolean> => (await differingPixels(blobs, a, b)) <= SAME_SCREEN_MAX_PIXELS;

/**
 * (b) Restores the state before step `s`: reset with the rollout's seed, replay steps 0..s−1, comparing every
 * screenshot with the stored one. A replay that differs is reported (not hidden) and the state used as is;
 * `nearMatches` lists the screens that matched only within SAME_SCREEN_MAX_PIXELS (not byte for byte).
 */
export async function restoreState(
  env: EnvSession,
  blobs: BlobStore,
  rollout: Rollout,
  app: string,
  seed: number,
  s: number,
): Promise<{ observation: ObservationRef; mismatches: string[]; nearMatches: string[] }> {
  const mismatches: string[] = [];
  const nearMatches: string[] = [];
  const compare = async (where: string, got: string, stored: string): Promise<void> => {
    if (got === stored) return;
    if (await sameScreen(blobs, got, stored)) nearMatches.push(where);
    else mismatches.push(where);
  };
  let obs = await env.reset({ app, seed });
  if (rollout.steps[0]) await compare('reset', obs.screenshotKey, rollout.steps[0].before.screenshotKey);
  for (const step of rollout.steps.slice(0, s)) {
    if (!step.action || TERMINAL.has(step.action.action)) continue;
    try {
      obs = (await env.step(step.action)).observation;
    } catch (err) {
      // The original run hit the same recoverable error (e.g. `open` of a missing app): the same state follows.
      if (err instanceof EnvError && err.recoverable && step.error?.kind === 'execution_error') continue;
      throw err;
    }
    if (step.after) await compare(`step ${step.index}`, obs.screenshotKey, step.after.screenshotKey);
  }
  const before = rollout.steps[s]?.before.screenshotKey;
  // The screen before s is the last replayed one; only re-checked when the stored chain has a gap there.
  if (before && rollout.steps[s - 1]?.after?.screenshotKey !== before) await compare(`before ${s}`, obs.screenshotKey, before);
  return { observation: obs, mismatches, nearMatches };
}

function toMessages(request: ReturnType<typeof buildPolicyRequest>): { role: 'system' | 'user'; content: string }[] {
  return request.messages.map((m) => ({
    role: m.role as 'system' | 'user',
    content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => (p.type === 'text' ? p.text : '<image>')).join('\n'),
  }));
}

/** (c) The two samples, with the prompt built by the agents' builder and the target turn by the exporter's formatter. */
export function buildRecoverySamples(opts: {
  rollout: Rollout;
  instruction: string;
  step: number;
  wrongConclusion: string;
  errorScreenshotKey: string;
  historyImages: number;
}): ErrorRecoverySample[] {
  const step = opts.rollout.steps[opts.step]!;
  const { history, frames } = promptStateAt(opts.rollout, opts.step);
  const screen = { width: step.before.width, height: step.before.height };
  const make = (kind: ErrorRecoverySample['kind'], hist: string[], keys: string[], target: Step): ErrorRecoverySample => {
    const shown = keys.slice(-opts.historyImages);
    const request = buildPolicyRequest({ instruction: opts.instruction, history: hist, screenshots: shown.map((k) => ({ dataUrl: k })), screen });
    return {
      kind,
      messages: [...toMessages(request), { role: 'assistant', content: formatAssistantTurn(target) }],
      imageKeys: shown,
      tools: JSON.stringify(request.tools ?? []),
      targetAction: target.action!,
    };
  };
  const escapeStep: Step = {
    index: opts.step + 1,
    before: { ...step.before, screenshotKey: opts.errorScreenshotKey },
    action: ESCAPE_ACTION,
    reasoning: ESCAPE_REASONING,
    conclusion: ESCAPE_CONCLUSION,
    latencyMs: 0,
  };
  return [
    make('error_escape', [...history, opts.wrongConclusion], [...frames, opts.errorScreenshotKey], escapeStep),
    make('back_on_track', [...history, opts.wrongConclusion, ESCAPE_CONCLUSION], [...frames, opts.errorScreenshotKey, step.before.screenshotKey], step),
  ];
}

const sameAction = (a: Action, b: Action): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * Runs (a)–(c) for step `s` of an accepted rollout. `env` is a session this call may reset at will (one per call;
 * the caller leases and releases it). Throws only on environment failure (the caller's retry policy applies).
 */
export async function synthesizeErrorRecovery(opts: {
  env: EnvSession;
  policy: ChatModel;
  blobs: BlobStore;
  rollout: Rollout;
  query: Pick<Query, 'app' | 'instruction'>;
  step: number;
  /** The seed the rollout's environment was reset with. */
  seed: number;
  samples?: number;
  temperature?: number;
  historyImages: number;
  /** Wrong candidates to execute before giving up on a step whose wrong actions change nothing. Default 3. */
  maxCandidates?: number;
}): Promise<ErrorRecoveryResult> {
  const n = opts.samples ?? DEFAULT_RECOVERY_SAMPLES;
  const step = opts.rollout.steps[opts.step];
  if (!probeable(step)) return { outcome: 'not_probeable', samples: [], matches: 0, pSuccess: 0, built: [] };
  const probe = await probeStep({
    policy: opts.policy,
    blobs: opts.blobs,
    rollout: opts.rollout,
    instruction: opts.query.instruction,
    step: opts.step,
    samples: n,
    temperature: opts.temperature ?? DEFAULT_RECOVERY_TEMPERATURE,
    seed: opts.seed,
    historyImages: opts.historyImages,
  });
  const base = { samples: probe.samples, matches: probe.matches, pSuccess: probe.pSuccess, built: [] };
  if (probe.matches === probe.samples.length) return { outcome: 'always_right', ...base };
  if (probe.matches === 0) return { outcome: 'always_wrong', ...base };

  const candidates: PolicySample[] = [];
  for (const x of probe.samples) {
    if (x.match || !x.action || NO_EFFECT.has(x.action.action)) continue;
    if (!candidates.some((c) => sameAction(c.action!, x.action!))) candidates.push(x);
  }
  if (candidates.length === 0) return { outcome: 'no_wrong_action', ...base };

  let tried = 0;
  for (const wrong of candidates.slice(0, opts.maxCandidates ?? 3)) {
    tried++;
    const restored = await restoreState(opts.env, opts.blobs, opts.rollout, opts.query.app, opts.seed, opts.step);
    let errorObs: ObservationRef;
    try {
      errorObs = (await opts.env.step(wrong.action!)).observation;
    } catch (err) {
      if (err instanceof EnvError && err.recoverable) continue; // not executable here: no error screen
      throw err;
    }
    // An "error screen" must be new: not the screen before (a no-op) nor the one the right action led to.
    const err = errorObs.screenshotKey;
    if ((await sameScreen(opts.blobs, err, step.before.screenshotKey)) || (await sameScreen(opts.blobs, err, restored.observation.screenshotKey))) continue;
    if (step.after && (await sameScreen(opts.blobs, err, step.after.screenshotKey))) continue;
    const escapeObs = (await opts.env.step(ESCAPE_ACTION)).observation;
    const wrongConclusion = wrong.conclusion || describeAction(wrong.action!);
    return {
      outcome: 'built',
      ...base,
      counterfactual: {
        wrongAction: wrong.action!,
        wrongConclusion,
        errorObservation: errorObs,
        replayVerified: restored.mismatches.length === 0,
        replayMismatches: restored.mismatches,
        replayNearMatches: restored.nearMatches,
        escapeObservation: escapeObs,
        escapeRestored: await sameScreen(opts.blobs, escapeObs.screenshotKey, step.before.screenshotKey),
        tried,
      },
      built: buildRecoverySamples({
        rollout: opts.rollout,
        instruction: opts.query.instruction,
        step: opts.step,
        wrongConclusion,
        errorScreenshotKey: errorObs.screenshotKey,
        historyImages: opts.historyImages,
      }),
    };
  }
  return { outcome: 'no_wrong_effect', ...base };
}
