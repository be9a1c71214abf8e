import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  canRedirect,
  canReschedule,
  dayLabel,
  initialParcelState,
  pointTakes,
  rescheduleDays,
  sendErrors,
  SERVICE_NAMES,
  SIZE_NAMES,
  TRACKABLE,
  ZIPS,
} from '../../environments/apps/parcels/state.js';

const { step, tap, exact, spec, check, open } = usePhone('parcels', 'ParcelHub');

describe('ParcelHub parcel delivery app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('parcels');
    expect(app?.title).toBe('ParcelHub');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialParcelState(3);
    expect(st).toEqual(initialParcelState(3));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    // Only packages whose delivery can be changed in a fresh session of any seed, only days and points they can take.
    for (const seed of [1, 2, 3, 7, 42]) {
      const s = initialParcelState(seed);
      const movable = s.parcels.filter(canReschedule);
      expect(slot('packages', 'sender')?.values.sort()).toEqual(movable.map((p) => p.sender).sort());
      const days = slot('day_picker', 'new_day')?.dependsOn?.values ?? {};
      for (const p of movable) expect(days[p.sender], p.sender).toEqual(rescheduleDays(p).map(dayLabel));
      const redirectable = s.parcels.filter(canRedirect);
      expect(slot('packages', 'redirect_sender')?.values.sort()).toEqual(redirectable.map((p) => p.sender).sort());
      const points = slot('points_pick', 'pickup_point')?.dependsOn?.values ?? {};
      for (const p of redirectable) expect((points[p.sender] ?? []).sort(), p.sender).toEqual(s.points.filter((pt) => pointTakes(pt, p)).map((pt) => pt.name).sort());
    }
    expect(slot('packages', 'sender')?.values).not.toContain('HelloFresh');
    expect(slot('packages', 'redirect_sender')?.values).not.toContain('IKEA');
    // Tracking numbers exist but are not on the account; each has its own name.
    for (const t of slot('track_form', 'tracking')?.values ?? []) {
      expect(TRACKABLE.map(([n]) => n)).toContain(t);
      expect(st.parcels.map((p) => p.tracking)).not.toContain(t);
    }
    const names = slot('track_form', 'nickname')?.dependsOn?.values ?? {};
    expect(new Set(Object.values(names).flat()).size).toBe(Object.values(names).flat().length);
    // Recipients: the form accepts every name, street and ZIP code the DAG offers.
    const streets = slot('send_form', 'street')?.dependsOn?.values ?? {};
    const zips = slot('send_form', 'zip')?.dependsOn?.values ?? {};
    for (const r of slot('send_form', 'recipient')?.values ?? [])
      for (const street of streets[r] ?? []) for (const zip of zips[r] ?? []) expect(sendErrors({ recipient: r, street, zip, size: 'Small box' }), r).toEqual({});
    expect(slot('send_form', 'size')?.values).toEqual([...SIZE_NAMES]);
    expect(slot('send_service', 'service')?.values).toEqual([...SERVICE_NAMES]);
    expect(() => checkApp(st, spec('reschedule_delivery', { sender: 'Zara Kids', new_day: 'Friday, June 13' }))).toThrow(/unknown sender/);
    expect(() => checkApp(st, spec('reschedule_delivery', { sender: 'Zara', new_day: 'Friday, June 14' }))).toThrow(/unknown new_day/);
    expect(() => checkApp(st, spec('redirect_to_pickup', { redirect_sender: 'Uniqlo', pickup_point: 'Corner Market' }))).toThrow(/unknown redirect_sender/);
    expect(() => checkApp(st, spec('track_package', { tracking: 'PH4417092600', nickname: 'Woven rug' }))).toThrow(/unknown tracking/);
    expect(() => checkApp(st, spec('send_parcel', { recipient: 'Dana Whitfield', street: '2217 Alder Street', zip: '97214', size: 'Medium box' }))).toThrow(/missing param "service"/);
    expect(() => checkApp(st, spec('send_parcel', { recipient: 'Dana Whitfield', street: '2217 Alder Street', zip: '99999', size: 'Medium box', service: 'Ground' }))).toThrow(/unknown zip/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('reschedule_delivery', { sender: 'Zara', new_day: 'Friday, June 13' }))).toEqual({ success: false, reason: 'the Zara package was not changed' });
    expect(checkApp(st, spec('redirect_to_pickup', { redirect_sender: 'Chewy', pickup_point: 'Corner Market' }))).toEqual({ success: false, reason: 'the Chewy package was not changed' });
    expect(checkApp(st, spec('track_package', { tracking: 'PH4417092635', nickname: 'Woven rug' }))).toEqual({ success: false, reason: 'no package was added' });
    expect(checkApp(st, spec('send_parcel', { recipient: 'Dana Whitfield', street: '2217 Alder Street', zip: '97214', size: 'Medium box', service: 'Ground' }))).toEqual({
      success: false,
      reason: 'no label was bought',
    });
    expect(Object.keys(ZIPS)).toContain('97217'); // a near-duplicate of 97214 the form accepts
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['parcels'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialParcelState(1), q.checker).success).toBe(false);
    }
  });

  it('moves a package to another day only after the dialog; changes that are not possible are explained, and the near-duplicate, another day or a second change fails', async () => {
    const s = await open();
    expect(await s.page.locator('a.trackbar').isVisible()).toBe(true);
    // Out for delivery: no changes.
    await tap(s, exact(s, '.pk .n', 'Apple'));
    expect(await s.page.getByText('The driver already has this package', { exact: false }).isVisible()).toBe(true);
    await step(s, { action: 'system_button', button: 'Back' });
    // Perishable: the other day option is greyed out.
    await tap(s, exact(s, '.pk .n', 'HelloFresh'));
    await tap(s, exact(s, 'a.primary', 'Change delivery'));
    expect(await s.page.getByText('Perishable packages are delivered as soon as possible').isVisible()).toBe(true);
    await step(s, { action: 'system_button', button: 'Back' });
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.pk .n', 'Zara'));
    expect(await s.page.getByText('Arriving Thursday, June 12').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Change delivery'));
    await tap(s, exact(s, '.opt .t', 'Deliver on another day'));
    expect(await s.page.getByText('Choose a new delivery day').isVisible()).toBe(true);
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    await tap(s, s.page.locator('button.opt[data-label="Saturday, June 14"]'));
    await tap(s, exact(s, 'button.primary', 'Confirm new day'));
    expect(await s.page.getByText('Change delivery day?').isVisible()).toBe(true);
    expect(await s.page.locator('#confirm-text').textContent()).toBe(
      'Your Zara package will arrive on Saturday, June 14 instead of Thursday, June 12. A $4.99 Saturday fee will be charged to Visa •••• 4242.',
    );
    await tap(s, exact(s, '#confirm button', 'Cancel'));
    const sp = { sender: 'Zara', new_day: 'Friday, June 13' };
    expect(await check(s, spec('reschedule_delivery', sp))).toBe(false);
    await tap(s, s.page.locator('button.opt[data-label="Friday, June 13"]'));
    await tap(s, exact(s, 'button.primary', 'Confirm new day'));
    await tap(s, s.page.locator('#confirm-ok'));
    expect(await s.page.getByText('Delivery day changed').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).parcels, spec('reschedule_delivery', sp)).reason).toBe('the Zara package was moved to Friday, June 13');
    expect(await check(s, spec('reschedule_delivery', { sender: 'Zara Home', new_day: 'Friday, June 13' }))).toBe(false);
    expect(await check(s, spec('reschedule_delivery', { sender: 'Zara', new_day: 'Saturday, June 14' }))).toBe(false);
    // Moving it a second time fails even when it ends on the day asked for.
    await tap(s, exact(s, 'a.primary', 'Change delivery'));
    await tap(s, exact(s, '.opt .t', 'Deliver on another day'));
    await tap(s, s.page.locator('button.opt[data-label="Monday, June 16"]'));
    await tap(s, exact(s, 'button.primary', 'Confirm new day'));
    await tap(s, s.page.locator('#confirm-ok'));
    expect(await s.page.getByText('Arriving Monday, June 16').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).parcels, spec('reschedule_delivery', { sender: 'Zara', new_day: 'Monday, June 16' })).reason).toBe(
      'the Zara package was changed 2 times ("Zara: moved to Friday, June 13", "Zara: moved to Monday, June 16"), expected once',
    );
    await s.close();
  }, 90_000);

  it('sends a package to a pickup point after the sheet; full and too-small lockers are greyed out, and the near-duplicate point, another package or an extra change fails', async () => {
    const s = await open(2);
    await tap(s, exact(s, '.pk .n', 'IKEA'));
    await tap(s, exact(s, 'a.primary', 'Change delivery'));
    expect(await s.page.getByText('Too large for ParcelHub Points').isVisible()).toBe(true);
    expect(await s.page.getByText('This package needs a signature').isVisible()).toBe(true);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('.bnav a[aria-label="Packages"]'));
    await tap(s, exact(s, '.pk .n', 'Chewy'));
    await tap(s, exact(s, 'a.primary', 'Change delivery'));
    await tap(s, exact(s, '.opt .t', 'Pick up at a ParcelHub Point'));
    expect(await s.page.getByText('ParcelHub Points near', { exact: false }).isVisible()).toBe(true);
    const row = (name: string) => s.page.locator('#pts .opt').filter({ has: exact(s, '.t', name) });
    expect(await row('ParcelHub Locker – Union Station').getAttribute('aria-disabled')).toBe('true');
    expect(await row('ParcelHub Locker – Union Station').textContent()).toContain('Too big for lockers');
    expect(await row('ParcelHub Locker – Union Square').textContent()).toContain('Full right now');
    await tap(s, exact(s, '#pts .t', 'CVS Pharmacy – Oakland Ave'));
    expect(await s.page.getByText('Bring a photo ID. The store holds it for 7 days.').isVisible()).toBe(true);
    await tap(s, exact(s, '#pt button', 'Not now'));
    const sp = { redirect_sender: 'Chewy', pickup_point: 'CVS Pharmacy – Oakland Ave' };
    expect(await check(s, spec('redirect_to_pickup', sp))).toBe(false);
    await tap(s, exact(s, '#pts .t', 'CVS Pharmacy – Oakland Ave'));
    await tap(s, s.page.locator('#pt-ok'));
    expect(await s.page.getByText('Redirect confirmed').isVisible()).toBe(true);
    expect(await check(s, spec('redirect_to_pickup', sp))).toBe(true);
    expect(checkApp((await s.checkerState()).parcels, spec('redirect_to_pickup', { ...sp, pickup_point: 'CVS Pharmacy – Oak Ave' })).reason).toBe(
      'the Chewy package was sent to CVS Pharmacy – Oakland Ave, expected CVS Pharmacy – Oak Ave',
    );
    expect(await check(s, spec('redirect_to_pickup', { redirect_sender: 'Zara', pickup_point: 'CVS Pharmacy – Oakland Ave' }))).toBe(false);
    expect(await check(s, spec('reschedule_delivery', { sender: 'Chewy', new_day: 'Friday, June 13' }))).toBe(false);
    // Going to a point: no safe place any more.
    await tap(s, exact(s, 'a.primary', 'Change delivery'));
    expect(await s.page.getByText('Only for deliveries to your door').isVisible()).toBe(true);
    // A safe place for another package fails the task.
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('.bnav a[aria-label="Packages"]'));
    expect(await s.page.getByText('Going to CVS Pharmacy – Oakland Ave').isVisible()).toBe(true);
    await tap(s, exact(s, '.pk .n', 'Target'));
    await tap(s, exact(s, 'a.primary', 'Change delivery'));
    await tap(s, exact(s, '.opt .t', 'Leave in a safe place'));
    expect(await s.page.locator('button.opt.sel').textContent()).toBe('Front door');
    await tap(s, exact(s, 'button.opt .t', 'Porch'));
    await tap(s, exact(s, 'button.primary', 'Save'));
    expect(await exact(s, '.kv .v', 'Porch').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).parcels, spec('redirect_to_pickup', sp)).reason).toBe(
      'the Chewy package was sent to CVS Pharmacy – Oakland Ave but "Target: safe place Porch" changed too',
    );
    await s.close();
  }, 90_000);

  it('validates the tracking number, adds one package under its name, and the near-duplicate number, another name or a second package fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('a.trackbar'));
    await tap(s, exact(s, 'button.primary', 'Track'));
    expect(await s.page.getByText('Enter a tracking number').isVisible()).toBe(true);
    const clear = async (id: string, n: number): Promise<void> => {
      await tap(s, s.page.locator(id));
      for (let i = 0; i < n; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    };
    await tap(s, s.page.locator('#tracking'));
    await step(s, { action: 'type', text: 'PH 4417 0926' });
    await tap(s, exact(s, 'button.primary', 'Track'));
    expect(await s.page.getByText('ParcelHub tracking numbers are PH followed by 10 digits').isVisible()).toBe(true);
    await clear('#tracking', 12);
    await step(s, { action: 'type', text: 'PH2047719305' });
    await tap(s, exact(s, 'button.primary', 'Track'));
    expect(await s.page.getByText('This package is already in your list').isVisible()).toBe(true);
    await clear('#tracking', 12);
    await step(s, { action: 'type', text: 'PH4417092600' });
    await tap(s, exact(s, 'button.primary', 'Track'));
    expect(await s.page.getByText("We can't find a package with this number. Check it and try again.").isVisible()).toBe(true);
    await clear('#tracking', 12);
    await step(s, { action: 'type', text: 'ph 4417 0926 35' });
    await tap(s, s.page.locator('#nickname'));
    await step(s, { action: 'type', text: 'Woven rug' });
    const sp = { tracking: 'PH4417092635', nickname: 'Woven rug' };
    expect(await check(s, spec('track_package', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Track'));
    expect(await s.page.getByText('Added to your packages').isVisible()).toBe(true);
    expect(await check(s, spec('track_package', sp))).toBe(true);
    expect(await check(s, spec('track_package', { ...sp, tracking: 'PH4417092653' }))).toBe(false);
    expect(checkApp((await s.checkerState()).parcels, spec('track_package', { ...sp, nickname: 'Vintage camera' })).reason).toBe(
      'PH4417092635 was named "Woven rug", expected "Vintage camera"',
    );
    await tap(s, s.page.locator('.bnav a[aria-label="Packages"]'));
    expect(await exact(s, '.pk .n', 'Woven rug').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.trackbar'));
    await tap(s, s.page.locator('#tracking'));
    await step(s, { action: 'type', text: 'PH4417092653' });
    await tap(s, s.page.locator('#nickname'));
    await step(s, { action: 'type', text: 'woven rug' });
    await tap(s, exact(s, 'button.primary', 'Track'));
    expect(await s.page.getByText('Another package already has this name').isVisible()).toBe(true);
    await clear('#nickname', 9);
    await step(s, { action: 'type', text: 'Vintage camera' });
    await tap(s, exact(s, 'button.primary', 'Track'));
    expect(await s.page.getByText('Added to your packages').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).parcels, spec('track_package', sp)).reason).toBe('2 packages were added ("PH4417092635", "PH4417092653"), expected one');
    await s.close();
  }, 90_000);

  it('validates the send form field by field, buys one label after choosing the service and paying, and a wrong ZIP, size or service or a second label fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('.bnav a[aria-label="Send"]'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText("Enter the recipient's name").isVisible()).toBe(true);
    expect(await s.page.getByText('Enter a street address').isVisible()).toBe(true);
    expect(await s.page.getByText('Enter a ZIP code').isVisible()).toBe(true);
    expect(await s.page.getByText('Choose a package size').isVisible()).toBe(true);
    const clear = async (id: string, n: number): Promise<void> => {
      await tap(s, s.page.locator(id));
      for (let i = 0; i < n; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    };
    await tap(s, s.page.locator('#recipient'));
    await step(s, { action: 'type', text: 'Dana' });
    await tap(s, s.page.locator('#street'));
    await step(s, { action: 'type', text: 'Alder Street' });
    await tap(s, s.page.locator('#zip'));
    await step(s, { action: 'type', text: '9721' });
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText('Enter first and last name').isVisible()).toBe(true);
    expect(await s.page.getByText('Start with the house or building number').isVisible()).toBe(true);
    expect(await s.page.getByText('Enter a 5-digit ZIP code').isVisible()).toBe(true);
    await step(s, { action: 'type', text: '9' });
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText("We don't deliver to this ZIP code yet").isVisible()).toBe(true);
    await clear('#recipient', 4);
    await step(s, { action: 'type', text: 'Dana Whitfield' });
    await clear('#street', 12);
    await step(s, { action: 'type', text: '2217 Alder St.' });
    await clear('#zip', 5);
    await step(s, { action: 'type', text: '97214' });
    expect(await s.page.locator('#city').textContent()).toBe('Portland, OR');
    await tap(s, exact(s, '.sizes .opt .t', 'Medium box'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText('How fast?').isVisible()).toBe(true);
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    await tap(s, exact(s, 'button.opt .t', '2-Day'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    expect(await s.page.getByText('Review and pay').first().isVisible()).toBe(true);
    const sp = { recipient: 'Dana Whitfield', street: '2217 Alder Street', zip: '97214', size: 'Medium box', service: '2-Day' };
    expect(await check(s, spec('send_parcel', sp))).toBe(false);
    await tap(s, s.page.locator('button.primary').filter({ hasText: 'Pay $23.10' }));
    expect(await s.page.getByText('Your label is ready').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).parcels, spec('send_parcel', sp)).reason).toBe(
      'a 2-Day label for a Medium box to Dana Whitfield, 2217 Alder Street, 97214 was bought',
    );
    expect(await check(s, spec('send_parcel', { ...sp, zip: '97217' }))).toBe(false);
    expect(await check(s, spec('send_parcel', { ...sp, size: 'Small box' }))).toBe(false);
    expect(await check(s, spec('send_parcel', { ...sp, service: 'Ground' }))).toBe(false);
    expect(await check(s, spec('send_parcel', { ...sp, street: '2271 Alder Street' }))).toBe(false);
    // Back from the label does not pay again; a second label fails the task.
    await step(s, { action: 'system_button', button: 'Back' });
    expect(await s.page.getByText("Recipient's full name").isVisible()).toBe(true);
    await tap(s, s.page.locator('#recipient'));
    await step(s, { action: 'type', text: 'Marcus Obi' });
    await tap(s, s.page.locator('#street'));
    await step(s, { action: 'type', text: '58 Harbor View Road' });
    await tap(s, s.page.locator('#zip'));
    await step(s, { action: 'type', text: '98109' });
    await tap(s, exact(s, '.sizes .opt .t', 'Envelope'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    await tap(s, exact(s, 'button.opt .t', 'Ground'));
    await tap(s, exact(s, 'button.primary', 'Continue'));
    await tap(s, s.page.locator('button.primary').filter({ hasText: 'Pay $6.95' }));
    expect(await s.page.getByText('Your label is ready').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).parcels, spec('send_parcel', sp)).reason).toBe('the label is for "Marcus Obi", expected "Dana Whitfield"');
    expect(checkApp((await s.checkerState()).parcels, spec('send_parcel', { recipient: 'Marcus Obi', street: '58 Harbor View Rd', zip: '98109', size: 'Envelope', service: 'Ground' })).reason).toBe(
      '2 labels were bought ("Dana Whitfield, 2-Day", "Marcus Obi, Ground"), expected one',
    );
    await s.close();
  }, 120_000);
});
