import { rng } from '../shared.js';

export interface Zone {
  /** Zone number as posted on the street signs ("4120"); near-duplicates differ by swapped digits. */
  code: string;
  /** Where it is ("Main St & 3rd Ave"). */
  place: string;
  /** Cents per hour. */
  rate: number;
  /** Longest stay allowed, in minutes. */
  maxMin: number;
  /** Seeded distance from the user, in tenths of a mile (orders the Park tab). */
  tenths: number;
}

export interface Vehicle {
  id: number;
  /** Make and model as shown ("Toyota Camry"); near-duplicates share a prefix. */
  name: string;
  /** Licence plate, upper case, no spaces. */
  plate: string;
  /** Registration state ("California"). */
  region: string;
  isDefault: boolean;
  /** Added in this session. */
  added: boolean;
}

/** A parking session, past or running. Times are minutes after midnight; `day` is its date ("June 10"). */
export interface Session {
  id: number;
  zone: string;
  /** Plate of the vehicle parked. */
  plate: string;
  day: string;
  /** Weekday shown before the date ("Tue"). */
  weekday: string;
  startMin: number;
  /** Minutes bought when it was started. */
  durationMin: number;
  /** Minutes added by each extension made in this session. */
  extensions: number[];
  /** Running now (today and not stopped). */
  active: boolean;
  /** Stopped early in this session. */
  stopped: boolean;
  /** Started in this session. */
  started: boolean;
  /** Receipt emailed before this session (shown as sent). */
  emailedBefore: boolean;
  /** Receipt emails sent in this session. */
  emailed: number;
}

/** ParkSpot's per-session state. Read by checkers in-process; the page never sees this object. */
export interface ParkingState {
  seed: number;
  zones: Zone[];
  vehicles: Vehicle[];
  sessions: Session[];
  seq: number;
}

/** The phone's clock: 9:41 AM, Friday June 13. */
export const NOW_MIN = 9 * 60 + 41;
export const TODAY = 'June 13';
export const SERVICE_FEE_CENTS = 35;
export const EMAIL = 'alex.kim@example.com';
export const CARD = 'Visa •••• 4821';

/** Code, place, cents per hour, max minutes (the same for every seed). */
const ZONES: readonly (readonly [string, string, number, number])[] = [
  ['4102', 'Main St & 2nd Ave', 250, 120],
  ['4120', 'Main St & 3rd Ave', 250, 120],
  ['4210', 'Main St & 12th Ave', 200, 240],
  ['2207', 'City Hall East Lot', 150, 180],
  ['2270', 'City Hall West Lot', 150, 180],
  ['3318', 'Riverside Park North', 100, 240],
  ['3381', 'Riverside Park South', 100, 240],
  ['5530', 'Harbor Garage, Level 1', 300, 240],
  ['5531', 'Harbor Garage, Rooftop', 300, 240],
  ['6015', 'Mercy Hospital Visitors', 200, 60],
  ['6051', 'Mercy Hospital Staff Overflow', 200, 180],
  ['8842', 'Stadium Lot C', 500, 240],
];

/** Name, plate, region (the same for every seed); the first is the default vehicle. */
const VEHICLES: readonly (readonly [string, string, string])[] = [
  ['Honda Civic', '7TRK402', 'California'],
  ['Honda CR-V', '8MLP519', 'California'],
  ['Toyota Camry', '6ZEB733', 'California'],
  ['Toyota Camry Hybrid', '9AUV156', 'California'],
  ['Ford Transit Van', '4BFG880', 'Nevada'],
  ['Mini Cooper', '3JNQ217', 'Oregon'],
];

/** Zone, vehicle, weekday, day, start (h, m), minutes, receipt already emailed. Running ones are today. */
const SESSIONS: readonly (readonly [string, string, string, string, number, number, number, boolean])[] = [
  ['4102', 'Ford Transit Van', 'Fri', 'June 13', 9, 20, 60, false],
  ['4120', 'Toyota Camry Hybrid', 'Fri', 'June 13', 8, 35, 90, false],
  ['4120', 'Honda Civic', 'Thu', 'June 12', 8, 55, 120, false],
  ['5530', 'Honda Civic', 'Thu', 'June 12', 18, 10, 180, false],
  ['4102', 'Ford Transit Van', 'Wed', 'June 11', 9, 15, 60, true],
  ['4120', 'Honda Civic', 'Tue', 'June 10', 9, 0, 120, false],
  ['4210', 'Toyota Camry', 'Tue', 'June 10', 13, 30, 60, false],
  ['4120', 'Honda Civic', 'Mon', 'June 9', 8, 45, 90, false],
  ['8842', 'Toyota Camry Hybrid', 'Fri', 'June 6', 18, 30, 240, false],
  ['3318', 'Mini Cooper', 'Thu', 'June 5', 11, 0, 120, true],
  ['3381', 'Mini Cooper', 'Wed', 'June 4', 10, 20, 60, false],
  ['2207', 'Honda CR-V', 'Tue', 'June 3', 12, 0, 45, false],
  ['2270', 'Honda CR-V', 'Mon', 'June 2', 15, 15, 30, false],
];

