import { rng } from '../shared.js';
import { SEEDED_EVENTS, TIMES, isoDate } from './catalog.js';

export interface CalEvent {
  id: string;
  title: string;
  /** ISO date, e.g. 2025-06-14. */
  date: string;
  /** 24-hour HH:MM. */
  time: string;
  /** True for events created during this session. */
  created: boolean;
}

/** Calendar's per-session state; read by the checkers in-process. */
export interface CalendarState {
  seed: number;
  events: CalEvent[];
  initialIds: string[];
  /** Months shown in the month view (YYYY-MM), in order. */
  monthViews: string[];
  deleted: { id: string; title: string; seq: number }[];
  nextId: number;
  seq: number;
}

export function initialCalendarState(seed: number): CalendarState {
  const rand = rng(seed ^ 0xca1e);
  const events: CalEvent[] = SEEDED_EVENTS.map((title, i) => ({
    id: `e${i + 1}`,
    title,
    date: isoDate(6 + Math.floor(rand() * 3), 1 + Math.floor(rand() * 28)),
    time: TIMES[Math.floor(rand() * TIMES.length)] ?? '09:00',
    created: false,
  }));
  return { seed, events, initialIds: events.map((e) => e.id), monthViews: [], deleted: [], nextId: 100, seq: 0 };
}
