import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../environments/chromium.js';

export { CHROMIUM_ARGS };

export const VIEWPORT = { width: 360, height: 640 } as const;

const STYLE = `<style>
  body { margin: 0; font-family: 'DejaVu Sans', Arial, sans-serif; background: #fff; color: #111; }
  header { background: #1e6fd9; color: #fff; padding: 14px 16px; font-size: 22px; font-weight: bold; }
  .row { padding: 18px 16px; border-bottom: 1px solid #ddd; font-size: 20px; }
  .sub { color: #555; font-size: 15px; margin-top: 4px; }
  .btn { display: inline-block; margin: 16px; padding: 10px 18px; background: #1e6fd9; color: #fff; border-radius: 6px; font-size: 18px; }
</style>`;

export const PAGES = {
  /** Restaurant list with a near-duplicate distractor. */
  list: `<html><head>${STYLE}</head><body><header>Restaurants</header>
    <div class="row">Burger Place<div class="sub">Fast food - 4.1</div></div>
    <div class="row">Burger Palace<div class="sub">Burgers - 4.7</div></div>
    <div class="row">Sushi Go<div class="sub">Japanese - 4.5</div></div>
    <div class="row">Pizza Hub<div class="sub">Italian - 4.3</div></div>
  </body></html>`,
  /** Menu of the right restaurant. */
  palaceMenu: `<html><head>${STYLE}</head><body><header>Burger Palace</header>
    <div class="row">Menu</div>
    <div class="row">Cheeseburger<div class="sub">$8.99</div></div>
    <div class="row">Veggie Burger<div class="sub">$7.49</div></div>
    <div class="btn">Add to cart</div>
  </body></html>`,
  /** Menu of the near-duplicate restaurant. */
  placeMenu: `<html><head>${STYLE}</head><body><header>Burger Place</header>
    <div class="row">Menu</div>
    <div class="row">Double Burger<div class="sub">$9.49</div></div>
    <div class="row">Fries<div class="sub">$2.99</div></div>
  </body></html>`,
  /** Order confirmation after adding and checking out. */
  confirmation: `<html><head>${STYLE}</head><body><header>Checkout</header>
    <div class="row">Order placed</div>
    <div class="row">1 x Cheeseburger<div class="sub">Burger Palace</div></div>
    <div class="row">Total $8.99</div>
  </body></html>`,
} as const;

const ROWS = `<style>
  body { margin: 0; font-family: 'DejaVu Sans', Arial, sans-serif; background: #fff; color: #111; }
  header { background: #1e6fd9; color: #fff; height: 56px; line-height: 56px; padding: 0 16px; font-size: 22px; font-weight: bold; }
  .r { box-sizing: border-box; height: 64px; display: flex; align-items: center; justify-content: space-between; padding: 0 16px; border-bottom: 1px solid #ddd; font-size: 20px; }
  .sw { width: 52px; height: 30px; border-radius: 15px; background: #adb5bd; position: relative; }
  .sw:after { content: ''; position: absolute; top: 3px; left: 3px; width: 24px; height: 24px; border-radius: 12px; background: #fff; }
  .sw.on { background: #1e6fd9; } .sw.on:after { left: 25px; }
  .chip { display: inline-block; margin: 8px 4px; padding: 8px 14px; border: 1px solid #888; border-radius: 16px; font-size: 18px; }
</style>`;

/** A list of named alarms with switches at the row ends (row i's centre is y = 56 + 64·i + 32). */
export function alarms(on: Readonly<Record<string, boolean>>): string {
  const rows = ['Gym', 'Gym class', 'Weekend'].map((n) => `<div class="r"><span>${n}</span><span class="sw${on[n] ? ' on' : ''}"></span></div>`);
  return `<html><head>${ROWS}</head><body><header>Alarms</header>${rows.join('')}</body></html>`;
}

/** Pages for the generic completion evidence: an event page, a month picker. */
export const MORE_PAGES = {
  event: `<html><head>${ROWS}</head><body><header>Event</header><div class="r">Book Club</div><div class="r">Thursday 19:00</div><div class="r">Delete event</div></body></html>`,
  deleteDialog: `<html><head>${ROWS}</head><body><header>Event</header><div class="r">Delete this event?</div><div class="r">Cancel</div><div class="r">Delete</div></body></html>`,
  months: `<html><head>${ROWS}</head><body><header>New event</header><div><span class="chip">May</span><span class="chip">Jun</span><span class="chip">Jul</span></div><div class="r">Date: not set</div></body></html>`,
  monthPicked: `<html><head>${ROWS}</head><body><header>New event</header><div><span class="chip">May</span><span class="chip" style="background:#1e6fd9;color:#fff">Jun</span><span class="chip">Jul</span></div><div class="r">Date: June</div></body></html>`,
  checkout: `<html><head>${ROWS}</head><body><header>Checkout</header><div class="r">Delivery address</div><div class="r">Card</div><div class="r">Cash</div><div class="r">Place order</div></body></html>`,
  checkoutFocused: `<html><head>${ROWS}</head><body><header>Checkout</header><div class="r" style="outline:2px solid #1e6fd9">Delivery address</div><div class="r">Card</div><div class="r">Cash</div><div class="r">Place order</div><div class="r">q w e r t y u i o p</div></body></html>`,
} as const;

/** Switch centre of alarm row `i`, and a month chip. */
export const ROW_TAPS = {
  switchOf: (i: number): [number, number] => [318, 56 + 64 * i + 32],
  rowText: (i: number): [number, number] => [40, 56 + 64 * i + 32],
  jun: [110, 76] as [number, number],
};

/** Centre-ish tap points (viewport pixels) of the list rows. */
export const TAPS = {
  burgerPlace: [80, 84] as const,
  burgerPalace: [80, 167] as const,
  blank: [300, 600] as const,
};

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
}

export async function render(browser: Browser, html: string): Promise<Uint8Array> {
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  try {
    await page.setContent(html, { waitUntil: 'load' });
    return new Uint8Array(await page.screenshot({ type: 'png' }));
  } finally {
    await page.close();
  }
}
