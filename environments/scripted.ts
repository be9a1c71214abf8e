import type { Locator, Page } from 'playwright-core';
import type { MobileAction } from '../domain/action.js';

/**
 * Helpers for scripted (ground-truth) drivers of the built-in apps in Chromium: they locate an element with
 * Playwright but act only through the agents' mobile actions, so a scripted run is a trajectory an agent could
 * have produced (bench/critics-scripted.ts, the app tests).
 */

/** Elements matching `sel` whose whole text is `text` (surrounding white space aside), as a person reads a label. */
export function byExactText(page: Page, sel: string, text: string): Locator {
  const esc = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return page.locator(sel).filter({ hasText: new RegExp(`^\\s*${esc}\\s*$`) });
}

/** The centre of an element in viewport pixels (the coordinate a click action takes). */
export async function centerOf(loc: Locator): Promise<[number, number]> {
  const box = await loc.boundingBox();
  if (!box) throw new Error('element has no box');
  return [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
}

/** Swipes (like an agent would) until the element's centre is clear of the app bar and the bottom bars. */
export async function revealBySwiping(page: Page, loc: Locator, act: (action: MobileAction) => Promise<unknown>): Promise<void> {
  const fixed = await loc.evaluate((el) => {
    for (let e: Element | null = el; e; e = e.parentElement) if (['fixed', 'sticky'].includes(getComputedStyle(e).position)) return true;
    return false;
  });
  if (fixed) return;
  for (let i = 0; i < 12; i++) {
    const box = await loc.boundingBox();
    if (!box) throw new Error('element has no box');
    const cy = box.y + box.height / 2;
    if (cy >= 110 && cy <= 760) return;
    const down = cy > 760;
    const before = await page.evaluate('scrollY');
    await act({ action: 'swipe', coordinate: [206, down ? 700 : 300], coordinate2: [206, down ? 350 : 650] });
    // At the end of the page: good enough when it is on screen.
    if ((await page.evaluate('scrollY')) === before && cy > 90 && cy < 880) return;
  }
  throw new Error('could not scroll the element into view');
}
