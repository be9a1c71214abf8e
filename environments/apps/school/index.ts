import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleSchool } from './app.js';
import { schoolCheckers } from './checkers.js';
import { initialSchoolState, type SchoolState } from './state.js';

export const SCHOOL_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Bellwise, a primary school's parent app (Home with the children, quick actions, events and news; Lunches to order
 * each child's school lunch for the week; Clubs with each club's details and places; More with reported absences and
 * notification settings): report an absence, change a day's lunch, set quiet hours, cancel a club place. Added as a
 * held-out app, written blind: its author read only the app format (`environments/**`, `domain/dag.ts`, the app tests)
 * and the earlier paraphrase sets, never the policy, critics or query generator.
 */
export const schoolApp: AppModule<SchoolState> = {
  id: 'school',
  title: 'Bellwise',
  icon: { color: '#4338ca', glyph: 'Bw' },
  dag: loadDag(SCHOOL_DAG_PATH, 'environments/apps/school/dag.json'),
  initialState: initialSchoolState,
  handle: handleSchool,
  checkers: schoolCheckers,
};
