import { z } from 'zod';
import { MobileAction, Point } from '../domain/action.js';
import type { ObservationRef, RoleCall, RoleMessageSummary } from '../domain/entities.js';
import type { StepError } from '../domain/errors.js';
import { normalizeAction, type Screen } from '../domain/normalize.js';
import { messageText, type ChatMessage, type ChatRequest, type ContentPart } from '../domain/openai.js';
import type { BlobStore, ChatModel } from '../domain/ports.js';
import { toDataUrl } from './episode.js';
import { mobileUseTool, parsePolicyReply } from './gui-owl.js';

/**
 * Role IO of the multi-agent modes: the zod schema every role reply must satisfy, its strict parser (total:
 * never throws; a bad reply is a typed `StepError`), the prompt sections the agents write and the reference
 * roles read back (models/reference/roles/multi-agent.ts), and `callRole`, which calls a role and records
 * its input (text, screenshots as blob keys) and output as a `RoleCall` for the step's `roles` array.
 */

// ---------------------------------------------------------------------------------------------------
// Schemas (seeds DIGEST §1.10, §2.1, §3.2)

/** Mobile-Agent-v3 Manager: SS (pending subgoals, ordered) and CS (completed subgoals). */
export const ManagerOutput = z.object({
  thought: z.string(),
  completed_subgoals: z.array(z.string().min(1)),
  pending_subgoals: z.array(z.string().min(1)),
});
export type ManagerOutput = z.infer<typeof ManagerOutput>;

/** Mobile-Agent-v3 Worker: A_t = (thought τ, action α as one mobile_use call, summary σ). */
export const WorkerOutput = z.object({ thought: z.string(), action: MobileAction, summary: z.string().min(1) });
export type WorkerOutput = z.infer<typeof WorkerOutput>;

/** Mobile-Agent-v3 Reflector: F_t = (j ∈ {SUCCESS, FAILURE}, φ feedback). */
export const ReflectorOutput = z.object({ outcome: z.enum(['SUCCESS', 'FAILURE']), feedback: z.string().min(1) });
export type ReflectorOutput = z.infer<typeof ReflectorOutput>;

/** Mobile-Agent-v3 Notetaker: N_t (may be empty). */
export const NotetakerOutput = z.object({ notes: z.array(z.string().min(1)) });
export type NotetakerOutput = z.infer<typeof NotetakerOutput>;

/** SWIRL Navigator: reasoning r^r + low-level instruction r^i. */
export const NavigatorOutput = z.object({ reasoning: z.string().min(1), instruction: z.string().min(1) });
export type NavigatorOutput = z.infer<typeof NavigatorOutput>;

/** SWIRL Interactor: atomic action. */
export const InteractorOutput = z.object({ thought: z.string(), action: MobileAction });
export type InteractorOutput = z.infer<typeof InteractorOutput>;

/** CES Coordinator: `<think>…</think><answer>atomic instruction</answer>`. */
export const CoordinatorOutput = z.object({ think: z.string().min(1), instruction: z.string().min(1) });
export type CoordinatorOutput = z.infer<typeof CoordinatorOutput>;

export const CES_ACTIONS = ['complete', 'close', 'press home', 'click', 'press back', 'type', 'select', 'scroll', 'enter'] as const;
/** CES Executor: `['action', 'point', 'input_text']`, plus its mapping onto mobile_use. */
export const ExecutorOutput = z.object({
  think: z.string(),
  raw: z.object({ action: z.enum(CES_ACTIONS), point: Point.optional(), input_text: z.string() }),
  action: MobileAction,
});
export type ExecutorOutput = z.infer<typeof ExecutorOutput>;

/** CES State Tracker: the new task state m^t (replaces history). */
export const StateTrackerOutput = z.object({ state: z.string().min(1) });
export type StateTrackerOutput = z.infer<typeof StateTrackerOutput>;

// ---------------------------------------------------------------------------------------------------
// Parsers: (assistant message, screen) → value or typed error. Total.

export type RoleParse<T> = { ok: true; value: T } | { ok: false; error: StepError };
export type RoleParser<T> = (message: ChatMessage, screen: Screen) => RoleParse<T>;

const fail = <T>(kind: StepError['kind'], message: string, field?: string): RoleParse<T> => ({
  ok: false,
  error: field === undefined ? { kind, message } : { kind, message, field },
});

