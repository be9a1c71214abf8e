import { dayCalendar, rng, shuffle } from '../shared.js';

/** A parking location where shared cars live. */
export interface Place {
  id: number;
  name: string;
  address: string;
  area: string;
  /** How to find the cars there. */
  access: string;
  /** Walking minutes from the member's home (moves a little between seeds). */
  walk: number;
}

/** A shared car, parked at one location. */
export interface Car {
  id: number;
  model: string;
  type: string;
  year: number;
  color: string;
  plate: string;
  seats: number;
  /** Price per hour and per day, in cents. */
  rateCents: number;
  dayCents: number;
  placeId: number;
  electric: boolean;
  /** Tank (quarters) or battery (percent) level; moves between seeds. */
  level: number;
  features: readonly string[];
  /** What members said about it. */
  notes: readonly (readonly [string, string])[];
  /** False for a car that is out of service. */
  inService: boolean;
  serviceNote: string;
  /** Trips it has done (moves between seeds). */
  trips: number;
}

/** A reservation of the member (or of a driver on the account), past, current or upcoming. */
export interface Reservation {
  id: number;
  carId: number;
  /** Start, in hours from today's midnight (negative: in the past). */
  start: number;
  /** Length in hours. */
  hours: number;
  canceled: boolean;
  cancelReason: string;
  /** "Standard" or "Reduced damage fee". */
  protection: string;
  /** Miles driven (past trips). */
  miles: number;
  /** The length it had before it was extended in this session. */
  extendedFrom: { hours: number; seq: number } | null;
  seeded: boolean;
  /** Order it was made, extended or canceled in this session (0 for an untouched seeded one). */
  seq: number;
}

/** A damage report on a trip. */
export interface DamageReport {
  id: number;
  reservationId: number;
  area: string;
  note: string;
  /** "Yes", "No" or "Not sure" (was it there at pick-up?), or "" when not answered. */
  before: string;
  status: string;
  seeded: boolean;
  seq: number;
}

/** A driver on the member's account. */
export interface Driver {
  id: number;
  name: string;
  email: string;
  relation: string;
  /** "Approved" or "Invite sent". */
  status: string;
  since: string;
  removed: boolean;
  seeded: boolean;
  seq: number;
}

/** A reservation between its two steps (server-side, like a real app's cart). */
export interface ReserveDraft {
  carId: number;
  day: number;
  /** Start hour on that day (6 … 22), -1 when not picked. */
  time: number;
  hours: number;
}

/** A new driver between the form and the review. */
export interface DriverDraft {
  name: string;
  email: string;
  relation: string;
}

/** Wheelnook's per-session state. Read by checkers in-process; the page never sees this object. */
export interface CarshareState {
  seed: number;
  places: Place[];
  cars: Car[];
  /** Order of cars within a list ("Closest first" ties), different for every seed. */
  order: number[];
  reservations: Reservation[];
  reports: DamageReport[];
  drivers: Driver[];
  draft: ReserveDraft;
  driverDraft: DriverDraft;
  /** Whether the active trip's car is locked. */
  locked: boolean;
  creditCents: number;
  prefs: { reminders: boolean; receipts: boolean; offers: boolean };
  seq: number;
}

export const USER = 'Leah Morrison';
export const USER_EMAIL = 'leah.morrison@example.com';
export const USER_PHONE = '(415) 555-0147';
export const HOME_ADDRESS = '212 Pier Lane';
export const CARD = 'Visa •••• 4417';
export const NOTE_MAX = 500;
export const NOTE_MIN = 5;
export const MAX_DRIVERS = 4;
/** Reports can be filed in the app for trips that ended in the last 14 days. */
export const REPORT_DAYS = 14;

