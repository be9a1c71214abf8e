import { dayCalendar, rng } from '../shared.js';

/** A film now showing (or coming soon) at the cinema. */
export interface Movie {
  id: string;
  /** "Midnight Harbor"; near-duplicates differ by a word. */
  title: string;
  rating: string;
  minutes: number;
  genre: string;
  synopsis: string;
  /** Showtimes, the same every day: time ("7:00 PM"), format, screen. */
  showtimes: readonly Showtime[];
  /** Coming soon: the opening day label; no showtimes yet. */
  opens?: string;
}

export interface Showtime {
  time: string;
  format: string;
  screen: number;
}

export type BookingStatus = 'upcoming' | 'watched' | 'cancelled';

/** A ticket order for one showing. */
export interface Booking {
  id: number;
  /** "RP-4K8Q2". */
  code: string;
  movieId: string;
  /** Day offset from today (0 = Monday, June 2). */
  day: number;
  time: string;
  format: string;
  screen: number;
  seats: string[];
  adult: number;
  child: number;
  senior: number;
  /** What was paid, in cents (tickets, format surcharge and fees). */
  cents: number;
  paidWith: string;
  status: BookingStatus;
  /** A Discount Tuesday ticket cannot be cancelled. */
  refundable: boolean;
  /** How a cancelled booking was refunded ('' while not cancelled). */
  refund: string;
  /** On the account when the session starts. */
  seeded: boolean;
  /** Order it was bought or cancelled in this session (0 for an untouched seeded booking). */
  seq: number;
}

/** A gift card on the account. */
export interface GiftCard {
  id: number;
  /** 16 digits, no spaces. */
  number: string;
  name: string;
  cents: number;
  /** Added in this session from Add gift card. */
  added: boolean;
  seq: number;
}

/** Preferences on the Account tab; each one is saved the moment it is changed. */
export interface Settings {
  seat: string;
  reminder: string;
  textTickets: boolean;
  emailReceipts: boolean;
  offers: boolean;
}

/** What the ticket flow holds between its pages (server-side, like a real app's cart). */
export interface TicketDraft {
  movieId: string;
  day: number;
  time: string;
  adult: number;
  child: number;
  senior: number;
  seats: string[];
}

/** ReelPass's per-session state. Read by checkers in-process; the page never sees this object. */
export interface CinemaState {
  seed: number;
  bookings: Booking[];
  giftCards: GiftCard[];
  walletCents: number;
  points: number;
  settings: Settings;
  /** Times a preference was changed in this session. */
  settingsChanges: number;
  /** Showtimes sold out, keyed "movieId|day". */
  soldOut: Record<string, string[]>;
  draft: TicketDraft;
  seq: number;
}

export const OWNER = 'Jordan Ellis';
export const OWNER_EMAIL = 'jordan.ellis@example.com';
export const CINEMA = 'ReelPass Riverside 12';
export const CINEMA_ADDRESS = '200 Riverside Dr';
export const CARD = 'Visa •••• 4242';
export const WALLET = 'ReelPass Wallet';

/** Today is Monday, June 2, 9:41 AM. Offsets count days from today. */
const calendar = dayCalendar(2025, 5, 2);
export const { weekdayOf, dayLabel, shortDay, dayOfMonth } = calendar;
/** "Today", "Tomorrow" or the short day. */
export const relDay = (offset: number): string => (offset === 0 ? 'Today' : offset === 1 ? 'Tomorrow' : shortDay(offset));

/** Days tickets are sold for: today through Sunday. */
export const SHOW_DAYS: readonly number[] = [0, 1, 2, 3, 4, 5, 6];

