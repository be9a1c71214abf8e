import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleRepairs } from './app.js';
import { repairsCheckers } from './checkers.js';
import { initialRepairsState, type RepairsState } from './state.js';

export const REPAIRS_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Mendwick, a home-repair app (Home with trades, search and top-rated pros; Visits, upcoming and past; Projects with
 * quote requests; Account): book a pro for a repair on a day and arrival window, move an upcoming visit to another
 * time, ask local pros for quotes on a bigger project, pay a finished visit's invoice with a tip. Added as a held-out
 * app, written blind: its author read only the app format (`environments/**`, `domain/dag.ts`, the app tests) and the
 * earlier paraphrase sets, never the policy, critics or query generator's consumers.
 */
export const repairsApp: AppModule<RepairsState> = {
  id: 'repairs',
  title: 'Mendwick',
  icon: { color: '#0f6e56', glyph: 'Mw' },
  dag: loadDag(REPAIRS_DAG_PATH, 'environments/apps/repairs/dag.json'),
  initialState: initialRepairsState,
  handle: handleRepairs,
  checkers: repairsCheckers,
};
