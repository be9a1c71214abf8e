import { rng, shuffle } from '../shared.js';
import { SECURITY_EMAIL, SECURITY_SENDER, SECURITY_SUBJECT, SEED_MESSAGES, verificationCode } from './catalog.js';

export interface MailMessage {
  id: number;
  from: string;
  email: string;
  subject: string;
  body: string;
  /** Shown in the list, e.g. "Mon" or "May 28" (fixed strings, no clock). */
  date: string;
  read: boolean;
  archived: boolean;
  archivedSeq: number;
}

export interface SentMail {
  to: string;
  subject: string;
  body: string;
  seq: number;
}

/** Mail's per-session state. Read by checkers in-process; the page never sees this object. */
export interface MailState {
  seed: number;
  /** Inbox order, newest first. */
  messages: MailMessage[];
  sent: SentMail[];
  /** The code in the Security Team message (see `verificationCode`). */
  verificationCode: string;
  opened: { id: number; seq: number }[];
  seq: number;
}

const DATES = ['9:12 AM', '8:40 AM', '7:05 AM', 'Yesterday', 'Yesterday', 'Sat', 'Sat', 'Fri', 'Thu', 'Wed', 'Tue', 'Mon', 'May 30', 'May 29', 'May 28', 'May 27', 'May 26', 'May 25', 'May 24'];

export function initialMailState(seed: number): MailState {
  const rand = rng((seed ^ 0x3a11) >>> 0);
  const code = verificationCode(seed);
  const pool = shuffle(SEED_MESSAGES, rand);
  // The code mail lands at a seeded position; from position PAGE_SIZE on it is only reachable through "Load more".
  const pos = 2 + Math.floor(rand() * 12);
  const security = {
    from: SECURITY_SENDER,
    email: SECURITY_EMAIL,
    subject: SECURITY_SUBJECT,
    body: `Use this code to verify your account: ${code}. The code was requested from Settings on your phone. If you did not request it, you can ignore this message.`,
  };
  const list = [...pool.slice(0, pos), security, ...pool.slice(pos)];
  const messages: MailMessage[] = list.map((x, i) => ({
    id: i + 1,
    ...x,
    date: DATES[i] ?? 'May 20',
    read: i > 5 && rand() < 0.6,
    archived: false,
    archivedSeq: 0,
  }));
  return { seed, messages, sent: [], verificationCode: code, opened: [], seq: 0 };
}
