import { dayCalendar, rng } from '../shared.js';

/** A meter at the home (one per supply). */
export interface Meter {
  /** `elec`, `gas` or `water`. */
  id: string;
  /** What the app calls it: Electricity, Gas, Water. */
  name: string;
  serial: string;
  unit: string;
  /** Number of dials on the meter's display (readings are shown zero-padded to it). */
  digits: number;
  /** About how much a month uses; a reading far beyond the last one plus a few months of it asks the customer to check. */
  monthly: number;
  /** Earlier readings, oldest first; the last is the one the next reading is compared with. */
  history: PastReading[];
}

export interface PastReading {
  /** Day offset (negative: in the past). */
  day: number;
  value: number;
  source: 'Your reading' | 'Estimated' | 'Engineer';
}

/** A reading submitted in this session. */
export interface Reading {
  id: number;
  meterId: string;
  value: number;
  seq: number;
}

/** A saved payment card. */
export interface Card {
  id: string;
  brand: string;
  last4: string;
  /** MM/YY. */
  expiry: string;
  expired: boolean;
}

/** A one-off card payment. */
export interface Payment {
  id: number;
  /** Amount in pence. */
  pence: number;
  cardId: string;
  /** Day offset. */
  day: number;
  ref: string;
  /** Made before the session starts (Payment history). */
  seeded: boolean;
  seq: number;
}

export interface DirectDebit {
  /** Day of the month (1–28) it is taken. */
  day: number;
  /** Monthly amount in pence. */
  pence: number;
  bank: string;
  accountEnding: string;
  /** Times the payment date was changed in this session. */
  dayChanges: number;
  /** Times the monthly amount was changed in this session. */
  amountChanges: number;
}

/** A smart meter installation appointment. */
export interface Appointment {
  /** Day offset of the visit. */
  day: number;
  window: string;
  notes: string;
  cancelled: boolean;
  /** Times it was booked or rebooked in this session. */
  bookings: number;
  seq: number;
}

/** A switch under Account > Preferences. */
export interface Pref {
  id: string;
  name: string;
  sub: string;
  on: boolean;
}

/** A monthly bill (statement). */
export interface Bill {
  id: string;
  month: string;
  /** Day offset it was issued. */
  day: number;
  elec: number;
  gas: number;
  water: number;
}

/** Norvale's per-session state. Read by checkers in-process; the page never sees this object. */
export interface UtilityState {
  seed: number;
  meters: Meter[];
  readings: Reading[];
  cards: Card[];
  defaultCard: string;
  payments: Payment[];
  /** Balance owed in pence (negative: in credit). */
  balance: number;
  dd: DirectDebit;
  appointment: Appointment | null;
  prefs: Pref[];
  bills: Bill[];
  seq: number;
}

export const CUSTOMER = 'Daniel Brooks';
export const CUSTOMER_EMAIL = 'daniel.brooks@example.com';
export const ADDRESS = '27 Linden Grove, Ashford Hill AH4 2PL';
export const ACCOUNT_NO = '8820 1935 06';
export const HELP_PHONE = '0330 088 4120';
export const TARIFF = 'Norvale Fixed Saver 24M';

/** Today is Monday, June 2 (the phone's date), 9:41 AM; offsets count days from it. */
const calendar = dayCalendar(2025, 5, 2);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;