function contentOf(message: ChatMessage): string {
  return typeof message.content === 'string' || Array.isArray(message.content) ? messageText(message) : '';
}

function validate<T>(schema: z.ZodType<T>, value: unknown, role: string): RoleParse<T> {
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  const issue = r.error.issues[0];
  const field = [role, ...(issue?.path.map(String) ?? [])].join('.');
  return fail('format_error', `${role} reply does not match its schema: ${issue?.message ?? 'invalid'}`, field);
}

/** The first JSON object of a reply (a Markdown fence around it is tolerated). */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('no JSON object in the reply');
  return JSON.parse(body.slice(start, end + 1));
}

function jsonParser<T>(schema: z.ZodType<T>, role: string): RoleParser<T> {
  return (message) => {
    const text = contentOf(message);
    if (!text.trim()) return fail('format_error', `empty ${role} reply`, role);
    let obj: unknown;
    try {
      obj = extractJson(text);
    } catch (e) {
      return fail('format_error', `${role} reply is not a JSON object: ${(e as Error).message}`, role);
    }
    return validate(schema, obj, role);
  };
}

export const parseManagerReply: RoleParser<ManagerOutput> = jsonParser(ManagerOutput, 'manager');
export const parseReflectorReply: RoleParser<ReflectorOutput> = (message, screen) => {
  const r = jsonParser(z.object({ outcome: z.string(), feedback: z.unknown() }).loose(), 'reflector')(message, screen);
  if (!r.ok) return r;
  return validate(ReflectorOutput, { ...r.value, outcome: r.value.outcome.trim().toUpperCase() }, 'reflector');
};
export const parseNotetakerReply: RoleParser<NotetakerOutput> = jsonParser(NotetakerOutput, 'notetaker');

function tag(text: string, name: string): string | undefined {
  const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'i').exec(text);
  return m?.[1]?.trim();
}

function label(text: string, name: string, stops: string[]): string | undefined {
  const re = new RegExp(`(?:^|\\n)\\s*${name}\\s*:\\s*([\\s\\S]*?)(?=\\n\\s*(?:${stops.join('|')})\\s*:|<tool_call>|$)`, 'i');
  return re.exec(text)?.[1]?.trim() || undefined;
}

/** Worker: `Thought: …` / `Summary: …` / one `<tool_call>` mobile_use call (or `tool_calls`). */
export const parseWorkerReply: RoleParser<WorkerOutput> = (message, screen) => {
  const text = contentOf(message);
  const parsed = parsePolicyReply(message, 'mobile', screen);
  if (!parsed.result.ok) return { ok: false, error: parsed.result.error };
  const thought = label(text, 'Thought', ['Summary']) ?? parsed.reasoning;
  const summary = label(text, 'Summary', ['Thought']);
  if (!summary) return fail('format_error', 'worker reply has no "Summary:" line', 'worker.summary');
  return validate(WorkerOutput, { thought, action: parsed.result.action, summary }, 'worker');
};

/** Interactor: optional `Thought: …`/`<think>`, one mobile_use call. */
export const parseInteractorReply: RoleParser<InteractorOutput> = (message, screen) => {
  const parsed = parsePolicyReply(message, 'mobile', screen);
  if (!parsed.result.ok) return { ok: false, error: parsed.result.error };
  return validate(InteractorOutput, { thought: parsed.reasoning, action: parsed.result.action }, 'interactor');
};

/** Navigator: `<think>reasoning</think>` and `<instruction>LLI</instruction>` (both required: format reward). */
export const parseNavigatorReply: RoleParser<NavigatorOutput> = (message) => {
  const text = contentOf(message);
  const reasoning = tag(text, 'think');
  const instruction = tag(text, 'instruction');
  if (reasoning === undefined) return fail('format_error', 'navigator reply has no <think> block', 'navigator.reasoning');
  if (instruction === undefined) return fail('format_error', 'navigator reply has no <instruction> block', 'navigator.instruction');
  return validate(NavigatorOutput, { reasoning, instruction }, 'navigator');
};

/** Coordinator: `<think>…</think><answer>instruction</answer>`. */
export const parseCoordinatorReply: RoleParser<CoordinatorOutput> = (message) => {
  const text = contentOf(message);
  const think = tag(text, 'think');
  const instruction = tag(text, 'answer');
  if (think === undefined) return fail('format_error', 'coordinator reply has no <think> block', 'coordinator.think');
  if (instruction === undefined) return fail('format_error', 'coordinator reply has no <answer> block', 'coordinator.instruction');
  return validate(CoordinatorOutput, { think, instruction }, 'coordinator');
};

