import { dayCalendar, rng } from '../shared.js';

/** Someone on this account's bookings: the account holder and the people she travels with. */
export interface Person {
  id: string;
  first: string;
  last: string;
  /** Age for a child (children must be checked in with an adult); absent for adults. */
  childAge?: number;
}

/** One passenger on one flight of a booking. */
export interface PaxLeg {
  pax: string;
  /** Seat such as `14C`, or '' when none is assigned yet. */
  seat: string;
  /** Who set the seat: the booking as it started, the passenger in the seat map, or check-in (assigned free). */
  seatBy: 'seed' | 'user' | 'checkin' | '';
  /** Paid for the seat, in euros. */
  seatFee: number;
  checkedIn: boolean;
  seq: number;
}

/** One flight of a booking. */
export interface Leg {
  /** `<ref>-out` or `<ref>-back`, lower case. */
  id: string;
  /** Flight number, e.g. `ZP 1731`. */
  no: string;
  /** Airport codes. */
  from: string;
  to: string;
  /** Day offset from today (0 = Monday, June 2). */
  day: number;
  dep: string;
  arr: string;
  /** Minutes in the air. */
  dur: number;
  pax: PaxLeg[];
  /** Seats taken by other travellers on this flight. */
  taken: string[];
}

/** A checked bag on a booking (it travels on every flight of the trip). */
export interface Bag {
  id: number;
  pax: string;
  weight: string;
  price: number;
  /** False while it sits in the basket. */
  paid: boolean;
  removed: boolean;
  seeded: boolean;
  seq: number;
}

/** A booking: one or two flights, the same passengers on each. */
export interface Trip {
  ref: string;
  fare: string;
  pax: string[];
  legs: Leg[];
  bags: Bag[];
  /** Paid for the flights, in euros. */
  total: number;
  seeded: boolean;
  seq: number;
}

/** Zephra's per-session state. Read by checkers in-process; the page never sees this object. */
export interface FlightsState {
  seed: number;
  people: Person[];
  trips: Trip[];
  points: number;
  seq: number;
}

export const HOLDER = 'Freya Lund';
export const HOLDER_EMAIL = 'freya.lund@example.com';
export const CARD = 'Visa •••• 4417';
export const HOME = 'CPH';
export const SUPPORT_PHONE = '+45 70 10 20 30';

/** Today is Monday, June 2, 2025, 9:41 AM; offsets count days from it. */
const calendar = dayCalendar(2025, 5, 2);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;
export const NOW_MIN = 9 * 60 + 41;
/** Days a flight can be searched for: today to July 31. */
export const LAST_DAY = 59;
export const dayByLabel = (label: string): number | undefined => {
  const want = label.trim().replace(/\s+/g, ' ').toLowerCase();
  for (let d = 0; d <= LAST_DAY; d++) if (dayLabel(d).toLowerCase() === want) return d;
  return undefined;
};

/** Code, name, country, minutes from Copenhagen, hours behind Copenhagen. */
type AirportRow = readonly [string, string, string, number, number];
const AIRPORT_ROWS: readonly AirportRow[] = [
  ['AMS', 'Amsterdam', 'Netherlands', 80, 0],
  ['BCN', 'Barcelona', 'Spain', 170, 0],
  ['BER', 'Berlin', 'Germany', 65, 0],
  ['CPH', 'Copenhagen', 'Denmark', 0, 0],
  ['DUB', 'Dublin', 'Ireland', 140, 1],
  ['LIS', 'Lisbon', 'Portugal', 230, 1],
  ['LCY', 'London City', 'United Kingdom', 110, 1],
  ['LGW', 'London Gatwick', 'United Kingdom', 115, 1],
  ['LHR', 'London Heathrow', 'United Kingdom', 115, 1],
  ['LIN', 'Milan Linate', 'Italy', 125, 0],
  ['MXP', 'Milan Malpensa', 'Italy', 125, 0],
  ['NCE', 'Nice', 'France', 145, 0],
  ['OSL', 'Oslo', 'Norway', 70, 0],
  ['CDG', 'Paris Charles de Gaulle', 'France', 110, 0],
  ['ORY', 'Paris Orly', 'France', 115, 0],
  ['OPO', 'Porto', 'Portugal', 215, 1],
  ['KEF', 'Reykjavik', 'Iceland', 200, 2],
  ['FCO', 'Rome Fiumicino', 'Italy', 155, 0],
  ['ARN', 'Stockholm Arlanda', 'Sweden', 70, 0],
  ['VIE', 'Vienna', 'Austria', 105, 0],
];
export interface Airport {
  code: string;
  name: string;
  country: string;
  dur: number;
  behind: number;
}
export const AIRPORTS: readonly Airport[] = AIRPORT_ROWS.map(([code, name, country, dur, behind]) => ({ code, name, country, dur, behind }));
export const DESTINATIONS: readonly Airport[] = AIRPORTS.filter((a) => a.code !== HOME);
export const airportOf = (code: string): Airport | undefined => AIRPORTS.find((a) => a.code === code);
export const airportByName = (name: string): Airport | undefined => {
  const n = name.trim().replace(/\s+/g, ' ').toLowerCase();
  return AIRPORTS.find((a) => a.name.toLowerCase() === n || a.code.toLowerCase() === n);
};
export const nameOf = (code: string): string => airportOf(code)?.name ?? code;

