import { rng, shuffle } from '../shared.js';
import { THREADS } from './catalog.js';

export interface Message {
  from: 'me' | 'them';
  text: string;
  /** True for messages sent during this session (seq is the session counter). */
  sent: boolean;
  seq: number;
}

export interface Thread {
  id: string;
  contact: string;
  messages: Message[];
  unread: boolean;
}

/** The Messages app's per-session state; read by the checkers in-process. */
export interface MessagesState {
  seed: number;
  /** Most recent first (shuffled by seed; a thread moves to the top when you send in it). */
  threads: Thread[];
  initialContacts: string[];
  opened: { threadId: string; seq: number }[];
  deleted: { contact: string; seq: number }[];
  nextId: number;
  seq: number;
}

export function initialMessagesState(seed: number): MessagesState {
  const rand = rng(seed ^ 0x5355);
  const threads: Thread[] = shuffle(THREADS, rand).map((x, i) => ({
    id: x.id,
    contact: x.contact,
    messages: x.messages.map((m) => ({ ...m, sent: false, seq: 0 })),
    unread: i < 3 && x.messages.at(-1)?.from === 'them',
  }));
  return { seed, threads, initialContacts: threads.map((x) => x.contact), opened: [], deleted: [], nextId: 1, seq: 0 };
}
