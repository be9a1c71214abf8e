import sharp from 'sharp';
import { Action } from '../../../domain/action.js';
import type { ChatMessage, ChatRequest } from '../../../domain/openai.js';
import type { OcrLine, RoleContext } from '../types.js';
import { bestWindow, containsPhrase, contentTokens, NEAR, tokens } from './text-match.js';

/** Request reading and screen evidence shared by the reference critics (see critics.ts for what they judge). */


export type EntityMatch = { kind: 'exact'; entity: string } | { kind: 'near'; entity: string; window: string } | { kind: 'none' };

/** "Jun" for "June", "Wed" for "Wednesday": a single-word prefix of ≥ 3 letters is an abbreviation, not another item. */
export function isAbbreviation(window: string, entity: string): boolean {
  const w = tokens(window);
  const e = tokens(entity);
  return w.length === 1 && e.length === 1 && (w[0] ?? '').length >= 3 && (e[0] ?? '').startsWith(w[0] ?? '\0');
}

export function matchEntities(text: string, entities: readonly string[]): EntityMatch {
  for (const e of entities) if (containsPhrase(text, e) || isAbbreviation(text, e)) return { kind: 'exact', entity: e };
  let best: { entity: string; window: string; sim: number } | undefined;
  for (const e of entities) {
    if (tokens(e).join('').length < 4) continue; // numbers and short words are too ambiguous to call near-duplicates
    const w = bestWindow(text, e);
    if (w.sim >= NEAR && !isAbbreviation(w.window, e) && (!best || w.sim > best.sim)) best = { entity: e, window: w.window, sim: w.sim };
  }
  return best ? { kind: 'near', entity: best.entity, window: best.window } : { kind: 'none' };
}

/**
 * Matches a tapped line against the entities, knowing the rest of the screen: a line that contains an entity
 * plus more words ("Gym class" for "Gym", "Work late shift" for "Work") is a different, longer-named item
 * when another line of the same screen is exactly the entity.
 */
export function matchTarget(target: string, entities: readonly string[], screen: readonly OcrLine[]): EntityMatch {
  const m = matchEntities(target, entities);
  // Numbers are not names: "3 items" is no rival of the quantity "3".
  if (m.kind !== 'exact' || /^[$€£]?\d[\d.,:]*$/.test(m.entity.trim())) return m;
  const t = contentTokens(target).join(' ');
  const e = contentTokens(m.entity).join(' ');
  if (t === e) return m;
  // A sentence about the entity ("Lisinopril 20 mg will be ready tomorrow", "Gym is on"): the entity, then a verb of
  // being, having or modality — the same item described, not a longer name.
  const after = target.trim().slice(target.toLowerCase().indexOf(m.entity.toLowerCase()) + m.entity.length).trim();
  if (target.toLowerCase().trim().startsWith(m.entity.toLowerCase()) && /^(?:will|is|was|are|were|has|have|had|can|could|should|may|might|must|needs?)\b/i.test(after)) return m;
  const exactElsewhere = screen.some((l) => l.text !== target && contentTokens(l.text).join(' ') === e);
  return exactElsewhere ? { kind: 'near', entity: m.entity, window: target } : m;
}

/**
 * An entity that begins with the request's first word, which no screen line shows whole while one shows the rest
 * of it: that first word was the request's verb, not part of the name ("Borrow Circe" → "Circe" when a screen
 * lists "Circe" and none "Borrow Circe" — a verb the entity reader does not know). A name some screen shows whole
 * is kept ("Sushi Zen" in "Sushi Zen's menu"). `instruction` is the request core.
 */
export function groundEntities(instruction: string, entities: readonly string[], lines: readonly string[]): string[] {
  const first = (instruction.trim().split(/\s+/)[0] ?? '').replace(/[^\p{L}'-]/gu, '');
  const shown = (p: string): boolean => lines.some((l) => containsPhrase(l, p));
  return entities.map((e) => {
    const words = e.trim().split(/\s+/);
    if (words.length < 2 || first === '' || words[0] !== first) return e;
    const rest = words.slice(1).join(' ');
    return !shown(e) && shown(rest) ? rest : e;
  });
}

export function quote(s: string, maxWords = 6): string {
  const w = s.trim().split(/\s+/);
  return `"${w.length > maxWords ? `${w.slice(0, maxWords).join(' ')}…` : w.join(' ')}"`;
}

// ---------------------------------------------------------------- request reading

export function lastUser(request: ChatRequest): ChatMessage | undefined {
  return [...request.messages].reverse().find((m) => m.role === 'user');
}

/** Labelled sections (`Label:` on its own line, or `Label: value`), by label. */
export function sections(text: string, labels: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const re = new RegExp(`^(${labels.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}):[ \\t]*(.*)$`, 'gm');
  const hits = [...text.matchAll(re)];
  hits.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length - (m[2] ?? '').length;
    const end = hits[i + 1]?.index ?? text.length;
    if (!out.has(m[1] ?? '')) out.set(m[1] ?? '', text.slice(start, end).trim());
  });
  return out;
}