/** Today is Monday, June 2, 9:41 AM. Offsets count days from today. */
const calendar = dayCalendar(2025, 5, 2);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;
export const NOW = 9 + 41 / 60;
/** Days shown in the date strip: today and the next 13. */
export const STRIP_DAYS: readonly number[] = Array.from({ length: 14 }, (_, i) => i);
/** Days a trip can be reserved for from the app's task list: tomorrow to two weeks out. */
export const BOOKABLE_DAYS: readonly number[] = Array.from({ length: 13 }, (_, i) => i + 1);
/** Start times, on the hour, 6 AM to 10 PM. */
export const START_HOURS: readonly number[] = Array.from({ length: 17 }, (_, i) => i + 6);
export const DURATIONS: readonly number[] = [1, 2, 3, 4, 5, 6, 8, 10, 12];
export const EXTRAS: readonly (readonly [string, number])[] = [
  ['30 minutes', 0.5],
  ['1 hour', 1],
  ['2 hours', 2],
  ['3 hours', 3],
  ['4 hours', 4],
];
export const EXTRA_NAMES: readonly string[] = EXTRAS.map(([e]) => e);
export const CAR_TYPES: readonly (readonly [string, string])[] = [
  ['Compact', '&#128663;'],
  ['Sedan', '&#128664;'],
  ['SUV', '&#128665;'],
  ['Electric', '&#9889;'],
  ['Van', '&#128656;'],
];
export const TYPE_NAMES: readonly string[] = CAR_TYPES.map(([t]) => t);
export const PROTECTIONS: readonly (readonly [string, string, number])[] = [
  ['Standard', 'Included · up to $1,000 damage fee', 0],
  ['Reduced damage fee', '$7 for this trip · up to $250 damage fee', 700],
];
export const CANCEL_REASONS: readonly string[] = ["My plans changed", 'I found another ride', 'I booked the wrong time', 'The car is too far', 'Other'];
export const DAMAGE_AREAS: readonly string[] = ['Front bumper', 'Rear bumper', 'Driver side', 'Passenger side', 'Windshield', 'Side mirror', 'Wheels & tires', 'Roof', 'Interior', 'Other'];
export const BEFORE_OPTIONS: readonly string[] = ['Yes', 'No', 'Not sure'];
export const RELATIONS: readonly (readonly [string, string])[] = [
  ['Spouse or partner', 'Shares your home address'],
  ['Family member', 'Parent, child, sibling or other relative'],
  ['Roommate', 'Lives with you'],
  ['Friend', ''],
  ['Coworker', ''],
];
export const RELATION_NAMES: readonly string[] = RELATIONS.map(([r]) => r);

/** "9:00 AM", "12:30 PM"; hours past 24 wrap to the next day. */
export function timeLabel(h: number): string {
  const x = ((h % 24) + 24) % 24;
  const hh = Math.floor(x);
  const mm = Math.round((x - hh) * 60);
  const ap = hh < 12 ? 'AM' : 'PM';
  const h12 = hh % 12 === 0 ? 12 : hh % 12;
  return `${h12}:${String(mm).padStart(2, '0')} ${ap}`;
}
/** "1 hour", "2 hours", "30 minutes", "1 hour 30 minutes". */
export function hoursLabel(h: number): string {
  const whole = Math.floor(h);
  const mins = Math.round((h - whole) * 60);
  const parts: string[] = [];
  if (whole) parts.push(`${whole} hour${whole === 1 ? '' : 's'}`);
  if (mins) parts.push(`${mins} minutes`);
  return parts.join(' ') || '0 minutes';
}
export const DURATION_NAMES: readonly string[] = DURATIONS.map(hoursLabel);
export const START_NAMES: readonly string[] = START_HOURS.map(timeLabel);

