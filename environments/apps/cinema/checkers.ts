import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  ALL_TIMES,
  dayLabel,
  DEFAULT_SETTINGS,
  digitsOf,
  GIFT_CARD_PINS,
  last4,
  MAX_TICKETS,
  movieByTitle,
  movieOf,
  NOW_SHOWING_TITLES,
  REFUND_NAMES,
  REMINDERS,
  SEAT_PREF_NAMES,
  SEEDED_BOOKINGS,
  type Booking,
  type CinemaState,
  type GiftCard,
  type Settings,
} from './state.js';

export const CINEMA_FAMILIES = ['buy_tickets', 'cancel_booking', 'set_preferences', 'add_gift_card'] as const;
export type CinemaFamily = (typeof CINEMA_FAMILIES)[number];

/** Day labels a spec may name ("Thursday, June 5"): today and the next three weeks. */
const DAY_LABELS: readonly string[] = Array.from({ length: 21 }, (_, i) => dayLabel(i));
/** Preferences other than the ones a task sets, with the words the app uses for them. */
const OTHER_SETTINGS: readonly (readonly [keyof Settings, string])[] = [
  ['textTickets', 'Text me my tickets'],
  ['emailReceipts', 'Email receipts'],
  ['offers', 'Offers and news'],
];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`cinema checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`cinema checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');
const shown = (v: unknown): string => (typeof v === 'boolean' ? (v ? 'On' : 'Off') : String(v));

