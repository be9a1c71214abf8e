import { readFileSync } from 'node:fs';
import { AppDag } from '../../../domain/dag.js';
import { parseOrThrow } from '../../../domain/errors.js';
import type { AppModule } from '../../app-types.js';
import { handleCalendar } from './app.js';
import { calendarCheckers } from './checkers.js';
import { initialCalendarState, type CalendarState } from './state.js';

export const CALENDAR_DAG_PATH = new URL('./dag.json', import.meta.url);

export function loadCalendarDag(): AppDag {
  return parseOrThrow(AppDag, JSON.parse(readFileSync(CALENDAR_DAG_PATH, 'utf8')), 'environments/apps/calendar/dag.json');
}

export const calendarApp: AppModule<CalendarState> = {
  id: 'calendar',
  title: 'Calendar',
  icon: { color: '#5f3dc4', glyph: '31' },
  dag: loadCalendarDag(),
  initialState: initialCalendarState,
  handle: handleCalendar,
  checkers: calendarCheckers,
};
