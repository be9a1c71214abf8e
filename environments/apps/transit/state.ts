import { rng } from '../shared.js';

export interface Line {
  id: number;
  /** Line name as shown ("Blue Line", "Route 12X"); near-duplicates share a prefix. */
  name: string;
  kind: 'Train' | 'Bus';
  /** End points shown under the name ("Union Station – Airport"). */
  ends: string;
  /** When and how often it runs ("Every 8 min"). */
  runs: string;
  /** Service status text for this session ("Good service", "Delays up to 10 min"). */
  status: string;
  /** Push notifications for delays and detours on this line. */
  alerts: boolean;
}

export interface Fare {
  id: number;
  name: string;
  cents: number;
  /** One line about what the fare covers. */
  covers: string;
  /** How long it is valid once used. */
  valid: string;
}

/** A ticket bought in this session (each one a confirmed purchase). */
export interface Purchase {
  fare: string;
  cents: number;
  seq: number;
}

/** A submitted lost and found report. */
export interface LostReport {
  line: string;
  item: string;
  description: string;
  phone: string;
  caseNumber: string;
}

/** Transit's per-session state. Read by checkers in-process; the page never sees this object. */
export interface TransitState {
  seed: number;
  lines: Line[];
  fares: Fare[];
  purchases: Purchase[];
  /** CityCard stored value in cents. */
  balanceCents: number;
  autoReload: boolean;
  /** Reload amount label ("$20"), used when auto-reload is on. */
  reloadAmount: string;
  reports: LostReport[];
  seq: number;
}

/** Name, kind, end points, when it runs, alerts on at the start of a session (the same for every seed). */
const LINES: readonly (readonly [string, 'Train' | 'Bus', string, string, boolean])[] = [
  ['Red Line', 'Train', 'Northgate – South Park', 'Every 6 min', true],
  ['Blue Line', 'Train', 'Union Station – Lakeside', 'Every 8 min', false],
  ['Blue Line Express', 'Train', 'Union Station – Airport', 'Every 15 min, limited stops', false],
  ['Green Line', 'Train', 'Westfield – Harbor', 'Every 8 min', true],
  ['Orange Line', 'Train', 'Midtown – University', 'Every 10 min', false],
  ['Route 12', 'Bus', 'Downtown – Hillcrest', 'Every 12 min', true],
  ['Route 12X', 'Bus', 'Downtown – Hillcrest', 'Weekdays at rush hour, limited stops', false],
  ['Route 40', 'Bus', 'Union Station – Mill Creek', 'Every 15 min, 5 AM – 11 PM', false],
  ['Route 40 Night', 'Bus', 'Union Station – Mill Creek', 'Every 30 min, 11 PM – 5 AM', true],
  ['Airport Shuttle', 'Bus', 'Union Station – Terminals', 'Every 20 min', false],
];

/** Name, price in cents, what it covers, validity. */
const FARES: readonly (readonly [string, number, string, string])[] = [
  ['Single Ride', 250, 'One trip on any bus or train, free transfers for 90 minutes', '90 minutes'],
  ['Single Ride Reduced', 125, 'Seniors, youth and riders with a reduced fare ID', '90 minutes'],
  ['Day Pass', 500, 'Unlimited rides on buses and trains', '24 hours'],
  ['Day Pass Plus', 800, 'Unlimited rides, Airport Shuttle included', '24 hours'],
  ['3-Day Pass', 1200, 'Unlimited rides on buses and trains', '3 days'],
  ['7-Day Pass', 2000, 'Unlimited rides on buses and trains', '7 days'],
  ['7-Day Pass Reduced', 1000, 'Unlimited rides with a reduced fare ID', '7 days'],
  ['30-Day Pass', 7500, 'Unlimited rides on buses and trains', '30 days'],
  ['30-Day Pass Reduced', 3750, 'Unlimited rides with a reduced fare ID', '30 days'],
];

const STATUSES: readonly string[] = ['Good service', 'Good service', 'Good service', 'Delays up to 10 min', 'Detour in effect', 'Planned work tonight'];

export const LINE_NAMES: readonly string[] = LINES.map(([n]) => n);
/** Whether each line's service alerts are on when a session starts (the same for every seed). */
export const ALERTS_ON: Readonly<Record<string, boolean>> = Object.fromEntries(LINES.map(([n, , , , on]) => [n, on]));
export const FARE_NAMES: readonly string[] = FARES.map(([n]) => n);
export const RELOAD_AMOUNTS: readonly string[] = ['$10', '$20', '$30', '$50'];
export const DEFAULT_RELOAD = '$20';
/** Auto-reload adds the reload amount when the balance drops below this. */
export const RELOAD_BELOW_CENTS = 500;
export const LOST_ITEMS: readonly string[] = ['Backpack', 'Bag or purse', 'Umbrella', 'Phone', 'Wallet', 'Keys', 'Clothing', 'Headphones', 'Laptop', 'Other'];
export const DESCRIPTION_MIN = 4;
export const DESCRIPTION_MAX = 80;
export const PROFILE_PHONE = '(555) 014-2288';

export function initialTransitState(seed: number): TransitState {
  const rand = rng(seed ^ 0x51f0c3);
  const lines = LINES.map(([name, kind, ends, runs, alerts], i) => ({
    id: i + 1,
    name,
    kind,
    ends,
    runs,
    status: STATUSES[Math.floor(rand() * STATUSES.length)] ?? 'Good service',
    alerts,
  }));
  return {
    seed,
    lines,
    fares: FARES.map(([name, cents, covers, valid], i) => ({ id: i + 1, name, cents, covers, valid })),
    purchases: [],
    balanceCents: 600 + Math.floor(rand() * 2400),
    autoReload: false,
    reloadAmount: DEFAULT_RELOAD,
    reports: [],
    seq: 0,
  };
}

/** "$12.50" for 1250 cents. */
export const money = (cents: number): string => `$${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** The digits of a US phone number as typed ("(555) 014-2288", "555.014.2288"); undefined when it is not ten digits. */
export function phoneDigits(text: string): string | undefined {
  const d = text.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  return d.length === 10 ? d : undefined;
}