type PlaceRow = readonly [name: string, address: string, area: string, access: string, walk: number];
const PLACES: readonly PlaceRow[] = [
  ['Harbor Street Garage', '250 Harbor St', 'Waterfront', 'Level P2, spaces 14–18. Enter from Harbor St; the gate opens for your member card.', 4],
  ['Harbor Point Lot', '1 Harbor Point Rd', 'Waterfront', 'Open lot by the ferry ramp, the green Wheelnook signs in row C.', 7],
  ['Maple Street Garage', '84 Maple St', 'Old Town', 'Ground floor, spaces 3 and 4, next to the elevators.', 6],
  ['Maple Avenue Lot', '610 Maple Ave', 'Northgate', 'Behind the pharmacy. Cars are in the two spaces marked Wheelnook.', 11],
  ['Greenway Plaza', '300 Greenway Blvd', 'Midtown', 'Level 1, the EV chargers along the east wall. Unplug before you drive.', 9],
  ['Union Market Deck', '45 Union Sq', 'Midtown', 'Top deck (level 4), take the ramp on the left.', 13],
  ['Riverside Library Lot', '12 Riverside Dr', 'Riverside', 'Far corner of the library lot, under the trees.', 16],
  ['Elmwood Court', '9 Elmwood Ct', 'Elmwood', 'Street parking in front of number 9, in the signed car-share spaces.', 19],
];

type CarRow = readonly [
  model: string,
  type: string,
  year: number,
  color: string,
  plate: string,
  seats: number,
  rate: number,
  day: number,
  place: string,
  features: readonly string[],
  notes: readonly (readonly [string, string])[],
  inService: boolean,
  serviceNote: string,
];

