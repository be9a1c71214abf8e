import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  dayLabel,
  normStreet,
  normTracking,
  POINT_NAMES,
  SENDERS,
  SERVICE_NAMES,
  SIZE_NAMES,
  titleOf,
  TRACKABLE,
  ZIPS,
  type Change,
  type Parcel,
  type ParcelState,
} from './state.js';

export const PARCEL_FAMILIES = ['reschedule_delivery', 'redirect_to_pickup', 'track_package', 'send_parcel'] as const;
export type ParcelFamily = (typeof PARCEL_FAMILIES)[number];

/** Day labels a spec may name ("Thursday, June 12"), today and the next three weeks. */
const DAY_LABELS: readonly string[] = Array.from({ length: 21 }, (_, i) => dayLabel(i));

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`parcels checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`parcels checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');

/** Success checkers for ParcelHub; they read the server-side session state in-process. */
export function check(state: ParcelState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'parcels') throw new Error(`parcels checker got a spec for app "${spec.app}"`);
  const parcelOf = (id: number): Parcel | undefined => state.parcels.find((p) => p.id === id);
  const what = (c: Change): string => {
    const p = parcelOf(c.parcelId);
    const name = p ? titleOf(p) : 'a package';
    return c.kind === 'day' ? `${name}: moved to ${c.value}` : c.kind === 'point' ? `${name}: sent to ${c.value}` : `${name}: safe place ${c.value}`;
  };
  /** The incoming package from this sender that was on the account when the session started. */
  const incoming = (sender: string): Parcel => {
    const p = state.parcels.find((x) => !x.added && x.status !== 'delivered' && same(x.sender, sender));
    if (!p) throw new Error(`parcels checker ${spec.family}: no incoming package from "${sender}"`);
    return p;
  };
  switch (spec.family as ParcelFamily) {
    case 'reschedule_delivery': {
      const sender = param(spec, 'sender', SENDERS);
      const day = param(spec, 'new_day', DAY_LABELS);
      const p = incoming(sender);
      const want = DAY_LABELS.findIndex((d) => same(d, day));
      const mine = state.changes.filter((c) => c.parcelId === p.id);
      const others = state.changes.filter((c) => c.parcelId !== p.id).map(what);
      if (!mine.length) return no(`the ${sender} package was not changed${others.length ? ` (changed ${list(others)} instead)` : ''}`);
      if (p.plan.kind === 'point') {
        const pt = state.points.find((x) => p.plan.kind === 'point' && x.id === p.plan.pointId);
        return no(`the ${sender} package was sent to ${pt?.name ?? 'a ParcelHub Point'}, not delivered on ${day}`);
      }
      if (p.plan.day !== want) return no(`the ${sender} package now arrives ${dayLabel(p.plan.day)}, expected ${day}`);
      if (mine.length > 1) return no(`the ${sender} package was changed ${mine.length} times (${list(mine.map(what))}), expected once`);
      if (others.length) return no(`the ${sender} package was moved to ${day} but ${list(others)} changed too`);
      return ok(`the ${sender} package was moved to ${day}`);
    }
    case 'redirect_to_pickup': {
      const sender = param(spec, 'redirect_sender', SENDERS);
      const point = param(spec, 'pickup_point', POINT_NAMES);
      const p = incoming(sender);
      const mine = state.changes.filter((c) => c.parcelId === p.id);
      const others = state.changes.filter((c) => c.parcelId !== p.id).map(what);
      if (!mine.length) return no(`the ${sender} package was not changed${others.length ? ` (changed ${list(others)} instead)` : ''}`);
      if (p.plan.kind !== 'point') return no(`the ${sender} package is still coming to the door (${dayLabel(p.plan.day)}), not to ${point}`);
      const pt = state.points.find((x) => p.plan.kind === 'point' && x.id === p.plan.pointId);
      if (!pt || !same(pt.name, point)) return no(`the ${sender} package was sent to ${pt?.name ?? 'an unknown point'}, expected ${point}`);
      if (mine.length > 1) return no(`the ${sender} package was changed ${mine.length} times (${list(mine.map(what))}), expected once`);
      if (others.length) return no(`the ${sender} package was sent to ${point} but ${list(others)} changed too`);
      return ok(`the ${sender} package was sent to ${point}`);
    }
    case 'track_package': {
      const tracking = normTracking(param(spec, 'tracking'));
      if (!TRACKABLE.some(([t]) => t === tracking)) throw new Error(`parcels checker track_package: unknown tracking "${tracking}"`);
      const nickname = param(spec, 'nickname');
      const added = state.parcels.filter((p) => p.added);
      const p = added.find((x) => x.tracking === tracking) ?? added[added.length - 1];
      if (!p) return no('no package was added');
      if (p.tracking !== tracking) return no(`the package added is ${p.tracking}, expected ${tracking}`);
      if (!same(p.nickname, nickname)) return no(p.nickname ? `${tracking} was named "${p.nickname}", expected "${nickname}"` : `${tracking} was added without a name, expected "${nickname}"`);
      if (added.length > 1) return no(`${added.length} packages were added (${list(added.map((x) => x.tracking))}), expected one`);
      return ok(`${tracking} was added as "${nickname}"`);
    }
    case 'send_parcel': {
      const recipient = param(spec, 'recipient');
      const street = param(spec, 'street');
      const zip = param(spec, 'zip', Object.keys(ZIPS));
      const size = param(spec, 'size', SIZE_NAMES);
      const service = param(spec, 'service', SERVICE_NAMES);
      const sent = state.shipments;
      const s = sent[sent.length - 1];
      if (!s) return no('no label was bought');
      if (!same(s.recipient, recipient)) return no(`the label is for "${s.recipient}", expected "${recipient}"`);
      if (normStreet(s.street) !== normStreet(street)) return no(`the label goes to "${s.street}", expected "${street}"`);
      if (s.zip !== zip.trim()) return no(`the label's ZIP code is ${s.zip}, expected ${zip}`);
      if (!same(s.size, size)) return no(`the label is for a ${s.size}, expected a ${size}`);
      if (!same(s.service, service)) return no(`the label was bought for ${s.service}, expected ${service}`);
      if (sent.length > 1) return no(`${sent.length} labels were bought (${list(sent.map((x) => `${x.recipient}, ${x.service}`))}), expected one`);
      return ok(`a ${service} label for a ${size} to ${recipient}, ${street}, ${zip} was bought`);
    }
    default:
      throw new Error(`parcels checker: unknown task family "${spec.family}" (known: ${PARCEL_FAMILIES.join(', ')})`);
  }
}

export const parcelCheckers: AppCheckers<ParcelState> = { families: PARCEL_FAMILIES, check };
