import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { MobileAction } from '../../domain/action.js';
import type { ObservationRef } from '../../domain/entities.js';
import { EnvError } from '../../domain/ports.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, mapKeyEvent, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import type { FoodState } from '../../environments/apps/food/state.js';
import { MemoryBlobStore } from './memory-blobs.js';

interface TreeNode {
  role: string;
  name: string;
  bounds: [number, number, number, number];
  value?: string;
  focused?: boolean;
  obscured?: boolean;
}

let server: AppServer;
let env: ChromiumEnv;
const blobs = new MemoryBlobStore();
const latencies: number[] = [];

beforeAll(async () => {
  server = await startAppServer();
  env = await createChromiumEnv({ appServer: server, blobs, maxWaitMs: 400 });
}, 30_000);

afterAll(async () => {
  await env?.close();
  await server?.close();
  const sorted = [...latencies].sort((a, b) => a - b);
  if (sorted.length) console.log(`step latency (click/type/key, action → settled screenshot stored): n=${sorted.length} p50=${sorted[Math.floor(sorted.length / 2)]}ms p90=${sorted[Math.floor(sorted.length * 0.9)]}ms`);
});

async function tree(obs: ObservationRef): Promise<TreeNode[]> {
  expect(obs.uiTreeKey).toBeDefined();
  const json = JSON.parse(new TextDecoder().decode(await blobs.get(obs.uiTreeKey ?? ''))) as { nodes: TreeNode[] };
  return json.nodes;
}
const visibleTexts = async (obs: ObservationRef): Promise<string[]> => (await tree(obs)).filter((n) => !n.obscured).map((n) => n.name);
const foodState = async (s: ChromiumSession): Promise<FoodState> => (await s.checkerState()).food as FoodState;

async function step(s: ChromiumSession, action: MobileAction): Promise<ObservationRef> {
  const r = await s.step(action);
  if (['click', 'type', 'key'].includes(action.action)) latencies.push(r.settleMs);
  expect(await blobs.has(r.observation.screenshotKey)).toBe(true);
  return r.observation;
}
/** Tap the centre of an element, in screenshot pixels (tests may read the page; agents only get pixels). */
async function tap(s: ChromiumSession, loc: Locator): Promise<ObservationRef> {
  const box = await loc.boundingBox();
  if (!box) throw new Error('element has no box');
  const k = s.deviceScaleFactor;
  return step(s, { action: 'click', coordinate: [Math.round((box.x + box.width / 2) * k), Math.round((box.y + box.height / 2) * k)] });
}
async function freshInApp(seed = 1): Promise<{ s: ChromiumSession; obs: ObservationRef }> {
  const s = await env.newSession();
  await s.reset({ app: 'food', seed });
  const obs = await step(s, { action: 'open', text: 'Foodie' });
  return { s, obs };
}
const card = (s: ChromiumSession, name: string): Locator => s.page.locator('a.card', { has: s.page.locator('.name', { hasText: new RegExp(`^${name}$`) }) });