const CARS: readonly CarRow[] = [
  [
    'Toyota Corolla',
    'Sedan',
    2022,
    'Silver',
    '8KWN214',
    5,
    1100,
    8900,
    'Harbor Street Garage',
    ['Bluetooth', 'Backup camera', 'Apple CarPlay'],
    [['Marco, May', 'Easy to park in the garage, very clean.']],
    true,
    '',
  ],
  [
    'Toyota Corolla Cross',
    'SUV',
    2023,
    'Blue',
    '9BTR557',
    5,
    1300,
    9900,
    'Harbor Point Lot',
    ['All-wheel drive', 'Bluetooth', 'Roof rails'],
    [['Anya, April', 'Room for two bikes with the seats down.']],
    true,
    '',
  ],
  [
    'Honda Fit',
    'Compact',
    2020,
    'Red',
    '7FJD903',
    5,
    900,
    7200,
    'Maple Street Garage',
    ['Bluetooth', 'Fold-flat rear seats'],
    [['Sam, May', 'Tiny outside, huge inside.']],
    true,
    '',
  ],
  [
    'Honda Civic',
    'Sedan',
    2021,
    'White',
    '8CVX118',
    5,
    1000,
    8200,
    'Maple Avenue Lot',
    ['Bluetooth', 'Android Auto', 'Lane keeping assist'],
    [['Rita, March', 'Smooth on the highway.']],
    true,
    '',
  ],
  [
    'Kia Niro EV',
    'Electric',
    2023,
    'Gray',
    '9EVK402',
    5,
    1200,
    9400,
    'Greenway Plaza',
    ['Charging card in the visor', 'Heated seats', 'Apple CarPlay'],
    [['Jules, May', 'Charge it back above 50% and you get a $5 credit.']],
    true,
    '',
  ],
  [
    'Kia Niro Hybrid',
    'Compact',
    2021,
    'White',
    '8NRH771',
    5,
    1000,
    8000,
    'Union Market Deck',
    ['Bluetooth', 'Great mileage', 'Backup camera'],
    [['Devon, April', 'Drove to the coast and barely used gas.']],
    true,
    '',
  ],
  [
    'Volkswagen Golf',
    'Compact',
    2021,
    'Black',
    '8VWG630',
    5,
    1000,
    8100,
    'Union Market Deck',
    ['Bluetooth', 'Heated seats'],
    [['Noor, May', 'Fun to drive, a bit tight in the back.']],
    true,
    '',
  ],
  [
    'Volkswagen Jetta',
    'Sedan',
    2022,
    'Gray',
    '8JTA245',
    5,
    1100,
    8600,
    'Riverside Library Lot',
    ['Bluetooth', 'Big trunk', 'Apple CarPlay'],
    [['Eli, March', 'Fits three suitcases.']],
    true,
    '',
  ],
  [
    'Tesla Model 3',
    'Electric',
    2022,
    'White',
    '9TSL303',
    5,
    1600,
    11900,
    'Harbor Street Garage',
    ['Autopilot', 'Glass roof', 'Phone key in the app'],
    [['Priya, May', 'Watch the intro video before your first trip.']],
    true,
    '',
  ],
  [
    'Tesla Model Y',
    'Electric',
    2023,
    'Black',
    '9TSY118',
    7,
    1800,
    12900,
    'Harbor Point Lot',
    ['Third row', 'Autopilot', 'Tow hitch'],
    [['Ben, April', 'The third row is for kids only.']],
    true,
    '',
  ],
  [
    'Mazda3',
    'Compact',
    2022,
    'Red',
    '8MZD334',
    5,
    1000,
    8200,
    'Elmwood Court',
    ['Bluetooth', 'Heads-up display'],
    [['Ola, May', 'Nice interior for a small car.']],
    true,
    '',
  ],
  [
    'Mazda CX-5',
    'SUV',
    2021,
    'Blue',
    '8CXF509',
    5,
    1400,
    10400,
    'Maple Avenue Lot',
    ['All-wheel drive', 'Bluetooth', 'Ski rack'],
    [['Hal, February', 'Perfect for the mountains.']],
    true,
    '',
  ],
  [
    'Subaru Outback',
    'SUV',
    2022,
    'Green',
    '8SBO822',
    5,
    1500,
    10900,
    'Riverside Library Lot',
    ['All-wheel drive', 'Roof rails', 'Dog-friendly (bring a cover)'],
    [['Kim, May', 'Took it camping, tons of room.']],
    true,
    '',
  ],
  [
    'Subaru Crosstrek',
    'SUV',
    2023,
    'Orange',
    '9SBC146',
    5,
    1400,
    10200,
    'Elmwood Court',
    ['All-wheel drive', 'Apple CarPlay'],
    [['Lou, April', 'Handles gravel roads well.']],
    true,
    '',
  ],
  [
    'Ford Transit Connect',
    'Van',
    2021,
    'White',
    '8FTC990',
    2,
    1700,
    12500,
    'Union Market Deck',
    ['Cargo space 129 cu ft', 'Moving blankets', 'Hand truck'],
    [['Tess, May', 'Moved a whole studio in two trips.']],
    true,
    '',
  ],
  [
    'Ford Escape',
    'SUV',
    2021,
    'Gray',
    '8FES417',
    5,
    1400,
    10300,
    'Maple Street Garage',
    ['All-wheel drive', 'Bluetooth', 'Backup camera'],
    [['Ray, April', 'Good all-rounder.']],
    true,
    '',
  ],
  [
    'Chevrolet Bolt EV',
    'Electric',
    2020,
    'Blue',
    '8BLT662',
    5,
    1100,
    8800,
    'Greenway Plaza',
    ['Charging card in the visor', 'Apple CarPlay'],
    [['Ana, March', 'Quick and quiet.']],
    false,
    'In the shop until June 16 for a charging port repair.',
  ],
];
export const CAR_MODELS: readonly string[] = CARS.map(([m]) => m);

/** Car, day, start hour, hours, miles, canceled reason ("" when not canceled). Days before 0 are past trips. */
type ResRow = readonly [car: string, day: number, start: number, hours: number, miles: number, canceled: string];
const RESERVATIONS: readonly ResRow[] = [
  ['Honda Fit', 0, 8, 3, 0, ''],
  ['Toyota Corolla', 2, 9, 4, 0, ''],
  ['Toyota Corolla Cross', 5, 10, 6, 0, ''],
  ['Kia Niro EV', 8, 18, 3, 0, ''],
  ['Subaru Outback', 11, 8, 12, 0, ''],
  ['Kia Niro Hybrid', -2, 10, 4, 38, ''],
  ['Volkswagen Golf', -4, 17, 3, 21, ''],
  ['Tesla Model 3', -6, 9, 6, 112, ''],
  ['Mazda CX-5', -7, 14, 4, 0, 'My plans changed'],
  ['Toyota Corolla', -9, 12, 2, 9, ''],
  ['Mazda3', -11, 8, 2, 14, ''],
  ['Honda Civic', -13, 18, 4, 26, ''],
  ['Ford Escape', -20, 9, 9, 164, ''],
  ['Kia Niro Hybrid', -24, 13, 3, 17, ''],
];
export const SEEDED_RESERVATIONS = RESERVATIONS;

