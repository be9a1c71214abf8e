import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  airportByName,
  BAG_WEIGHTS,
  dayByLabel,
  dayLabel,
  DESTINATIONS,
  departureTimes,
  FARE_NAMES,
  initialFlightsState,
  isSeat,
  MAX_BAGS,
  nameOf,
  paxLeg,
  personByName,
  personOf,
  seatsTaken,
  checkinOpen,
  tripTo,
  type Bag,
  type FlightsState,
  type Leg,
  type Person,
  type Trip,
} from './state.js';

export const FLIGHTS_FAMILIES = ['book_flight', 'choose_seat', 'add_bag', 'check_in'] as const;
export type FlightsFamily = (typeof FLIGHTS_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`flights checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`flights checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}

/** Success checkers for Zephra; they read the server-side session state in-process. */
export function check(state: FlightsState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'flights') throw new Error(`flights checker got a spec for app "${spec.app}"`);
  const start = initialFlightsState(state.seed);
  const first = (id: string): string => personOf(state, id)?.first ?? id;
  const trip = (key: string): Trip => {
    const name = param(spec, key);
    const t = tripTo(state, name);
    if (!t) throw new Error(`flights checker ${spec.family}: unknown ${key} "${name}" (no trip there)`);
    return t;
  };
  const person = (key: string, t: Trip): Person => {
    const name = param(spec, key);
    const p = personByName(state, name);
    if (!p) throw new Error(`flights checker ${spec.family}: unknown ${key} "${name}"`);
    if (!t.pax.includes(p.id)) throw new Error(`flights checker ${spec.family}: ${p.first} is not on the trip to ${nameOf(t.legs[0]!.to)}`);
    return p;
  };
  const startLeg = (l: Leg): Leg | undefined => start.trips.flatMap((t) => t.legs).find((x) => x.id === l.id);
  const legText = (l: Leg): string => `${l.no} ${nameOf(l.from)} → ${nameOf(l.to)} on ${dayLabel(l.day)}`;
  const bagText = (t: Trip, b: Bag): string => `a ${b.weight} bag for ${first(b.pax)} on the trip to ${nameOf(t.legs[0]!.to)}`;

  const booked = state.trips.filter((t) => !t.seeded).sort((a, b) => a.seq - b.seq);
  const seats = state.trips.flatMap((t) =>
    t.legs.flatMap((l) => l.pax.filter((p) => p.seatBy === 'user' && p.seat !== paxLeg(startLeg(l) ?? l, p.pax)?.seat).map((p) => ({ t, l, p }))),
  );
  seats.sort((a, b) => a.p.seq - b.p.seq);
  const seatText = ({ l, p }: (typeof seats)[number]): string => `${first(p.pax)}'s seat on ${legText(l)} (now ${p.seat})`;
  const bought = state.trips.flatMap((t) => t.bags.filter((b) => !b.seeded && b.paid && !b.removed).map((b) => ({ t, b })));
  const pending = state.trips.flatMap((t) => t.bags.filter((b) => !b.seeded && !b.paid && !b.removed).map((b) => ({ t, b })));
  const checkins = state.trips.flatMap((t) => t.legs.flatMap((l) => l.pax.filter((p) => p.checkedIn && !paxLeg(startLeg(l) ?? l, p.pax)?.checkedIn).map((p) => ({ t, l, p }))));
  const checkinText = ({ l, p }: (typeof checkins)[number]): string => `${first(p.pax)} on ${l.no} to ${nameOf(l.to)}`;
  /** What else changed besides the task, or '' when nothing did. */
  const sideEffects = (skip: { booked?: boolean; seats?: boolean; bags?: boolean; checkins?: boolean }): string => {
    if (!skip.booked && booked.length) return `${booked.map((t) => `a flight to ${nameOf(t.legs[0]!.to)} was booked (${t.ref})`).join(', ')}`;
    if (!skip.seats && seats.length) return `${seats.map(seatText).join(', ')} was changed`;
    if (!skip.bags && bought.length) return `${bought.map(({ t, b }) => bagText(t, b)).join(', ')} was bought`;
    if (!skip.checkins && checkins.length) return `${checkins.map(checkinText).join(', ')} was checked in`;
    return '';
  };

  switch (spec.family as FlightsFamily) {
    case 'book_flight': {
      const toName = param(spec, 'book_to', DESTINATIONS.map((a) => a.name));
      const ap = airportByName(toName)!;
      const dateText = param(spec, 'book_date');
      const day = dayByLabel(dateText);
      if (day === undefined || day < 1) throw new Error(`flights checker book_flight: unknown book_date "${dateText}"`);
      const time = param(spec, 'book_time', departureTimes(ap.code));
      const fare = param(spec, 'book_fare', FARE_NAMES);
      if (!booked.length) return no('no flight was booked');
      if (booked.length > 1) return no(`${booked.length} trips were booked (${booked.map((t) => `${t.ref} to ${nameOf(t.legs[0]!.to)}`).join(', ')}), expected one`);
      const t = booked[0]!;
      const out = t.legs[0]!;
      if (out.to !== ap.code) return no(`the flight booked goes to ${nameOf(out.to)}, expected ${ap.name}`);
      if (out.day !== day) return no(`the flight to ${ap.name} was booked for ${dayLabel(out.day)}, expected ${dayLabel(day)}`);
      if (!same(out.dep, time)) return no(`the ${out.dep} flight to ${ap.name} was booked, expected the ${time} one`);
      const back = t.legs[1];
      if (back) return no(`a return trip was booked (back on ${dayLabel(back.day)} at ${back.dep}), expected one way`);
      if (!same(t.fare, fare)) return no(`the flight was booked on the ${t.fare} fare, expected ${fare}`);
      if (t.pax.length !== 1) return no(`the flight was booked for ${t.pax.length} passengers (${t.pax.map(first).join(', ')}), expected ${first('freya')} alone`);
      const side = sideEffects({ booked: true });
      if (side) return no(`the flight to ${ap.name} was booked but ${side}`);
      return ok(`booked ${out.no} to ${ap.name} on ${dayLabel(day)} at ${out.dep}, one way, ${t.fare} fare (${t.ref})`);
    }
    case 'choose_seat': {
      const t = trip('seat_to');
      const p = person('seat_passenger', t);
      const seat = param(spec, 'seat_number').trim().toUpperCase();
      if (!isSeat(seat)) throw new Error(`flights checker choose_seat: unknown seat_number "${seat}"`);
      const leg = t.legs[0]!;
      const was = paxLeg(startLeg(leg)!, p.id)!;
      if (was.seat === seat) throw new Error(`flights checker choose_seat: ${p.first} already sits in ${seat} on ${legText(leg)}`);
      if (seatsTaken(startLeg(leg)!).has(seat)) throw new Error(`flights checker choose_seat: seat ${seat} is taken on ${legText(leg)}`);
      const now = paxLeg(leg, p.id)!;
      const dest = nameOf(leg.to);
      if (!seats.length) return no('no seat was changed');
      if (now.seat !== seat) {
        const mine = seats.find((x) => x.p.pax === p.id && x.l.id === leg.id);
        if (mine) return no(`${p.first}'s seat on the flight to ${dest} is ${now.seat}, expected ${seat}`);
        return no(`${p.first}'s seat on the flight to ${dest} is still ${was.seat || 'not chosen'} (changed ${seats.map(seatText).join(', ')} instead)`);
      }
      const others = seats.filter((x) => !(x.p.pax === p.id && x.l.id === leg.id));
      if (others.length) return no(`${p.first} has seat ${seat} on the flight to ${dest} but ${others.map(seatText).join(', ')} was changed too`);
      const side = sideEffects({ seats: true });
      if (side) return no(`${p.first} has seat ${seat} on the flight to ${dest} but ${side}`);
      return ok(`${p.first} has seat ${seat} on ${legText(leg)} (was ${was.seat || 'not chosen'}${now.seatFee ? `, paid €${now.seatFee}` : ''})`);
    }
    case 'add_bag': {
      const t = trip('bag_to');
      const p = person('bag_passenger', t);
      const weight = param(spec, 'bag_weight', BAG_WEIGHTS);
      const dest = nameOf(t.legs[0]!.to);
      const had = start.trips.find((x) => x.ref === t.ref)!.bags.filter((b) => b.pax === p.id).length;
      if (had >= MAX_BAGS) throw new Error(`flights checker add_bag: ${p.first} already has ${had} bags to ${dest}`);
      if (!bought.length) {
        const mine = pending.find(({ t: x, b }) => x === t && b.pax === p.id);
        if (mine) return no(`${bagText(t, mine.b)} is in the basket but was not paid for`);
        return no('no checked bag was bought');
      }
      const mine = bought.filter(({ t: x, b }) => x === t && b.pax === p.id);
      const label = `${p.first}'s bag on the trip to ${dest}`;
      if (!mine.length) return no(`no bag was bought for ${p.first} on the trip to ${dest} (bought ${bought.map(({ t: x, b }) => bagText(x, b)).join(', ')} instead)`);
      const right = mine.find(({ b }) => same(b.weight, weight));
      if (!right) return no(`${label} is ${mine.map(({ b }) => b.weight).join(' and ')}, expected ${weight}`);
      const others = bought.filter((x) => x !== right);
      if (others.length) return no(`${bought.length} bags were bought (${bought.map(({ t: x, b }) => bagText(x, b)).join(', ')}), expected one`);
      const side = sideEffects({ bags: true });
      if (side) return no(`${label} was bought but ${side}`);
      return ok(`bought a ${right.b.weight} checked bag for ${p.first} on the trip to ${dest} (€${right.b.price})`);
    }
    case 'check_in': {
      const t = trip('checkin_to');
      const p = person('checkin_passenger', t);
      const leg = t.legs[0]!;
      const dest = nameOf(leg.to);
      if (!checkinOpen(leg)) throw new Error(`flights checker check_in: check-in is not open for ${legText(leg)}`);
      if (paxLeg(startLeg(leg)!, p.id)!.checkedIn) throw new Error(`flights checker check_in: ${p.first} is already checked in on ${legText(leg)}`);
      if (!checkins.length) return no('no one was checked in');
      const mine = checkins.find((x) => x.l.id === leg.id && x.p.pax === p.id);
      if (!mine) return no(`${p.first} is not checked in for the flight to ${dest} (checked in ${checkins.map(checkinText).join(', ')} instead)`);
      const others = checkins.filter((x) => x !== mine);
      if (others.length) return no(`${p.first} is checked in for the flight to ${dest} but so ${others.length > 1 ? 'are' : 'is'} ${others.map(checkinText).join(', ')}`);
      const side = sideEffects({ checkins: true });
      if (side) return no(`${p.first} is checked in for the flight to ${dest} but ${side}`);
      return ok(`${p.first} alone is checked in on ${legText(leg)}, seat ${mine.p.seat}`);
    }
    default:
      throw new Error(`flights checker: unknown task family "${spec.family}" (known: ${FLIGHTS_FAMILIES.join(', ')})`);
  }
}

export const flightsCheckers: AppCheckers<FlightsState> = { families: FLIGHTS_FAMILIES, check };
