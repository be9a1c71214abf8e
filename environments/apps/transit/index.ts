import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleTransit } from './app.js';
import { transitCheckers } from './checkers.js';
import { initialTransitState, type TransitState } from './state.js';

export const TRANSIT_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Added after the reference policy and critics were frozen (issue 17's held-out app), written without reading
 * their code: none of it was written against this app.
 */
export const transitApp: AppModule<TransitState> = {
  id: 'transit',
  title: 'Transit',
  icon: { color: '#e8590c', glyph: 'T' },
  dag: loadDag(TRANSIT_DAG_PATH, 'environments/apps/transit/dag.json'),
  initialState: initialTransitState,
  handle: handleTransit,
  checkers: transitCheckers,
};
