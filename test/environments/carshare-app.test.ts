import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { centerOf } from '../../environments/scripted.js';
import { generateQueries } from '../../query-gen/sample.js';
import { directApp, usePhone } from './phone-driver.js';
import {
  canExtend,
  canReport,
  conflict,
  DAMAGE_AREAS,
  dayLabel,
  DURATIONS,
  EMAIL_RE,
  endOf,
  EXTRAS,
  hoursLabel,
  initialCarshareState,
  isPast,
  liveDrivers,
  openDays,
  RELATION_NAMES,
  START_HOURS,
  timeLabel,
  type CarshareState,
} from '../../environments/apps/carshare/state.js';

const { step, tap, exact, spec, check, open } = usePhone('carshare', 'Wheelnook');

const state = async (s: ChromiumSession): Promise<CarshareState> => (await s.checkerState()).carshare as CarshareState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
const car = (s: ChromiumSession, model: string) => s.page.locator(`a.car[data-car="${model}"]`);
const trip = (s: ChromiumSession, model: string) => s.page.locator(`a.trow[data-car="${model}"]`);
const day = (s: ChromiumSession, label: string) => s.page.locator(`.strip .dd[aria-label="${label}"]`);
const time = (s: ChromiumSession, d: number, h: number) => s.page.locator(`.tm[data-day="${d}"][data-t="${h}"]`);
const sameText = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();
const modelOf = (st: CarshareState, carId: number): string => st.cars.find((c) => c.id === carId)?.model ?? '';

/** The app driven through its request handler, no browser. */
const direct = (seed: number) => directApp<CarshareState>('carshare', seed);

