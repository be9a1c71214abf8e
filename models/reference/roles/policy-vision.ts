/**
 * Reference policy — the one visual cue it reads besides OCR text: on/off switches. A switch is a small pill
 * (about 1.5–2.2 times as wide as tall) near the right edge of a row, filled grey when off and with a
 * saturated colour when on. Found as connected components of "grey" or "saturated" pixels in the right third
 * of the screenshot. Generic (any Material-style switch); nothing app-specific.
 */

export interface SwitchBox {
  x: number;
  y: number;
  w: number;
  h: number;
  on: boolean;
}

/** `data`: raw RGB(A) pixels, `channels` 3 or 4. */
export function detectSwitches(data: Uint8Array, width: number, height: number, channels: number): SwitchBox[] {
  const x0 = Math.floor(width * 0.66);
  const bw = width - x0;
  // 0: nothing, 1: grey (off track), 2: saturated (on track)
  const cls = new Uint8Array(bw * height);
  for (let y = 0; y < height; y++) {
    for (let x = x0; x < width; x++) {
      const i = (y * width + x) * channels;
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      let c = 0;
      if (max - min <= 24 && max >= 150 && max <= 200) c = 1;
      else if (max - min >= 90 && max >= 90) c = 2;
      cls[y * bw + (x - x0)] = c;
    }
  }
  const seen = new Uint8Array(bw * height);
  const out: SwitchBox[] = [];
  const stack: number[] = [];
  const scale = width / 412;
  for (let start = 0; start < cls.length; start++) {
    const c = cls[start]!;
    if (c === 0 || seen[start]) continue;
    let minX = Infinity;
    let maxX = -1;
    let minY = Infinity;
    let maxY = -1;
    let count = 0;
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      const px = p % bw;
      const py = (p - px) / bw;
      count++;
      if (px < minX) minX = px;
      if (px > maxX) maxX = px;
      if (py < minY) minY = py;
      if (py > maxY) maxY = py;
      if (count > 20000) break;
      for (const q of [p - 1, p + 1, p - bw, p + bw]) {
        if (q < 0 || q >= cls.length || seen[q] || cls[q] !== c) continue;
        if ((q === p - 1 && px === 0) || (q === p + 1 && px === bw - 1)) continue;
        seen[q] = 1;
        stack.push(q);
      }
    }
    stack.length = 0;
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    const ratio = w / h;
    // Track of a switch: ~52×30 CSS px; the white knob cuts into it, so the fill is well below the box area.
    if (h >= 20 * scale && h <= 40 * scale && w >= 36 * scale && w <= 72 * scale && ratio >= 1.4 && ratio <= 2.4 && count >= w * h * 0.35 && count <= w * h * 0.9) {
      out.push({ x: minX + x0, y: minY, w, h, on: c === 2 });
    }
  }
  return out;
}

/** A symbol glyph the OCR does not read ("+", "−" on a stepper or a floating button), as an OCR-like line. */
export interface SymbolGlyph {
  text: '+' | '−';
  box: { x: number; y: number; w: number; h: number };
  confidence: number;
}

/**
 * Plus and minus glyphs, read off the pixels (the OCR stand-in reads words, not symbols). Ink is a pixel that stands
 * out from the mean of its 9 × 9 neighbourhood by more than 48 in luminance (white on a red pill or dark on white
 * alike); its connected components are classified by shape: a plus is about square with a full-length bar through
 * the middle both ways and empty corners, a minus a short flat bar. `region` limits the search (default: all).
 * Generic: nothing about any app; a VLM reads these glyphs directly.
 */
export function detectSymbols(
  data: Uint8Array,
  width: number,
  height: number,
  channels: number,
  region: { x: number; y: number; w: number; h: number } = { x: 0, y: 0, w: width, h: height },
): SymbolGlyph[] {
  // (Bold glyphs — a thick "+" in a ringed button — are hollow at their centre to a 9 × 9 window: a wider window reads
  // them whole. Its glyphs add to the first pass's where none of those overlaps.)
  const first = symbolsAt(data, width, height, channels, region, 4);
  const wide = symbolsAt(data, width, height, channels, region, 8).filter((g) => !first.some((f) => Math.abs(f.box.x + f.box.w / 2 - (g.box.x + g.box.w / 2)) < 12 && Math.abs(f.box.y + f.box.h / 2 - (g.box.y + g.box.h / 2)) < 12));
  return [...first, ...wide];
}