const st = (time: string, format: string, screen: number): Showtime => ({ time, format, screen });
export const MOVIES: readonly Movie[] = [
  {
    id: 'midnight-harbor',
    title: 'Midnight Harbor',
    rating: 'R',
    minutes: 118,
    genre: 'Thriller',
    synopsis: 'A night-shift harbor pilot finds a cargo ship that is on no manifest, and nobody on board.',
    showtimes: [st('12:40 PM', 'Standard', 4), st('3:50 PM', 'Standard', 4), st('7:00 PM', 'Standard', 4), st('7:30 PM', 'Dolby Cinema', 1), st('9:30 PM', 'Standard', 4)],
  },
  {
    id: 'midnight-harvest',
    title: 'Midnight Harvest',
    rating: 'PG-13',
    minutes: 104,
    genre: 'Horror',
    synopsis: 'Something in the corn maze has started calling the farmers by name.',
    showtimes: [st('1:15 PM', 'Standard', 6), st('4:20 PM', 'Standard', 6), st('7:00 PM', 'Standard', 6), st('9:45 PM', 'Standard', 6)],
  },
  {
    id: 'last-orbit',
    title: 'The Last Orbit',
    rating: 'PG-13',
    minutes: 134,
    genre: 'Sci-fi',
    synopsis: 'The crew of a failing space station has one orbit left to find a way home.',
    showtimes: [st('12:00 PM', 'IMAX', 3), st('3:30 PM', 'IMAX', 3), st('4:10 PM', 'Standard', 8), st('7:15 PM', 'IMAX', 3), st('7:45 PM', 'Standard', 8), st('10:30 PM', 'IMAX', 3)],
  },
  {
    id: 'paper-lanterns',
    title: 'Paper Lanterns',
    rating: 'PG',
    minutes: 96,
    genre: 'Animation',
    synopsis: 'Two siblings chase a runaway lantern across a city of rooftops on the night of the festival.',
    showtimes: [st('11:00 AM', 'Standard', 2), st('1:30 PM', 'Standard', 2), st('4:00 PM', 'Standard', 2), st('6:30 PM', 'Standard', 2)],
  },
  {
    id: 'second-serve',
    title: 'Second Serve',
    rating: 'PG-13',
    minutes: 112,
    genre: 'Drama',
    synopsis: "A retired tennis champion agrees to coach her old rival's daughter for one last season.",
    showtimes: [st('2:00 PM', 'Standard', 5), st('6:30 PM', 'Standard', 5), st('9:00 PM', 'Standard', 5)],
  },
  {
    id: 'fast-lane-family',
    title: 'Fast Lane Family',
    rating: 'PG',
    minutes: 101,
    genre: 'Comedy',
    synopsis: 'A minivan road trip goes off the rails when Grandma signs the family up for a street race.',
    showtimes: [st('11:30 AM', 'Standard', 7), st('2:15 PM', 'Standard', 7), st('5:00 PM', 'Standard', 7), st('7:40 PM', 'Standard', 7)],
  },
  { id: 'sundown-rally', title: 'Sundown Rally', rating: 'PG-13', minutes: 121, genre: 'Action', synopsis: 'Six drivers, one desert, no rules after dark.', showtimes: [], opens: 'Friday, June 13' },
  { id: 'quiet-acres', title: 'Quiet Acres', rating: 'PG', minutes: 99, genre: 'Family', synopsis: 'A city kid spends the summer on his grandmother’s goat farm.', showtimes: [], opens: 'Friday, June 20' },
];
export const NOW_SHOWING: readonly Movie[] = MOVIES.filter((m) => !m.opens);
export const NOW_SHOWING_TITLES: readonly string[] = NOW_SHOWING.map((m) => m.title);
export const movieOf = (id: string): Movie | undefined => MOVIES.find((m) => m.id === id);
export const movieByTitle = (title: string): Movie | undefined => MOVIES.find((m) => m.title.toLowerCase() === title.trim().toLowerCase());
export const ALL_TIMES: readonly string[] = [...new Set(NOW_SHOWING.flatMap((m) => m.showtimes.map((s) => s.time)))];

/** Showtimes no seed sells out, per movie (every other showtime may be sold out on a day, depending on the seed). */
export const ALWAYS_OPEN: Readonly<Record<string, readonly string[]>> = {
  'midnight-harbor': ['3:50 PM', '7:00 PM', '9:30 PM'],
  'midnight-harvest': ['4:20 PM', '7:00 PM', '9:45 PM'],
  'last-orbit': ['4:10 PM', '7:15 PM', '7:45 PM'],
  'paper-lanterns': ['11:00 AM', '1:30 PM', '4:00 PM'],
  'second-serve': ['2:00 PM', '6:30 PM', '9:00 PM'],
  'fast-lane-family': ['11:30 AM', '5:00 PM', '7:40 PM'],
};