/** Daily timetable: destination code → flights out of Copenhagen and back, `[number, departure]` each. */
const TIMETABLE: Readonly<Record<string, { out: readonly (readonly [string, string])[]; back: readonly (readonly [string, string])[]; base: number }>> = {
  AMS: { out: [['ZP 541', '7:30 AM'], ['ZP 545', '3:10 PM']], back: [['ZP 542', '10:05 AM'], ['ZP 546', '6:20 PM']], base: 69 },
  BCN: { out: [['ZP 1451', '8:10 AM'], ['ZP 1455', '4:35 PM']], back: [['ZP 1452', '11:55 AM'], ['ZP 1456', '8:15 PM']], base: 99 },
  BER: { out: [['ZP 212', '6:45 AM'], ['ZP 216', '5:20 PM']], back: [['ZP 213', '8:40 AM'], ['ZP 217', '7:30 PM']], base: 59 },
  DUB: { out: [['ZP 951', '9:05 AM']], back: [['ZP 952', '12:25 PM']], base: 89 },
  LIS: { out: [['ZP 1731', '7:20 AM'], ['ZP 1735', '2:50 PM']], back: [['ZP 1732', '12:15 PM'], ['ZP 1736', '7:45 PM']], base: 119 },
  LCY: { out: [['ZP 813', '7:55 AM'], ['ZP 817', '4:05 PM']], back: [['ZP 814', '10:50 AM'], ['ZP 818', '7:00 PM']], base: 95 },
  LGW: { out: [['ZP 821', '9:40 AM'], ['ZP 825', '5:55 PM']], back: [['ZP 822', '12:35 PM'], ['ZP 826', '8:45 PM']], base: 75 },
  LHR: { out: [['ZP 801', '7:05 AM'], ['ZP 803', '1:20 PM'], ['ZP 805', '7:05 PM']], back: [['ZP 802', '10:00 AM'], ['ZP 804', '4:15 PM'], ['ZP 806', '9:55 PM']], base: 85 },
  LIN: { out: [['ZP 1261', '8:25 AM']], back: [['ZP 1262', '11:40 AM']], base: 89 },
  MXP: { out: [['ZP 1271', '10:30 AM'], ['ZP 1275', '4:45 PM']], back: [['ZP 1272', '1:50 PM'], ['ZP 1276', '8:10 PM']], base: 79 },
  NCE: { out: [['ZP 1611', '9:15 AM'], ['ZP 1615', '2:35 PM']], back: [['ZP 1612', '12:50 PM'], ['ZP 1616', '6:15 PM']], base: 109 },
  OSL: { out: [['ZP 421', '7:10 AM'], ['ZP 425', '5:40 PM']], back: [['ZP 422', '8:55 AM'], ['ZP 426', '7:25 PM']], base: 49 },
  CDG: { out: [['ZP 1101', '7:35 AM'], ['ZP 1105', '3:25 PM']], back: [['ZP 1102', '10:40 AM'], ['ZP 1106', '6:35 PM']], base: 79 },
  ORY: { out: [['ZP 1121', '8:15 AM'], ['ZP 1125', '6:15 PM']], back: [['ZP 1122', '11:20 AM'], ['ZP 1126', '9:20 PM']], base: 69 },
  OPO: { out: [['ZP 1751', '6:40 AM'], ['ZP 1755', '11:50 AM']], back: [['ZP 1752', '11:20 AM'], ['ZP 1756', '4:30 PM']], base: 115 },
  KEF: { out: [['ZP 371', '1:30 PM']], back: [['ZP 372', '6:10 PM']], base: 139 },
  FCO: { out: [['ZP 1301', '9:50 AM'], ['ZP 1305', '6:05 PM']], back: [['ZP 1302', '1:35 PM'], ['ZP 1306', '9:40 PM']], base: 95 },
  ARN: { out: [['ZP 401', '6:55 AM'], ['ZP 405', '4:50 PM']], back: [['ZP 402', '8:45 AM'], ['ZP 406', '6:40 PM']], base: 55 },
  VIE: { out: [['ZP 1021', '10:10 AM']], back: [['ZP 1022', '1:05 PM']], base: 75 },
};

