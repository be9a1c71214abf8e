import { rng } from '../shared.js';

/** One class on this week's timetable. */
export interface GymClass {
  id: number;
  /** Class name ("Spin 45", "Vinyasa Flow Express"); near-duplicates share a prefix. */
  name: string;
  /** Index into DAYS (0 = Monday, today). */
  day: number;
  /** Start time label ("5:45 PM"). */
  time: string;
  /** Minutes after midnight, for ordering and "has it started". */
  startMin: number;
  instructor: string;
  capacity: number;
  /** Spots taken by other members at the start of the session. */
  taken: number;
}

/** A booking; seeded bookings have `seeded: true`. */
export interface Booking {
  id: number;
  classId: number;
  active: boolean;
  seeded: boolean;
  /** Order in which it was made or cancelled in this session (0 for untouched seeded bookings). */
  seq: number;
}

export interface GuestPass {
  name: string;
  email: string;
  /** Index into DAYS for this week's invites; -1 for passes from earlier in the month. */
  day: number;
  seeded: boolean;
}

/** PulseFit's per-session state. Read by checkers in-process; the page never sees this object. */
export interface FitnessState {
  seed: number;
  classes: GymClass[];
  bookings: Booking[];
  /** Class ids this member joined the waitlist of. */
  waitlist: number[];
  credits: number;
  guests: GuestPass[];
  seq: number;
}

export const DAYS: readonly string[] = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
export const DATES: readonly string[] = ['June 16', 'June 17', 'June 18', 'June 19', 'June 20', 'June 21', 'June 22'];
/** It is Monday, 9:41 AM. */
export const NOW_MIN = 9 * 60 + 41;
export const GUEST_PASSES_PER_MONTH = 3;
export const START_CREDITS = 6;
/** Cancelling later than this before the class keeps the credit. */
export const LATE_CANCEL_MIN = 8 * 60;

/** Minutes, studio, category, one line about the class. */
export const CLASS_INFO: Readonly<Record<string, readonly [number, string, string, string]>> = {
  'Spin 45': [45, 'Ride Studio', 'Cycle', 'Intervals and climbs on the bike, all levels.'],
  'Spin 30': [30, 'Ride Studio', 'Cycle', 'A short, fast ride. Bring water.'],
  'Vinyasa Flow': [60, 'Studio B', 'Yoga', 'Breath-led flowing sequences with a long cool-down.'],
  'Vinyasa Flow Express': [30, 'Studio B', 'Yoga', 'The same flow, condensed into half an hour.'],
  'Yin Yoga': [60, 'Studio B', 'Yoga', 'Slow, long-held floor poses to stretch and unwind.'],
  HIIT: [45, 'Studio A', 'Strength', 'Full-body high-intensity intervals.'],
  'HIIT Core': [30, 'Studio A', 'Strength', 'Intervals focused on abs and lower back.'],
  'Strength Lab': [60, 'Weights Floor', 'Strength', 'Coached barbell and dumbbell work.'],
  'Pilates Mat': [50, 'Studio B', 'Pilates', 'Mat Pilates for core and posture.'],
  'Pilates Reformer': [50, 'Reformer Room', 'Pilates', 'Pilates on reformer machines, 8 per class.'],
  'Boxing Basics': [45, 'Studio A', 'Boxing', 'Stance, footwork and combinations on the bags.'],
  'Boxing Conditioning': [45, 'Studio A', 'Boxing', 'Bag rounds plus conditioning circuits.'],
};
export const CATEGORIES: readonly string[] = ['All', 'Yoga', 'Cycle', 'Strength', 'Pilates', 'Boxing'];

