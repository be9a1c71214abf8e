import { createHash } from 'node:crypto';
import type { MobileAction } from '../../domain/action.js';
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
}

export interface MemoryHit {
  action: MobileAction;
  conclusion: string;
  thought: string;
  count: number;
  /** Which instruction key matched. */
  match: 'exact' | 'loose' | 'target';
}

const norm = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
const maskDigits = (s: string): string => s.replace(/\p{N}+/gu, '#');
const hash = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** Exact instruction key: lower-case, whitespace collapsed, trailing punctuation dropped. */
export function instructionKey(instruction: string): string {
  return instruction.toLowerCase().replace(/\s+/g, ' ').replace(/[.!\s]+$/, '').trim();
}

/** Loose instruction key: the exact key with numbers masked. */
export function looseInstructionKey(instruction: string): string {
  return maskDigits(instructionKey(instruction));
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
  lookup(instruction: string, lines: readonly OcrLine[], screen: { width: number; height: number }): MemoryHit | undefined {
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
    return undefined;
  }

  toJSON(): PolicyMemoryJson {
    const entries = [...this.entries.values()].sort((a, b) => (a.instruction + a.screen < b.instruction + b.screen ? -1 : 1));
    return { format: MEMORY_FORMAT, version: this.version, provenance: this.provenance, entries };
  }

  static fromJSON(json: unknown): PolicyMemory {
    const j = json as Partial<PolicyMemoryJson> | null;
    if (!j || j.format !== MEMORY_FORMAT || typeof j.version !== 'string' || !Array.isArray(j.entries)) {
      throw new Error(`not a policy memory (expected format ${MEMORY_FORMAT})`);
    }
    const m = new PolicyMemory(j.version, j.provenance ?? { datasets: [], samples: 0, trainedAt: '' });
    for (const e of j.entries) m.insert({ ...e, actions: e.actions.map((a) => ({ ...a })) });
    return m;
  }
}