export function decodeDataUrl(url: string): Uint8Array | undefined {
  const m = /^data:[^;,]+(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return m ? new Uint8Array(Buffer.from(m[1] ?? '', 'base64')) : undefined;
}

export function parseAction(text: string | undefined): Action | undefined {
  if (!text) return undefined;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    const r = Action.safeParse(JSON.parse(text.slice(start, end + 1)));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

export function reply(content: string): ChatMessage & { finish_reason?: string } {
  return { role: 'assistant', content, finish_reason: 'stop' };
}

// ---------------------------------------------------------------- step critic

export const DESTRUCTIVE =
  /\b(cancel|remove|delete|discard|clear|sign out|log ?out|uninstall|reset|erase|unsubscribe|block|decline|reject|dismiss|back|close|no thanks|undo|withdraw|retract)\b/i;
export const PROGRESS =
  /\b(add to (cart|basket|bag)|add|checkout|check out|place order|order now|buy|pay|confirm|save|submit|send|next|continue|done|ok|search|apply|book|reserve|cart|proceed|create|post|yes|allow|set|select|choose)\b/i;
/** Instructions asking to remove something, and the control words that carry a removal out. */
export const REMOVAL_ASK = /\b(delete|remove|cancel|clear|erase|discard|get rid of|no longer need|withdraw|retract)\b/i;
export const REMOVAL_WORD = /^(cancel|remove|delete|discard|clear|erase|withdraw)$/i;
export const MISTAKE = /\b(instead of|off-task|wrong|by mistake|mistaken|undoing|not requested|deleted|removed|cancell?ed)\b/i;
export const REVERT = /\b(went back|back to|undid|undo|undoing the|returned|restored|recovered|reverted)\b/i;

export interface Screen {
  lines: OcrLine[];
  text: string;
}

export async function ocrScreen(ctx: RoleContext, png: Uint8Array, opts?: { regionOfChange?: boolean }): Promise<Screen> {
  const lines = await ctx.ocr.recognize(png, opts);
  return { lines, text: lines.map((l) => l.text).join('\n') };
}

export type Marks = { p: readonly [number, number]; p2?: readonly [number, number] };

export function marksOf(action: Action): Marks | undefined {
  if (!('coordinate' in action) || !action.coordinate) return undefined;
  return { p: action.coordinate, ...('coordinate2' in action ? { p2: action.coordinate2 } : {}) };
}

export const MARK_RADIUS = 34;

/** Squared distance from (x, y) to the marked point or segment. */
export function markDistance2(m: Marks, x: number, y: number): number {
  const [x1, y1] = m.p;
  const [x2, y2] = m.p2 ?? m.p;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / len2));
  const ex = x - (x1 + t * dx);
  const ey = y - (y1 + t * dy);
  return ex * ex + ey * ey;
}

/** The step-critic request protocol draws marks in pure red at this opacity (critics/step-critic.ts MARK). */
export const MARK_ALPHA = 0.6;

/**
 * Removes the red interaction marks near the action's point so OCR reads the text under them, as a VLM
 * sees through them: reddish pixels within the mark radius are un-blended, U = (P − α·red) / (1 − α).
 */
export async function eraseMarks(png: Uint8Array, m: Marks): Promise<Uint8Array> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const r2 = MARK_RADIUS * MARK_RADIUS;
  const q = m.p2 ?? m.p;
  const x0 = Math.max(0, Math.floor(Math.min(m.p[0], q[0]) - MARK_RADIUS));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(m.p[0], q[0]) + MARK_RADIUS));
  const y0 = Math.max(0, Math.floor(Math.min(m.p[1], q[1]) - MARK_RADIUS));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(m.p[1], q[1]) + MARK_RADIUS));
  const clamp = (v: number): number => Math.max(0, Math.min(255, Math.round(v)));
  let touched = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (markDistance2(m, x, y) > r2) continue;
      const i = (y * width + x) * channels;
      const r = data[i] ?? 0;
      const g = data[i + 1] ?? 0;
      const b = data[i + 2] ?? 0;
      if (r - Math.max(g, b) <= 40) continue;
      data[i] = clamp((r - MARK_ALPHA * 255) / (1 - MARK_ALPHA));
      data[i + 1] = clamp(g / (1 - MARK_ALPHA));
      data[i + 2] = clamp(b / (1 - MARK_ALPHA));
      touched++;
    }
  }
  if (touched === 0) return png;
  return new Uint8Array(await sharp(data, { raw: { width, height, channels } }).png().toBuffer());
}

