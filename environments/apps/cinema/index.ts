import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleCinema } from './app.js';
import { cinemaCheckers } from './checkers.js';
import { initialCinemaState, type CinemaState } from './state.js';

export const CINEMA_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * ReelPass, a movie ticket app for one multiplex (buy tickets for a showtime and pick seats, cancel a booking for a
 * refund, set seat and reminder preferences, add a gift card to the wallet). Added as a held-out app, written blind:
 * its author read only the app format (`environments/**`, `domain/dag.ts`, the app tests), never the policy, critics
 * or query generator, nor the earlier paraphrase sets.
 */
export const cinemaApp: AppModule<CinemaState> = {
  id: 'cinema',
  title: 'ReelPass',
  icon: { color: '#6a1b9a', glyph: 'RP' },
  dag: loadDag(CINEMA_DAG_PATH, 'environments/apps/cinema/dag.json'),
  initialState: initialCinemaState,
  handle: handleCinema,
  checkers: cinemaCheckers,
};
