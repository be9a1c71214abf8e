import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleParcels } from './app.js';
import { parcelCheckers } from './checkers.js';
import { initialParcelState, type ParcelState } from './state.js';

export const PARCELS_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * ParcelHub, a parcel delivery app (follow incoming packages, move a delivery to another day or to a pickup
 * point, track a package by number, buy a label to send one). Added as a held-out app, written blind: its
 * author read only the app format (`environments/**`, `domain/dag.ts`, the app tests), never the policy,
 * critics or query generator, nor the earlier paraphrase sets.
 */
export const parcelsApp: AppModule<ParcelState> = {
  id: 'parcels',
  title: 'ParcelHub',
  icon: { color: '#8a4b14', glyph: 'PH' },
  dag: loadDag(PARCELS_DAG_PATH, 'environments/apps/parcels/dag.json'),
  initialState: initialParcelState,
  handle: handleParcels,
  checkers: parcelCheckers,
};
