import sharp from 'sharp';
import { messageImages, messageText } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { OcrLine, RoleHandler } from '../types.js';
import { numberAt } from './policy-screen.js';
import { detectSymbols } from './policy-vision.js';

/**
 * Reference guidance describer (GUI-Owl §6.4 "action description"), a CPU stand-in for a VLM. It reads the action
 * line, finds the magenta ring on the circled pre-action screenshot (the only place it learns WHERE a tap landed: the
 * request carries no coordinates), OCRs the unmarked pre-action and the post-action screenshots and reports the label
 * under the ring, whether the screen changed, and which text appeared.
 */

interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

async function raw(png: Buffer): Promise<Raw> {
  const r = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: r.data, width: r.info.width, height: r.info.height, channels: r.info.channels };
}

/** Magenta: strong red and blue, weak green (anti-aliased ring edges included). */
const isMark = (r: number, g: number, b: number): boolean => r > 170 && b > 170 && g < 110;

/** Centres of the ring(s): magenta pixels clustered by 60-px proximity; each cluster's bounding-box centre. */
export function findMarks(img: Raw): { centres: [number, number][]; mask: Uint8Array } {
  const mask = new Uint8Array(img.width * img.height);
  const clusters: { x0: number; y0: number; x1: number; y1: number; n: number }[] = [];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * img.channels;
      if (!isMark(img.data[i]!, img.data[i + 1]!, img.data[i + 2]!)) continue;
      mask[y * img.width + x] = 1;
      const c = clusters.find((k) => x >= k.x0 - 60 && x <= k.x1 + 60 && y >= k.y0 - 60 && y <= k.y1 + 60);
      if (c) {
        c.x0 = Math.min(c.x0, x);
        c.x1 = Math.max(c.x1, x);
        c.y0 = Math.min(c.y0, y);
        c.y1 = Math.max(c.y1, y);
        c.n++;
      } else clusters.push({ x0: x, y0: y, x1: x, y1: y, n: 1 });
    }
  }
  // A ring of radius ~22 px has ~500 mark pixels; tiny specks are not a mark.
  const centres = clusters.filter((c) => c.n >= 40).map((c): [number, number] => [Math.round((c.x0 + c.x1) / 2), Math.round((c.y0 + c.y1) / 2)]);
  return { centres, mask };
}

/**
 * Share of pixels (outside the mark) that differ by more than 24 in any channel, and the bounding box of those pixels
 * (empty when none differ).
 */
