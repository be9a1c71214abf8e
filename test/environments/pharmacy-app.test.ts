import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { usePhone } from './phone-driver.js';
import { initialPharmacyState, MEDICATIONS, REFILLABLE, REMINDER_ON, STORES } from '../../environments/apps/pharmacy/state.js';

const { step, tap, exact, spec, check, open } = usePhone('pharmacy', 'Pharmacy');

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