/** Minutes after midnight ("7:15 PM" → 1155). */
export const minutesOf = (time: string): number => {
  const m = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(time);
  if (!m) throw new Error(`bad time ${time}`);
  return ((Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : 0)) * 60 + Number(m[2]);
};

/** Ticket types: name, who, price in cents. */
export const TICKET_TYPES: readonly (readonly ['adult' | 'child' | 'senior', string, string, number])[] = [
  ['adult', 'Adult', 'Ages 12–64', 1550],
  ['child', 'Child', 'Ages 3–11', 1100],
  ['senior', 'Senior', 'Ages 65+', 1250],
];
export const MAX_TICKETS = 8;
/** Extra per ticket for a premium format. */
export const FORMAT_CENTS: Readonly<Record<string, number>> = { Standard: 0, IMAX: 500, 'Dolby Cinema': 400 };
export const FEE_CENTS = 150;

export const ticketCents = (format: string, t: { adult: number; child: number; senior: number }): number => {
  const n = t.adult + t.child + t.senior;
  return t.adult * 1550 + t.child * 1100 + t.senior * 1250 + n * (FORMAT_CENTS[format] ?? 0);
};
export const totalCents = (format: string, t: { adult: number; child: number; senior: number }): number => ticketCents(format, t) + (t.adult + t.child + t.senior) * FEE_CENTS;

/** The auditorium: rows A–H (A at the screen), seats 1–12 with an aisle after seat 6. */
export const ROWS: readonly string[] = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
export const SEATS_PER_ROW = 12;

export const SEAT_PREFS: readonly (readonly [string, string])[] = [
  ['No preference', 'The best seats available'],
  ['Aisle', 'Next to the aisle, easy to step out'],
  ['Middle of the row', 'Centered on the screen'],
  ['Front rows', 'Rows A–C, close to the screen'],
  ['Back rows', 'Rows F–H, the whole screen in view'],
];
export const SEAT_PREF_NAMES: readonly string[] = SEAT_PREFS.map(([n]) => n);
export const REMINDERS: readonly string[] = ['Off', '30 minutes before', '1 hour before', '2 hours before', '3 hours before', '1 day before'];
/** The preferences every account starts the session with. */
export const DEFAULT_SETTINGS: Readonly<Settings> = { seat: 'No preference', reminder: '1 hour before', textTickets: true, emailReceipts: true, offers: false };

export const REFUNDS: readonly (readonly [string, string])[] = [
  ['Refund to card', 'Back to Visa •••• 4242 in 3–5 business days'],
  ['Wallet credit', 'In your ReelPass Wallet right away, for your next movie'],
];
export const REFUND_NAMES: readonly string[] = REFUNDS.map(([n]) => n);

/** Gift cards that exist but are not on the account yet: number, PIN, balance. */
const UNCLAIMED_CARDS: readonly (readonly [string, string, number])[] = [
  ['6012554011873392', '4410', 5000],
  ['6012554011873329', '8127', 2500],
  ['6012778100452216', '0931', 3500],
  ['6012339066218854', '5562', 2000],
  ['6012900412736608', '2285', 10000],
];
export const GIFT_CARD_PINS: Readonly<Record<string, string>> = Object.fromEntries(UNCLAIMED_CARDS.map(([n, p]) => [n, p]));
export const giftBalance = (number: string): number => UNCLAIMED_CARDS.find(([n]) => n === number)?.[2] ?? 0;
/** Gift cards already on the account: number, name, balance. */
const SEEDED_CARDS: readonly (readonly [string, string, number])[] = [
  ['6012554011877710', 'Holiday card', 1850],
  ['6012778100459032', 'From work', 4000],
];
export const NAME_MAX = 24;

/** "6012 5540 1187 3392". */
export const groupDigits = (n: string): string => n.replace(/(\d{4})(?=\d)/g, '$1 ');
export const digitsOf = (s: string): string => s.replace(/\D/g, '');
export const last4 = (n: string): string => n.slice(-4);

