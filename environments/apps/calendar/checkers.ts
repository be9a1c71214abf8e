import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { sameText } from '../mobile-kit.js';
import { SEEDED_EVENTS, TIMES, daysIn, isoDate, longDate, monthIndex } from './catalog.js';
import type { CalendarState } from './state.js';

export const CALENDAR_FAMILIES = ['create_event', 'delete_event'] as const;
export type CalendarFamily = (typeof CALENDAR_FAMILIES)[number];

const ok = (reason: string): CheckResult => ({ success: true, reason });
const no = (reason: string): CheckResult => ({ success: false, reason });

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`calendar checker ${spec.family}: missing param "${key}"`);
  return v;
}

/** Calendar's success checkers; they read the session state in-process, never through the page. */
export function check(state: CalendarState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'calendar') throw new Error(`calendar checker got a spec for app "${spec.app}"`);
  switch (spec.family as CalendarFamily) {
    case 'create_event': {
      const title = param(spec, 'title');
      const month = monthIndex(param(spec, 'month'));
      const day = Number(param(spec, 'day'));
      const time = param(spec, 'time');
      if (month < 1) throw new Error(`calendar checker create_event: unknown month "${spec.params.month}"`);
      if (!Number.isInteger(day) || day < 1 || day > daysIn(month)) throw new Error(`calendar checker create_event: bad day "${spec.params.day}"`);
      if (!TIMES.includes(time)) throw new Error(`calendar checker create_event: bad time "${time}"`);
      const date = isoDate(month, day);
      const created = state.events.filter((e) => e.created);
      if (created.length === 0) return no('no event was created');
      const named = created.filter((e) => sameText(e.title, title));
      if (named.length === 0) return no(`created ${created.map((e) => `"${e.title}"`).join(', ')}, expected "${title}"`);
      const hit = named.find((e) => e.date === date && e.time === time);
      if (!hit) return no(named.map((e) => `"${e.title}" is on ${longDate(e.date)} at ${e.time}, expected ${longDate(date)} at ${time}`).join('; '));
      if (created.length > 1) return no(`${created.length} events were created, expected one`);
      return ok(`created "${hit.title}" on ${longDate(hit.date)} at ${hit.time}`);
    }
    case 'delete_event': {
      const name = param(spec, 'event');
      const title = SEEDED_EVENTS.find((t) => sameText(t, name));
      if (!title) throw new Error(`calendar checker delete_event: unknown event "${name}"`);
      const goneTitles = state.deleted.filter((d) => state.initialIds.includes(d.id)).map((d) => d.title);
      const wrong = goneTitles.filter((t) => t !== title);
      if (!goneTitles.includes(title)) return no(`"${title}" is still in the calendar${wrong.length ? ` (deleted ${wrong.join(', ')} instead)` : ''}`);
      if (wrong.length) return no(`deleted "${title}" but also ${wrong.join(', ')}`);
      return ok(`deleted "${title}"`);
    }
    default:
      throw new Error(`calendar checker: unknown task family "${spec.family}" (known: ${CALENDAR_FAMILIES.join(', ')})`);
  }
}

export const calendarCheckers: AppCheckers<CalendarState> = { families: CALENDAR_FAMILIES, check };
