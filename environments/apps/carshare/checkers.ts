import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { contains, no, ok, same } from '../kit.js';
import {
  canExtend,
  canReport,
  conflict,
  DAMAGE_AREAS,
  dayLabel,
  dayOf,
  DURATION_NAMES,
  DURATIONS,
  EMAIL_RE,
  endOf,
  EXTRAS,
  EXTRA_NAMES,
  hoursLabel,
  initialCarshareState,
  isPast,
  liveDrivers,
  openDays,
  RELATION_NAMES,
  START_HOURS,
  START_NAMES,
  timeLabel,
  whenLabel,
  type CarshareState,
  type Driver,
  type Reservation,
} from './state.js';

export const CARSHARE_FAMILIES = ['reserve_car', 'extend_trip', 'report_damage', 'add_driver'] as const;
export type CarshareFamily = (typeof CARSHARE_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`carshare checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`carshare checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');
/** A note to look for, without the full stop a phrasing may end it with. */
const bare = (s: string): string => s.trim().replace(/[.!]+$/, '');

/** Success checkers for Wheelnook; they read the server-side session state in-process. */
export function check(state: CarshareState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'carshare') throw new Error(`carshare checker got a spec for app "${spec.app}"`);
  const start = initialCarshareState(state.seed);
  const modelIn = (st: CarshareState, r: Reservation): string => st.cars.find((c) => c.id === r.carId)?.model ?? 'a car';
  const model = (r: Reservation): string => modelIn(state, r);
  const tripText = (r: Reservation): string => `${model(r)}, ${whenLabel(r.start)}, ${hoursLabel(r.hours)}`;
  const startRes = (r: Reservation): Reservation | undefined => start.reservations.find((x) => x.id === r.id);
  const booked = state.reservations.filter((r) => !r.seeded).sort((a, b) => a.seq - b.seq);
  const canceled = state.reservations.filter((r) => r.canceled && r.seeded && !startRes(r)?.canceled).sort((a, b) => a.seq - b.seq);
  const extended = state.reservations.filter((r) => r.seeded && r.hours !== startRes(r)?.hours).sort((a, b) => (a.extendedFrom?.seq ?? 0) - (b.extendedFrom?.seq ?? 0));
  const reports = state.reports.filter((x) => !x.seeded).sort((a, b) => a.seq - b.seq);
  const reportTrip = (id: number): Reservation | undefined => state.reservations.find((r) => r.id === id);
  const reportText = (x: { reservationId: number; area: string }): string => {
    const r = reportTrip(x.reservationId);
    return `${x.area} on the ${r ? `${model(r)} trip of ${dayLabel(dayOf(r.start))}` : 'a trip'}`;
  };
  const added = state.drivers.filter((d) => !d.seeded).sort((a, b) => a.seq - b.seq);
  const removed = state.drivers.filter((d) => d.seeded && d.removed);
  const driverText = (d: Driver): string => `${d.name} (${d.email})`;
  /** Side effects no family asks for beyond its own: trips reserved, extended or canceled, damage reported, drivers added or removed. */
  const sideEffects = (except: 'reserve' | 'extend' | 'report' | 'driver'): string[] => {
    const out: string[] = [];
    if (canceled.length) out.push(`${list(canceled.map(tripText))} was canceled`);
    if (except !== 'reserve' && booked.length) out.push(`${list(booked.map(tripText))} was reserved`);
    if (except !== 'extend' && extended.length) out.push(`${list(extended.map(model))} was extended`);
    if (except !== 'report' && reports.length) out.push(`damage was reported (${list(reports.map(reportText))})`);
    if (except !== 'driver' && added.length) out.push(`${list(added.map(driverText))} was added as a driver`);
    if (removed.length) out.push(`${list(removed.map((d) => d.name))} was removed from the account`);
    return out;
  };
  switch (spec.family as CarshareFamily) {
    case 'reserve_car': {
      const reservable = start.cars.filter((c) => c.inService);
      const carText = param(
        spec,
        'car',
        reservable.map((c) => c.model),
      );
      const car = reservable.find((c) => same(c.model, carText))!;
      const day = param(spec, 'reserve_day', openDays(start, car).map(dayLabel));
      const time = param(spec, 'start_time', START_NAMES);
      const length = param(spec, 'hours', DURATION_NAMES);
      const dayNo = openDays(start, car).find((d) => same(dayLabel(d), day))!;
      const hour = START_HOURS.find((h) => same(timeLabel(h), time))!;
      const hours = DURATIONS.find((h) => same(hoursLabel(h), length))!;
      const from = dayNo * 24 + hour;
      if (conflict(start, car.id, from, from + hours)) throw new Error(`carshare checker reserve_car: the ${car.model} is not free on ${day} from ${time} for ${length}`);
      const want = (r: Reservation): boolean => r.carId === car.id && r.start === from && r.hours === hours;
      const r = booked.find(want) ?? booked.find((x) => x.carId === car.id) ?? booked[booked.length - 1];
      if (!r) return no('no car was reserved');
      const what = `the ${car.model} reservation`;
      if (r.carId !== car.id) return no(`the reservation is for the ${model(r)}, expected the ${car.model}`);
      if (r.canceled) return no(`${what} was made and then canceled`);
      if (dayOf(r.start) !== dayNo) return no(`${what} is on ${dayLabel(dayOf(r.start))}, expected ${day}`);
      if (r.start !== from) return no(`${what} on ${day} starts at ${timeLabel(r.start)}, expected ${time}`);
      if (r.hours !== hours) return no(`${what} is for ${hoursLabel(r.hours)}, expected ${length}`);
      if (booked.length > 1) return no(`${booked.length} reservations were made (${list(booked.map(tripText))}), expected one`);
      const other = sideEffects('reserve');
      if (other.length) return no(`${what} was made but ${other.join(' and ')}`);
      return ok(`reserved the ${tripText(r)}`);
    }
    case 'extend_trip': {
      const extendable = start.reservations.filter(canExtend);
      const carText = param(
        spec,
        'extend_car',
        extendable.map((r) => modelIn(start, r)),
      );
      const startTarget = extendable.find((r) => same(modelIn(start, r), carText))!;
      const extra = param(spec, 'extra_time', EXTRA_NAMES);
      const by = EXTRAS.find(([e]) => same(e, extra))![1];
      const carName = modelIn(start, startTarget);
      if (conflict(start, startTarget.carId, endOf(startTarget), endOf(startTarget) + by, startTarget.id))
        throw new Error(`carshare checker extend_trip: the ${carName} is not free for ${extra} after ${whenLabel(endOf(startTarget))}`);
      const target = state.reservations.find((r) => r.id === startTarget.id)!;
      const what = `the ${carName} trip`;
      const others = extended.filter((r) => r.id !== target.id);
      if (target.canceled) return no(`${what} was canceled instead of extended`);
      if (target.hours === startTarget.hours) return no(`${what} still ends at ${whenLabel(endOf(target))}${others.length ? ` (extended ${list(others.map(model))} instead)` : ''}`);
      if (target.hours !== startTarget.hours + by) return no(`${what} was extended by ${hoursLabel(target.hours - startTarget.hours)}, expected ${extra}`);
      if (others.length) return no(`${what} was extended but ${list(others.map(model))} too`);
      const other = sideEffects('extend');
      if (other.length) return no(`${what} was extended but ${other.join(' and ')}`);
      return ok(`extended ${what} by ${hoursLabel(by)}: return by ${whenLabel(endOf(target))}`);
    }
    case 'report_damage': {
      const reportable = start.reservations.filter((r) => isPast(r) && canReport(r));
      const carText = param(
        spec,
        'damage_car',
        reportable.map((r) => modelIn(start, r)),
      );
      const matches = reportable.filter((r) => same(modelIn(start, r), carText));
      if (matches.length !== 1) throw new Error(`carshare checker report_damage: ${matches.length} recent trips in the ${carText}`);
      const trip = matches[0]!;
      const area = param(spec, 'damage_area', DAMAGE_AREAS);
      const note = param(spec, 'damage_note');
      const tripName = `the ${modelIn(start, trip)} trip of ${dayLabel(dayOf(trip.start))}`;
      const x = reports.find((y) => y.reservationId === trip.id) ?? reports[reports.length - 1];
      if (!x) return no('no damage report was sent');
      if (x.reservationId !== trip.id) {
        const r = reportTrip(x.reservationId);
        return no(`the damage report is for ${r ? `the ${model(r)} trip of ${dayLabel(dayOf(r.start))}` : 'another trip'}, expected ${tripName}`);
      }
      if (!same(x.area, area)) return no(`the report on ${tripName} is for the ${x.area}, expected ${area}`);
      if (!contains(x.note, bare(note))) return no(`the report on ${tripName} says "${x.note}", expected it to say "${bare(note)}"`);
      if (reports.length > 1) return no(`${reports.length} damage reports were sent (${list(reports.map(reportText))}), expected one`);
      const other = sideEffects('report');
      if (other.length) return no(`the damage report was sent but ${other.join(' and ')}`);
      return ok(`reported ${x.area} damage on ${tripName}: "${x.note}"`);
    }
    case 'add_driver': {
      const name = param(spec, 'driver_name');
      const email = param(spec, 'driver_email');
      const relation = param(spec, 'driver_relation', RELATION_NAMES);
      if (!EMAIL_RE.test(email.trim())) throw new Error(`carshare checker add_driver: "${email}" is not an email address`);
      const taken = liveDrivers(start).find((d) => same(d.name, name) || same(d.email, email));
      if (taken) throw new Error(`carshare checker add_driver: ${taken.name} (${taken.email}) is already on the account`);
      const d = added.find((x) => same(x.name, name)) ?? added[added.length - 1];
      if (!d) return no('no driver was added');
      if (!same(d.name, name)) return no(`the new driver is ${d.name}, expected ${name}`);
      if (d.removed) return no(`${d.name} was added and then removed`);
      if (!same(d.email, email)) return no(`${d.name} was added with ${d.email}, expected ${email}`);
      if (!same(d.relation, relation)) return no(`${d.name} was added as ${d.relation}, expected ${relation}`);
      if (added.length > 1) return no(`${added.length} drivers were added (${list(added.map(driverText))}), expected one`);
      const other = sideEffects('driver');
      if (other.length) return no(`${d.name} was added but ${other.join(' and ')}`);
      return ok(`added ${driverText(d)} as a driver (${d.relation})`);
    }
    default:
      throw new Error(`carshare checker: unknown task family "${spec.family}" (known: ${CARSHARE_FAMILIES.join(', ')})`);
  }
}

export const carshareCheckers: AppCheckers<CarshareState> = { families: CARSHARE_FAMILIES, check };
