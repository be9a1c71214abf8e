import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleFitness } from './app.js';
import { fitnessCheckers } from './checkers.js';
import { initialFitnessState, type FitnessState } from './state.js';

export const FITNESS_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Gym class booking, added after the policy freeze and written blind: its author read only the app format
 * (`environments/apps/**`, `domain/dag.ts`, app tests), never the policy, critics or earlier wording sets.
 */
export const fitnessApp: AppModule<FitnessState> = {
  id: 'fitness',
  title: 'PulseFit',
  icon: { color: '#c2255c', glyph: 'PF' },
  dag: loadDag(FITNESS_DAG_PATH, 'environments/apps/fitness/dag.json'),
  initialState: initialFitnessState,
  handle: handleFitness,
  checkers: fitnessCheckers,
};