/** Success checkers for ReelPass; they read the server-side session state in-process. */
export function check(state: CinemaState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'cinema') throw new Error(`cinema checker got a spec for app "${spec.app}"`);
  const titleOf = (b: Booking): string => movieOf(b.movieId)?.title ?? '?';
  const showing = (b: Booking): string => `${titleOf(b)} on ${dayLabel(b.day)} at ${b.time}`;
  const kinds = (b: Booking): string =>
    [b.adult ? `${b.adult} adult` : '', b.child ? `${b.child} child` : '', b.senior ? `${b.senior} senior` : ''].filter(Boolean).join(', ') || 'no tickets';
  const bought = state.bookings.filter((b) => !b.seeded);
  const cancelled = state.bookings.filter((b) => b.seeded && b.status === 'cancelled' && b.seq > 0).sort((a, b) => a.seq - b.seq);
  const dayIndex = (label: string): number => DAY_LABELS.findIndex((d) => same(d, label));
  switch (spec.family as CinemaFamily) {
    case 'buy_tickets': {
      const title = param(spec, 'movie', NOW_SHOWING_TITLES);
      const day = param(spec, 'show_day', DAY_LABELS);
      const time = param(spec, 'showtime', ALL_TIMES);
      const countText = param(spec, 'tickets').trim();
      const count = Number(countText);
      if (!/^\d+$/.test(countText) || count < 1 || count > MAX_TICKETS) throw new Error(`cinema checker buy_tickets: bad tickets "${countText}"`);
      const movie = movieByTitle(title);
      if (!movie?.showtimes.some((s) => same(s.time, time))) throw new Error(`cinema checker buy_tickets: ${title} has no ${time} showtime`);
      const live = bought.filter((b) => b.status === 'upcoming');
      const want = (b: Booking): boolean => b.movieId === movie.id && b.day === dayIndex(day) && same(b.time, time) && b.adult === count && b.child === 0 && b.senior === 0;
      const b = live.find(want) ?? live.find((x) => x.movieId === movie.id) ?? live[live.length - 1];
      if (!b) return no(bought.length ? `tickets were bought but then cancelled (${list(bought.map(showing))})` : 'no tickets were bought');
      if (b.movieId !== movie.id) return no(`tickets were bought for ${titleOf(b)}, expected ${movie.title}`);
      if (b.day !== dayIndex(day)) return no(`the ${movie.title} tickets are for ${dayLabel(b.day)}, expected ${day}`);
      if (!same(b.time, time)) return no(`the ${movie.title} tickets are for the ${b.time} showtime, expected ${time}`);
      if (b.adult !== count || b.child || b.senior) return no(`the ${movie.title} booking has ${kinds(b)} tickets, expected ${count} adult`);
      if (bought.length > 1) return no(`${bought.length} bookings were made (${list(bought.map(showing))}), expected one`);
      if (cancelled.length) return no(`the tickets were bought but the booking for ${list(cancelled.map(showing))} was cancelled`);
      return ok(`bought ${count} adult tickets for ${showing(b)}`);
    }
    case 'cancel_booking': {
      const title = param(spec, 'cancel_movie', NOW_SHOWING_TITLES);
      const day = param(spec, 'cancel_day', DAY_LABELS);
      const refund = param(spec, 'refund', REFUND_NAMES);
      const movie = movieByTitle(title);
      const seeded = SEEDED_BOOKINGS.filter(([id, d, , , , , , status, refundable]) => id === movie?.id && d === dayIndex(day) && status === 'upcoming' && refundable);
      if (seeded.length !== 1) throw new Error(`cinema checker cancel_booking: no cancellable booking for ${title} on ${day}`);
      const target = state.bookings.find((b) => b.seeded && b.movieId === movie?.id && b.day === dayIndex(day) && b.time === seeded[0]?.[2]);
      if (!target) throw new Error(`cinema checker cancel_booking: no booking for ${title} on ${day}`);
      if (target.status !== 'cancelled')
        return no(cancelled.length ? `the ${title} booking on ${day} was not cancelled (cancelled ${list(cancelled.map(showing))} instead)` : 'no booking was cancelled');
      if (!same(target.refund, refund)) return no(`the ${title} tickets on ${day} were refunded as ${target.refund}, expected ${refund}`);
      if (cancelled.length > 1) return no(`${cancelled.length} bookings were cancelled (${list(cancelled.map(showing))}), expected one`);
      if (bought.length) return no(`the booking was cancelled but new tickets were bought (${list(bought.map(showing))})`);
      return ok(`cancelled ${showing(target)} with ${target.refund}`);
    }
    case 'set_preferences': {
      const seat = param(spec, 'seat_pref', SEAT_PREF_NAMES);
      const reminder = param(spec, 'reminder', REMINDERS);
      const s = state.settings;
      if (state.settingsChanges === 0) return no('the preferences were not changed');
      if (!same(s.seat, seat)) return no(`the seat preference is ${s.seat}, expected ${seat}`);
      if (!same(s.reminder, reminder)) return no(`the showtime reminder is ${s.reminder}, expected ${reminder}`);
      const changed = OTHER_SETTINGS.filter(([k]) => s[k] !== DEFAULT_SETTINGS[k]).map(([k, words]) => `${words} to ${shown(s[k])}`);
      if (changed.length) return no(`the seat preference and reminder were set but ${changed.join(', ')} changed too`);
      return ok(`set the seat preference to ${s.seat} and the showtime reminder to ${s.reminder}`);
    }
    case 'add_gift_card': {
      const number = digitsOf(param(spec, 'gift_card'));
      const pin = param(spec, 'gift_pin').trim();
      const name = param(spec, 'gift_name');
      if (!(number in GIFT_CARD_PINS)) throw new Error(`cinema checker add_gift_card: unknown gift_card "${spec.params.gift_card}"`);
      if (GIFT_CARD_PINS[number] !== pin) throw new Error(`cinema checker add_gift_card: gift_pin "${pin}" is not the PIN of card ${number}`);
      const added = state.giftCards.filter((c) => c.added);
      const which = (c: GiftCard): string => `•••• ${last4(c.number)}`;
      const c = added.find((x) => x.number === number) ?? added[added.length - 1];
      if (!c) return no('no gift card was added');
      if (c.number !== number) return no(`the gift card added ends in ${last4(c.number)}, expected the card ending in ${last4(number)}`);
      if (!same(c.name, name)) return no(`gift card ${which(c)} was saved as "${c.name}", expected "${name}"`);
      if (added.length > 1) return no(`${added.length} gift cards were added (${list(added.map(which))}), expected one`);
      return ok(`added gift card ${which(c)} as "${c.name}"`);
    }
    default:
      throw new Error(`cinema checker: unknown task family "${spec.family}" (known: ${CINEMA_FAMILIES.join(', ')})`);
  }
}

export const cinemaCheckers: AppCheckers<CinemaState> = { families: CINEMA_FAMILIES, check };
