import sharp from 'sharp';
import { messageImages, messageText, type ChatRequest } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { RoleHandler } from '../types.js';
import { findMarks, lineAt } from './guide-describer.js';
import { stableLabel } from './guide-synth.js';
import { policyRole } from './policy.js';

/**
 * Reference reasoning-data roles (GUI-Owl §2.2.3), CPU stand-ins for LLM/VLM roles:
 * - `ref-reasoner`: writes a step's reasoning under a hint style WITHOUT seeing the ground-truth action: it runs
 *   the reference policy on the same prompt (instruction, history, screen) and restyles its thought; the reasoning
 *   ends in a "Next: <imperative>" line, so a separate action prediction can read it (the paper separates the
 *   reasoning from the context and predicts the action from it alone);
 * - `ref-consistency`: does the thought support the action? It reads the label under the circled point (OCR) and
 *   compares it with the targets the thought names; typed/opened text must be named in the thought;
 * - `ref-distiller`: merges the roles' outputs of a multi-agent step into one first-person reasoning.
 */

const STYLE_RE = /Hint style:\s*([a-z-]+)/i;

const sentence = (s: string): string => s.replace(/\s+/g, ' ').replace(/\[[^\]]*\]/g, '').trim();

/** An imperative for an action the policy chose, from its conclusion's quoted target. */
export function imperative(action: Record<string, unknown>, conclusion: string): string | undefined {
  const quoted = /"([^"]+)"/.exec(conclusion)?.[1];
  switch (action.action) {
    case 'click': {
      if (!quoted) return undefined;
      // Worded as guidance is (guide-synth.ts): the label without its count ("View cart"), and the row of a label
      // repeated on every row (`Tapped "Add" for "Churros"` → "tap Add next to Churros").
      const row = /"[^"]+"\s+for\s+"([^"]+)"/.exec(conclusion)?.[1];
      return row ? `tap ${stableLabel(quoted)} next to ${row}` : `tap ${stableLabel(quoted)}`;
    }
    case 'long_press':
      return quoted ? `long press ${quoted}` : undefined;
    case 'type':
      return `type "${String(action.text)}"`;
    case 'open':
      return `open ${String(action.text)}`;
    default:
      return undefined;
  }
}

export const reasonerRole: RoleHandler = async (request, ctx) => {
  const sys = request.messages.find((m) => m.role === 'system');
  const style = (sys && STYLE_RE.exec(messageText(sys))?.[1]) || 'simplest';
  const reply = await policyRole({ ...request, messages: request.messages } as ChatRequest, ctx);
  const content = typeof reply.content === 'string' ? reply.content : '';
  const thought = sentence(/Thought:\s*([\s\S]*?)\nConclusion:/.exec(content)?.[1] ?? '');
  const conclusion = sentence(/Conclusion:\s*([\s\S]*?)\n<tool_call>/.exec(content)?.[1] ?? '');
  let action: Record<string, unknown> = {};
  try {
    action = (JSON.parse(/<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/.exec(content)?.[1] ?? '{}') as { arguments?: Record<string, unknown> }).arguments ?? {};
  } catch {
    action = {};
  }
  const next = imperative(action, conclusion);
  const tail = next ? `Next: ${next}` : `Next: ${String(action.action ?? 'wait')}`;
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  const task = user ? /The user query:\s*(.+)/.exec(messageText(user))?.[1]?.trim() ?? '' : '';
  const reasoning =
    style === 'cot-template'
      ? `Observation: ${thought}\nGoal: ${task}\nPlan: ${conclusion}\n${tail}`
      : style === 'screen-first'
        ? `${thought}\n${tail}`
        : style === 'goal-first'
          ? `The task is: ${task}. ${conclusion}\n${tail}`
          : tail;
  return { role: 'assistant', content: JSON.stringify({ reasoning }), finish_reason: 'stop' };
};

const userJson = (request: ChatRequest): Record<string, unknown> => {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!user) throw new RoleInputError('no user message', 'messages');
  try {
    return JSON.parse(messageText(user).split('\n')[0] ?? '') as Record<string, unknown>;
  } catch {
    throw new RoleInputError('the first line of the user message must be the step JSON', 'messages');
  }
};

const words = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
const covers = (text: string, target: string): boolean => {
  const t = words(target);
  const w = new Set(words(text));
  return t.length > 0 && t.filter((x) => w.has(x)).length / t.length >= 0.5;
};

