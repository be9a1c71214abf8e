import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleFlights } from './app.js';
import { flightsCheckers } from './checkers.js';
import { initialFlightsState, type FlightsState } from './state.js';

export const FLIGHTS_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Zephra, an airline's passenger app (Home with the flights open for check-in and deals; Book to search and pay for
 * flights; Trips with each booking's flights, passengers, seats and bags; Profile): book a one-way flight, choose a
 * seat, add a checked bag, check in. Added as a held-out app, written blind: its author read only the app format
 * (`environments/**`, `domain/dag.ts`, the app tests) and the earlier paraphrase sets, never the policy, critics or
 * query generator.
 */
export const flightsApp: AppModule<FlightsState> = {
  id: 'flights',
  title: 'Zephra',
  icon: { color: '#1e3a8a', glyph: 'Zp' },
  dag: loadDag(FLIGHTS_DAG_PATH, 'environments/apps/flights/dag.json'),
  initialState: initialFlightsState,
  handle: handleFlights,
  checkers: flightsCheckers,
};
