import { rng } from '../shared.js';
import { CONTACTS, INITIAL_FAVOURITES } from './catalog.js';

export interface Contact {
  id: string;
  first: string;
  last: string;
  phone: string;
  email: string;
  address: string;
  favourite: boolean;
}

/** The Contacts app's per-session state; read by the checkers in-process. */
export interface ContactsState {
  seed: number;
  contacts: Contact[];
  /** Ids present at the start of the session (to tell added contacts from the seeded ones). */
  initialIds: string[];
  /** Phone numbers at the start of the session, by id. */
  initialPhones: Record<string, string>;
  searches: { q: string; seq: number }[];
  deleted: { id: string; seq: number }[];
  nextId: number;
  seq: number;
}

export function initialContactsState(seed: number): ContactsState {
  const rand = rng(seed ^ 0xc0de);
  const num = (): string => String(Math.floor(rand() * 10));
  const contacts: Contact[] = CONTACTS.map((c) => ({
    id: c.id,
    first: c.first,
    last: c.last,
    phone: `555-${1 + Math.floor(rand() * 8)}${num()}${num()}-${num()}${num()}${num()}${num()}`,
    email: c.email,
    address: c.address,
    favourite: (INITIAL_FAVOURITES as readonly string[]).includes(c.id),
  }));
  return {
    seed,
    contacts,
    initialIds: contacts.map((c) => c.id),
    initialPhones: Object.fromEntries(contacts.map((c) => [c.id, c.phone])),
    searches: [],
    deleted: [],
    nextId: 1,
    seq: 0,
  };
}