/** Movie id, day, time, adult, child, senior, seats, status, refundable, code. */
type SeedBooking = readonly [string, number, string, number, number, number, readonly string[], BookingStatus, boolean, string];
const BOOKINGS: readonly SeedBooking[] = [
  ['second-serve', 1, '6:30 PM', 1, 0, 0, ['E8'], 'upcoming', false, 'RP-7TQ41'],
  ['midnight-harbor', 3, '7:00 PM', 2, 0, 0, ['F6', 'F7'], 'upcoming', true, 'RP-4K8Q2'],
  ['midnight-harvest', 3, '9:45 PM', 2, 0, 0, ['G5', 'G6'], 'upcoming', true, 'RP-9M2X7'],
  ['last-orbit', 4, '7:15 PM', 2, 0, 0, ['E6', 'E7'], 'upcoming', true, 'RP-3H6W8'],
  ['paper-lanterns', 5, '11:00 AM', 1, 2, 0, ['D5', 'D6', 'D7'], 'upcoming', true, 'RP-2C5N9'],
  ['midnight-harbor', 5, '9:30 PM', 2, 0, 0, ['H7', 'H8'], 'upcoming', true, 'RP-8R1V3'],
  ['fast-lane-family', -2, '5:00 PM', 2, 1, 0, ['C4', 'C5', 'C6'], 'cancelled', true, 'RP-5J7D2'],
  ['last-orbit', -6, '7:15 PM', 1, 0, 0, ['F7'], 'watched', true, 'RP-6P3B4'],
  ['paper-lanterns', -9, '1:30 PM', 1, 1, 1, ['E5', 'E6', 'E7'], 'watched', true, 'RP-1L8K5'],
];
export const SEEDED_BOOKINGS = BOOKINGS;

export const money = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

