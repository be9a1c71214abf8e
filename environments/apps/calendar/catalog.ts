/**
 * Calendar's fixed data: the year shown, seeded event titles (near-duplicates on purpose: Team Meeting /
 * Team Meeting Prep, Lunch with Sara / Lunch with Sarah), and the values tasks draw from.
 */
export const YEAR = 2025;
/** "Today" on the phone (the launcher shows Monday, June 2). */
export const TODAY = '2025-06-02';
/** Months the calendar pages through (1-based month numbers). */
export const MONTH_RANGE = [5, 6, 7, 8, 9] as const;
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

export const SEEDED_EVENTS = [
  'Team Meeting',
  'Team Meeting Prep',
  'Dentist Appointment',
  'Dentist Follow-up',
  'Yoga Class',
  'Project Review',
  'Lunch with Sara',
  'Lunch with Sarah',
  'Car Service',
  'Piano Lesson',
  'Flight to Lisbon',
  'Book Club',
] as const;

/** Times offered by the new-event form: 08:00 to 19:30 every half hour. */
export const TIMES: readonly string[] = Array.from({ length: 24 }, (_, i) => `${String(8 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`);

/** Task values for create_event. */
export const NEW_TITLES = ['Haircut', 'Parent Teacher Meeting', 'Soccer Practice', 'Call with Grandma'] as const;
export const TASK_MONTHS = ['June', 'July', 'August'] as const;
export const TASK_DAYS: readonly string[] = Array.from({ length: 28 }, (_, i) => String(i + 1));
export const TASK_TIMES = ['09:00', '10:30', '13:00', '15:30', '18:00'] as const;

export const daysIn = (month: number): number => new Date(Date.UTC(YEAR, month, 0)).getUTCDate();
/** 0 = Monday. */
export const weekdayOf = (iso: string): number => (new Date(`${iso}T00:00:00Z`).getUTCDay() + 6) % 7;
export const isoDate = (month: number, day: number): string => `${YEAR}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
export const monthIndex = (name: string): number => MONTH_NAMES.findIndex((m) => m.toLowerCase() === name.trim().toLowerCase()) + 1;

export function longDate(iso: string): string {
  const [, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${WEEKDAYS[weekdayOf(iso)] ?? ''}, ${MONTH_NAMES[m - 1] ?? ''} ${d}, ${YEAR}`;
}
