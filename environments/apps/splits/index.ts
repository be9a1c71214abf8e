import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleSplits } from './app.js';
import { splitsCheckers } from './checkers.js';
import { initialSplitsState, type SplitsState } from './state.js';

export const SPLITS_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Splitto, an app for splitting shared expenses with friends (Groups with each group's expenses and balances, Friends,
 * Activity, Account: add an expense, fix an expense's amount, settle up a balance with a friend, delete an expense).
 * Added as a held-out app, written blind: its author read only the app format (`environments/**`, `domain/dag.ts`, the
 * app tests) and Fernly's paraphrase set, never the policy, critics or query generator.
 */
export const splitsApp: AppModule<SplitsState> = {
  id: 'splits',
  title: 'Splitto',
  icon: { color: '#0f766e', glyph: 'Sp' },
  dag: loadDag(SPLITS_DAG_PATH, 'environments/apps/splits/dag.json'),
  initialState: initialSplitsState,
  handle: handleSplits,
  checkers: splitsCheckers,
};