function symbolsAt(
  data: Uint8Array,
  width: number,
  height: number,
  channels: number,
  region: { x: number; y: number; w: number; h: number },
  R: number,
): SymbolGlyph[] {
  const rx0 = Math.max(0, Math.floor(region.x));
  const ry0 = Math.max(0, Math.floor(region.y));
  const rw = Math.min(width, Math.ceil(region.x + region.w)) - rx0;
  const rh = Math.min(height, Math.ceil(region.y + region.h)) - ry0;
  if (rw <= 0 || rh <= 0) return [];
  const lum = new Float64Array(rw * rh);
  for (let y = 0; y < rh; y++) {
    for (let x = 0; x < rw; x++) {
      const i = ((y + ry0) * width + (x + rx0)) * channels;
      lum[y * rw + x] = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    }
  }
  // Integral image for 9 × 9 box means.
  const integ = new Float64Array((rw + 1) * (rh + 1));
  for (let y = 0; y < rh; y++) {
    let row = 0;
    for (let x = 0; x < rw; x++) {
      row += lum[y * rw + x]!;
      integ[(y + 1) * (rw + 1) + (x + 1)] = integ[y * (rw + 1) + (x + 1)]! + row;
    }
  }
  const ink = new Uint8Array(rw * rh);
  for (let y = 0; y < rh; y++) {
    const y0 = Math.max(0, y - R);
    const y1 = Math.min(rh, y + R + 1);
    for (let x = 0; x < rw; x++) {
      const x0 = Math.max(0, x - R);
      const x1 = Math.min(rw, x + R + 1);
      const sum = integ[y1 * (rw + 1) + x1]! - integ[y0 * (rw + 1) + x1]! - integ[y1 * (rw + 1) + x0]! + integ[y0 * (rw + 1) + x0]!;
      if (Math.abs(lum[y * rw + x]! - sum / ((y1 - y0) * (x1 - x0))) > 48) ink[y * rw + x] = 1;
    }
  }
  const scale = width / 412;
  const seen = new Uint8Array(rw * rh);
  const out: SymbolGlyph[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    const pts: number[] = [];
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      pts.push(p);
      if (pts.length > 4000) continue;
      const px = p % rw;
      for (const q of [p - 1, p + 1, p - rw, p + rw]) {
        if (q < 0 || q >= ink.length || seen[q] || !ink[q]) continue;
        if ((q === p - 1 && px === 0) || (q === p + 1 && px === rw - 1)) continue;
        seen[q] = 1;
        stack.push(q);
      }
    }
    if (pts.length > 4000 || pts.length < 8) continue;
    let minX = Infinity;
    let maxX = -1;
    let minY = Infinity;
    let maxY = -1;
    for (const p of pts) {
      const x = p % rw;
      const y = (p - x) / rw;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    const box = { x: minX + rx0, y: minY + ry0, w, h };
    const at = (x: number, y: number): boolean => ink[(minY + y) * rw + (minX + x)] === 1 && seen[(minY + y) * rw + (minX + x)] === 1;
    const filled = (x0: number, y0: number, x1: number, y1: number): number => {
      let n = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (at(x, y)) n++;
      return n / Math.max(1, (x1 - x0) * (y1 - y0));
    };
    const ratio = w / h;
    if (w >= 8 * scale && w <= 40 * scale && ratio >= 0.75 && ratio <= 1.33) {
      // Plus: the middle row and the middle column are ink end to end; the four corners are empty.
      const cx = Math.floor(w / 2);
      const cy = Math.floor(h / 2);
      let row = 0;
      let col = 0;
      for (let x = 0; x < w; x++) if (at(x, cy) || (cy > 0 && at(x, cy - 1)) || at(x, Math.min(h - 1, cy + 1))) row++;
      for (let y = 0; y < h; y++) if (at(cx, y) || (cx > 0 && at(cx - 1, y)) || at(Math.min(w - 1, cx + 1), y)) col++;
      const c = Math.max(1, Math.floor(Math.min(w, h) * 0.3));
      const corners = Math.max(filled(0, 0, c, c), filled(w - c, 0, w, c), filled(0, h - c, c, h), filled(w - c, h - c, w, h));
      if (row >= w * 0.9 && col >= h * 0.9 && corners <= 0.12 && pts.length <= w * h * 0.6) out.push({ text: '+', box, confidence: 0.9 });
    } else if (w >= 8 * scale && w <= 40 * scale && h <= 6 * scale && ratio >= 2.5 && pts.length >= w * h * 0.6) {
      out.push({ text: '−', box, confidence: 0.9 });
    }
  }
  return out;
}

