import { messageText } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { RoleHandler } from '../types.js';

/**
 * Reference guidance synthesiser (GUI-Owl §6.4 step 3), a CPU stand-in for an LLM: turns the kept step
 * descriptions into essential steps — "open X", "tap X", "long press X", "enter "V" into the F field" (a tap on a
 * field followed by typing becomes one line), dropping repeats and scrolling. Input: {task, steps: [{action,
 * target, description}]} from synthesis/guidance.ts.
 */
export const guideSynthRole: RoleHandler = (request) => {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!user) return Promise.reject(new RoleInputError('no user message', 'messages'));
  let input: { steps?: { action?: string; target?: string }[] };
  try {
    input = JSON.parse(messageText(user)) as typeof input;
  } catch {
    return Promise.reject(new RoleInputError('the user message must be the guidance JSON', 'messages'));
  }
  if (!Array.isArray(input.steps)) return Promise.reject(new RoleInputError('steps must be an array', 'steps'));
  const out: string[] = [];
  let lastTap: string | undefined;
  for (const s of input.steps) {
    const action = String(s.action ?? '');
    const target = String(s.target ?? '').replace(/"/g, '').trim();
    if (action.startsWith('open the app')) {
      out.push(`open ${target}`);
      lastTap = undefined;
    } else if (action.startsWith('tap') && target) {
      out.push(`tap ${target}`);
      lastTap = target;
    } else if (action.startsWith('long press') && target) {
      out.push(`long press ${target}`);
      lastTap = undefined;
    } else if (action.startsWith('type') && target) {
      // "tap <field>" then "type V" is one essential step: enter V into that field.
      if (lastTap && out[out.length - 1] === `tap ${lastTap}`) out[out.length - 1] = `enter "${target}" into the ${lastTap} field`;
      else out.push(`type "${target}"`);
      lastTap = undefined;
    }
    if (out.length >= 2 && out[out.length - 1] === out[out.length - 2]) out.pop();
  }
  if (out.length === 0) out.push('follow the task as stated');
  return Promise.resolve({ role: 'assistant', content: JSON.stringify({ steps: out }), finish_reason: 'stop' });
};
