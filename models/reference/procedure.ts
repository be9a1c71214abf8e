import type { MobileAction } from '../../domain/action.js';
import { requestCore } from './roles/intent.js';

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
 *   not a sentence's first word, not a one-letter word, not an app the request names "in"/"using"; counted in the
 *   request's core, without its social framing), whole or its first n letters ("Fri" from "on Fris"). The app a step opens is never a slot (a request need not name it).
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

/**
 * The request's value words, read from its core (roles/intent.ts requestCore: greetings, "Can I ask you to …",
 * "I'm in a bit of a rush." and "Thanks a lot." dropped): capitalised words and numbers, minus the first word of
 * each sentence (capitalised because it starts one: "Wake" after "I'm in a bit of a rush.") and one-letter words
 * ("I", "A"). Counting from the core keeps `{w<k>}` pointing at the same value whatever wording frames the request.
 */
function valueWords(instruction: string): string[] {
  const text = requestCore(instruction) || instruction;
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = m[0];
    const before = text.slice(0, m.index).replace(/["'“”‘’(\s]+$/u, '');
    if (before === '' || /[.!?]$/.test(before)) continue;
    if (/^\p{L}$/u.test(w)) continue;
    out.push(w);
  }
  return out;
}

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
  let k = 0;
  for (const w of valueWords(instruction)) {
    if (inEntity.has(w.toLowerCase()) || !/^[\p{Lu}\p{N}]/u.test(w) || isAppName(instruction, w)) continue;
    slots.set(`w${k++}`, w);
  }
  return slots;
}

/** OCR clipped the last glyph of a long label drawn against a control's edge ("Riverside Mal" for "Riverside Mall"). */
const clippedBy1 = (label: string, value: string): boolean => label.length >= 7 && value.length === label.length + 1 && value.startsWith(label);

/**
 * An argument (a tapped label, a typed text) as a slot reference when it comes from the request (a whole entity also
 * when OCR clipped its last letter), else verbatim.
 */
export function slotArgument(arg: string, slots: ReadonlyMap<string, string>): string {
  const a = norm(arg);
  if (!a) return arg;
  // Whole entities first, then entity tokens, then value words (whole, then a prefix of ≥ 3 letters).
  for (const [name, v] of slots) if (name.startsWith('e') && !name.includes('.') && (norm(v) === a || clippedBy1(a, norm(v)))) return `{${name}}`;
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

/**
 * A tapped label that ends in a value read off the screen, not asked for — an amount or a count after a separator or
 * dollar sign ("Pay $142.10", "View cart · 1 item"): its stem ("Pay", "View cart"). The value changes with the item
 * (another bill's button says "Pay $48.20"), so the written step names the stem; the policy follows a procedure step
 * like guidance, where a tap also takes a line that starts with the label followed by such a value. A stem needs three
 * letters; a label whose tail has letters but no digit ("Sam (work)") stays whole.
 */
export function labelStem(label: string): string {
  const m = /^(\p{L}[^·•|([$]*?)\s*[·•|([$](.*)$/u.exec(label.trim());
  if (!m || (m[1]!.match(/\p{L}/gu) ?? []).length < 3) return label.trim();
  return /\d/.test(m[2]!) || !/\p{L}/u.test(m[2]!) ? m[1]!.trim() : label.trim();
}

const farApart = (p: readonly number[] | undefined, q: readonly number[] | undefined): boolean =>
  !!p && !!q && Math.hypot((p[0] ?? 0) - (q[0] ?? 0), (p[1] ?? 0) - (q[1] ?? 0)) > 40;

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
  let lastLabel: string | undefined;
  for (const [i, s] of steps.entries()) {
    const a = s.action;
    if (a.action === 'open') {
      out.push(`open ${a.text}`);
      lastTap = undefined;
    } else if (a.action === 'click' || a.action === 'long_press') {
      if (!s.label || !norm(s.label)) return undefined;
      let arg = slotArgument(s.label.trim(), slots);
      // A value the request does not give, read off the screen at the end of the label, is not part of the step.
      if (arg === s.label.trim()) arg = labelStem(arg);
      // The same label tapped twice in a row at clearly different places (a button showing the current value "7",
      // then the option "7" of the picker it opened): the first is the control, not the request's value — kept verbatim.
      const next = steps[i + 1];
      if (a.action === 'click' && next?.action.action === 'click' && next.label && norm(next.label) === norm(s.label) && farApart(a.coordinate, next.action.coordinate)) arg = s.label.trim();
      out.push(`${a.action === 'click' ? 'tap' : 'long press'} ${arg}`);
      lastTap = a.action === 'click' ? arg : undefined;
      lastLabel = s.label.trim();
    } else if (a.action === 'type') {
      const text = slotArgument(a.text, slots);
      // The field tapped just before is where the text goes: one step, found by its label (policy-guidance.ts).
      // The field keeps its label verbatim: a field's label or placeholder is the screen's own text, even when it
      // shows an example that happens to be this request's value ("e.g. Losartan 50 mg" for the drug Losartan 50 mg).
      if (lastTap !== undefined && out[out.length - 1] === `tap ${lastTap}`) {
        out.pop();
        out.push(`enter "${text}" into the ${lastLabel ?? lastTap} field`);
      } else out.push(`type "${text}"`);
      lastTap = undefined;
    }
    // Consecutive identical steps (a retried tap) are one step of the procedure.
    if (out.length >= 2 && out[out.length - 1] === out[out.length - 2]) out.pop();
  }
  return out.length > 0 ? out : undefined;
}

/** The slot names a slotted step refers to (`{e1.0}` refers to e1.0 and to its entity e1). */
function slotRefs(step: string): Set<string> {
  const out = new Set<string>();
  for (const m of step.matchAll(/\{([ew]\d+)(\.\d+)?(?::\d+)?\}/g)) {
    out.add(m[1]!);
    if (m[2]) out.add(`${m[1]!}${m[2]}`);
  }
  return out;
}

/**
 * A value the request sets that the learned steps never touch, because in the episode it was learned from the screen
 * already showed it (a default: "AM" was selected, so no step chose it). When this request asks for another value in
 * that slot — one no source request had — the value must be chosen: `tap {slot}` is inserted right after the last step
 * that uses a value the request names before it (values are set in the order the request names them). Only
 * one-word values (an entity of one token, a value word); nothing is inserted where no earlier value is used.
 */
export function withUnusedValues(steps: readonly string[], sources: readonly Record<string, string>[], slots: ReadonlyMap<string, string>, instruction: string): string[] {
  if (sources.length === 0) return [...steps];
  const refs = steps.map(slotRefs);
  const used = new Set(refs.flatMap((r) => [...r]));
  const lower = instruction.toLowerCase();
  const posOf = (name: string): number => {
    const v = slots.get(name);
    return v === undefined ? -1 : lower.indexOf(v.toLowerCase());
  };
  const out = [...steps];
  const outRefs = [...refs];
  for (const [name, v] of slots) {
    const single = /^w\d+$/.test(name) || (/^e\d+$/.test(name) && !slots.has(`${name}.1`));
    if (!single || used.has(name) || used.has(`${name}.0`)) continue;
    if (sources.some((src) => src[name] === undefined || norm(src[name]!) === norm(v))) continue;
    const at = posOf(name);
    if (at < 0) continue;
    let after = -1;
    outRefs.forEach((r, i) => {
      if ([...r].some((n) => n !== name && posOf(n) >= 0 && posOf(n) < at)) after = i;
    });
    if (after < 0) continue;
    out.splice(after + 1, 0, `tap {${name}}`);
    outRefs.splice(after + 1, 0, new Set([name]));
  }
  return out;
}
