/**
 * Step-level critic (GUI-Owl §6.3, seeds/DIGEST.md §1.4): π_critic^step(ε, a, ε').
 *
 * The critic sees what a deployed one would — the instruction, earlier step summaries, the action, the
 * pre-action screenshot with the interaction annotated, and the post-action screenshot — and answers
 * `{"analysis", "summary" (≤30 words), "annotation": GOOD|NEUTRAL|HARMFUL}`. Never app state, the query's
 * DAG path/slots or checker results (information firewall).
 */
import sharp from 'sharp';
import { StepAnnotation, StepVerdict } from '../domain/entities.js';
import type { Action, ActionSpace } from '../domain/action.js';
import type { ChatMessage, ChatRequest } from '../domain/openai.js';
import type { ChatModel } from '../domain/ports.js';
import { findJsonWith, pngDataUrl, replyText } from './json.js';
import type { CriticParseError } from './json.js';

/**
 * The annotation: pure red at 60% opacity, so text under a mark stays legible (to a VLM, and to the OCR of the
 * reference critic, which un-blends exactly this colour and opacity), plus its geometry.
 */
export const MARK = { colour: '#ff0000', opacity: 0.6, ring: 22, dot: 4, stroke: 3 } as const;

function coordinatesOf(action: Action): { p: readonly [number, number]; p2?: readonly [number, number] } | undefined {
  switch (action.action) {
    case 'click':
    case 'long_press':
    case 'right_click':
    case 'middle_click':
    case 'double_click':
    case 'mouse_move':
      return { p: action.coordinate };
    case 'swipe':
    case 'drag':
      return { p: action.coordinate, p2: action.coordinate2 };
    case 'scroll':
      return action.coordinate ? { p: action.coordinate } : undefined;
    default:
      return undefined;
  }
}

/**
 * Draws the interaction on the pre-action screenshot (paper: "we annotate the critical interaction regions"):
 * a red ring with a centre dot at a click/long-press point, a red arrow from `coordinate` to `coordinate2`
 * for swipe/drag. Actions without coordinates return the input bytes unchanged.
 */
