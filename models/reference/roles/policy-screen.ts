import type { OcrLine } from '../types.js';
import type { Goal } from './policy-tasks.js';
import type { SwitchBox } from './policy-vision.js';
import { openConfirmation } from './evidence.js';
import { filledOnScreen, formVisible } from './policy-form.js';
import { FOOD_APP, FOOD_TOPIC, NOT_NAMES, STREET_WORDS, readNotes, type TaskSpec } from './policy-intent.js';

/**
 * Screen evidence for the reference policy: matching OCR lines against targets, rows, fields, switches and
 * steppers, page headers, cart counts, launcher detection and click points. Generic screen conventions only;
 * no app names or data.
 */

export function normText(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}+−]/gu, '');
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Similarity of an OCR line to a target in [0, 1]: exact (after normalisation) 1; containment 0.5..0.9;
 * else 1 − edit ratio, capped at 0.9 so a near-duplicate ("Burger Place") never ties the exact name.
 */
export function matchScore(line: string, target: string): number {
  const l = normText(line);
  const t = normText(target);
  if (!l || !t) return 0;
  if (l === t) return 1;
  const edit = 1 - levenshtein(l, t) / Math.max(l.length, t.length);
  let contain = 0;
  if (l.includes(t)) contain = 0.5 + 0.4 * (t.length / l.length);
  else if (t.includes(l) && l.length >= 4) contain = 0.4 + 0.4 * (l.length / t.length);
  // The whole name of two or more words, then only lower-case words describing it ("Carprofen 25 mg chewable" for
  // "Carprofen 25 mg", "Oak Table oiled"): the same thing. (A capitalised word after it is more name: "Blue Line
  // Express" is not "Blue Line".)
  const tw = target.trim().split(/\s+/);
  const lw = line.trim().split(/\s+/);
  const described =
    tw.length >= 2 && lw.length > tw.length && normText(lw.slice(0, tw.length).join(' ')) === t && lw.slice(tw.length).every((w) => /^[a-z][a-z-]*[,.]?$/.test(w));
  if (described) contain = Math.max(contain, 0.85);
  return Math.min(0.9, Math.max(edit, contain));
}

export interface Candidate {
  line: OcrLine;
  score: number;
}

/**
 * Labels wrapped onto two lines ("Window" over "replacement" in a grid of options): each pair of a short line and the
 * short line right under it, starting at the same x, read as one line with the upper line's box.
 */