/** A scheduled flight between Copenhagen and a destination, either way. */
export interface Scheduled {
  no: string;
  from: string;
  to: string;
  dep: string;
  arr: string;
  dur: number;
  /** Arrives the next day. */
  nextDay: boolean;
}

export const minutesOf = (t: string): number => {
  const m = /^(\d{1,2}):(\d\d) (AM|PM)$/.exec(t);
  if (!m) return NaN;
  return ((Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : 0)) * 60 + Number(m[2]);
};
export const timeText = (min: number): string => {
  const m = ((min % 1440) + 1440) % 1440;
  const h = Math.floor(m / 60);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m % 60).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
};
export const durText = (min: number): string => `${Math.floor(min / 60)}h ${String(min % 60).padStart(2, '0')}m`;

/** The flights of a day between Copenhagen and `dest` (`back` for the way home), earliest first. */
export function flightsOf(dest: string, back = false): Scheduled[] {
  const tt = TIMETABLE[dest];
  const ap = airportOf(dest);
  if (!tt || !ap) return [];
  return (back ? tt.back : tt.out).map(([no, dep]) => {
    // Local times: Copenhagen is `behind` hours ahead of the destination.
    const arrMin = minutesOf(dep) + ap.dur + (back ? ap.behind : -ap.behind) * 60;
    return { no, from: back ? dest : HOME, to: back ? HOME : dest, dep, arr: timeText(arrMin), dur: ap.dur, nextDay: arrMin >= 1440 };
  });
}
export const flightByNo = (no: string): Scheduled | undefined => {
  for (const code of Object.keys(TIMETABLE)) for (const back of [false, true]) {
    const f = flightsOf(code, back).find((x) => x.no === no);
    if (f) return f;
  }
  return undefined;
};
export const departureTimes = (dest: string): string[] => flightsOf(dest).map((f) => f.dep);

export const FARES: readonly { name: string; extra: number; perks: readonly string[] }[] = [
  { name: 'Light', extra: 0, perks: ['Under-seat bag (40 × 30 × 15 cm)', 'Seat assigned at check-in', 'No changes or refunds'] },
  { name: 'Classic', extra: 45, perks: ['Under-seat bag and cabin bag (8 kg)', 'Seat assigned at check-in', 'Changes for €60'] },
  { name: 'Flex', extra: 120, perks: ['Under-seat bag and cabin bag (8 kg)', 'Fast track security', 'Free changes, refundable'] },
];
export const FARE_NAMES: readonly string[] = FARES.map((f) => f.name);

/** One adult's Light fare for a flight on a day, in euros (the same every session of a seed). */
export function lightPrice(seed: number, no: string, day: number): number {
  const f = flightByNo(no);
  const dest = f ? (f.from === HOME ? f.to : f.from) : '';
  let h = (seed * 2654435761) >>> 0;
  for (const ch of `${no}|${day}`) h = (Math.imul(h ^ ch.charCodeAt(0), 16777619) + 7) >>> 0;
  return (TIMETABLE[dest]?.base ?? 80) + (h % 14) * 5;
}
export const farePrice = (seed: number, no: string, day: number, fare: string): number => lightPrice(seed, no, day) + (FARES.find((f) => f.name === fare)?.extra ?? 0);

