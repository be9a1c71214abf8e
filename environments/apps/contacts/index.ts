import { readFileSync } from 'node:fs';
import { AppDag } from '../../../domain/dag.js';
import { parseOrThrow } from '../../../domain/errors.js';
import type { AppModule } from '../../app-types.js';
import { handleContacts } from './app.js';
import { contactsCheckers } from './checkers.js';
import { initialContactsState, type ContactsState } from './state.js';

export const CONTACTS_DAG_PATH = new URL('./dag.json', import.meta.url);

export function loadContactsDag(): AppDag {
  return parseOrThrow(AppDag, JSON.parse(readFileSync(CONTACTS_DAG_PATH, 'utf8')), 'environments/apps/contacts/dag.json');
}

export const contactsApp: AppModule<ContactsState> = {
  id: 'contacts',
  title: 'Contacts',
  icon: { color: '#1864ab', glyph: 'C' },
  dag: loadContactsDag(),
  initialState: initialContactsState,
  handle: handleContacts,
  checkers: contactsCheckers,
};
