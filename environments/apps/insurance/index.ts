import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleInsurance } from './app.js';
import { insuranceCheckers } from './checkers.js';
import { initialInsuranceState, type InsuranceState } from './state.js';

export const INSURANCE_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Brellow, a home-and-contents and car insurance policyholder app (Home with the member's policies and quick actions,
 * Policies with Overview / Cover / Documents tabs per policy, Claims with a three-step claim form, Payments per policy
 * with a payment-method chooser, Documents with a policy filter and a send-a-copy sheet, Account): file a claim, list a
 * valuable on a home policy, request a copy of a document, change how a policy is paid. Added as a held-out app, written
 * blind: its author read only the app format (`environments/**`, `domain/dag.ts`, the app tests) and one earlier
 * paraphrase set as a format example, never the policy, critics or query generator's consumers.
 */
export const insuranceApp: AppModule<InsuranceState> = {
  id: 'insurance',
  title: 'Brellow',
  icon: { color: '#0b6e6a', glyph: 'Br' },
  dag: loadDag(INSURANCE_DAG_PATH, 'environments/apps/insurance/dag.json'),
  initialState: initialInsuranceState,
  handle: handleInsurance,
  checkers: insuranceCheckers,
};
