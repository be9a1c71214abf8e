import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import { ALERTS_ON, FARE_NAMES, initialTransitState, LINE_NAMES, LOST_ITEMS, RELOAD_AMOUNTS } from '../../environments/apps/transit/state.js';

const { step, tap, exact, spec, check, open } = usePhone('transit', 'Transit');

describe('Transit app (written blind after the reference policy was frozen, issue 17)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('transit');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialTransitState(3);
    expect(st).toEqual(initialTransitState(3));
    expect(st.lines.map((l) => l.name)).toEqual([...LINE_NAMES]);
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    expect(slot('tickets', 'fare')?.values).toEqual([...FARE_NAMES]);
    expect(slot('lines', 'line')?.values).toEqual([...LINE_NAMES]);
    expect(slot('lost_form', 'route')?.values).toEqual([...LINE_NAMES]);
    expect(slot('card', 'amount')?.values).toEqual([...RELOAD_AMOUNTS]);
    for (const item of slot('lost_form', 'item')?.values ?? []) expect(LOST_ITEMS).toContain(item);
    // The DAG only asks for the opposite of a line's starting alerts setting.
    const wanted = slot('lines', 'alerts')?.dependsOn?.values ?? {};
    for (const l of LINE_NAMES) expect(wanted[l]).toEqual([ALERTS_ON[l] ? 'off' : 'on']);
    expect(() => checkApp(st, spec('set_auto_reload', { amount: '$25' }))).toThrow(/unknown amount/);
    expect(() => checkApp(st, spec('buy_ticket', { fare: 'Week Pass' }))).toThrow(/unknown fare/);
    expect(() => checkApp(st, spec('report_lost_item', { route: 'Route 12', item: 'Keys' }))).toThrow(/missing param "description"/);
    expect(() => checkApp(st, spec('line_alerts', { line: 'Purple Line', alerts: 'on' }))).toThrow(/unknown line/);
    expect(checkApp(st, spec('buy_ticket', { fare: 'Day Pass' }))).toEqual({ success: false, reason: 'no ticket was bought' });
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['transit'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
  });

  it('switches one line\'s service alerts; the near-duplicate line is a failure and switching a second line fails the task', async () => {
    const s = await open();
    await tap(s, exact(s, '.row .t', 'Route 12X'));
    expect(await s.page.getByRole('switch', { name: 'Service alerts' }).getAttribute('aria-checked')).toBe('false');
    await tap(s, s.page.getByRole('switch', { name: 'Service alerts' }));
    expect(await s.page.getByText('Service alerts on').isVisible()).toBe(true);
    expect(await check(s, spec('line_alerts', { line: 'Route 12X', alerts: 'on' }))).toBe(true);
    expect(await check(s, spec('line_alerts', { line: 'Route 12', alerts: 'off' }))).toBe(false);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.row .t', 'Route 12'));
    await tap(s, s.page.getByRole('switch', { name: 'Service alerts' }));
    expect(await s.page.getByText('Service alerts off').isVisible()).toBe(true);
    expect(await check(s, spec('line_alerts', { line: 'Route 12X', alerts: 'on' }))).toBe(false); // Route 12 changed too
    await s.close();
  }, 60_000);

  it('buys a fare below the fold only after the dialog is confirmed; its near-duplicate is a failure', async () => {
    const s = await open(4);
    await tap(s, exact(s, '.tabs a', 'Tickets'));
    await tap(s, exact(s, '.row .t', '30-Day Pass Reduced'));
    await tap(s, s.page.getByRole('button', { name: 'Buy for $37.50', exact: true }));
    expect(await s.page.getByText('Buy this ticket?').isVisible()).toBe(true);
    await tap(s, exact(s, '#buy button', 'Cancel'));
    expect(await check(s, spec('buy_ticket', { fare: '30-Day Pass Reduced' }))).toBe(false);
    await tap(s, s.page.getByRole('button', { name: 'Buy for $37.50', exact: true }));
    await tap(s, s.page.locator('#buy-ok'));
    expect(await s.page.getByText('You have this ticket in My tickets').isVisible()).toBe(true);
    expect(await check(s, spec('buy_ticket', { fare: '30-Day Pass Reduced' }))).toBe(true);
    expect(await check(s, spec('buy_ticket', { fare: '30-Day Pass' }))).toBe(false);
    await tap(s, s.page.getByRole('button', { name: 'Buy another', exact: true }));
    await tap(s, s.page.locator('#buy-ok'));
    expect(await check(s, spec('buy_ticket', { fare: '30-Day Pass Reduced' }))).toBe(false); // two bought
    await s.close();
  }, 60_000);

  it('validates the lost item form field by field, sends the report, and turns on auto-reload with a picked amount', async () => {
    const s = await open(2);
    await tap(s, exact(s, '.tabs a', 'More'));
    await tap(s, exact(s, '.row .t', 'Lost and found'));
    await tap(s, s.page.locator('#description'));
    await step(s, { action: 'type', text: 'umb' });
    await tap(s, s.page.locator('#phone'));
    for (let i = 0; i < 3; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    await tap(s, exact(s, 'button', 'Send report'));
    expect(await s.page.getByText('Choose the line or route').isVisible()).toBe(true);
    expect(await s.page.getByText('Choose what you lost').isVisible()).toBe(true);
    expect(await s.page.getByText('Add a few more words so we can recognize it').isVisible()).toBe(true);
    expect(await s.page.getByText('Enter a 10-digit phone number').isVisible()).toBe(true);
    await tap(s, s.page.locator('#f-line .pick'));
    await tap(s, exact(s, '#lines .opt', 'Route 40 Night'));
    await tap(s, s.page.locator('#f-item .pick'));
    await tap(s, exact(s, '#items .opt', 'Umbrella'));
    await tap(s, s.page.locator('#description'));
    for (let i = 0; i < 3; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    await step(s, { action: 'type', text: 'Green folding umbrella' });
    await tap(s, s.page.locator('#phone'));
    await step(s, { action: 'type', text: '288' });
    const sp = { route: 'Route 40 Night', item: 'Umbrella', description: 'Green folding umbrella' };
    expect(await check(s, spec('report_lost_item', sp))).toBe(false);
    await tap(s, exact(s, 'button', 'Send report'));
    expect(await s.page.getByText('We got your report').isVisible()).toBe(true);
    expect(await s.page.getByText("We'll text (555) 014-2288 if we find it.").isVisible()).toBe(true);
    expect(await check(s, spec('report_lost_item', sp))).toBe(true);
    expect(await check(s, spec('report_lost_item', { ...sp, route: 'Route 40' }))).toBe(false);
    expect(await check(s, spec('report_lost_item', { ...sp, description: 'Black umbrella with a wooden handle' }))).toBe(false);

    await tap(s, exact(s, 'a.primary', 'Done'));
    await tap(s, exact(s, '.tabs a', 'Card'));
    await tap(s, s.page.locator('.pick'));
    await tap(s, s.page.locator('#amount .opt[data-v="$50"]'));
    expect(await s.page.getByText('Reload amount updated').isVisible()).toBe(true);
    expect(await check(s, spec('set_auto_reload', { amount: '$50' }))).toBe(false); // still off
    await tap(s, s.page.getByRole('switch', { name: 'Auto-reload' }));
    expect(await s.page.getByText('Adds $50 when your balance is under $5.00').isVisible()).toBe(true);
    expect(await check(s, spec('set_auto_reload', { amount: '$50' }))).toBe(true);
    expect(await check(s, spec('set_auto_reload', { amount: '$20' }))).toBe(false);
    await s.close();
  }, 60_000);
});