/** Car, day, start hour, end hour: other members' bookings beyond the daily pattern. */
const EXTRA_BLOCKS: readonly (readonly [string, number, number, number])[] = [
  ['Honda Fit', 0, 14, 17],
  ['Tesla Model Y', 0, 7, 12.5],
  ['Volkswagen Golf', 0, 9, 11],
  ['Toyota Corolla', 2, 15.5, 18],
  ['Toyota Corolla Cross', 1, 7, 9],
  ['Kia Niro EV', 8, 23.5, 26],
  ['Subaru Outback', 11, 22.5, 24],
];

/** A span of hours (from today's midnight) when a car is taken. */
export interface Block {
  start: number;
  end: number;
}

const carIndex = (model: string): number => CAR_MODELS.indexOf(model);

/**
 * Other members' bookings of a car, from yesterday to two weeks out: a pattern fixed per car (mornings, middays and
 * evenings on some days) plus a few one-off bookings; none overlaps the member's own seeded reservations or the two
 * hours after them (so those can be extended by up to two hours).
 */
export function memberBlocks(model: string): Block[] {
  const i = carIndex(model);
  const out: Block[] = [];
  for (let d = -1; d <= 15; d++) {
    if ((i * 2 + d) % 5 === 1) out.push({ start: d * 24 + 6, end: d * 24 + 8.5 });
    if ((i + 2 * d) % 7 === 3) out.push({ start: d * 24 + 12, end: d * 24 + 15 });
    if ((i + d) % 3 === 0) out.push({ start: d * 24 + 18, end: d * 24 + 21 });
  }
  for (const [m, d, s, e] of EXTRA_BLOCKS) if (m === model) out.push({ start: d * 24 + s, end: d * 24 + e });
  const mine = RESERVATIONS.filter(([m, day, , , , c]) => m === model && !c && day >= -1).map(([, day, s, h]) => ({ start: day * 24 + s, end: day * 24 + s + h + 2 }));
  return out.filter((b) => !mine.some((r) => b.start < r.end && r.start < b.end)).sort((a, b) => a.start - b.start);
}

export function initialCarshareState(seed: number): CarshareState {
  const rand = rng(seed ^ 0x6c2b17);
  const places: Place[] = PLACES.map(([name, address, area, access, walk], i) => ({ id: 31 + i, name, address, area, access, walk: walk + Math.floor(rand() * 6) }));
  const cars: Car[] = CARS.map(([model, type, year, color, plate, seats, rate, day, place, features, notes, inService, serviceNote], i) => {
    const electric = type === 'Electric';
    return {
      id: 101 + i,
      model,
      type,
      year,
      color,
      plate,
      seats,
      rateCents: rate,
      dayCents: day,
      placeId: places.find((p) => p.name === place)!.id,
      electric,
      level: electric ? 55 + Math.floor(rand() * 45) : 2 + Math.floor(rand() * 3),
      features,
      notes,
      inService,
      serviceNote,
      trips: 120 + Math.floor(rand() * 400),
    };
  });
  const carOf = (model: string): Car => cars.find((c) => c.model === model)!;
  const reservations: Reservation[] = RESERVATIONS.map(([car, day, start, hours, miles, canceled], i) => ({
    id: 601 + i,
    carId: carOf(car).id,
    start: day * 24 + start,
    hours,
    canceled: !!canceled,
    cancelReason: canceled,
    protection: 'Standard',
    miles,
    extendedFrom: null,
    seeded: true,
    seq: 0,
  }));
  const civic = reservations.find((r) => r.carId === carOf('Honda Civic').id)!;
  const reports: DamageReport[] = [
    { id: 4401, reservationId: civic.id, area: 'Windshield', note: 'Small chip on the passenger side, was there when I picked it up.', before: 'Yes', status: 'Under review', seeded: true, seq: 0 },
  ];
  const drivers: Driver[] = [
    { id: 71, name: 'Jonah Morrison', email: 'jonah.morrison@example.com', relation: 'Spouse or partner', status: 'Approved', since: 'Since March 2023', removed: false, seeded: true, seq: 0 },
    { id: 72, name: 'Elena Ortega', email: 'elena.ortega@example.com', relation: 'Friend', status: 'Invite sent', since: 'Invited May 28', removed: false, seeded: true, seq: 0 },
  ];
  return {
    seed,
    places,
    cars,
    order: shuffle(
      cars.map((c) => c.id),
      rand,
    ),
    reservations,
    reports,
    drivers,
    draft: emptyDraft(),
    driverDraft: emptyDriver(),
    locked: false,
    creditCents: 1500,
    prefs: { reminders: true, receipts: true, offers: false },
    seq: 0,
  };
}

