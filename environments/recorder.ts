import type { Page } from 'playwright-core';
import type { MobileAction } from '../domain/action.js';
import type { ObservationRef } from '../domain/entities.js';
import type { BlobStore } from '../domain/ports.js';

/**
 * Records a person demonstrating a task in the browser (the built-in apps are web pages) as a reference trajectory:
 * taps, long presses, swipes and typing become GUI-Owl mobile actions, each with the settled screenshot before and
 * after it (stored by content hash). The page is instrumented with one init script that reports pointer and input
 * events through an exposed binding; nothing in the app changes. Typing is flushed as one `type` action when the
 * person next touches the screen or finishes.
 */

export interface RecordedStep {
  index: number;
  before: ObservationRef;
  after: ObservationRef;
  action: MobileAction;
}

/** Pointer gestures: held this long (ms) without moving = long press; moved this far (px) = swipe. */
export const LONG_PRESS_MS = 500;
export const SWIPE_PX = 24;

interface RawEvent {
  kind: 'tap' | 'text';
  x0?: number;
  y0?: number;
  x1?: number;
  y1?: number;
  ms?: number;
  text?: string;
}

const INIT = `(() => {
  let down = null;
  const rec = (e) => window.__trajforgeRecord && window.__trajforgeRecord(e);
  addEventListener('pointerdown', (e) => { down = { x: e.clientX, y: e.clientY, t: performance.now() }; }, true);
  addEventListener('pointerup', (e) => {
    if (!down) return;
    rec({ kind: 'tap', x0: down.x, y0: down.y, x1: e.clientX, y1: e.clientY, ms: performance.now() - down.t });
    down = null;
  }, true);
  addEventListener('input', (e) => {
    const t = e.target;
    if (t && 'value' in t && typeof e.data === 'string') rec({ kind: 'text', text: e.data });
  }, true);
})();`;

export interface Recorder {
  /** The steps so far (typing still pending is not included until the next touch, `idle` or `finish`). */
  readonly steps: readonly RecordedStep[];
  /**
   * The person paused: waits until every reported event is a step (with its settled after-screenshot), typing
   * included. A person is slower than the screenshot; a scripted "person" must call this between actions.
   */
  idle(): Promise<void>;
  /** Flushes pending typing, waits for the last screenshot, and returns every step. */
  finish(): Promise<RecordedStep[]>;
}

/**
 * Starts recording on `page` (call before the person acts; the init script is added and the page reloaded so it
 * is present). `settleMs`: how long to wait after an action before the post-action screenshot.
 */
export async function startRecorder(page: Page, blobs: BlobStore, opts: { settleMs?: number } = {}): Promise<Recorder> {
  const settleMs = opts.settleMs ?? 300;
  const scale = await page.evaluate('devicePixelRatio') as number;
  const steps: RecordedStep[] = [];
  const observe = async (): Promise<ObservationRef> => {
    const png = await page.screenshot({ type: 'png' });
    const vp = page.viewportSize() ?? { width: 0, height: 0 };
    return { screenshotKey: await blobs.put(new Uint8Array(png), { ext: '.png', contentType: 'image/png' }), width: Math.round(vp.width * scale), height: Math.round(vp.height * scale) };
  };
  let current = await observe();
  let pendingText = '';
  let pendingBefore: ObservationRef | undefined;
  // Events are handled one at a time, in order, so every step's "before" is the previous step's "after".
  let chain: Promise<void> = Promise.resolve();
  const px = (v: number | undefined): number => Math.round((v ?? 0) * scale);
  const push = async (action: MobileAction, before: ObservationRef): Promise<void> => {
    await page.waitForTimeout(settleMs);
    const after = await observe();
    steps.push({ index: steps.length, before, after, action });
    current = after;
  };
  const flushText = async (): Promise<void> => {
    if (!pendingText) return;
    const text = pendingText;
    pendingText = '';
    await push({ action: 'type', text }, pendingBefore ?? current);
    pendingBefore = undefined;
  };
  const handle = async (e: RawEvent): Promise<void> => {
    if (e.kind === 'text') {
      if (!pendingText) pendingBefore = current;
      pendingText += e.text ?? '';
      return;
    }
    await flushText();
    const from: [number, number] = [px(e.x0), px(e.y0)];
    const to: [number, number] = [px(e.x1), px(e.y1)];
    const moved = Math.hypot(to[0] - from[0], to[1] - from[1]) >= SWIPE_PX * scale;
    const action: MobileAction = moved
      ? { action: 'swipe', coordinate: from, coordinate2: to }
      : (e.ms ?? 0) >= LONG_PRESS_MS
        ? { action: 'long_press', coordinate: from, time: Math.round((e.ms ?? 0) / 100) / 10 }
        : { action: 'click', coordinate: from };
    await push(action, current);
  };
  let received = 0;
  await page.exposeBinding('__trajforgeRecord', (_source, e: RawEvent) => {
    received++;
    chain = chain.then(() => handle(e)).catch(() => undefined);
  });
  const idle = async (): Promise<void> => {
    // Bindings arrive asynchronously after the input that caused them: wait until no new event arrives for 100 ms.
    for (let seen = -1; seen !== received; ) {
      seen = received;
      await page.waitForTimeout(100);
      await chain;
    }
    await flushText();
  };
  await page.addInitScript(INIT);
  await page.evaluate(INIT);
  return {
    steps,
    idle,
    async finish() {
      await idle();
      return [...steps];
    },
  };
}
