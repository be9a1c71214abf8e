import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleCarshare } from './app.js';
import { carshareCheckers } from './checkers.js';
import { initialCarshareState, type CarshareState } from './state.js';

export const CARSHARE_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Wheelnook, a car-sharing app (Find with a search box, car types and nearby locations; Trips, upcoming and past;
 * Wallet; Account with the drivers on it): reserve a car by the hour for a day, start time and length, extend a
 * current or upcoming trip, report damage on a recent trip, add a driver to the account. Added as a held-out app,
 * written blind: its author read only the app format (`environments/**`, `domain/dag.ts`, the app tests) and the
 * earlier paraphrase sets, never the policy, critics or query generator's consumers.
 */
export const carshareApp: AppModule<CarshareState> = {
  id: 'carshare',
  title: 'Wheelnook',
  icon: { color: '#3b5bdb', glyph: 'Wn' },
  dag: loadDag(CARSHARE_DAG_PATH, 'environments/apps/carshare/dag.json'),
  initialState: initialCarshareState,
  handle: handleCarshare,
  checkers: carshareCheckers,
};
