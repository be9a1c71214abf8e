import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  addressErrors,
  claimable,
  claimOn,
  dayLabel,
  DEFAULT_PREFS,
  DETERGENT_NAMES,
  HANDOFF_NAMES,
  initialLaundryState,
  ISSUE_NAMES,
  openWindows,
  PICKUP_DAYS,
  resolutionsFor,
  SERVICE_NAMES,
  STARCH_LEVELS,
  turnaroundsOf,
} from '../../environments/apps/laundry/state.js';

const { step, tap, exact, spec, check, open } = usePhone('laundry', 'FreshFold');

/** Swipes the day strip sideways (like a finger would) to show its later days. */
async function swipeStrip(s: ChromiumSession): Promise<void> {
  const box = await s.page.locator('.dstrip').boundingBox();
  if (!box) throw new Error('no day strip');
  const y = Math.round(box.y + box.height / 2);
  await step(s, { action: 'swipe', coordinate: [380, y], coordinate2: [60, y] });
}
/** Taps a text field and deletes `n` characters. */
async function clear(s: ChromiumSession, sel: string, n: number): Promise<void> {
  await tap(s, s.page.locator(sel));
  for (let i = 0; i < n; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
}
async function typeInto(s: ChromiumSession, sel: string, text: string): Promise<void> {
  await tap(s, s.page.locator(sel));
  await step(s, { action: 'type', text });
}

describe('FreshFold laundry pickup app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('laundry');
    expect(app?.title).toBe('FreshFold');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialLaundryState(3);
    expect(st).toEqual(initialLaundryState(3));
    expect(initialLaundryState(3)).not.toEqual(initialLaundryState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    // Pickups: every service, turnaround, day and window the DAG offers can be scheduled in a fresh session of any seed.
    expect(slot('schedule_time', 'pickup_day')?.values).toEqual(PICKUP_DAYS.map(dayLabel));
    expect(slot('schedule_form', 'service')?.values).toEqual([...SERVICE_NAMES]);
    const turns = slot('schedule_form', 'turnaround')?.dependsOn?.values ?? {};
    for (const service of SERVICE_NAMES) expect(turns[service], service).toEqual([...turnaroundsOf(service)]);
    expect(turns['Bedding & Linens']).not.toContain('Express');
    const windows = slot('schedule_time', 'pickup_window')?.dependsOn?.values ?? {};
    // Claims: each order offered takes claims, and its items are exactly the ones without an open claim.
    const items = slot('report_form', 'claim_item')?.dependsOn?.values ?? {};
    expect(Object.keys(items).sort()).toEqual([...(slot('past_orders', 'claim_order')?.values ?? [])].sort());
    for (const seed of [1, 2, 3, 7, 42]) {
      const s = initialLaundryState(seed);
      for (const d of PICKUP_DAYS) for (const w of windows[dayLabel(d)] ?? []) expect(openWindows(s, d), `${seed} ${dayLabel(d)}`).toContain(w);
      for (const [number, names] of Object.entries(items)) {
        const o = s.orders.find((x) => x.number === number);
        expect(o && claimable(o), number).toBe(true);
        expect(names.sort(), number).toEqual(o?.items.filter((i) => !claimOn(s, i.id)).map((i) => i.name).sort());
      }
    }
    expect(Object.values(items).flat()).not.toContain('Ivory silk blouse');
    expect(slot('past_orders', 'claim_order')?.values).not.toContain('47952');
    expect(slot('report_form', 'issue')?.values).toEqual([...ISSUE_NAMES]);
    const res = slot('report_form', 'resolution')?.dependsOn?.values ?? {};
    for (const issue of ISSUE_NAMES) expect(res[issue], issue).toEqual([...resolutionsFor(issue)]);
    // Preferences: every value is a real option and differs from what the account starts with.
    for (const d of slot('preferences', 'detergent')?.values ?? []) expect(DETERGENT_NAMES).toContain(d);
    for (const v of slot('preferences', 'starch')?.values ?? []) expect(STARCH_LEVELS).toContain(v);
    expect(slot('preferences', 'detergent')?.values).not.toContain(DEFAULT_PREFS.detergent);
    expect(slot('preferences', 'starch')?.values).not.toContain(DEFAULT_PREFS.starch);
    // New addresses: the form accepts every street, ZIP and handoff the DAG offers.
    const zips = slot('address_form', 'new_zip')?.dependsOn?.values ?? {};
    expect(slot('address_form', 'handoff')?.values).toEqual([...HANDOFF_NAMES]);
    for (const street of slot('address_form', 'new_street')?.values ?? [])
      for (const zip of zips[street] ?? []) for (const handoff of HANDOFF_NAMES) expect(addressErrors(st.addresses, { label: '', street, apt: '', zip, handoff }), street).toEqual({});
    const sp0 = { service: 'Wash & Fold', turnaround: 'Express', pickup_day: 'Tuesday, June 10', pickup_window: '5–7 PM' };
    expect(() => checkApp(st, spec('schedule_pickup', { ...sp0, service: 'Ironing' }))).toThrow(/unknown service/);
    expect(() => checkApp(st, spec('schedule_pickup', { ...sp0, pickup_day: 'Tuesday, June 11' }))).toThrow(/unknown pickup_day/);
    expect(() => checkApp(st, spec('schedule_pickup', { ...sp0, pickup_window: '6–8 PM' }))).toThrow(/unknown pickup_window/);
    expect(() => checkApp(st, spec('report_issue', { claim_order: '48321', claim_item: 'Navy wool blazer', issue: 'Damaged', resolution: 'Refund to card' }))).toThrow(/unknown claim_order/);
    expect(() => checkApp(st, spec('report_issue', { claim_order: '48231', claim_item: 'Navy wool blazer', issue: 'Damaged', resolution: 'Refund to card' }))).toThrow(/#48231 has no item/);
    expect(() => checkApp(st, spec('report_issue', { claim_order: '48213', claim_item: 'Navy wool blazer', issue: 'Torn', resolution: 'Refund to card' }))).toThrow(/unknown issue/);
    expect(() => checkApp(st, spec('update_preferences', { detergent: 'Tide', starch: 'Heavy' }))).toThrow(/unknown detergent/);
    expect(() => checkApp(st, spec('update_preferences', { detergent: 'Free & Clear' }))).toThrow(/missing param "starch"/);
    expect(() => checkApp(st, spec('add_address', { new_street: '640 Haight St', new_zip: '9411', handoff: 'Leave at my door' }))).toThrow(/bad new_zip/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('schedule_pickup', sp0))).toEqual({ success: false, reason: 'no pickup was scheduled' });
    expect(checkApp(st, spec('report_issue', { claim_order: '#48213', claim_item: 'Navy wool blazer', issue: 'Damaged', resolution: 'Refund to card' }))).toEqual({ success: false, reason: 'no claim was made' });
    expect(checkApp(st, spec('update_preferences', { detergent: 'Free & Clear', starch: 'Medium' }))).toEqual({ success: false, reason: 'the cleaning preferences were not saved' });
    expect(checkApp(st, spec('add_address', { new_street: '640 Haight St', new_zip: '94117', handoff: 'Leave at my door' }))).toEqual({ success: false, reason: 'no address was added' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['laundry'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialLaundryState(1), q.checker).success).toBe(false);
    }
  });

  it('schedules a pickup through the service list, the sideways day strip and an evening window, only after Confirm pickup; the near-duplicate service, another turnaround, day or window, or a second pickup fails', async () => {
    const s = await open();
    expect(await s.page.getByText('Good morning').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Schedule a pickup'));
    expect(await s.page.getByText('What are we cleaning?').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText("Choose what we're cleaning").isVisible()).toBe(true);
    // Express is not offered for bedding.
    await tap(s, s.page.locator('#g-service .opt[data-v="Bedding & Linens"]'));
    expect(await s.page.locator('#g-turn .opt[data-v="Express"]').isDisabled()).toBe(true);
    expect(await s.page.getByText('Not available for Bedding & Linens').isVisible()).toBe(true);
    await tap(s, s.page.locator('#g-service .opt[data-v="Wash & Press"]'));
    await tap(s, s.page.locator('#g-service .opt[data-v="Wash & Fold"]'));
    await tap(s, s.page.locator('#g-turn .opt[data-v="Express"]'));
    expect(await s.page.locator('#g-turn .opt[data-v="Express"]').getAttribute('aria-checked')).toBe('true');
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText('Choose a pickup window').isVisible()).toBe(true);
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    // Tuesday, June 10 is off the right edge of the day strip.
    const tue10 = s.page.locator('.dstrip a[aria-label="Tuesday, June 10"]');
    const before = await tue10.boundingBox();
    expect((before?.x ?? 0) + (before?.width ?? 0)).toBeGreaterThan(412);
    await swipeStrip(s);
    await tap(s, tue10);
    expect(await s.page.locator('.dayh').textContent()).toBe('Tuesday, June 10');
    await tap(s, s.page.locator('.wins button[data-w="5–7 PM"]'));
    expect(await s.page.locator('#sum').textContent()).toBe('Tue, Jun 10, 5–7 PM');
    await tap(s, s.page.locator('#go'));
    expect(await s.page.getByText('Confirm pickup').isVisible()).toBe(true);
    const sp = { service: 'Wash & Fold', turnaround: 'Express', pickup_day: 'Tuesday, June 10', pickup_window: '5–7 PM' };
    expect(await check(s, spec('schedule_pickup', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Confirm pickup'));
    expect(await s.page.getByText('Pickup confirmed').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).laundry, spec('schedule_pickup', sp)).reason).toBe('scheduled a Wash & Fold pickup on Tuesday, June 10, 5–7 PM (Express)');
    expect(checkApp((await s.checkerState()).laundry, spec('schedule_pickup', { ...sp, service: 'Wash & Press' })).reason).toBe('the pickup was scheduled for Wash & Fold, expected Wash & Press');
    expect(await check(s, spec('schedule_pickup', { ...sp, turnaround: 'Standard' }))).toBe(false);
    expect(await check(s, spec('schedule_pickup', { ...sp, pickup_day: 'Monday, June 9' }))).toBe(false);
    expect(await check(s, spec('schedule_pickup', { ...sp, pickup_window: '7–9 PM' }))).toBe(false);
    // A full window cannot be picked; a second pickup fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Orders"]'));
    expect(await s.page.getByText('Active (4)').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.outline', 'Schedule a pickup'));
    await tap(s, s.page.locator('#g-service .opt[data-v="Dry Cleaning"]'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    await tap(s, s.page.locator('.dstrip a[aria-label="Thursday, June 5"]'));
    const full = s.page.locator('.wins .opt.off').first();
    expect(await full.count()).toBe(1);
    expect(await full.evaluate((el) => el.tagName)).toBe('DIV');
    await tap(s, full);
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    await tap(s, s.page.locator('.wins button[data-w="7–9 PM"]'));
    await tap(s, s.page.locator('#go'));
    await tap(s, exact(s, 'button.primary', 'Confirm pickup'));
    expect(await s.page.getByText('Pickup confirmed').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).laundry, spec('schedule_pickup', sp)).reason).toBe(
      '2 pickups were scheduled ("Wash & Fold pickup on Tuesday, June 10, 5–7 PM (Express)", "Dry Cleaning pickup on Thursday, June 5, 7–9 PM (Standard)"), expected one',
    );
    await s.close();
  }, 120_000);

  it('files a claim for one item after picking the problem and remedy and confirming; old orders take no claims, a re-clean only fixes stains, and the near-duplicate item, another remedy or a second claim fails', async () => {
    const s = await open(2);
    await tap(s, s.page.locator('.bnav a[aria-label="Orders"]'));
    expect(await s.page.getByText('On the way and scheduled').isVisible()).toBe(true);
    await tap(s, exact(s, '.seg2 a', 'Past'));
    expect(await s.page.getByText('Delivered and cancelled').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.ord[data-number="47952"]'));
    expect(await s.page.getByText('Claims can be made up to 7 days after delivery. For an older order', { exact: false }).isVisible()).toBe(true);
    expect(await s.page.locator('a.outline').filter({ hasText: 'Report a problem' }).count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('a.ord[data-number="48213"]'));
    expect(await s.page.getByText('Order status').isVisible()).toBe(true);
    expect(await s.page.getByText('Claim open · Stain not removed').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.outline', 'Report a problem'));
    expect(await s.page.getByText('Which item?').isVisible()).toBe(true);
    expect(await s.page.locator('#g-item button.opt').count()).toBe(5);
    await tap(s, exact(s, 'button.primary', 'Submit claim'));
    expect(await s.page.getByText('Choose the item with the problem').isVisible()).toBe(true);
    expect(await s.page.getByText('Tell us what went wrong').isVisible()).toBe(true);
    expect(await s.page.getByText('Choose how we should make it right').isVisible()).toBe(true);
    await tap(s, s.page.locator('#g-item .opt[data-name="Navy wool trousers"]'));
    await tap(s, s.page.locator('#f-issue .pick'));
    await tap(s, exact(s, '#issues .opt .t', 'Stain not removed'));
    await tap(s, s.page.locator('#g-res .opt[data-v="Free re-clean"]'));
    expect(await s.page.locator('#g-res .opt[data-v="Free re-clean"]').getAttribute('aria-checked')).toBe('true');
    // Changing the problem to damage takes the re-clean away.
    await tap(s, s.page.locator('#f-issue .pick'));
    await tap(s, exact(s, '#issues .opt .t', 'Damaged'));
    expect(await s.page.locator('#g-res .opt[data-v="Free re-clean"]').isDisabled()).toBe(true);
    expect(await s.page.getByText('Only for stains that are still there').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.primary', 'Submit claim'));
    expect(await s.page.locator('#e-res').textContent()).toBe('Choose how we should make it right');
    await tap(s, s.page.locator('#g-res .opt[data-v="Refund to card"]'));
    await tap(s, exact(s, 'button.primary', 'Submit claim'));
    expect(await s.page.getByText('Submit this claim?').isVisible()).toBe(true);
    expect(await s.page.locator('#confirm-text').textContent()).toBe('Navy wool trousers from order #48213: Damaged. We will refund $9.95 to Visa •••• 4242.');
    await tap(s, exact(s, '#confirm button', 'Cancel'));
    const sp = { claim_order: '48213', claim_item: 'Navy wool trousers', issue: 'Damaged', resolution: 'Refund to card' };
    expect(await check(s, spec('report_issue', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Submit claim'));
    await tap(s, s.page.locator('#confirm-ok'));
    expect(await s.page.getByText('Claim submitted').first().isVisible()).toBe(true);
    expect(await s.page.getByText('Claim open · Damaged').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).laundry, spec('report_issue', sp)).reason).toBe('claimed Damaged for the Navy wool trousers from order #48213, asking for Refund to card');
    expect(checkApp((await s.checkerState()).laundry, spec('report_issue', { ...sp, claim_item: 'Navy wool blazer' })).reason).toBe(
      'no claim was made for the Navy wool blazer from order #48213 (made for "Navy wool trousers from order #48213" instead)',
    );
    expect(await check(s, spec('report_issue', { ...sp, claim_order: '48231', claim_item: 'Khaki chinos' }))).toBe(false);
    expect(await check(s, spec('report_issue', { ...sp, resolution: 'FreshFold credit' }))).toBe(false);
    expect(await check(s, spec('report_issue', { ...sp, issue: 'Shrunk or faded' }))).toBe(false);
    // A claim on the near-duplicate order fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Orders"]'));
    await tap(s, exact(s, '.seg2 a', 'Past'));
    await tap(s, s.page.locator('a.ord[data-number="48231"]'));
    await tap(s, exact(s, 'a.outline', 'Report a problem'));
    await tap(s, s.page.locator('#g-item .opt[data-name="Grey dress pants"]'));
    await tap(s, s.page.locator('#f-issue .pick'));
    await tap(s, exact(s, '#issues .opt .t', 'Stain not removed'));
    await tap(s, s.page.locator('#g-res .opt[data-v="Free re-clean"]'));
    await tap(s, exact(s, 'button.primary', 'Submit claim'));
    await tap(s, s.page.locator('#confirm-ok'));
    expect(await s.page.getByText('Claim submitted').first().isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).laundry, spec('report_issue', sp)).reason).toBe(
      '2 claims were made ("Navy wool trousers from order #48213", "Grey dress pants from order #48231"), expected one',
    );
    await s.close();
  }, 120_000);

  it('saves the detergent and starch only on Save; leaving discards, the near-duplicate detergent, another starch or an extra change fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="Account"]'));
    expect(await s.page.getByText('Your account').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.srow[href$="/account/preferences"]'));
    expect(await s.page.getByText('How we wash your clothes', { exact: false }).isVisible()).toBe(true);
    await tap(s, s.page.locator('#r-detergent'));
    await tap(s, exact(s, '#detergents .opt .t', 'Free & Clear Sensitive'));
    expect(await s.page.locator('#det-v').textContent()).toBe('Free & Clear Sensitive');
    await tap(s, s.page.locator('.seg[data-k="starch"] button[data-v="Heavy"]'));
    // Back with unsaved changes asks first; Discard leaves without saving.
    await tap(s, s.page.locator('header button[aria-label="Back"]'));
    expect(await s.page.getByText('Discard changes?').isVisible()).toBe(true);
    await tap(s, s.page.locator('#discard-ok'));
    expect(await s.page.getByText('Your account').isVisible()).toBe(true);
    const sp = { detergent: 'Free & Clear', starch: 'Medium' };
    expect(checkApp((await s.checkerState()).laundry, spec('update_preferences', sp)).reason).toBe('the cleaning preferences were not saved');
    await tap(s, s.page.locator('a.srow[href$="/account/preferences"]'));
    expect(await s.page.locator('#det-v').textContent()).toBe('Classic Fresh');
    await tap(s, s.page.locator('#r-detergent'));
    await tap(s, exact(s, '#detergents .opt .t', 'Free & Clear'));
    // Medium under Dryer heat is not the starch.
    await tap(s, s.page.locator('.seg[data-k="dryer"] button[data-v="High"]'));
    await tap(s, s.page.locator('.seg[data-k="starch"] button[data-v="Medium"]'));
    await tap(s, exact(s, 'button.primary', 'Save preferences'));
    expect(await s.page.getByText('Preferences saved').first().isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).laundry, spec('update_preferences', sp)).reason).toBe('the detergent and starch were set but dryer heat to High changed too');
    await tap(s, s.page.locator('.seg[data-k="dryer"] button[data-v="Medium"]'));
    await tap(s, exact(s, 'button.primary', 'Save preferences'));
    expect(checkApp((await s.checkerState()).laundry, spec('update_preferences', sp)).reason).toBe('saved Free & Clear detergent and Medium starch');
    expect(checkApp((await s.checkerState()).laundry, spec('update_preferences', { ...sp, detergent: 'Free & Clear Sensitive' })).reason).toBe(
      'the detergent is Free & Clear, expected Free & Clear Sensitive',
    );
    expect(await check(s, spec('update_preferences', { ...sp, starch: 'Heavy' }))).toBe(false);
    // Saved: going back needs no confirmation.
    await tap(s, s.page.locator('header button[aria-label="Back"]'));
    expect(await s.page.getByText('Your account').isVisible()).toBe(true);
    await s.close();
  }, 120_000);

  it('validates the Add address form field by field, saves one address, and another ZIP or handoff or a second address fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('.bnav a[aria-label="Account"]'));
    await tap(s, s.page.locator('a.srow[href$="/account/addresses"]'));
    expect(await s.page.getByText('Saved addresses').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.outline[href$="/addresses/new"]'));
    await tap(s, exact(s, 'button.primary', 'Save address'));
    expect(await s.page.getByText('Enter a street address').isVisible()).toBe(true);
    expect(await s.page.getByText('Enter a ZIP code').isVisible()).toBe(true);
    expect(await s.page.getByText('Choose how the driver should pick up and drop off').isVisible()).toBe(true);
    await typeInto(s, '#street', '415 larkin street');
    await typeInto(s, '#apt', 'Apt 3B');
    await typeInto(s, '#zip', '94102');
    await tap(s, s.page.locator('#g-handoff .opt[data-v="Leave at my door"]'));
    await tap(s, exact(s, 'button.primary', 'Save address'));
    expect(await s.page.getByText('This address is already saved as Home').isVisible()).toBe(true);
    await clear(s, '#street', 17);
    await step(s, { action: 'type', text: 'Haight St' });
    await clear(s, '#apt', 6);
    await clear(s, '#zip', 5);
    await step(s, { action: 'type', text: '94501' });
    await tap(s, exact(s, 'button.primary', 'Save address'));
    expect(await s.page.getByText('Start with the building number, like 415 Larkin St').isVisible()).toBe(true);
    expect(await s.page.getByText("We don't pick up in 94501 yet. FreshFold serves San Francisco.").isVisible()).toBe(true);
    await clear(s, '#street', 9);
    await step(s, { action: 'type', text: '640 Haight St' });
    await clear(s, '#zip', 5);
    await step(s, { action: 'type', text: '94117' });
    const sp = { new_street: '640 Haight St', new_zip: '94117', handoff: 'Leave at my door' };
    expect(await check(s, spec('add_address', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Save address'));
    expect(await s.page.getByText('Address added').first().isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).laundry, spec('add_address', sp)).reason).toBe('added 640 Haight St, 94117 with Leave at my door');
    expect(checkApp((await s.checkerState()).laundry, spec('add_address', { ...sp, new_zip: '94115' })).reason).toBe('640 Haight St was saved with ZIP 94117, expected 94115');
    expect(await check(s, spec('add_address', { ...sp, handoff: 'Leave at the front desk' }))).toBe(false);
    expect(await check(s, spec('add_address', { ...sp, new_street: '2130 Fillmore St', new_zip: '94115' }))).toBe(false);
    await tap(s, s.page.locator('a.outline[href$="/addresses/new"]'));
    await typeInto(s, '#street', '88 King St');
    await typeInto(s, '#zip', '94107');
    await tap(s, s.page.locator('#g-handoff .opt[data-v="Leave in the lobby"]'));
    await tap(s, exact(s, 'button.primary', 'Save address'));
    expect(await s.page.getByText('Address added').first().isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).laundry, spec('add_address', sp)).reason).toBe('2 addresses were added ("640 Haight St, 94117", "88 King St, 94107"), expected one');
    await s.close();
  }, 120_000);
});