/** State Tracker: `<state>…</state>`. */
export const parseStateTrackerReply: RoleParser<StateTrackerOutput> = (message) => {
  const state = tag(contentOf(message), 'state');
  if (state === undefined) return fail('format_error', 'state tracker reply has no <state> block', 'stateTracker.state');
  return validate(StateTrackerOutput, { state }, 'stateTracker');
};

/**
 * Executor: `<think>…</think> <answer>['action': 'click', 'point': [x, y], 'input_text': '…']</answer>`
 * (the CES prompt's pseudo-dict; JSON with double quotes is accepted too). Mapped onto mobile_use:
 * click/select → click(point); type → type(input_text); press home/back → system_button; enter → Enter;
 * scroll → swipe (input_text names the direction the content moves: down (default) = finger up);
 * complete → terminate(success); close → terminate(failure).
 */
export const parseExecutorReply: RoleParser<ExecutorOutput> = (message, screen) => {
  const text = contentOf(message);
  const think = tag(text, 'think') ?? '';
  const answer = tag(text, 'answer');
  if (answer === undefined) return fail('format_error', 'executor reply has no <answer> block', 'executor.answer');
  const field = (name: string): string | undefined => {
    const m = new RegExp(`['"]${name}['"]\\s*:\\s*(?:enum\\[)?\\s*['"]([^'"]*)['"]`, 'i').exec(answer);
    return m?.[1];
  };
  const action = field('action')?.trim().toLowerCase();
  if (!action) return fail('format_error', "executor answer has no 'action'", 'executor.action');
  const pm = /['"]point['"]\s*:\s*\[\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*\]/i.exec(answer);
  const point: [number, number] | undefined = pm ? [Math.round(Number(pm[1])), Math.round(Number(pm[2]))] : undefined;
  const inputText = field('input_text') ?? '';
  const raw = { action, ...(point ? { point } : {}), input_text: inputText };
  const rawOk = ExecutorOutput.shape.raw.safeParse(raw);
  if (!rawOk.success) return fail('unknown_action', `executor action "${action}" is not one of ${CES_ACTIONS.join(', ')}`, 'executor.action');
  const noText = /^no input text/i.test(inputText.trim()) || !inputText.trim();
  let args: Record<string, unknown>;
  switch (rawOk.data.action) {
    case 'click':
    case 'select':
      if (!point) return fail('invalid_arguments', `executor action "${action}" needs a point`, 'executor.point');
      args = { action: 'click', coordinate: point };
      break;
    case 'type':
      if (noText) return fail('invalid_arguments', 'executor action "type" needs input_text', 'executor.input_text');
      args = { action: 'type', text: inputText };
      break;
    case 'press home':
      args = { action: 'system_button', button: 'Home' };
      break;
    case 'press back':
      args = { action: 'system_button', button: 'Back' };
      break;
    case 'enter':
      args = { action: 'system_button', button: 'Enter' };
      break;
    case 'scroll': {
      const x = Math.round(screen.width / 2);
      const upContent = /\bup\b/i.test(inputText);
      const [y1, y2] = upContent ? [0.3, 0.75] : [0.75, 0.3];
      args = { action: 'swipe', coordinate: [x, Math.round(screen.height * y1)], coordinate2: [x, Math.round(screen.height * y2)] };
      break;
    }
    case 'complete':
      args = { action: 'terminate', status: 'success' };
      break;
    case 'close':
      args = { action: 'terminate', status: 'failure' };
      break;
  }
  const n = normalizeAction(args, 'mobile', screen);
  if (!n.ok) return { ok: false, error: { ...n.error, field: `executor.${n.error.field ?? 'action'}` } };
  return validate(ExecutorOutput, { think, raw: rawOk.data, action: n.action }, 'executor');
};

// ---------------------------------------------------------------------------------------------------
// Prompt sections (written by the agents, read back by the reference roles)

/** `### Name ###` sections of a prompt, by name (lower-case). */
export function readSections(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /^###\s*(.+?)\s*###\s*$/gm;
  const marks: { name: string; start: number; end: number }[] = [];
  for (let m = re.exec(text); m; m = re.exec(text)) marks.push({ name: (m[1] ?? '').toLowerCase(), start: m.index, end: m.index + m[0].length });
  for (const [i, mk] of marks.entries()) out[mk.name] = text.slice(mk.end, marks[i + 1]?.start ?? text.length).trim();
  return out;
}

export function section(name: string, body: string | string[]): string {
  const text = Array.isArray(body) ? (body.length ? body.join('\n') : '(none)') : body.trim() || '(none)';
  return `### ${name} ###\n${text}`;
}

/** Numbered list lines "1. x" → ["x"]; "(none)" → []. */
export function readList(body: string | undefined): string[] {
  if (!body || body.trim() === '(none)') return [];
  return body
    .split('\n')
    .map((l) => l.trim().replace(/^(?:\d+[.)]|[-*•])\s*/, ''))
    .filter(Boolean);
}

