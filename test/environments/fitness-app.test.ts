import { describe, expect, it } from 'vitest';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import { bookable, CLASS_NAMES, DAYS, EMAIL_RE, initialFitnessState, SEEDED_BOOKINGS, SEEDED_GUESTS } from '../../environments/apps/fitness/state.js';

const { step, tap, exact, spec, check, open } = usePhone('fitness', 'PulseFit');

describe('PulseFit gym class app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('fitness');
    expect(app?.title).toBe('PulseFit');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    const st = initialFitnessState(3);
    expect(st).toEqual(initialFitnessState(3));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    // Only classes that can be booked in a fresh session of any seed (not started, not full, not booked yet).
    const perDay = slot('schedule', 'class_name')?.dependsOn?.values ?? {};
    for (const seed of [1, 2, 3, 7, 42]) {
      const open = bookable(initialFitnessState(seed));
      for (const [day, names] of Object.entries(perDay)) {
        expect(names.sort(), day).toEqual(open.filter((c) => DAYS[c.day] === day).map((c) => c.name).sort());
      }
      expect(Object.keys(perDay).sort()).toEqual([...new Set(open.map((c) => DAYS[c.day] ?? ''))].sort());
    }
    for (const n of slot('schedule', 'class_name')?.values ?? []) expect(CLASS_NAMES).toContain(n);
    // Cancellations: each class/day pair names exactly one seeded booking.
    const booked = slot('bookings', 'booked_day')?.dependsOn?.values ?? {};
    expect(Object.values(booked).flat().length).toBe(SEEDED_BOOKINGS.length);
    for (const [name, days] of Object.entries(booked))
      for (const d of days) expect(SEEDED_BOOKINGS.filter(([i, n]) => n === name && DAYS[i] === d), `${name} ${d}`).toHaveLength(1);
    // Guests: new names, well-formed emails, any day of the week.
    for (const g of slot('guest_form', 'guest')?.values ?? []) expect(SEEDED_GUESTS.map(([n]) => n.toLowerCase())).not.toContain(g.toLowerCase());
    for (const e of slot('guest_form', 'email')?.values ?? []) expect(e).toMatch(EMAIL_RE);
    expect(slot('guest_form', 'visit_day')?.values).toEqual([...DAYS]);
    expect(() => checkApp(st, spec('book_class', { class_name: 'Spin 60', day: 'Tuesday' }))).toThrow(/unknown class_name/);
    expect(() => checkApp(st, spec('book_class', { class_name: 'Boxing Basics', day: 'Tuesday' }))).toThrow(/no class "Boxing Basics" on Tuesday/);
    expect(() => checkApp(st, spec('cancel_booking', { booked_class: 'Spin 45', booked_day: 'Friday' }))).toThrow(/no booking/);
    expect(() => checkApp(st, spec('invite_guest', { guest: 'Maya Patel', email: 'maya.patel@example.com', visit_day: 'Someday' }))).toThrow(/unknown visit_day/);
    expect(() => checkApp(st, spec('invite_guest', { guest: 'Maya Patel', visit_day: 'Friday' }))).toThrow(/missing param "email"/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('book_class', { class_name: 'Spin 30', day: 'Sunday' }))).toEqual({ success: false, reason: 'no class was booked' });
    expect(checkApp(st, spec('cancel_booking', { booked_class: 'Spin 45', booked_day: 'Thursday' }))).toEqual({ success: false, reason: '"Spin 45 on Thursday" is still booked' });
    expect(checkApp(st, spec('invite_guest', { guest: 'Maya Patel', email: 'maya.patel@example.com', visit_day: 'Friday' }))).toEqual({
      success: false,
      reason: 'no guest pass was sent',
    });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['fitness'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialFitnessState(1), q.checker).success).toBe(false);
    }
  });

  it('books a class below the fold on another day after the confirmation sheet; a full class only offers the waitlist, and the near-duplicate, another day or a second booking fails', async () => {
    const s = await open();
    expect(await s.page.getByText('Up next').isVisible()).toBe(true);
    await tap(s, exact(s, '.bnav a', 'Schedule'));
    expect(await s.page.getByText('Monday, June 16 · Today').isVisible()).toBe(true);
    await tap(s, s.page.locator('.days a[aria-label="Tuesday, June 17"]'));
    expect(await s.page.getByText('Tuesday, June 17').isVisible()).toBe(true);
    // Full: only a waitlist, which is not a booking.
    await tap(s, exact(s, '.cls .n', 'Pilates Reformer'));
    expect(await s.page.getByText('Class is full').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.primary', 'Join waitlist'));
    expect(await s.page.getByText('Join the waitlist?').isVisible()).toBe(true);
    await tap(s, exact(s, '#wait button', 'Cancel'));
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.cls .n', 'Boxing Conditioning'));
    expect(await s.page.getByText('Tuesday, June 17 · 7:45 PM').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.primary', 'Reserve a spot'));
    expect(await s.page.getByText('Uses 1 class credit (6 left)', { exact: false }).isVisible()).toBe(true);
    await tap(s, exact(s, '#book button', 'Not now'));
    const sp = { class_name: 'Boxing Conditioning', day: 'Tuesday' };
    expect(await check(s, spec('book_class', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Reserve a spot'));
    await tap(s, s.page.locator('#book-ok'));
    expect(await s.page.getByText("You're booked").isVisible()).toBe(true);
    expect(await check(s, spec('book_class', sp))).toBe(true);
    expect(await check(s, spec('book_class', { class_name: 'Boxing Conditioning', day: 'Thursday' }))).toBe(false);
    expect(await check(s, spec('book_class', { class_name: 'Boxing Basics', day: 'Wednesday' }))).toBe(false);
    expect(await check(s, spec('book_class', { class_name: 'Yin Yoga', day: 'Tuesday' }))).toBe(false);
    // A second booking fails the task.
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.cls .n', 'Yin Yoga'));
    await tap(s, exact(s, 'button.primary', 'Reserve a spot'));
    await tap(s, s.page.locator('#book-ok'));
    expect(await s.page.getByText("You're booked").isVisible()).toBe(true);
    const r = checkApp((await s.checkerState()).fitness, spec('book_class', sp));
    expect(r).toEqual({ success: false, reason: '2 classes were booked ("Boxing Conditioning on Tuesday", "Yin Yoga on Tuesday"), expected one' });
    await s.close();
  }, 90_000);

  it('joining a waitlist instead of booking fails, and so does a waitlist next to the right booking', async () => {
    const s = await open(6);
    await tap(s, exact(s, '.bnav a', 'Schedule'));
    await tap(s, s.page.locator('.days a[aria-label="Saturday, June 21"]'));
    await tap(s, exact(s, '.cls .n', 'Boxing Basics'));
    await tap(s, exact(s, 'button.primary', 'Join waitlist'));
    await tap(s, s.page.locator('#wait-ok'));
    expect(await exact(s, 'button.primary', 'On the waitlist').isDisabled()).toBe(true);
    expect(checkApp((await s.checkerState()).fitness, spec('book_class', { class_name: 'Boxing Basics', day: 'Saturday' })).reason).toBe(
      'no class was booked (joined the waitlist of "Boxing Basics on Saturday")',
    );
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, exact(s, '.cls .n', 'HIIT Core'));
    await tap(s, exact(s, 'button.primary', 'Reserve a spot'));
    await tap(s, s.page.locator('#book-ok'));
    expect(await check(s, spec('book_class', { class_name: 'HIIT Core', day: 'Saturday' }))).toBe(false);
    await s.close();
  }, 60_000);

  it('cancels the booking of that class on that day only after the dialog; the same class another day or the near-duplicate the same day fails', async () => {
    const s = await open(2);
    await tap(s, exact(s, '.bnav a', 'My classes'));
    expect(await s.page.getByText('Upcoming').first().isVisible()).toBe(true);
    const row = (name: string, day: string) => s.page.locator('a.cls').filter({ has: exact(s, '.n', name) }).filter({ hasText: day }).first();
    // Today's class is inside the 8-hour window.
    await tap(s, row('HIIT Core', 'Mon'));
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    expect(await s.page.getByText('This is a late cancellation', { exact: false }).isVisible()).toBe(true);
    await tap(s, exact(s, '#cancel button', 'Cancel'));
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, row('Spin 45', 'Thu'));
    expect(await exact(s, '.card .d', 'Thursday, June 19').isVisible()).toBe(true);
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    expect(await s.page.getByText('Your class credit will be returned.', { exact: false }).isVisible()).toBe(true);
    await tap(s, exact(s, '#cancel button', 'Cancel'));
    const sp = { booked_class: 'Spin 45', booked_day: 'Thursday' };
    expect(await check(s, spec('cancel_booking', sp))).toBe(false);
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    await tap(s, s.page.locator('#cancel-ok'));
    expect(await s.page.getByText('Booking cancelled').isVisible()).toBe(true);
    expect(await check(s, spec('cancel_booking', sp))).toBe(true);
    expect(await check(s, spec('cancel_booking', { booked_class: 'Spin 45', booked_day: 'Tuesday' }))).toBe(false);
    expect(await check(s, spec('cancel_booking', { booked_class: 'Vinyasa Flow', booked_day: 'Wednesday' }))).toBe(false);
    // Cancelling the near-duplicate on Wednesday too fails the Vinyasa Flow task and the first one.
    await tap(s, row('Vinyasa Flow Express', 'Wed'));
    await tap(s, exact(s, 'button.outline', 'Cancel booking'));
    await tap(s, s.page.locator('#cancel-ok'));
    const r = checkApp((await s.checkerState()).fitness, spec('cancel_booking', sp));
    expect(r).toEqual({ success: false, reason: '"Spin 45 on Thursday" was cancelled but "Vinyasa Flow Express on Wednesday" too' });
    expect(checkApp((await s.checkerState()).fitness, spec('cancel_booking', { booked_class: 'Vinyasa Flow', booked_day: 'Wednesday' })).reason).toBe(
      '"Vinyasa Flow on Wednesday" is still booked (cancelled "Vinyasa Flow Express on Wednesday", "Spin 45 on Thursday" instead)',
    );
    await tap(s, exact(s, '.seg a', 'History'));
    expect(await s.page.getByText('Attended').first().isVisible()).toBe(true);
    await s.close();
  }, 90_000);

  it('validates the guest pass form field by field, sends one pass, and a wrong name, email or day or a second pass fails', async () => {
    const s = await open(4);
    await tap(s, exact(s, '.bnav a', 'Profile'));
    await tap(s, exact(s, '.row .t', 'Guest passes'));
    expect(await s.page.getByText('2 of 3 passes left').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Invite a guest'));
    await tap(s, exact(s, 'button.primary', 'Send pass'));
    expect(await s.page.getByText("Enter your guest's name").isVisible()).toBe(true);
    expect(await s.page.getByText('Enter an email so we can send the pass').isVisible()).toBe(true);
    expect(await s.page.getByText('Choose the day of the visit').isVisible()).toBe(true);
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Jordan Lee' });
    await tap(s, s.page.locator('#email'));
    await step(s, { action: 'type', text: 'maya@mail' });
    await tap(s, exact(s, 'button.primary', 'Send pass'));
    expect(await s.page.getByText('Jordan Lee already had a guest pass in June').isVisible()).toBe(true);
    expect(await s.page.getByText("That email address doesn't look right").isVisible()).toBe(true);
    const clear = async (id: string, n: number): Promise<void> => {
      await tap(s, s.page.locator(id));
      for (let i = 0; i < n; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    };
    await clear('#name', 10);
    await step(s, { action: 'type', text: 'Maya Patel' });
    await clear('#email', 9);
    await step(s, { action: 'type', text: 'maya.patel@example.com' });
    await tap(s, s.page.locator('#f-day .pick'));
    await tap(s, exact(s, '#days .opt', 'Saturday, June 21'));
    const sp = { guest: 'Maya Patel', email: 'maya.patel@example.com', visit_day: 'Saturday' };
    expect(await check(s, spec('invite_guest', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Send pass'));
    expect(await s.page.getByText('Guest pass sent').isVisible()).toBe(true);
    expect(checkApp((await s.checkerState()).fitness, spec('invite_guest', sp)).reason).toBe('guest pass sent to Maya Patel (maya.patel@example.com) for Saturday');
    expect(await check(s, spec('invite_guest', { ...sp, visit_day: 'Sunday' }))).toBe(false);
    expect(await check(s, spec('invite_guest', { ...sp, email: 'maya.p@example.com' }))).toBe(false);
    expect(await check(s, spec('invite_guest', { ...sp, guest: 'Maya Patil' }))).toBe(false);
    await tap(s, exact(s, 'a.primary', 'Done'));
    expect(await s.page.getByText('1 of 3 passes left').isVisible()).toBe(true);
    await tap(s, exact(s, 'a.primary', 'Invite a guest'));
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Sam Rivera' });
    await tap(s, s.page.locator('#email'));
    await step(s, { action: 'type', text: 'samrivera88@example.com' });
    await tap(s, s.page.locator('#f-day .pick'));
    await tap(s, exact(s, '#days .opt', 'Friday, June 20'));
    await tap(s, exact(s, 'button.primary', 'Send pass'));
    expect(await s.page.getByText('Guest pass sent').isVisible()).toBe(true);
    expect(await check(s, spec('invite_guest', { guest: 'Sam Rivera', email: 'samrivera88@example.com', visit_day: 'Friday' }))).toBe(false); // two passes
    await s.close();
  }, 90_000);
});
