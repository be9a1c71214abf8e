import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleHotel } from './app.js';
import { hotelCheckers } from './checkers.js';
import { initialHotelState, type HotelState } from './state.js';

export const HOTEL_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Lodgerra, a hotel booking app (Explore with hotels in three cities; Trips with upcoming and past stays; Account):
 * book a room for some nights, cancel a booking, check in online for a stay that is about to start, review a past
 * stay. Added as a held-out app, written blind: its author read only the app format (`environments/**`,
 * `domain/dag.ts`, the app tests) and the earlier paraphrase sets, never the policy, critics or query generator.
 */
export const hotelApp: AppModule<HotelState> = {
  id: 'hotel',
  title: 'Lodgerra',
  icon: { color: '#1d4e89', glyph: 'Lg' },
  dag: loadDag(HOTEL_DAG_PATH, 'environments/apps/hotel/dag.json'),
  initialState: initialHotelState,
  handle: handleHotel,
  checkers: hotelCheckers,
};