export function wrappedLines(lines: readonly OcrLine[]): OcrLine[] {
  const out: OcrLine[] = [];
  for (const l of lines) {
    if (l.text.trim().split(/\s+/).length > 3) continue;
    const m = lines.find((o) => o !== l && Math.abs(o.box.x - l.box.x) <= 8 && o.box.y > l.box.y && o.box.y - (l.box.y + l.box.h) <= 10 && /^[a-z&(]/.test(o.text.trim()) && o.text.trim().split(/\s+/).length <= 3);
    if (m) out.push({ ...l, text: `${l.text.trim()} ${m.text.trim()}` });
  }
  return out;
}

/** A sentence's last words wrapped onto a line of their own: lower-case first, a full stop last ("book.", "pros."). */
export const FRAGMENT = /^[a-z][^.!?]{0,30}\.$/;

export function candidates(lines: OcrLine[], targets: string[], min = 0.6): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    // (Never the end of a sentence wrapped onto a line of its own — "book." under "… too soon to" — whatever it says.)
    if (FRAGMENT.test(line.text.trim())) continue;
    // Earlier targets are preferred alternatives ("Place order" over "Checkout").
    const score = Math.max(...targets.map((t, rank) => matchScore(line.text, t) - 0.03 * rank));
    if (score >= min) out.push({ line, score });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** argmax at T = 0; softmax(10·score/T) sample otherwise. `null` entries stand for "do something else". */
export function pick<T extends { score: number }>(items: T[], temperature: number, random: () => number): T | undefined {
  if (items.length === 0) return undefined;
  if (temperature <= 0) return items.reduce((a, b) => (b.score > a.score ? b : a));
  const max = Math.max(...items.map((i) => i.score));
  const weights = items.map((i) => Math.exp((10 * (i.score - max)) / temperature));
  const total = weights.reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (const [i, w] of weights.entries()) {
    r -= w;
    if (r <= 0) return items[i];
  }
  return items[items.length - 1];
}


export const MONTH_HEADING = /^(January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}$/i;
/** What a finished everyday task shows (a toast or a result page). */
export const APP_RESULTS = ['deleted', 'archived', 'added to favourites', 'added to wishlist', 'verified', 'order confirmed', 'removed', 'pinned'];

/** Lines that name a row: exact 1, "starts with the name" 0.85, else the usual similarity; at least 0.8. */
export function rowCandidates(lines: OcrLine[], target: string, screen: { height: number }): Candidate[] {
  const t = normText(target);
  const out: Candidate[] = [];
  for (const line of lines) {
    if (isHeader(line, screen)) continue;
    const l = normText(line.text);
    // A comma-separated line ("Bluetooth, pairing") is a summary of a section, not a row's name.
    if (line.text.includes(',') && l !== t) continue;
    const score = l === t ? 1 : l.startsWith(t) && t.length >= 3 ? 0.85 : matchScore(line.text, target);
    if (score >= 0.8) out.push({ line, score });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Whole-word matches inside a longer OCR line (chips and grids are often read as one line: "XS S M L XL"). */
export function tokenCandidates(lines: OcrLine[], targets: string[]): Candidate[] {
  lines = lines.filter((l) => !FRAGMENT.test(l.text.trim()));
  const out: Candidate[] = [];
  for (const line of lines) {
    const text = line.text;
    const tokens = [...text.matchAll(/\S+/g)];
    if (tokens.length < 2) continue;
    const short = tokens.filter((t) => normText(t[0]).length <= 3).length / tokens.length;
    for (const [rank, target] of targets.entries()) {
      const tok = tokens.find((t) => normText(t[0]) === normText(target) && normText(target).length > 0);
      if (!tok) continue;
      const x = line.box.x + (line.box.w * (tok.index ?? 0)) / text.length;
      const w = (line.box.w * tok[0].length) / text.length;
      out.push({ line: { text: tok[0], box: { x, y: line.box.y, w, h: line.box.h }, confidence: line.confidence }, score: 0.95 + 0.04 * short - 0.01 * rank });
      break;
    }
  }
  return out;
}

/**
 * Lines that start with the target and go on with what changes between visits — a separator or a number ("View cart"
 * in "View cart · 1 item $14.99", "Cart" in "Cart (2"): guidance names a control by its stable label. Targets need
 * three letters or more (a bare "7" must never take "7:00 AM").
 */
export function prefixCandidates(lines: OcrLine[], targets: string[]): Candidate[] {
  lines = lines.filter((l) => !FRAGMENT.test(l.text.trim()));
  const out: Candidate[] = [];
  for (const line of lines) {
    const l = normText(line.text);
    for (const [rank, target] of targets.entries()) {
      const t = normText(target);
      if ((t.match(/\p{L}/gu) ?? []).length < 3 || !l.startsWith(t) || l === t) continue;
      const rest = line.text.trim().slice(target.trim().length);
      // What follows is a separator, or a number after a space ("Cart 2"; never "Size 4" taking "Size 43").
      if (!/^\s*[·•|([$#-]|^\s+\d/.test(rest) && normText(rest) !== '') continue;
      out.push({ line, score: 0.92 - 0.01 * rank });
      break;
    }
  }
  return out;
}

/** Inputs named by a label or placeholder; exact names first (earlier words preferred), never a Save/Send button. */
export function labelledFields(lines: OcrLine[], words: string[], screen: { height: number }): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    if (isHeader(line, screen) || /^(save|send|done|cancel|delete)\b/i.test(line.text.trim())) continue;
    const score = Math.max(...words.map((w, rank) => (normText(line.text) === normText(w) ? 1 : matchScore(line.text, w) * 0.9) - 0.02 * rank));
    if (score >= 0.78) out.push({ line, score });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** A section line that should lead to the target (contains one of the hints); shorter lines (titles) first. */
export function viaLine(lines: OcrLine[], hints: string[], screen: { height: number }): OcrLine | undefined {
  let best: { line: OcrLine; score: number } | undefined;
  for (const line of lines) {
    // (A line with a number is a value or a status — "15 minutes", "1 class credit" — not a section to open, unless
    // the hint's own name carries that number: "Flat 4B".)
    if (isHeader(line, screen)) continue;
    const l = normText(line.text);
    for (const [rank, h] of hints.entries()) {
      const t = normText(h);
      if (t.length < 3 || !l.includes(t)) continue;
      if (/\d/.test(line.text) && !(/\d/.test(h) && l === t)) continue;
      const score = 1 - 0.05 * rank + 0.3 * (t.length / l.length);
      if (!best || score > best.score) best = { line, score };
    }
  }
  return best?.line;
}

/** The switch on a row: the nearest one vertically, right of the row's label. */
export function switchOf(label: OcrLine, switches: SwitchBox[]): SwitchBox | undefined {
  const cy = label.box.y + label.box.h / 2;
  return switches
    .filter((s) => s.x > label.box.x + label.box.w * 0.5 && Math.abs(s.y + s.h / 2 - cy) < 45)
    .sort((a, b) => Math.abs(a.y + a.h / 2 - cy) - Math.abs(b.y + b.h / 2 - cy))[0];
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A screen line showing the request's date in any common form: "Thursday, June 19" is "Thu, Jun 19", "June 19",
 * "19 Jun" (the month and the day number), never another day of that month.
 */
export function sameDate(line: string, value: string): boolean {
  const v = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b/i.exec(value);
  if (!v) return false;
  const month = v[1]!.toLowerCase();
  const day = Number(v[2]);
  const l = line.toLowerCase();
  const m = new RegExp(`\\b${month}[a-z]*\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b|\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${month}[a-z]*\\b`).exec(l);
  return !!m && Number(m[1] ?? m[2]) === day && MONTH_NAMES.includes(month);
}

/** A short button (≤ 3 words, no question, no number) with one of `words` in it ("Pay and extend" for "extend"). */
function shortButtonWith(l: OcrLine, words: readonly string[]): boolean {
  if (FRAGMENT.test(l.text.trim())) return false;
  const ws = l.text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  return ws.length > 0 && ws.length <= 6 && !/\?\s*$/.test(l.text) && ws.some((w) => words.includes(w));
}

/** A confirmation is open: a short question line with "Cancel"/"No"/"Not now" after it (a dialog waiting for an answer). */
export function confirmationOpen(lines: readonly OcrLine[]): boolean {
  return openConfirmation(lines.map((l) => l.text)) !== undefined;
}

/** A short signature of what the screen shows outside its top bar (to notice that a scroll changed nothing). */
export function screenSig(lines: readonly OcrLine[], screen: { width: number; height: number }): string {
  const text = lines.filter((l) => !isHeader(l, screen)).map((l) => normText(l.text)).join('|');
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(36);
}

/**
 * The affirmative button of an open confirmation: below its question, on the row of its Cancel/No (the dialog's buttons,
 * not the page's behind it), a short label without digits that is not Cancel/No/Back/Close.
 */
/**
 * A status word of a list row ("Booked", "Selected", "Open" at the right of "12-2 PM"): a short line with another line
 * of its row to its left. It says how that row stands, not what the episode did.
 */
export function rowStatus(l: OcrLine, lines: readonly OcrLine[]): boolean {
  const cy = l.box.y + l.box.h / 2;
  return l.text.trim().split(/\s+/).length <= 2 && lines.some((o) => o !== l && o.box.x + o.box.w < l.box.x - 8 && Math.abs(o.box.y + o.box.h / 2 - cy) < 12);
}

export function affirmative(lines: readonly OcrLine[]): { asked: OcrLine; yes: OcrLine } | undefined {
  // (The dialog's "no" may keep what it asks about: "Cancel this booking?" — "Keep booking" / "Yes, cancel".)
  const NO = /^(?:cancel|no|not now|keep(?: \w+){0,2}|go back|never ?mind|dismiss)$/i;
  const asked = confirmationOpen(lines)
    ? lines.find((l) => /\?\s*$/.test(l.text.trim()))
    : lines.find((l) => /\?\s*$/.test(l.text.trim()) && l.text.trim().split(/\s+/).length >= 2 && l.text.trim().split(/\s+/).length <= 8 && lines.some((o) => o.box.y > l.box.y && NO.test(o.text.trim())));
  if (!asked) return undefined;
  const no = lines.find((l) => l.box.y > asked.box.y && NO.test(l.text.trim()));
  const yes = lines
    .filter((l) => l.box.y > asked.box.y + asked.box.h && !!no && Math.abs(l.box.y + l.box.h / 2 - (no.box.y + no.box.h / 2)) < 24 && l !== no && !/^(?:cancel|no|not now|back|close)$/i.test(l.text.trim()))
    // (A button's label starts with a capital: "pen" is a word of the page behind a see-through backdrop, cut off.)
    .filter((l) => (l.text.match(/[A-Za-z]+/g) ?? []).length <= 3 && !/[.,]$/.test(l.text.trim()) && !/\d/.test(l.text) && /^[\p{Lu}✓✔]/u.test(l.text.trim()))
    // (Inside the dialog: not a fragment of the page behind it showing at the screen's edge, left of the dialog's text.)
    .filter((l) => !no || l.box.x >= Math.min(asked.box.x, no.box.x) - 24)
    // (The buttons of one row: the rightmost is the affirmative one, whatever pixel its text starts on.)
    .sort((a, b) => b.box.x - a.box.x)[0];
  return yes ? { asked, yes } : undefined;
}

/**
 * A dialog whose affirmative button did nothing wants an answer first ("Why are you cancelling?" over its reasons):
 * the question nearest above the button, and its first answer line (a short capitalised phrase between them) not
 * tried yet.
 */
export function dialogAnswer(lines: readonly OcrLine[], yes: OcrLine, screen: { width: number }, tried: (l: OcrLine) => boolean = () => false): { ask: OcrLine; answer: OcrLine } | undefined {
  const ask = lines.filter((l) => /\?\s*$/.test(l.text.trim()) && l.box.y < yes.box.y).sort((a, b) => b.box.y - a.box.y)[0];
  if (!ask) return undefined;
  const answer = lines
    .filter((l) => l.box.y > ask.box.y + ask.box.h && l.box.y + l.box.h < yes.box.y - 8 && l.box.x < screen.width * 0.6 && /^[A-Z][A-Za-z' -]+$/.test(l.text.trim()) && l.text.trim().split(/\s+/).length <= 5 && !tried(l))
    .sort((a, b) => a.box.y - b.box.y)[0];
  return answer ? { ask, answer } : undefined;
}

/** Lower-case words of a text without a plural "s" (for matching a switch's label against request words). */
export const stemWords = (text: string): string[] => (text.toLowerCase().match(/[a-z][a-z'-]+/g) ?? []).map((w) => w.replace(/(?<=[^s])s$/, ''));

/**
 * On a thing's own page, the switch named by `words` ("Service alerts" for ["service", "alert"]): a switch whose label —
 * the text line left of it on its row — shares the most of those words (at least one). Undefined when none does.
 */
export function labelledSwitch(lines: OcrLine[], switches: SwitchBox[], words: readonly string[], screen: { height: number }): { sw: SwitchBox; label: OcrLine } | undefined {
  const want = words.flatMap((w) => stemWords(w.replace(/-/g, ' ')));
  // One stem: equal, or the shorter (four letters or more) begins the longer ("auto" / "automatically").
  const fits = (w: string): boolean => want.some((x) => x === w || (Math.min(x.length, w.length) >= 4 && (x.startsWith(w) || w.startsWith(x))));
  let best: { sw: SwitchBox; label: OcrLine; shared: number } | undefined;
  for (const sw of switches) {
    const cy = sw.y + sw.h / 2;
    // The row's text left of the switch: its title and the line under it.
    const row = lines
      .filter((l) => !isHeader(l, screen) && l.box.x + l.box.w <= sw.x + 4 && Math.abs(l.box.y + l.box.h / 2 - cy) < 40)
      .sort((a, b) => a.box.y - b.box.y);
    if (row.length === 0) continue;
    const shared = new Set(row.flatMap((l) => stemWords(l.text.replace(/-/g, ' '))).filter(fits)).size;
    if (shared > 0 && (!best || shared > best.shared)) best = { sw, label: row[0]!, shared };
  }
  return best && { sw: best.sw, label: best.label };
}

/** Is this the page of `target` (its name is the page title in the top bar)? */
export function onPageOf(lines: OcrLine[], target: string, screen: { height: number }): boolean {
  return lines.some((l) => isHeader(l, screen) && matchScore(l.text, target) >= 0.9);
}

/** "−  60%  +" on the row of a label. */
export function stepperOf(label: OcrLine, lines: OcrLine[]): { plus?: OcrLine; minus?: OcrLine; valueLine?: OcrLine; value?: number } | undefined {
  const cy = label.box.y + label.box.h / 2;
  const beside = lines.filter((l) => l !== label && l.box.x > label.box.x + label.box.w && Math.abs(l.box.y + l.box.h / 2 - cy) < 44);
  // Another label further along the row ("Hour 7 | Minute 00") starts its own control: nothing from it on is this row's.
  const nextLabel = Math.min(...beside.filter((l) => /[a-z]{2,}/i.test(l.text)).map((l) => l.box.x));
  const row = beside.filter((l) => l.box.x < nextLabel);
  const plus = row.find((l) => /^\+$/.test(l.text.trim()));
  const minus = row.find((l) => /^[-−–—_]$/.test(l.text.trim()));
  if (!plus && !minus) {
    // Read as one line: "− 60% +".
    const one = row.find((l) => /^[-−–—_=~]?\s*\d+\s*%?\s*[+tf4]?$/.test(l.text.trim()) && /\d/.test(l.text));
    if (!one) return undefined;
    const v = Number(/\d+/.exec(one.text)![0]);
    if (/^\d+\s*%?$/.test(one.text.trim())) {
      // Only the value was read: the − and + buttons flank it.
      const b = one.box;
      return {
        minus: { text: '−', box: { x: b.x - 40, y: b.y, w: 20, h: b.h }, confidence: one.confidence },
        plus: { text: '+', box: { x: b.x + b.w + 20, y: b.y, w: 20, h: b.h }, confidence: one.confidence },
        valueLine: one,
        value: v,
      };
    }
    const third = one.box.w / 3;
    return {
      minus: { text: '−', box: { x: one.box.x, y: one.box.y, w: third * 0.6, h: one.box.h }, confidence: one.confidence },
      plus: { text: '+', box: { x: one.box.x + one.box.w - third * 0.6, y: one.box.y, w: third * 0.6, h: one.box.h }, confidence: one.confidence },
      value: v,
    };
  }
  const valueLine = row.find((l) => /^\d+\s*%?$/.test(l.text.trim()));
  const out: { plus?: OcrLine; minus?: OcrLine; valueLine?: OcrLine; value?: number } = {};
  if (plus) out.plus = plus;
  if (minus) out.minus = minus;
  if (valueLine) {
    out.valueLine = valueLine;
    out.value = Number(/\d+/.exec(valueLine.text)![0]);
  }
  return out;
}

/** The value a row shows: a stepper's number, or the line right under the label. */
function rowValue(label: OcrLine, lines: OcrLine[]): string | undefined {
  const st = stepperOf(label, lines);
  if (st?.value !== undefined) return st.valueLine?.text ?? String(st.value);
  const below = lines
    .filter((l) => l !== label && l.box.y > label.box.y + label.box.h * 0.5 && l.box.y - (label.box.y + label.box.h) < 30 && Math.abs(l.box.x - label.box.x) < 40)
    .sort((a, b) => a.box.y - b.box.y)[0];
  return below?.text;
}

/** A value to remember from the screen: a 6-digit code (preferring a line that says "code"), or a street address. */
export function readValue(lines: OcrLine[], what: 'code' | 'address'): string | undefined {
  if (what === 'code') {
    const withCode = lines.filter((l) => /\bcode\b/i.test(l.text));
    for (const l of [...withCode, ...lines]) {
      const m = /\b(\d{6})\b/.exec(l.text.replace(/(\d)\s(?=\d)/g, '$1'));
      if (m) return m[1];
    }
    return undefined;
  }
  const joined = lines.map((l) => l.text).join(' ');
  const m = new RegExp(`\\b(\\d+[A-Za-z]?\\s+(?:[A-Z][\\w'-]*\\s+){0,3}(?:${STREET_WORDS}))\\b`).exec(joined);
  return m?.[1];
}

/** A search bar's button: "Search" (or "Go", "Find") at the right end of the bar's input. */
const SEARCH_BUTTON = /^(?:search|go|find)$/i;
/** The button at the right end of `input`'s row that runs a search, if any. */
export function searchButtonOf(input: OcrLine, lines: readonly OcrLine[]): OcrLine | undefined {
  const cy = input.box.y + input.box.h / 2;
  return lines.find((b) => b !== input && SEARCH_BUTTON.test(b.text.trim()) && b.box.x >= input.box.x + input.box.w && Math.abs(b.box.y + b.box.h / 2 - cy) < 14);
}
/**
 * The input of a search bar on screen: a placeholder that says so ("Search jobs"), or a short placeholder with a
 * "Search" button at the right end of its row ("Job title or company   Search") — the common phone convention.
 */
export function searchBox(lines: readonly OcrLine[], screen: { height: number }): OcrLine | undefined {
  // (Not the app's tab bar at the foot of the screen: "Home" beside a "Search" tab is no search field.)
  const body = lines.filter((l) => !isHeader(l, screen) && l.box.y < screen.height * 0.88);
  return (
    body.find((l) => /^search\b/i.test(l.text.trim()) && normText(l.text).length > 'search'.length) ??
    body.find((l) => !SEARCH_BUTTON.test(l.text.trim()) && !/\d/.test(l.text) && l.text.trim().split(/\s+/).length <= 8 && searchButtonOf(l, body) !== undefined)
  );
}

/** Words an input for this field is labelled with (placeholder or label). */
export const FIELD_WORDS: Record<string, string[]> = { search: ['search'], address: ['address', 'street'] };

/** Lines in the title bar (top ~9% of the screen, below the status bar): the page's name. */
export function headerLines(lines: OcrLine[], screen: { width: number; height: number }): OcrLine[] {
  return lines.filter((l) => isHeader(l, screen));
}
export function isHeader(l: OcrLine, screen: { height: number }): boolean {
  const cy = l.box.y + l.box.h / 2;
  return cy > screen.height * 0.035 && cy < screen.height * 0.09;
}

/** "View cart · 2 items", "Cart (2)", "3 items in your bag" → the count. */
export function cartCount(lines: OcrLine[]): number | undefined {
  for (const l of lines) {
    const m = /(\d+)\s*items?\b/i.exec(l.text) ?? /\b(?:cart|basket|bag)\s*\((\d+)\)/i.exec(l.text);
    if (m && !/^items?\s*\(/i.test(l.text.trim())) return Number(m[1]);
  }
  return undefined;
}

/** What on screen shows the task's goal state, if anything. */
export function goalReached(spec: TaskSpec, lines: OcrLine[], header: OcrLine[]): string | undefined {
  if (spec.intent === 'order') {
    const s = lines.find((l) => /order (placed|confirmed|received)|thank(s| you) for your order/i.test(l.text));
    return s ? `"${s.text}"` : undefined;
  }
  if (spec.intent === 'cart') {
    const h = header.find((l) => /cart|basket|bag/i.test(l.text));
    return h ? `the cart ("${h.text}")` : undefined;
  }
  // view / search: the entity's own page is open — its name is the page title. (A near-duplicate title fools this check.)
  const h = header.find((l) => matchScore(l.text, spec.place!) >= 0.85);
  return h ? `the page of "${h.text}"` : undefined;
}

/** A tap goal's targets; with `repeatLast`, also the first word of the label tapped just before ("Request refill" → "Request"). */
export function tapTargets(g: Extract<Goal, { kind: 'tap' }>, history: readonly string[]): string[] {
  const last = g.repeatLast ? /Tapped "([^"]+)"/.exec(history[history.length - 1] ?? '')?.[1]?.split(/\s+/)[0] : undefined;
  return last && last.length > 2 && /^[A-Za-z]/.test(last) ? [...g.targets, last] : g.targets;
}

/** Is goal `i` visibly done already (its screen is past)? Only navigation-like goals are skipped. */
/** A tab of the tab row that is a goal's list of the user's own things ("My tickets"), not tapped yet this episode. */
function ownListTab(g: Extract<Goal, { kind: 'tap' }>, lines: OcrLine[], screen: { width: number; height: number }, history: readonly string[]): OcrLine | undefined {
  return tabRow(lines, screen).find((t) => /^my\s/i.test(t.text.trim()) && g.targets.some((x) => matchScore(t.text, x) >= 0.85) && !history.some((c) => c.includes(`"${t.text.trim()}"`)));
}

export function satisfiedOnScreen(goals: Goal[], i: number, lines: OcrLine[], header: OcrLine[], switches: SwitchBox[] = [], history: string[] = [], screen = { width: 412, height: 915 }): boolean {
  const g = goals[i]!;
  const later = goals.slice(i + 1);
  const laterVisible = (): boolean =>
    later.some((l) =>
      l.kind === 'tap' && l.nav
        ? candidates(lines, l.targets, 0.9).some((c) => !header.includes(c.line))
        : l.kind === 'type' && l.field !== undefined
          ? lines.some((x) => (FIELD_WORDS[l.field!] ?? [l.field!]).some((w) => normText(x.text).includes(normText(w)) && !header.includes(x)))
          : false,
    );
  switch (g.kind) {
    case 'open':
      return false;
    case 'menu':
    case 'press':
      return false;
    case 'read':
      return readNotes(history)[g.what] !== undefined;
    case 'toggle': {
      const row = rowCandidates(lines, g.target, screen)[0];
      const sw = row && switchOf(row.line, switches);
      // On the thing's own page, its switch is the one its label words name ("Service alerts" on "Route 12").
      const own = !sw && g.label?.length && (g.byLabel || onPageOf(lines, g.target, screen)) ? labelledSwitch(lines, switches, g.label, screen) : undefined;
      // The page of the thing, with one switch and no words naming another: that switch is the thing's.
      const only = !sw && !g.label?.length && switches.length === 1 && onPageOf(lines, g.target, screen) ? switches[0] : undefined;
      return own ? own.sw.on === g.on : only ? only.on === g.on : !!sw && sw.on === g.on;
    }
    case 'choose': {
      const row = rowCandidates(lines, g.setting, screen)[0];
      if (!row) return false;
      // A picker dialog titled like the setting lists its options under the title ("Snooze length" / "5 minutes" /
      // … / "Cancel"): the first option is not the setting's value.
      if (lines.some((l) => /^cancel$/i.test(l.text.trim()) && l.box.y > row.line.box.y)) return false;
      const v = rowValue(row.line, lines);
      return v !== undefined && normText(v) === normText(g.value);
    }
    case 'fill': {
      const f = fieldOf(lines, g.hints, g.value, screen, g.avoid, g.minShared);
      return !!f?.value && matchScore(f.value.text, g.value) >= 0.95;
    }
    case 'field':
      return filledOnScreen(g.values, g.index, lines, screen);
    case 'submit':
      return false;
    case 'tap':
      // (Its button was tapped first, on the way to the thing it acts on: "[action first N]", policy.ts.)
      if (history.some((c) => c.includes(`[action first ${i + 1}]`))) return true;
      if (g.form && formVisible(g.form, lines, screen)) return true;
      // (Never while a confirmation is still asked: "Unlock Front Gate?" over a page that says "Unlocked by …" earlier.)
      if (g.doneWhen && !confirmationOpen(lines) && lines.some((l) => g.doneWhen!.test(l.text) && !rowStatus(l, lines))) return true;
      // (Not while the user's own list is a tab not opened yet: the thing shown by name on another tab — a film on the
      // catalog's front page — is not the user's booking of it.)
      if (g.already && lines.some((l) => g.already!.some((a) => normText(l.text) === normText(a))) && !ownListTab(g, lines, screen, history)) return true;
      // (A page's title that says the verb — "Book a visit" over the form — is no button for it.)
      if (g.optional && candidates(lines, tapTargets(g, history), g.min ?? 0.6).filter((c) => !(g.notTitle && isHeader(c.line, screen))).length === 0 && !(g.words && lines.some((l) => !isHeader(l, screen) && shortButtonWith(l, g.words!)))) return true;
      if (g.nav) return header.some((h) => g.nav!.some((k) => normText(h.text).includes(k))) || laterVisible();
      // (Not a title in quotes: a search's results echo the query, '"X"' over the list — the thing's row is still to open.)
      if (g.entity) return header.some((h) => matchScore(h.text, g.targets[0]!) >= 0.85 && !/^["“'‘].*["”'’]$/.test(h.text.trim())) && later.length > 0;
      return false;
    case 'add': {
      const count = cartCount(lines);
      return (count !== undefined && count >= g.qty) || header.some((h) => /cart|basket|checkout/i.test(h.text));
    }
    case 'type':
      // (Not once this goal has typed it: the search box itself then shows the text.)
      if (g.unlessVisible && !history.some((c) => c.includes(`Typed "${g.value}"`)) && lines.some((l) => !header.includes(l) && matchScore(l.text, g.unlessVisible!) >= 0.95)) return true;
      // Typed and still to be submitted: the field's placeholder is gone (it shows the text), yet the goal is not done.
      if (g.submit && history.some((c) => c.includes(`Typed "${g.value}"`))) return false;
      // (An app whose search is a tab of its own — "Home | Search | Library" — searches there, once.)
      if (g.optional && !g.words && g.field && !lines.some((l) => normText(l.text).startsWith(normText(g.field!)) && normText(l.text).length > normText(g.field!).length) && !(g.field === 'search' && searchBox(lines, screen)) && !(g.field === 'search' && !history.some((c) => c.includes('search tab')) && tabRow(lines, screen).some((l) => /^search$/i.test(l.text.trim())))) return true;
      if (g.optional && g.words && !lines.some((l) => g.words!.some((w) => normText(l.text) === normText(w)))) return true;
      return !g.submit && lines.some((l) => matchScore(l.text, g.value) >= 0.9);
  }
}

/**
 * A form field for a value: a short label line (not the title bar, not the value itself) that shares a content
 * word with `hints`, and the line right under it (the field's current value, or the control that opens its picker).
 */
export function fieldOf(lines: OcrLine[], hints: string[], value: string, screen: { height: number }, avoid: readonly string[] = [], minShared = 1): { label: OcrLine; value?: OcrLine } | undefined {
  const stem = (w: string): string => w.toLowerCase().replace(/(?<=[^s])s$/, '');
  const want = new Set(hints.map(stem));
  let best: { label: OcrLine; score: number } | undefined;
  for (const l of lines) {
    // Not the value itself, nor the thing the request is about (a card title that happens to share a word).
    if (isHeader(l, screen) || FRAGMENT.test(l.text.trim()) || matchScore(l.text, value) >= 0.8 || avoid.some((a) => matchScore(l.text, a) >= 0.8)) continue;
    const ws = (l.text.match(/[A-Za-z][A-Za-z'-]+/g) ?? []).map(stem);
    if (ws.length === 0 || ws.length > 4) continue;
    // (OCR may run a label's words together: "Waterevery" is "Water every" — the hint, then a word, not a suffix.)
    const hit = (w: string): boolean =>
      want.has(w) || [...want].some((h) => h.length >= 4 && w.startsWith(h) && w.length - h.length >= 3 && !/^(?:ing|ings|ed|er|ers|es|ly|ment|ments|tion|ful)$/.test(w.slice(h.length)));
    // (The user's own one of a kind — "Preferred store", "Default address" — is the request's "my <kind>" said as a
    // setting: that word counts with the kind.)
    const own = ws.length === 2 && /^(?:preferred|default|primary|usual|favou?rite|main|home)$/.test(ws[0]!) && hit(ws[1]!) ? 1 : 0;
    const shared = ws.filter((w) => w.length > 2 && hit(w)).length + own;
    if (shared >= minShared && (!best || shared > best.score)) best = { label: l, score: shared };
  }
  if (!best) return undefined;
  const label = best.label;
  const below = lines
    .filter((l) => l !== label && l.box.y > label.box.y + label.box.h * 0.5 && l.box.y - (label.box.y + label.box.h) < 40 && Math.abs(l.box.x - label.box.x) < 60)
    .sort((a, b) => a.box.y - b.box.y)[0];
  return below ? { label, value: below } : { label };
}

/** A launcher label that fits a topic (a shopping app looks like "…Shop", "…Mart", "…Store"). */
export function topicLabel(topic: RegExp, lines: OcrLine[]): string | undefined {
  const l = lines.find((x) => topic.test(x.text) && /^[A-Z][\w&' -]{1,20}$/.test(x.text.trim()) && !/\s/.test(x.text.trim()));
  return l?.text.trim();
}

/** A launcher: several short one-word labels on one row (app icons), no title bar. */
export function looksLikeLauncher(lines: OcrLine[], screen: { width: number; height: number }): boolean {
  const labels = lines.filter((l) => /^[A-Z][a-z]+$/.test(l.text.trim()) && l.box.y > screen.height * 0.2);
  const rows = new Map<number, number>();
  for (const l of labels) rows.set(Math.round(l.box.y / 20), (rows.get(Math.round(l.box.y / 20)) ?? 0) + 1);
  return [...rows.values()].some((c) => c >= 3) && headerLines(lines, screen).length === 0;
}

/** The launcher label to open: the named app as spelled on screen, else an icon whose name fits the task's topic. */
export function launcherLabel(target: string | undefined, instruction: string, lines: OcrLine[], temperature: number, random: () => number): string | undefined {
  if (target) {
    const label = pick(candidates(lines, [target], 0.8), temperature, random);
    return label && label.score >= 0.9 ? label.line.text.trim() : target;
  }
  // Any capitalised word of the instruction that is a label on screen.
  const words = new Set((instruction.match(/\b[A-Z][\w&'-]+/g) ?? []).map(normText));
  const named = lines.find((l) => /^[A-Z][\w&' -]{1,20}$/.test(l.text.trim()) && words.has(normText(l.text)) && l.box.h < 30);
  if (named && !NOT_NAMES.has(normText(named.text))) return named.text.trim();
  if (FOOD_TOPIC.test(instruction)) {
    const food = lines.find((l) => FOOD_APP.test(normText(l.text)) && l.text.trim().length <= 20);
    if (food) return food.text.trim();
  }
  return undefined;
}

/** Box centre at T = 0; at T > 0 a point jittered inside the central part of the box. Clamped to the screen. */
export function pointIn(line: OcrLine, screen: { width: number; height: number }, temperature: number, random: () => number): [number, number] {
  const { x, y, w, h } = line.box;
  let px = x + w / 2;
  let py = y + h / 2;
  if (temperature > 0) {
    const spread = Math.min(1, temperature) * 0.6;
    px += (random() - 0.5) * w * spread;
    py += (random() - 0.5) * h * spread;
  }
  return [Math.max(0, Math.min(screen.width - 1, Math.round(px))), Math.max(0, Math.min(screen.height - 1, Math.round(py)))];
}

/**
 * A column of numbered options (a picker's list "1 … 12", "00, 05 … 55"): OCR misses or misreads some single digits
 * beside radio circles, so an option's place is read from its neighbours — the numbers that were read, left-aligned
 * in one column, strictly increasing downwards and evenly spaced per unit (a least-squares fit y = a + b·value).
 */
export interface NumberColumn {
  x: number;
  a: number;
  b: number;
  /** The smallest difference between consecutive values read (1 for hours, 5 for minutes). */
  step: number;
  min: number;
  max: number;
  /** Digits of the values as shown ("05": 2). */
  width: number;
}

export function numberColumns(lines: readonly OcrLine[]): NumberColumn[] {
  const nums = lines.filter((l) => /^\d{1,2}$/.test(l.text.trim())).sort((p, q) => p.box.x - q.box.x);
  const groups: OcrLine[][] = [];
  for (const l of nums) {
    const g = groups.find((gr) => Math.abs(gr[0]!.box.x - l.box.x) <= 12);
    if (g) g.push(l);
    else groups.push([l]);
  }
  const out: NumberColumn[] = [];
  for (const g of groups) {
    if (g.length < 3) continue;
    const pts = g.map((l) => ({ v: Number(l.text.trim()), y: l.box.y + l.box.h / 2, x: l.box.x + l.box.w / 2, t: l.text.trim() })).sort((p, q) => p.y - q.y);
    if (pts.some((p, i) => i > 0 && p.v <= pts[i - 1]!.v)) continue;
    const n = pts.length;
    const mv = pts.reduce((s, p) => s + p.v, 0) / n;
    const my = pts.reduce((s, p) => s + p.y, 0) / n;
    const sxx = pts.reduce((s, p) => s + (p.v - mv) ** 2, 0);
    if (sxx === 0) continue;
    const b = pts.reduce((s, p) => s + (p.v - mv) * (p.y - my), 0) / sxx;
    const a = my - b * mv;
    const step = Math.min(...pts.slice(1).map((p, i) => p.v - pts[i]!.v));
    if (!(b * step >= 12)) continue;
    if (pts.some((p) => Math.abs(a + b * p.v - p.y) > Math.max(6, 0.2 * b * step))) continue;
    out.push({ x: pts.reduce((s, p) => s + p.x, 0) / n, a, b, step, min: pts[0]!.v, max: pts[n - 1]!.v, width: pts.every((p) => p.t.length === 2) ? 2 : 1 });
  }
  return out;
}

/** Where the option `value` of a numbered column sits when OCR did not read it (within 3 steps of the values read). */
export function numberPoint(lines: readonly OcrLine[], value: string, screen: { height: number }): [number, number] | undefined {
  if (!/^\d{1,2}$/.test(value.trim())) return undefined;
  const v = Number(value);
  for (const c of numberColumns(lines)) {
    if ((v - c.min) % c.step !== 0 || v < c.min - 3 * c.step || v > c.max + 3 * c.step) continue;
    if (c.width === 2 && value.trim().length !== 2) continue;
    const y = Math.round(c.a + c.b * v);
    if (y > 0 && y < screen.height) return [Math.round(c.x), y];
  }
  return undefined;
}

/** The option a point of a numbered column designates ("5" for the misread "to" between "4" and "6"), as shown. */
export function numberAt(point: readonly [number, number], lines: readonly OcrLine[]): string | undefined {
  for (const c of numberColumns(lines)) {
    // On the option's row: from a little left of the number to well right of it (a row is tapped anywhere along it).
    if (point[0] < c.x - 60 || point[0] > c.x + 320) continue;
    const v = c.min + Math.round((point[1] - c.a - c.b * c.min) / (c.b * c.step)) * c.step;
    if (v < 0 || v < c.min - 3 * c.step || v > c.max + 3 * c.step) continue;
    if (Math.abs(c.a + c.b * v - point[1]) > 0.35 * c.b * c.step) continue;
    return String(v).padStart(c.width, '0');
  }
  return undefined;
}

/**
 * An app's tab bar: a row of three or more short capitalised labels (one or two words, no digits) across most of the
 * screen's width, in its top fifth (under the title) or bottom sixth. Not the home screen's icon rows. Generic.
 */
export function tabRow(lines: readonly OcrLine[], screen: { width: number; height: number }): OcrLine[] {
  if (looksLikeLauncher([...lines], screen)) return [];
  const cands = lines.filter((l) => !isHeader(l, screen) && l.box.h < 32 && /^[A-Z][A-Za-z&'-]+(?: [A-Za-z&'-]+)?$/.test(l.text.trim()) && (l.box.y < screen.height * 0.2 || l.box.y > screen.height * 0.84) && l.box.y > screen.height * 0.05);
  const rows = new Map<number, OcrLine[]>();
  for (const l of cands) {
    const key = [...rows.keys()].find((k) => Math.abs(k - (l.box.y + l.box.h / 2)) < 10) ?? l.box.y + l.box.h / 2;
    rows.set(key, [...(rows.get(key) ?? []), l]);
  }
  const row = [...rows.values()].filter((r) => r.length >= 3 && r.length <= 6).sort((a, b) => b.length - a.length)[0];
  if (!row) return [];
  const xs = row.map((l) => l.box.x).sort((a, b) => a - b);
  const span = xs[xs.length - 1]! + row.find((l) => l.box.x === xs[xs.length - 1])!.box.w - xs[0]!;
  return span >= screen.width * 0.6 ? row.sort((a, b) => a.box.x - b.box.x) : [];
}
