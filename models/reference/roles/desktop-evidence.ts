import type { OcrLine } from '../types.js';
import { containsPhrase, tokens } from './text-match.js';
import { quote } from './critic-screen.js';
import { evaluateExpression } from '../../../domain/arithmetic.js';

/**
 * Desktop screen evidence for the reference trajectory critics: what a person checking a desktop task would look
 * at, read from screenshots (OCR) and the steps only — the window title (a leading `*` marks unsaved changes), a
 * dialog left open, names shown or gone in a listing, a value in a spreadsheet grid cell (column letters above,
 * row numbers beside), a number on a display. It reads the request by its structure (quoted text, file names,
 * cell references, arithmetic) and knows no application's name or data (the information firewall: no checker).
 */

/** A desktop trajectory: its steps speak the desktop action space (key chords, typing with clear/enter, …). */
export function isDesktopSteps(stepsBlock: string | undefined): boolean {
  return /"keys"\s*:\s*\[|"clear"\s*:|"action"\s*:\s*"(?:double_click|right_click|middle_click|mouse_move|drag)"/.test(stepsBlock ?? '');
}

export interface DesktopEvidence {
  instruction: string;
  /** Text of every screen in order (screen 0 = initial), the final one last. */
  screens: string[];
  finalLines: string[];
  /** Multimodal channel: the OCR lines (with boxes) of the first and the final screenshot. */
  firstOcr?: OcrLine[];
  finalOcr?: OcrLine[];
}

export interface DesktopCompletion {
  complete: boolean;
  reason: string;
}

const FILE = String.raw`([\w][\w.-]*\.[a-z0-9]{1,5})`;
const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
/** "15.50" → 15.5; "1,234" → 1234; undefined when the text is not a number. */
const num = (s: string): number | undefined => {
  const t = s.trim().replace(/,/g, '').replace(/\.$/, '');
  return /^-?\d+(?:\.\d+)?$/.test(t) ? Number(t) : undefined;
};
const same = (a: number, b: number): boolean => Math.abs(a - b) < 1e-6 * Math.max(1, Math.abs(b));

/** The name as a line of its own or whole words of a line, case-insensitive (listings, title bars). */
function showsName(text: string, name: string): boolean {
  const n = norm(name);
  // Whole words only, no stemming: "Drafts" is not "draft.txt".
  return text.split(/\n|\s+\|\s+/).some((l) => norm(l) === n || ` ${norm(l)} `.includes(` ${n} `));
}

/** The title bar marks unsaved changes: a line that starts with `*` before a file name ("*notes.txt - …"). */
function unsavedTitle(lines: readonly string[]): string | undefined {
  return lines.find((l) => /^\s*\*\s*[\w][\w .-]*\.[a-z0-9]{1,5}\b/i.test(l));
}

/** A dialog still open on the final screen: a Cancel button beside a confirming one. */
function openDialog(lines: readonly string[]): string | undefined {
  const set = new Set(lines.map((l) => norm(l)));
  if (!set.has('cancel')) return undefined;
  return [...set].find((l) => /^(save|ok|replace|replace all|find|close|yes|rename|create|delete|move to trash)$/.test(l));
}

/** `B3` → column index 1, row 3. */
function cellRef(ref: string): { col: string; row: number } {
  const m = /^([A-Z]{1,2})(\d+)$/i.exec(ref.trim())!;
  return { col: m[1]!.toUpperCase(), row: Number(m[2]) };
}

/**
 * The spreadsheet grid as seen on screen: column headers (single capital letters in a row near the top) and row
 * numbers (a column of consecutive integers at the left edge); the text at (column, row) is the OCR line whose
 * centre lies in that cell.
 */
function gridReader(lines: readonly OcrLine[]): ((col: string, row: number) => string | undefined) | undefined {
  const centreX = (l: OcrLine): number => l.box.x + l.box.w / 2;
  const centreY = (l: OcrLine): number => l.box.y + l.box.h / 2;
  // Headers: ≥ 4 single-letter lines at about the same height, left to right in alphabetical order.
  // (OCR reads a header "C" as "c" and "O" as "0" at times: letters are taken case-insensitively.)
  const letters = lines.filter((l) => /^[A-Za-z]$/.test(l.text.trim()));
  const rows = new Map<number, OcrLine[]>();
  for (const l of letters) {
    const key = Math.round(centreY(l) / 8);
    rows.set(key, [...(rows.get(key) ?? []), l]);
  }
  const header = [...rows.values()].filter((r) => r.length >= 4).sort((a, b) => b.length - a.length)[0];
  if (!header) return undefined;
  const cols = new Map(header.map((l) => [l.text.trim().toUpperCase(), l]));
  const headerY = Math.max(...header.map((l) => l.box.y + l.box.h));
  // Row numbers: integers left of the first column, below the header.
  const firstX = Math.min(...header.map((l) => l.box.x));
  const rowLabels = lines.filter((l) => /^\d{1,4}$/.test(l.text.trim()) && centreX(l) < firstX && l.box.y > headerY - 2);
  if (rowLabels.length < 3) return undefined;
  const rowByNumber = new Map(rowLabels.map((l) => [Number(l.text.trim()), l]));
  const colWidth = (() => {
    const xs = header.map(centreX).sort((a, b) => a - b);
    const gaps = xs.slice(1).map((x, i) => x - xs[i]!);
    return gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 80;
  })();
  return (col, row) => {
    const h = cols.get(col);
    const r = rowByNumber.get(row);
    if (!h || !r) return undefined;
    const x0 = centreX(h) - colWidth / 2;
    const x1 = centreX(h) + colWidth / 2;
    const cy = centreY(r);
    const inCell = lines.filter((l) => l !== r && centreX(l) >= x0 && centreX(l) < x1 && Math.abs(centreY(l) - cy) <= Math.max(6, r.box.h * 0.6));
    return inCell.map((l) => l.text.trim()).join(' ') || '';
  };
}


/** Whether the final screen shows the number (a line that is that number, e.g. a calculator display). */
function showsNumber(lines: readonly string[], value: number): boolean {
  return lines.some((l) => {
    const v = num(l.replace(/[=\s]+$/g, '').replace(/^[=\s]+/g, ''));
    return v !== undefined && same(v, value);
  });
}

/**
 * Whether a desktop request was carried out, from the final screen (and the first, for what disappeared). Precision
 * first: a request of no shape it knows is not complete.
 */
export function desktopCompletion(ev: DesktopEvidence): DesktopCompletion {
  const text = ev.instruction.trim();
  const final = ev.screens[ev.screens.length - 1] ?? '';
  const first = ev.screens[0] ?? '';
  const lines = ev.finalLines;
  const dialog = openDialog(lines);
  if (dialog) return { complete: false, reason: `a dialog (${quote(dialog)} / "Cancel") is still open on the final screen` };
  const unsaved = unsavedTitle(lines);
  if (unsaved) return { complete: false, reason: `the title ${quote(unsaved)} marks unsaved changes` };

  // Arithmetic: the display shows the result.
  const expr = /(-?\d+(?:\.\d+)?\s*[+×x*÷/−-]\s*-?\d+(?:\.\d+)?)/.exec(text);
  if (expr && /\b(work out|calculate|compute|what is|calculator|press =)\b/i.test(text)) {
    const value = evaluateExpression(expr[1]!);
    if (value === undefined) return { complete: false, reason: `cannot evaluate ${quote(expr[1]!)}` };
    return showsNumber(lines, value)
      ? { complete: true, reason: `the final screen shows ${value}, the value of ${expr[1]}` }
      : { complete: false, reason: `the final screen does not show ${value}, the value of ${expr[1]}` };
  }

  // A value or a column total in a grid cell.
  const sum = /(?:add up|total|sum)\s+(?:of\s+)?column\s+([a-z])\b.*?\b(?:in|into)\s+(?:cell\s+)?([a-z]\d+)/i.exec(text) ?? /select cell ([a-z]\d+), type =sum\(([a-z])\d+:[a-z]\d+\)/i.exec(text);
  const put = /\b(?:put|enter|type|write|set)\s+(-?[\d.]+)\s+(?:into|in|to)\s+(?:cell\s+)?([a-z]\d+)\b/i.exec(text) ?? /select cell ([a-z]\d+), type (-?[\d.]+)/i.exec(text);
  if (sum || put) {
    const target = sum ? cellRef(sum[0].toLowerCase().startsWith('select') ? sum[1]! : sum[2]!) : cellRef(put![0].toLowerCase().startsWith('select') ? put![1]! : put![2]!);
    const ref = `${target.col}${target.row}`;
    let want: number | undefined;
    if (put) want = Number(put[0].toLowerCase().startsWith('select') ? put[2] : put[1]);
    const readFinal = ev.finalOcr ? gridReader(ev.finalOcr) : undefined;
    if (sum) {
      // The total of the column as the first screen shows it (rows 2 … the row above the target).
      const col = (sum[0].toLowerCase().startsWith('select') ? sum[2]! : sum[1]!).toUpperCase();
      const readFirst = ev.firstOcr ? gridReader(ev.firstOcr) : undefined;
      if (!readFirst) return { complete: false, reason: 'no spreadsheet grid can be read on the first screen to total the column' };
      let total = 0;
      for (let r = 2; r < target.row; r++) {
        const v = num(readFirst(col, r) ?? '');
        if (v === undefined) return { complete: false, reason: `cell ${col}${r} is not a number on the first screen` };
        total += v;
      }
      want = total;
    }
    if (!readFinal) return { complete: false, reason: `no spreadsheet grid can be read on the final screen to see ${ref}` };
    const seen = readFinal(target.col, target.row);
    const v = num(seen ?? '');
    return v !== undefined && want !== undefined && same(v, want)
      ? { complete: true, reason: `cell ${ref} shows ${seen} on the final screen, saved` }
      : { complete: false, reason: `cell ${ref} shows ${quote(seen ?? '(nothing)')} on the final screen, not ${want}` };
  }

  // A line added at the end of a document: the final screen shows it.
  const append = /\b(?:add|append)\s+["“](.+?)["”]\s+(?:as the last line|at the end)/i.exec(text) ?? /type (.+?) and save/i.exec(text);
  if (append) {
    // Verbatim, punctuation included: "Plan the lunch" is not the line "Plan the lunch." that was asked for.
    const line = append[1]!.replace(/^["“]|["”]$/g, '').trim();
    const exact = (l: string): boolean => norm(l) === norm(line);
    if (lines.some(exact)) return { complete: true, reason: `the final screen shows the line ${quote(line)} verbatim and no unsaved changes` };
    return containsPhrase(final, line)
      ? { complete: false, reason: `the final screen shows the words of ${quote(line)} but not the line verbatim` }
      : { complete: false, reason: `the final screen does not show the line ${quote(line)}` };
  }

  const saveAs = new RegExp(String.raw`\bsave\b.*?\bas\s+${FILE}`, 'i').exec(text) ?? new RegExp(String.raw`type ${FILE} as the name`, 'i').exec(text);
  if (saveAs) {
    const name = saveAs[1]!;
    return lines.some((l) => norm(l).includes(norm(name)))
      ? { complete: true, reason: `the final screen names ${quote(name)} (the document now saved under it)` }
      : { complete: false, reason: `the final screen does not name ${quote(name)}` };
  }

  const replace = /\b(?:change|replace)\s+(?:the word\s+)?["“]?([\p{L}\d-]+)["”]?\s+(?:to|with|by)\s+["“]?([\p{L}\d-]+)["”]?/iu.exec(text) ?? /search for (\S+), replace with (\S+)/i.exec(text);
  if (replace) {
    const [from, to] = [replace[1]!.replace(/,$/, ''), replace[2]!.replace(/,$/, '')];
    const stillThere = new RegExp(`\\b${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(final);
    if (stillThere) return { complete: false, reason: `the final screen still shows ${quote(from)}` };
    return containsPhrase(final, to)
      ? { complete: true, reason: `the final screen shows ${quote(to)} and no longer ${quote(from)}` }
      : { complete: false, reason: `the final screen does not show ${quote(to)}` };
  }

  const rename = new RegExp(String.raw`\brename\s+${FILE}\s+(?:to|as)\s+${FILE}`, 'i').exec(text) ?? new RegExp(String.raw`click ${FILE}, press f2, type ${FILE}`, 'i').exec(text);
  if (rename) {
    const [from, to] = [rename[1]!, rename[2]!];
    if (!showsName(final, to)) return { complete: false, reason: `the final screen does not list ${quote(to)}` };
    return showsName(final, from) ? { complete: false, reason: `the final screen still lists ${quote(from)}` } : { complete: true, reason: `the final screen lists ${quote(to)} and no longer ${quote(from)}` };
  }

  const move = new RegExp(String.raw`\b(?:move|drag)\s+${FILE}\s+(?:into|to|onto)\s+(?:the\s+)?["“]?([\w .-]+?)["”]?(?:\s+folder)?[.]?$`, 'i').exec(text);
  const del = new RegExp(String.raw`\b(?:delete|remove|get rid of|trash|click)\s+${FILE}`, 'i').exec(text);
  if (move || (del && /\b(delete|remove|get rid|trash)\b/i.test(text))) {
    const name = move ? move[1]! : del![1]!;
    if (!showsName(first, name)) return { complete: false, reason: `the first screen does not list ${quote(name)}, so its disappearance proves nothing` };
    if (move && !showsName(final, move[2]!.trim())) return { complete: false, reason: `the final screen does not show the folder ${quote(move[2]!.trim())}` };
    return showsName(final, name)
      ? { complete: false, reason: `the final screen still lists ${quote(name)}` }
      : { complete: true, reason: `${quote(name)} was listed first and is gone from the final screen` };
  }

  const folder = /\b(?:new folder|folder)\s+(?:called|named)\s+["“]?([\w .-]+?)["”]?(?:\s+in\b|[.]|$)/i.exec(text) ?? /ctrl\+shift\+n, type (.+?) and press enter/i.exec(text);
  if (folder) {
    const name = folder[1]!.trim();
    if (showsName(first, name)) return { complete: false, reason: `${quote(name)} was already listed on the first screen` };
    return showsName(final, name) ? { complete: true, reason: `the final screen lists the new ${quote(name)}` } : { complete: false, reason: `the final screen does not list ${quote(name)}` };
  }

  // Any other request: every quoted or named thing on the final screen.
  const quoted = [...text.matchAll(/["“]([^"”]+)["”]/g)].map((m) => m[1]!);
  if (quoted.length > 0 && quoted.every((q) => containsPhrase(final, q))) return { complete: true, reason: `the final screen shows ${quoted.map((q) => quote(q)).join(', ')}` };
  return { complete: false, reason: `no desktop evidence of completion for this request (${tokens(text).slice(0, 6).join(' ')}…)` };
}
