import { readFileSync } from 'node:fs';
import { AppDag } from '../../../domain/dag.js';
import { parseOrThrow } from '../../../domain/errors.js';
import type { AppModule } from '../../app-types.js';
import { handleMessages } from './app.js';
import { messagesCheckers } from './checkers.js';
import { initialMessagesState, type MessagesState } from './state.js';

export const MESSAGES_DAG_PATH = new URL('./dag.json', import.meta.url);

export function loadMessagesDag(): AppDag {
  return parseOrThrow(AppDag, JSON.parse(readFileSync(MESSAGES_DAG_PATH, 'utf8')), 'environments/apps/messages/dag.json');
}

export const messagesApp: AppModule<MessagesState> = {
  id: 'messages',
  title: 'Messages',
  icon: { color: '#2b8a3e', glyph: 'M' },
  dag: loadMessagesDag(),
  initialState: initialMessagesState,
  handle: handleMessages,
  checkers: messagesCheckers,
};