/** How long to park: label and minutes (chips on the zone page). */
export const DURATIONS: readonly (readonly [string, number])[] = [
  ['15 minutes', 15],
  ['30 minutes', 30],
  ['45 minutes', 45],
  ['1 hour', 60],
  ['2 hours', 120],
  ['3 hours', 180],
  ['4 hours', 240],
];
/** Time that can be added to a running session. */
export const EXTENSIONS: readonly (readonly [string, number])[] = [
  ['15 minutes', 15],
  ['30 minutes', 30],
  ['1 hour', 60],
  ['2 hours', 120],
];
export const REGIONS: readonly string[] = ['Arizona', 'California', 'Nevada', 'Oregon', 'Utah', 'Washington'];
export const DEFAULT_REGION = 'California';
export const NICKNAME_MAX = 20;

export const ZONE_CODES: readonly string[] = ZONES.map(([c]) => c);
export const ZONE_MAX: Readonly<Record<string, number>> = Object.fromEntries(ZONES.map(([c, , , m]) => [c, m]));
export const VEHICLE_NAMES: readonly string[] = VEHICLES.map(([n]) => n);
export const PLATES: readonly string[] = VEHICLES.map(([, p]) => p);
/** Vehicles parked when a session starts (they cannot be parked again until that ends). */
export const PARKED_VEHICLES: readonly string[] = SESSIONS.filter((s) => s[3] === TODAY).map(([, v]) => v);

export const minutesLabel = (m: number): string => {
  const h = Math.floor(m / 60);
  const r = m % 60;
  return [h ? `${h} hr` : '', r ? `${r} min` : ''].filter(Boolean).join(' ') || '0 min';
};
export const clock = (min: number): string => {
  const m = ((min % 1440) + 1440) % 1440;
  const h = Math.floor(m / 60);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m % 60).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
};
export const money = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
export const totalMin = (s: Session): number => s.durationMin + s.extensions.reduce((a, b) => a + b, 0);
export const endMin = (s: Session): number => s.startMin + totalMin(s);
export const parkingCents = (rate: number, min: number): number => Math.round((rate * min) / 60);
export const sessionCents = (s: Session, z: Zone | undefined): number =>
  parkingCents(z?.rate ?? 0, totalMin(s)) + SERVICE_FEE_CENTS * (1 + s.extensions.length);

/** The extensions that keep a running session within its zone's limit. */
export function extensionsAllowed(zone: string, usedMin: number): string[] {
  return EXTENSIONS.filter(([, m]) => usedMin + m <= (ZONE_MAX[zone] ?? 0)).map(([l]) => l);
}

/** Normalises a typed plate: upper case, no spaces or dashes. */
export const normPlate = (s: string): string => s.toUpperCase().replace(/[\s-]/g, '');

export function initialParkingState(seed: number): ParkingState {
  const rand = rng(seed ^ 0x9a4c31);
  const zones = ZONES.map(([code, place, rate, maxMin]) => ({ code, place, rate, maxMin, tenths: 1 + Math.floor(rand() * 24) }));
  const vehicles = VEHICLES.map(([name, plate, region], i) => ({ id: i + 1, name, plate, region, isDefault: i === 0, added: false }));
  const plateOf = (name: string): string => vehicles.find((v) => v.name === name)?.plate ?? '';
  const sessions = SESSIONS.map(([zone, vehicle, weekday, day, h, m, durationMin, emailedBefore], i) => ({
    id: 101 + i,
    zone,
    plate: plateOf(vehicle),
    day,
    weekday,
    startMin: h * 60 + m,
    durationMin,
    extensions: [],
    active: day === TODAY,
    stopped: false,
    started: false,
    emailedBefore,
    emailed: 0,
  }));
  return { seed, zones, vehicles, sessions, seq: 0 };
}

/** Why a typed plate cannot be added, or undefined when it can. */
export function plateProblem(plate: string, region: string, vehicles: readonly Vehicle[]): string | undefined {
  const p = normPlate(plate);
  if (!p) return 'Enter the licence plate';
  if (!/^[A-Z0-9]{2,8}$/.test(p)) return 'Plates are 2 to 8 letters or numbers';
  if (vehicles.some((v) => v.plate === p && v.region === region)) return 'This vehicle is already on your account';
  return undefined;
}
