import { createHash } from 'node:crypto';
import type { MobileAction } from '../../domain/action.js';
import { FUNCTION_WORDS, instructionEntities, namesTheApp, requestCore } from './roles/intent.js';
import { fillProcedureSlots, procedureOf, procedureSlots, SOURCE_LIMIT, valueAgreement, withUnusedValues, type ProcedureEntry, type ProcedureStep } from './procedure.js';
import type { OcrLine } from './types.js';

/**
 * POLICY MEMORY — the learnable part ("weights") of the reference policy.
 *
 * An entry maps (instruction signature, screen signature) → the accepted actions taken there, with counts.
 * Both signatures are derived only from what the policy perceives (the request's instruction and the
 * screenshot's OCR), so the information firewall holds.
 *
 * - Instruction: exact key = the instruction lower-cased with whitespace collapsed (slot values such as
 *   "Burger Palace" or "2" stay verbatim: it is a lookup table); loose key = the exact key with digits masked
 *   (`#`), consulted only when the exact key misses.
 * - Screen: the normalised texts (lower-case, alphanumerics, digits masked) of the screen's fixed chrome —
 *   lines in the top 9% (status bar, title bar) and bottom 10% (tab bar, cart bar) — which do not move
 *   when the content scrolls; with fewer than two chrome lines (a launcher), the top `SCREEN_LINES` lines
 *   by position. The sorted, de-duplicated set is hashed.
 * - Click-like actions are stored relative to the OCR line they hit (its text and the fractional offset
 *   inside its box) and re-grounded on replay by finding that text on the current screen, so a scrolled
 *   screen still gets the right point. A remembered click whose line is not visible is no hit.
 *
 * GENERALISED MEMORY (the part that transfers to instructions never trained on). Each accepted step is also
 * recorded under a key a real model would learn from, built only from what the policy sees:
 * - the request's *intent*: the content words of `requestCore(instruction)` with its entities (quoted texts,
 *   names, numbers: `instructionEntities`) removed — "Delete the note Gift ideas; I do not need it any more" and
 *   "Delete the note Car service" share the intent {delete, note};
 * - the screen signature (as above) and the *progress* read from the history: the bracketed marker of the last
 *   conclusion ("[goal 5/6: focused]"; "start" before the first step), so that several steps taken on one
 *   screen (focus a field, type, send) are told apart the way the history tells them apart;
 * - *slots*: the instruction's entities (minus the app it names) in order; an anchor text, typed text,
 *   thought or conclusion that contains entity i stores `{i}` instead, and the lookup fills in the new
 *   instruction's entity i ("on a screen showing X, for a request asking to message Y, tap the label Y").
 *   A typed text that is not made of entities only is not generalised (it would be copied verbatim).
 * A lookup that misses the exact keys takes the entry of the same screen and progress whose intent words are
 * closest (Jaccard ≥ `GENERAL_MIN_SIMILARITY`), fills its slots and re-grounds its anchor; a slot the new
 * instruction lacks, or a label not on screen, is no hit.
 *
 * Pure: no clock, no I/O. `trained_at` is passed in.
 */

export const MEMORY_FORMAT = 'trajforge-ref-policy-memory@1';
const SCREEN_LINES = 8;

export interface MemoryAnchor {
  /** The OCR line text the click hit (as read at training time). */
  text: string;
  /** Fractional offset of the click inside the line's box (0..1 each, may exceed slightly for near misses). */
  dx: number;
  dy: number;
  /** The line's centre y at training time (to break ties between equal texts). */
  y: number;
}

export interface MemoryAction {
  /** The action as taken (absolute coordinates at training time). */
  action: MobileAction;
  /** Present for click / long_press: where to re-ground it. */
  anchor?: MemoryAnchor;
  conclusion: string;
  thought: string;
  count: number;
}

export interface MemoryEntry {
  instruction: string;
  loose: string;
  screen: string;
  actions: MemoryAction[];
}

/** A generalised step: intent words + screen + progress → actions whose texts may hold `{i}` entity slots. */
export interface GeneralEntry {
  /** Sorted intent words of the request (entities removed). */
  intent: string[];
  screen: string;
  progress: string;
  actions: MemoryAction[];
}