/** A stepper read off the pixels: its "−" and "+" glyphs on one row and the count between them (when read). */
export interface Stepper {
  minus: SymbolGlyph;
  plus: SymbolGlyph;
  /** The count shown between the glyphs (read by the OCR, or by a second OCR of that gap); absent when unread. */
  value?: number;
  /** Where the count sits: between the glyphs, as tall as a line of text. */
  gap: { x: number; y: number; w: number; h: number };
}

/**
 * Steppers: a "−" and a "+" glyph on one row (centres within 8 px), 40–220 px apart, the "−" on the left. The count
 * between them is the OCR line in that gap (a digit alone is often below the detector's reach: the caller may read the
 * gap again, enlarged). Generic: every app's − N + control looks so.
 */
export function findSteppers(glyphs: readonly SymbolGlyph[], lines: readonly { text: string; box: { x: number; y: number; w: number; h: number } }[]): Stepper[] {
  const out: Stepper[] = [];
  const cy = (b: { y: number; h: number }): number => b.y + b.h / 2;
  for (const m of glyphs.filter((g) => g.text === '−')) {
    const p = glyphs
      .filter((g) => g.text === '+' && g.box.x > m.box.x + m.box.w && Math.abs(cy(g.box) - cy(m.box)) < 8 && g.box.x - (m.box.x + m.box.w) >= 24 && g.box.x - m.box.x <= 220)
      .sort((a, b) => a.box.x - b.box.x)[0];
    if (!p) continue;
    const gap = { x: m.box.x + m.box.w + 4, y: Math.round(cy(m.box) - 16), w: p.box.x - (m.box.x + m.box.w) - 8, h: 32 };
    const inGap = lines.find((l) => /^\s*\d{1,3}\s*$/.test(l.text) && l.box.x + l.box.w / 2 > gap.x && l.box.x + l.box.w / 2 < gap.x + gap.w && Math.abs(cy(l.box) - cy(gap)) < 14);
    out.push({ minus: m, plus: p, gap, ...(inGap ? { value: Number(inGap.text.trim()) } : {}) });
  }
  // A "+" whose "−" is greyed out at the count's minimum (too faint to read): the count the OCR reads just left of it
  // makes the stepper, its "−" where it mirrors the "+" about the count.
  // (The count itself may be unread — a lone digit —: then a label at the row's left, "Nights", with nothing between it
  // and the "+" makes the stepper, its count read again from the gap by the caller.)
  for (const p of glyphs.filter((g) => g.text === '+' && !out.some((o) => o.plus === g))) {
    const count = lines.find((l) => /^\s*\d{1,3}\s*$/.test(l.text) && Math.abs(cy(l.box) - cy(p.box)) < 10 && p.box.x - (l.box.x + l.box.w) >= 16 && p.box.x - (l.box.x + l.box.w) <= 70);
    const label = lines.find((l) => /[A-Za-z]{3}/.test(l.text) && Math.abs(cy(l.box) - cy(p.box)) < 14 && l.box.x + l.box.w < p.box.x - 110);
    const between = lines.some((l) => l !== count && l !== label && Math.abs(cy(l.box) - cy(p.box)) < 14 && l.box.x + l.box.w > p.box.x - 110 && l.box.x < p.box.x);
    if (!count && (!label || between)) continue;
    const mid = count ? count.box.x + count.box.w / 2 : p.box.x + p.box.w / 2 - 48;
    const minus: SymbolGlyph = { text: '−', box: { x: Math.round(2 * mid - p.box.x - p.box.w), y: p.box.y + Math.round(p.box.h / 2) - 1, w: p.box.w, h: 2 }, confidence: 0.5 };
    const gap = { x: minus.box.x + minus.box.w + 4, y: Math.round(cy(p.box) - 16), w: p.box.x - (minus.box.x + minus.box.w) - 8, h: 32 };
    out.push({ minus, plus: p, gap, ...(count ? { value: Number(count.text.trim()) } : {}) });
  }
  return out;
}

