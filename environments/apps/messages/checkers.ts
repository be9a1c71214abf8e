import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { sameText } from '../mobile-kit.js';
import { THREADS, personByName } from './catalog.js';
import type { MessagesState } from './state.js';

export const MESSAGES_FAMILIES = ['send_message', 'delete_thread'] as const;
export type MessagesFamily = (typeof MESSAGES_FAMILIES)[number];

const ok = (reason: string): CheckResult => ({ success: true, reason });
const no = (reason: string): CheckResult => ({ success: false, reason });

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`messages checker ${spec.family}: missing param "${key}"`);
  return v;
}

/** The Messages app's success checkers; they read the session state in-process, never through the page. */
export function check(state: MessagesState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'messages') throw new Error(`messages checker got a spec for app "${spec.app}"`);
  switch (spec.family as MessagesFamily) {
    case 'send_message': {
      const name = param(spec, 'recipient');
      const person = personByName(name);
      if (!person) throw new Error(`messages checker send_message: unknown recipient "${name}"`);
      const text = param(spec, 'text');
      const sent = state.threads.flatMap((t) => t.messages.filter((m) => m.sent).map((m) => ({ to: t.contact, text: m.text })));
      if (sent.length === 0) return no('no message was sent');
      const hit = sent.find((m) => m.to === person && sameText(m.text, text));
      if (hit) return ok(`sent "${hit.text}" to ${person}`);
      const toPerson = sent.filter((m) => m.to === person);
      if (toPerson.length) return no(`sent ${toPerson.map((m) => `"${m.text}"`).join(', ')} to ${person}, expected "${text}"`);
      return no(`sent ${sent.map((m) => `"${m.text}" to ${m.to}`).join(', ')}; nothing to ${person}`);
    }
    case 'delete_thread': {
      const name = param(spec, 'contact');
      const seed = THREADS.find((t) => sameText(t.contact, name));
      if (!seed) throw new Error(`messages checker delete_thread: no conversation with "${name}"`);
      const gone = state.initialContacts.filter((c) => !state.threads.some((t) => t.contact === c));
      const wrong = gone.filter((c) => c !== seed.contact);
      if (!gone.includes(seed.contact)) return no(`the conversation with ${seed.contact} still exists${wrong.length ? ` (deleted ${wrong.join(', ')} instead)` : ''}`);
      if (wrong.length) return no(`deleted ${seed.contact} but also ${wrong.join(', ')}`);
      return ok(`deleted the conversation with ${seed.contact}`);
    }
    default:
      throw new Error(`messages checker: unknown task family "${spec.family}" (known: ${MESSAGES_FAMILIES.join(', ')})`);
  }
}

export const messagesCheckers: AppCheckers<MessagesState> = { families: MESSAGES_FAMILIES, check };