export interface MemoryProvenance {
  /** `name@version` of each dataset the memory was trained on. */
  datasets: string[];
  samples: number;
  trainedAt: string;
}

export interface PolicyMemoryJson {
  format: typeof MEMORY_FORMAT;
  version: string;
  provenance: MemoryProvenance;
  entries: MemoryEntry[];
  /** Generalised entries (absent in memories written before generalisation: they simply do not transfer). */
  general?: GeneralEntry[];
  /** Learned procedures (procedure.ts; absent in memories written before them). */
  procedures?: ProcedureEntry[];
}

/** A recalled procedure: its steps with this request's slot values filled in. */
export interface ProcedureRecall {
  steps: string[];
  count: number;
  similarity: number;
}

export interface MemoryHit {
  action: MobileAction;
  conclusion: string;
  thought: string;
  count: number;
  /** Which instruction key matched. */
  match: 'exact' | 'loose' | 'target' | 'general';
  /** For a `general` hit: the Jaccard similarity of the intents. */
  similarity?: number;
}

/** Least intent similarity (Jaccard over intent words) for a generalised hit. */
export const GENERAL_MIN_SIMILARITY = 0.5;

const STOP = new Set(['i', 'me', 'it', 'is', 'be', 'do', 'does', 'not', 'need', 'any', 'more', 'up', 'there', 'here', 'its', 'our', 'some', 'just', 'also']);
const stem = (w: string): string => (w.length > 4 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

/**
 * The instruction's slot entities: its entities in order, minus the app it names ("in Notes") and minus
 * clause fragments the entity reader can leave behind (", in Messages" after a quoted text).
 */
export function slotEntities(instruction: string): string[] {
  return instructionEntities(instruction)
    .filter((e) => !/^[\s,;:]/.test(e) && !namesTheApp(instruction, e));
}

/** Intent words: content words of the request core, entities, quotes and numbers removed (sorted, unique). */
export function intentWords(instruction: string): string[] {
  const core = requestCore(instruction);
  let t = core.replace(/["“”][^"“”]*["“”]/g, ' ');
  for (const e of instructionEntities(core).sort((a, b) => b.length - a.length)) t = t.split(e).join(' ');
  const words = t
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((w) => w.length > 1 && !FUNCTION_WORDS.test(w) && !STOP.has(w))
    .map(stem);
  return [...new Set(words)].sort();
}

/** The progress the history shows: the last conclusion's bracketed marker, running counters masked. */
export function progressKey(history: readonly string[]): string {
  const last = history[history.length - 1];
  if (last === undefined) return 'start';
  const m = /\[([^\]]*)\]\s*$/.exec(last.trim());
  if (!m) return 'step';
  return (m[1] ?? '').toLowerCase().replace(/\b(scroll|step|more|reopen)\s+\d+/g, '$1 #').trim();
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const sb = new Set(b);
  const inter = a.filter((w) => sb.has(w)).length;
  return inter / (a.length + b.length - inter);
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces each entity in `text` (case-insensitive, longest first) by `{i}`. */
function toSlots(text: string, entities: readonly string[]): string {
  const order = entities.map((e, i) => ({ e, i })).filter((x) => x.e.length >= 2).sort((a, b) => b.e.length - a.e.length);
  let out = text;
  for (const { e, i } of order) out = out.replace(new RegExp(escapeRe(e), 'gi'), `{${i}}`);
  return out;
}

/** Fills `{i}` slots with the new entities; undefined when a slot has no entity. */
function fillSlots(text: string, entities: readonly string[]): string | undefined {
  let missing = false;
  const out = text.replace(/\{(\d+)\}/g, (_, i: string) => {
    const v = entities[Number(i)];
    if (v === undefined) missing = true;
    return v ?? '';
  });
  return missing ? undefined : out;
}

/** The generalised form of a step's action, or undefined when it does not generalise. */
function generalise(rec: Omit<MemoryAction, 'count'>, entities: readonly string[]): Omit<MemoryAction, 'count'> | undefined {
  let action = rec.action;
  if (action.action === 'type') {
    const text = toSlots(action.text, entities);
    // Only texts made of the request's entities transfer; anything else would be copied from another task.
    if (text.replace(/\{\d+\}/g, '').replace(/[\s,.;:!?'"-]/g, '') !== '') return undefined;
    action = { ...action, text };
  }
  const anchor = rec.anchor ? { ...rec.anchor, text: toSlots(rec.anchor.text, entities) } : undefined;
  return { action, conclusion: toSlots(rec.conclusion, entities), thought: toSlots(rec.thought, entities), ...(anchor ? { anchor } : {}) };
}

const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const maskDigits = (s: string): string => s.replace(/\p{N}+/gu, '#');
const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** Exact instruction key: lower-case, whitespace collapsed, trailing punctuation dropped. */
export function instructionKey(instruction: string): string {
  return instruction.toLowerCase().replace(/\s+/g, ' ').replace(/[.!\s]+$/, '').trim();
}

/** Every number an action carries (its tapped label, its typed text, the quoted texts of its conclusion) is one of the request's. */
export function numbersFit(a: { action: MobileAction; conclusion: string; anchor?: { text: string } }, instruction: string): boolean {
  const wanted = new Set((instruction.match(/\d+/g) ?? []).map((n) => String(Number(n))));
  const carried = [a.anchor?.text ?? '', 'text' in a.action && typeof a.action.text === 'string' ? a.action.text : '', ...[...a.conclusion.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? '')]
    .join(' ')
    .match(/\d+/g) ?? [];
  return carried.every((n) => wanted.has(String(Number(n))));
}

/** Loose instruction key: the exact key with numbers masked. */
export function looseInstructionKey(instruction: string): string {
  return maskDigits(instructionKey(instruction));
}

/** The OCR line text a click at `point` hits (see anchorFor), for writing the step down. */
export function labelAt(point: readonly [number, number], lines: readonly OcrLine[]): string | undefined {
  return anchorFor(point, lines)?.text;
}

/** Signature of a screen from its OCR lines (see the module comment). */
export function screenSignature(lines: readonly OcrLine[], screen: { width: number; height: number }): string {
  const cy = (l: OcrLine): number => l.box.y + l.box.h / 2;
  const text = (l: OcrLine): string => maskDigits(norm(l.text));
  const useful = lines.filter((l) => text(l).length > 0);
  const chrome = useful.filter((l) => cy(l) < screen.height * 0.09 || cy(l) > screen.height * 0.9);
  const chosen = chrome.length >= 2 ? chrome : [...useful].sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x).slice(0, SCREEN_LINES);
  return hash([...new Set(chosen.map(text))].sort().join('|'));
}

/** The OCR line a point hits (inside its box), else the nearest within 24 px. */
function anchorFor(point: readonly [number, number], lines: readonly OcrLine[]): MemoryAnchor | undefined {
  let best: { l: OcrLine; d: number } | undefined;
  for (const l of lines) {
    if (!norm(l.text)) continue;
    const ddx = Math.max(l.box.x - point[0], 0, point[0] - (l.box.x + l.box.w));
    const ddy = Math.max(l.box.y - point[1], 0, point[1] - (l.box.y + l.box.h));
    const d = Math.hypot(ddx, ddy);
    if (!best || d < best.d || (d === best.d && l.box.w * l.box.h < best.l.box.w * best.l.box.h)) best = { l, d };
  }
  if (!best || best.d > 24) return undefined;
  const { x, y, w, h } = best.l.box;
  return { text: best.l.text, dx: (point[0] - x) / Math.max(1, w), dy: (point[1] - y) / Math.max(1, h), y: y + h / 2 };
}

/** The point an anchor designates on the current screen, or undefined when its line is not visible. */
export function reground(anchor: MemoryAnchor, lines: readonly OcrLine[], screen: { width: number; height: number }): [number, number] | undefined {
  const want = norm(anchor.text);
  const same = lines.filter((l) => norm(l.text) === want);
  if (same.length === 0) return undefined;
  const line = same.reduce((a, b) => (Math.abs(b.box.y + b.box.h / 2 - anchor.y) < Math.abs(a.box.y + a.box.h / 2 - anchor.y) ? b : a));
  const px = Math.round(line.box.x + anchor.dx * line.box.w);
  const py = Math.round(line.box.y + anchor.dy * line.box.h);
  return [Math.max(0, Math.min(screen.width - 1, px)), Math.max(0, Math.min(screen.height - 1, py))];
}

const total = (e: GeneralEntry): number => e.actions.reduce((n, a) => n + a.count, 0);

const sameAction = (a: MemoryAction, b: Omit<MemoryAction, 'count'>): boolean =>
  a.anchor && b.anchor
    ? a.action.action === b.action.action && norm(a.anchor.text) === norm(b.anchor.text)
    : !a.anchor && !b.anchor && JSON.stringify(a.action) === JSON.stringify(b.action);

export class PolicyMemory {
  private readonly entries = new Map<string, MemoryEntry>();
  private readonly byLoose = new Map<string, MemoryEntry[]>();

  constructor(
    readonly version: string,
    public provenance: MemoryProvenance = { datasets: [], samples: 0, trainedAt: '' },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Records one accepted step: the instruction, what the screen showed, and the action taken with its conclusion. */
  add(step: {
    instruction: string;
    lines: readonly OcrLine[];
    screen: { width: number; height: number };
    action: MobileAction;
    conclusion: string;
    thought?: string;
    /** The conclusions of the earlier steps (the prompt's history); enables the generalised record. */
    history?: readonly string[];
  }): void {
    const instruction = instructionKey(step.instruction);
    const screen = screenSignature(step.lines, step.screen);
    const id = `${instruction}\u0000${screen}`;
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { instruction, loose: maskDigits(instruction), screen, actions: [] };
      this.insert(entry);
    }
    const clicky = step.action.action === 'click' || step.action.action === 'long_press';
    const anchor = clicky ? anchorFor((step.action as { coordinate: [number, number] }).coordinate, step.lines) : undefined;
    const rec: Omit<MemoryAction, 'count'> = { action: step.action, conclusion: step.conclusion, thought: step.thought ?? '', ...(anchor ? { anchor } : {}) };
    const existing = entry.actions.find((a) => sameAction(a, rec));
    if (existing) {
      existing.count++;
      existing.conclusion = rec.conclusion;
    } else entry.actions.push({ ...rec, count: 1 });
    if (step.history) {
      const g = generalise(rec, slotEntities(step.instruction));
      if (g) this.addGeneral(intentWords(step.instruction), screen, progressKey(step.history), g);
    }
  }

  private readonly general = new Map<string, GeneralEntry>();
  private readonly byScreen = new Map<string, GeneralEntry[]>();

  get generalSize(): number {
    return this.general.size;
  }

  private addGeneral(intent: string[], screen: string, progress: string, rec: Omit<MemoryAction, 'count'>): void {
    const id = `${intent.join(' ')}\u0000${screen}\u0000${progress}`;
    let entry = this.general.get(id);
    if (!entry) {
      entry = { intent, screen, progress, actions: [] };
      this.insertGeneral(entry);
    }
    const existing = entry.actions.find((a) => sameAction(a, rec));
    if (existing) {
      existing.count++;
      existing.conclusion = rec.conclusion;
    } else entry.actions.push({ ...rec, count: 1 });
  }

  private insertGeneral(entry: GeneralEntry): void {
    this.general.set(`${entry.intent.join(' ')}\u0000${entry.screen}\u0000${entry.progress}`, entry);
    const k = `${entry.screen}\u0000${entry.progress}`;
    const list = this.byScreen.get(k) ?? [];
    list.push(entry);
    this.byScreen.set(k, list);
  }

  /**
   * The generalised lookup: the closest intent on this screen at this progress, slots filled with this
   * instruction's entities, anchors re-grounded. Most similar intent first, then the most frequent action.
   */
  lookupGeneral(instruction: string, lines: readonly OcrLine[], screen: { width: number; height: number }, history: readonly string[]): MemoryHit | undefined {
    const list = this.byScreen.get(`${screenSignature(lines, screen)}\u0000${progressKey(history)}`);
    if (!list) return undefined;
    const intent = intentWords(instruction);
    const entities = slotEntities(instruction);
    const ranked = list
      .map((e) => ({ e, sim: jaccard(intent, e.intent) }))
      .filter((x) => x.sim >= GENERAL_MIN_SIMILARITY)
      .sort((a, b) => b.sim - a.sim || total(b.e) - total(a.e));
    for (const { e, sim } of ranked) {
      for (const a of [...e.actions].sort((x, y) => y.count - x.count)) {
        const conclusion = fillSlots(a.conclusion, entities);
        const thought = fillSlots(a.thought, entities);
        if (conclusion === undefined || thought === undefined) continue;
        let action: MobileAction = a.action;
        if (action.action === 'type') {
          const text = fillSlots(action.text, entities);
          if (text === undefined) continue;
          action = { ...action, text };
        }
        if (a.anchor) {
          const text = fillSlots(a.anchor.text, entities);
          const point = text === undefined ? undefined : reground({ ...a.anchor, text }, lines, screen);
          if (!point) continue;
          action = { ...action, coordinate: point } as MobileAction;
        }
        return { action, conclusion, thought, count: a.count, match: 'general', similarity: sim };
      }
    }
    return undefined;
  }

  private readonly procedures = new Map<string, ProcedureEntry>();

  get procedureCount(): number {
    return this.procedures.size;
  }

  /** Records an accepted episode's procedure (procedure.ts): its steps with the request's values as slots. */
  addProcedure(instruction: string, steps: readonly ProcedureStep[]): boolean {
    const slots = procedureSlots(instruction, slotEntities(instruction));
    const written = procedureOf(steps, slots);
    if (!written) return false;
    const intent = intentWords(instruction);
    const id = `${intent.join(' ')}\u0000${written.join('\u0000')}`;
    const source = Object.fromEntries(slots);
    const entry = this.procedures.get(id);
    if (entry) {
      entry.count++;
      if ((entry.sources ?? []).length < SOURCE_LIMIT) entry.sources = [...(entry.sources ?? []), source];
    } else this.procedures.set(id, { intent, steps: written, count: 1, sources: [source] });
    return true;
  }

  /**
   * The procedure for a request never seen: the learned procedures whose intent is closest (Jaccard ≥
   * GENERAL_MIN_SIMILARITY), most similar first, then the most often learned (a procedure seen once may carry that
   * one task's accident: a 7 o'clock alarm's "tap 7" that opened the picker reads as the hour), then learned from the
   * most similar slot values (valueAgreement), then the longest; the first whose slots the request fills.
   */
  recallProcedure(instruction: string): ProcedureRecall | undefined {
    const intent = intentWords(instruction);
    const slots = procedureSlots(instruction, slotEntities(instruction));
    const ranked = [...this.procedures.values()]
      .map((p) => ({ p, sim: jaccard(intent, p.intent), agree: valueAgreement(p, slots) }))
      .filter((x) => x.sim >= GENERAL_MIN_SIMILARITY)
      .sort((a, b) => b.sim - a.sim || b.p.count - a.p.count || b.agree - a.agree || b.p.steps.length - a.p.steps.length);
    for (const { p, sim } of ranked) {
      const steps = withUnusedValues(p.steps, p.sources ?? [], slots, instruction).map((t) => fillProcedureSlots(t, slots));
      if (steps.every((t): t is string => t !== undefined)) return { steps, count: p.count, similarity: sim };
    }
    return undefined;
  }

  private insert(entry: MemoryEntry): void {
    this.entries.set(`${entry.instruction}\u0000${entry.screen}`, entry);
    const list = this.byLoose.get(entry.loose) ?? [];
    list.push(entry);
    this.byLoose.set(entry.loose, list);
  }

  /**
   * The remembered action for this instruction on this screen, re-grounded on the current OCR lines;
   * undefined when nothing is remembered or no remembered click target is visible. Visible targets first, then most frequent.
   */
  lookup(instruction: string, lines: readonly OcrLine[], screen: { width: number; height: number }, history?: readonly string[]): MemoryHit | undefined {
    const hit = this.lookupAny(instruction, lines, screen, history);
    // A remembered step identical to the one just taken (same conclusion) is not repeated: the last one changed
    // nothing the screen key sees (measured: an exact-instruction entry replayed a tap 12 times in an eval episode).
    const last = history?.[history.length - 1];
    return hit && last !== undefined && hit.conclusion.trim() === last.trim() ? undefined : hit;
  }

  private lookupAny(instruction: string, lines: readonly OcrLine[], screen: { width: number; height: number }, history?: readonly string[]): MemoryHit | undefined {
    const key = instructionKey(instruction);
    const sig = screenSignature(lines, screen);
    const exact = this.entries.get(`${key}\u0000${sig}`);
    const tries: [MemoryEntry | undefined, MemoryHit['match']][] = [
      [exact, 'exact'],
      ...(this.byLoose.get(maskDigits(key)) ?? []).filter((e) => e !== exact && e.screen === sig).map((e): [MemoryEntry, MemoryHit['match']] => [e, 'loose']),
    ];
    // Last resort (the screen's chrome changed, e.g. a search bar scrolled away): any screen of this instruction
    // whose remembered click target is visible now; only anchored actions count there.
    const anyScreen = [...this.entries.values()].filter((e) => e.instruction === key && e.screen !== sig);
    for (const [entry, match] of tries) {
      if (!entry) continue;
      // Actions whose remembered target is visible first (the more specific evidence: a list scrolled to the target
      // shares its signature with the unscrolled one, where the remembered action was the swipe), then by count.
      for (const a of [...entry.actions].sort((x, y) => Number(!!y.anchor) - Number(!!x.anchor) || y.count - x.count)) {
        // The same request with other numbers: an action that carries one of the remembered request's numbers (tapped
        // "12" of 12:45, typed "45") belongs to that request, not to this one.
        if (match === 'loose' && !numbersFit(a, instruction)) continue;
        if (!a.anchor) return { action: a.action, conclusion: a.conclusion, thought: a.thought, count: a.count, match };
        const point = reground(a.anchor, lines, screen);
        if (point) return { action: { ...a.action, coordinate: point } as MobileAction, conclusion: a.conclusion, thought: a.thought, count: a.count, match };
      }
    }
    for (const entry of anyScreen) {
      for (const a of [...entry.actions].sort((x, y) => y.count - x.count)) {
        const point = a.anchor ? reground(a.anchor, lines, screen) : undefined;
        if (point) return { action: { ...a.action, coordinate: point } as MobileAction, conclusion: a.conclusion, thought: a.thought, count: a.count, match: 'target' };
      }
    }
    return history ? this.lookupGeneral(instruction, lines, screen, history) : undefined;
  }

  toJSON(): PolicyMemoryJson {
    const entries = [...this.entries.values()].sort((a, b) => (a.instruction + a.screen < b.instruction + b.screen ? -1 : 1));
    const key = (g: GeneralEntry): string => `${g.intent.join(' ')}\u0000${g.screen}\u0000${g.progress}`;
    const general = [...this.general.values()].sort((a, b) => (key(a) < key(b) ? -1 : 1));
    const procedures = [...this.procedures.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, p]) => p);
    return { format: MEMORY_FORMAT, version: this.version, provenance: this.provenance, entries, general, ...(procedures.length ? { procedures } : {}) };
  }

  static fromJSON(json: unknown): PolicyMemory {
    const j = json as Partial<PolicyMemoryJson> | null;
    if (!j || j.format !== MEMORY_FORMAT || typeof j.version !== 'string' || !Array.isArray(j.entries)) {
      throw new Error(`not a policy memory (expected format ${MEMORY_FORMAT})`);
    }
    const m = new PolicyMemory(j.version, j.provenance ?? { datasets: [], samples: 0, trainedAt: '' });
    for (const e of j.entries) m.insert({ ...e, actions: e.actions.map((a) => ({ ...a })) });
    for (const g of j.general ?? []) m.insertGeneral({ ...g, intent: [...g.intent], actions: g.actions.map((a) => ({ ...a })) });
    for (const p of j.procedures ?? []) m.procedures.set(`${p.intent.join(' ')}\u0000${p.steps.join('\u0000')}`, { intent: [...p.intent], steps: [...p.steps], count: p.count, ...(p.sources ? { sources: p.sources.map((x) => ({ ...x })) } : {}) });
    return m;
  }
}
