export const HOURS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'] as const;
export const MINUTES = ['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55'] as const;
export const AMPM = ['AM', 'PM'] as const;
export const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export const NEW_LABELS = ['Dentist', 'Call Mom', 'Yoga', 'Pick up kids', 'Laundry'] as const;
export const SNOOZE = ['5 minutes', '10 minutes', '15 minutes', '20 minutes', '30 minutes'] as const;
export const SILENCE_AFTER = ['1 minute', '5 minutes', '10 minutes', 'Never'] as const;
export const WEEK_START = ['Saturday', 'Sunday', 'Monday'] as const;

export interface SeedAlarm {
  label: string;
  hour: number;
  minute: string;
  ampm: 'AM' | 'PM';
  days: string[];
}

/** Seeded alarms; near-duplicate labels on purpose (Work / Work late shift, Gym / Gym class). */
export const SEED_ALARMS: readonly SeedAlarm[] = [
  { label: 'Work', hour: 6, minute: '30', ampm: 'AM', days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] },
  { label: 'Work late shift', hour: 9, minute: '00', ampm: 'AM', days: ['Sat'] },
  { label: 'Gym', hour: 7, minute: '15', ampm: 'AM', days: ['Mon', 'Wed', 'Fri'] },
  { label: 'Gym class', hour: 6, minute: '00', ampm: 'PM', days: ['Tue', 'Thu'] },
  { label: 'Weekend', hour: 9, minute: '30', ampm: 'AM', days: ['Sat', 'Sun'] },
  { label: 'Medication', hour: 8, minute: '00', ampm: 'PM', days: [...DAYS] },
  { label: 'Take out trash', hour: 7, minute: '00', ampm: 'PM', days: ['Wed'] },
];
export const SEED_ALARM_LABELS: readonly string[] = SEED_ALARMS.map((a) => a.label);

export const fmtTime = (hour: number, minute: string, ampm: string): string => `${hour}:${minute} ${ampm}`;
export function fmtDays(days: readonly string[]): string {
  if (days.length === 0) return 'Not scheduled';
  if (days.length === 7) return 'Every day';
  if (days.length === 5 && !days.includes('Sat') && !days.includes('Sun')) return 'Weekdays';
  return DAYS.filter((d) => days.includes(d)).join(', ');
}
