import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { AMPM, DAYS, HOURS, MINUTES, SEED_ALARM_LABELS, SNOOZE, fmtDays, fmtTime } from './catalog.js';
import type { Alarm, ClockState } from './state.js';

export const CLOCK_FAMILIES = ['create_alarm', 'toggle_alarm', 'delete_alarm', 'set_snooze'] as const;
export type ClockFamily = (typeof CLOCK_FAMILIES)[number];

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`clock checker ${spec.family}: missing param "${key}"`);
  return v;
}
function oneOf<T extends string>(spec: CheckerSpec, key: string, values: readonly T[]): T {
  const v = param(spec, key);
  const hit = values.find((x) => same(x, v));
  if (!hit) throw new Error(`clock checker ${spec.family}: bad ${key} "${v}"`);
  return hit;
}
function seededAlarm(state: ClockState, spec: CheckerSpec): { label: string; alarm: Alarm | undefined } {
  const label = param(spec, 'alarm');
  if (!SEED_ALARM_LABELS.some((l) => same(l, label))) throw new Error(`clock checker ${spec.family}: unknown alarm "${label}"`);
  return { label, alarm: state.alarms.find((a) => a.seeded && same(a.label, label)) };
}
const desc = (a: Alarm): string => `${fmtTime(a.hour, a.minute, a.ampm)} "${a.label}" (${fmtDays(a.days)})`;

/** Success checkers for Clock; they read the server-side session state in-process. */
export function check(state: ClockState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'clock') throw new Error(`clock checker got a spec for app "${spec.app}"`);
  switch (spec.family as ClockFamily) {
    case 'create_alarm': {
      const hour = Number(oneOf(spec, 'hour', HOURS));
      const minute = oneOf(spec, 'minute', MINUTES);
      const ampm = oneOf(spec, 'ampm', AMPM);
      const label = param(spec, 'label');
      const day = oneOf(spec, 'day', DAYS);
      const created = state.alarms.filter((a) => !a.seeded && !a.deleted);
      if (created.length === 0) return no('no alarm was added');
      if (created.length > 1) return no(`${created.length} alarms were added (${created.map(desc).join(', ')}), expected one`);
      const a = created[0];
      if (!a) return no('no alarm was added');
      const problems: string[] = [];
      if (a.hour !== hour || a.minute !== minute || a.ampm !== ampm) problems.push(`time ${fmtTime(a.hour, a.minute, a.ampm)}, expected ${fmtTime(hour, minute, ampm)}`);
      if (!same(a.label, label)) problems.push(`label "${a.label}", expected "${label}"`);
      if (a.days.length !== 1 || a.days[0] !== day) problems.push(`repeats ${fmtDays(a.days)}, expected ${day} only`);
      if (!a.on) problems.push('the alarm is switched off');
      return problems.length ? no(problems.join('; ')) : ok(`added ${desc(a)}`);
    }
    case 'toggle_alarm': {
      const { label, alarm } = seededAlarm(state, spec);
      const want = oneOf(spec, 'state', ['On', 'Off'] as const);
      if (!alarm || alarm.deleted) return no(`alarm "${label}" was deleted`);
      if (alarm.on !== (want === 'On')) {
        const touched = state.alarms.filter((a) => a !== alarm && a.seq > 0 && !a.deleted).map((a) => `"${a.label}"`);
        return no(`alarm "${alarm.label}" is ${alarm.on ? 'On' : 'Off'}, expected ${want}${touched.length ? ` (switched ${touched.join(', ')} instead)` : ''}`);
      }
      return ok(`alarm "${alarm.label}" is ${want}`);
    }
    case 'delete_alarm': {
      const { label, alarm } = seededAlarm(state, spec);
      const others = state.alarms.filter((a) => a.deleted && a !== alarm);
      if (!alarm?.deleted) return no(others.length ? `deleted ${others.map(desc).join(', ')} instead of "${label}"` : `alarm "${label}" was not deleted`);
      if (others.length) return no(`"${label}" was deleted but so were ${others.map(desc).join(', ')}`);
      return ok(`deleted alarm "${alarm.label}"`);
    }
    case 'set_snooze': {
      const want = oneOf(spec, 'snooze', SNOOZE);
      return state.settings.snooze === want ? ok(`snooze length is ${want}`) : no(`snooze length is ${state.settings.snooze}, expected ${want}`);
    }
    default:
      throw new Error(`clock checker: unknown task family "${spec.family}" (known: ${CLOCK_FAMILIES.join(', ')})`);
  }
}

export const clockCheckers: AppCheckers<ClockState> = { families: CLOCK_FAMILIES, check };