export const pad = (m: Meter, v: number): string => String(v).padStart(m.digits, '0');
export const money = (pence: number): string => `£${(Math.abs(pence) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
/** "£45", "45.00", "1,045.5" → pence; NaN when it is not an amount. */
export const parseMoney = (text: string): number => {
  const t = text.trim().replace(/^£\s*/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$|^\.\d{1,2}$/.test(t)) return NaN;
  return Math.round(Number(t) * 100);
};
/** 1 → "1st", 22 → "22nd". */
export const ordinal = (n: number): string => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th';
  return `${n}${s}`;
};
export const DD_DAYS: readonly number[] = Array.from({ length: 28 }, (_, i) => i + 1);
export const ddDayByLabel = (label: string): number | undefined => {
  const t = label.trim().toLowerCase().replace(/^the\s+/, '');
  return DD_DAYS.find((d) => ordinal(d) === t);
};
/** Direct Debit dates a session can start with (a task never asks for one of these). */
export const DD_START_DAYS: readonly number[] = [14, 16, 18];
/** Payments need ten days' notice: the first day offset from today on or after `+10` that falls on day `d` of a month. */
export function nextDdOffset(d: number, notice = 0): number {
  for (let off = notice; off < 80; off++) if (dayOfMonth(off) === d) return off;
  return notice;
}
export const DD_NOTICE = 10;
export const DD_MIN = 500;
export const DD_MAX = 100000;

/** Id, name, serial, unit, digits, monthly use, start of the last reading (plus up to `spread` by seed). */
type SeedMeter = readonly [string, string, string, string, number, number, number, number];
const METERS: readonly SeedMeter[] = [
  ['elec', 'Electricity', 'E17UK 04213 6', 'kWh', 5, 280, 28417, 40],
  ['gas', 'Gas', 'G4A 0087 1123', 'm³', 5, 60, 4812, 20],
  ['water', 'Water', 'WM 19 442 870', 'm³', 5, 12, 1362, 8],
];
export const METER_NAMES: readonly string[] = METERS.map(([, n]) => n);
/** The highest last reading any seed starts a meter with. */
export const maxStartReading = (id: string): number => {
  const m = METERS.find(([x]) => x === id);
  return m ? m[6] + m[7] - 1 : NaN;
};
/** A reading more than this many months of use above the last one asks the customer to check the numbers. */
export const HIGH_MONTHS = 5;

/** Id, brand, last four, expiry, expired. Near-duplicates: Visa ending 4417 and the expired Visa ending 4471. */
const CARDS: readonly (readonly [string, string, string, string, boolean])[] = [
  ['visa4417', 'Visa', '4417', '09/27', false],
  ['mc0392', 'Mastercard', '0392', '11/28', false],
  ['visa4471', 'Visa', '4471', '03/25', true],
  ['visa8830', 'Visa', '8830', '06/26', false],
];
export const cardLabel = (c: Card): string => `${c.brand} ending ${c.last4}`;
export const CARD_LABELS: readonly string[] = CARDS.map(([, b, l]) => `${b} ending ${l}`);
export const PAY_MIN = 100;
export const PAY_MAX = 200000;
/** The lowest balance any seed starts with (the lowest May bill; a task never asks to pay more). */
export const MIN_START_BALANCE = 12400;

/** Smart meter installation visits: time windows and the days that can be booked (June 9 to June 27, no Sundays). */
export const WINDOWS: readonly (readonly [string, string])[] = [
  ['Morning', '8am – 12pm'],
  ['Afternoon', '12pm – 4pm'],
  ['Evening', '4pm – 7pm'],
];
export const WINDOW_NAMES: readonly string[] = WINDOWS.map(([n]) => n);
export const INSTALL_DAYS: readonly number[] = Array.from({ length: 19 }, (_, i) => i + 7).filter((d) => d % 7 !== 6);
/** Windows already taken by other customers, by day offset; Saturdays only have a morning. */
const FULL: Readonly<Record<number, readonly string[]>> = {
  7: ['Morning', 'Afternoon', 'Evening'],
  8: ['Morning', 'Evening'],
  9: ['Afternoon'],
  10: ['Morning', 'Afternoon', 'Evening'],
  11: ['Morning'],
  12: ['Morning'],
  14: ['Evening'],
  15: ['Morning', 'Afternoon'],
  17: ['Afternoon'],
  18: ['Morning', 'Evening'],
  21: ['Evening'],
  24: ['Morning'],
};
export const windowsOf = (day: number): readonly string[] => (day % 7 === 5 ? ['Morning'] : WINDOW_NAMES);
export const windowOpen = (day: number, w: string): boolean => INSTALL_DAYS.includes(day) && windowsOf(day).includes(w) && !(FULL[day] ?? []).includes(w);
export const openWindows = (day: number): string[] => windowsOf(day).filter((w) => windowOpen(day, w));
export const installDayByLabel = (label: string): number | undefined => {
  const want = label.trim().replace(/\s+/g, ' ').toLowerCase();
  return INSTALL_DAYS.find((d) => dayLabel(d).toLowerCase() === want);
};
export const NOTES_MAX = 200;

/** Id, name, description, on at first. */
const PREFS: readonly (readonly [string, string, string, boolean])[] = [
  ['paperless', 'Paperless bills', 'Get bills by email instead of post', true],
  ['bill_ready', 'Bill ready alerts', 'When a new bill is ready to view', true],
  ['reading_reminders', 'Meter reading reminders', 'A nudge when a reading is due', true],
  ['payment_alerts', 'Payment alerts', 'Before each Direct Debit is taken', false],
  ['usage_summary', 'Monthly usage summary', 'How your use compares with last month', false],
  ['offers', 'Offers and news', 'Deals from Norvale and our partners', false],
];
export const PREF_NAMES: readonly string[] = PREFS.map(([, n]) => n);

export const meterOf = (s: UtilityState, id: string): Meter | undefined => s.meters.find((m) => m.id === id);
export const meterByName = (s: UtilityState, name: string): Meter | undefined => s.meters.find((m) => m.name.toLowerCase() === name.trim().toLowerCase());
export const lastOf = (m: Meter): PastReading => m.history[m.history.length - 1]!;
/** The reading the next one is compared with: the last submitted this session, else the last on record. */
export const currentValue = (s: UtilityState, m: Meter): number => {
  const mine = s.readings.filter((r) => r.meterId === m.id);
  return mine.length ? mine[mine.length - 1]!.value : lastOf(m).value;
};
export const cardOf = (s: UtilityState, id: string): Card | undefined => s.cards.find((c) => c.id === id);
export const cardByLabel = (s: UtilityState, label: string): Card | undefined => s.cards.find((c) => cardLabel(c).toLowerCase() === label.trim().replace(/\s+/g, ' ').toLowerCase());
export const prefOf = (s: UtilityState, id: string): Pref | undefined => s.prefs.find((p) => p.id === id);
export const readingDue = (m: Meter): boolean => lastOf(m).day <= -28;
export const cleanText = (s: string): string => s.trim().replace(/\s+/g, ' ');

/** Why a reading cannot be taken (empty when it can), compared with `last`. */
export function readingError(m: Meter, text: string, last: number): string {
  const t = text.trim().replace(/\s+/g, '');
  if (!t) return 'Enter your meter reading';
  if (!/^\d+$/.test(t)) return 'Use numbers only, with no decimal point';
  if (t.replace(/^0+(?=\d)/, '').length > m.digits) return `${m.name} readings have ${m.digits} numbers`;
  const v = Number(t);
  if (v < last) return `This is lower than your last reading (${pad(m, last)}). Check the numbers and try again.`;
  if (v === last) return `This is the same as your last reading (${pad(m, last)})`;
  return '';
}
export const readingHigh = (m: Meter, v: number, last: number): boolean => v - last > m.monthly * HIGH_MONTHS;

export function initialUtilityState(seed: number): UtilityState {
  const rand = rng(seed ^ 0x0e1ec7);
  const meters: Meter[] = METERS.map(([id, name, serial, unit, digits, monthly, base, spread]) => {
    const last = base + Math.floor(rand() * spread);
    const lastDay = id === 'water' ? -33 - Math.floor(rand() * 5) : -30 - Math.floor(rand() * 6);
    const history: PastReading[] = [];
    let v = last;
    let d = lastDay;
    const sources: PastReading['source'][] = ['Your reading', 'Estimated', 'Your reading', 'Engineer', 'Your reading'];
    for (let i = 0; i < 5; i++) {
      history.unshift({ day: d, value: v, source: sources[i] ?? 'Your reading' });
      v -= Math.round(monthly * (0.8 + rand() * 0.5));
      d -= 28 + Math.floor(rand() * 6);
    }
    return { id, name, serial, unit, digits, monthly, history };
  });
  const cards: Card[] = CARDS.map(([id, brand, last4, expiry, expired]) => ({ id, brand, last4, expiry, expired }));
  const payments: Payment[] = [
    { id: 1, pence: 9600, cardId: '', day: -19, ref: 'DD-0519', seeded: true, seq: 0 },
    { id: 2, pence: 4000, cardId: 'visa4417', day: -34, ref: 'NVP-71620', seeded: true, seq: 0 },
    { id: 3, pence: 9600, cardId: '', day: -50, ref: 'DD-0414', seeded: true, seq: 0 },
  ];
  const ddDay = DD_START_DAYS[Math.floor(rand() * DD_START_DAYS.length)] ?? 16;
  const ddPence = [9600, 10400, 11200][Math.floor(rand() * 3)] ?? 9600;
  payments[0]!.pence = ddPence;
  payments[2]!.pence = ddPence;
  const bills: Bill[] = [
    ['may', 'May', -1],
    ['april', 'April', -32],
    ['march', 'March', -62],
    ['february', 'February', -90],
  ].map(([id, month, day]) => ({
    id: id as string,
    month: month as string,
    day: day as number,
    elec: 7200 + Math.floor(rand() * 2500),
    gas: 3100 + Math.floor(rand() * 2200),
    water: 2100 + Math.floor(rand() * 600),
  }));
  return {
    seed,
    meters,
    readings: [],
    cards,
    defaultCard: rand() < 0.5 ? 'visa4417' : 'mc0392',
    payments,
    balance: bills[0]!.elec + bills[0]!.gas + bills[0]!.water,
    dd: { day: ddDay, pence: ddPence, bank: 'Northfield Bank', accountEnding: '6621', dayChanges: 0, amountChanges: 0 },
    appointment: null,
    prefs: PREFS.map(([id, name, sub, on]) => ({ id, name, sub, on })),
    bills,
    seq: 0,
  };
}
