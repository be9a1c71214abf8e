import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { BUILT_IN_APPS, checkApp, DECORATIVE_APPS, getApp } from '../../environments/app-world.js';
import { centerOf } from '../../environments/scripted.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  ALERT_PLACES,
  alertErrors,
  canApply,
  dayLabel,
  FREQUENCY_NAMES,
  freeTimes,
  initialJobsState,
  isActive,
  KEYWORDS_MAX,
  needsTime,
  RESUME_NAMES,
  START_OPTIONS,
  type JobsState,
} from '../../environments/apps/jobs/state.js';

const { step, tap, exact, spec, check, open } = usePhone('jobs', 'Hirewell');

const state = async (s: ChromiumSession): Promise<JobsState> => (await s.checkerState()).jobs as JobsState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
const visible = async (s: ChromiumSession, text: string): Promise<boolean> => s.page.getByText(text, { exact: true }).first().isVisible();
/** Taps a text field, empties it and types `text`. */
async function retype(s: ChromiumSession, sel: string, text: string): Promise<void> {
  await tap(s, s.page.locator(sel));
  await step(s, { action: 'key', text: 'KEYCODE_MOVE_END' });
  for (let i = 0; i < 12; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
  if (text) await step(s, { action: 'type', text });
}
const job = (s: ChromiumSession, title: string, company: string) => s.page.locator(`a.jb[data-job="${title}"][data-company="${company}"]`);
const sameText = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

describe('Hirewell job search app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('jobs');
    expect(app?.title).toBe('Hirewell');
    expect(BUILT_IN_APPS.findIndex((a) => a.id === 'jobs')).toBeGreaterThan(BUILT_IN_APPS.findIndex((a) => a.id === 'hotel'));
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialJobsState(3);
    expect(st).toEqual(initialJobsState(3));
    expect(initialJobsState(3)).not.toEqual(initialJobsState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    const companyOf = (s: JobsState, jobId: number): string => s.jobs.find((j) => j.id === jobId)?.company ?? '';
    const titleOf = (s: JobsState, jobId: number): string => s.jobs.find((j) => j.id === jobId)?.title ?? '';
    for (let seed = 1; seed <= 20; seed++) {
      const s = initialJobsState(seed);
      // Applying: every job the DAG offers is open and not applied for, and every such job is offered.
      const jobs = slot('jobs', 'job_title')?.dependsOn?.values ?? {};
      expect(Object.keys(jobs).sort()).toEqual([...(slot('jobs', 'company')?.values ?? [])].sort());
      const offered = Object.entries(jobs).flatMap(([c, ts]) => ts.map((t) => `${t} @ ${c}`));
      expect(offered.sort()).toEqual(
        s.jobs
          .filter((j) => canApply(s, j))
          .map((j) => `${j.title} @ ${j.company}`)
          .sort(),
      );
      // Interviews: the companies asking for one, their days, and only free times.
      const days = slot('interview_times', 'interview_day')?.dependsOn?.values ?? {};
      const times = slot('interview_times', 'interview_time')?.dependsOn?.values ?? {};
      expect([...(slot('applications', 'interview_company')?.values ?? [])].sort()).toEqual(
        s.applications
          .filter(needsTime)
          .map((a) => companyOf(s, a.jobId))
          .sort(),
      );
      for (const [company, ds] of Object.entries(days)) {
        const a = s.applications.find((x) => needsTime(x) && companyOf(s, x.jobId) === company)!;
        expect(ds).toEqual(a.invite!.days.map((d) => dayLabel(d.day)));
        for (const d of a.invite!.days) expect(times[dayLabel(d.day)], `${company} ${dayLabel(d.day)}`).toEqual(freeTimes(d));
      }
      // Withdrawals: every pair names exactly one active application, and every active one is offered.
      const wd = slot('applications', 'withdraw_job')?.dependsOn?.values ?? {};
      expect(
        Object.entries(wd)
          .flatMap(([c, ts]) => ts.map((t) => `${t} @ ${c}`))
          .sort(),
      ).toEqual(
        s.applications
          .filter(isActive)
          .map((a) => `${titleOf(s, a.jobId)} @ ${companyOf(s, a.jobId)}`)
          .sort(),
      );
    }
    for (const r of slot('apply_form', 'resume')?.values ?? []) {
      expect(RESUME_NAMES).toContain(r);
      expect(st.resumes.find((x) => x.name === r)?.id).not.toBe(st.defaultResumeId);
    }
    for (const v of slot('apply_form', 'start_when')?.values ?? []) expect(START_OPTIONS.some((o) => sameText(o, v)), v).toBe(true);
    // Alerts: every combination can be created (none exists yet), in a known place and at a frequency other than the default.
    for (const k of slot('alert_form', 'alert_keywords')?.values ?? [])
      for (const c of slot('alert_form', 'alert_city')?.values ?? []) {
        expect(k.length).toBeLessThanOrEqual(KEYWORDS_MAX);
        expect(ALERT_PLACES).toContain(c);
        expect(alertErrors(st, { keywords: k, city: c, frequency: 'Weekly' }), `${k} ${c}`).toEqual({});
      }
    for (const f of slot('alert_form', 'alert_frequency')?.values ?? []) {
      expect(FREQUENCY_NAMES.some((x) => sameText(x, f)), f).toBe(true);
      expect(sameText(f, 'Daily')).toBe(false);
    }
    const ap = { company: 'Kettle & Crumb Bakery', job_title: 'Barista', resume: 'Coffee shop resume', start_when: 'in 2 weeks' };
    expect(() => checkApp(st, spec('apply_job', { ...ap, company: 'Kettle and Crumb' }))).toThrow(/unknown company/);
    expect(() => checkApp(st, spec('apply_job', { ...ap, job_title: 'Shift Supervisor' }))).toThrow(/no open job "Shift Supervisor" at Kettle & Crumb Bakery/);
    expect(() => checkApp(st, spec('apply_job', { ...ap, company: 'Juniper Table', job_title: 'Line Cook' }))).toThrow(/no open job "Line Cook"/);
    expect(() => checkApp(st, spec('apply_job', { ...ap, resume: 'Cafe resume' }))).toThrow(/unknown resume/);
    expect(() => checkApp(st, spec('apply_job', { ...ap, start_when: 'tomorrow' }))).toThrow(/unknown start_when/);
    expect(() => checkApp(st, spec('book_interview', { interview_company: 'GreenCart Grocery', interview_day: 'Thursday, June 5', interview_time: '1:00 PM' }))).toThrow(/unknown interview_company/);
    expect(() => checkApp(st, spec('book_interview', { interview_company: 'Juniper Table', interview_day: 'Wednesday, June 4', interview_time: '9:00 AM' }))).toThrow(/unknown interview_day/);
    expect(() => checkApp(st, spec('book_interview', { interview_company: 'Juniper Table', interview_day: 'Tuesday, June 3', interview_time: '2:45 PM' }))).toThrow(/is taken/);
    expect(() => checkApp(st, spec('book_interview', { interview_company: 'Juniper Table', interview_day: 'Tuesday, June 3' }))).toThrow(/missing param "interview_time"/);
    expect(() => checkApp(st, spec('withdraw_application', { withdraw_company: 'Chapter & Verse Books', withdraw_job: 'Bookseller' }))).toThrow(/unknown withdraw_company/);
    expect(() => checkApp(st, spec('withdraw_application', { withdraw_company: 'Juniper Table', withdraw_job: 'Prep Cook' }))).toThrow(/no active application/);
    expect(() => checkApp(st, spec('create_alert', { alert_keywords: 'Barista', alert_city: 'Denver', alert_frequency: 'weekly' }))).toThrow(/already an alert/);
    expect(() => checkApp(st, spec('create_alert', { alert_keywords: 'Line Cook', alert_city: 'Pueblo', alert_frequency: 'weekly' }))).toThrow(/unknown alert_city/);
    expect(() => checkApp(st, spec('create_alert', { alert_keywords: 'Line Cook', alert_city: 'Denver', alert_frequency: 'monthly' }))).toThrow(/unknown alert_frequency/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('apply_job', ap))).toEqual({ success: false, reason: 'no application was sent' });
    expect(checkApp(st, spec('book_interview', { interview_company: 'Juniper Table', interview_day: 'Monday, June 9', interview_time: '10:45 AM' }))).toEqual({
      success: false,
      reason: 'no interview was booked',
    });
    expect(checkApp(st, spec('withdraw_application', { withdraw_company: 'Juniper Table', withdraw_job: 'Host' }))).toEqual({
      success: false,
      reason: 'the Host application at Juniper Table is still active',
    });
    expect(checkApp(st, spec('create_alert', { alert_keywords: 'Line Cook', alert_city: 'Denver', alert_frequency: 'weekly' }))).toEqual({ success: false, reason: 'no job alert was created' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates).toHaveLength(3);
      for (const t of task.templates) expect(t).toContain('Hirewell');
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['jobs'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialJobsState(1), q.checker).success).toBe(false);
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
    await step(s, { action: 'click', coordinate: await centerOf(s.page.locator('a.app[aria-label="Hirewell"]')) });
    expect(await visible(s, 'Jobs for you')).toBe(true);
    await s.close();
  }, 60_000);

  it('applies for a job with a chosen resume and start only after Submit application; the near-duplicate company, another resume or start, or a second application fails', async () => {
    const s = await open(1);
    expect(await visible(s, 'Jobs for you')).toBe(true);
    // Closed and applied-for jobs have no Apply now.
    await tap(s, job(s, 'Office Assistant', 'Ledgerline Accounting'));
    expect(await visible(s, 'This job is no longer accepting applications.')).toBe(true);
    expect(await s.page.locator('#apply').count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, job(s, 'Barista', 'Kettle & Crumb Bakery'));
    expect(await visible(s, 'About the job')).toBe(true);
    await tap(s, s.page.locator('#apply'));
    expect(await visible(s, 'When can you start?')).toBe(true);
    expect(await s.page.locator('#resume-v').textContent()).toBe('Retail resume (old)');
    await tap(s, s.page.locator('#continue'));
    expect(await s.page.locator('#e-start').textContent()).toBe('Choose when you can start');
    await tap(s, s.page.locator('#resume-btn'));
    await tap(s, s.page.locator('#resumes .opt[data-v="Coffee shop resume"]'));
    expect(await s.page.locator('#resume-v').textContent()).toBe('Coffee shop resume');
    await tap(s, s.page.locator('#start .opt[data-v="In 2 weeks"]'));
    await tap(s, s.page.locator('#continue'));
    expect(await visible(s, 'Review your application')).toBe(true);
    expect(await s.page.locator('#rv-resume').textContent()).toBe('Coffee shop resume');
    expect(await s.page.locator('#rv-start').textContent()).toBe('In 2 weeks');
    const sp = { company: 'Kettle & Crumb Bakery', job_title: 'Barista', resume: 'Coffee shop resume', start_when: 'in 2 weeks' };
    expect(await reason(s, 'apply_job', sp)).toBe('no application was sent');
    await tap(s, s.page.locator('#submit'));
    expect(await visible(s, 'Application sent')).toBe(true);
    expect(await reason(s, 'apply_job', sp)).toBe('applied for Barista at Kettle & Crumb Bakery with "Coffee shop resume", start: In 2 weeks');
    expect(await check(s, spec('apply_job', { ...sp, start_when: 'In 2 Weeks' }))).toBe(true);
    expect(await reason(s, 'apply_job', { ...sp, company: 'Copper Kettle Coffee' })).toBe('the application was sent for Barista at Kettle & Crumb Bakery, expected Barista at Copper Kettle Coffee');
    expect(await reason(s, 'apply_job', { ...sp, resume: 'Retail resume' })).toBe('the Barista at Kettle & Crumb Bakery application was sent with "Coffee shop resume", expected "Retail resume"');
    expect(await reason(s, 'apply_job', { ...sp, start_when: 'in 1 week' })).toBe('the Barista at Kettle & Crumb Bakery application says the start is "In 2 weeks", expected "in 1 week"');
    // The job now shows as applied; a second application (with the default resume) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Jobs"]'));
    expect(await job(s, 'Barista', 'Kettle & Crumb Bakery').locator('.badge').textContent()).toBe('Applied');
    await tap(s, job(s, 'Delivery Driver', 'GreenCart Grocery'));
    await tap(s, s.page.locator('#apply'));
    await tap(s, s.page.locator('#start .opt[data-v="Right away"]'));
    await tap(s, s.page.locator('#continue'));
    await tap(s, s.page.locator('#submit'));
    expect(await visible(s, 'Application sent')).toBe(true);
    expect(await reason(s, 'apply_job', sp)).toBe('2 applications were sent ("Barista at Kettle & Crumb Bakery", "Delivery Driver at GreenCart Grocery"), expected one');
    expect(await reason(s, 'apply_job', { company: 'GreenCart Grocery', job_title: 'Delivery Driver', resume: 'Retail resume', start_when: 'right away' })).toBe(
      'the Delivery Driver at GreenCart Grocery application was sent with "Retail resume (old)", expected "Retail resume"',
    );
    await s.close();
  }, 120_000);

  it('books a requested interview time after the confirm dialog; another day, time or company, or a second booking fails', async () => {
    const s = await open(2);
    await tap(s, s.page.locator('.bnav a[aria-label="Applications"]'));
    expect(await visible(s, 'Active (7)')).toBe(true);
    // The near-duplicate Host application at the same restaurant has no interview request.
    await tap(s, job(s, 'Host', 'Juniper Table'));
    expect(await visible(s, 'Your application')).toBe(true);
    expect(await s.page.locator('#choose-time').count()).toBe(0);
    await step(s, { action: 'system_button', button: 'Back' });
    await tap(s, job(s, 'Line Cook', 'Juniper Table'));
    await tap(s, s.page.locator('#choose-time'));
    expect(await visible(s, 'Choose a time')).toBe(true);
    expect(await s.page.locator('#go').isDisabled()).toBe(true);
    expect(await s.page.locator('span.time.taken[aria-label="Tuesday, June 3 at 2:45 PM, taken"]').count()).toBe(1);
    await tap(s, s.page.locator('button.time[data-day="Monday, June 9"][data-time="10:45 AM"]'));
    expect(await s.page.locator('#sum').textContent()).toBe('Monday, June 9 at 10:45 AM');
    await tap(s, s.page.locator('#go'));
    expect(await visible(s, 'Book this interview?')).toBe(true);
    expect(await s.page.locator('#book-text').textContent()).toBe('Monday, June 9 at 10:45 AM with Juniper Table (Working interview, 45 minutes).');
    await tap(s, s.page.locator('#book-back'));
    const sp = { interview_company: 'Juniper Table', interview_day: 'Monday, June 9', interview_time: '10:45 AM' };
    expect(await reason(s, 'book_interview', sp)).toBe('no interview was booked');
    await tap(s, s.page.locator('#go'));
    await tap(s, s.page.locator('#book-ok'));
    expect(await visible(s, 'Interview booked')).toBe(true);
    expect(await s.page.locator('#iv-time').textContent()).toBe('10:45 AM');
    expect(await reason(s, 'book_interview', sp)).toBe('booked the Line Cook at Juniper Table interview for Monday, June 9 at 10:45 AM');
    expect(await reason(s, 'book_interview', { ...sp, interview_day: 'Tuesday, June 10', interview_time: '2:00 PM' })).toBe(
      'the Juniper Table interview is booked for Monday, June 9, expected Tuesday, June 10',
    );
    expect(await reason(s, 'book_interview', { ...sp, interview_time: '2:00 PM' })).toBe('the Juniper Table interview on Monday, June 9 is booked at 10:45 AM, expected 2:00 PM');
    expect(await reason(s, 'book_interview', { interview_company: 'Brightsmile Dental', interview_day: 'Friday, June 6', interview_time: '3:30 PM' })).toBe(
      'the Brightsmile Dental interview was not booked (booked "Line Cook at Juniper Table, Monday, June 9 at 10:45 AM" instead)',
    );
    // A second booking (Brightsmile Dental, from the Interview requests card on Jobs) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Jobs"]'));
    await tap(s, s.page.locator('a.card.warm'));
    await tap(s, job(s, 'Front Desk Receptionist', 'Brightsmile Dental'));
    await tap(s, s.page.locator('#choose-time'));
    await tap(s, s.page.locator('button.time[data-day="Friday, June 6"][data-time="3:30 PM"]'));
    await tap(s, s.page.locator('#go'));
    await tap(s, s.page.locator('#book-ok'));
    expect(await visible(s, 'Interview booked')).toBe(true);
    expect(await reason(s, 'book_interview', sp)).toBe('the Juniper Table interview was booked but "Front Desk Receptionist at Brightsmile Dental, Friday, June 6 at 3:30 PM" too');
    await s.close();
  }, 120_000);

  it('withdraws an application only after a reason is picked in the dialog; the near-duplicate job at the same company or a second withdrawal fails', async () => {
    const s = await open(3);
    await tap(s, s.page.locator('.bnav a[aria-label="Applications"]'));
    await tap(s, job(s, 'Host', 'Juniper Table'));
    await tap(s, s.page.locator('#withdraw-btn'));
    expect(await visible(s, 'Why are you withdrawing?')).toBe(true);
    await tap(s, s.page.locator('#withdraw-ok'));
    expect(await s.page.locator('#werr').textContent()).toBe('Choose a reason');
    await tap(s, exact(s, '#withdraw .acts button', 'Keep application'));
    const sp = { withdraw_company: 'Juniper Table', withdraw_job: 'Host' };
    expect(await reason(s, 'withdraw_application', sp)).toBe('the Host application at Juniper Table is still active');
    await tap(s, s.page.locator('#withdraw-btn'));
    await tap(s, exact(s, '#withdraw .opt .t', "The schedule doesn't fit"));
    await tap(s, s.page.locator('#withdraw-ok'));
    expect(await visible(s, 'Application withdrawn')).toBe(true);
    expect(await reason(s, 'withdraw_application', sp)).toBe("withdrew the Host application at Juniper Table (The schedule doesn't fit)");
    expect(await reason(s, 'withdraw_application', { ...sp, withdraw_job: 'Line Cook' })).toBe(
      'the Line Cook application at Juniper Table is still active (withdrew "Host at Juniper Table" instead)',
    );
    expect(await check(s, spec('withdraw_application', { withdraw_company: 'Pinecrest Outfitters', withdraw_job: 'Stock Associate' }))).toBe(false);
    // It moved to Closed; withdrawing a second one (below the fold) fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Applications"]'));
    expect(await visible(s, 'Active (6)')).toBe(true);
    await tap(s, exact(s, '.seg a', 'Closed (3)'));
    expect(await visible(s, 'Closed applications')).toBe(true);
    await tap(s, exact(s, '.seg a', 'Active (6)'));
    await tap(s, job(s, 'Stock Associate', 'Pinecrest Outfitters'));
    await tap(s, s.page.locator('#withdraw-btn'));
    await tap(s, exact(s, '#withdraw .opt .t', 'I accepted another offer'));
    await tap(s, s.page.locator('#withdraw-ok'));
    expect(await visible(s, 'Application withdrawn')).toBe(true);
    expect(await reason(s, 'withdraw_application', sp)).toBe('the Host application at Juniper Table was withdrawn but "Stock Associate at Pinecrest Outfitters" too');
    await s.close();
  }, 120_000);

  it('creates a job alert with keywords, a place and a frequency; a duplicate is refused, and another place, frequency or a switched alert fails', async () => {
    const s = await open(4);
    await tap(s, s.page.locator('.bnav a[aria-label="Alerts"]'));
    expect(await visible(s, 'Your alerts (3)')).toBe(true);
    await tap(s, s.page.locator('#new-alert'));
    expect(await visible(s, 'How often?')).toBe(true);
    await tap(s, s.page.locator('#create'));
    expect(await s.page.locator('#e-keywords').textContent()).toBe('Enter a job title or keyword');
    await retype(s, '#kw', 'barista');
    await tap(s, s.page.locator('#city-btn'));
    await tap(s, s.page.locator('#places .opt[data-v="Denver"]'));
    expect(await s.page.locator('#city-v').textContent()).toBe('Denver');
    await tap(s, s.page.locator('#create'));
    expect(await s.page.locator('#e-keywords').textContent()).toBe('You already have an alert for "barista" in Denver');
    await retype(s, '#kw', 'Line Cook');
    await tap(s, s.page.locator('#freq .opt[data-v="Weekly"]'));
    const sp = { alert_keywords: 'Line Cook', alert_city: 'Denver', alert_frequency: 'weekly' };
    expect(await reason(s, 'create_alert', sp)).toBe('no job alert was created');
    await tap(s, s.page.locator('#create'));
    expect(await visible(s, 'Alert created')).toBe(true);
    expect(await visible(s, 'Your alerts (4)')).toBe(true);
    expect(await reason(s, 'create_alert', sp)).toBe('created an alert for Line Cook in Denver, weekly');
    expect(await check(s, spec('create_alert', { ...sp, alert_keywords: 'line cook', alert_frequency: 'Weekly' }))).toBe(true);
    expect(await reason(s, 'create_alert', { ...sp, alert_city: 'Boulder' })).toBe('the "Line Cook" alert is for Denver, expected Boulder');
    expect(await reason(s, 'create_alert', { ...sp, alert_frequency: 'instantly' })).toBe('the "Line Cook" alert is sent weekly, expected instantly');
    expect(await reason(s, 'create_alert', { ...sp, alert_keywords: 'Delivery Driver' })).toBe('the new alert is for "Line Cook", expected "Delivery Driver"');
    // Switching an existing alert off fails the task; switching it back on passes again.
    await tap(s, s.page.locator('.al[data-kw="Barista"] .switch'));
    expect(await s.page.locator('.al[data-kw="Barista"] .switch').getAttribute('aria-checked')).toBe('false');
    expect(await reason(s, 'create_alert', sp)).toBe('the "Line Cook" alert was created but the "Barista" alert was turned off');
    await tap(s, s.page.locator('.al[data-kw="Barista"] .switch'));
    expect(await check(s, spec('create_alert', sp))).toBe(true);
    // A second alert fails the task.
    await tap(s, s.page.locator('#new-alert'));
    await retype(s, '#kw', 'Front Desk');
    await tap(s, s.page.locator('#create'));
    expect(await visible(s, 'Alert created')).toBe(true);
    expect(await reason(s, 'create_alert', sp)).toBe('2 alerts were created ("Line Cook in Denver, weekly", "Front Desk anywhere, daily"), expected one');
    await s.close();
  }, 120_000);
});