/** Day, start time, class, instructor, capacity, spots taken (a full class has taken === capacity). */
const TIMETABLE: readonly (readonly [number, string, string, string, number, number])[] = [
  [0, '6:30 AM', 'Spin 45', 'Dana Brooks', 20, 17],
  [0, '7:30 AM', 'Vinyasa Flow', 'Leah Moreno', 24, 20],
  [0, '12:00 PM', 'HIIT Core', 'Marcus Hale', 16, 11],
  [0, '5:30 PM', 'Pilates Mat', 'Ines Kovac', 18, 9],
  [0, '6:30 PM', 'Boxing Basics', 'Tom Reyes', 14, 14],
  [0, '7:30 PM', 'Vinyasa Flow Express', 'Leah Moreno', 24, 12],
  [1, '6:30 AM', 'HIIT', 'Marcus Hale', 16, 10],
  [1, '7:00 AM', 'Spin 30', 'Dana Brooks', 20, 13],
  [1, '9:00 AM', 'Pilates Reformer', 'Ines Kovac', 8, 8],
  [1, '12:15 PM', 'Strength Lab', 'Sofia Lind', 12, 5],
  [1, '5:45 PM', 'Spin 45', 'Dana Brooks', 20, 18],
  [1, '6:45 PM', 'Yin Yoga', 'Priya Anand', 24, 15],
  [1, '7:45 PM', 'Boxing Conditioning', 'Tom Reyes', 14, 9],
  [2, '6:30 AM', 'Spin 30', 'Jae Park', 20, 8],
  [2, '7:30 AM', 'Vinyasa Flow', 'Leah Moreno', 24, 19],
  [2, '12:00 PM', 'HIIT Core', 'Marcus Hale', 16, 7],
  [2, '5:30 PM', 'Boxing Basics', 'Tom Reyes', 14, 10],
  [2, '6:30 PM', 'Pilates Mat', 'Ines Kovac', 18, 12],
  [2, '7:30 PM', 'Vinyasa Flow Express', 'Priya Anand', 24, 16],
  [3, '6:30 AM', 'HIIT', 'Marcus Hale', 16, 12],
  [3, '9:00 AM', 'Pilates Reformer', 'Ines Kovac', 8, 6],
  [3, '12:15 PM', 'Strength Lab', 'Sofia Lind', 12, 7],
  [3, '5:45 PM', 'Spin 45', 'Jae Park', 20, 16],
  [3, '6:45 PM', 'Yin Yoga', 'Priya Anand', 24, 24],
  [3, '7:45 PM', 'Boxing Conditioning', 'Tom Reyes', 14, 11],
  [4, '6:30 AM', 'Spin 30', 'Dana Brooks', 20, 9],
  [4, '7:30 AM', 'Vinyasa Flow', 'Leah Moreno', 24, 14],
  [4, '12:00 PM', 'HIIT', 'Marcus Hale', 16, 8],
  [4, '5:30 PM', 'Strength Lab', 'Sofia Lind', 12, 10],
  [4, '6:30 PM', 'Spin 45', 'Jae Park', 20, 15],
  [5, '8:00 AM', 'Spin 45', 'Dana Brooks', 20, 14],
  [5, '9:00 AM', 'Pilates Reformer', 'Ines Kovac', 8, 7],
  [5, '10:00 AM', 'Vinyasa Flow', 'Priya Anand', 24, 18],
  [5, '11:00 AM', 'Boxing Basics', 'Tom Reyes', 14, 14],
  [5, '12:00 PM', 'HIIT Core', 'Marcus Hale', 16, 6],
  [6, '9:00 AM', 'Yin Yoga', 'Priya Anand', 24, 10],
  [6, '10:00 AM', 'Pilates Mat', 'Ines Kovac', 18, 8],
  [6, '11:00 AM', 'Spin 30', 'Jae Park', 20, 11],
  [6, '5:00 PM', 'Vinyasa Flow Express', 'Leah Moreno', 24, 9],
];

/** Classes booked when a session starts, by day and name (the same for every seed). */
export const SEEDED_BOOKINGS: readonly (readonly [number, string])[] = [
  [0, 'HIIT Core'],
  [1, 'Spin 45'],
  [2, 'Vinyasa Flow'],
  [2, 'Vinyasa Flow Express'],
  [3, 'Spin 45'],
  [5, 'Pilates Reformer'],
];

/** Guest passes already used this month. */
export const SEEDED_GUESTS: readonly (readonly [string, string])[] = [['Jordan Lee', 'jordan.lee@example.com']];

export const CLASS_NAMES: readonly string[] = Object.keys(CLASS_INFO);

export const toMin = (t: string): number => {
  const m = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(t);
  if (!m) throw new Error(`bad time ${t}`);
  return ((Number(m[1]) % 12) + (m[3] === 'PM' ? 12 : 0)) * 60 + Number(m[2]);
};

export function initialFitnessState(seed: number): FitnessState {
  const rand = rng(seed ^ 0x6f17a5);
  const classes = TIMETABLE.map(([day, time, name, instructor, capacity, taken], i) => {
    // Seeds vary how busy open classes are by a spot or two; full classes stay full and open ones stay open.
    const jitter = taken < capacity - 2 ? Math.floor(rand() * 3) - 1 : 0;
    return { id: 101 + i, name, day, time, startMin: toMin(time), instructor, capacity, taken: taken + jitter };
  });
  const bookings = SEEDED_BOOKINGS.map(([day, name], i) => {
    const c = classes.find((x) => x.day === day && x.name === name);
    if (!c) throw new Error(`no class ${name} on day ${day}`);
    return { id: 501 + i, classId: c.id, active: true, seeded: true, seq: 0 };
  });
  return {
    seed,
    classes,
    bookings,
    waitlist: [],
    credits: START_CREDITS,
    guests: SEEDED_GUESTS.map(([name, email]) => ({ name, email, day: -1, seeded: true })),
    seq: 0,
  };
}

export const isFull = (c: GymClass, st: FitnessState): boolean => spotsLeft(c, st) <= 0;
/** Spots left, counting this member's own booking. */
export const spotsLeft = (c: GymClass, st: FitnessState): number =>
  c.capacity - c.taken - st.bookings.filter((b) => b.active && b.classId === c.id).length;
export const hasEnded = (c: GymClass): boolean => c.day === 0 && c.startMin <= NOW_MIN;
export const activeBooking = (st: FitnessState, c: GymClass): Booking | undefined => st.bookings.find((b) => b.active && b.classId === c.id);
/** Minutes from now until the class starts. */
export const minutesUntil = (c: GymClass): number => c.day * 24 * 60 + c.startMin - NOW_MIN;

/** Classes that can be booked in a fresh session: not ended, not full, not already booked (the DAG's values). */
export function bookable(st: FitnessState): GymClass[] {
  return st.classes.filter((c) => !hasEnded(c) && !isFull(c, st) && !activeBooking(st, c));
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;
