import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handlePharmacy } from './app.js';
import { pharmacyCheckers } from './checkers.js';
import { initialPharmacyState, type PharmacyState } from './state.js';

export const PHARMACY_DAG_PATH = new URL('./dag.json', import.meta.url);

/** Added after the reference policy and critics were frozen a second time (issue 17, part A): none of their code was written against it. */
export const pharmacyApp: AppModule<PharmacyState> = {
  id: 'pharmacy',
  title: 'Pharmacy',
  icon: { color: '#0b7285', glyph: 'Rx' },
  dag: loadDag(PHARMACY_DAG_PATH, 'environments/apps/pharmacy/dag.json'),
  initialState: initialPharmacyState,
  handle: handlePharmacy,
  checkers: pharmacyCheckers,
};
