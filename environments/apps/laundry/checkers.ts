import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  DEFAULT_PREFS,
  dayLabel,
  DETERGENT_NAMES,
  HANDOFF_NAMES,
  ISSUE_NAMES,
  normNumber,
  normStreet,
  ORDER_NUMBERS,
  PICKUP_DAYS,
  RESOLUTIONS,
  SERVICE_NAMES,
  STARCH_LEVELS,
  TURNAROUNDS,
  windowsOf,
  type Address,
  type Claim,
  type LaundryState,
  type Order,
  type Prefs,
} from './state.js';

export const LAUNDRY_FAMILIES = ['schedule_pickup', 'report_issue', 'update_preferences', 'add_address'] as const;
export type LaundryFamily = (typeof LAUNDRY_FAMILIES)[number];

/** Day labels a spec may name ("Thursday, June 5"): today and the next three weeks. */
const DAY_LABELS: readonly string[] = Array.from({ length: 21 }, (_, i) => dayLabel(i));
const ALL_WINDOWS: readonly string[] = [...new Set(PICKUP_DAYS.flatMap((d) => windowsOf(d)))];
/** Preference fields other than the ones a task sets, with the words the app uses for them. */
const OTHER_PREFS: readonly (readonly [keyof Prefs, string])[] = [
  ['softener', 'fabric softener'],
  ['water', 'water temperature'],
  ['dryer', 'dryer heat'],
  ['shirts', 'how shirts come back'],
  ['ecoSolvent', 'eco solvent'],
];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`laundry checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`laundry checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');
const shown = (v: unknown): string => (typeof v === 'boolean' ? (v ? 'On' : 'Off') : String(v));

