/**
 * Page faults for the chaos bench, injected from outside the worker through a browser's DevTools port
 * (`TRAJFORGE_CHROMIUM_DEBUG_PORT`): the worker's own code is not told anything.
 */
import { chromium, type Browser } from 'playwright-core';

/**
 * A page that never settles: its DOM changes every frame and every 10 ms, and an infinite animation runs, forever —
 * a ticker, a live clock, a spinner that never stops. Idempotent per document.
 */
export const RESTLESS_PAGE_JS = `(() => {
  if (window.__tfRestless) return;
  window.__tfRestless = true;
  const root = document.documentElement;
  const tick = () => root.setAttribute('data-restless', String(performance.now()));
  const frame = () => { tick(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  setInterval(tick, 10);
  const spin = () => {
    const el = document.createElement('div');
    el.setAttribute('aria-hidden', 'true');
    el.style.cssText = 'position:fixed;right:2px;bottom:2px;width:4px;height:4px;background:#888;opacity:.5;pointer-events:none';
    (document.body || root).appendChild(el);
    el.animate([{ transform: 'rotate(0deg)' }, { transform: 'rotate(360deg)' }], { duration: 700, iterations: Infinity });
  };
  if (document.body) spin(); else addEventListener('DOMContentLoaded', spin, { once: true });
})()`;

export interface RestlessFault {
  /** The URL of the page made restless when it was injected. */
  url: string;
  /** Ends the fault's reach: pages loaded later are no longer made restless (the current document stays restless). */
  release(): Promise<void>;
}

/**
 * Makes one page of the browser behind `debugPort` restless: the one whose URL matches `pick` (the first such page),
 * now and for every document it loads until `release()`. Undefined when no such page exists.
 */
export async function makePageRestless(debugPort: number, pick: (url: string) => boolean): Promise<RestlessFault | undefined> {
  const browser: Browser = await chromium.connectOverCDP(`http://127.0.0.1:${debugPort}`, { timeout: 10_000 });
  try {
    for (const context of browser.contexts()) {
      const page = context.pages().find((p) => pick(p.url()));
      if (!page) continue;
      const url = page.url();
      await context.addInitScript(RESTLESS_PAGE_JS);
      await page.evaluate(RESTLESS_PAGE_JS);
      return { url, release: () => browser.close().catch(() => undefined) };
    }
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
  await browser.close().catch(() => undefined);
  return undefined;
}