/** Checked bags, priced per passenger for the whole trip. The sheet starts on 20 kg. */
export const BAG_OPTIONS: readonly (readonly [string, number])[] = [
  ['15 kg', 25],
  ['20 kg', 30],
  ['23 kg', 35],
  ['32 kg', 60],
];
export const BAG_DEFAULT = '20 kg';
export const BAG_WEIGHTS: readonly string[] = BAG_OPTIONS.map(([w]) => w);
export const bagPrice = (w: string): number => BAG_OPTIONS.find(([x]) => x === w)?.[1] ?? NaN;
export const MAX_BAGS = 2;

/** Seat map: rows 1–30, A–F (A and F by the window, C and D on the aisle); rows 1–3 up front and the exit rows 11–12 cost extra. */
export const ROWS: readonly number[] = Array.from({ length: 30 }, (_, i) => i + 1);
export const LETTERS: readonly string[] = ['A', 'B', 'C', 'D', 'E', 'F'];
export const ALL_SEATS: readonly string[] = ROWS.flatMap((r) => LETTERS.map((l) => `${r}${l}`));
export const isSeat = (s: string): boolean => ALL_SEATS.includes(s.trim().toUpperCase());
export const seatZone = (seat: string): 'Front' | 'Extra legroom' | 'Standard' => {
  const row = parseInt(seat, 10);
  return row <= 3 ? 'Front' : row === 11 || row === 12 ? 'Extra legroom' : 'Standard';
};
export const seatFee = (seat: string): number => (seatZone(seat) === 'Front' ? 18 : seatZone(seat) === 'Extra legroom' ? 24 : 0);
export const seatKind = (seat: string): string => {
  const l = seat.slice(-1);
  return l === 'A' || l === 'F' ? 'window' : l === 'C' || l === 'D' ? 'aisle' : 'middle';
};
/** Seats kept free on every flight (the ones tasks ask for). */
export const KEPT_FREE: readonly string[] = ['2F', '3A', '7F', '11A', '12F', '14C', '14D', '17A', '21F', '23C', '23D'];

/** Id, first, last, child age. */
const PEOPLE: readonly (readonly [string, string, string, number?])[] = [
  ['freya', 'Freya', 'Lund'],
  ['oskar', 'Oskar', 'Lund'],
  ['ida', 'Ida', 'Lund', 8],
  ['mikkel', 'Mikkel', 'Dahl'],
];
export const PERSON_NAMES: readonly string[] = PEOPLE.map(([, first]) => first);

/** Ref, fare, passengers, [destination, outbound day, outbound flight, return day, return flight], seats out / back by person. */
interface SeedTrip {
  ref: string;
  fare: string;
  pax: readonly string[];
  to: string;
  out: readonly [number, string];
  back?: readonly [number, string];
  seatsOut: Readonly<Record<string, string>>;
  seatsBack: Readonly<Record<string, string>>;
  bags: readonly (readonly [string, string])[];
}
const TRIPS: readonly SeedTrip[] = [
  { ref: 'ZK4P7Q', fare: 'Classic', pax: ['freya', 'oskar', 'ida'], to: 'BCN', out: [1, 'ZP 1451'], back: [6, 'ZP 1456'], seatsOut: { freya: '16A', oskar: '16B', ida: '16C' }, seatsBack: { freya: '18D', oskar: '18E', ida: '18F' }, bags: [['freya', '23 kg']] },
  { ref: 'MW82LD', fare: 'Flex', pax: ['freya', 'mikkel'], to: 'BER', out: [2, 'ZP 212'], back: [3, 'ZP 217'], seatsOut: { freya: '4C' }, seatsBack: {}, bags: [] },
  { ref: 'T6XJ3N', fare: 'Light', pax: ['freya'], to: 'LGW', out: [14, 'ZP 821'], seatsOut: {}, seatsBack: {}, bags: [] },
  { ref: 'H3RT9V', fare: 'Light', pax: ['freya', 'oskar'], to: 'LIS', out: [18, 'ZP 1731'], back: [26, 'ZP 1736'], seatsOut: { freya: '22A', oskar: '22B' }, seatsBack: {}, bags: [['oskar', '23 kg']] },
  { ref: 'QN5B2C', fare: 'Classic', pax: ['freya', 'oskar', 'ida'], to: 'KEF', out: [38, 'ZP 371'], back: [45, 'ZP 372'], seatsOut: {}, seatsBack: {}, bags: [] },
];
/** `[destination name, person first name]` with a checked bag when the session starts. */
export const SEEDED_BAGS: readonly (readonly [string, string])[] = TRIPS.flatMap((t) => t.bags.map(([p]) => [nameOf(t.to), PEOPLE.find(([id]) => id === p)?.[1] ?? p] as const));
/** Destination names of the trips booked when the session starts, by passenger first names. */
export const SEEDED_TRIPS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(TRIPS.map((t) => [nameOf(t.to), t.pax.map((p) => PEOPLE.find(([id]) => id === p)?.[1] ?? p)]));

