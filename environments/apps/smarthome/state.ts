import { rng } from '../shared.js';

export type DeviceKind = 'Light' | 'Plug' | 'Fan' | 'Thermostat';

export interface Device {
  id: number;
  /** Name as the household set it up ("Bedside Lamp 2"); near-duplicates share a prefix. */
  name: string;
  room: string;
  kind: DeviceKind;
  /** Power state; always false for the thermostat, which has no power switch. */
  on: boolean;
  /** Brightness for lights, watts drawn when on for plugs and fans (seeded). */
  level: number;
}

export interface Lock {
  id: number;
  name: string;
  locked: boolean;
  /** Has a keypad, so access codes can be added for it. */
  keypad: boolean;
  battery: number;
  model: string;
  /** Locked or unlocked in this session (its "since" time is then now). */
  touched: boolean;
}

/** A keypad access code for a guest. */
export interface AccessCode {
  name: string;
  door: string;
  code: string;
  schedule: string;
  /** Added in this session (the ones the household had before are not). */
  added: boolean;
}

/** HomeHub's per-session state. Read by checkers in-process; the page never sees this object. */
export interface SmartHomeState {
  seed: number;
  devices: Device[];
  locks: Lock[];
  /** Auto-lock delay label ("Off", "5 minutes"). */
  autoLock: string;
  /** "Lock when everyone leaves" (geofence) switch. */
  awayLock: boolean;
  codes: AccessCode[];
  /** What was done in this session, oldest first, for the Activity tab. */
  log: string[];
  /** Indoor temperature in °F shown on the home tab and the thermostat. */
  insideF: number;
  seq: number;
}

/** Name, room, kind, on at the start of a session (the same for every seed). */
const DEVICES: readonly (readonly [string, string, DeviceKind, boolean])[] = [
  ['Living Room Lamp', 'Living Room', 'Light', true],
  ['Living Room Lights', 'Living Room', 'Light', false],
  ['TV Backlight', 'Living Room', 'Light', false],
  ['Kitchen Light', 'Kitchen', 'Light', true],
  ['Kitchen Light Strip', 'Kitchen', 'Light', false],
  ['Coffee Maker', 'Kitchen', 'Plug', false],
  ['Hallway Thermostat', 'Hallway', 'Thermostat', false],
  ['Bedside Lamp', 'Bedroom', 'Light', false],
  ['Bedside Lamp 2', 'Bedroom', 'Light', true],
  ['Ceiling Fan', 'Bedroom', 'Fan', true],
  ['Desk Lamp', 'Office', 'Light', true],
  ['Space Heater', 'Office', 'Plug', false],
  ['Porch Light', 'Outside', 'Light', true],
  ['Porch String Lights', 'Outside', 'Light', false],
  ['Garden Lights', 'Outside', 'Light', false],
];

/** Name, locked at the start, keypad, model (the same for every seed). */
const LOCKS: readonly (readonly [string, boolean, boolean, string])[] = [
  ['Front Door', true, true, 'Yale Assure Lock 2'],
  ['Front Gate', true, true, 'Lockly Vision Gate'],
  ['Back Door', true, true, 'Yale Assure Lock 2'],
  ['Back Gate', true, true, 'Lockly Vision Gate'],
  ['Garage Entry', true, true, 'Schlage Encode'],
  ['Garage Side Door', true, true, 'Schlage Encode'],
  ['Shed', false, false, 'August Smart Lock'],
];

export const ROOMS: readonly string[] = [...new Set(DEVICES.map(([, r]) => r))];
export const DEVICE_NAMES: readonly string[] = DEVICES.map(([n]) => n);
/** The devices with a power switch (all but the thermostat). */
export const SWITCHABLE: readonly string[] = DEVICES.filter(([, , k]) => k !== 'Thermostat').map(([n]) => n);
/** Whether each device is on when a session starts (the same for every seed). */
export const DEVICE_ON: Readonly<Record<string, boolean>> = Object.fromEntries(DEVICES.map(([n, , , on]) => [n, on]));
export const LOCK_NAMES: readonly string[] = LOCKS.map(([n]) => n);
/** Whether each lock is locked when a session starts. */
export const LOCKED: Readonly<Record<string, boolean>> = Object.fromEntries(LOCKS.map(([n, l]) => [n, l]));
/** Locks with a keypad: the ones an access code can be made for. */
export const KEYPAD_LOCKS: readonly string[] = LOCKS.filter(([, , k]) => k).map(([n]) => n);
export const AUTO_LOCK_OPTIONS: readonly string[] = ['Off', '30 seconds', '1 minute', '3 minutes', '5 minutes', '10 minutes', '30 minutes'];
export const DEFAULT_AUTO_LOCK = 'Off';
export const SCHEDULES: readonly string[] = ['Always', 'Weekdays, 8 AM – 6 PM', 'Weekends only', 'One time'];
export const NAME_MAX = 24;
export const CODE_MIN = 4;
export const CODE_MAX = 8;

/** Access codes the household already has. */
const CODES: readonly (readonly [string, string, string, string])[] = [
  ['Marta (cleaner)', 'Front Door', '5521', 'Weekdays, 8 AM – 6 PM'],
  ['Grandma', 'Front Door', '1947', 'Always'],
  ['Tom next door', 'Back Gate', '3608', 'Always'],
];

export function initialSmartHomeState(seed: number): SmartHomeState {
  const rand = rng(seed ^ 0x40e5a1);
  const devices = DEVICES.map(([name, room, kind, on], i) => ({
    id: i + 1,
    name,
    room,
    kind,
    on,
    level: kind === 'Light' ? 40 + 10 * Math.floor(rand() * 7) : kind === 'Plug' ? 800 + 100 * Math.floor(rand() * 8) : 35 + Math.floor(rand() * 20),
  }));
  return {
    seed,
    devices,
    locks: LOCKS.map(([name, locked, keypad, model], i) => ({ id: i + 1, name, locked, keypad, model, battery: 35 + Math.floor(rand() * 64), touched: false })),
    autoLock: DEFAULT_AUTO_LOCK,
    awayLock: false,
    codes: CODES.map(([name, door, code, schedule]) => ({ name, door, code, schedule, added: false })),
    log: [],
    insideF: 66 + Math.floor(rand() * 6),
    seq: 0,
  };
}

/** Why a keypad code cannot be used, or undefined when it can. */
export function codeProblem(code: string, taken: readonly string[]): string | undefined {
  if (!code) return 'Enter a code';
  if (!/^\d+$/.test(code) || code.length < CODE_MIN || code.length > CODE_MAX) return `Codes are ${CODE_MIN} to ${CODE_MAX} digits`;
  const steps = [...code].slice(1).map((c, i) => Number(c) - Number(code[i]));
  if (steps.every((s) => s === 0) || steps.every((s) => s === 1) || steps.every((s) => s === -1)) return 'That code is too easy to guess';
  if (taken.includes(code)) return 'Someone already has that code';
  return undefined;
}
