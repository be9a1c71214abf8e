import type { MobileAction } from '../../domain/action.js';

/**
 * LEARNED PROCEDURES — the part of the reference policy's memory that transfers a whole task to new slot values.
 *
 * A per-step memory keyed by screen and progress (memory.ts) stops transferring as soon as a new task takes one
 * step the remembered one did not (an alarm at 4 PM taps "4" and "PM" where the remembered one at 10 AM tapped
 * "10"). A procedure is the accepted episode as the ordered steps a person would write down ("open Clock",
 * "tap + Add alarm", "tap 10", `enter "Yoga" into the Alarm name field`), with every argument that comes from the
 * request replaced by a *slot*, read back from what the policy saw (the instruction; the OCR'd label a tap hit):
 *
 * - `{e<i>}`: the request's entity i (slotEntities: quoted texts, names, times …), matched whole;
 * - `{e<i>.<j>}`: token j of entity i ("10:05" → `{e1.0}` = "10", `{e1.1}` = "05");
 * - `{w<k>}` / `{w<k>:<n>}`: the request's k-th value word outside the entities (a capitalised word or a number,
 *   not the sentence's first word, not an app the request names "in"/"using"), whole or its first n letters ("Fri"
 *   from "on Fris"). The app a step opens is never a slot (a request need not name it).
 *
 * Recall fills the slots with the new request's values; a slot the new request lacks means no recall. The policy
 * then follows the filled steps exactly as it follows guidance (policy-guidance.ts): as text, grounded on the OCR'd
 * screen. Nothing is keyed by an app or a query: only the request's words and the screen's text.
 *
 * Pure: no I/O.
 */

export interface ProcedureEntry {
  /** Sorted intent words of the requests it was learned from (memory.ts intentWords). */
  intent: string[];
  /** Slotted imperative steps. */
  steps: string[];
  count: number;
  /** The slot values of (up to SOURCE_LIMIT of) the requests it was learned from: recall prefers agreeing values. */
  sources?: Record<string, string>[];
}

export const SOURCE_LIMIT = 8;

/**
 * How many slot values a request shares with the closest request a procedure was learned from ("AM" with "AM"):
 * among procedures of the same intent, the one learned from the most similar values is the likeliest to hold — a
 * step that depends on a value (tap "PM" only for an afternoon time) is then taken or left out as it was there.
 */
export function valueAgreement(entry: Pick<ProcedureEntry, 'sources'>, slots: ReadonlyMap<string, string>): number {
  let best = 0;
  for (const src of entry.sources ?? []) {
    let n = 0;
    for (const [name, v] of Object.entries(src)) if (slots.has(name) && norm(slots.get(name)!) === norm(v)) n++;
    best = Math.max(best, n);
  }
  return best;
}

const tokensOf = (s: string): string[] => s.match(/[\p{L}\p{N}]+/gu) ?? [];
const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** "in Notes", "using the Mail app": the app the request works in, not a value of the task. */
const isAppName = (instruction: string, w: string): boolean => new RegExp(`\\b(?:in|using)\\s+(?:the\\s+)?${escapeRe(w)}\\s+app\\b|\\b(?:in|using)\\s+(?:the\\s+)?${escapeRe(w)}\\s*[.,;!?]?$`, 'i').test(instruction);

/** The request's slot values by name (see the module comment), in a stable order. */
export function procedureSlots(instruction: string, entities: readonly string[]): Map<string, string> {
  const slots = new Map<string, string>();
  const inEntity = new Set<string>();
  entities.forEach((e, i) => {
    slots.set(`e${i}`, e);
    tokensOf(e).forEach((t, j) => {
      slots.set(`e${i}.${j}`, t);
      inEntity.add(t.toLowerCase());
    });
  });
  const words = tokensOf(instruction);
  let k = 0;
  for (const [wi, w] of words.entries()) {
    if (wi === 0 || inEntity.has(w.toLowerCase()) || !/^[\p{Lu}\p{N}]/u.test(w) || isAppName(instruction, w)) continue;
    slots.set(`w${k++}`, w);
  }
  return slots;
}