/** Trips this account took before (shown under Past, not bookable). */
export const PAST_TRIPS: readonly (readonly [string, string, string])[] = [
  ['Copenhagen → Oslo', 'Apr 11 – Apr 13', 'Freya'],
  ['Copenhagen → Rome Fiumicino', 'Mar 1 – Mar 8', 'Freya, Oskar, Ida'],
  ['Copenhagen → London Heathrow', 'Jan 20', 'Freya'],
];

/** References given to trips booked in this session, in order. */
export const NEW_REFS: readonly string[] = ['P7WQ2K', 'D4NX8R', 'J9LT5M', 'C2VB6H', 'R8KD3W', 'F5MZ9T', 'L3QH7J', 'X6TC4P'];

export const personOf = (s: FlightsState, id: string): Person | undefined => s.people.find((p) => p.id === id);
export const personByName = (s: FlightsState, name: string): Person | undefined => {
  const n = name.trim().replace(/\s+/g, ' ').toLowerCase();
  return s.people.find((p) => p.first.toLowerCase() === n || `${p.first} ${p.last}`.toLowerCase() === n);
};
export const fullName = (p: Person): string => `${p.first} ${p.last}`;
export const tripOf = (s: FlightsState, ref: string): Trip | undefined => s.trips.find((t) => t.ref.toLowerCase() === ref.toLowerCase());
export const legOf = (s: FlightsState, id: string): { trip: Trip; leg: Leg } | undefined => {
  for (const trip of s.trips) for (const leg of trip.legs) if (leg.id === id) return { trip, leg };
  return undefined;
};
/** The seeded trip whose outbound flight goes to `name` (an airport name such as `Lisbon`). */
export const tripTo = (s: FlightsState, name: string): Trip | undefined => {
  const ap = airportByName(name);
  return ap ? s.trips.find((t) => t.seeded && t.legs[0]?.to === ap.code) : undefined;
};
export const tripDest = (t: Trip): string => t.legs[0]?.to ?? '';
export const paxLeg = (leg: Leg, pax: string): PaxLeg | undefined => leg.pax.find((p) => p.pax === pax);
export const liveBags = (t: Trip): Bag[] => t.bags.filter((b) => !b.removed);
export const paidBags = (t: Trip, pax?: string): Bag[] => liveBags(t).filter((b) => b.paid && (pax === undefined || b.pax === pax));
export const basket = (t: Trip): Bag[] => liveBags(t).filter((b) => !b.paid);
/** Seats no one can take on a flight: other travellers' and this booking's. */
export const seatsTaken = (leg: Leg): Set<string> => new Set([...leg.taken, ...leg.pax.map((p) => p.seat).filter(Boolean)]);
/** Minutes from now until a flight leaves. */
export const minutesUntil = (leg: { day: number; dep: string }): number => leg.day * 1440 + minutesOf(leg.dep) - NOW_MIN;
/** Online check-in opens 48 hours before departure and closes an hour before. */
export const checkinOpen = (leg: Leg): boolean => minutesUntil(leg) <= 48 * 60 && minutesUntil(leg) > 60;
export const checkinOpensText = (leg: Leg): string => `${shortDay(leg.day - 2)} at ${leg.dep}`;
export const tripFirstDay = (t: Trip): number => t.legs[0]?.day ?? 0;
export const cleanText = (s: string): string => s.trim().replace(/\s+/g, ' ');

