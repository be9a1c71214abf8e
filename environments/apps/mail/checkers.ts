import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { contains, no, ok, same } from '../kit.js';
import { ARCHIVABLE_SUBJECTS } from './catalog.js';
import type { MailState } from './state.js';

export const MAIL_FAMILIES = ['send_mail', 'archive_mail'] as const;
export type MailFamily = (typeof MAIL_FAMILIES)[number];

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`mail checker ${spec.family}: missing param "${key}"`);
  return v;
}

/** Success checkers for Mail; they read the server-side session state in-process. */
export function check(state: MailState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'mail') throw new Error(`mail checker got a spec for app "${spec.app}"`);
  switch (spec.family as MailFamily) {
    case 'send_mail': {
      const to = param(spec, 'to');
      const subject = param(spec, 'subject');
      const body = param(spec, 'body');
      if (state.sent.length === 0) return no('no message was sent');
      if (state.sent.length > 1) return no(`${state.sent.length} messages were sent, expected one`);
      const s = state.sent[0];
      if (!s) return no('no message was sent');
      const problems: string[] = [];
      if (!same(s.to, to)) problems.push(`sent to "${s.to}", expected "${to}"`);
      if (!same(s.subject, subject)) problems.push(`subject "${s.subject}", expected "${subject}"`);
      if (!contains(s.body, body)) problems.push(`body "${s.body}" does not contain "${body}"`);
      return problems.length ? no(problems.join('; ')) : ok(`sent "${s.subject}" to ${s.to}`);
    }
    case 'archive_mail': {
      const subject = param(spec, 'message');
      if (!ARCHIVABLE_SUBJECTS.some((x) => same(x, subject))) throw new Error(`mail checker archive_mail: unknown subject "${subject}"`);
      const target = state.messages.find((m) => same(m.subject, subject));
      const others = state.messages.filter((m) => m.archived && m !== target);
      if (!target?.archived) return no(others.length ? `archived ${others.map((m) => `"${m.subject}"`).join(', ')} instead of "${subject}"` : `"${subject}" is still in the inbox`);
      if (others.length) return no(`"${subject}" was archived but so were ${others.map((m) => `"${m.subject}"`).join(', ')}`);
      return ok(`archived "${subject}"`);
    }
    default:
      throw new Error(`mail checker: unknown task family "${spec.family}" (known: ${MAIL_FAMILIES.join(', ')})`);
  }
}

export const mailCheckers: AppCheckers<MailState> = { families: MAIL_FAMILIES, check };
