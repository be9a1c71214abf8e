import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { CLASS_NAMES, DAYS, type FitnessState, type GymClass } from './state.js';

export const FITNESS_FAMILIES = ['book_class', 'cancel_booking', 'invite_guest'] as const;
export type FitnessFamily = (typeof FITNESS_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`fitness checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`fitness checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const dayIndex = (d: string): number => DAYS.findIndex((x) => same(x, d));
const label = (c: GymClass | undefined): string => (c ? `${c.name} on ${DAYS[c.day] ?? '?'}` : 'an unknown class');
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');

/** Success checkers for PulseFit; they read the server-side session state in-process. */
export function check(state: FitnessState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'fitness') throw new Error(`fitness checker got a spec for app "${spec.app}"`);
  const classOf = (id: number): GymClass | undefined => state.classes.find((c) => c.id === id);
  const made = state.bookings.filter((b) => !b.seeded && b.active).map((b) => label(classOf(b.classId)));
  const dropped = state.bookings.filter((b) => b.seeded && !b.active).map((b) => label(classOf(b.classId)));
  switch (spec.family as FitnessFamily) {
    case 'book_class': {
      const name = param(spec, 'class_name', CLASS_NAMES);
      const day = param(spec, 'day', DAYS);
      const target = state.classes.find((c) => same(c.name, name) && c.day === dayIndex(day));
      if (!target) throw new Error(`fitness checker book_class: no class "${name}" on ${day}`);
      const want = label(target);
      if (!made.length) return no(state.waitlist.length ? `no class was booked (joined the waitlist of ${list(state.waitlist.map((id) => label(classOf(id))))})` : 'no class was booked');
      if (!made.includes(want)) return no(`booked ${list(made)}, not "${want}"`);
      if (made.length > 1) return no(`${made.length} classes were booked (${list(made)}), expected one`);
      if (dropped.length) return no(`"${want}" was booked but ${list(dropped)} was cancelled`);
      if (state.waitlist.length) return no(`"${want}" was booked but the waitlist of ${list(state.waitlist.map((id) => label(classOf(id))))} was joined too`);
      return ok(`booked "${want}"`);
    }
    case 'cancel_booking': {
      const name = param(spec, 'booked_class', CLASS_NAMES);
      const day = param(spec, 'booked_day', DAYS);
      const target = state.bookings.find((b) => b.seeded && same(classOf(b.classId)?.name ?? '', name) && classOf(b.classId)?.day === dayIndex(day));
      if (!target) throw new Error(`fitness checker cancel_booking: no booking of "${name}" on ${day}`);
      const want = label(classOf(target.classId));
      if (target.active) return no(dropped.length ? `"${want}" is still booked (cancelled ${list(dropped)} instead)` : `"${want}" is still booked`);
      const others = dropped.filter((d) => d !== want);
      if (others.length) return no(`"${want}" was cancelled but ${list(others)} too`);
      if (made.length) return no(`"${want}" was cancelled but ${list(made)} was booked`);
      return ok(`cancelled "${want}"`);
    }
    case 'invite_guest': {
      const guest = param(spec, 'guest');
      const email = param(spec, 'email');
      const day = param(spec, 'visit_day', DAYS);
      const sent = state.guests.filter((g) => !g.seeded);
      const g = sent[sent.length - 1];
      if (!g) return no('no guest pass was sent');
      if (!same(g.name, guest)) return no(`the pass is for "${g.name}", expected "${guest}"`);
      if (!same(g.email, email)) return no(`the pass went to ${g.email}, expected ${email}`);
      if (g.day !== dayIndex(day)) return no(`the pass is for ${DAYS[g.day] ?? '?'}, expected ${day}`);
      if (sent.length > 1) return no(`${sent.length} guest passes were sent, expected one`);
      return ok(`guest pass sent to ${guest} (${email}) for ${day}`);
    }
    default:
      throw new Error(`fitness checker: unknown task family "${spec.family}" (known: ${FITNESS_FAMILIES.join(', ')})`);
  }
}

export const fitnessCheckers: AppCheckers<FitnessState> = { families: FITNESS_FAMILIES, check };