export function makeLeg(ref: string, dir: 'out' | 'back', day: number, no: string, pax: readonly string[], seats: Readonly<Record<string, string>>, rand: () => number): Leg {
  const f = flightByNo(no)!;
  const mine = new Set(Object.values(seats));
  // About half the cabin is taken by other travellers, never the seats tasks ask for or this booking's.
  const load = 0.35 + rand() * 0.3;
  const taken = ALL_SEATS.filter((s) => !KEPT_FREE.includes(s) && !mine.has(s) && rand() < load);
  return {
    id: `${ref.toLowerCase()}-${dir}`,
    no,
    from: f.from,
    to: f.to,
    day,
    dep: f.dep,
    arr: f.arr,
    dur: f.dur,
    pax: pax.map((p) => ({ pax: p, seat: seats[p] ?? '', seatBy: seats[p] ? 'seed' : '', seatFee: 0, checkedIn: false, seq: 0 })),
    taken,
  };
}

export function initialFlightsState(seed: number): FlightsState {
  const rand = rng(seed ^ 0x2e9a);
  const people: Person[] = PEOPLE.map(([id, first, last, age]) => (age === undefined ? { id, first, last } : { id, first, last, childAge: age }));
  let bagId = 1;
  const trips: Trip[] = TRIPS.map((t) => {
    const legs = [makeLeg(t.ref, 'out', t.out[0], t.out[1], t.pax, t.seatsOut, rand)];
    if (t.back) legs.push(makeLeg(t.ref, 'back', t.back[0], t.back[1], t.pax, t.seatsBack, rand));
    const total = legs.reduce((sum, l) => sum + farePrice(seed, l.no, l.day, t.fare), 0) * t.pax.length;
    return {
      ref: t.ref,
      fare: t.fare,
      pax: [...t.pax],
      legs,
      bags: t.bags.map(([pax, weight]) => ({ id: bagId++, pax, weight, price: bagPrice(weight), paid: true, removed: false, seeded: true, seq: 0 })),
      total,
      seeded: true,
      seq: 0,
    };
  });
  return { seed, people, trips, points: 18000 + Math.floor(rand() * 60) * 125, seq: 0 };
}

/** The first free standard seat from the back of the cabin forward (what check-in gives a passenger with none). */
export function freeSeatFor(leg: Leg): string {
  const taken = seatsTaken(leg);
  for (let r = 24; r >= 4; r--)
    for (const l of ['A', 'F', 'C', 'D', 'B', 'E']) {
      const s = `${r}${l}`;
      if (seatZone(s) === 'Standard' && !taken.has(s) && !KEPT_FREE.includes(s)) return s;
    }
  return '';
}

/** A one-way or return search, as the Book tab passes it along in the address. */
export interface Search {
  to: string;
  day: number;
  /** Return day, or -1 for one-way. */
  ret: number;
  adults: number;
}
export const MAX_ADULTS = 4;

/** Why a booking cannot be made, or '' when it can. */
export function bookingError(d: { search: Search; out: string; outFare: string; back: string; backFare: string; names: readonly string[]; rules: boolean }): string {
  const { search } = d;
  if (!DESTINATIONS.some((a) => a.code === search.to)) return 'Choose where you are flying to';
  if (!Number.isInteger(search.day) || search.day < 0 || search.day > LAST_DAY) return 'Choose a departure date';
  if (!Number.isInteger(search.adults) || search.adults < 1 || search.adults > MAX_ADULTS) return 'Something went wrong. Try again.';
  const out = flightsOf(search.to).find((f) => f.no === d.out);
  if (!out || !FARE_NAMES.includes(d.outFare)) return 'Choose a flight';
  if (search.day === 0 && minutesOf(out.dep) - NOW_MIN < 120) return 'This flight has closed for booking';
  if (search.ret >= 0) {
    if (search.ret < search.day || search.ret > LAST_DAY) return 'Choose a return date';
    const back = flightsOf(search.to, true).find((f) => f.no === d.back);
    if (!back || !FARE_NAMES.includes(d.backFare)) return 'Choose a return flight';
    if (search.ret === search.day && minutesOf(back.dep) <= minutesOf(out.arr) + 60) return 'The return flight leaves before you land';
  }
  if (d.names.length !== search.adults - 1 || d.names.some((n) => cleanText(n).split(' ').length < 2)) return 'Enter the full name of every passenger';
  if (!d.rules) return 'Accept the fare rules to continue';
  return '';
}
