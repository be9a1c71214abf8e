import { messageText } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { RoleHandler } from '../types.js';
import { STREET_WORDS } from './policy-intent.js';

/**
 * Reference guidance synthesiser (GUI-Owl §6.4 step 3), a CPU stand-in for an LLM: turns the kept step
 * descriptions into essential steps — "open X", "tap X", "long press X", "enter "V" into the F field" (a tap on a
 * field followed by typing becomes one line), dropping repeats and scrolling. Input: {task, steps: [{action,
 * target, description, visible?}]} from synthesis/guidance.ts.
 *
 * A typed value that an earlier step's after screen showed while ANOTHER app was open (a code in a mail, an address
 * in a note) changes with the episode, so it is never copied: the tap that showed it becomes "read the code from
 * <that item> in <app>" and the typing "enter the code from <app> into the <field> field" (values that are neither
 * a code nor an address stay literal: the policy has no way to read them).
 */
const norm = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();
const escapeRe = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A tapped label without what changes between visits: a count or price after a separator ("View cart · 1 item" →
 * "View cart", "Cart (2" → "Cart"). A number that is part of the label ("Size 43") stays, as do labels that start
 * with a number ("7", "12 Baker Street").
 */
export function stableLabel(label: string): string {
  const m = /^(\p{L}[^·•|([]*?)\s*[·•|([](.*)$/u.exec(label.trim());
  if (!m || (m[1]!.match(/\p{L}/gu) ?? []).length < 3) return label.trim();
  return /\d/.test(m[2]!) || !/\p{L}/u.test(m[2]!) ? m[1]!.trim() : label.trim();
}

/** What kind of per-episode value this is, if the policy can read one: a numeric code or a street address. */
export function valueKind(v: string): 'code' | 'address' | undefined {
  const t = v.trim();
  if (/^\d[\d\s-]{2,}\d$/.test(t)) return 'code';
  if (new RegExp(`^\\d+[A-Za-z]?\\s+(?:[A-Za-z][\\w'-]*\\s+){0,3}(?:${STREET_WORDS})\\b`, 'i').test(t)) return 'address';
  return undefined;
}

export const guideSynthRole: RoleHandler = (request) => {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!user) return Promise.reject(new RoleInputError('no user message', 'messages'));
  let input: { steps?: { action?: string; target?: string; visible?: unknown; row?: unknown }[] };
  try {
    input = JSON.parse(messageText(user)) as typeof input;
  } catch {
    return Promise.reject(new RoleInputError('the user message must be the guidance JSON', 'messages'));
  }
  if (!Array.isArray(input.steps)) return Promise.reject(new RoleInputError('steps must be an array', 'steps'));
  const out: string[] = [];
  // Per step: the app it ran in, what its after screen showed, and the output line it wrote (a tap's target).
  const seen: { app: string | undefined; visible: string[]; line: number | undefined; tap: string | undefined }[] = [];
  let app: string | undefined;
  let lastTap: string | undefined;
  for (const s of input.steps) {
    const action = String(s.action ?? '');
    let target = String(s.target ?? '').replace(/"/g, '').trim();
    const visible = Array.isArray(s.visible) ? s.visible.filter((x): x is string => typeof x === 'string') : [];
    let line: number | undefined;
    let tapped: string | undefined;
    if (action.startsWith('open the app')) {
      out.push(`open ${target}`);
      app = target;
      lastTap = undefined;
    } else if (action.startsWith('tap') && target) {
      target = stableLabel(target);
      // A label repeated on the screen is named with its row ("tap Add next to Classic Burger").
      const row = typeof s.row === 'string' && s.row.trim() ? s.row.replace(/"/g, '').trim() : undefined;
      const tap = row ? `${target} next to ${row}` : target;
      // The same tap again (each kept step had an effect: Add to cart pressed three times) is one line with a count.
      const prev = out[out.length - 1];
      const times = prev === undefined ? undefined : new RegExp(`^tap ${escapeRe(tap)}(?: (\\d+) times)?$`).exec(prev);
      if (times && lastTap === tap) out[out.length - 1] = `tap ${tap} ${Number(times[1] ?? 1) + 1} times`;
      else out.push(`tap ${tap}`);
      line = out.length - 1;
      tapped = tap;
      lastTap = tap;
    } else if (action.startsWith('long press') && target) {
      out.push(`long press ${target}`);
      lastTap = undefined;
    } else if (action.startsWith('type') && target) {
      // Where the value came from: the first earlier screen of another app that showed it, reached by a tap.
      const kind = valueKind(target);
      // (The screen's lines joined too: a note's text wraps, "… Deliver to 48 Maple" / "Avenue. Ring …".)
      const shows = (x: { visible: string[] }): boolean => x.visible.some((v) => norm(v).includes(norm(target))) || norm(x.visible.join(' ')).includes(norm(target));
      const src = kind && target.length >= 4 ? seen.find((x) => x.app && x.app !== app && x.tap && x.line !== undefined && shows(x)) : undefined;
      let value = `"${target}"`;
      if (kind && src) {
        out[src.line!] = `read the ${kind} from ${src.tap!} in ${src.app!}`;
        value = `the ${kind} from ${src.app!}`;
      }
      // "tap <field>" then "type V" is one essential step: enter V into that field.
      if (lastTap && out[out.length - 1] === `tap ${lastTap}`) out[out.length - 1] = `enter ${value} into the ${lastTap} field`;
      else out.push(`type ${value}`);
      lastTap = undefined;
    }
    if (out.length >= 2 && out[out.length - 1] === out[out.length - 2]) out.pop();
    seen.push({ app, visible, line: line !== undefined && line < out.length ? line : undefined, tap: tapped });
  }
  if (out.length === 0) out.push('follow the task as stated');
  return Promise.resolve({ role: 'assistant', content: JSON.stringify({ steps: out }), finish_reason: 'stop' });
};
