import { beforeAll, describe, expect, it } from 'vitest';
import { blobOcrStore, createOcrEngine, type OcrEngineWithStats } from '../../models/ocr.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';
import type { OcrLine } from '../../models/reference/types.js';
import { MENU, RESTAURANTS, renderScreen, type TextItem } from './fixtures/screens.js';

const find = (lines: OcrLine[], text: string): OcrLine | undefined =>
  lines.find((l) => l.text.replace(/\s+/g, '').toLowerCase() === text.replace(/\s+/g, '').toLowerCase());

describe('createOcrEngine (PP-OCRv4 via @gutenye/ocr-node, real ONNX)', () => {
  let ocr: OcrEngineWithStats;
  let initMs = 0;
  beforeAll(async () => {
    const t0 = performance.now();
    ocr = await createOcrEngine();
    initMs = performance.now() - t0;
  });

  it('reads lines with axis-aligned boxes in the input image pixels, one box per element (no row merging)', async () => {
    const png = await renderScreen(RESTAURANTS);
    const t0 = performance.now();
    const lines = await ocr.recognize(png);
    const ms = performance.now() - t0;
    console.log(`[ocr] init ${initMs.toFixed(0)} ms; first recognise 412x915 ${ms.toFixed(0)} ms; ${lines.length} lines`);
    // "Restaurants": 24px bold DejaVu at x=20, baseline 60 → roughly x 20..185, y 41..62
    const heading = find(lines, 'Restaurants');
    expect(heading).toBeDefined();
    expect(heading!.box.x).toBeGreaterThanOrEqual(14);
    expect(heading!.box.x).toBeLessThanOrEqual(26);
    expect(heading!.box.x + heading!.box.w).toBeGreaterThan(165);
    expect(heading!.box.x + heading!.box.w).toBeLessThan(200);
    expect(heading!.box.y).toBeGreaterThan(34);
    expect(heading!.box.y + heading!.box.h).toBeLessThan(70);
    const real = find(lines, 'Burger Palace');
    expect(real).toBeDefined();
    expect(real!.box.y + real!.box.h / 2).toBeGreaterThan(200);
    expect(real!.box.y + real!.box.h / 2).toBeLessThan(222);
    expect(find(lines, 'Burger Palace Express')).toBeDefined();
    // a row with a label and a button comes back as two lines
    const menu = await ocr.recognize(await renderScreen(MENU));
    const adds = menu.filter((l) => l.text === 'Add');
    expect(adds).toHaveLength(2);
    expect(find(menu, 'Fries')!.box.x).toBeLessThan(40);
    expect(adds[1]!.box.x).toBeGreaterThan(300);
  });

  it('scales boxes back to the input for a 2x screenshot and with the downscale knob', async () => {
    const big = await renderScreen(RESTAURANTS, { scale: 2 }); // 824x1830
    const full = await ocr.recognize(big);
    const h1 = find(full, 'Restaurants')!;
    expect(h1.box.x).toBeGreaterThan(28);
    expect(h1.box.x).toBeLessThan(52);
    expect(h1.box.x + h1.box.w).toBeGreaterThan(330);

    const small = await createOcrEngine({ maxSide: 960 });
    const t0 = performance.now();
    const down = await small.recognize(big);
    console.log(`[ocr] 824x1830 full ${small.stats.totalInferenceMs.toFixed(0)} ms with maxSide 960 (${(performance.now() - t0).toFixed(0)} ms wall)`);
    const h2 = find(down, 'Restaurants')!;
    expect(Math.abs(h2.box.x - h1.box.x)).toBeLessThan(10);
    expect(Math.abs(h2.box.y - h1.box.y)).toBeLessThan(10);
    expect(Math.abs(h2.box.w - h1.box.w)).toBeLessThan(16);
  });

  it('never OCRs the same bytes twice, and runs one inference at a time', async () => {
    const engine = await createOcrEngine();
    const a = await renderScreen(RESTAURANTS);
    const b = await renderScreen(MENU);
    const results = await Promise.all([engine.recognize(a), engine.recognize(b), engine.recognize(a), engine.recognize(b)]);
    expect(engine.stats.inferences + engine.stats.regionInferences).toBe(2);
    expect(engine.stats.cacheHits).toBe(2);
    expect(engine.stats.maxConcurrent).toBe(1);
    expect(results[2]).toEqual(results[0]);
    const t0 = performance.now();
    await engine.recognize(Buffer.from(a));
    const cachedMs = performance.now() - t0;
    expect(engine.stats.inferences + engine.stats.regionInferences).toBe(2);
    console.log(`[ocr] mean inference ${(engine.stats.totalInferenceMs / engine.stats.inferences).toFixed(0)} ms; cache hit ${cachedMs.toFixed(2)} ms`);
    expect(cachedMs).toBeLessThan(50);
  });

  it('region of change: a frame differing in a few bands is OCR\'d on those bands only, same lines as a full OCR', async () => {
    const engine = await createOcrEngine({ regionOfChange: true });
    const full = await createOcrEngine();
    await engine.recognize(await renderScreen(RESTAURANTS));
    // One row's text changes (as when a character is typed into a field); the rest of the screen is identical.
    const edited = await renderScreen(RESTAURANTS.map((i) => (i.text === 'Sushi Go' ? { ...i, text: 'Sushi Gone' } : i)));
    const t0 = performance.now();
    const partial = await engine.recognize(edited);
    const partialMs = performance.now() - t0;
    expect(engine.stats).toMatchObject({ inferences: 1, regionInferences: 1 });
    const reference = await full.recognize(edited);
    const texts = (ls: OcrLine[]): string[] => ls.map((l) => l.text.replace(/\s+/g, ''));
    expect(texts(partial)).toEqual(texts(reference));
    expect(find(partial, 'Sushi Gone')).toBeDefined();
    expect(find(partial, 'Sushi Go')).toBeUndefined(); // the old line in the changed band is gone
    for (const [a, b] of partial.map((l, i) => [l, reference[i]!] as const)) {
      expect(Math.abs(a.box.y - b.box.y)).toBeLessThanOrEqual(2);
      expect(Math.abs(a.box.x - b.box.x)).toBeLessThanOrEqual(2);
    }
    console.log(`[ocr] region-of-change frame ${partialMs.toFixed(0)} ms vs full ${full.stats.totalInferenceMs.toFixed(0)} ms`);
    // A frame of another size gets a full OCR.
    await engine.recognize(await renderScreen(MENU, { height: 800 }));
    expect(engine.stats).toMatchObject({ inferences: 2, regionInferences: 1 });
    // So does one that changed in more than a third of its bands (a new page).
    const page = (word: string): TextItem[] => Array.from({ length: 40 }, (_, i) => ({ text: `${word} ${i}`, x: 20, y: 30 + i * 22 }));
    await engine.recognize(await renderScreen(page('Alpha'), { height: 915 }));
    await engine.recognize(await renderScreen(page('Omega'), { height: 915 }));
    expect(engine.stats).toMatchObject({ inferences: 4, regionInferences: 1 });
    // Off by default (a policy reads every frame whole); one call can ask for it.
    const onDemand = await createOcrEngine();
    await onDemand.recognize(await renderScreen(RESTAURANTS));
    await onDemand.recognize(edited);
    expect(onDemand.stats).toMatchObject({ inferences: 2, regionInferences: 0 });
    await onDemand.recognize(await renderScreen(RESTAURANTS.map((i) => (i.text === 'Sushi Go' ? { ...i, text: 'Sushi Went' } : i))), { regionOfChange: true });
    expect(onDemand.stats).toMatchObject({ inferences: 2, regionInferences: 1 });
  });

  it('a cache hit makes its frame recent again, so a frame seen long ago still serves region-of-change', async () => {
    const engine = await createOcrEngine();
    const base = await renderScreen(MENU);
    await engine.recognize(base);
    // 70 other frames (more than the 64 remembered) push it out of the recent frames...
    for (let i = 0; i < 70; i++) await engine.recognize(await renderScreen([{ text: `n${i}`, x: 4, y: 20, size: 12 }], { width: 48, height: 32 }));
    await engine.recognize(Buffer.from(base)); // ...a cache hit (the agent's frame, re-read by a critic) brings it back
    const edited = await renderScreen(MENU.map((item, i) => (i === MENU.length - 1 ? { ...item, text: `${item.text}!` } : item)));
    const before = engine.stats.inferences;
    await engine.recognize(edited, { regionOfChange: true });
    expect(engine.stats.inferences).toBe(before);
    expect(engine.stats.regionInferences).toBe(1);
  });

  it('persists results by content hash in a store, per engine settings, and survives a broken store', async () => {
    const blobs = new MemoryBlobStore();
    const png = await renderScreen(MENU);
    const first = await createOcrEngine({ store: blobOcrStore(blobs) });
    const lines = await first.recognize(png);
    expect(await blobs.list('ocr/')).toHaveLength(1);
    const second = await createOcrEngine({ store: blobOcrStore(blobs) });
    expect(await second.recognize(png)).toEqual(lines);
    expect(second.stats).toMatchObject({ inferences: 0, storeHits: 1 });
    // Other settings never read this engine's entries.
    const other = await createOcrEngine({ store: blobOcrStore(blobs), maxSide: 600 });
    await other.recognize(png);
    expect(other.stats).toMatchObject({ inferences: 1, storeHits: 0 });
    expect(await blobs.list('ocr/')).toHaveLength(2);
    // A store that fails on every call only costs the cache: OCR still answers.
    const broken = await createOcrEngine({ store: { get: () => Promise.reject(new Error('down')), put: () => Promise.reject(new Error('down')) } });
    expect(await broken.recognize(png)).toEqual(lines);
  });

  it('rejects bytes that are not an image', async () => {
    await expect(ocr.recognize(new Uint8Array([1, 2, 3]))).rejects.toThrow();
    // and the queue keeps working afterwards
    expect((await ocr.recognize(await renderScreen(MENU))).length).toBeGreaterThan(0);
  });
});
