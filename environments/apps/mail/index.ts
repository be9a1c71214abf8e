import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleMail } from './app.js';
import { mailCheckers } from './checkers.js';
import { initialMailState, type MailState } from './state.js';

export const MAIL_DAG_PATH = new URL('./dag.json', import.meta.url);

export const mailApp: AppModule<MailState> = {
  id: 'mail',
  title: 'Mail',
  icon: { color: '#1a5fb4', glyph: 'M' },
  dag: loadDag(MAIL_DAG_PATH, 'environments/apps/mail/dag.json'),
  initialState: initialMailState,
  handle: handleMail,
  checkers: mailCheckers,
};
