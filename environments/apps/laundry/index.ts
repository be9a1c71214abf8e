import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleLaundry } from './app.js';
import { laundryCheckers } from './checkers.js';
import { initialLaundryState, type LaundryState } from './state.js';

export const LAUNDRY_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * FreshFold, a laundry and dry-cleaning pickup app (schedule a pickup, report a problem with a cleaned item,
 * set how clothes are washed, save a pickup address). Added as a held-out app, written blind: its author read
 * only the app format (`environments/**`, `domain/dag.ts`, the app tests), never the policy, critics or query
 * generator, nor the earlier paraphrase sets.
 */
export const laundryApp: AppModule<LaundryState> = {
  id: 'laundry',
  title: 'FreshFold',
  icon: { color: '#1864ab', glyph: 'FF' },
  dag: loadDag(LAUNDRY_DAG_PATH, 'environments/apps/laundry/dag.json'),
  initialState: initialLaundryState,
  handle: handleLaundry,
  checkers: laundryCheckers,
};
