import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { MobileAction } from '../../domain/action.js';
import type { CheckerSpec } from '../../domain/entities.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { checkApp, getApp } from '../../environments/app-world.js';
import { createChromiumEnv, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import { centerOf, revealBySwiping } from '../../environments/scripted.js';
import { addDays, AVAILABLE_TITLES, initialLibraryState, LOAN_TITLES, ON_LOAN_TITLES } from '../../environments/apps/library/state.js';
import { MemoryBlobStore } from './memory-blobs.js';

let server: AppServer;
let env: ChromiumEnv;
const blobs = new MemoryBlobStore();

beforeAll(async () => {
  server = await startAppServer();
  env = await createChromiumEnv({ appServer: server, blobs, maxWaitMs: 300 });
}, 30_000);

afterAll(async () => {
  await env?.close();
  await server?.close();
});

const step = async (s: ChromiumSession, a: MobileAction): Promise<void> => void (await s.step(a));
async function tap(s: ChromiumSession, loc: Locator): Promise<void> {
  await revealBySwiping(s.page, loc, (a) => step(s, a));
  await step(s, { action: 'click', coordinate: await centerOf(loc) });
}
/** The element whose whole text is `text`. */
const exact = (s: ChromiumSession, sel: string, text: string): Locator =>
  s.page.locator(sel).filter({ hasText: new RegExp(`^\\s*${text.replace(/[()]/g, '\\$&')}\\s*$`) }).filter({ visible: true }).first();
const spec = (family: string, params: Record<string, string>): CheckerSpec => ({ app: 'library', family, params });
const check = async (s: ChromiumSession, sp: CheckerSpec): Promise<boolean> => {
  const w = await s.checkerState();
  return checkApp(w.library, sp, w).success;
};

async function open(seed = 1): Promise<ChromiumSession> {
  const s = await env.newSession();
  await s.reset({ app: 'food', seed });
  await step(s, { action: 'open', text: 'Library' });
  return s;
}

describe('Library app (added after the reference policy was frozen)', () => {
  it('is registered with a DAG whose task families all have checkers, and its slot values name real things', () => {
    const app = getApp('library');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialLibraryState(3);
    for (const t of [...AVAILABLE_TITLES, ...ON_LOAN_TITLES, ...LOAN_TITLES]) expect(st.books.some((b) => b.title === t)).toBe(true);
    expect(AVAILABLE_TITLES.some((t) => LOAN_TITLES.includes(t))).toBe(false);
    expect(addDays('Jun 20', 14)).toBe('Jul 4');
    expect(() => checkApp(st, spec('borrow_book', { book: 'No Such Book' }))).toThrow(/unknown book/);
    expect(() => checkApp(st, spec('place_hold', { title: 'Becoming' }))).toThrow(/missing param "branch"/);
  });

  it('borrows through the confirmation dialog; the near-duplicate is a failure', async () => {
    const s = await open();
    await tap(s, exact(s, '.row .t', 'Dune Messiah'));
    await tap(s, s.page.getByRole('button', { name: 'Borrow' }).first());
    expect(await check(s, spec('borrow_book', { book: 'Dune Messiah' }))).toBe(false);
    await tap(s, s.page.locator('#borrow-ok'));
    expect(await s.page.getByText('Checked out (5)').isVisible()).toBe(true);
    expect(await check(s, spec('borrow_book', { book: 'Dune Messiah' }))).toBe(true);
    expect(await check(s, spec('borrow_book', { book: 'Dune' }))).toBe(false);
    await s.close();
  }, 60_000);

  it('renews one loan (returning it instead fails) and places a hold at the chosen branch', async () => {
    const s = await open(2);
    await tap(s, exact(s, '.tabs a', 'My loans'));
    await tap(s, exact(s, '.row .t', 'The Overstory'));
    await tap(s, exact(s, 'button', 'Renew'));
    expect(await s.page.getByText('Renewed until Jun 20').isVisible()).toBe(true);
    expect(await check(s, spec('renew_loan', { loan: 'The Overstory' }))).toBe(true);
    expect(await check(s, spec('renew_loan', { loan: 'Piranesi' }))).toBe(false);

    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.tabs a', 'Catalog'));
    await tap(s, exact(s, '.row .t', 'Becoming'));
    await tap(s, exact(s, 'a', 'Place hold'));
    await tap(s, s.page.locator('.pick'));
    await tap(s, exact(s, '#branch .opt', 'Riverside Branch'));
    await tap(s, exact(s, 'button', 'Confirm hold'));
    expect(await s.page.getByText('Pickup at Riverside Branch').isVisible()).toBe(true);
    expect(await check(s, spec('place_hold', { title: 'Becoming', branch: 'Riverside Branch' }))).toBe(true);
    expect(await check(s, spec('place_hold', { title: 'Becoming', branch: 'Central Library' }))).toBe(false);
    await s.close();
  }, 60_000);
});
