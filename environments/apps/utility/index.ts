import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleUtility } from './app.js';
import { utilityCheckers } from './checkers.js';
import { initialUtilityState, type UtilityState } from './state.js';

export const UTILITY_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Norvale, a household's electricity, gas and water supplier app (Home with the balance and meters; Readings to send
 * meter readings; Billing with bills, payments and the Direct Debit; Account with a smart meter booking and
 * preferences): submit a meter reading, pay towards the balance by card, move the Direct Debit date, book a smart meter
 * installation. Added as a held-out app, written blind: its author read only the app format (`environments/**`,
 * `domain/dag.ts`, the app tests) and the earlier paraphrase sets, never the policy, critics or query generator.
 */
export const utilityApp: AppModule<UtilityState> = {
  id: 'utility',
  title: 'Norvale',
  icon: { color: '#0f766e', glyph: 'Nv' },
  dag: loadDag(UTILITY_DAG_PATH, 'environments/apps/utility/dag.json'),
  initialState: initialUtilityState,
  handle: handleUtility,
  checkers: utilityCheckers,
};
