import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleVet } from './app.js';
import { vetCheckers } from './checkers.js';
import { initialVetState, type VetState } from './state.js';

export const VET_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * PawPoint, the app of a veterinary clinic (book a visit for a pet, cancel one, ask for a prescription refill, add a
 * pet to the account). Added as a held-out app, written blind: its author read only the app format
 * (`environments/**`, `domain/dag.ts`, the app tests), never the policy, critics or query generator, nor the earlier
 * paraphrase sets.
 */
export const vetApp: AppModule<VetState> = {
  id: 'vet',
  title: 'PawPoint',
  icon: { color: '#0b7285', glyph: 'PP' },
  dag: loadDag(VET_DAG_PATH, 'environments/apps/vet/dag.json'),
  initialState: initialVetState,
  handle: handleVet,
  checkers: vetCheckers,
};
