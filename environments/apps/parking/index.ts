import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleParking } from './app.js';
import { parkingCheckers } from './checkers.js';
import { initialParkingState, type ParkingState } from './state.js';

export const PARKING_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * ParkSpot, a street parking app (pay for a zone by the meter sign, extend or stop running sessions, email
 * receipts, manage vehicles). Added as a held-out app, written blind: without reading the reference policy's,
 * the critics' or the query generator's code, nor the earlier paraphrase sets.
 */
export const parkingApp: AppModule<ParkingState> = {
  id: 'parking',
  title: 'ParkSpot',
  icon: { color: '#5f3dc4', glyph: 'P' },
  dag: loadDag(PARKING_DAG_PATH, 'environments/apps/parking/dag.json'),
  initialState: initialParkingState,
  handle: handleParking,
  checkers: parkingCheckers,
};
