import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handlePlants } from './app.js';
import { plantsCheckers } from './checkers.js';
import { initialPlantsState, type PlantsState } from './state.js';

export const PLANTS_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Fernly, a houseplant care app (a Today list of plants due for water or fertilizer, My plants by room, each plant's
 * care history and schedule: add a plant, log care, change a plant's watering and fertilizing schedule, remove a plant).
 * Added as a held-out app, written blind: its author read only the app format (`environments/**`, `domain/dag.ts`, the
 * app tests), never the policy, critics or query generator, nor the earlier paraphrase sets but ReelPass's.
 */
export const plantsApp: AppModule<PlantsState> = {
  id: 'plants',
  title: 'Fernly',
  icon: { color: '#2b7a4b', glyph: 'Fe' },
  dag: loadDag(PLANTS_DAG_PATH, 'environments/apps/plants/dag.json'),
  initialState: initialPlantsState,
  handle: handlePlants,
  checkers: plantsCheckers,
};