export const emptyDraft = (): ReserveDraft => ({ carId: 0, day: -1, time: -1, hours: 0 });
export const emptyDriver = (): DriverDraft => ({ name: '', email: '', relation: '' });

export const carOf = (st: CarshareState, id: number): Car | undefined => st.cars.find((c) => c.id === id);
export const placeOf = (st: CarshareState, id: number): Place | undefined => st.places.find((p) => p.id === id);
export const resOf = (st: CarshareState, id: number): Reservation | undefined => st.reservations.find((r) => r.id === id);
export const endOf = (r: Reservation): number => r.start + r.hours;
export const dayOf = (t: number): number => Math.floor(t / 24);
/** "Wednesday, June 4, 9:00 AM". */
export const whenLabel = (t: number): string => `${dayLabel(dayOf(t))}, ${timeLabel(t)}`;
/** "Wed, Jun 4, 9:00 AM". */
export const whenShort = (t: number): string => `${shortDay(dayOf(t))}, ${timeLabel(t)}`;
/** "9:00 AM–1:00 PM" (with the return day when it is another day). */
export const spanLabel = (r: Reservation): string =>
  dayOf(endOf(r) - 0.01) === dayOf(r.start) ? `${timeLabel(r.start)}–${timeLabel(endOf(r))}` : `${timeLabel(r.start)}–${shortDay(dayOf(endOf(r)))}, ${timeLabel(endOf(r))}`;

export const isActive = (r: Reservation): boolean => !r.canceled && r.start <= NOW && NOW < endOf(r);
export const isUpcoming = (r: Reservation): boolean => !r.canceled && r.start > NOW;
export const isPast = (r: Reservation): boolean => r.canceled || endOf(r) <= NOW;
/** Active and upcoming trips can be extended. */
export const canExtend = (r: Reservation): boolean => isActive(r) || isUpcoming(r);
export const canCancel = (r: Reservation): boolean => isUpcoming(r);
/** Damage can be reported in the app on the current trip and on trips that ended in the last 14 days. */
export const canReport = (r: Reservation): boolean => !r.canceled && r.start <= NOW && dayOf(endOf(r) - 0.01) > -REPORT_DAYS;

export const money = (cents: number): string => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
/** Time cost: the hourly rate, capped at the day rate for each 24 hours. */
export function timeCents(c: Car, hours: number): number {
  const days = Math.floor(hours / 24);
  const rest = hours - days * 24;
  return days * c.dayCents + Math.min(Math.round(rest * c.rateCents), c.dayCents);
}
export const protectionCents = (name: string): number => PROTECTIONS.find(([p]) => p === name)?.[2] ?? 0;
export const tripCents = (c: Car, r: Reservation): number => timeCents(c, r.hours) + protectionCents(r.protection);
/** A car's level as text: "3/4 tank" or "82% charged · about 190 mi". */
export const levelText = (c: Car): string => (c.electric ? `${c.level}% charged · about ${Math.round(c.level * 2.6)} mi` : `${['Empty', '1/4', '1/2', '3/4', 'Full'][c.level] ?? 'Full'} tank`);