/** A small deterministic hash for seat maps. */
function hash(s: string): number {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

export function initialCinemaState(seed: number): CinemaState {
  const rand = rng(seed ^ 0xc1e7a);
  const bookings: Booking[] = BOOKINGS.map(([movieId, day, time, adult, child, senior, seats, status, refundable, code], i) => {
    const show = movieOf(movieId)?.showtimes.find((s) => s.time === time);
    const t = { adult, child, senior };
    return {
      id: 501 + i,
      code,
      movieId,
      day,
      time,
      format: show?.format ?? 'Standard',
      screen: show?.screen ?? 1,
      seats: [...seats],
      adult,
      child,
      senior,
      // A Rewards free ticket costs nothing and cannot be refunded.
      cents: refundable ? totalCents(show?.format ?? 'Standard', t) : 0,
      paidWith: refundable ? CARD : 'Rewards free ticket',
      status,
      refundable,
      refund: status === 'cancelled' ? 'Refund to card' : '',
      seeded: true,
      seq: 0,
    };
  });
  // Other moviegoers: about a third of the showtimes that are not always open sell out, different for every seed.
  const soldOut: Record<string, string[]> = {};
  for (const m of NOW_SHOWING) {
    const open = ALWAYS_OPEN[m.id] ?? [];
    for (const day of SHOW_DAYS) soldOut[`${m.id}|${day}`] = m.showtimes.map((s) => s.time).filter((t) => !open.includes(t) && rand() < 0.35);
  }
  return {
    seed,
    bookings,
    giftCards: SEEDED_CARDS.map(([number, name, cents], i) => ({ id: 31 + i, number, name, cents, added: false, seq: 0 })),
    walletCents: 300 + Math.floor(rand() * 20) * 25,
    points: 1000 + Math.floor(rand() * 60) * 10,
    settings: { ...DEFAULT_SETTINGS },
    settingsChanges: 0,
    soldOut,
    draft: emptyDraft(),
    seq: 0,
  };
}

export const emptyDraft = (): TicketDraft => ({ movieId: '', day: -1, time: '', adult: 0, child: 0, senior: 0, seats: [] });

export const bookingOf = (s: CinemaState, id: number): Booking | undefined => s.bookings.find((b) => b.id === id);
export const ticketCount = (t: { adult: number; child: number; senior: number }): number => t.adult + t.child + t.senior;

/** Whether a showing can still be bought: a day on sale, a showtime of the movie, not sold out, not started. */
export function onSale(s: CinemaState, movieId: string, day: number, time: string): boolean {
  const m = movieOf(movieId);
  if (!m || !SHOW_DAYS.includes(day) || !m.showtimes.some((x) => x.time === time)) return false;
  if ((s.soldOut[`${movieId}|${day}`] ?? []).includes(time)) return false;
  // It is 9:41 AM today.
  return day > 0 || minutesOf(time) > 9 * 60 + 41;
}

/** Seats other moviegoers hold for a showing (fixed per seed), plus this account's seats. */
export function takenSeats(s: CinemaState, movieId: string, day: number, time: string): Set<string> {
  const taken = new Set<string>();
  const h = hash(`${s.seed}|${movieId}|${day}|${time}`);
  const r = rng(h);
  for (const row of ROWS) for (let n = 1; n <= SEATS_PER_ROW; n++) if (r() < (row === 'A' ? 0.1 : 0.3)) taken.add(`${row}${n}`);
  for (const b of s.bookings) if (b.status !== 'cancelled' && b.movieId === movieId && b.day === day && b.time === time) for (const seat of b.seats) taken.add(seat);
  return taken;
}

/** Rows a seat preference looks in first. */
const prefRows = (pref: string): readonly string[] =>
  pref === 'Front rows' ? ['C', 'B', 'A', 'D'] : pref === 'Back rows' ? ['G', 'F', 'H', 'E'] : ['E', 'F', 'D', 'G', 'C', 'H', 'B', 'A'];

/** The best `n` free seats side by side (one block of one side of the aisle), by the seat preference; fewer when none fit. */
export function bestSeats(taken: ReadonlySet<string>, n: number, pref: string): string[] {
  if (n <= 0) return [];
  const rows = [...prefRows(pref), ...ROWS.filter((r) => !prefRows(pref).includes(r))];
  for (const row of rows) {
    // Blocks inside one side of the aisle (1–6, 7–12), nearest the middle first, or from the aisle for 'Aisle'.
    const starts: number[] = [];
    for (let a = 1; a + n - 1 <= 6; a++) starts.push(a);
    for (let a = 7; a + n - 1 <= 12; a++) starts.push(a);
    const centre = (a: number): number => Math.abs(a + (n - 1) / 2 - 6.5);
    const aisle = (a: number): number => Math.min(Math.abs(a + n - 1 - 6), Math.abs(a - 7));
    starts.sort((x, y) => (pref === 'Aisle' ? aisle(x) - aisle(y) : centre(x) - centre(y)) || x - y);
    for (const a of starts) {
      const block = Array.from({ length: n }, (_, i) => `${row}${a + i}`);
      if (block.every((seat) => !taken.has(seat))) return block;
    }
  }
  // No block fits: any free seats, front to back.
  const free: string[] = [];
  for (const row of rows) for (let k = 1; k <= SEATS_PER_ROW; k++) if (!taken.has(`${row}${k}`) && free.length < n) free.push(`${row}${k}`);
  return free;
}

export const upcoming = (s: CinemaState): Booking[] =>
  s.bookings.filter((b) => b.status === 'upcoming').sort((a, b) => a.day - b.day || minutesOf(a.time) - minutesOf(b.time) || a.id - b.id);
export const past = (s: CinemaState): Booking[] => s.bookings.filter((b) => b.status !== 'upcoming').sort((a, b) => b.day - a.day || b.id - a.id);

/** Why Add gift card cannot be saved, by field (empty when it can). */
export function giftCardErrors(cards: readonly GiftCard[], d: { number: string; pin: string; name: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const number = digitsOf(d.number);
  const pin = d.pin.trim();
  if (!number) errors.number = 'Enter the card number';
  else if (number.length !== 16) errors.number = 'Card numbers have 16 digits';
  else if (cards.some((c) => c.number === number)) errors.number = 'This card is already in your wallet';
  if (!pin) errors.pin = 'Enter the PIN';
  else if (!/^\d{4}$/.test(pin)) errors.pin = 'The PIN has 4 digits';
  if (d.name.trim().replace(/\s+/g, ' ').length > NAME_MAX) errors.name = `Use ${NAME_MAX} characters or fewer`;
  if (!errors.number && !errors.pin && GIFT_CARD_PINS[number] !== pin) errors.number = "We couldn't find a gift card with that number and PIN. Check both and try again.";
  return errors;
}

export const cleanText = (s: string): string => s.trim().replace(/\s+/g, ' ');
