import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { DURATIONS, EXTENSIONS, minutesLabel, normPlate, REGIONS, VEHICLE_NAMES, ZONE_CODES, type ParkingState, type Session } from './state.js';

export const PARKING_FAMILIES = ['start_parking', 'extend_parking', 'email_receipt', 'add_vehicle'] as const;
export type ParkingFamily = (typeof PARKING_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`parking checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`parking checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const minutesOf = (table: readonly (readonly [string, number])[], label: string): number => table.find(([l]) => same(l, label))?.[1] ?? -1;
const list = (names: readonly string[]): string => names.map((t) => `"${t}"`).join(', ');
const desc = (s: Session): string => `Zone ${s.zone} on ${s.day}`;

/** Sessions that were there before this app session and were stopped or extended in it. */
const touchedSeeded = (state: ParkingState, except?: Session): Session[] =>
  state.sessions.filter((s) => s !== except && !s.started && (s.stopped || s.extensions.length > 0));

/** Success checkers for ParkSpot; they read the server-side session state in-process. */
export function check(state: ParkingState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'parking') throw new Error(`parking checker got a spec for app "${spec.app}"`);
  const plateOf = (name: string): string => state.vehicles.find((v) => same(v.name, name))?.plate ?? '';
  const nameOf = (plate: string): string => state.vehicles.find((v) => v.plate === plate)?.name ?? plate;
  switch (spec.family as ParkingFamily) {
    case 'start_parking': {
      const zone = param(spec, 'zone', ZONE_CODES);
      const vehicle = param(spec, 'vehicle', VEHICLE_NAMES);
      const duration = param(spec, 'duration', DURATIONS.map(([l]) => l));
      const started = state.sessions.filter((s) => s.started);
      const s = started[started.length - 1];
      if (!s) return no('no parking session was started');
      if (s.zone !== zone.trim()) return no(`parking was started in Zone ${s.zone}, expected Zone ${zone}`);
      if (s.plate !== plateOf(vehicle)) return no(`parking in Zone ${s.zone} is for ${nameOf(s.plate)}, expected ${vehicle}`);
      if (s.durationMin !== minutesOf(DURATIONS, duration)) return no(`parking in Zone ${s.zone} was bought for ${minutesLabel(s.durationMin)}, expected ${duration}`);
      if (started.length > 1) return no(`${started.length} parking sessions were started (${list(started.map(desc))}), expected one`);
      if (s.stopped) return no(`parking in Zone ${s.zone} was started but then stopped`);
      const other = touchedSeeded(state);
      if (other.length) return no(`parking started in Zone ${zone}, but ${list(other.map(desc))} was also stopped or extended`);
      return ok(`${vehicle} is parked in Zone ${zone} for ${duration}`);
    }
    case 'extend_parking': {
      const zone = param(spec, 'session_zone', ZONE_CODES);
      const extra = param(spec, 'extra', EXTENSIONS.map(([l]) => l));
      const target = state.sessions.find((s) => !s.started && s.day === 'June 13' && s.zone === zone.trim());
      if (!target) throw new Error(`parking checker extend_parking: no running session in Zone ${zone}`);
      const want = minutesOf(EXTENSIONS, extra);
      const others = touchedSeeded(state, target).map(desc);
      const started = state.sessions.filter((s) => s.started).map(desc);
      if (target.stopped) return no(`parking in Zone ${zone} was stopped`);
      if (target.extensions.length === 0) return no(`parking in Zone ${zone} was not extended${others.length ? ` (changed ${list(others)} instead)` : ''}`);
      if (target.extensions.length > 1) return no(`parking in Zone ${zone} was extended ${target.extensions.length} times (${target.extensions.map(minutesLabel).join(', ')}), expected once`);
      if (target.extensions[0] !== want) return no(`parking in Zone ${zone} was extended by ${minutesLabel(target.extensions[0] ?? 0)}, expected ${extra}`);
      if (others.length) return no(`parking in Zone ${zone} was extended by ${extra} but ${list(others)} changed too`);
      if (started.length) return no(`parking in Zone ${zone} was extended by ${extra} but a new session was started (${list(started)})`);
      return ok(`parking in Zone ${zone} was extended by ${extra}`);
    }
    case 'email_receipt': {
      const zone = param(spec, 'receipt_zone', ZONE_CODES);
      const date = param(spec, 'date');
      const target = state.sessions.find((s) => !s.active && !s.started && !s.stopped && s.zone === zone.trim() && same(s.day, date));
      if (!target) throw new Error(`parking checker email_receipt: no past session in Zone ${zone} on ${date}`);
      const others = state.sessions.filter((s) => s !== target && s.emailed > 0).map(desc);
      if (target.emailed === 0) return no(`the receipt for Zone ${zone} on ${date} was not emailed${others.length ? ` (emailed ${list(others)} instead)` : ''}`);
      if (others.length) return no(`the receipt for Zone ${zone} on ${date} was emailed, but so were ${list(others)}`);
      return ok(`the receipt for Zone ${zone} on ${date} was emailed`);
    }
    case 'add_vehicle': {
      const plate = normPlate(param(spec, 'plate'));
      const region = param(spec, 'region', REGIONS);
      const name = param(spec, 'nickname');
      const added = state.vehicles.filter((v) => v.added);
      const v = added.find((x) => x.plate === plate) ?? added[added.length - 1];
      if (!v) return no('no vehicle was added');
      if (v.plate !== plate) return no(`the vehicle added has plate ${v.plate}, expected ${plate}`);
      if (!same(v.region, region)) return no(`plate ${plate} was added as ${v.region}, expected ${region}`);
      if (!same(v.name, name)) return no(`plate ${plate} was added as "${v.name}", expected "${name}"`);
      if (added.length > 1) return no(`${added.length} vehicles were added (${list(added.map((x) => x.plate))}), expected one`);
      return ok(`${name} (${plate}, ${region}) was added`);
    }
    default:
      throw new Error(`parking checker: unknown task family "${spec.family}" (known: ${PARKING_FAMILIES.join(', ')})`);
  }
}

export const parkingCheckers: AppCheckers<ParkingState> = { families: PARKING_FAMILIES, check };
