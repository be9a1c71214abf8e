import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import { BILLER_NAMES, CARD_FROZEN, CARD_NAMES, initialBankState, parseAmount, PAYEES } from '../../environments/apps/bank/state.js';

const { step, tap, exact, spec, check, open } = usePhone('bank', 'Bank');

describe('Bank app (added after the reference policy was frozen a third time)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('bank');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialBankState(3);
    for (const b of BILLER_NAMES) expect(st.billers.some((x) => x.name === b)).toBe(true);
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    expect(slot('send_form', 'payee')?.values).toEqual([...PAYEES]);
    for (const a of slot('send_form', 'amount')?.values ?? []) expect(parseAmount(a)).toBeGreaterThan(0);
    // The DAG only asks for the opposite of a card's starting state.
    const actions = slot('cards', 'action')?.dependsOn?.values ?? {};
    for (const c of CARD_NAMES) expect(actions[c]).toEqual([CARD_FROZEN[c] ? 'unfreeze' : 'freeze']);
    expect(() => checkApp(st, spec('set_balance_alert', { threshold: 'Off' }))).toThrow(/unknown threshold/);
    expect(() => checkApp(st, spec('send_money', { payee: 'Maria Lopez', note: 'Dinner' }))).toThrow(/missing param "amount"/);
    expect(() => checkApp(st, spec('pay_bill', { biller: 'City Gas' }))).toThrow(/unknown biller/);
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['bank'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
  });

  it('freezes one card through the confirmation dialog; cancelling changes nothing and the wrong card is a failure', async () => {
    const s = await open();
    await tap(s, exact(s, '.tabs a', 'Cards'));
    await tap(s, exact(s, '.row .t', 'Rewards Credit'));
    await tap(s, s.page.getByRole('switch', { name: 'Freeze card' }));
    expect(await s.page.getByText('Freeze this card?').isVisible()).toBe(true);
    await tap(s, exact(s, '#freeze button', 'Cancel'));
    expect(await check(s, spec('freeze_card', { card: 'Rewards Credit', action: 'freeze' }))).toBe(false);
    await tap(s, s.page.getByRole('switch', { name: 'Freeze card' }));
    await tap(s, s.page.locator('#freeze-ok'));
    expect(await s.page.getByText('Card is frozen. New purchases are declined.').isVisible()).toBe(true);
    expect(await check(s, spec('freeze_card', { card: 'Rewards Credit', action: 'freeze' }))).toBe(true);
    expect(await check(s, spec('freeze_card', { card: 'Travel Credit', action: 'unfreeze' }))).toBe(false);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.row .t', 'Travel Credit'));
    await tap(s, s.page.getByRole('switch', { name: 'Freeze card' }));
    await tap(s, s.page.locator('#freeze-ok'));
    expect(await check(s, spec('freeze_card', { card: 'Travel Credit', action: 'unfreeze' }))).toBe(false); // Rewards Credit changed too
    await s.close();
  }, 60_000);

  it('pays a biller below the fold; its near-duplicate is a failure', async () => {
    const s = await open(4);
    await tap(s, exact(s, '.tabs a', 'Bills'));
    await tap(s, exact(s, '.row .t', 'City Water & Sewer'));
    await tap(s, s.page.getByRole('button', { name: 'Pay $63.15', exact: true }));
    expect(await check(s, spec('pay_bill', { biller: 'City Water & Sewer' }))).toBe(false);
    await tap(s, s.page.locator('#pay-ok'));
    expect(await s.page.getByText('Paid $63.15 on Jun 2 from Everyday Checking').isVisible()).toBe(true);
    expect(await check(s, spec('pay_bill', { biller: 'City Water & Sewer' }))).toBe(true);
    expect(await check(s, spec('pay_bill', { biller: 'City Water' }))).toBe(false);
    await s.close();
  }, 60_000);

  it('validates the send money form, sends only after Confirm, and sets the low balance alert', async () => {
    const s = await open(2);
    await tap(s, exact(s, 'a.primary', 'Send money'));
    await tap(s, s.page.locator('#amount'));
    await step(s, { action: 'type', text: '4o' });
    await tap(s, exact(s, 'button', 'Review'));
    expect(await s.page.getByText('Choose who to send money to').isVisible()).toBe(true);
    expect(await s.page.getByText('Enter an amount like 25.00').isVisible()).toBe(true);
    await tap(s, s.page.locator('.pick'));
    await tap(s, exact(s, '#payees .opt', 'Samantha Patel'));
    await tap(s, s.page.locator('#amount'));
    await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    await step(s, { action: 'type', text: '40.50' });
    await tap(s, s.page.locator('#note'));
    await step(s, { action: 'type', text: 'Concert tickets' });
    await tap(s, exact(s, 'button', 'Review'));
    expect(await s.page.getByText('Review transfer').isVisible()).toBe(true);
    const sp = { payee: 'Samantha Patel', amount: '40.50', note: 'Concert tickets' };
    expect(await check(s, spec('send_money', sp))).toBe(false);
    await tap(s, exact(s, 'button', 'Confirm'));
    expect(await s.page.getByText('You sent $40.50 to Samantha Patel').isVisible()).toBe(true);
    expect(await check(s, spec('send_money', sp))).toBe(true);
    expect(await check(s, spec('send_money', { ...sp, payee: 'Sam Patel' }))).toBe(false);
    expect(await check(s, spec('send_money', { ...sp, amount: '40' }))).toBe(false);

    await tap(s, exact(s, 'a.primary', 'Done'));
    await tap(s, exact(s, '.tabs a', 'More'));
    await tap(s, s.page.locator('.pick'));
    await tap(s, s.page.locator('#alert .opt[data-v="$250"]'));
    expect(await s.page.getByText('Alert updated').isVisible()).toBe(true);
    expect(await check(s, spec('set_balance_alert', { threshold: '$250' }))).toBe(true);
    expect(await check(s, spec('set_balance_alert', { threshold: '$25' }))).toBe(false);
    await s.close();
  }, 60_000);
});