export const consistencyRole: RoleHandler = async (request, ctx) => {
  const input = userJson(request);
  const text = `${String(input.thought ?? '')} ${String(input.conclusion ?? '')}`;
  const action = (input.action ?? {}) as Record<string, unknown>;
  const reply = (consistent: boolean, reason: string) => ({ role: 'assistant' as const, content: JSON.stringify({ consistent, reason }), finish_reason: 'stop' });
  const kind = String(action.action ?? '');
  if (kind === 'type' || kind === 'open' || kind === 'answer') {
    const v = String(action.text ?? '');
    return covers(text, v) ? reply(true, `the thought names "${v}"`) : reply(false, `the thought never mentions "${v}"`);
  }
  if (kind === 'click' || kind === 'long_press') {
    const user = [...request.messages].reverse().find((m) => m.role === 'user');
    const images = user ? messageImages(user) : [];
    const img = images[0];
    const named = [...text.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    const all = (a: string, b: string): boolean => words(a).length > 0 && words(a).every((w) => words(b).includes(w));
    if (!img || named.length === 0) return reply(true, 'no named target to compare with the touched element');
    const png = Buffer.from(/^data:[^;,]*;base64,(.*)$/s.exec(img)?.[1] ?? '', 'base64');
    const r = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const { centres } = findMarks({ data: r.data, width: r.info.width, height: r.info.height, channels: r.info.channels });
    if (!centres[0]) return reply(true, 'no circled point visible');
    // The unmarked copy (second image) is read, so the ring does not garble the label it surrounds.
    const clean = images[1] ? Buffer.from(/^data:[^;,]*;base64,(.*)$/s.exec(images[1])?.[1] ?? '', 'base64') : png;
    const lines = await ctx.ocr.recognize(clean);
    const label = lineAt(lines, centres[0])?.text.trim();
    if (!label) return reply(true, 'the touched element has no readable label');
    return named.some((n) => all(n, label) || all(label, n))
      ? reply(true, `the touched element "${label}" is the one the thought names`)
      : reply(false, `the thought names ${named.map((n) => `"${n}"`).join(', ')} but the action touches "${label}"`);
  }
  return reply(true, `no model check for ${kind || 'this action'}`);
};

export const distillerRole: RoleHandler = (request) => {
  let input: Record<string, unknown>;
  try {
    input = userJson(request);
  } catch (e) {
    return Promise.reject(e as Error);
  }
  const roles = Array.isArray(input.roles) ? (input.roles as { role?: string; output?: Record<string, unknown> }[]) : [];
  const parts: string[] = [];
  let conclusion = '';
  for (const r of roles) {
    const o = r.output ?? {};
    switch (r.role) {
      case 'manager': {
        const pending = Array.isArray(o.pending_subgoals) ? (o.pending_subgoals as string[]) : [];
        const done = Array.isArray(o.completed_subgoals) ? (o.completed_subgoals as string[]) : [];
        if (done.length) parts.push(`So far I have ${done.join('; ')}.`);
        if (pending[0]) parts.push(`Next I need to ${pending[0].replace(/^\w/, (c) => c.toLowerCase())}.`);
        break;
      }
      case 'reflector':
        if (o.feedback) parts.push(`My previous action ${o.outcome === 'FAILURE' ? 'did not work' : 'worked'}: ${String(o.feedback)}`);
        break;
      case 'notetaker':
        if (Array.isArray(o.notes) && o.notes.length) parts.push(`I keep in mind: ${(o.notes as string[]).join('; ')}.`);
        break;
      case 'navigator':
      case 'coordinator':
        if (o.reasoning || o.think) parts.push(String(o.reasoning ?? o.think));
        if (o.instruction) conclusion ||= String(o.instruction);
        break;
      case 'stateTracker':
        if (o.state) parts.push(`State: ${String(o.state)}`);
        break;
      default:
        // worker / interactor / executor: the acting role's own reasoning and summary.
        if (o.thought || o.think) parts.push(String(o.thought ?? o.think));
        if (o.summary) conclusion = String(o.summary);
    }
  }
  const thought = parts.filter(Boolean).join(' ') || 'I act on the current screen towards the task.';
  return Promise.resolve({ role: 'assistant', content: JSON.stringify({ thought, conclusion: conclusion || thought.split('. ')[0]! }), finish_reason: 'stop' });
};