/** A row of rating stars: five or more glyphs of one size, evenly spaced on one line ("☆☆☆☆☆" to tap the n-th). */
export interface StarRow {
  /** Centres of the stars, left to right. */
  stars: [number, number][];
}

/**
 * Rating stars, read off the pixels (the OCR reads no "☆"): connected components of non-background ink (luminance
 * below 232 on a light page), each 16–48 px and about square, filling a third to two thirds of its box (a star's
 * points leave its corners empty); five or more of them on one row, of one size, evenly spaced. Generic: every app's
 * tap-to-rate row looks so; a VLM reads it directly.
 */
export function detectStarRows(data: Uint8Array, width: number, height: number, channels: number): StarRow[] {
  const scale = width / 412;
  const ink = new Uint8Array(width * height);
  for (let i = 0, p = 0; p < width * height; p++, i += channels) {
    const l = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
    if (l < 232) ink[p] = 1;
  }
  const seen = new Uint8Array(width * height);
  const blobs: { x: number; y: number; w: number; h: number; n: number }[] = [];
  const stack: number[] = [];
  for (let start = 0; start < ink.length; start++) {
    if (!ink[start] || seen[start]) continue;
    let n = 0;
    let minX = Infinity, maxX = -1, minY = Infinity, maxY = -1;
    stack.push(start);
    seen[start] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      n++;
      const x = p % width;
      const y = (p - x) / width;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      for (const q of [p - 1, p + 1, p - width, p + width]) {
        if (q < 0 || q >= ink.length || seen[q] || !ink[q]) continue;
        if ((q === p - 1 && x === 0) || (q === p + 1 && x === width - 1)) continue;
        seen[q] = 1;
        stack.push(q);
      }
    }
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    if (w < 16 * scale || w > 48 * scale || h < 16 * scale || h > 48 * scale || w / h < 0.8 || w / h > 1.25) continue;
    const fill = n / (w * h);
    if (fill < 0.3 || fill > 0.7) continue;
    blobs.push({ x: minX, y: minY, w, h, n });
  }
  const rows: StarRow[] = [];
  const used = new Set<number>();
  for (const [i, b] of blobs.entries()) {
    if (used.has(i)) continue;
    const cy = b.y + b.h / 2;
    const row = blobs
      .map((o, j) => ({ o, j }))
      .filter(({ o }) => Math.abs(o.y + o.h / 2 - cy) < 4 * scale && Math.abs(o.w - b.w) <= 3 * scale && Math.abs(o.h - b.h) <= 3 * scale)
      .sort((a, c) => a.o.x - c.o.x);
    if (row.length < 5) continue;
    const gaps = row.slice(1).map(({ o }, k) => o.x - row[k]!.o.x);
    if (Math.max(...gaps) - Math.min(...gaps) > 4 * scale) continue;
    for (const { j } of row) used.add(j);
    rows.push({ stars: row.map(({ o }) => [Math.round(o.x + o.w / 2), Math.round(o.y + o.h / 2)]) });
  }
  return rows;
}