describe('Wheelnook car-sharing app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered after Mendwick with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('carshare');
    expect(app?.title).toBe('Wheelnook');
    expect(BUILT_IN_APPS.findIndex((a) => a.id === 'carshare')).toBeGreaterThan(BUILT_IN_APPS.findIndex((a) => a.id === 'repairs'));
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialCarshareState(3);
    expect(st).toEqual(initialCarshareState(3));
    expect(initialCarshareState(3)).not.toEqual(initialCarshareState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    for (let seed = 1; seed <= 20; seed++) {
      const s = initialCarshareState(seed);
      // Reserving: every car in service is offered, on the days it and the member are free; every start time and length offered fits on them.
      const reservable = s.cars.filter((c) => c.inService);
      expect([...(slot('home', 'car')?.values ?? [])].sort()).toEqual(reservable.map((c) => c.model).sort());
      const days = slot('reserve_time', 'reserve_day')?.dependsOn?.values ?? {};
      const starts = (slot('reserve_time', 'start_time')?.values ?? []).map((t) => START_HOURS.find((h) => sameText(timeLabel(h), t)));
      const lengths = (slot('reserve_time', 'hours')?.values ?? []).map((t) => DURATIONS.find((h) => sameText(hoursLabel(h), t)));
      for (const c of reservable) {
        expect(days[c.model], c.model).toEqual(openDays(s, c).map(dayLabel));
        for (const d of openDays(s, c)) for (const h of starts) for (const n of lengths) expect(conflict(s, c.id, d * 24 + h!, d * 24 + h! + n!), `${c.model} ${dayLabel(d)} ${h} ${n}`).toBeNull();
      }
      // Extending: exactly the current and upcoming trips, one per car, each free for every extra time offered.
      const extendable = s.reservations.filter(canExtend);
      expect([...(slot('trips', 'extend_car')?.values ?? [])].sort()).toEqual(extendable.map((r) => modelOf(s, r.carId)).sort());
      expect(new Set(extendable.map((r) => r.carId)).size).toBe(extendable.length);
      for (const r of extendable)
        for (const e of slot('extend', 'extra_time')?.values ?? []) {
          const by = EXTRAS.find(([x]) => sameText(x, e))?.[1] ?? 0;
          expect(conflict(s, r.carId, endOf(r), endOf(r) + by, r.id), `${modelOf(s, r.carId)} ${e}`).toBeNull();
        }
      // Reporting: exactly the past trips of the last 14 days, one per car.
      const reportable = s.reservations.filter((r) => isPast(r) && canReport(r));
      expect([...(slot('past_trips', 'damage_car')?.values ?? [])].sort()).toEqual(reportable.map((r) => modelOf(s, r.carId)).sort());
      expect(new Set(reportable.map((r) => r.carId)).size).toBe(reportable.length);
    }
    for (const a of slot('damage_form', 'damage_area')?.values ?? []) expect(DAMAGE_AREAS.some((x) => sameText(x, a)), a).toBe(true);
    expect(Object.keys(slot('damage_form', 'damage_note')?.dependsOn?.values ?? {}).sort()).toEqual([...(slot('damage_form', 'damage_area')?.values ?? [])].sort());
    for (const n of slot('driver_form', 'driver_name')?.values ?? []) expect(liveDrivers(st).some((d) => sameText(d.name, n)), n).toBe(false);
    for (const e of slot('driver_form', 'driver_email')?.values ?? []) {
      expect(EMAIL_RE.test(e), e).toBe(true);
      expect(liveDrivers(st).some((d) => sameText(d.email, e)), e).toBe(false);
    }
    for (const r of slot('driver_form', 'driver_relation')?.values ?? []) expect(RELATION_NAMES.some((x) => sameText(x, r)), r).toBe(true);
    const rv = { car: 'Toyota Corolla Cross', reserve_day: 'Thursday, June 5', start_time: '10:00 AM', hours: '3 hours' };
    expect(() => checkApp(st, spec('reserve_car', { ...rv, car: 'Chevrolet Bolt EV' }))).toThrow(/unknown car/);
    expect(() => checkApp(st, spec('reserve_car', { ...rv, reserve_day: 'Tuesday, June 3' }))).toThrow(/unknown reserve_day/);
    expect(() => checkApp(st, spec('reserve_car', { ...rv, reserve_day: 'Wednesday, June 4' }))).toThrow(/unknown reserve_day/);
    expect(() => checkApp(st, spec('reserve_car', { ...rv, start_time: '10:30 AM' }))).toThrow(/unknown start_time/);
    expect(() => checkApp(st, spec('reserve_car', { ...rv, reserve_day: 'Friday, June 6', start_time: '7:00 AM', hours: '2 hours' }))).toThrow(/is not free/);
    expect(() => checkApp(st, spec('reserve_car', { ...rv, hours: '7 hours' }))).toThrow(/unknown hours/);
    expect(() => checkApp(st, spec('extend_trip', { extend_car: 'Kia Niro Hybrid', extra_time: '1 hour' }))).toThrow(/unknown extend_car/);
    expect(() => checkApp(st, spec('extend_trip', { extend_car: 'Toyota Corolla', extra_time: '3 hours' }))).toThrow(/is not free/);
    expect(() => checkApp(st, spec('extend_trip', { extend_car: 'Toyota Corolla', extra_time: '90 minutes' }))).toThrow(/unknown extra_time/);
    expect(() => checkApp(st, spec('report_damage', { damage_car: 'Ford Escape', damage_area: 'roof', damage_note: 'dent' }))).toThrow(/unknown damage_car/);
    expect(() => checkApp(st, spec('report_damage', { damage_car: 'Toyota Corolla Cross', damage_area: 'roof', damage_note: 'dent' }))).toThrow(/unknown damage_car/);
    expect(() => checkApp(st, spec('report_damage', { damage_car: 'Mazda3', damage_area: 'trunk', damage_note: 'dent' }))).toThrow(/unknown damage_area/);
    expect(() => checkApp(st, spec('report_damage', { damage_car: 'Mazda3', damage_area: 'roof' }))).toThrow(/missing param "damage_note"/);
    expect(() => checkApp(st, spec('add_driver', { driver_name: 'Elena Ortega', driver_email: 'e.o@example.com', driver_relation: 'friend' }))).toThrow(/already on the account/);
    expect(() => checkApp(st, spec('add_driver', { driver_name: 'Elena Ortiz', driver_email: 'elena.ortega@example.com', driver_relation: 'friend' }))).toThrow(/already on the account/);
    expect(() => checkApp(st, spec('add_driver', { driver_name: 'Elena Ortiz', driver_email: 'elena.ortiz', driver_relation: 'friend' }))).toThrow(/not an email/);
    expect(() => checkApp(st, spec('add_driver', { driver_name: 'Elena Ortiz', driver_email: 'elena.ortiz@example.com', driver_relation: 'neighbor' }))).toThrow(/unknown driver_relation/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('reserve_car', rv))).toEqual({ success: false, reason: 'no car was reserved' });
    expect(checkApp(st, spec('extend_trip', { extend_car: 'Toyota Corolla', extra_time: '1 hour' }))).toEqual({
      success: false,
      reason: 'the Toyota Corolla trip still ends at Wednesday, June 4, 1:00 PM',
    });
    expect(checkApp(st, spec('report_damage', { damage_car: 'Mazda3', damage_area: 'roof', damage_note: 'dent' }))).toEqual({ success: false, reason: 'no damage report was sent' });
    expect(checkApp(st, spec('add_driver', { driver_name: 'Elena Ortiz', driver_email: 'elena.ortiz@example.com', driver_relation: 'friend' }))).toEqual({ success: false, reason: 'no driver was added' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates).toHaveLength(3);
      for (const t of task.templates) expect(t).toContain('Wheelnook');
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['carshare'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialCarshareState(1), q.checker).success).toBe(false);
    }
  });

  it('drives every family to success through its request handler, and a near-duplicate or a missing choice fails', () => {
    // Reserve: the order of cars changes between sessions; an out-of-service car cannot be reserved; every choice is required.
    const a = direct(5);
    expect(a.page('/')).toContain('Need a car?');
    const places = (seed: number): string[] => [...direct(seed).page('/').matchAll(/data-place="([^"]+)"/g)].map((m) => m[1]!);
    expect(places(1)).toHaveLength(8);
    expect(places(1)).not.toEqual(places(2));
    const order = (html: string): string[] => [...html.matchAll(/data-car="([^"]+)"/g)].map((m) => m[1]!);
    expect(order(a.page('/search?q=harbor'))).toEqual(expect.arrayContaining(['Toyota Corolla', 'Toyota Corolla Cross', 'Tesla Model 3', 'Tesla Model Y']));
    const bolt = a.st.cars.find((c) => c.model === 'Chevrolet Bolt EV')!;
    expect(a.page(`/c/${bolt.id}`)).toContain('Out of service');
    expect(a.send('GET', `/c/${bolt.id}/reserve`)).toEqual({ status: 303, redirect: `/s/t/app/carshare/c/${bolt.id}` });
    const cx = a.st.cars.find((c) => c.model === 'Toyota Corolla Cross')!;
    expect(a.page(`/c/${cx.id}/reserve`)).toContain('When do you need it?');
    expect(a.api('reserve-time', { car: cx.id, day: 3, time: 10 })).toEqual({ ok: false, error: 'Pick how long you need it' });
    expect(a.api('reserve-time', { car: cx.id, day: 3, hours: 3 })).toEqual({ ok: false, error: 'Pick a start time' });
    expect(a.api('reserve-time', { car: cx.id, day: 1, time: 11, hours: 2 })).toEqual({ ok: false, error: 'This car is booked from 12:00 PM that day. Pick another time or fewer hours.' });
    expect(a.api('reserve-time', { car: cx.id, day: 2, time: 10, hours: 2 })).toEqual({ ok: false, error: 'You already have a trip then (Toyota Corolla, Wed, Jun 4, 9:00 AM–1:00 PM).' });
    expect(a.send('GET', `/c/${cx.id}/reserve/review`)).toEqual({ status: 303, redirect: `/s/t/app/carshare/c/${cx.id}/reserve` });
    expect(a.api('reserve-time', { car: cx.id, day: 3, time: 10, hours: 3 })).toEqual({ ok: true });
    expect(a.page(`/c/${cx.id}/reserve/review`)).toContain('Thursday, June 5, 1:00 PM');
    const rv = { car: 'Toyota Corolla Cross', reserve_day: 'Thursday, June 5', start_time: '10:00 AM', hours: '3 hours' };
    expect(a.run('reserve_car', rv).reason).toBe('no car was reserved');
    const made = a.api('reserve', { car: cx.id, protection: 'Reduced damage fee' });
    expect(made.ok).toBe(true);
    expect(a.page(`/t/${String(made.id)}?toast=reserved`)).toContain("You're all set");
    expect(a.run('reserve_car', rv)).toEqual({ success: true, reason: 'reserved the Toyota Corolla Cross, Thursday, June 5, 10:00 AM, 3 hours' });
    expect(a.run('reserve_car', { ...rv, car: 'Toyota Corolla' }).reason).toBe('the reservation is for the Toyota Corolla Cross, expected the Toyota Corolla');
    expect(a.run('reserve_car', { ...rv, hours: '4 hours' }).reason).toBe('the Toyota Corolla Cross reservation is for 3 hours, expected 4 hours');

    // Extend: the Corolla (not the Cross, not the Fit) by an hour; 3 hours runs into another member's booking.
    const b = direct(6);
    const corolla = b.st.reservations.find((r) => canExtend(r) && modelOf(b.st, r.carId) === 'Toyota Corolla')!;
    const ext = b.page(`/t/${corolla.id}/extend`);
    expect(ext).toContain('How much more time?');
    expect(ext).toContain('Not available · another member has it from 3:30 PM');
    expect(b.api('extend', { id: corolla.id, extra: '' })).toEqual({ ok: false, error: 'Choose how much time to add' });
    expect(b.api('extend', { id: corolla.id, extra: '3 hours' })).toEqual({ ok: false, error: 'The car is not free for that long' });
    expect(b.api('extend', { id: corolla.id, extra: '1 hour' })).toEqual({ ok: true });
    expect(b.page(`/t/${corolla.id}?toast=extended`)).toContain('Trip extended');
    const ex = { extend_car: 'Toyota Corolla', extra_time: '1 hour' };
    expect(b.run('extend_trip', ex)).toEqual({ success: true, reason: 'extended the Toyota Corolla trip by 1 hour: return by Wednesday, June 4, 2:00 PM' });
    expect(b.run('extend_trip', { ...ex, extra_time: '2 hours' }).reason).toBe('the Toyota Corolla trip was extended by 1 hour, expected 2 hours');
    expect(b.run('extend_trip', { ...ex, extend_car: 'Toyota Corolla Cross' }).reason).toBe(
      'the Toyota Corolla Cross trip still ends at Saturday, June 7, 4:00 PM (extended "Toyota Corolla" instead)',
    );

    // Report damage: area and description are required; a trip over 14 days ago goes through support.
    const c = direct(7);
    const escape = c.st.reservations.find((r) => modelOf(c.st, r.carId) === 'Ford Escape')!;
    expect(c.page(`/t/${escape.id}`)).toContain('more than 14 days ago');
    expect(c.send('GET', `/t/${escape.id}/damage`)).toEqual({ status: 303, redirect: `/s/t/app/carshare/t/${escape.id}` });
    const niro = c.st.reservations.find((r) => isPast(r) && canReport(r) && modelOf(c.st, r.carId) === 'Kia Niro Hybrid')!;
    expect(c.page(`/t/${niro.id}/damage`)).toContain('Where is the damage?');
    expect(c.api('report', { id: niro.id, area: '', note: '' })).toEqual({ ok: false, errors: { area: 'Choose where the damage is', note: 'Describe the damage in a few words' } });
    expect(c.api('report', { id: niro.id, area: 'Rear bumper', note: '  Dent above the tailpipe.  ' })).toEqual({ ok: true });
    const dm = { damage_car: 'Kia Niro Hybrid', damage_area: 'rear bumper', damage_note: 'dent above the tailpipe' };
    expect(c.run('report_damage', dm)).toEqual({ success: true, reason: 'reported Rear bumper damage on the Kia Niro Hybrid trip of Saturday, May 31: "Dent above the tailpipe."' });
    expect(c.run('report_damage', { ...dm, damage_area: 'front bumper' }).reason).toBe('the report on the Kia Niro Hybrid trip of Saturday, May 31 is for the Rear bumper, expected front bumper');
    expect(c.run('report_damage', { ...dm, damage_note: 'scratch by the trunk latch' }).reason).toBe(
      'the report on the Kia Niro Hybrid trip of Saturday, May 31 says "Dent above the tailpipe.", expected it to say "scratch by the trunk latch"',
    );

    // Add a driver: every field is required and one already on the account is refused.
    const d = direct(8);
    expect(d.page('/account/drivers/new')).toContain('How do you know them?');
    expect(d.api('driver-form', { name: 'Elena', email: 'elena.ortiz', relation: '' })).toEqual({
      ok: false,
      errors: { name: 'Enter their first and last name', email: 'Enter a valid email address', relation: 'Choose how you know them' },
    });
    expect(d.api('driver-form', { name: 'Elena Ortiz', email: 'Elena.Ortega@example.com', relation: 'Friend' })).toEqual({ ok: false, errors: { email: 'That email is already on your account' } });
    expect(d.send('GET', '/account/drivers/review')).toEqual({ status: 303, redirect: '/s/t/app/carshare/account/drivers/new' });
    expect(d.api('driver-form', { name: ' Elena  Ortiz ', email: 'elena.ortiz@example.com', relation: 'Friend' })).toEqual({ ok: true });
    expect(d.page('/account/drivers/review')).toContain('Send invite');
    expect(d.api('driver-send', {})).toEqual({ ok: true });
    expect(d.page('/account?toast=invited')).toContain('Invite sent');
    const dr = { driver_name: 'Elena Ortiz', driver_email: 'elena.ortiz@example.com', driver_relation: 'friend' };
    expect(d.run('add_driver', dr)).toEqual({ success: true, reason: 'added Elena Ortiz (elena.ortiz@example.com) as a driver (Friend)' });
    expect(d.run('add_driver', { ...dr, driver_relation: 'coworker' }).reason).toBe('Elena Ortiz was added as Friend, expected coworker');
    expect(d.run('add_driver', { ...dr, driver_email: 'elena.ortiz@example.net' }).reason).toBe('Elena Ortiz was added with elena.ortiz@example.com, expected elena.ortiz@example.net');
    expect(d.run('add_driver', { ...dr, driver_name: 'Grace Liu', driver_email: 'grace.liu@example.com' }).reason).toBe('the new driver is Elena Ortiz, expected Grace Liu');
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
    await step(s, { action: 'click', coordinate: await centerOf(s.page.locator('a.app[aria-label="Wheelnook"]')) });
    expect(await visible(s, 'Need a car?')).toBe(true);
    await s.close();
  }, 60_000);

  it('reserves a car for a day, start time and length only after Reserve car; the near-duplicate car, another day, time or length, or a second reservation fails', async () => {
    const s = await open(1);
    expect(await visible(s, 'Need a car?')).toBe(true);
    // An out-of-service car has no Reserve.
    await tap(s, s.page.locator('a.type[href$="/type/electric"]'));
    await tap(s, car(s, 'Chevrolet Bolt EV'));
    expect(await visible(s, 'Rates')).toBe(true);
    expect(await s.page.locator('#reserve').count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('#q'));
    await step(s, { action: 'type', text: 'Corolla' });
    await tap(s, exact(s, '.find button', 'Search'));
    expect(await visible(s, 'Toyota Corolla')).toBe(true);
    await tap(s, car(s, 'Toyota Corolla Cross'));
    await tap(s, s.page.locator('#reserve'));
    expect(await visible(s, 'When do you need it?')).toBe(true);
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#err').textContent()).toBe('Pick a day');
    // Tuesday midday is taken by another member.
    await tap(s, day(s, 'Tuesday, June 3'));
    expect(await s.page.locator('#wday').textContent()).toBe('Tuesday, June 3');
    expect(await s.page.locator('.times[data-for="1"] .tm.full[aria-label="12:00 PM, booked"]').count()).toBe(1);
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#err').textContent()).toBe('Pick a start time');
    await tap(s, time(s, 1, 11));
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#err').textContent()).toBe('Pick how long you need it');
    await tap(s, s.page.locator('#durs .dur[data-h="2"]'));
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#err').textContent()).toBe('This car is booked from 12:00 PM that day. Pick another time or fewer hours.');
    await tap(s, day(s, 'Thursday, June 5'));
    await tap(s, time(s, 3, 10));
    await tap(s, s.page.locator('#durs .dur[data-h="3"]'));
    expect(await s.page.locator('#sum').textContent()).toBe('Return Thu, Jun 5, 1:00 PM · Estimated $39.00');
    await tap(s, s.page.locator('#next'));
    expect(await visible(s, 'Step 2 of 2 · Review')).toBe(true);
    expect(await s.page.locator('#rv-car').textContent()).toBe('Toyota Corolla Cross');
    expect(await s.page.locator('#rv-start').textContent()).toBe('Thursday, June 5, 10:00 AM');
    expect(await s.page.locator('#rv-end').textContent()).toBe('Thursday, June 5, 1:00 PM');
    expect(await s.page.locator('#rv-hours').textContent()).toBe('3 hours');
    const sp = { car: 'Toyota Corolla Cross', reserve_day: 'Thursday, June 5', start_time: '10:00 AM', hours: '3 hours' };
    expect(await reason(s, 'reserve_car', sp)).toBe('no car was reserved');
    await tap(s, s.page.locator('#confirm'));
    expect(await visible(s, "You're all set")).toBe(true);
    expect(await reason(s, 'reserve_car', sp)).toBe('reserved the Toyota Corolla Cross, Thursday, June 5, 10:00 AM, 3 hours');
    expect(await check(s, spec('reserve_car', { ...sp, car: 'toyota corolla cross', hours: '3 HOURS' }))).toBe(true);
    expect(await reason(s, 'reserve_car', { ...sp, car: 'Toyota Corolla' })).toBe('the reservation is for the Toyota Corolla Cross, expected the Toyota Corolla');
    expect(await reason(s, 'reserve_car', { ...sp, reserve_day: 'Friday, June 6' })).toBe('the Toyota Corolla Cross reservation is on Thursday, June 5, expected Friday, June 6');
    expect(await reason(s, 'reserve_car', { ...sp, start_time: '11:00 AM' })).toBe('the Toyota Corolla Cross reservation on Thursday, June 5 starts at 10:00 AM, expected 11:00 AM');
    expect(await reason(s, 'reserve_car', { ...sp, hours: '2 hours' })).toBe('the Toyota Corolla Cross reservation is for 3 hours, expected 2 hours');
    // It is now under Trips; a second reservation (found under a location, below the fold) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    expect(await visible(s, 'Coming up · 5 trips')).toBe(true);
    await tap(s, s.page.locator('.bnav a[aria-label="Find"]'));
    await tap(s, s.page.locator('a.place[data-place="Elmwood Court"]'));
    expect(await visible(s, 'Cars at this location')).toBe(true);
    await tap(s, car(s, 'Mazda3'));
    await tap(s, s.page.locator('#reserve'));
    await tap(s, day(s, 'Friday, June 6'));
    await tap(s, time(s, 4, 9));
    await tap(s, s.page.locator('#durs .dur[data-h="2"]'));
    await tap(s, s.page.locator('#next'));
    await tap(s, s.page.locator('#confirm'));
    expect(await visible(s, "You're all set")).toBe(true);
    expect(await reason(s, 'reserve_car', sp)).toBe(
      '2 reservations were made ("Toyota Corolla Cross, Thursday, June 5, 10:00 AM, 3 hours", "Mazda3, Friday, June 6, 9:00 AM, 2 hours"), expected one',
    );
    await s.close();
  }, 120_000);

  it('extends a trip after the confirm dialog; a time that runs into another booking is not offered, and the near-duplicate car, another length or a cancellation fails', async () => {
    const s = await open(2);
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    expect(await visible(s, 'Coming up · 4 trips')).toBe(true);
    await tap(s, trip(s, 'Toyota Corolla'));
    expect(await s.page.locator('#t-end').textContent()).toBe('Wednesday, June 4, 1:00 PM');
    await tap(s, s.page.locator('#extend-btn'));
    expect(await visible(s, 'How much more time?')).toBe(true);
    expect(await s.page.locator('#extras button.choice[data-v="3 hours"]').count()).toBe(0);
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('#err').textContent()).toBe('Choose how much time to add');
    await tap(s, s.page.locator('#extras button.choice[data-v="2 hours"]'));
    await tap(s, s.page.locator('#save'));
    expect(await visible(s, 'Extend this trip?')).toBe(true);
    expect(await s.page.locator('#ext-to').textContent()).toBe('Wed, Jun 4, 3:00 PM');
    expect(await s.page.locator('#ext-cost').textContent()).toBe('$22.00');
    await tap(s, s.page.locator('#ext-back'));
    const sp = { extend_car: 'Toyota Corolla', extra_time: '2 hours' };
    expect(await reason(s, 'extend_trip', sp)).toBe('the Toyota Corolla trip still ends at Wednesday, June 4, 1:00 PM');
    await tap(s, s.page.locator('#save'));
    await tap(s, s.page.locator('#ext-ok'));
    expect(await visible(s, 'Trip extended')).toBe(true);
    expect(await s.page.locator('#t-end').textContent()).toBe('Wednesday, June 4, 3:00 PM');
    expect(await s.page.locator('#t-hours').textContent()).toBe('6 hours');
    expect(await reason(s, 'extend_trip', sp)).toBe('extended the Toyota Corolla trip by 2 hours: return by Wednesday, June 4, 3:00 PM');
    expect(await reason(s, 'extend_trip', { ...sp, extra_time: '30 minutes' })).toBe('the Toyota Corolla trip was extended by 2 hours, expected 30 minutes');
    expect(await reason(s, 'extend_trip', { ...sp, extend_car: 'Toyota Corolla Cross' })).toBe(
      'the Toyota Corolla Cross trip still ends at Saturday, June 7, 4:00 PM (extended "Toyota Corolla" instead)',
    );
    // Canceling another trip fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    await tap(s, trip(s, 'Subaru Outback'));
    await tap(s, s.page.locator('#cancel-btn'));
    expect(await visible(s, 'Cancel this reservation?')).toBe(true);
    await tap(s, exact(s, '#reasons .choice .t', 'My plans changed'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await visible(s, 'Reservation canceled')).toBe(true);
    expect(await reason(s, 'extend_trip', sp)).toBe('the Toyota Corolla trip was extended but "Subaru Outback, Friday, June 13, 8:00 AM, 12 hours" was canceled');
    await s.close();
  }, 120_000);

  it('sends a damage report with an area and a description; an old trip goes through support, and another trip, area, text or a second report fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="Trips"]'));
    await tap(s, exact(s, '.tabs a', 'Past'));
    expect(await visible(s, 'Earlier trips · last 30 days')).toBe(true);
    // The trip from over two weeks ago cannot be reported in the app.
    await tap(s, trip(s, 'Ford Escape'));
    expect(await visible(s, 'Receipt')).toBe(true);
    expect(await s.page.locator('#damage-btn').count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('a.trow[data-car="Kia Niro Hybrid"][data-day="Saturday, May 31"]'));
    await tap(s, s.page.locator('#damage-btn'));
    expect(await visible(s, 'Where is the damage?')).toBe(true);
    await tap(s, s.page.locator('#send'));
    expect(await s.page.locator('#e-area').textContent()).toBe('Choose where the damage is');
    expect(await s.page.locator('#e-note').textContent()).toBe('Describe the damage in a few words');
    await tap(s, s.page.locator('#areas .ptile[data-v="Rear bumper"]'));
    await tap(s, s.page.locator('#note'));
    await step(s, { action: 'type', text: 'Dent above the tailpipe' });
    const sp = { damage_car: 'Kia Niro Hybrid', damage_area: 'rear bumper', damage_note: 'dent above the tailpipe' };
    expect(await reason(s, 'report_damage', sp)).toBe('no damage report was sent');
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, 'Report sent')).toBe(true);
    expect(await reason(s, 'report_damage', sp)).toBe('reported Rear bumper damage on the Kia Niro Hybrid trip of Saturday, May 31: "Dent above the tailpipe"');
    expect(await check(s, spec('report_damage', { ...sp, damage_note: 'Dent above the tailpipe.' }))).toBe(true);
    expect(await reason(s, 'report_damage', { ...sp, damage_area: 'driver side' })).toBe('the report on the Kia Niro Hybrid trip of Saturday, May 31 is for the Rear bumper, expected driver side');
    expect(await reason(s, 'report_damage', { ...sp, damage_car: 'Mazda3' })).toBe('the damage report is for the Kia Niro Hybrid trip of Saturday, May 31, expected the Mazda3 trip of Thursday, May 22');
    // A second report (on the current trip) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Find"]'));
    await tap(s, s.page.locator('a.tile.live'));
    expect(await visible(s, 'Current trip')).toBe(true);
    await tap(s, s.page.locator('#damage-btn'));
    await tap(s, s.page.locator('#areas .ptile[data-v="Interior"]'));
    await tap(s, s.page.locator('#note'));
    await step(s, { action: 'type', text: 'Crumbs all over the back seat' });
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, 'Report sent')).toBe(true);
    expect(await reason(s, 'report_damage', sp)).toBe(
      '2 damage reports were sent ("Rear bumper on the Kia Niro Hybrid trip of Saturday, May 31", "Interior on the Honda Fit trip of Monday, June 2"), expected one',
    );
    await s.close();
  }, 120_000);

  it('adds a driver with a name, email and relationship only after Send invite; a missing answer or a duplicate is refused, and another email, relationship or a removal fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('.bnav a[aria-label="Account"]'));
    expect(await visible(s, 'Drivers on your account')).toBe(true);
    await tap(s, s.page.locator('#add-driver'));
    expect(await visible(s, 'How do you know them?')).toBe(true);
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#e-name').textContent()).toBe('Enter their first and last name');
    expect(await s.page.locator('#e-email').textContent()).toBe('Enter a valid email address');
    expect(await s.page.locator('#e-relation').textContent()).toBe('Choose how you know them');
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Elena Ortiz' });
    await tap(s, s.page.locator('#email'));
    await step(s, { action: 'type', text: 'elena.ortega@example.com' });
    await tap(s, s.page.locator('#relations .choice[data-v="Friend"]'));
    await tap(s, s.page.locator('#next'));
    expect(await s.page.locator('#e-email').textContent()).toBe('That email is already on your account');
    // Start over with the right email.
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, s.page.locator('#add-driver'));
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Elena Ortiz' });
    await tap(s, s.page.locator('#email'));
    await step(s, { action: 'type', text: 'elena.ortiz@example.com' });
    await tap(s, s.page.locator('#relations .choice[data-v="Friend"]'));
    await tap(s, s.page.locator('#next'));
    expect(await visible(s, 'Step 2 of 2 · Send invite')).toBe(true);
    expect(await s.page.locator('#rv-name').textContent()).toBe('Elena Ortiz');
    expect(await s.page.locator('#rv-relation').textContent()).toBe('Friend');
    const sp = { driver_name: 'Elena Ortiz', driver_email: 'elena.ortiz@example.com', driver_relation: 'friend' };
    expect(await reason(s, 'add_driver', sp)).toBe('no driver was added');
    await tap(s, s.page.locator('#send'));
    expect(await visible(s, 'Invite sent')).toBe(true);
    expect(await reason(s, 'add_driver', sp)).toBe('added Elena Ortiz (elena.ortiz@example.com) as a driver (Friend)');
    expect(await reason(s, 'add_driver', { ...sp, driver_relation: 'roommate' })).toBe('Elena Ortiz was added as Friend, expected roommate');
    expect(await reason(s, 'add_driver', { ...sp, driver_email: 'elena.ortiz@example.net' })).toBe('Elena Ortiz was added with elena.ortiz@example.com, expected elena.ortiz@example.net');
    // Removing a driver who was already on the account fails the task.
    await tap(s, s.page.locator('.drv[data-driver="Jonah Morrison"] .rm'));
    expect(await s.page.locator('#rm-name').textContent()).toBe('Jonah Morrison');
    await tap(s, s.page.locator('#rm-ok'));
    expect(await visible(s, 'Driver removed')).toBe(true);
    expect(await reason(s, 'add_driver', sp)).toBe('Elena Ortiz was added but "Jonah Morrison" was removed from the account');
    await s.close();
  }, 120_000);
});
