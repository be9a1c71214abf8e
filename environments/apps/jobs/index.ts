import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleJobs } from './app.js';
import { jobsCheckers } from './checkers.js';
import { initialJobsState, type JobsState } from './state.js';

export const JOBS_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Hirewell, a job search app for hourly and entry-level work (Jobs with search, city chips and postings; Applications
 * with active and closed applications and interview requests; Alerts; Profile with résumés and preferences): apply for
 * a job with a chosen résumé and start date, book a time for an interview an employer requested, withdraw an
 * application with a reason, create a job alert. Added as a held-out app, written blind: its author read only the app
 * format (`environments/**`, `domain/dag.ts`, the app tests) and the earlier paraphrase sets, never the policy, critics
 * or query generator's consumers.
 */
export const jobsApp: AppModule<JobsState> = {
  id: 'jobs',
  title: 'Hirewell',
  icon: { color: '#5f3dc4', glyph: 'Hw' },
  dag: loadDag(JOBS_DAG_PATH, 'environments/apps/jobs/dag.json'),
  initialState: initialJobsState,
  handle: handleJobs,
  checkers: jobsCheckers,
};
