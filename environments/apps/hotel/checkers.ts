import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  ARRIVALS,
  bookableRooms,
  CHECKIN_DAYS,
  checkinOpen,
  dayLabel,
  HOTEL_NAMES,
  initialHotelState,
  MAX_NIGHTS,
  nightsText,
  plateError,
  plateKey,
  reviewErrors,
  type Booking,
  type HotelState,
  type PastStay,
} from './state.js';

export const HOTEL_FAMILIES = ['book_stay', 'cancel_booking', 'online_checkin', 'write_review'] as const;
export type HotelFamily = (typeof HOTEL_FAMILIES)[number];

/** Day labels a spec may name ("Friday, June 6"): today to the last check-in day. */
const DAY_LABELS: readonly string[] = CHECKIN_DAYS.map(dayLabel);

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`hotel checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`hotel checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');

/** Success checkers for Lodgerra; they read the server-side session state in-process. */
export function check(state: HotelState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'hotel') throw new Error(`hotel checker got a spec for app "${spec.app}"`);
  const hotelName = (id: number): string => state.hotels.find((h) => h.id === id)?.name ?? 'a hotel';
  const roomName = (id: number): string => state.hotels.flatMap((h) => h.rooms).find((r) => r.id === id)?.name ?? 'a room';
  const stay = (b: Booking): string => `${hotelName(b.hotelId)}: ${roomName(b.roomId)}, ${nightsText(b.nights)} from ${dayLabel(b.checkin)}`;
  const pastText = (p: PastStay): string => `${hotelName(p.hotelId)} (${dayLabel(p.checkin)})`;
  const booked = state.bookings.filter((b) => !b.seeded && b.status === 'booked').sort((a, b) => a.seq - b.seq);
  const cancelled = state.bookings.filter((b) => b.seeded && b.status === 'cancelled').sort((a, b) => a.seq - b.seq);
  const checkedIn = state.bookings.filter((b) => b.checkedIn).sort((a, b) => a.seq - b.seq);
  const reviewed = state.past.filter((p) => p.review && !p.review.seeded).sort((a, b) => (a.review?.seq ?? 0) - (b.review?.seq ?? 0));
  const dayIndex = (label: string): number => DAY_LABELS.findIndex((d) => same(d, label));
  const start = initialHotelState(state.seed);
  const seededBooking = (hotel: string, day: string): Booking | undefined =>
    start.bookings.find((b) => same(hotelName(b.hotelId), hotel) && b.checkin === dayIndex(day));
  switch (spec.family as HotelFamily) {
    case 'book_stay': {
      const hotel = param(spec, 'hotel', HOTEL_NAMES);
      const room = param(spec, 'room');
      const day = param(spec, 'checkin_date', DAY_LABELS);
      const nightsText_ = param(spec, 'nights');
      const h = state.hotels.find((x) => same(x.name, hotel));
      if (!h || !bookableRooms(h).some((r) => same(r.name, room))) throw new Error(`hotel checker book_stay: ${hotel} has no bookable room "${room}"`);
      const nights = Number(nightsText_);
      if (!/^\d+$/.test(nightsText_.trim()) || nights < 1 || nights > MAX_NIGHTS) throw new Error(`hotel checker book_stay: bad nights "${nightsText_}"`);
      const want = (b: Booking): boolean => same(hotelName(b.hotelId), hotel) && same(roomName(b.roomId), room) && b.checkin === dayIndex(day) && b.nights === nights;
      const b = booked.find(want) ?? booked[booked.length - 1];
      if (!b) return no('no stay was booked');
      if (!same(hotelName(b.hotelId), hotel)) return no(`the stay was booked at ${hotelName(b.hotelId)}, expected ${hotel}`);
      if (!same(roomName(b.roomId), room)) return no(`the ${hotel} stay is in a ${roomName(b.roomId)}, expected a ${room}`);
      if (b.checkin !== dayIndex(day)) return no(`the ${hotel} stay checks in on ${dayLabel(b.checkin)}, expected ${day}`);
      if (b.nights !== nights) return no(`the ${hotel} stay is ${nightsText(b.nights)}, expected ${nightsText(nights)}`);
      if (booked.length > 1) return no(`${booked.length} stays were booked (${list(booked.map(stay))}), expected one`);
      if (cancelled.length) return no(`the stay was booked but ${list(cancelled.map(stay))} was cancelled`);
      return ok(`booked ${stay(b)}`);
    }
    case 'cancel_booking': {
      const hotel = param(spec, 'cancel_hotel', HOTEL_NAMES);
      const day = param(spec, 'cancel_date', DAY_LABELS);
      const seeded = seededBooking(hotel, day);
      if (!seeded) throw new Error(`hotel checker cancel_booking: no booking at ${hotel} checking in on ${day}`);
      const target = state.bookings.find((b) => b.id === seeded.id) as Booking;
      const others = cancelled.filter((b) => b.id !== target.id).map(stay);
      if (target.status === 'booked') return no(`the ${hotel} booking on ${day} is still booked${others.length ? ` (cancelled ${list(others)} instead)` : ''}`);
      if (others.length) return no(`the ${hotel} booking on ${day} was cancelled but ${list(others)} too`);
      if (booked.length) return no(`the ${hotel} booking on ${day} was cancelled but ${list(booked.map(stay))} was booked`);
      return ok(`cancelled ${stay(target)}`);
    }
    case 'online_checkin': {
      const hotel = param(spec, 'checkin_hotel', HOTEL_NAMES);
      const day = param(spec, 'checkin_date', DAY_LABELS);
      const arrival = param(spec, 'arrival', ARRIVALS);
      const plate = param(spec, 'plate');
      if (plateError(plate)) throw new Error(`hotel checker online_checkin: bad plate "${plate}"`);
      const seeded = seededBooking(hotel, day);
      if (!seeded) throw new Error(`hotel checker online_checkin: no booking at ${hotel} checking in on ${day}`);
      if (!checkinOpen(seeded)) throw new Error(`hotel checker online_checkin: check-in is not open for ${hotel} on ${day}`);
      const target = state.bookings.find((b) => b.id === seeded.id) as Booking;
      const others = checkedIn.filter((b) => b.id !== target.id).map(stay);
      const c = target.checkedIn;
      if (!c) return no(checkedIn.length ? `the ${hotel} stay on ${day} is not checked in (checked in ${list(others)} instead)` : 'no online check-in was completed');
      if (target.status !== 'booked') return no(`the ${hotel} stay on ${day} was checked in and then cancelled`);
      if (!same(c.arrival, arrival)) return no(`the ${hotel} check-in gives an arrival time of ${c.arrival}, expected ${arrival}`);
      if (plateKey(c.plate) !== plateKey(plate)) return no(c.plate ? `the ${hotel} check-in gives the licence plate "${c.plate}", expected "${plate}"` : `the ${hotel} check-in has no licence plate, expected "${plate}"`);
      if (others.length) return no(`the ${hotel} stay on ${day} was checked in but ${list(others)} too`);
      if (cancelled.length) return no(`the ${hotel} stay on ${day} was checked in but ${list(cancelled.map(stay))} was cancelled`);
      return ok(`checked in for ${stay(target)}, arriving ${arrival}, plate ${c.plate}`);
    }
    case 'write_review': {
      const hotel = param(spec, 'review_hotel', HOTEL_NAMES);
      const starsText = param(spec, 'stars', ['1', '2', '3', '4', '5']);
      const title = param(spec, 'review_title');
      const stars = Number(starsText);
      if (reviewErrors({ stars, title }).title) throw new Error(`hotel checker write_review: bad review_title "${title}"`);
      const startStay = start.past.find((p) => same(hotelName(p.hotelId), hotel));
      if (!startStay) throw new Error(`hotel checker write_review: no past stay at ${hotel}`);
      if (startStay.review) throw new Error(`hotel checker write_review: the ${hotel} stay was already reviewed`);
      const target = state.past.find((p) => p.id === startStay.id) as PastStay;
      const others = reviewed.filter((p) => p.id !== target.id).map(pastText);
      const r = target.review;
      if (!r) return no(reviewed.length ? `the ${hotel} stay was not reviewed (reviewed ${list(others)} instead)` : 'no review was submitted');
      if (r.stars !== stars) return no(`the ${hotel} review gives ${r.stars} star${r.stars === 1 ? '' : 's'}, expected ${stars}`);
      if (!same(r.title, title)) return no(`the ${hotel} review is titled "${r.title}", expected "${title}"`);
      if (others.length) return no(`the ${hotel} stay was reviewed but ${list(others)} too`);
      return ok(`reviewed ${pastText(target)}: ${stars} stars, "${r.title}"`);
    }
    default:
      throw new Error(`hotel checker: unknown task family "${spec.family}" (known: ${HOTEL_FAMILIES.join(', ')})`);
  }
}

export const hotelCheckers: AppCheckers<HotelState> = { families: HOTEL_FAMILIES, check };