/** An argument (a tapped label, a typed text) as a slot reference when it comes from the request, else verbatim. */
export function slotArgument(arg: string, slots: ReadonlyMap<string, string>): string {
  const a = norm(arg);
  if (!a) return arg;
  // Whole entities first, then entity tokens, then value words (whole, then a prefix of ≥ 3 letters).
  for (const [name, v] of slots) if (name.startsWith('e') && !name.includes('.') && norm(v) === a) return `{${name}}`;
  for (const [name, v] of slots) if (name.includes('.') && norm(v) === a) return `{${name}}`;
  for (const [name, v] of slots) if (name.startsWith('w') && norm(v) === a) return `{${name}}`;
  for (const [name, v] of slots) {
    if (name.startsWith('w') && a.length >= 3 && /^\p{L}+$/u.test(a) && norm(v).startsWith(a) && norm(v) !== a) return `{${name}:${a.length}}`;
  }
  // A typed text made of several entities ("Call Mom at 5") keeps its glue words.
  let out = arg;
  const whole = [...slots].filter(([n]) => n.startsWith('e') && !n.includes('.')).sort((x, y) => y[1].length - x[1].length);
  for (const [name, v] of whole) if (v.length >= 2) out = out.split(v).join(`{${name}}`);
  return out;
}

/** Fills slot references with the request's values; undefined when one is missing. */
export function fillProcedureSlots(text: string, slots: ReadonlyMap<string, string>): string | undefined {
  let missing = false;
  const out = text.replace(/\{([ew]\d+(?:\.\d+)?)(?::(\d+))?\}/g, (_, name: string, n: string | undefined) => {
    const v = slots.get(name);
    if (v === undefined || (n !== undefined && v.length < Number(n))) {
      missing = true;
      return '';
    }
    return n === undefined ? v : v.slice(0, Number(n));
  });
  return missing ? undefined : out;
}

/** One executed step of an accepted episode, as the trainer reads it back. */
export interface ProcedureStep {
  action: MobileAction;
  /** The OCR'd label the click hit (memory.ts anchor text), for clicks and long presses. */
  label?: string;
}

/**
 * An accepted episode → its slotted procedure, or undefined when a step cannot be written down (a tap that hit no
 * label). Swipes, waits, back presses and the final answer/terminate carry no step a reader could follow and are
 * left out (the policy scrolls and waits on its own when a named target is not on screen).
 */
export function procedureOf(steps: readonly ProcedureStep[], slots: ReadonlyMap<string, string>): string[] | undefined {
  const out: string[] = [];
  let lastTap: string | undefined;
  for (const s of steps) {
    const a = s.action;
    if (a.action === 'open') {
      out.push(`open ${a.text}`);
      lastTap = undefined;
    } else if (a.action === 'click' || a.action === 'long_press') {
      if (!s.label || !norm(s.label)) return undefined;
      const arg = slotArgument(s.label.trim(), slots);
      out.push(`${a.action === 'click' ? 'tap' : 'long press'} ${arg}`);
      lastTap = a.action === 'click' ? arg : undefined;
    } else if (a.action === 'type') {
      const text = slotArgument(a.text, slots);
      // The field tapped just before is where the text goes: one step, found by its label (policy-guidance.ts).
      if (lastTap !== undefined && out[out.length - 1] === `tap ${lastTap}`) {
        out.pop();
        out.push(`enter "${text}" into the ${lastTap} field`);
      } else out.push(`type "${text}"`);
      lastTap = undefined;
    }
    // Consecutive identical steps (a retried tap) are one step of the procedure.
    if (out.length >= 2 && out[out.length - 1] === out[out.length - 2]) out.pop();
  }
  return out.length > 0 ? out : undefined;
}