export async function annotateInteraction(png: Uint8Array, action: Action): Promise<Uint8Array> {
  const at = coordinatesOf(action);
  if (!at) return png;
  const meta = await sharp(png).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width === 0 || height === 0) return png;
  const [x, y] = at.p;
  const shapes: string[] = [];
  if (at.p2) {
    const [x2, y2] = at.p2;
    shapes.push(
      `<defs><marker id="h" markerWidth="8" markerHeight="8" refX="6" refY="4" orient="auto" markerUnits="strokeWidth">` +
        `<path d="M0,0 L8,4 L0,8 z" fill="${MARK.colour}"/></marker></defs>`,
      `<circle cx="${x}" cy="${y}" r="${MARK.dot + 2}" fill="${MARK.colour}"/>`,
      `<line x1="${x}" y1="${y}" x2="${x2}" y2="${y2}" stroke="${MARK.colour}" stroke-width="${MARK.stroke + 1}" marker-end="url(#h)"/>`,
    );
  } else {
    const ring = action.action === 'long_press' ? MARK.ring + 6 : MARK.ring;
    shapes.push(
      `<circle cx="${x}" cy="${y}" r="${ring}" fill="none" stroke="${MARK.colour}" stroke-width="${MARK.stroke}"/>`,
      `<circle cx="${x}" cy="${y}" r="${MARK.dot}" fill="${MARK.colour}"/>`,
    );
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><g opacity="${MARK.opacity}">${shapes.join('')}</g></svg>`;
  const out = await sharp(png)
    .composite([{ input: Buffer.from(svg), left: 0, top: 0 }])
    .png()
    .toBuffer();
  return new Uint8Array(out);
}

export const STEP_CRITIC_SYSTEM_PROMPT = `You are a step-level critic for a GUI agent that operates a phone or computer to fulfil a user's instruction.
You judge ONE executed action. You are given:
- the user's instruction;
- summaries of the agent's previous steps;
- the action (JSON; coordinates are screen pixels);
- the screenshot BEFORE the action, with the interaction point/region marked in red (ring = tap/press point, arrow = swipe/drag direction);
- the screenshot AFTER the action.
Decide whether the action moved the task toward the instruction's goal:
- GOOD: the action is correct and makes progress (right element, right text, right navigation).
- NEUTRAL: no visible effect, or harmless but not useful (e.g. waiting, exploring, a redundant tap).
- HARMFUL: wrong element or text, off-task navigation, a destructive or irreversible mistake, or undoing progress.
Reply with ONLY a JSON object, no other text:
{"analysis": "<what the action did and why it helps or hurts>", "summary": "<what happened, at most 30 words>", "annotation": "GOOD" | "NEUTRAL" | "HARMFUL"}`;

export interface StepCriticRequestInput {
  instruction: string;
  /** Summaries of the earlier steps, oldest first. */
  history: readonly string[];
  action: Action;
  /** `desktop`: the request says so (a `Platform:` section), so the critic speaks of clicks and keys, not taps. */
  actionSpace?: ActionSpace | undefined;
  /** Data URL of the pre-action screenshot with the interaction annotated. */
  beforeAnnotated: string;
  /** Data URL of the post-action screenshot. */
  after: string;
}

export function buildStepCriticRequest(input: StepCriticRequestInput): Omit<ChatRequest, 'model'> {
  const history =
    input.history.length === 0 ? '(none)' : input.history.map((s, i) => `Step ${i + 1}: ${s}`).join('\n');
  const text = [
    `Instruction:\n${input.instruction}`,
    `Previous steps:\n${history}`,
    // Only desktop requests carry it, so phone requests (and their cached replies) are unchanged.
    ...(input.actionSpace === 'desktop' ? ['Platform:\ndesktop (mouse and keyboard)'] : []),
    `Action:\n${JSON.stringify(input.action)}`,
  ].join('\n\n');
  return {
    messages: [
      { role: 'system', content: STEP_CRITIC_SYSTEM_PROMPT },
      {
        role: 'user',
        content: [
          { type: 'text', text },
          { type: 'text', text: 'Screenshot before the action (interaction marked in red):' },
          { type: 'image_url', image_url: { url: input.beforeAnnotated } },
          { type: 'text', text: 'Screenshot after the action:' },
          { type: 'image_url', image_url: { url: input.after } },
        ],
      },
    ],
    temperature: 0,
    metadata: { role: 'step-critic' },
  };
}

export const SUMMARY_MAX_WORDS = 30;

export type StepVerdictParse =
  | { ok: true; verdict: StepVerdict; truncated: boolean }
  | { ok: false; error: CriticParseError };

/**
 * Reads a step verdict from a reply: tolerant of code fences and prose around the JSON, strict on the schema.
 * The annotation must be one of GOOD/NEUTRAL/HARMFUL (case-insensitive); `analysis` and `summary` must be
 * non-empty strings. A summary over 30 words is cut to 30 words and flagged `truncated` (the paper says
 * "typically within 30 words", so a long one is not a wrong verdict).
 */
export function parseStepVerdict(message: Pick<ChatMessage, 'content' | 'reasoning_content'>): StepVerdictParse {
  const text = replyText(message);
  const found = findJsonWith(text, 'annotation');
  if (!found.ok) return found;
  const raw = found.value;
  const excerpt = text.slice(0, 300);
  const annotation = StepAnnotation.safeParse(typeof raw.annotation === 'string' ? raw.annotation.trim().toUpperCase() : raw.annotation);
  if (!annotation.success) {
    return { ok: false, error: { kind: 'schema', message: `annotation must be GOOD, NEUTRAL or HARMFUL, got ${JSON.stringify(raw.annotation)}`, excerpt } };
  }
  if (typeof raw.summary !== 'string' || raw.summary.trim() === '') {
    return { ok: false, error: { kind: 'schema', message: 'summary must be a non-empty string', excerpt } };
  }
  if (typeof raw.analysis !== 'string' || raw.analysis.trim() === '') {
    return { ok: false, error: { kind: 'schema', message: 'analysis must be a non-empty string', excerpt } };
  }
  const words = raw.summary.trim().split(/\s+/);
  const truncated = words.length > SUMMARY_MAX_WORDS;
  const summary = truncated ? words.slice(0, SUMMARY_MAX_WORDS).join(' ') : words.join(' ');
  const verdict = StepVerdict.safeParse({ analysis: raw.analysis.trim(), summary, annotation: annotation.data });
  if (!verdict.success) return { ok: false, error: { kind: 'schema', message: verdict.error.message, excerpt } };
  return { ok: true, verdict: verdict.data, truncated };
}

/**
 * CriticScore(s_t) used by critic-based filtering `{s_t | CriticScore(s_t) ≥ τ_c}` (DIGEST §1.7). The paper
 * names no mapping; we use GOOD = 1, NEUTRAL = 0.5, HARMFUL = 0, so τ_c = 1 keeps only GOOD steps,
 * τ_c = 0.5 drops only HARMFUL ones. A different mapping can be passed in.
 */
export const DEFAULT_CRITIC_SCORES: Readonly<Record<StepAnnotation, number>> = { GOOD: 1, NEUTRAL: 0.5, HARMFUL: 0 };

export function criticScore(
  annotation: StepAnnotation,
  scores: Readonly<Record<StepAnnotation, number>> = DEFAULT_CRITIC_SCORES,
): number {
  return scores[annotation];
}

export interface JudgeStepInput {
  instruction: string;
  history: readonly string[];
  action: Action;
  /** PNG bytes of the pre-action screenshot (unannotated; annotation happens here). */
  before: Uint8Array;
  /** PNG bytes of the post-action screenshot. */
  after: Uint8Array;
  /** The rollout's action space (absent: mobile). */
  actionSpace?: ActionSpace | undefined;
}

export type JudgeStepResult =
  | { verdict: StepVerdict; score: number; truncated: boolean; callKey?: string }
  | { error: CriticParseError; callKey?: string };

/**
 * Annotates, asks the step critic once (temperature 0) and parses. A reply that cannot be parsed is returned
 * as `{ error }`, never thrown; transport errors from the model propagate (retrying is the gateway's job).
 */
export async function judgeStep(model: ChatModel, input: JudgeStepInput): Promise<JudgeStepResult> {
  const annotated = await annotateInteraction(input.before, input.action);
  const request = buildStepCriticRequest({
    instruction: input.instruction,
    history: input.history,
    action: input.action,
    ...(input.actionSpace ? { actionSpace: input.actionSpace } : {}),
    beforeAnnotated: pngDataUrl(annotated),
    after: pngDataUrl(input.after),
  });
  const { response, callKey } = await model.complete(request);
  const choice = response.choices[0];
  const parsed = choice
    ? parseStepVerdict(choice.message)
    : ({ ok: false, error: { kind: 'empty', message: 'no choices in response', excerpt: '' } } as const);
  const key = callKey === undefined ? {} : { callKey };
  if (!parsed.ok) return { error: parsed.error, ...key };
  return { verdict: parsed.verdict, score: criticScore(parsed.verdict.annotation), truncated: parsed.truncated, ...key };
}