export function numbered(items: readonly string[]): string[] {
  return items.map((s, i) => `${i + 1}. ${s}`);
}

// ---------------------------------------------------------------------------------------------------
// Calling a role

export type RolePart = string | { image: ObservationRef };
export interface RoleMessage {
  role: 'system' | 'user';
  parts: RolePart[];
}

export interface RoleCallResult<T> {
  call: RoleCall;
  value?: T;
  error?: StepError;
}

export interface CallRoleOptions {
  blobs: BlobStore;
  temperature: number;
  seed: number;
  screen: Screen;
  /** Offer the mobile_use tool (roles that act). */
  tools?: boolean;
}

/**
 * Calls one role and records it. Images go to the model as data URLs and into the record as blob keys.
 * Never throws: an endpoint failure is `model_error`, a reply that fails its schema is the parser's typed error.
 */
export async function callRole<T>(
  name: string,
  model: ChatModel,
  messages: RoleMessage[],
  parse: RoleParser<T>,
  opts: CallRoleOptions,
): Promise<RoleCallResult<T>> {
  const summary: RoleMessageSummary[] = [];
  const wire: ChatRequest['messages'] = [];
  for (const m of messages) {
    const texts: string[] = [];
    const images: string[] = [];
    const content: ContentPart[] = [];
    for (const p of m.parts) {
      if (typeof p === 'string') {
        texts.push(p);
        content.push({ type: 'text', text: p });
      } else {
        images.push(p.image.screenshotKey);
        content.push({ type: 'image_url', image_url: { url: await toDataUrl(opts.blobs, p.image.screenshotKey) } });
      }
    }
    summary.push({ role: m.role, text: texts.join('\n'), images });
    wire.push(images.length === 0 ? { role: m.role, content: texts.join('\n') } : { role: m.role, content });
  }
  const request: Omit<ChatRequest, 'model'> = {
    messages: wire,
    temperature: opts.temperature,
    seed: opts.seed,
    ...(opts.tools ? { tools: [mobileUseTool(opts.screen)] } : {}),
  };
  const base = { role: name, request: { messages: summary } };
  let reply;
  try {
    reply = await model.complete(request);
  } catch (err) {
    const error: StepError = { kind: 'model_error', message: err instanceof Error ? err.message : String(err), field: name };
    return { call: { ...base, reply: '', error }, error };
  }
  const message = reply.response.choices[0]?.message;
  const callKey = reply.callKey ? { callKey: reply.callKey } : {};
  if (!message) {
    const error: StepError = { kind: 'format_error', message: 'no choice in the reply', field: name };
    return { call: { ...base, reply: '', ...callKey, error }, error };
  }
  const text = contentOf(message) + (message.tool_calls?.length ? `\n${JSON.stringify(message.tool_calls)}` : '');
  const parsed = parse(message, opts.screen);
  if (!parsed.ok) return { call: { ...base, reply: text, ...callKey, error: parsed.error }, error: parsed.error };
  return { call: { ...base, reply: text, parsed: parsed.value, ...callKey }, value: parsed.value };
}

/** The parser and schema of every role (tests and exports re-validate stored `parsed` values with these). */
export const ROLE_SCHEMAS: Record<string, z.ZodType> = {
  manager: ManagerOutput,
  worker: WorkerOutput,
  reflector: ReflectorOutput,
  notetaker: NotetakerOutput,
  navigator: NavigatorOutput,
  interactor: InteractorOutput,
  coordinator: CoordinatorOutput,
  executor: ExecutorOutput,
  stateTracker: StateTrackerOutput,
};

