import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { centerOf } from '../../environments/scripted.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  BUDGETS,
  canChange,
  dayLabel,
  freeWindows,
  initialRepairsState,
  openDays,
  openRequestFor,
  paymentDue,
  PROJECT_TYPES,
  TIMINGS,
  type RepairsState,
} from '../../environments/apps/repairs/state.js';

const { step, tap, exact, spec, check, open } = usePhone('repairs', 'Mendwick');

const state = async (s: ChromiumSession): Promise<RepairsState> => (await s.checkerState()).repairs as RepairsState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
const pro = (s: ChromiumSession, name: string) => s.page.locator(`a.pro[data-pro="${name}"]`);
const visit = (s: ChromiumSession, name: string) => s.page.locator(`a.vrow[data-pro="${name}"]`);
const day = (s: ChromiumSession, label: string) => s.page.locator(`.cal button.d[aria-label="${label}"]`);
const win = (s: ChromiumSession, d: number, w: string) => s.page.locator(`.win[data-day="${d}"][data-w="${w}"]`);
const sameText = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

describe('Mendwick home-repair app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered after Hirewell with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('repairs');
    expect(app?.title).toBe('Mendwick');
    expect(BUILT_IN_APPS.findIndex((a) => a.id === 'repairs')).toBeGreaterThan(BUILT_IN_APPS.findIndex((a) => a.id === 'jobs'));
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialRepairsState(3);
    expect(st).toEqual(initialRepairsState(3));
    expect(initialRepairsState(3)).not.toEqual(initialRepairsState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    const proName = (s: RepairsState, id: number): string => s.pros.find((p) => p.id === id)?.name ?? '';
    for (let seed = 1; seed <= 20; seed++) {
      const s = initialRepairsState(seed);
      // Booking: every pro taking bookings is offered, with its own services and working days; the windows are free on all of them.
      const bookable = s.pros.filter((p) => p.accepting);
      expect([...(slot('home', 'pro')?.values ?? [])].sort()).toEqual(bookable.map((p) => p.name).sort());
      const services = slot('book_service', 'repair')?.dependsOn?.values ?? {};
      const days = slot('book_time', 'booking_day')?.dependsOn?.values ?? {};
      for (const p of bookable) {
        expect(services[p.name]).toEqual(p.services.map((x) => x.name));
        expect(days[p.name]).toEqual(openDays(p).map(dayLabel));
        for (const d of openDays(p)) for (const w of slot('book_time', 'arrival_window')?.values ?? []) expect(freeWindows(p, d), `${p.name} ${dayLabel(d)}`).toContain(w);
      }
      // Moving: exactly the visits that can still be changed, to another working day, in windows that are free.
      const movable = s.visits.filter(canChange);
      expect([...(slot('visits', 'reschedule_pro')?.values ?? [])].sort()).toEqual(movable.map((v) => proName(s, v.proId)).sort());
      const moveDays = slot('reschedule', 'move_day')?.dependsOn?.values ?? {};
      for (const v of movable) {
        const p = s.pros.find((x) => x.id === v.proId)!;
        expect(moveDays[p.name]).toEqual(openDays(p).filter((d) => d !== v.day).map(dayLabel));
        for (const d of openDays(p)) for (const w of slot('reschedule', 'move_window')?.values ?? []) expect(freeWindows(p, d)).toContain(w);
      }
      // Paying: exactly the unpaid invoices.
      expect([...(slot('past_visits', 'invoice_pro')?.values ?? [])].sort()).toEqual(
        s.visits
          .filter(paymentDue)
          .map((v) => proName(s, v.proId))
          .sort(),
      );
    }
    for (const c of slot('pay', 'card_ending')?.values ?? []) {
      const card = st.cards.find((x) => x.last4 === c);
      expect(card?.expired, c).toBe(false);
      expect(card?.id).not.toBe(st.defaultCardId);
    }
    for (const p of slot('quote_form', 'project')?.values ?? []) {
      expect(PROJECT_TYPES.some((x) => sameText(x, p)), p).toBe(true);
      expect(openRequestFor(st, p), p).toBeUndefined();
    }
    for (const b of slot('quote_form', 'budget')?.values ?? []) expect(BUDGETS.some((x) => sameText(x, b)), b).toBe(true);
    for (const t of slot('quote_form', 'timing')?.values ?? []) expect(TIMINGS.some((x) => sameText(x, t)), t).toBe(true);
    const bk = { pro: 'Rivera Bros. Plumbing', repair: 'Leaky faucet repair', booking_day: 'Saturday, June 7', arrival_window: '10 AM–12 PM' };
    expect(() => checkApp(st, spec('book_visit', { ...bk, pro: 'Copperline Plumbing' }))).toThrow(/unknown pro/);
    expect(() => checkApp(st, spec('book_visit', { ...bk, repair: 'Water heater flush' }))).toThrow(/unknown repair/);
    expect(() => checkApp(st, spec('book_visit', { ...bk, booking_day: 'Monday, June 9' }))).toThrow(/unknown booking_day/);
    expect(() => checkApp(st, spec('book_visit', { ...bk, arrival_window: '12–2 PM' }))).toThrow(/is taken/);
    expect(() => checkApp(st, spec('book_visit', { ...bk, arrival_window: 'noon' }))).toThrow(/unknown arrival_window/);
    expect(() => checkApp(st, spec('reschedule_visit', { reschedule_pro: 'Cold Spot Appliance Repair', move_day: 'Tuesday, June 10', move_window: '2–4 PM' }))).toThrow(/unknown reschedule_pro/);
    expect(() => checkApp(st, spec('reschedule_visit', { reschedule_pro: 'Brightwire Electric', move_day: 'Tuesday, June 10', move_window: '2–4 PM' }))).toThrow(/unknown reschedule_pro/);
    expect(() => checkApp(st, spec('reschedule_visit', { reschedule_pro: 'Rivera Plumbing & Drain', move_day: 'Saturday, June 7', move_window: '2–4 PM' }))).toThrow(/unknown move_day/);
    expect(() => checkApp(st, spec('reschedule_visit', { reschedule_pro: 'Rivera Plumbing & Drain', move_day: 'Tuesday, June 10' }))).toThrow(/missing param "move_window"/);
    expect(() => checkApp(st, spec('request_quotes', { project: 'Gutter cleaning', budget: 'under $500', timing: 'within 2 weeks' }))).toThrow(/already an open request/);
    expect(() => checkApp(st, spec('request_quotes', { project: 'Pool install', budget: 'under $500', timing: 'within 2 weeks' }))).toThrow(/unknown project/);
    expect(() => checkApp(st, spec('pay_invoice', { invoice_pro: 'Brightwire Electric', card_ending: '0937', tip: '10%' }))).toThrow(/unknown invoice_pro/);
    expect(() => checkApp(st, spec('pay_invoice', { invoice_pro: 'Brightway Electrical', card_ending: '4812', tip: '10%' }))).toThrow(/unknown card_ending/);
    expect(() => checkApp(st, spec('pay_invoice', { invoice_pro: 'Brightway Electrical', card_ending: '0937', tip: '25%' }))).toThrow(/unknown tip/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('book_visit', bk))).toEqual({ success: false, reason: 'no visit was booked' });
    expect(checkApp(st, spec('reschedule_visit', { reschedule_pro: 'Rivera Plumbing & Drain', move_day: 'Tuesday, June 10', move_window: '2–4 PM' }))).toEqual({
      success: false,
      reason: 'the Rivera Plumbing & Drain visit is still on Thursday, June 5, 10 AM–12 PM',
    });
    expect(checkApp(st, spec('request_quotes', { project: 'deck repair', budget: 'under $500', timing: 'within 2 weeks' }))).toEqual({ success: false, reason: 'no quote request was sent' });
    expect(checkApp(st, spec('pay_invoice', { invoice_pro: 'Brightway Electrical', card_ending: '0937', tip: '20%' }))).toEqual({ success: false, reason: 'no invoice was paid' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates).toHaveLength(3);
      for (const t of task.templates) expect(t).toContain('Mendwick');
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['repairs'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialRepairsState(1), q.checker).success).toBe(false);
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
    await step(s, { action: 'click', coordinate: await centerOf(s.page.locator('a.app[aria-label="Mendwick"]')) });
    expect(await visible(s, 'What needs fixing?')).toBe(true);
    await s.close();
  }, 60_000);

  it('books a visit with a service, day and arrival window only after Book visit; the near-duplicate pro, another service, day or window, or a second booking fails', async () => {
    const s = await open(1);
    expect(await visible(s, 'What needs fixing?')).toBe(true);
    await tap(s, s.page.locator('a.trade[href$="/trade/plumbing"]'));
    expect(await visible(s, 'Rivera Plumbing & Drain')).toBe(true);
    // A pro that is not taking bookings has no Book a visit.
    await tap(s, pro(s, 'Copperline Plumbing'));
    expect(await visible(s, 'Services and prices')).toBe(true);
    expect(await s.page.locator('#book').count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, pro(s, 'Rivera Bros. Plumbing'));
    await tap(s, s.page.locator('#book'));
    expect(await visible(s, 'What do you need?')).toBe(true);
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#err').textContent()).toBe('Pick what you need done');
    await tap(s, s.page.locator('#services .choice[data-v="Leaky faucet repair"]'));
    await tap(s, s.page.locator('#next'));
    expect(await visible(s, 'Step 2 of 3 · Date and time')).toBe(true);
    // Monday is not a working day for this pro; today is never bookable.
    expect(await day(s, 'Monday, June 9').count()).toBe(0);
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#err').textContent()).toBe('Pick a day');
    await tap(s, day(s, 'Saturday, June 7'));
    expect(await s.page.locator('#wday').textContent()).toBe('Saturday, June 7');
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#err').textContent()).toBe('Pick an arrival window');
    expect(await s.page.locator('.wins[data-for="5"] .win.full[aria-label="12–2 PM, booked"]').count()).toBe(1);
    await tap(s, win(s, 5, '10 AM–12 PM'));
    await tap(s, s.page.locator('#next'));
    expect(await visible(s, 'Step 3 of 3 · Confirm')).toBe(true);
    expect(await s.page.locator('#rv-service').textContent()).toBe('Leaky faucet repair');
    expect(await s.page.locator('#rv-day').textContent()).toBe('Saturday, June 7');
    expect(await s.page.locator('#rv-window').textContent()).toBe('10 AM–12 PM');
    const sp = { pro: 'Rivera Bros. Plumbing', repair: 'Leaky faucet repair', booking_day: 'Saturday, June 7', arrival_window: '10 AM–12 PM' };
    expect(await reason(s, 'book_visit', sp)).toBe('no visit was booked');
    await tap(s, s.page.locator('#confirm'));
    expect(await visible(s, "You're booked")).toBe(true);
    expect(await reason(s, 'book_visit', sp)).toBe('booked Rivera Bros. Plumbing (Leaky faucet repair), Saturday, June 7, 10 AM–12 PM');
    expect(await check(s, spec('book_visit', { ...sp, pro: 'rivera bros. plumbing', repair: 'leaky faucet repair' }))).toBe(true);
    expect(await reason(s, 'book_visit', { ...sp, pro: 'Rivera Plumbing & Drain', booking_day: 'Friday, June 6' })).toBe(
      'the visit was booked with Rivera Bros. Plumbing, expected Rivera Plumbing & Drain',
    );
    expect(await reason(s, 'book_visit', { ...sp, repair: 'Clogged drain' })).toBe('the Rivera Bros. Plumbing visit is for Leaky faucet repair, expected Clogged drain');
    expect(await reason(s, 'book_visit', { ...sp, booking_day: 'Friday, June 6' })).toBe('the Rivera Bros. Plumbing visit is on Saturday, June 7, expected Friday, June 6');
    expect(await reason(s, 'book_visit', { ...sp, arrival_window: '2–4 PM' })).toBe('the Rivera Bros. Plumbing visit on Saturday, June 7 is for 10 AM–12 PM, expected 2–4 PM');
    // It is now under Visits; a second booking (found by searching) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Visits"]'));
    expect(await visible(s, 'Coming up · 7 visits')).toBe(true);
    await tap(s, s.page.locator('.bnav a[aria-label="Explore"]'));
    await tap(s, s.page.locator('#q'));
    await step(s, { action: 'type', text: 'Keystone' });
    await tap(s, exact(s, '.find button', 'Search'));
    await tap(s, pro(s, 'Keystone Lock & Key'));
    await tap(s, s.page.locator('#book'));
    await tap(s, s.page.locator('#services .choice[data-v="Lock rekey"]'));
    await tap(s, s.page.locator('#next'));
    await tap(s, day(s, 'Sunday, June 8'));
    await tap(s, win(s, 6, '8–10 AM'));
    await tap(s, s.page.locator('#next'));
    await tap(s, s.page.locator('#confirm'));
    expect(await visible(s, "You're booked")).toBe(true);
    expect(await reason(s, 'book_visit', sp)).toBe(
      '2 visits were booked ("Rivera Bros. Plumbing (Leaky faucet repair), Saturday, June 7, 10 AM–12 PM", "Keystone Lock & Key (Lock rekey), Sunday, June 8, 8–10 AM"), expected one',
    );
    await s.close();
  }, 120_000);

  it('moves an upcoming visit after the confirm dialog; a visit under 24 hours away cannot move, and the near-duplicate pro, another day or window, or a cancellation fails', async () => {
    const s = await open(2);
    await tap(s, s.page.locator('.bnav a[aria-label="Visits"]'));
    expect(await visible(s, 'Coming up · 6 visits')).toBe(true);
    // Today's visit can only be changed by phone.
    await tap(s, visit(s, 'Cold Spot Appliance Repair'));
    expect(await visible(s, 'Visit details')).toBe(true);
    expect(await s.page.locator('#resched-btn').count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, visit(s, 'Rivera Plumbing & Drain'));
    expect(await s.page.locator('#v-day').textContent()).toBe('Thursday, June 5');
    await tap(s, s.page.locator('#resched-btn'));
    expect(await visible(s, 'Pick a new time')).toBe(true);
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('#err').textContent()).toBe('Pick a day');
    await tap(s, day(s, 'Tuesday, June 10'));
    await tap(s, win(s, 8, '2–4 PM'));
    await tap(s, s.page.locator('#save'));
    expect(await visible(s, 'Move this visit?')).toBe(true);
    expect(await s.page.locator('#move-to').textContent()).toBe('Tue, Jun 10, 2–4 PM');
    await tap(s, s.page.locator('#move-back'));
    const sp = { reschedule_pro: 'Rivera Plumbing & Drain', move_day: 'Tuesday, June 10', move_window: '2–4 PM' };
    expect(await reason(s, 'reschedule_visit', sp)).toBe('the Rivera Plumbing & Drain visit is still on Thursday, June 5, 10 AM–12 PM');
    await tap(s, s.page.locator('#save'));
    await tap(s, s.page.locator('#move-ok'));
    expect(await visible(s, 'Visit moved')).toBe(true);
    expect(await s.page.locator('#v-window').textContent()).toBe('2–4 PM');
    expect(await reason(s, 'reschedule_visit', sp)).toBe('moved the Rivera Plumbing & Drain visit from Thursday, June 5, 10 AM–12 PM to Tuesday, June 10, 2–4 PM');
    expect(await reason(s, 'reschedule_visit', { ...sp, move_day: 'Wednesday, June 11' })).toBe('the Rivera Plumbing & Drain visit was moved to Tuesday, June 10, expected Wednesday, June 11');
    expect(await reason(s, 'reschedule_visit', { ...sp, move_window: '8–10 AM' })).toBe('the Rivera Plumbing & Drain visit on Tuesday, June 10 is for 2–4 PM, expected 8–10 AM');
    expect(await reason(s, 'reschedule_visit', { reschedule_pro: 'Rivera Bros. Plumbing', move_day: 'Tuesday, June 10', move_window: '2–4 PM' })).toBe(
      'the Rivera Bros. Plumbing visit is still on Friday, June 6, 2–4 PM (moved "Rivera Plumbing & Drain (Water heater flush), Tuesday, June 10, 2–4 PM" instead)',
    );
    // Canceling another visit fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Visits"]'));
    await tap(s, visit(s, "Handy Hank's Home Repair"));
    await tap(s, s.page.locator('#cancel-btn'));
    expect(await visible(s, 'Cancel this visit?')).toBe(true);
    await tap(s, exact(s, '#reasons .choice .t', 'My plans changed'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await visible(s, 'Visit canceled')).toBe(true);
    expect(await reason(s, 'reschedule_visit', sp)).toBe(
      'the Rivera Plumbing & Drain visit was moved but "Handy Hank\'s Home Repair (TV wall mounting), Monday, June 9, 2–4 PM" was canceled',
    );
    await s.close();
  }, 120_000);

  it('sends a quote request with a project, budget and timing; a duplicate open request is refused, and another budget, timing or a second request fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="Projects"]'));
    expect(await visible(s, 'Your requests')).toBe(true);
    await tap(s, s.page.locator('#new-project'));
    expect(await visible(s, "What's the project?")).toBe(true);
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#e-project').textContent()).toBe('Choose a project type');
    await tap(s, s.page.locator('#types .ptile[data-v="Gutter cleaning"]'));
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#e-project').textContent()).toBe('You already have an open request for gutter cleaning');
    await tap(s, s.page.locator('#types .ptile[data-v="Deck repair"]'));
    expect(await s.page.locator('#types .ptile[data-v="Deck repair"]').getAttribute('aria-checked')).toBe('true');
    await tap(s, s.page.locator('#next'));
    expect(await visible(s, 'When do you want it done?')).toBe(true);
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#e-budget').textContent()).toBe('Choose a budget');
    expect(await s.page.locator('#e-timing').textContent()).toBe('Choose when you want it done');
    await tap(s, s.page.locator('#budget .choice[data-v="$500–$2,000"]'));
    await tap(s, s.page.locator('#timing .choice[data-v="Within a month"]'));
    await tap(s, s.page.locator('#next'));
    expect(await visible(s, 'Check your request')).toBe(true);
    expect(await s.page.locator('#rv-project').textContent()).toBe('Deck repair');
    expect(await s.page.locator('#rv-budget').textContent()).toBe('$500–$2,000');
    const sp = { project: 'deck repair', budget: '$500–$2,000', timing: 'within a month' };
    expect(await reason(s, 'request_quotes', sp)).toBe('no quote request was sent');
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, 'Request sent')).toBe(true);
    expect(await reason(s, 'request_quotes', sp)).toBe('sent a quote request for Deck repair, $500–$2,000, within a month');
    expect(await reason(s, 'request_quotes', { ...sp, budget: 'under $500' })).toBe('the Deck repair request has the budget $500–$2,000, expected under $500');
    expect(await reason(s, 'request_quotes', { ...sp, timing: 'as soon as possible' })).toBe('the Deck repair request says "Within a month", expected "as soon as possible"');
    expect(await reason(s, 'request_quotes', { ...sp, project: 'fence repair' })).toBe('the quote request is for Deck repair, expected fence repair');
    // A second request fails the task.
    await tap(s, s.page.locator('#new-project'));
    await tap(s, s.page.locator('#types .ptile[data-v="Roof inspection"]'));
    await tap(s, s.page.locator('#next'));
    await tap(s, s.page.locator('#budget .choice[data-v="Under $500"]'));
    await tap(s, s.page.locator('#timing .choice[data-v="As soon as possible"]'));
    await tap(s, s.page.locator('#next'));
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, 'Request sent')).toBe(true);
    expect(await reason(s, 'request_quotes', sp)).toBe(
      '2 quote requests were sent ("Deck repair, $500–$2,000, within a month", "Roof inspection, Under $500, as soon as possible"), expected one',
    );
    await s.close();
  }, 120_000);

  it('pays an invoice with a tip and a card after the confirm dialog; the near-duplicate paid pro has no Pay, and another card, tip or a second payment fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('a.tile.due'));
    expect(await visible(s, 'Earlier visits · 3 waiting for payment')).toBe(true);
    await tap(s, visit(s, 'Brightwire Electric'));
    expect(await visible(s, 'Past visit')).toBe(true);
    expect(await s.page.locator('#pay-btn').count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, visit(s, 'Brightway Electrical'));
    expect(await s.page.locator('#pay-btn').textContent()).toBe('Pay $243.99');
    await tap(s, s.page.locator('#pay-btn'));
    expect(await visible(s, 'Add a tip for Dev')).toBe(true);
    await tap(s, s.page.locator('#tips button[data-v="20%"]'));
    expect(await s.page.locator('#sum-total').textContent()).toBe('$292.79');
    // The expired card cannot be picked.
    expect(await s.page.locator('#cards button[data-card="4812"]').count()).toBe(0);
    await tap(s, s.page.locator('#cards button[data-card="0937"]'));
    await tap(s, s.page.locator('#pay'));
    expect(await s.page.locator('#confirm-text').textContent()).toBe('Pay $292.79 to Brightway Electrical with Mastercard •••• 0937?');
    await tap(s, s.page.locator('#confirm-back'));
    const sp = { invoice_pro: 'Brightway Electrical', card_ending: '0937', tip: '20%' };
    expect(await reason(s, 'pay_invoice', sp)).toBe('no invoice was paid');
    await tap(s, s.page.locator('#pay'));
    await tap(s, s.page.locator('#confirm-ok'));
    expect(await visible(s, 'Payment sent')).toBe(true);
    expect(await s.page.locator('#paid-total').textContent()).toBe('$292.79');
    expect(await reason(s, 'pay_invoice', sp)).toBe('paid the Brightway Electrical invoice, $292.79 with a 20% tip, card ending in 0937');
    expect(await reason(s, 'pay_invoice', { ...sp, card_ending: '1006' })).toBe('the Brightway Electrical invoice was paid with the card ending in 0937, expected 1006');
    expect(await reason(s, 'pay_invoice', { ...sp, tip: '15%' })).toBe('the Brightway Electrical invoice was paid with a 20% tip, expected a 15% tip');
    expect(await reason(s, 'pay_invoice', { ...sp, invoice_pro: 'Two Hands Handyman' })).toBe('the Two Hands Handyman invoice was not paid (paid "Brightway Electrical" instead)');
    // Paying a second invoice (with a custom tip and the default card) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Visits"]'));
    await tap(s, exact(s, '.tabs a', 'Past'));
    await tap(s, visit(s, 'Two Hands Handyman'));
    await tap(s, s.page.locator('#pay-btn'));
    await tap(s, s.page.locator('#tips button[data-v="Custom"]'));
    await tap(s, s.page.locator('#custom-amt'));
    await step(s, { action: 'type', text: '12' });
    await tap(s, s.page.locator('#custom-ok'));
    expect(await s.page.locator('#sum-tip').textContent()).toBe('$12.00');
    await tap(s, s.page.locator('#pay'));
    await tap(s, s.page.locator('#confirm-ok'));
    expect(await visible(s, 'Payment sent')).toBe(true);
    expect(await reason(s, 'pay_invoice', { invoice_pro: 'Two Hands Handyman', card_ending: '0937', tip: '10%' })).toBe(
      'the Two Hands Handyman invoice was paid with the card ending in 4821, expected 0937',
    );
    expect(await reason(s, 'pay_invoice', sp)).toBe('the Brightway Electrical invoice was paid but "Two Hands Handyman" too');
    await s.close();
  }, 120_000);
});
