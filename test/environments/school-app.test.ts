import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  absenceErrors,
  ABSENCE_DAYS,
  CHILD_NAMES,
  childByName,
  CLUB_NAMES,
  clubByName,
  dayByLabel,
  initialSchoolState,
  lunchDayByName,
  lunchOpen,
  menuOf,
  orderOf,
  QUIET_START,
  REASONS,
  SEEDED_BOOKINGS,
  TIMES,
  type SchoolState,
} from '../../environments/apps/school/state.js';

const { tap, exact, spec, check, open } = usePhone('school', 'Bellwise');

const state = async (s: ChromiumSession): Promise<SchoolState> => (await s.checkerState()).school as SchoolState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
/** Scrolls an option of a long picker list into view (as a swipe in the dialog would), then taps it. */
async function pick(s: ChromiumSession, sel: string): Promise<void> {
  await s.page.locator(sel).scrollIntoViewIfNeeded();
  await tap(s, s.page.locator(sel));
}
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();

describe('Bellwise school parent app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('school');
    expect(app?.title).toBe('Bellwise');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialSchoolState(3);
    expect(st).toEqual(initialSchoolState(3));
    expect(initialSchoolState(3)).not.toEqual(initialSchoolState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    // Absences: every child, day and reason the DAG offers is one the form takes (all day), and no day is the form's default.
    const kids = slot('absence_form', 'absence_child')?.values ?? [];
    expect([...kids].sort()).toEqual([...CHILD_NAMES].sort());
    const days = slot('absence_form', 'absence_day')?.dependsOn?.values ?? {};
    expect(Object.keys(days).sort()).toEqual([...kids].sort());
    for (const reasonName of slot('absence_form', 'absence_reason')?.values ?? []) expect(REASONS).toContain(reasonName);
    for (const [kid, values] of Object.entries(days))
      for (const d of values) {
        const day = dayByLabel(d);
        expect(day, d).toBeDefined();
        expect(day).not.toBe(0);
        expect(ABSENCE_DAYS).toContain(day);
        for (let seed = 1; seed <= 10; seed++)
          for (const r of slot('absence_form', 'absence_reason')?.values ?? [])
            expect(absenceErrors(initialSchoolState(seed), { child: childByName(st, kid)!.id, day: day!, session: 'All day', reason: r, note: '' }), `${kid} ${d}`).toEqual({});
      }
    // Lunches: open days only, each new choice on that day's menu and never the one any child starts with on any seed.
    const choices = slot('lunch_day', 'lunch_choice')?.dependsOn?.values ?? {};
    expect(Object.keys(choices).sort()).toEqual([...(slot('lunches', 'lunch_day')?.values ?? [])].sort());
    expect(slot('lunches', 'lunch_child')?.values).toEqual([...CHILD_NAMES]);
    for (const [dayName, values] of Object.entries(choices)) {
      const day = lunchDayByName(dayName)!;
      expect(lunchOpen(day), dayName).toBe(true);
      for (const v of values) {
        expect(menuOf(day)).toContain(v);
        for (let seed = 1; seed <= 40; seed++) for (const c of initialSchoolState(seed).children) expect(orderOf(initialSchoolState(seed), c.id, day)?.choice, `${seed} ${c.first} ${dayName}`).not.toBe(v);
      }
    }
    // Quiet hours: times on the picker, never the ones it starts with.
    for (const v of slot('notifications', 'quiet_from')?.values ?? []) expect(TIMES.includes(v) && v !== QUIET_START.from, v).toBe(true);
    for (const v of slot('notifications', 'quiet_until')?.values ?? []) expect(TIMES.includes(v) && v !== QUIET_START.until, v).toBe(true);
    // Clubs: every club and child pair is a place booked when the session starts.
    const kidsOf = slot('club', 'cancel_child')?.dependsOn?.values ?? {};
    expect(Object.keys(kidsOf).sort()).toEqual([...(slot('clubs', 'cancel_club')?.values ?? [])].sort());
    for (const [club, values] of Object.entries(kidsOf)) {
      expect(CLUB_NAMES).toContain(club);
      for (const kid of values) expect(SEEDED_BOOKINGS.some(([c, k]) => c === clubByName(st, club)?.id && k === childByName(st, kid)?.id), `${club} ${kid}`).toBe(true);
    }
    const ab0 = { absence_child: 'Maya', absence_day: 'Thursday, March 12', absence_reason: 'Illness' };
    expect(() => checkApp(st, spec('report_absence', { ...ab0, absence_child: 'Zoe' }))).toThrow(/unknown absence_child/);
    expect(() => checkApp(st, spec('report_absence', { ...ab0, absence_day: 'Saturday, March 14' }))).toThrow(/unknown absence_day/);
    expect(() => checkApp(st, spec('report_absence', { ...ab0, absence_reason: 'Holiday' }))).toThrow(/unknown absence_reason/);
    expect(() => checkApp(st, spec('report_absence', { ...ab0, absence_child: 'Leo', absence_day: 'Friday, March 20' }))).toThrow(/already has an absence/);
    expect(() => checkApp(st, spec('report_absence', { absence_child: 'Maya', absence_day: 'Thursday, March 12' }))).toThrow(/missing param "absence_reason"/);
    expect(() => checkApp(st, spec('change_lunch', { lunch_child: 'Maya', lunch_day: 'Monday', lunch_choice: 'Quorn roast dinner' }))).toThrow(/unknown lunch_day/);
    expect(() => checkApp(st, spec('change_lunch', { lunch_child: 'Maya', lunch_day: 'Tuesday', lunch_choice: 'Tomato pasta bake' }))).toThrow(/unknown lunch_choice/);
    expect(() => checkApp(st, spec('change_lunch', { lunch_child: 'Maya', lunch_day: 'Tuesday', lunch_choice: orderOf(st, 'maya', 1)!.choice }))).toThrow(/already/);
    expect(() => checkApp(st, spec('set_quiet_hours', { quiet_from: '9:15 PM', quiet_until: '7:00 AM' }))).toThrow(/unknown quiet_from/);
    expect(() => checkApp(st, spec('cancel_club', { cancel_club: 'Chess Club', cancel_child: 'Leo' }))).toThrow(/Leo has no booking at Chess Club/);
    expect(() => checkApp(st, spec('cancel_club', { cancel_club: 'Knitting Club', cancel_child: 'Leo' }))).toThrow(/unknown cancel_club/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('report_absence', ab0))).toEqual({ success: false, reason: 'no absence was reported' });
    expect(checkApp(st, spec('change_lunch', { lunch_child: 'Leo', lunch_day: 'Thursday', lunch_choice: 'Tomato pasta bake' }))).toEqual({ success: false, reason: 'no lunch order was changed' });
    expect(checkApp(st, spec('set_quiet_hours', { quiet_from: '9:30 PM', quiet_until: '7:30 AM' }))).toEqual({ success: false, reason: 'quiet hours were not changed' });
    expect(checkApp(st, spec('cancel_club', { cancel_club: 'Multi-sports', cancel_child: 'Leo' }))).toEqual({ success: false, reason: 'no club booking was cancelled' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates).toHaveLength(3);
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['school'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialSchoolState(1), q.checker).success).toBe(false);
    }
  });

  it('validates Report an absence and reports one whole-day absence with its child, date and reason; another value, a second absence or a half day fails', async () => {
    const s = await open(1);
    expect(await visible(s, 'Your children')).toBe(true);
    await tap(s, s.page.locator('#qa-absence'));
    expect(await visible(s, 'Who is absent?')).toBe(true);
    expect(await s.page.locator('#day-v').textContent()).toBe('Monday, March 9');
    await tap(s, s.page.locator('#submit'));
    expect(await s.page.locator('#e-child').textContent()).toBe('Choose who is absent');
    expect(await s.page.locator('#e-reason').textContent()).toBe('Choose a reason');
    // Leo already has next Friday afternoon reported.
    await tap(s, s.page.locator('#g-child button[data-v="leo"]'));
    await tap(s, s.page.locator('#day-btn'));
    await pick(s, '#daydlg .opt[data-v="11"]');
    expect(await s.page.locator('#day-v').textContent()).toBe('Friday, March 20');
    await tap(s, s.page.locator('#reason-btn'));
    await tap(s, s.page.locator('#reasondlg .opt[data-v="Other"]'));
    await tap(s, s.page.locator('#submit'));
    expect(await s.page.locator('#e-day').textContent()).toBe('Leo already has an absence reported for this day');
    expect(await s.page.locator('#e-note').textContent()).toBe('Tell the office a little about the reason');
    // Maya, the near-duplicate Thursday first, then Thursday, March 12; Dental, then Medical appointment.
    await tap(s, s.page.locator('#g-child button[data-v="maya"]'));
    await tap(s, s.page.locator('#day-btn'));
    await pick(s, '#daydlg .opt[data-v="10"]');
    expect(await s.page.locator('#day-v').textContent()).toBe('Thursday, March 19');
    await tap(s, s.page.locator('#day-btn'));
    await pick(s, '#daydlg .opt[data-v="3"]');
    expect(await s.page.locator('#day-v').textContent()).toBe('Thursday, March 12');
    await tap(s, s.page.locator('#reason-btn'));
    await tap(s, s.page.locator('#reasondlg .opt[data-v="Dental appointment"]'));
    await tap(s, s.page.locator('#reason-btn'));
    await tap(s, s.page.locator('#reasondlg .opt[data-v="Medical appointment"]'));
    expect(await s.page.locator('#reason-v').textContent()).toBe('Medical appointment');
    const sp = { absence_child: 'Maya', absence_day: 'Thursday, March 12', absence_reason: 'Medical appointment' };
    expect(await reason(s, 'report_absence', sp)).toBe('no absence was reported');
    await tap(s, s.page.locator('#submit'));
    expect(await visible(s, 'Absence reported')).toBe(true);
    expect(await s.page.locator('.ab.new').getAttribute('data-day')).toBe('Thursday, March 12');
    expect(await reason(s, 'report_absence', sp)).toBe('reported Maya absent on Thursday, March 12, all day: Medical appointment');
    expect(await check(s, spec('report_absence', { ...sp, absence_child: 'Maya Okafor' }))).toBe(true);
    expect(await reason(s, 'report_absence', { ...sp, absence_day: 'Thursday, March 19' })).toBe("Maya's absence was reported for Thursday, March 12, expected Thursday, March 19");
    expect(await reason(s, 'report_absence', { ...sp, absence_reason: 'Illness' })).toBe("Maya's absence was reported as Medical appointment, expected Illness");
    expect(await reason(s, 'report_absence', { ...sp, absence_child: 'Leo' })).toBe('the absence reported is for Maya, expected Leo');
    // A second absence (from + Report on the Absences page) fails the task.
    await tap(s, s.page.locator('#add'));
    await tap(s, s.page.locator('#g-child button[data-v="leo"]'));
    await tap(s, s.page.locator('#reason-btn'));
    await tap(s, s.page.locator('#reasondlg .opt[data-v="Illness"]'));
    await tap(s, s.page.locator('#submit'));
    expect(await visible(s, 'Absence reported')).toBe(true);
    expect(await reason(s, 'report_absence', sp)).toBe('2 absences were reported (Maya on Thursday, March 12, Leo on Monday, March 9), expected one');
    await s.close();

    // From a child's page, the child is chosen already; a morning only fails the task.
    const t = await open(6);
    await tap(t, t.page.locator('a.kid[data-child="Maya"]'));
    expect(await visible(t, 'Class teacher')).toBe(true);
    await tap(t, t.page.locator('#report-btn'));
    expect(await t.page.locator('#g-child button[data-v="maya"]').getAttribute('aria-checked')).toBe('true');
    await tap(t, t.page.locator('#day-btn'));
    await pick(t, '#daydlg .opt[data-v="3"]');
    await tap(t, exact(t, '#g-session .chip', 'Morning only'));
    await tap(t, t.page.locator('#reason-btn'));
    await tap(t, t.page.locator('#reasondlg .opt[data-v="Medical appointment"]'));
    await tap(t, t.page.locator('#submit'));
    expect(await visible(t, 'Absence reported')).toBe(true);
    expect(await reason(t, 'report_absence', sp)).toBe("Maya's absence was reported for the morning only, expected all day");
    await t.close();
  }, 120_000);

  it("changes one child's lunch for one day only on Save; leaving without saving, another choice, the other child or a second day changed fails", async () => {
    const s = await open(2);
    const before = orderOf(initialSchoolState(2), 'leo', 1)!.choice;
    await tap(s, s.page.locator('.bnav a[aria-label="Lunches"]'));
    expect(await visible(s, 'Allergies and diets')).toBe(true);
    expect(await s.page.locator('#kids a[aria-selected="true"]').textContent()).toBe('Maya');
    // Today is closed.
    expect(await s.page.locator('.lrow.locked').getAttribute('data-day')).toBe('Monday');
    expect(await s.page.locator('a.lrow[data-day="Monday"]').count()).toBe(0);
    await tap(s, exact(s, '#kids a', 'Leo'));
    expect(await s.page.locator('#kids a[aria-selected="true"]').textContent()).toBe('Leo');
    await tap(s, s.page.locator('a.lrow[data-day="Tuesday"]'));
    expect(await visible(s, 'Choose a lunch')).toBe(true);
    expect(await s.page.locator('.lopt[aria-checked="true"]').getAttribute('data-v')).toBe(before);
    await tap(s, s.page.locator('.lopt[data-v="Lentil bolognese"]'));
    await tap(s, s.page.locator('header button[aria-label="Back"]'));
    const sp = { lunch_child: 'Leo', lunch_day: 'Tuesday', lunch_choice: 'Lentil bolognese' };
    expect(await reason(s, 'change_lunch', sp)).toBe('no lunch order was changed');
    await tap(s, s.page.locator('a.lrow[data-day="Tuesday"]'));
    await tap(s, s.page.locator('.lopt[data-v="Jacket potato with cheese"]'));
    await tap(s, s.page.locator('#save'));
    expect(await visible(s, 'Lunch order updated')).toBe(true);
    expect(await s.page.locator('.lrow.new .n').textContent()).toBe('Jacket potato with cheese');
    expect(await reason(s, 'change_lunch', sp)).toBe("Leo's Tuesday lunch is Jacket potato with cheese, expected Lentil bolognese");
    const mayaTue = orderOf(initialSchoolState(2), 'maya', 1)!.choice;
    expect(await reason(s, 'change_lunch', { ...sp, lunch_child: 'Maya' })).toBe(`Maya's Tuesday lunch is still ${mayaTue} (changed Leo's Tuesday lunch instead)`);
    await tap(s, s.page.locator('a.lrow[data-day="Tuesday"]'));
    await tap(s, s.page.locator('.lopt[data-v="Lentil bolognese"]'));
    await tap(s, s.page.locator('#save'));
    expect(await reason(s, 'change_lunch', sp)).toBe(`Leo's Tuesday lunch is now Lentil bolognese (was ${before})`);
    expect(await check(s, spec('change_lunch', sp))).toBe(true);
    // Changing Wednesday too fails the task.
    await tap(s, s.page.locator('a.lrow[data-day="Wednesday"]'));
    await tap(s, s.page.locator('.lopt[data-v="Chickpea curry with rice"]'));
    await tap(s, s.page.locator('#save'));
    expect(await visible(s, 'Lunch order updated')).toBe(true);
    expect(await reason(s, 'change_lunch', sp)).toBe("Leo's Tuesday lunch was changed but Leo's Wednesday lunch was changed too, to Chickpea curry with rice");
    await s.close();
  }, 120_000);

  it('turns quiet hours on at two times (each change saved at once, a time only on OK); off, another time, or a notification switched on the way fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="More"]'));
    await tap(s, s.page.locator('#notif-row'));
    expect(await visible(s, 'Notify me about')).toBe(true);
    expect(await s.page.locator('#from-row').getAttribute('aria-disabled')).toBe('true');
    await tap(s, s.page.locator('#from-row'));
    expect(await s.page.locator('#fromdlg').isVisible()).toBe(false);
    expect(await s.page.locator('#snack').textContent()).toBe('Turn on quiet hours first');
    const sp = { quiet_from: '9:30 PM', quiet_until: '7:30 AM' };
    expect(await reason(s, 'set_quiet_hours', sp)).toBe('quiet hours were not changed');
    await tap(s, s.page.locator('#quiet-row'));
    expect(await s.page.locator('#quiet-row').getAttribute('aria-checked')).toBe('true');
    expect(await reason(s, 'set_quiet_hours', sp)).toBe('quiet hours start at 9:00 PM, expected 9:30 PM');
    // A time picked and then cancelled changes nothing.
    await tap(s, s.page.locator('#from-row'));
    await pick(s, '#fromdlg .opt[data-v="9:30 PM"]');
    await tap(s, exact(s, '#fromdlg .acts button', 'Cancel'));
    expect(await s.page.locator('#from-v').textContent()).toBe('9:00 PM');
    await tap(s, s.page.locator('#from-row'));
    await pick(s, '#fromdlg .opt[data-v="9:30 PM"]');
    await tap(s, s.page.locator('#fromdlg-ok'));
    expect(await s.page.locator('#from-v').textContent()).toBe('9:30 PM');
    expect(await reason(s, 'set_quiet_hours', sp)).toBe('quiet hours end at 7:00 AM, expected 7:30 AM');
    await tap(s, s.page.locator('#until-row'));
    await pick(s, '#untildlg .opt[data-v="7:30 AM"]');
    await tap(s, s.page.locator('#untildlg-ok'));
    expect(await s.page.locator('#until-v').textContent()).toBe('7:30 AM');
    expect(await reason(s, 'set_quiet_hours', sp)).toBe('quiet hours are on from 9:30 PM to 7:30 AM');
    expect(await check(s, spec('set_quiet_hours', sp))).toBe(true);
    expect(await reason(s, 'set_quiet_hours', { ...sp, quiet_until: '6:30 AM' })).toBe('quiet hours end at 7:30 AM, expected 6:30 AM');
    // It stays after leaving the page.
    await tap(s, s.page.locator('header button[aria-label="Back"]'));
    expect(await s.page.locator('#notif-row .s').textContent()).toBe('Quiet hours: On · 9:30 PM – 7:30 AM');
    await tap(s, s.page.locator('#notif-row'));
    // Attendance alerts cannot be turned off; switching Newsletters on fails the task, and off again passes.
    await tap(s, s.page.locator('#n-attendance'));
    expect(await s.page.locator('#n-attendance').getAttribute('aria-checked')).toBe('true');
    await tap(s, s.page.locator('#n-newsletters'));
    expect(await s.page.locator('#n-newsletters').getAttribute('aria-checked')).toBe('true');
    expect(await reason(s, 'set_quiet_hours', sp)).toBe('quiet hours are on from 9:30 PM to 7:30 AM but "Newsletters" was turned on');
    await tap(s, s.page.locator('#n-newsletters'));
    expect(await check(s, spec('set_quiet_hours', sp))).toBe(true);
    await tap(s, s.page.locator('#quiet-row'));
    expect(await s.page.locator('#until-row').getAttribute('aria-disabled')).toBe('true');
    expect(await reason(s, 'set_quiet_hours', sp)).toBe('quiet hours are off (set to 9:30 PM – 7:30 AM)');
    await s.close();
  }, 120_000);

  it("cancels one child's club place after the confirm dialog; Keep booking keeps it, and another booking cancelled or a place booked fails", async () => {
    const s = await open(4);
    await tap(s, s.page.locator('.bnav a[aria-label="Clubs"]'));
    expect(await visible(s, 'Your bookings')).toBe(true);
    await tap(s, s.page.locator('a.bk[data-club="Chess Club"]'));
    expect(await visible(s, 'About this club')).toBe(true);
    expect(await s.page.locator('#cancel-leo').count()).toBe(0);
    await tap(s, s.page.locator('#cancel-maya'));
    expect(await visible(s, 'Cancel booking?')).toBe(true);
    await tap(s, exact(s, '#cdlg-maya .acts button', 'Keep booking'));
    expect(await s.page.locator('#cdlg-maya').isVisible()).toBe(false);
    const sp = { cancel_club: 'Chess Club', cancel_child: 'Maya' };
    expect(await reason(s, 'cancel_club', sp)).toBe('no club booking was cancelled');
    await tap(s, s.page.locator('#cancel-maya'));
    await tap(s, s.page.locator('#cancel-ok-maya'));
    expect(await visible(s, 'Booking cancelled')).toBe(true);
    expect(await s.page.locator('.kidrow[data-child="Maya"] .s').textContent()).toBe('Not booked');
    expect(await reason(s, 'cancel_club', sp)).toBe("cancelled Maya's place at Chess Club");
    expect(await check(s, spec('cancel_club', sp))).toBe(true);
    expect(await reason(s, 'cancel_club', { cancel_club: 'Junior Chess Club', cancel_child: 'Leo' })).toBe("Leo's place at Junior Chess Club was not cancelled (cancelled Maya's place at Chess Club instead)");
    // Booking the place again fails the task.
    await tap(s, s.page.locator('#book-maya'));
    expect(await visible(s, 'Book a place?')).toBe(true);
    await tap(s, s.page.locator('#book-ok-maya'));
    expect(await visible(s, 'Place booked')).toBe(true);
    expect(await reason(s, 'cancel_club', sp)).toBe("Maya's place at Chess Club was cancelled but Maya was booked into Chess Club");
    // Multi-sports has both children; cancelling Leo's place there as well fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Clubs"]'));
    await tap(s, s.page.locator('a.bk[data-club="Multi-sports"][data-child="Leo"]'));
    expect(await s.page.locator('#cancel-maya').count()).toBe(1);
    await tap(s, s.page.locator('#cancel-leo'));
    await tap(s, s.page.locator('#cancel-ok-leo'));
    expect(await visible(s, 'Booking cancelled')).toBe(true);
    expect(await reason(s, 'cancel_club', { cancel_club: 'Multi-sports', cancel_child: 'Leo' })).toBe("2 bookings were cancelled (Maya's place at Chess Club, Leo's place at Multi-sports), expected one");
    await s.close();
  }, 120_000);
});