/** Success checkers for FreshFold; they read the server-side session state in-process. */
export function check(state: LaundryState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'laundry') throw new Error(`laundry checker got a spec for app "${spec.app}"`);
  const pickup = (o: Order): string => `${o.service} pickup on ${dayLabel(o.pickupDay)}, ${o.pickupWindow} (${o.turnaround})`;
  const itemOf = (c: Claim): string => {
    const o = state.orders.find((x) => x.id === c.orderId);
    return `${o?.items.find((i) => i.id === c.itemId)?.name ?? 'an item'} from order #${o?.number ?? '?'}`;
  };
  const scheduled = state.orders.filter((o) => !o.seeded && o.status === 'scheduled');
  const cancelled = state.orders.filter((o) => o.seeded && o.status === 'cancelled' && o.seq > 0);
  const dayIndex = (label: string): number => DAY_LABELS.findIndex((d) => same(d, label));
  switch (spec.family as LaundryFamily) {
    case 'schedule_pickup': {
      const service = param(spec, 'service', SERVICE_NAMES);
      const turnaround = param(spec, 'turnaround', TURNAROUNDS);
      const day = param(spec, 'pickup_day', DAY_LABELS);
      const window = param(spec, 'pickup_window', ALL_WINDOWS);
      const want = (o: Order): boolean => same(o.service, service) && o.pickupDay === dayIndex(day) && same(o.pickupWindow, window) && same(o.turnaround, turnaround);
      const o = scheduled.find(want) ?? scheduled[scheduled.length - 1];
      if (!o) return no('no pickup was scheduled');
      if (!same(o.service, service)) return no(`the pickup was scheduled for ${o.service}, expected ${service}`);
      if (o.pickupDay !== dayIndex(day)) return no(`the ${service} pickup is on ${dayLabel(o.pickupDay)}, expected ${day}`);
      if (!same(o.pickupWindow, window)) return no(`the ${service} pickup is in the ${o.pickupWindow} window, expected ${window}`);
      if (!same(o.turnaround, turnaround)) return no(`the ${service} pickup has ${o.turnaround} turnaround, expected ${turnaround}`);
      if (scheduled.length > 1) return no(`${scheduled.length} pickups were scheduled (${list(scheduled.map(pickup))}), expected one`);
      if (cancelled.length) return no(`the pickup was scheduled but order ${list(cancelled.map((x) => `#${x.number}`))} was cancelled`);
      return ok(`scheduled a ${pickup(o)}`);
    }
    case 'report_issue': {
      const number = normNumber(param(spec, 'claim_order'));
      if (!ORDER_NUMBERS.includes(number)) throw new Error(`laundry checker report_issue: unknown claim_order "${number}"`);
      const itemName = param(spec, 'claim_item');
      const issue = param(spec, 'issue', ISSUE_NAMES);
      const resolution = param(spec, 'resolution', RESOLUTIONS);
      const order = state.orders.find((o) => o.number === number);
      const item = order?.items.find((i) => same(i.name, itemName));
      if (!order || !item) throw new Error(`laundry checker report_issue: order #${number} has no item "${itemName}"`);
      const made = state.claims.filter((c) => !c.seeded);
      const c = made.find((x) => x.itemId === item.id);
      const what = `the ${item.name} from order #${number}`;
      if (!c) return no(made.length ? `no claim was made for ${what} (made for ${list(made.map(itemOf))} instead)` : 'no claim was made');
      if (!same(c.issue, issue)) return no(`the claim for ${what} says ${c.issue}, expected ${issue}`);
      if (!same(c.resolution, resolution)) return no(`the claim for ${what} asks for ${c.resolution}, expected ${resolution}`);
      if (made.length > 1) return no(`${made.length} claims were made (${list(made.map(itemOf))}), expected one`);
      return ok(`claimed ${issue} for ${what}, asking for ${resolution}`);
    }
    case 'update_preferences': {
      const detergent = param(spec, 'detergent', DETERGENT_NAMES);
      const starch = param(spec, 'starch', STARCH_LEVELS);
      const p = state.prefs;
      if (state.prefsSaves === 0) return no('the cleaning preferences were not saved');
      if (!same(p.detergent, detergent)) return no(`the detergent is ${p.detergent}, expected ${detergent}`);
      if (!same(p.starch, starch)) return no(`the starch is ${p.starch}, expected ${starch}`);
      const changed = OTHER_PREFS.filter(([k]) => p[k] !== DEFAULT_PREFS[k]).map(([k, words]) => `${words} to ${shown(p[k])}`);
      if (changed.length) return no(`the detergent and starch were set but ${changed.join(', ')} changed too`);
      return ok(`saved ${detergent} detergent and ${starch} starch`);
    }
    case 'add_address': {
      const street = param(spec, 'new_street');
      const zip = param(spec, 'new_zip').trim();
      if (!/^\d{5}$/.test(zip)) throw new Error(`laundry checker add_address: bad new_zip "${zip}"`);
      const handoff = param(spec, 'handoff', HANDOFF_NAMES);
      const added = state.addresses.filter((a) => a.added);
      const where = (a: Address): string => `${a.street}${a.apt ? `, ${a.apt}` : ''}, ${a.zip}`;
      const a = added.find((x) => normStreet(x.street) === normStreet(street)) ?? added[added.length - 1];
      if (!a) return no('no address was added');
      if (normStreet(a.street) !== normStreet(street)) return no(`the address added is "${a.street}", expected "${street}"`);
      if (a.zip !== zip) return no(`${a.street} was saved with ZIP ${a.zip}, expected ${zip}`);
      if (!same(a.handoff, handoff)) return no(`${a.street} is set to ${a.handoff}, expected ${handoff}`);
      if (added.length > 1) return no(`${added.length} addresses were added (${list(added.map(where))}), expected one`);
      return ok(`added ${where(a)} with ${a.handoff}`);
    }
    default:
      throw new Error(`laundry checker: unknown task family "${spec.family}" (known: ${LAUNDRY_FAMILIES.join(', ')})`);
  }
}

export const laundryCheckers: AppCheckers<LaundryState> = { families: LAUNDRY_FAMILIES, check };
