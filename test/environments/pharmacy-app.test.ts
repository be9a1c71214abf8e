import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import type { MobileAction } from '../../domain/action.js';
import type { CheckerSpec } from '../../domain/entities.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { checkApp, getApp } from '../../environments/app-world.js';
import { createChromiumEnv, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import { centerOf, revealBySwiping } from '../../environments/scripted.js';
import { initialPharmacyState, MEDICATIONS, REFILLABLE, REMINDER_ON, STORES } from '../../environments/apps/pharmacy/state.js';
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
/** The visible element whose whole text is `text`. */
const exact = (s: ChromiumSession, sel: string, text: string): Locator =>
  s.page.locator(sel).filter({ hasText: new RegExp(`^\\s*${text.replace(/[()]/g, '\\$&')}\\s*$`) }).filter({ visible: true }).first();
const spec = (family: string, params: Record<string, string>): CheckerSpec => ({ app: 'pharmacy', family, params });
const check = async (s: ChromiumSession, sp: CheckerSpec): Promise<boolean> => {
  const w = await s.checkerState();
  return checkApp(w.pharmacy, sp, w).success;
};

async function open(seed = 1): Promise<ChromiumSession> {
  const s = await env.newSession();
  await s.reset({ app: 'food', seed });
  await step(s, { action: 'open', text: 'Pharmacy' });
  return s;
}

describe('Pharmacy app (added after the reference policy was frozen a second time)', () => {
  it('is registered with a DAG whose task families all have checkers, and its slot values name real things', () => {
    const app = getApp('pharmacy');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialPharmacyState(3);
    for (const m of MEDICATIONS) expect(st.prescriptions.some((p) => p.name === m)).toBe(true);
    expect(REFILLABLE).not.toContain('Levothyroxine 75 mcg');
    // The DAG only asks for the opposite of a reminder's starting position.
    const states = app?.dag.pages.find((p) => p.id === 'reminders')?.slots.find((x) => x.key === 'state')?.dependsOn?.values ?? {};
    for (const m of MEDICATIONS) expect(states[m]).toEqual([REMINDER_ON[m] ? 'Off' : 'On']);
    expect(() => checkApp(st, spec('refill_prescription', { medication: 'Levothyroxine 75 mcg' }))).toThrow(/unknown medication/);
    expect(() => checkApp(st, spec('transfer_prescription', { drug: 'Losartan 50 mg', rx_number: '4820193' }))).toThrow(/missing param "pharmacy"/);
    expect(() => checkApp(st, spec('choose_store', { store: STORES[0]! }))).toThrow(/unknown store/);
  });

  it('requests a refill through the confirmation dialog; the near-duplicate strength is a failure', async () => {
    const s = await open();
    await tap(s, exact(s, '.row .t', 'Lisinopril 20 mg'));
    await tap(s, exact(s, 'button', 'Request refill'));
    expect(await check(s, spec('refill_prescription', { medication: 'Lisinopril 20 mg' }))).toBe(false);
    await tap(s, s.page.locator('#refill-ok'));
    expect(await s.page.getByText('Refill requested · ready tomorrow at Main Street').isVisible()).toBe(true);
    expect(await check(s, spec('refill_prescription', { medication: 'Lisinopril 20 mg' }))).toBe(true);
    expect(await check(s, spec('refill_prescription', { medication: 'Lisinopril 10 mg' }))).toBe(false);
    await s.close();
  }, 60_000);

  it('switches one reminder, picks a store, and validates the transfer form before saving it', async () => {
    const s = await open(2);
    await tap(s, exact(s, '.tabs a', 'Reminders'));
    await tap(s, s.page.getByRole('switch', { name: 'Levothyroxine 50 mcg' }));
    expect(await check(s, spec('switch_reminder', { reminder: 'Levothyroxine 50 mcg', state: 'Off' }))).toBe(true);
    await tap(s, s.page.getByRole('switch', { name: 'Levothyroxine 75 mcg' }));
    expect(await check(s, spec('switch_reminder', { reminder: 'Levothyroxine 50 mcg', state: 'Off' }))).toBe(false);

    await tap(s, exact(s, '.tabs a', 'My store'));
    await tap(s, s.page.locator('.pick'));
    await tap(s, exact(s, '#store .opt', 'Harbor Point'));
    expect(await s.page.getByText('Preferred store updated').isVisible()).toBe(true);
    expect(await check(s, spec('choose_store', { store: 'Harbor Point' }))).toBe(true);
    expect(await check(s, spec('choose_store', { store: 'Riverside Mall' }))).toBe(false);

    await tap(s, exact(s, '.tabs a', 'Prescriptions'));
    await tap(s, exact(s, 'a.primary', 'Transfer a prescription'));
    await tap(s, s.page.locator('#medication'));
    await step(s, { action: 'type', text: 'Gabapentin 300 mg' });
    await tap(s, s.page.locator('#rx'));
    await step(s, { action: 'type', text: '22094' });
    await tap(s, exact(s, 'button', 'Submit transfer'));
    expect(await s.page.getByText('Prescription number must be 7 digits').isVisible()).toBe(true);
    expect(await s.page.getByText('Enter the pharmacy').isVisible()).toBe(true);
    await tap(s, s.page.locator('#rx'));
    await step(s, { action: 'type', text: '71' });
    await tap(s, s.page.locator('#from'));
    await step(s, { action: 'type', text: 'Budget Rx' });
    await tap(s, exact(s, 'button', 'Submit transfer'));
    expect(await s.page.getByText('Rx 2209471 from Budget Rx').isVisible()).toBe(true);
    const sp = { drug: 'Gabapentin 300 mg', rx_number: '2209471', pharmacy: 'Budget Rx' };
    expect(await check(s, spec('transfer_prescription', sp))).toBe(true);
    expect(await check(s, spec('transfer_prescription', { ...sp, pharmacy: 'Greenleaf Pharmacy' }))).toBe(false);
    await s.close();
  }, 60_000);
});