describe('Chromium phone environment', () => {
  it('reset shows the launcher deterministically; open launches the app case-insensitively', async () => {
    const s = await env.newSession();
    const a = await s.reset({ app: 'food', seed: 3 });
    expect([a.width, a.height]).toEqual([412, 915]);
    expect(a.screenshotKey).toMatch(/^sha256\/[0-9a-f]{64}\.png$/);
    expect(await visibleTexts(a)).toEqual(expect.arrayContaining(['Foodie', 'Weather', 'Notes']));
    const open = await step(s, { action: 'open', text: 'fOOdie' });
    expect(await visibleTexts(open)).toContain('Restaurants near you');
    const stateAfterOpen = await foodState(s);
    // Same seed → same state and the same pixels (content-addressed key); another seed → another list order.
    await s.reset({ app: 'food', seed: 3 });
    const again = await step(s, { action: 'open', text: 'Foodie' });
    expect(again.screenshotKey).toBe(open.screenshotKey);
    expect(await foodState(s)).toEqual(stateAfterOpen);
    await s.reset({ app: 'food', seed: 4 });
    const other = await step(s, { action: 'open', text: 'Foodie' });
    expect(other.screenshotKey).not.toBe(open.screenshotKey);
    await s.close();
  });

  it('open of an unknown app throws a recoverable EnvError; a decorative app shows Coming soon', async () => {
    const s = await env.newSession();
    await s.reset({ app: 'food', seed: 1 });
    const err = await s.step({ action: 'open', text: 'Uber Eats' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnvError);
    expect((err as EnvError).message).toMatch(/no app named "Uber Eats".*Foodie/);
    expect((err as EnvError).recoverable).toBe(true);
    expect(await visibleTexts(await step(s, { action: 'open', text: 'weather' }))).toContain('Coming soon');
    await expect(s.reset({ app: 'nope', seed: 1 })).rejects.toBeInstanceOf(EnvError);
    await s.close();
  });

  it('click (tap) on a restaurant opens it; the checker sees the visit', async () => {
    const { s } = await freshInApp(2);
    const first = (await foodState(s)).restaurantOrder[0] ?? '';
    const name = server.apps[0]?.dag.pages.find((p) => p.id === 'home')?.slots[0]?.values.find((v) => v.toLowerCase().replace(/ /g, '_') === first) ?? '';
    expect(name).not.toBe('');
    const obs = await tap(s, card(s, name));
    expect(await visibleTexts(obs)).toEqual(expect.arrayContaining(['Menu', name]));
    expect(await s.check({ app: 'food', family: 'view_menu', params: { restaurant: name } })).toMatchObject({ success: true });
    const notOpened = name === 'Curry House' ? 'Noodle Bar' : 'Curry House';
    expect(await s.check({ app: 'food', family: 'view_menu', params: { restaurant: notOpened } })).toMatchObject({ success: false });
    await s.close();
  });

  it('settles on pending page work: a short timer the tap starts is waited for, with no animation to hint at it', async () => {
    const { s } = await freshInApp(1);
    // A control whose effect arrives 300 ms after the tap, with nothing moving meanwhile: only the pending-timer
    // signal tells the environment the screen is not final yet (a quiet window alone would capture "Waiting").
    await s.page.evaluate(`(() => {
      const b = document.createElement('button');
      b.textContent = 'Waiting';
      b.style.cssText = 'position:fixed;left:100px;top:400px;width:200px;height:80px;z-index:99999';
      b.addEventListener('click', () => setTimeout(() => { b.textContent = 'Arrived'; }, 300));
      document.body.appendChild(b);
    })()`);
    const obs = await step(s, { action: 'click', coordinate: [200, 440] });
    const names = await visibleTexts(obs);
    expect(names).toContain('Arrived');
    expect(names).not.toContain('Waiting');
    await s.close();
  });

  it('swipe scrolls the list so a restaurant below the fold becomes visible and tappable', async () => {
    const { s, obs } = await freshInApp(1);
    const lastId = (await foodState(s)).restaurantOrder.at(-1) ?? '';
    const lastName = (await s.page.locator(`a.card[href$="/r/${lastId}"] .name`).textContent()) ?? '';
    expect((await tree(obs)).some((n) => n.name === lastName)).toBe(false);
    const before = await s.page.evaluate(() => scrollY);
    const swiped = await step(s, { action: 'swipe', coordinate: [206, 750], coordinate2: [206, 250] });
    const after = await s.page.evaluate(() => scrollY);
    expect(after - before).toBeGreaterThan(300);
    const node = (await tree(swiped)).find((n) => n.name === lastName);
    expect(node, `${lastName} visible after swipe`).toBeDefined();
    const [x1, y1, x2, y2] = node?.bounds ?? [0, 0, 0, 0];
    const opened = await step(s, { action: 'click', coordinate: [Math.round((x1 + x2) / 2), Math.round((y1 + y2) / 2)] });
    expect(await visibleTexts(opened)).toContain('Menu');
    expect(await s.check({ app: 'food', family: 'view_menu', params: { restaurant: lastName } })).toMatchObject({ success: true });
    // Swiping down again scrolls back up.
    await step(s, { action: 'system_button', button: 'Back' });
    await step(s, { action: 'swipe', coordinate: [206, 250], coordinate2: [206, 750] });
    expect(await s.page.evaluate(() => scrollY)).toBeLessThan(after);
    await s.close();
  });

  it('type enters text into the focused input; key Enter / KEYCODE_DEL / system_button Enter drive the search', async () => {
    const { s } = await freshInApp(1);
    await tap(s, s.page.getByPlaceholder('Search restaurants'));
    const typed = await step(s, { action: 'type', text: 'Sushix' });
    expect((await tree(typed)).find((n) => n.role === 'searchbox')).toMatchObject({ value: 'Sushix', focused: true });
    await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    const results = await step(s, { action: 'key', text: '66' });
    expect((await foodState(s)).searches.map((x) => x.q)).toEqual(['Sushi']);
    const names = await visibleTexts(results);
    expect(names).toEqual(expect.arrayContaining(['Results for “Sushi”', 'Sushi Zen', 'Sushi Zone']));
    expect(names).not.toContain('Burger Palace');
    await tap(s, s.page.getByPlaceholder('Search restaurants'));
    await s.page.locator('input[name=q]').fill('');
    await step(s, { action: 'type', text: 'burger' });
    await step(s, { action: 'system_button', button: 'Enter' });
    expect((await foodState(s)).searches.map((x) => x.q)).toEqual(['Sushi', 'burger']);
    await tap(s, card(s, 'Burger Palace'));
    expect(await s.check({ app: 'food', family: 'search_restaurant', params: { restaurant: 'Burger Palace' } })).toMatchObject({ success: true });
    expect(await s.check({ app: 'food', family: 'search_restaurant', params: { restaurant: 'Pizza Roma' } })).toMatchObject({ success: false });
    await s.close();
  });

  it('maps adb keyevents', () => {
    expect(mapKeyEvent('KEYCODE_ENTER')).toEqual({ kind: 'key', key: 'Enter' });
    expect(mapKeyEvent('67')).toEqual({ kind: 'key', key: 'Backspace' });
    expect(mapKeyEvent('4')).toEqual({ kind: 'system', button: 'Back' });
    expect(mapKeyEvent('KEYCODE_HOME')).toEqual({ kind: 'system', button: 'Home' });
    expect(mapKeyEvent('KEYCODE_Q')).toEqual({ kind: 'key', key: 'q' });
    expect(mapKeyEvent('36')).toEqual({ kind: 'key', key: 'h' });
    expect(mapKeyEvent('KEYCODE_7')).toEqual({ kind: 'key', key: '7' });
    expect(mapKeyEvent('KEYCODE_WARP_DRIVE')).toBeUndefined();
  });

  it('key with letters types them; unknown keyevent is a recoverable EnvError', async () => {
    const { s } = await freshInApp(1);
    await tap(s, s.page.getByPlaceholder('Search restaurants'));
    for (const k of ['KEYCODE_T', 'KEYCODE_A', '48']) await step(s, { action: 'key', text: k });
    expect(await s.page.locator('input[name=q]').inputValue()).toBe('tat');
    const err = await s.step({ action: 'key', text: 'KEYCODE_WARP_DRIVE' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EnvError);
    await s.close();
  });

  it('long_press on a cart item opens its context menu; Remove empties the cart', async () => {
    const { s } = await freshInApp(1);
    await s.page.goto(`${server.baseUrl}/s/${s.id}/app/food/r/pizza_roma`);
    await tap(s, s.page.getByRole('button', { name: 'Add Tiramisu' }));
    expect((await foodState(s)).cart).toEqual([{ restaurantId: 'pizza_roma', dishId: 'tiramisu', qty: 1 }]);
    await tap(s, s.page.locator('#cartbar'));
    // A short tap on the item does nothing; a long press opens the menu.
    const itemBox = await s.page.locator('[data-line] .dname').boundingBox();
    const at: [number, number] = [Math.round((itemBox?.x ?? 0) + 10), Math.round((itemBox?.y ?? 0) + 5)];
    const tapped = await step(s, { action: 'click', coordinate: at });
    expect(await visibleTexts(tapped)).not.toContain('Remove from cart');
    const pressed = await step(s, { action: 'long_press', coordinate: at, time: 1 });
    expect(await visibleTexts(pressed)).toContain('Remove from cart');
    const removed = await tap(s, s.page.getByRole('menuitem', { name: 'Remove from cart' }));
    expect(await visibleTexts(removed)).toContain('Your cart is empty');
    expect((await foodState(s)).cart).toEqual([]);
    await s.close();
  });

  it('system_button Back walks app history, closes overlays, and leaves the app at its root; Home goes to the launcher', async () => {
    const { s } = await freshInApp(1);
    await tap(s, card(s, 'Taco Fiesta').or(s.page.locator('a.card').first()).first());
    expect(await s.page.locator('body[data-app-root]').count()).toBe(0);
    const menu = await step(s, { action: 'system_button', button: 'Menu' });
    expect(await visibleTexts(menu)).toContain('My orders');
    const closed = await step(s, { action: 'system_button', button: 'Back' });
    expect(await visibleTexts(closed)).not.toContain('My orders');
    expect(await visibleTexts(closed)).toContain('Menu');
    const home = await step(s, { action: 'system_button', button: 'Back' });
    expect(await visibleTexts(home)).toContain('Restaurants near you');
    const launcher = await step(s, { action: 'key', text: 'KEYCODE_BACK' });
    expect(await visibleTexts(launcher)).toContain('Weather');
    await step(s, { action: 'open', text: 'Foodie' });
    await tap(s, s.page.locator('a.card').first());
    const viaHome = await step(s, { action: 'system_button', button: 'Home' });
    expect(await visibleTexts(viaHome)).toEqual(expect.arrayContaining(['Foodie', 'Weather']));
    expect(await s.page.locator('body[data-launcher]').count()).toBe(1);
    await s.close();
  });

  it('wait waits (capped); answer and terminate do not touch the device', async () => {
    const { s, obs } = await freshInApp(1);
    const t0 = Date.now();
    const w = await s.step({ action: 'wait', time: 0.25 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(w.observation.screenshotKey).toBe(obs.screenshotKey);
    // The tree read in the settle probe (reset) and the one read beside the screenshot (wait settles nothing) agree.
    expect(w.observation.uiTreeKey).toBeDefined();
    expect(w.observation.uiTreeKey).toBe(obs.uiTreeKey);
    const t1 = Date.now();
    await s.step({ action: 'wait', time: 30 });
    expect(Date.now() - t1).toBeLessThan(2000); // capped by maxWaitMs: 400
    const before = await s.checkerState();
    const url = s.page.url();
    const a = await s.step({ action: 'answer', text: 'Pizza Roma' });
    const t = await s.step({ action: 'terminate', status: 'success' });
    expect(a.observation.screenshotKey).toBe(obs.screenshotKey);
    expect(t.observation.screenshotKey).toBe(obs.screenshotKey);
    expect(await s.checkerState()).toEqual(before);
    expect(s.page.url()).toBe(url);
    await s.close();
  });

  it('the phone reaches the app server only: other hosts and other local ports are refused', async () => {
    const other = createServer((_req, res) => res.end('reachable'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
    const { s } = await freshInApp(1);
    try {
      const status = (url: string): Promise<string> =>
        s.page.evaluate((u) => fetch(u).then((r) => `ok ${r.status}`, () => 'refused'), url);
      expect(await status(server.baseUrl + '/s/x/')).toMatch(/^ok /);
      expect(await status(otherUrl)).toBe('refused');
      expect(await status('http://example.com/')).toBe('refused');
      // The session still works after refused requests.
      const r = await s.step({ action: 'system_button', button: 'Home' });
      expect(await visibleTexts(r.observation)).toContain('Foodie');
    } finally {
      await s.close();
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  async function orderThroughUi(s: ChromiumSession, restaurant: string, dish: string, qty: number, address: string, payment: string): Promise<ObservationRef> {
    await tap(s, s.page.getByPlaceholder('Search restaurants'));
    await step(s, { action: 'type', text: restaurant });
    await step(s, { action: 'key', text: 'KEYCODE_ENTER' });
    await tap(s, card(s, restaurant));
    await tap(s, s.page.getByRole('button', { name: `Add ${dish}` }));
    for (let i = 1; i < qty; i++) await tap(s, s.page.getByRole('button', { name: `Increase ${dish}` }));
    await tap(s, s.page.locator('#cartbar'));
    await tap(s, s.page.getByText('Go to checkout'));
    await tap(s, s.page.getByPlaceholder('Street and number'));
    const typed = await step(s, { action: 'type', text: address });
    expect((await foodState(s)).checkout.address).toBe(address);
    expect((await tree(typed)).find((n) => n.role === 'textbox')?.value).toBe(address);
    await tap(s, s.page.getByRole('radio', { name: payment }));
    const dialog = await tap(s, s.page.getByRole('button', { name: 'Place order' }));
    expect(await visibleTexts(dialog)).toEqual(expect.arrayContaining(['Confirm order?', 'Confirm', 'Cancel']));
    return tap(s, s.page.getByRole('button', { name: 'Confirm', exact: true }));
  }

  it('order_dish happy path ends on "Order placed" and the checker says success', async () => {
    const { s } = await freshInApp(9);
    const spec = { app: 'food', family: 'order_dish', params: { restaurant: 'Burger Palace', dish: 'Classic Burger', quantity: '2', address: '221 Elm Road', payment: 'Card' } };
    expect(await s.check(spec)).toEqual({ success: false, reason: 'no order was placed' });
    const done = await orderThroughUi(s, 'Burger Palace', 'Classic Burger', 2, '221 Elm Road', 'Card');
    const texts = await visibleTexts(done);
    const orderNo = (await foodState(s)).orders[0]?.orderNo;
    expect(texts).toEqual(expect.arrayContaining(['Order placed', `Order #${orderNo}`]));
    expect(await s.check(spec)).toMatchObject({ success: true });
    expect(await s.check({ ...spec, params: { ...spec.params, quantity: '3' } })).toMatchObject({ success: false });
    await s.close();
  }, 30_000);

  it('ordering from the near-duplicate restaurant fails the checker', async () => {
    const { s } = await freshInApp(9);
    await orderThroughUi(s, 'Burger Place', 'Classic Burger', 2, '221 Elm Road', 'Card');
    const r = await s.check({ app: 'food', family: 'order_dish', params: { restaurant: 'Burger Palace', dish: 'Classic Burger', quantity: '2', address: '221 Elm Road', payment: 'Card' } });
    expect(r.success).toBe(false);
    expect(r.reason).toMatch(/Burger Place/);
    await s.close();
  }, 30_000);

  it('Place order without an address shows an error and no dialog', async () => {
    const { s } = await freshInApp(1);
    await s.page.goto(`${server.baseUrl}/s/${s.id}/app/food/r/curry_house`);
    await tap(s, s.page.getByRole('button', { name: 'Add Garlic Naan' }));
    await s.page.goto(`${server.baseUrl}/s/${s.id}/app/food/checkout`);
    await tap(s, s.page.getByRole('radio', { name: 'Cash' }));
    const obs = await tap(s, s.page.getByRole('button', { name: 'Place order' }));
    const texts = await visibleTexts(obs);
    expect(texts).toContain('Please enter a delivery address');
    expect(texts).not.toContain('Confirm order?');
    expect((await foodState(s)).orders).toEqual([]);
    await s.close();
  });

  it('scales action coordinates by deviceScaleFactor', async () => {
    const env2 = await createChromiumEnv({ appServer: server, blobs, browser: env.browser, deviceScaleFactor: 2, uiTree: false });
    try {
      const s = await env2.newSession();
      const first = await s.reset({ app: 'food', seed: 1 });
      expect([first.width, first.height]).toEqual([824, 1830]);
      expect(first.uiTreeKey).toBeUndefined();
      await step(s, { action: 'open', text: 'Foodie' });
      await tap(s, s.page.locator('a.card').first());
      expect((await foodState(s)).visits.map((v) => v.page)).toEqual(['home', 'restaurant']);
    } finally {
      await env2.close();
    }
    expect(env.browser.isConnected()).toBe(true);
  });
});
