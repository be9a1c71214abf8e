import { rng } from '../shared.js';
import { SEED_ALARMS } from './catalog.js';

export interface Alarm {
  id: number;
  label: string;
  hour: number;
  minute: string;
  ampm: 'AM' | 'PM';
  days: string[];
  on: boolean;
  seeded: boolean;
  deleted: boolean;
  seq: number;
}

/** Clock's per-session state. Read by checkers in-process; the page never sees this object. */
export interface ClockState {
  seed: number;
  alarms: Alarm[];
  settings: { snooze: string; silenceAfter: string; weekStart: string; gradual: boolean; vibrate: boolean; seconds: boolean; autoHome: boolean };
  /** Timer and stopwatch are deterministic (no clock is read): they only record what was pressed. */
  timer: { minutes: number; running: boolean };
  stopwatch: { running: boolean; laps: number };
  nextId: number;
  seq: number;
}

export function initialClockState(seed: number): ClockState {
  const rand = rng((seed ^ 0xc10c) >>> 0);
  const alarms: Alarm[] = SEED_ALARMS.map((a, i) => ({ id: i + 1, ...a, days: [...a.days], on: rand() < 0.5, seeded: true, deleted: false, seq: 0 }));
  return {
    seed,
    alarms,
    settings: { snooze: '10 minutes', silenceAfter: '10 minutes', weekStart: 'Monday', gradual: rand() < 0.5, vibrate: true, seconds: false, autoHome: true },
    timer: { minutes: 5, running: false },
    stopwatch: { running: false, laps: 0 },
    nextId: alarms.length + 1,
    seq: 0,
  };
}