/** Fraction of pixels that differ, ignoring the annotation marks' own pixels. */
export async function changedFraction(
  a: Uint8Array,
  b: Uint8Array,
  marks: Marks | undefined,
): Promise<number> {
  const [ra, rb] = await Promise.all([
    sharp(a).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
    sharp(b).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
  ]);
  if (ra.info.width !== rb.info.width || ra.info.height !== rb.info.height) return 1;
  const { width, height, channels } = ra.info;
  // Only the drawn marks are ignored (reddish pixels of the annotated before-screen near the action's point),
  // not the whole disk around it: a switch flipped under the ring is a visible effect.
  const masked = (x: number, y: number): boolean => {
    if (marks === undefined || markDistance2(marks, x, y) > MARK_RADIUS * MARK_RADIUS) return false;
    const i = (y * width + x) * channels;
    const r = ra.data[i] ?? 0;
    return r - Math.max(ra.data[i + 1] ?? 0, ra.data[i + 2] ?? 0) > 16;
  };
  let changed = 0;
  let counted = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (masked(x, y)) continue;
      counted++;
      const i = (y * width + x) * channels;
      for (let c = 0; c < channels; c++) {
        if (Math.abs((ra.data[i + c] ?? 0) - (rb.data[i + c] ?? 0)) > 24) {
          changed++;
          break;
        }
      }
    }
  }
  return counted === 0 ? 0 : changed / counted;
}

export function targetLine(lines: readonly OcrLine[], [x, y]: readonly [number, number], scale: number): OcrLine | undefined {
  const dist = (l: OcrLine): number => {
    const dx = Math.max(l.box.x - x, 0, x - (l.box.x + l.box.w));
    const dy = Math.max(l.box.y - y, 0, y - (l.box.y + l.box.h));
    return Math.hypot(dx, dy);
  };
  const ranked = [...lines].sort((a, b) => dist(a) - dist(b));
  const near = ranked[0];
  if (near && dist(near) <= 6 * scale) return near;
  // A tap on the empty part of a row (a menu item, a list row): the text on the same row.
  const row = lines.filter((l) => y >= l.box.y - 8 * scale && y <= l.box.y + l.box.h + 8 * scale).sort((a, b) => dist(a) - dist(b));
  if (row[0]) return row[0];
  if (near && dist(near) <= 40 * scale) return near;
  return undefined;
}

export function newLines(before: Screen, after: Screen): string[] {
  const seen = new Set(before.lines.map((l) => tokens(l.text).join(' ')));
  return after.lines.map((l) => l.text).filter((t) => tokens(t).length > 0 && !seen.has(tokens(t).join(' ')));
}

/**
 * The step closed an overlay (a dialog, picker, sheet or keyboard) and left the page beneath it: the after
 * screen is (almost) all lines the before screen already showed — at most two were uncovered ("Confirm hold"
 * under a picker) — and lines of the before screen are gone. Going to another page shows mostly new lines.
 */
export function closedOverlay(before: Screen, after: Screen): boolean {
  const key = (t: string): string => tokens(t).join(' ');
  const seen = new Set(before.lines.map((l) => key(l.text)));
  const kept = new Set(after.lines.map((l) => key(l.text)));
  const afterLines = after.lines.filter((l) => key(l.text) !== '');
  const uncovered = afterLines.filter((l) => !seen.has(key(l.text))).length;
  const gone = before.lines.filter((l) => key(l.text) !== '' && !kept.has(key(l.text))).length;
  return afterLines.length >= 3 && uncovered <= 2 && uncovered <= afterLines.length / 4 && gone >= 2;
}

export function gainedEntity(before: Screen, after: Screen, entities: readonly string[]): string | undefined {
  return entities.find((e) => containsPhrase(after.text, e) && !containsPhrase(before.text, e));
}
