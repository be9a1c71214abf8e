import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  childByName,
  childOf,
  CLUB_NAMES,
  clubByName,
  clubOf,
  dayByLabel,
  dayLabel,
  initialSchoolState,
  lunchDayByName,
  lunchOpen,
  menuOf,
  orderOf,
  REASONS,
  TIMES,
  WEEKDAYS,
  type Absence,
  type Booking,
  type Child,
  type LunchOrder,
  type SchoolState,
} from './state.js';

export const SCHOOL_FAMILIES = ['report_absence', 'change_lunch', 'set_quiet_hours', 'cancel_club'] as const;
export type SchoolFamily = (typeof SCHOOL_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`school checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`school checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const sessionText = (s: string): string => (s === 'All day' ? 'all day' : s === 'Morning only' ? 'the morning only' : 'the afternoon only');

/** Success checkers for Bellwise; they read the server-side session state in-process. */
export function check(state: SchoolState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'school') throw new Error(`school checker got a spec for app "${spec.app}"`);
  const start = initialSchoolState(state.seed);
  const child = (key: string): Child => {
    const name = param(spec, key);
    const c = childByName(state, name);
    if (!c) throw new Error(`school checker ${spec.family}: unknown ${key} "${name}"`);
    return c;
  };
  const first = (id: string): string => childOf(state, id)?.first ?? id;
  const clubName = (id: string): string => clubOf(state, id)?.name ?? id;
  const absenceText = (a: Absence): string => `${first(a.childId)} on ${dayLabel(a.day)}`;
  const lunchText = (o: LunchOrder): string => `${first(o.childId)}'s ${WEEKDAYS[o.day] ?? ''} lunch`;
  const bookingText = (b: Booking): string => `${first(b.childId)}'s place at ${clubName(b.clubId)}`;

  const reported = state.absences.filter((a) => !a.seeded).sort((a, b) => a.seq - b.seq);
  const lunchesChanged = state.lunches.filter((o) => o.choice !== orderOf(start, o.childId, o.day)?.choice);
  const cancelled = state.bookings.filter((b) => b.seeded && b.cancelled).sort((a, b) => a.seq - b.seq);
  const booked = state.bookings.filter((b) => !b.seeded && !b.cancelled);
  const notifs = state.notifications.filter((n) => n.on !== start.notifications.find((x) => x.id === n.id)?.on);
  const q = state.quiet;
  const quietChanged = q.on !== start.quiet.on || q.from !== start.quiet.from || q.until !== start.quiet.until;
  /** What else changed besides the task, or '' when nothing did. */
  const sideEffects = (skip: { reported?: boolean; lunches?: boolean; cancelled?: boolean; quiet?: boolean }): string => {
    if (!skip.reported && reported.length) return `an absence was reported for ${reported.map(absenceText).join(', ')}`;
    if (!skip.lunches && lunchesChanged.length) return `${lunchesChanged.map((o) => `${lunchText(o)} was changed to ${o.choice}`).join(', ')}`;
    if (!skip.cancelled && cancelled.length) return `${cancelled.map(bookingText).join(', ')} was cancelled`;
    if (booked.length) return `${booked.map((b) => `${first(b.childId)} was booked into ${clubName(b.clubId)}`).join(', ')}`;
    if (notifs.length) return `${notifs.map((n) => `"${n.name}" was turned ${n.on ? 'on' : 'off'}`).join(', ')}`;
    if (!skip.quiet && quietChanged) return `quiet hours were changed (${q.on ? `on, ${q.from} – ${q.until}` : 'off'})`;
    return '';
  };

  switch (spec.family as SchoolFamily) {
    case 'report_absence': {
      const c = child('absence_child');
      const dayText = param(spec, 'absence_day');
      const day = dayByLabel(dayText);
      if (day === undefined) throw new Error(`school checker report_absence: unknown absence_day "${dayText}"`);
      const reason = param(spec, 'absence_reason', REASONS);
      if (start.absences.some((a) => a.childId === c.id && a.day === day)) throw new Error(`school checker report_absence: ${c.first} already has an absence on ${dayLabel(day)}`);
      if (!reported.length) return no('no absence was reported');
      const a = reported.find((x) => x.childId === c.id && x.day === day) ?? reported.find((x) => x.childId === c.id) ?? reported[reported.length - 1]!;
      if (a.childId !== c.id) return no(`the absence reported is for ${first(a.childId)}, expected ${c.first}`);
      if (a.day !== day) return no(`${c.first}'s absence was reported for ${dayLabel(a.day)}, expected ${dayLabel(day)}`);
      if (!same(a.reason, reason)) return no(`${c.first}'s absence was reported as ${a.reason}, expected ${reason}`);
      if (a.session !== 'All day') return no(`${c.first}'s absence was reported for ${sessionText(a.session)}, expected all day`);
      if (reported.length > 1) return no(`${reported.length} absences were reported (${reported.map(absenceText).join(', ')}), expected one`);
      const side = sideEffects({ reported: true });
      if (side) return no(`${c.first}'s absence was reported but ${side}`);
      return ok(`reported ${c.first} absent on ${dayLabel(day)}, all day: ${a.reason}`);
    }
    case 'change_lunch': {
      const c = child('lunch_child');
      const dayName = param(spec, 'lunch_day');
      const day = lunchDayByName(dayName);
      if (day === undefined || !lunchOpen(day)) throw new Error(`school checker change_lunch: unknown lunch_day "${dayName}"`);
      const choice = param(spec, 'lunch_choice', menuOf(day));
      const before = orderOf(start, c.id, day)!;
      if (same(before.choice, choice)) throw new Error(`school checker change_lunch: ${c.first}'s ${WEEKDAYS[day]} lunch is already ${before.choice}`);
      const o = orderOf(state, c.id, day)!;
      const label = `${c.first}'s ${WEEKDAYS[day]} lunch`;
      if (!lunchesChanged.length) return no('no lunch order was changed');
      if (!same(o.choice, choice)) {
        if (o.choice === before.choice) return no(`${label} is still ${o.choice} (changed ${lunchesChanged.map(lunchText).join(', ')} instead)`);
        return no(`${label} is ${o.choice}, expected ${choice}`);
      }
      const others = lunchesChanged.filter((x) => x !== o);
      if (others.length) return no(`${label} was changed but ${others.map((x) => `${lunchText(x)} was changed too, to ${x.choice}`).join(', ')}`);
      const side = sideEffects({ lunches: true });
      if (side) return no(`${label} was changed but ${side}`);
      return ok(`${label} is now ${o.choice} (was ${before.choice})`);
    }
    case 'set_quiet_hours': {
      const from = param(spec, 'quiet_from', TIMES);
      const until = param(spec, 'quiet_until', TIMES);
      if (same(from, until)) throw new Error(`school checker set_quiet_hours: quiet_from and quiet_until are both ${from}`);
      if (start.quiet.on && same(start.quiet.from, from) && same(start.quiet.until, until)) throw new Error(`school checker set_quiet_hours: quiet hours are already on from ${from} to ${until}`);
      if (!quietChanged) return no('quiet hours were not changed');
      if (!q.on) return no(`quiet hours are off (set to ${q.from} – ${q.until})`);
      if (!same(q.from, from)) return no(`quiet hours start at ${q.from}, expected ${from}`);
      if (!same(q.until, until)) return no(`quiet hours end at ${q.until}, expected ${until}`);
      const side = sideEffects({ quiet: true });
      if (side) return no(`quiet hours are on from ${q.from} to ${q.until} but ${side}`);
      return ok(`quiet hours are on from ${q.from} to ${q.until}`);
    }
    case 'cancel_club': {
      const name = param(spec, 'cancel_club', CLUB_NAMES);
      const club = clubByName(state, name)!;
      const c = child('cancel_child');
      const b = state.bookings.find((x) => x.seeded && x.clubId === club.id && x.childId === c.id);
      if (!b) throw new Error(`school checker cancel_club: ${c.first} has no booking at ${club.name}`);
      const label = `${c.first}'s place at ${club.name}`;
      const others = cancelled.filter((x) => x !== b);
      if (!b.cancelled) return no(cancelled.length ? `${label} was not cancelled (cancelled ${others.map(bookingText).join(', ')} instead)` : 'no club booking was cancelled');
      if (others.length) return no(`${cancelled.length} bookings were cancelled (${cancelled.map(bookingText).join(', ')}), expected one`);
      const side = sideEffects({ cancelled: true });
      if (side) return no(`${label} was cancelled but ${side}`);
      return ok(`cancelled ${label}`);
    }
    default:
      throw new Error(`school checker: unknown task family "${spec.family}" (known: ${SCHOOL_FAMILIES.join(', ')})`);
  }
}

export const schoolCheckers: AppCheckers<SchoolState> = { families: SCHOOL_FAMILIES, check };