/** What keeps a car from being taken from `start` to `end`: another member's booking, one of the member's own trips, or nothing. */
export function conflict(st: CarshareState, carId: number, start: number, end: number, ignore = 0): { by: 'member'; block: Block } | { by: 'you'; res: Reservation } | null {
  const car = carOf(st, carId);
  if (!car) return null;
  const block = memberBlocks(car.model).find((b) => b.start < end && start < b.end);
  if (block) return { by: 'member', block };
  const res = st.reservations.find((r) => r.id !== ignore && !r.canceled && endOf(r) > NOW && r.start < end && start < endOf(r));
  if (res) return { by: 'you', res };
  return null;
}
/** Whether the car is taken (by anyone) at a moment. */
export const busyAt = (st: CarshareState, carId: number, t: number): boolean => conflict(st, carId, t, t + 0.01) !== null;

/** The daytime window the task list's start times and lengths fall in (9 AM to 5 PM). */
export const TASK_WINDOW: readonly [number, number] = [9, 17];
/** Days (tomorrow to two weeks out) when the car and the member are both free all day between 9 AM and 5 PM. */
export const openDays = (st: CarshareState, c: Car): number[] =>
  c.inService ? BOOKABLE_DAYS.filter((d) => conflict(st, c.id, d * 24 + TASK_WINDOW[0], d * 24 + TASK_WINDOW[1]) === null) : [];

/** Why a reservation step cannot go on, by field (empty when it can). */
export function reserveErrors(st: CarshareState, d: ReserveDraft): Record<string, string> {
  const c = carOf(st, d.carId);
  if (!c || !c.inService) return { car: 'This car is not available right now' };
  const errors: Record<string, string> = {};
  if (!STRIP_DAYS.includes(d.day)) return { day: 'Pick a day' };
  if (!START_HOURS.includes(d.time)) return { time: 'Pick a start time' };
  if (!DURATIONS.includes(d.hours)) return { hours: 'Pick how long you need it' };
  const start = d.day * 24 + d.time;
  if (start < NOW) return { time: 'That time has already passed' };
  const hit = conflict(st, c.id, start, start + d.hours);
  if (hit?.by === 'member')
    errors.time = `This car is booked ${hit.block.start <= start ? `until ${timeLabel(hit.block.end)}` : `from ${timeLabel(hit.block.start)}`} that day. Pick another time or fewer hours.`;
  else if (hit?.by === 'you') errors.time = `You already have a trip then (${carOf(st, hit.res.carId)?.model ?? 'a car'}, ${shortDay(dayOf(hit.res.start))}, ${spanLabel(hit.res)}).`;
  return errors;
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
export const liveDrivers = (st: CarshareState): Driver[] => st.drivers.filter((d) => !d.removed);

/** Why the new driver cannot be added, by field (empty when it can). */
export function driverErrors(st: CarshareState, d: DriverDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = d.name.trim().replace(/\s+/g, ' ');
  const email = d.email.trim().toLowerCase();
  if (liveDrivers(st).length >= MAX_DRIVERS) return { name: `Your plan allows ${MAX_DRIVERS} drivers besides you` };
  if (name.split(' ').length < 2 || name.length < 4) errors.name = 'Enter their first and last name';
  else if (liveDrivers(st).some((x) => x.name.toLowerCase() === name.toLowerCase())) errors.name = `${name} is already on your account`;
  if (!EMAIL_RE.test(email)) errors.email = 'Enter a valid email address';
  else if (email === USER_EMAIL || liveDrivers(st).some((x) => x.email.toLowerCase() === email)) errors.email = 'That email is already on your account';
  if (!RELATION_NAMES.includes(d.relation)) errors.relation = 'Choose how you know them';
  return errors;
}
