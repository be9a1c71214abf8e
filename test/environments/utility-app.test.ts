import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { centerOf } from '../../environments/scripted.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  CARD_LABELS,
  cardByLabel,
  DD_START_DAYS,
  ddDayByLabel,
  HIGH_MONTHS,
  initialUtilityState,
  installDayByLabel,
  lastOf,
  maxStartReading,
  meterByName,
  METER_NAMES,
  MIN_START_BALANCE,
  ordinal,
  parseMoney,
  PAY_MIN,
  readingError,
  readingHigh,
  WINDOW_NAMES,
  windowOpen,
  type UtilityState,
} from '../../environments/apps/utility/state.js';

const { step, tap, exact, spec, check, open } = usePhone('utility', 'Norvale');

const state = async (s: ChromiumSession): Promise<UtilityState> => (await s.checkerState()).utility as UtilityState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
/** Scrolls an option of a long picker list into view (as a swipe in the dialog would), then taps it. */
async function pick(s: ChromiumSession, sel: string): Promise<void> {
  await s.page.locator(sel).scrollIntoViewIfNeeded();
  await tap(s, s.page.locator(sel));
}
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
/** Taps a text field, empties it and types `text`. */
async function retype(s: ChromiumSession, sel: string, text: string): Promise<void> {
  await tap(s, s.page.locator(sel));
  await step(s, { action: 'key', text: 'KEYCODE_MOVE_END' });
  for (let i = 0; i < 10; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
  if (text) await step(s, { action: 'type', text });
}

describe('Norvale energy and water account app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('utility');
    expect(app?.title).toBe('Norvale');
    expect(BUILT_IN_APPS.findIndex((a) => a.id === 'utility')).toBeGreaterThan(BUILT_IN_APPS.findIndex((a) => a.id === 'flights'));
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialUtilityState(3);
    expect(st).toEqual(initialUtilityState(3));
    expect(initialUtilityState(3)).not.toEqual(initialUtilityState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    // Readings: every meter, and every reading above the last one any seed starts with, accepted and not "much higher than usual".
    expect(slot('readings', 'meter')?.values).toEqual([...METER_NAMES]);
    const readings = slot('reading_form', 'reading')?.dependsOn?.values ?? {};
    expect(Object.keys(readings).sort()).toEqual([...METER_NAMES].sort());
    for (const [name, values] of Object.entries(readings))
      for (const v of values)
        for (let seed = 1; seed <= 40; seed++) {
          const m = meterByName(initialUtilityState(seed), name)!;
          expect(Number(v)).toBeGreaterThan(maxStartReading(m.id));
          expect(readingError(m, v, lastOf(m).value), `${name} ${v} seed ${seed}`).toBe('');
          expect(readingHigh(m, Number(v), lastOf(m).value), `${name} ${v} seed ${seed}`).toBe(false);
          expect(v).toHaveLength(m.digits);
        }
    // Payments: amounts above the minimum and below every seed's balance (so Full balance is never the answer), cards that have not expired.
    for (let seed = 1; seed <= 40; seed++) expect(initialUtilityState(seed).balance).toBeGreaterThanOrEqual(MIN_START_BALANCE);
    for (const v of slot('pay', 'pay_amount')?.values ?? []) {
      const pence = parseMoney(v);
      expect(pence >= PAY_MIN && pence < MIN_START_BALANCE, v).toBe(true);
    }
    for (const v of slot('pay', 'pay_card')?.values ?? []) {
      expect(CARD_LABELS).toContain(v);
      expect(cardByLabel(st, v)?.expired).toBe(false);
    }
    // Direct Debit: a day of the month the picker offers, never one a session starts with.
    for (const v of slot('direct_debit', 'dd_day')?.values ?? []) {
      const d = ddDayByLabel(v);
      expect(d, v).toBeDefined();
      expect(DD_START_DAYS).not.toContain(d);
      expect(ordinal(d!)).toBe(v);
    }
    // Smart meter: every day and time offered is free.
    const windows = slot('smart_slot', 'install_window')?.dependsOn?.values ?? {};
    expect(Object.keys(windows).sort()).toEqual([...(slot('smart_dates', 'install_date')?.values ?? [])].sort());
    for (const [day, values] of Object.entries(windows))
      for (const w of values) {
        expect(WINDOW_NAMES).toContain(w);
        expect(windowOpen(installDayByLabel(day)!, w), `${day} ${w}`).toBe(true);
      }
    const rd = { meter: 'Gas', reading: '04867' };
    expect(() => checkApp(st, spec('submit_reading', { ...rd, meter: 'Heat' }))).toThrow(/unknown meter/);
    expect(() => checkApp(st, spec('submit_reading', { ...rd, reading: '4800' }))).toThrow(/not above the last reading/);
    expect(() => checkApp(st, spec('submit_reading', { ...rd, reading: '4867.5' }))).toThrow(/not a meter reading/);
    expect(() => checkApp(st, spec('submit_reading', { meter: 'Gas' }))).toThrow(/missing param "reading"/);
    expect(() => checkApp(st, spec('make_payment', { pay_amount: '£45.00', pay_card: 'Visa ending 4471' }))).toThrow(/has expired/);
    expect(() => checkApp(st, spec('make_payment', { pay_amount: '£45.00', pay_card: 'Amex ending 1005' }))).toThrow(/unknown pay_card/);
    expect(() => checkApp(st, spec('make_payment', { pay_amount: 'lots', pay_card: 'Visa ending 4417' }))).toThrow(/not an amount/);
    expect(() => checkApp(st, spec('change_payment_day', { dd_day: '30th' }))).toThrow(/unknown dd_day/);
    expect(() => checkApp(st, spec('change_payment_day', { dd_day: ordinal(st.dd.day) }))).toThrow(/already taken/);
    expect(() => checkApp(st, spec('book_smart_meter', { install_date: 'Sunday, June 15', install_window: 'Morning' }))).toThrow(/unknown install_date/);
    expect(() => checkApp(st, spec('book_smart_meter', { install_date: 'Tuesday, June 10', install_window: 'Morning' }))).toThrow(/no free Morning window/);
    expect(() => checkApp(st, spec('book_smart_meter', { install_date: 'Tuesday, June 10', install_window: 'Night' }))).toThrow(/unknown install_window/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('submit_reading', rd))).toEqual({ success: false, reason: 'no meter reading was submitted' });
    expect(checkApp(st, spec('make_payment', { pay_amount: '£45.00', pay_card: 'Visa ending 8830' }))).toEqual({ success: false, reason: 'no payment was made' });
    expect(checkApp(st, spec('change_payment_day', { dd_day: '21st' }))).toEqual({ success: false, reason: 'the Direct Debit date was not changed' });
    expect(checkApp(st, spec('book_smart_meter', { install_date: 'Tuesday, June 10', install_window: 'Afternoon' }))).toEqual({ success: false, reason: 'no smart meter installation was booked' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates).toHaveLength(3);
      for (const t of task.templates) expect(t).toContain('Norvale');
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['utility'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialUtilityState(1), q.checker).success).toBe(false);
    }
  });

  it('shows every launcher icon without scrolling and opens from its icon', async () => {
    const s = await open(1);
    await step(s, { action: 'system_button', button: 'Home' });
    expect(await s.page.locator('body[data-launcher]').count()).toBe(1);
    const icons = s.page.locator('a.app');
    expect(await icons.count()).toBe(BUILT_IN_APPS.length + DECORATIVE_APPS.length);
    const { vw, vh, sh } = (await s.page.evaluate('({vw:innerWidth,vh:innerHeight,sh:document.documentElement.scrollHeight})')) as { vw: number; vh: number; sh: number };
    expect(sh).toBeLessThanOrEqual(vh);
    for (let i = 0; i < (await icons.count()); i++) {
      const box = await icons.nth(i).boundingBox();
      expect(box, `icon ${i}`).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(28);
      expect(box!.y + box!.height, (await icons.nth(i).getAttribute('aria-label')) ?? `icon ${i}`).toBeLessThanOrEqual(vh);
      expect(box!.x + box!.width).toBeLessThanOrEqual(vw);
    }
    await step(s, { action: 'click', coordinate: await centerOf(s.page.locator('a.app[aria-label="Norvale"]')) });
    expect(await visible(s, 'Hi Daniel')).toBe(true);
    expect(await s.page.locator('#home-balance').textContent()).toBe(`£${(initialUtilityState(1).balance / 100).toFixed(2)}`);
    await s.close();
  }, 60_000);

  it('validates a meter reading and submits one after Check your reading; another meter, another number or a second reading fails', async () => {
    const s = await open(1);
    const gasLast = lastOf(meterByName(initialUtilityState(1), 'Gas')!).value;
    await tap(s, s.page.locator('.bnav a[aria-label="Readings"]'));
    expect(await visible(s, 'How to read your meter')).toBe(true);
    await tap(s, s.page.locator('#enter-gas'));
    expect(await visible(s, 'New reading')).toBe(true);
    expect(await s.page.locator('#last-v').textContent()).toBe(String(gasLast).padStart(5, '0'));
    await tap(s, s.page.locator('#submit'));
    expect(await s.page.locator('#e-value').textContent()).toBe('Enter your meter reading');
    await retype(s, '#value', String(gasLast - 3));
    await tap(s, s.page.locator('#submit'));
    expect(await s.page.locator('#e-value').textContent()).toBe(`This is lower than your last reading (0${gasLast}). Check the numbers and try again.`);
    expect(await s.page.locator('#checkdlg').isVisible()).toBe(false);
    await retype(s, '#value', '04867');
    await tap(s, s.page.locator('#submit'));
    expect(await visible(s, 'Check your reading')).toBe(true);
    expect(await s.page.locator('#check-v').textContent()).toBe('04867 m³');
    expect(await s.page.locator('#check-warn').isVisible()).toBe(false);
    // Edit closes the dialog and sends nothing.
    await tap(s, s.page.locator('#check-edit'));
    expect(await s.page.locator('#checkdlg').isVisible()).toBe(false);
    const sp = { meter: 'Gas', reading: '04867' };
    expect(await reason(s, 'submit_reading', sp)).toBe('no meter reading was submitted');
    await tap(s, s.page.locator('#submit'));
    await tap(s, s.page.locator('#check-ok'));
    expect(await visible(s, 'Reading received')).toBe(true);
    expect(await s.page.locator('.mcard[data-meter="Gas"] .badge').textContent()).toBe('Sent today');
    expect(await reason(s, 'submit_reading', sp)).toBe('submitted a reading of 04867 m³ for Gas');
    expect(await check(s, spec('submit_reading', { ...sp, reading: '4867' }))).toBe(true);
    expect(await reason(s, 'submit_reading', { ...sp, reading: '04889' })).toBe('the Gas reading submitted is 04867, expected 04889');
    expect(await reason(s, 'submit_reading', { meter: 'Water', reading: '01384' })).toBe('no Water reading was submitted (submitted Gas 04867 instead)');
    // A second reading (Water, below the fold, much higher than usual) fails the task.
    await tap(s, s.page.locator('#enter-water'));
    const waterLast = lastOf(meterByName(initialUtilityState(1), 'Water')!).value;
    await retype(s, '#value', String(waterLast + 12 * HIGH_MONTHS + 1).padStart(5, '0'));
    await tap(s, s.page.locator('#submit'));
    expect(await s.page.locator('#check-warn').isVisible()).toBe(true);
    await tap(s, s.page.locator('#check-ok'));
    expect(await visible(s, 'Reading received')).toBe(true);
    expect(await reason(s, 'submit_reading', sp)).toBe(`2 readings were submitted (Gas 04867, Water 0${waterLast + 61}), expected one`);
    await s.close();

    // From a meter on Home; a preference switched on the way fails the task.
    const t = await open(5);
    await tap(t, t.page.locator('a.mrow[data-meter="Electricity"]'));
    expect(await visible(t, 'Electricity reading')).toBe(true);
    await retype(t, '#value', '28590');
    await tap(t, t.page.locator('#submit'));
    await tap(t, t.page.locator('#check-ok'));
    expect(await visible(t, 'Reading received')).toBe(true);
    const ep = { meter: 'Electricity', reading: '28590' };
    expect(await reason(t, 'submit_reading', ep)).toBe('submitted a reading of 28590 kWh for Electricity');
    await tap(t, t.page.locator('.bnav a[aria-label="Account"]'));
    await tap(t, t.page.locator('#p-offers'));
    expect(await t.page.locator('#p-offers').getAttribute('aria-checked')).toBe('true');
    expect(await reason(t, 'submit_reading', ep)).toBe('the Electricity reading was submitted but "Offers and news" was turned on');
    await t.close();
  }, 120_000);

  it('pays another amount with a chosen card after Confirm payment; the full balance, another card or a second payment fails', async () => {
    const s = await open(2);
    const st = initialUtilityState(2);
    const full = `£${(st.balance / 100).toFixed(2)}`;
    await tap(s, s.page.locator('#pay-now'));
    expect(await visible(s, 'How much would you like to pay?')).toBe(true);
    expect(await s.page.locator('#amt-full').getAttribute('aria-checked')).toBe('true');
    expect(await s.page.locator('#card-v').textContent()).toBe('Visa ending 4417');
    // Continue with the defaults asks to pay the full balance; Cancel pays nothing.
    await tap(s, s.page.locator('#continue'));
    expect(await s.page.locator('#pay-text').textContent()).toBe(`Pay ${full} now with Visa ending 4417?`);
    await tap(s, exact(s, '#paydlg .acts button', 'Cancel'));
    await tap(s, s.page.locator('#amt-other'));
    await tap(s, s.page.locator('#continue'));
    expect(await s.page.locator('#e-amount').textContent()).toBe('Enter an amount');
    await retype(s, '#amount', '0.50');
    await tap(s, s.page.locator('#continue'));
    expect(await s.page.locator('#e-amount').textContent()).toBe('The smallest payment is £1.00');
    await retype(s, '#amount', '45');
    // The expired near-duplicate card is refused.
    await tap(s, s.page.locator('#card-btn'));
    await tap(s, s.page.locator('#carddlg .opt[data-v="visa4471"]'));
    expect(await s.page.locator('#card-v').textContent()).toBe('Visa ending 4471');
    await tap(s, s.page.locator('#continue'));
    expect(await s.page.locator('#e-card').textContent()).toBe('Visa ending 4471 has expired. Choose another card.');
    await tap(s, s.page.locator('#card-btn'));
    await tap(s, s.page.locator('#carddlg .opt[data-v="visa8830"]'));
    await tap(s, s.page.locator('#continue'));
    expect(await visible(s, 'Confirm payment')).toBe(true);
    expect(await s.page.locator('#pay-text').textContent()).toBe('Pay £45.00 now with Visa ending 8830?');
    const sp = { pay_amount: '£45.00', pay_card: 'Visa ending 8830' };
    expect(await reason(s, 'make_payment', sp)).toBe('no payment was made');
    await tap(s, s.page.locator('#pay-ok'));
    expect(await visible(s, 'Payment successful')).toBe(true);
    expect(await reason(s, 'make_payment', sp)).toBe('paid £45.00 with Visa ending 8830');
    expect(await check(s, spec('make_payment', { ...sp, pay_amount: '£45' }))).toBe(true);
    expect(await reason(s, 'make_payment', { ...sp, pay_card: 'Visa ending 4417' })).toBe('£45.00 was paid with Visa ending 8830, expected Visa ending 4417');
    expect(await reason(s, 'make_payment', { ...sp, pay_amount: '£60.00' })).toBe('a payment of £45.00 was made, expected £60.00');
    await tap(s, s.page.locator('.bnav a[aria-label="Billing"]'));
    expect(await s.page.locator('.xrow.new .n').textContent()).toBe('Card payment · Visa ending 8830');
    // A second payment (the full balance that is left, with the default card) fails the task.
    await tap(s, s.page.locator('#make-payment'));
    await tap(s, s.page.locator('#continue'));
    await tap(s, s.page.locator('#pay-ok'));
    expect(await visible(s, 'Payment successful')).toBe(true);
    const rest = `£${((st.balance - 4500) / 100).toFixed(2)}`;
    expect(await reason(s, 'make_payment', sp)).toBe(`2 payments were made (£45.00 with Visa ending 8830, ${rest} with Visa ending 4417), expected one`);
    await s.close();

    // Paying the full balance (the default) fails.
    const t = await open(3);
    await tap(t, t.page.locator('.bnav a[aria-label="Billing"]'));
    await tap(t, t.page.locator('#make-payment'));
    expect(await t.page.locator('#card-v').textContent()).toBe('Mastercard ending 0392');
    await tap(t, t.page.locator('#continue'));
    await tap(t, t.page.locator('#pay-ok'));
    expect(await reason(t, 'make_payment', { pay_amount: '£45.00', pay_card: 'Mastercard ending 0392' })).toBe(
      `a payment of £${(initialUtilityState(3).balance / 100).toFixed(2)} was made, expected £45.00`,
    );
    await t.close();
  }, 120_000);

  it('moves the Direct Debit date only on Save changes and Confirm; a near-duplicate day or the amount changed as well fails', async () => {
    const s = await open(3);
    const start = initialUtilityState(3).dd.day;
    await tap(s, s.page.locator('.bnav a[aria-label="Billing"]'));
    expect(await visible(s, 'Payment history')).toBe(true);
    await tap(s, s.page.locator('#dd-row'));
    expect(await visible(s, 'Your Direct Debit')).toBe(true);
    expect(await s.page.locator('#day-v').textContent()).toBe(`${ordinal(start)} of each month`);
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('#err').textContent()).toBe('Choose a new payment date first');
    const sp = { dd_day: '21st' };
    // The near-duplicate 1st, picked and left unsaved, changes nothing.
    await tap(s, s.page.locator('#day-row'));
    await pick(s, '#daydlg .opt[data-v="1"]');
    await tap(s, s.page.locator('#daydlg-ok'));
    expect(await s.page.locator('#day-v').textContent()).toBe('1st of each monthNot saved yet');
    expect(await reason(s, 'change_payment_day', sp)).toBe('the Direct Debit date was not changed');
    // A day picked and then cancelled keeps the one before.
    await tap(s, s.page.locator('#day-row'));
    await pick(s, '#daydlg .opt[data-v="21"]');
    await tap(s, exact(s, '#daydlg .acts button', 'Cancel'));
    expect(await s.page.locator('#day-v').textContent()).toBe('1st of each monthNot saved yet');
    await tap(s, s.page.locator('#day-row'));
    await pick(s, '#daydlg .opt[data-v="21"]');
    await tap(s, s.page.locator('#daydlg-ok'));
    await tap(s, s.page.locator('#save'));
    expect(await visible(s, 'Change payment date?')).toBe(true);
    expect(await s.page.locator('#ddconfirm-text').textContent()).toContain('on the 21st of each month');
    await tap(s, exact(s, '#ddconfirm .acts button', 'Cancel'));
    expect(await reason(s, 'change_payment_day', sp)).toBe('the Direct Debit date was not changed');
    await tap(s, s.page.locator('#save'));
    await tap(s, s.page.locator('#ddconfirm-ok'));
    expect(await visible(s, 'Payment date changed')).toBe(true);
    expect(await s.page.locator('#day-v').textContent()).toBe('21st of each month');
    expect(await reason(s, 'change_payment_day', sp)).toBe(`the Direct Debit is now taken on the 21st of each month (was the ${ordinal(start)})`);
    expect(await check(s, spec('change_payment_day', { dd_day: 'the 21st' }))).toBe(true);
    expect(await reason(s, 'change_payment_day', { dd_day: '1st' })).toBe('the Direct Debit date is the 21st, expected the 1st');
    // The similar Monthly amount row changes the amount: that fails the task.
    await tap(s, s.page.locator('#amount-row'));
    await retype(s, '#dd-amount', '120');
    await tap(s, s.page.locator('#amountdlg-ok'));
    expect(await s.page.locator('#dd-amount-v').textContent()).toBe('£120.00');
    expect(await reason(s, 'change_payment_day', sp)).toBe('the Direct Debit date is the 21st but the Direct Debit amount was changed to £120.00');
    await s.close();
  }, 120_000);

  it('books a smart meter installation for a day and time after the confirm dialog; another day, another time or a cancelled booking fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('#promo-book'));
    expect(await visible(s, 'Why get a smart meter?')).toBe(true);
    await tap(s, s.page.locator('#check'));
    expect(await visible(s, 'Choose a date')).toBe(true);
    // Fully booked days are not links.
    expect(await s.page.locator('.drow.full[data-day="Thursday, June 12"]').count()).toBe(1);
    expect(await s.page.locator('a.drow[data-day="Thursday, June 12"]').count()).toBe(0);
    // Wednesday, June 18 is below the fold.
    await tap(s, s.page.locator('a.drow[data-day="Wednesday, June 18"]'));
    expect(await visible(s, 'Choose a time')).toBe(true);
    await tap(s, s.page.locator('#book'));
    expect(await s.page.locator('#e-window').textContent()).toBe('Choose a time');
    await tap(s, s.page.locator('.ropt[data-v="Morning"]'));
    await tap(s, s.page.locator('#book'));
    expect(await visible(s, 'Book this installation?')).toBe(true);
    expect(await s.page.locator('#book-text').textContent()).toBe('Wednesday, June 18, Morning (8am – 12pm).');
    await tap(s, exact(s, '#bookdlg .acts button', 'Go back'));
    const sp = { install_date: 'Tuesday, June 10', install_window: 'Afternoon' };
    expect(await reason(s, 'book_smart_meter', sp)).toBe('no smart meter installation was booked');
    await tap(s, s.page.locator('#book'));
    await tap(s, s.page.locator('#book-ok'));
    expect(await visible(s, 'Installation booked')).toBe(true);
    expect(await reason(s, 'book_smart_meter', { install_date: 'Wednesday, June 18', install_window: 'Afternoon' })).toBe(
      'the installation on Wednesday, June 18 is booked for the morning, expected the afternoon',
    );
    expect(await reason(s, 'book_smart_meter', sp)).toBe('the installation is booked for Wednesday, June 18, expected Tuesday, June 10');
    // Moving it to Tuesday, June 10 (its morning is full) passes.
    await tap(s, s.page.locator('#change'));
    await tap(s, s.page.locator('a.drow[data-day="Tuesday, June 10"]'));
    expect(await s.page.locator('.ropt[data-v="Morning"]').getAttribute('aria-disabled')).toBe('true');
    await tap(s, s.page.locator('.ropt[data-v="Morning"]'));
    expect(await s.page.locator('#snack').textContent()).toBe('That time is fully booked');
    await tap(s, s.page.locator('.ropt[data-v="Afternoon"]'));
    await tap(s, s.page.locator('#book'));
    await tap(s, s.page.locator('#book-ok'));
    expect(await visible(s, 'Installation booked')).toBe(true);
    expect(await s.page.locator('#appt-day').textContent()).toBe('Tuesday, June 10');
    expect(await reason(s, 'book_smart_meter', sp)).toBe('a smart meter installation is booked for Tuesday, June 10, Afternoon');
    expect(await check(s, spec('book_smart_meter', sp))).toBe(true);
    // Keep it keeps the booking; Cancel installation fails the task.
    await tap(s, s.page.locator('#cancel'));
    await tap(s, exact(s, '#canceldlg .acts button', 'Keep it'));
    expect(await check(s, spec('book_smart_meter', sp))).toBe(true);
    await tap(s, s.page.locator('#cancel'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await visible(s, 'Installation cancelled')).toBe(true);
    expect(await reason(s, 'book_smart_meter', sp)).toBe('the smart meter installation booked for Tuesday, June 10, Afternoon was cancelled');
    await s.close();
  }, 120_000);
});
