import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  ALERT_PLACES,
  canApply,
  dayLabel,
  FREQUENCY_NAMES,
  freeTimes,
  initialJobsState,
  isActive,
  keywordKey,
  KEYWORDS_MAX,
  needsTime,
  RESUME_NAMES,
  START_OPTIONS,
  type Alert,
  type Application,
  type JobsState,
} from './state.js';

export const JOBS_FAMILIES = ['apply_job', 'book_interview', 'withdraw_application', 'create_alert'] as const;
export type JobsFamily = (typeof JOBS_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`jobs checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`jobs checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');

/** Success checkers for Hirewell; they read the server-side session state in-process. */
export function check(state: JobsState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'jobs') throw new Error(`jobs checker got a spec for app "${spec.app}"`);
  const start = initialJobsState(state.seed);
  const jobText = (a: Application): string => {
    const j = state.jobs.find((x) => x.id === a.jobId);
    return j ? `${j.title} at ${j.company}` : 'a job';
  };
  const titleOf = (a: Application): string => state.jobs.find((x) => x.id === a.jobId)?.title ?? '';
  const companyOf = (a: Application): string => state.jobs.find((x) => x.id === a.jobId)?.company ?? '';
  const resumeName = (id: number): string => state.resumes.find((r) => r.id === id)?.name ?? 'no resume';
  const startApp = (a: Application): Application | undefined => start.applications.find((x) => x.id === a.id);
  const sent = state.applications.filter((a) => !a.seeded).sort((a, b) => a.seq - b.seq);
  const withdrawn = state.applications.filter((a) => a.seeded && a.withdrawn && !startApp(a)?.withdrawn).sort((a, b) => a.seq - b.seq);
  const booked = state.applications.filter((a) => a.interview && !startApp(a)?.interview).sort((a, b) => (a.interview?.seq ?? 0) - (b.interview?.seq ?? 0));
  const when = (a: Application): string => (a.interview ? `${dayLabel(a.interview.day)} at ${a.interview.time}` : 'no time');
  const newAlerts = state.alerts.filter((a) => !a.seeded).sort((a, b) => a.seq - b.seq);
  const alertText = (a: Alert): string => `${a.keywords} ${a.city === 'Anywhere' ? 'anywhere' : `in ${a.city}`}, ${a.frequency.toLowerCase()}`;
  switch (spec.family as JobsFamily) {
    case 'apply_job': {
      const open = start.jobs.filter((j) => canApply(start, j));
      const company = param(
        spec,
        'company',
        open.map((j) => j.company),
      );
      const title = param(spec, 'job_title');
      const resume = param(spec, 'resume', RESUME_NAMES);
      const startWhen = param(spec, 'start_when', START_OPTIONS);
      if (!open.some((j) => same(j.company, company) && same(j.title, title))) throw new Error(`jobs checker apply_job: no open job "${title}" at ${company}`);
      const a = sent.find((x) => same(titleOf(x), title) && same(companyOf(x), company)) ?? sent[sent.length - 1];
      if (!a) return no('no application was sent');
      const what = `${title} at ${company}`;
      if (!same(titleOf(a), title) || !same(companyOf(a), company)) return no(`the application was sent for ${jobText(a)}, expected ${what}`);
      if (!same(resumeName(a.resumeId), resume)) return no(`the ${what} application was sent with "${resumeName(a.resumeId)}", expected "${resume}"`);
      if (!same(a.start, startWhen)) return no(`the ${what} application says the start is "${a.start}", expected "${startWhen}"`);
      if (sent.length > 1) return no(`${sent.length} applications were sent (${list(sent.map(jobText))}), expected one`);
      if (withdrawn.length) return no(`the ${what} application was sent but ${list(withdrawn.map(jobText))} was withdrawn`);
      return ok(`applied for ${what} with "${resumeName(a.resumeId)}", start: ${a.start}`);
    }
    case 'book_interview': {
      const requests = start.applications.filter(needsTime);
      const company = param(
        spec,
        'interview_company',
        requests.map((a) => start.jobs.find((j) => j.id === a.jobId)?.company ?? ''),
      );
      const startTarget = requests.find((a) => same(start.jobs.find((j) => j.id === a.jobId)?.company ?? '', company)) as Application;
      const invite = startTarget.invite!;
      const day = param(
        spec,
        'interview_day',
        invite.days.map((d) => dayLabel(d.day)),
      );
      const inviteDay = invite.days.find((d) => same(dayLabel(d.day), day))!;
      const time = param(spec, 'interview_time', inviteDay.times);
      if (!freeTimes(inviteDay).some((t) => same(t, time))) throw new Error(`jobs checker book_interview: ${time} on ${day} is taken`);
      const target = state.applications.find((a) => a.id === startTarget.id) as Application;
      const others = booked.filter((a) => a.id !== target.id);
      const iv = target.interview;
      if (!iv) return no(others.length ? `the ${company} interview was not booked (booked ${list(others.map((a) => `${jobText(a)}, ${when(a)}`))} instead)` : 'no interview was booked');
      if (target.withdrawn) return no(`the ${company} interview was booked and then the application was withdrawn`);
      if (!same(dayLabel(iv.day), day)) return no(`the ${company} interview is booked for ${dayLabel(iv.day)}, expected ${day}`);
      if (!same(iv.time, time)) return no(`the ${company} interview on ${day} is booked at ${iv.time}, expected ${time}`);
      if (others.length) return no(`the ${company} interview was booked but ${list(others.map((a) => `${jobText(a)}, ${when(a)}`))} too`);
      if (withdrawn.length) return no(`the ${company} interview was booked but ${list(withdrawn.map(jobText))} was withdrawn`);
      if (sent.length) return no(`the ${company} interview was booked but an application was sent for ${list(sent.map(jobText))}`);
      return ok(`booked the ${jobText(target)} interview for ${when(target)}`);
    }
    case 'withdraw_application': {
      const active = start.applications.filter(isActive);
      const company = param(
        spec,
        'withdraw_company',
        active.map((a) => start.jobs.find((j) => j.id === a.jobId)?.company ?? ''),
      );
      const title = param(spec, 'withdraw_job');
      const startTarget = active.find((a) => {
        const j = start.jobs.find((x) => x.id === a.jobId);
        return !!j && same(j.company, company) && same(j.title, title);
      });
      if (!startTarget) throw new Error(`jobs checker withdraw_application: no active application for "${title}" at ${company}`);
      const target = state.applications.find((a) => a.id === startTarget.id) as Application;
      const what = `${title} application at ${company}`;
      const others = withdrawn.filter((a) => a.id !== target.id).map(jobText);
      if (!target.withdrawn) return no(`the ${what} is still active${others.length ? ` (withdrew ${list(others)} instead)` : ''}`);
      if (others.length) return no(`the ${what} was withdrawn but ${list(others)} too`);
      if (sent.length) return no(`the ${what} was withdrawn but an application was sent for ${list(sent.map(jobText))}`);
      const newBookings = booked.filter((a) => a.id !== target.id);
      if (newBookings.length) return no(`the ${what} was withdrawn but an interview was booked for ${list(newBookings.map(jobText))}`);
      return ok(`withdrew the ${what} (${target.withdrawReason})`);
    }
    case 'create_alert': {
      const keywords = param(spec, 'alert_keywords');
      if (keywords.trim().length > KEYWORDS_MAX) throw new Error(`jobs checker create_alert: alert_keywords "${keywords}" is too long`);
      const city = param(spec, 'alert_city', ALERT_PLACES);
      const frequency = param(spec, 'alert_frequency', FREQUENCY_NAMES);
      if (start.alerts.some((a) => keywordKey(a.keywords) === keywordKey(keywords) && same(a.city, city)))
        throw new Error(`jobs checker create_alert: there is already an alert for "${keywords}" in ${city}`);
      const a = newAlerts.find((x) => keywordKey(x.keywords) === keywordKey(keywords)) ?? newAlerts[newAlerts.length - 1];
      if (!a) return no('no job alert was created');
      if (keywordKey(a.keywords) !== keywordKey(keywords)) return no(`the new alert is for "${a.keywords}", expected "${keywords}"`);
      if (!same(a.city, city)) return no(`the "${a.keywords}" alert is for ${a.city}, expected ${city}`);
      if (!same(a.frequency, frequency)) return no(`the "${a.keywords}" alert is sent ${a.frequency.toLowerCase()}, expected ${frequency.toLowerCase()}`);
      if (!a.on) return no(`the "${a.keywords}" alert was created and then turned off`);
      if (newAlerts.length > 1) return no(`${newAlerts.length} alerts were created (${list(newAlerts.map(alertText))}), expected one`);
      const changed = state.alerts.filter((x) => x.seeded && x.on !== start.alerts.find((y) => y.id === x.id)?.on);
      if (changed.length) return no(`the "${a.keywords}" alert was created but ${changed.map((x) => `the "${x.keywords}" alert was turned ${x.on ? 'on' : 'off'}`).join(' and ')}`);
      return ok(`created an alert for ${alertText(a)}`);
    }
    default:
      throw new Error(`jobs checker: unknown task family "${spec.family}" (known: ${JOBS_FAMILIES.join(', ')})`);
  }
}

export const jobsCheckers: AppCheckers<JobsState> = { families: JOBS_FAMILIES, check };
