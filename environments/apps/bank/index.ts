import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleBank } from './app.js';
import { bankCheckers } from './checkers.js';
import { initialBankState, type BankState } from './state.js';

export const BANK_DAG_PATH = new URL('./dag.json', import.meta.url);

/** Added after the reference policy and critics were frozen a third time (issue 17): none of their code was written against it. */
export const bankApp: AppModule<BankState> = {
  id: 'bank',
  title: 'Bank',
  icon: { color: '#1d3f8f', glyph: '$' },
  dag: loadDag(BANK_DAG_PATH, 'environments/apps/bank/dag.json'),
  initialState: initialBankState,
  handle: handleBank,
  checkers: bankCheckers,
};
