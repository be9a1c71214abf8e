import type { Query, Rollout, Step, StepAnnotation } from '../domain/entities.js';
import { TOOL_NAME, type ActionSpace } from '../domain/action.js';
import { buildPolicyRequest } from '../agents/gui-owl.js';

/** Lineage stamped on every sample (non-negotiable 5). */
export interface SampleLineage {
  cycleId: string;
  modelVersion: string;
  criticVersion: string;
  dagVersion: string;
  configHash: string;
}

export interface StepJudgement {
  annotation: StepAnnotation;
  score: number;
}

/**
 * One SFT sample in the ms-swift / LLaMA-Factory multimodal `messages` layout: image placeholders
 * `<image>` in the user text, `images` listing their URIs in order, and the tool spec under `tools`.
 * The prompt is rebuilt with the same builder the rollout used, so training and inference formats match.
 */
export interface SftSample {
  id: string;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  images: string[];
  image_keys: string[];
  tools: string;
  meta: SampleLineage & {
    rollout_id: string;
    step: number;
    query_id: string;
    app: string;
    critic_score: number | null;
    annotation: StepAnnotation | null;
    /** Guided rollouts (issue 18): the guidance version the attempt read (lineage; its text only with keepGuidance). */
    guidance_version?: number;
    /** Where that guidance's reference came from: `model` (another role configuration), `scripted` or `human` (a demonstration). */
    guidance_source?: string;
  };
}

export type RemovalReason = 'harmful' | 'below_tau_c' | 'no_op' | 'error';

/**
 * Renders a step as the assistant turn GUI-Owl is trained to produce: reasoning, conclusion, tool call (`mobile_use`
 * on a phone, `computer_use` on a desktop).
 */
export function formatAssistantTurn(step: Step, space: ActionSpace = 'mobile'): string {
  const call = JSON.stringify({ name: TOOL_NAME[space], arguments: step.action });
  return `Thought: ${step.reasoning.trim()}\nConclusion: ${step.conclusion.trim()}\n<tool_call>\n${call}\n</tool_call>`;
}

/**
 * Step cleansing (GUI-Owl §6.3): drops steps the step critic marked HARMFUL or scored below τc, steps
 * whose action had no visible effect (same screenshot before and after), and steps with errors.
 */
export function cleanseReason(step: Step, judgement: StepJudgement | undefined, tauC: number): RemovalReason | null {
  if (step.error || !step.action) return 'error';
  if (judgement?.annotation === 'HARMFUL') return 'harmful';
  if (judgement && judgement.score < tauC) return 'below_tau_c';
  const terminal = step.action.action === 'terminate' || step.action.action === 'answer';
  if (!terminal && step.after && step.after.screenshotKey === step.before.screenshotKey && step.action.action !== 'wait') {
    return 'no_op';
  }
  return null;
}

/** JSON of a request's tools; the builder hands out one cached tool object per screen, so its JSON is kept too. */
const toolJsonCache = new WeakMap<object, string>();
function toolsJson(tools: readonly object[]): string {
  if (tools.length !== 1) return JSON.stringify(tools);
  const tool = tools[0]!;
  let json = toolJsonCache.get(tool);
  if (json === undefined) {
    json = JSON.stringify(tools);
    toolJsonCache.set(tool, json);
  }
  return json;
}

export function buildSamples(opts: {
  rollout: Rollout;
  query: Query;
  judgements: ReadonlyMap<number, StepJudgement>;
  tauC: number;
  historyImages: number;
  lineage: SampleLineage;
  uri: (key: string) => string;
  /**
   * `cleanse` (default): step cleansing as above. `all`: every step with an action (trajectory-level RL keeps the
   * whole episode; only a step without an action has no assistant turn to render). `keep` further drops steps.
   */
  mode?: 'cleanse' | 'all';
  keep?: (step: Step) => boolean;
  /**
   * The rollout's guidance, when it was a guided attempt: `version` is always stamped in the lineage; `text` enters
   * the rebuilt prompt only when the caller passes it (the export does only with `--keep-guidance`).
   */
  guidance?: { version: number; text?: string; source?: string };
}): { samples: SftSample[]; removed: { step: number; reason: RemovalReason | 'dropped' }[] } {
  const { rollout, query } = opts;
  const samples: SftSample[] = [];
  const removed: { step: number; reason: RemovalReason | 'dropped' }[] = [];
  const history: string[] = [];
  // Mirrors agents/episode.ts: the first observation, then every post-action observation.
  const frames: string[] = rollout.steps[0] ? [rollout.steps[0].before.screenshotKey] : [];
  for (const step of rollout.steps) {
    const reason: RemovalReason | 'dropped' | null =
      opts.keep && !opts.keep(step)
        ? 'dropped'
        : opts.mode === 'all'
          ? step.action
            ? null
            : 'error'
          : cleanseReason(step, opts.judgements.get(step.index), opts.tauC);
    if (reason) removed.push({ step: step.index, reason });
    else {
      const keys = frames.slice(-opts.historyImages);
      const screen = { width: step.before.width, height: step.before.height };
      const request = buildPolicyRequest({
        instruction: query.instruction,
        history: [...history],
        screenshots: keys.map((k) => ({ dataUrl: opts.uri(k) })),
        screen,
        ...(opts.guidance?.text ? { guidance: opts.guidance.text } : {}),
        ...(rollout.actionSpace === 'desktop' ? { actionSpace: rollout.actionSpace } : {}),
      });
      const messages = request.messages.map((m) => ({
        role: m.role as 'system' | 'user',
        content:
          typeof m.content === 'string'
            ? m.content
            : (m.content ?? []).map((p) => (p.type === 'text' ? p.text : '<image>')).join('\n'),
      }));
      const judgement = opts.judgements.get(step.index);
      samples.push({
        id: `${rollout.id}#${step.index}`,
        messages: [...messages, { role: 'assistant', content: formatAssistantTurn(step, rollout.actionSpace) }],
        images: keys.map(opts.uri),
        image_keys: keys,
        tools: toolsJson(request.tools ?? []),
        meta: {
          ...opts.lineage,
          rollout_id: rollout.id,
          step: step.index,
          query_id: query.id,
          app: query.app,
          critic_score: judgement?.score ?? null,
          annotation: judgement?.annotation ?? null,
          ...(opts.guidance ? { guidance_version: opts.guidance.version } : {}),
          ...(opts.guidance?.source ? { guidance_source: opts.guidance.source } : {}),
        },
      });
    }
    // History holds what the model actually saw at the next step, whether or not this step is kept.
    history.push(step.conclusion || `Performed ${step.action?.action ?? 'an invalid action'}.`);
    if (step.after) frames.push(step.after.screenshotKey);
  }
  return { samples, removed };
}
