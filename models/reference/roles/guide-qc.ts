import { messageText } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { RoleHandler } from '../types.js';

/**
 * Reference guidance quality control (GUI-Owl §6.4 step 2): a step is dropped when it had no visible effect, or
 * when its stated intent names a target (quoted, as policies write conclusions) that the observed target does not
 * match word for word. Input: the JSON built by synthesis/guidance.ts {action, intent, target, changed, description}.
 */
const words = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);

function overlap(a: string, b: string): number {
  const wa = words(a);
  const wb = new Set(words(b));
  if (!wa.length || !wb.size) return 0;
  return wa.filter((w) => wb.has(w)).length / wa.length;
}

export const guideQcRole: RoleHandler = (request) => {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!user) return Promise.reject(new RoleInputError('no user message', 'messages'));
  let input: { action?: unknown; intent?: unknown; target?: unknown; changed?: unknown; description?: unknown };
  try {
    input = JSON.parse(messageText(user)) as typeof input;
  } catch {
    return Promise.reject(new RoleInputError('the user message must be the step JSON', 'messages'));
  }
  const action = String(input.action ?? '');
  const intent = String(input.intent ?? '');
  const target = String(input.target ?? '');
  const reply = (keep: boolean, reason: string) => Promise.resolve({ role: 'assistant' as const, content: JSON.stringify({ keep, reason }), finish_reason: 'stop' });
  if (input.changed !== true) return reply(false, `ineffective: ${action} had no visible effect`);
  const named = [...intent.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).filter((q) => !/^type\b/.test(action) || q !== target);
  if (named.length && target) {
    // Every word of the intended target must be in the touched label (or vice versa): near-duplicates such as
    // "Burger Place" for "Burger Palace" share words but are different things.
    const best = Math.max(...named.map((q) => Math.max(overlap(q, target), overlap(target, q))));
    if (best < 1) return reply(false, `mismatch: intended ${named.map((q) => `"${q}"`).join(', ')} but the action hit "${target}"`);
    return reply(true, `effective and matches the intent ("${target}")`);
  }
  return reply(true, intent ? 'effective; the intent names no target to compare' : 'effective (demonstration: no stated intent)');
};
