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