function changedShare(a: Raw, b: Raw, mask: Uint8Array): { share: number; box: { w: number; h: number }; diff?: Uint8Array } {
  if (a.width !== b.width || a.height !== b.height) return { share: 1, box: { w: a.width, h: a.height } };
  const map = new Uint8Array(a.width * a.height);
  let diff = 0;
  let n = 0;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let p = 0; p < a.width * a.height; p++) {
    if (mask[p]) continue;
    n++;
    const i = p * a.channels;
    const j = p * b.channels;
    if (Math.abs(a.data[i]! - b.data[j]!) > 24 || Math.abs(a.data[i + 1]! - b.data[j + 1]!) > 24 || Math.abs(a.data[i + 2]! - b.data[j + 2]!) > 24) {
      diff++;
      map[p] = 1;
      const x = p % a.width;
      const y = (p - x) / a.width;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  return { share: n ? diff / n : 0, box: diff ? { w: x1 - x0 + 1, h: y1 - y0 + 1 } : { w: 0, h: 0 }, diff: map };
}

/** Changed pixels inside a box (of the diff map `changedShare` returns). */
function changedIn(diff: Uint8Array | undefined, width: number, box: { x: number; y: number; w: number; h: number }): number {
  if (!diff) return 0;
  let n = 0;
  const height = diff.length / width;
  for (let y = Math.max(0, box.y); y < Math.min(height, box.y + box.h); y++) for (let x = Math.max(0, box.x); x < Math.min(width, box.x + box.w); x++) n += diff[y * width + x]!;
  return n;
}

/**
 * A visible change: more than 0.2 % of the pixels, or a small glyph-sized change (a counter badge going from 1 to 2:
 * a few dozen pixels in a box at least 5 × 6 px; a blinking text caret, 1–3 px wide, is not one).
 */
export function visiblyChanged(c: { share: number; box: { w: number; h: number } }, pixels: number): boolean {
  if (c.share > 0.002) return true;
  return c.share * pixels >= 20 && c.box.w >= 5 && c.box.h >= 6 && c.box.w <= 80 && c.box.h <= 80;
}

/** The OCR line under (or, failing that, nearest to) a point. */
export function lineAt(lines: OcrLine[], [x, y]: [number, number]): OcrLine | undefined {
  const inside = lines.filter((l) => x >= l.box.x - 8 && x <= l.box.x + l.box.w + 8 && y >= l.box.y - 8 && y <= l.box.y + l.box.h + 8);
  if (inside.length) return inside.sort((p, q) => p.box.w * p.box.h - q.box.w * q.box.h)[0];
  // A tap on a full-width row (a list option, an input box) far from its text: the text on the same row, nearest
  // horizontally (a row's label or an input's placeholder sits on the row's centre line).
  const row = lines
    .filter((l) => y >= l.box.y - 12 && y <= l.box.y + l.box.h + 12 && (l.text.trim().length >= 2 || /^\p{N}$/u.test(l.text.trim())))
    .map((l) => ({ l, d: x < l.box.x ? l.box.x - x : x > l.box.x + l.box.w ? x - l.box.x - l.box.w : 0 }))
    .filter((c) => c.d <= 200)
    .sort((a, b) => a.d - b.d)[0];
  if (row) return row.l;
  let best: OcrLine | undefined;
  let bestD = 48; // px: a tap further than this from any text touched an unlabelled control
  for (const l of lines) {
    const cx = Math.max(l.box.x, Math.min(x, l.box.x + l.box.w));
    const cy = Math.max(l.box.y, Math.min(y, l.box.y + l.box.h));
    const d = Math.hypot(cx - x, cy - y);
    if (d < bestD) {
      bestD = d;
      best = l;
    }
  }
  return best;
}

/** The OCR line whose box (padded 8 px) contains the point, if any. */
function lineInside(lines: OcrLine[], [x, y]: [number, number]): OcrLine | undefined {
  return lines.find((l) => x >= l.box.x - 8 && x <= l.box.x + l.box.w + 8 && y >= l.box.y - 8 && y <= l.box.y + l.box.h + 8);
}

/** A plus or minus glyph within 24 px of the point (policy-vision.ts `detectSymbols`), as an OCR line. */
function symbolAt(img: Raw, [x, y]: [number, number]): OcrLine | undefined {
  const found = detectSymbols(img.data, img.width, img.height, img.channels, { x: x - 40, y: y - 40, w: 80, h: 80 })
    .map((g) => ({ g, d: Math.hypot(g.box.x + g.box.w / 2 - x, g.box.y + g.box.h / 2 - y) }))
    .filter((c) => c.d <= 24)
    .sort((a, b) => a.d - b.d)[0];
  return found ? { text: found.g.text, box: found.g.box, confidence: found.g.confidence } : undefined;
}

const normLabel = (t: string): string => t.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The title of the card or list row a line belongs to: the top line of the left-aligned stack it is in (lines whose
 * left edges align, each within 16 px of the next — a card's name, then its details). A person names a tapped card
 * by its title, not by the price or the description under the finger.
 */
export function titleOf(lines: OcrLine[], hit: OcrLine): OcrLine {
  const stack = [hit];
  for (let grew = true; grew; ) {
    grew = false;
    for (const l of lines) {
      if (stack.includes(l) || Math.abs(l.box.x - hit.box.x) > 14) continue;
      const near = stack.some((m) => {
        const gap = l.box.y >= m.box.y ? l.box.y - (m.box.y + m.box.h) : m.box.y - (l.box.y + l.box.h);
        return gap < 16;
      });
      if (near) {
        stack.push(l);
        grew = true;
      }
    }
  }
  return stack.sort((a, b) => a.box.y - b.box.y)[0]!;
}

/**
 * For a label that appears more than once on the screen (an "Add" on every menu row), the title of the row the touched
 * one is on: the nearest line to its left at about its height (a row's name sits a little above its buttons' centre).
 */
export function rowTitle(lines: OcrLine[], hit: OcrLine, opts: { always?: boolean } = {}): string | undefined {
  if (!opts.always && lines.filter((l) => normLabel(l.text) === normLabel(hit.text)).length < 2) return undefined;
  const cy = hit.box.y + hit.box.h / 2;
  const left = lines
    .filter((l) => l !== hit && l.box.x + l.box.w <= hit.box.x + 4 && normLabel(l.text) !== normLabel(hit.text) && /\p{L}{2}/u.test(l.text))
    .filter((l) => {
      const dy = l.box.y + l.box.h / 2 - cy;
      return dy >= -60 && dy <= 30;
    })
    .sort((a, b) => Math.abs(a.box.y + a.box.h / 2 - cy) - Math.abs(b.box.y + b.box.h / 2 - cy))[0];
  return left ? titleOf(lines, left).text.trim() : undefined;
}

const decode = (url: string): Buffer => {
  const m = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  if (!m) throw new RoleInputError('screenshots must be base64 data: URLs', 'messages');
  return Buffer.from(m[1] ?? '', 'base64');
};

export const guideDescriberRole: RoleHandler = async (request, ctx) => {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!user) throw new RoleInputError('no user message', 'messages');
  const text = messageText(user);
  const action = /Action:\s*(.+)/.exec(text)?.[1]?.trim() ?? '';
  if (!action) throw new RoleInputError('the user message must start with "Action: ..."', 'messages');
  const images = messageImages(user);
  if (images.length < 3) throw new RoleInputError('three screenshots are required (before with the circle, before unmarked, after)', 'messages');
  const { centres, mask } = findMarks(await raw(decode(images[0]!)));
  const beforePng = decode(images[1]!);
  const afterPng = decode(images[2]!);
  const [beforeRaw, afterRaw] = await Promise.all([raw(beforePng), raw(afterPng)]);
  const [beforeLines, afterLines] = await Promise.all([ctx.ocr.recognize(beforePng), ctx.ocr.recognize(afterPng)]);
  const diff = changedShare(beforeRaw, afterRaw, mask);
  const beforeTexts = new Set(beforeLines.map((l) => l.text.trim()));
  const appeared = afterLines.map((l) => l.text.trim()).filter((t) => t && !beforeTexts.has(t));
  // Typing a short value changes few pixels: the typed text appearing on the after screen is a visible change too.
  const typedText = /^type "(.*)"$/.exec(action)?.[1]?.trim().toLowerCase();
  // Text that appeared where pixels changed is a visible change too, however small and far apart the changes are (a
  // stepper's count and the cart total: together neither 0.2 % of the screen nor one glyph-sized box).
  const appearedLines = afterLines.filter((l) => l.text.trim() && !beforeTexts.has(l.text.trim()));
  const changed =
    visiblyChanged(diff, beforeRaw.width * beforeRaw.height) ||
    (!!typedText && appeared.some((t) => t.toLowerCase().includes(typedText))) ||
    appearedLines.some((l) => changedIn(diff.diff, beforeRaw.width, l.box) >= 20);
  const shows = appeared.length ? `; the screen now shows ${appeared.slice(0, 3).map((t) => `"${t}"`).join(', ')}` : changed ? '; the screen changed' : '; nothing visibly changed';

  let target = '';
  let row: string | undefined;
  let description: string;
  const typed = /^type "(.*)"$/.exec(action);
  const opened = /^open the app "(.*)"$/.exec(action);
  if (/circled point/.test(action)) {
    const centre = centres[0];
    if (!centre) description = `${action}, but no circle is visible${shows}`;
    else {
      // A symbol the OCR does not read (a stepper's "+", a "−") under the ring is named by its glyph and its row.
      const glyph = lineInside(beforeLines, centre) ? undefined : symbolAt(beforeRaw, centre);
      const hit = glyph ?? lineAt(beforeLines, centre);
      row = glyph ? rowTitle(beforeLines, glyph, { always: true }) : hit ? rowTitle(beforeLines, hit) : undefined;
      // A label repeated on screen keeps its own text (and names its row); anything else is named by its card's title.
      target = (hit ? (row || glyph ? hit : titleOf(beforeLines, hit)).text.trim() : '') ?? '';
      // In a column of numbered options, the option's number, read from its neighbours where OCR missed or misread it.
      const numbered = !glyph && !/^\d+$/.test(target) ? numberAt(centre, beforeLines) : undefined;
      if (numbered) {
        target = numbered;
        row = undefined;
      }
      const verb = action.startsWith('long press') ? 'long-pressed' : action.startsWith('swipe') ? 'swiped from' : 'tapped';
      description = target ? `${verb} "${target}"${row ? ` on the row of "${row}"` : ''}${shows}` : `${verb} an unlabelled control${shows}`;
    }
  } else if (typed) {
    target = typed[1] ?? '';
    description = `entered "${target}"${shows}`;
  } else if (opened) {
    target = opened[1] ?? '';
    description = `opened ${target}${shows}`;
  } else description = `${action}${shows}`;
  // What the after screen shows, line by line (top to bottom): where a value typed later may have been read.
  const visible = afterLines.map((l) => l.text.trim()).filter(Boolean).slice(0, 80);
  const reply = { target, changed, description, visible, ...(row ? { row } : {}) };
  return { role: 'assistant', content: JSON.stringify(reply), finish_reason: 'stop' };
};
