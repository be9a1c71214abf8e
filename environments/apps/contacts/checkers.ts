import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { digits, sameText } from '../mobile-kit.js';
import { CONTACTS, INITIAL_FAVOURITES, contactByName, fullName, phoneError, type ContactSeed } from './catalog.js';
import type { ContactsState } from './state.js';

export const CONTACTS_FAMILIES = ['add_contact', 'edit_phone', 'favourite_contact', 'delete_contact'] as const;
export type ContactsFamily = (typeof CONTACTS_FAMILIES)[number];

const ok = (reason: string): CheckResult => ({ success: true, reason });
const no = (reason: string): CheckResult => ({ success: false, reason });

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`contacts checker ${spec.family}: missing param "${key}"`);
  return v;
}
function contactParam(spec: CheckerSpec, key = 'contact'): ContactSeed {
  const name = param(spec, key);
  const c = contactByName(name);
  if (!c) throw new Error(`contacts checker ${spec.family}: unknown contact "${name}"`);
  return c;
}
function phoneParam(spec: CheckerSpec): string {
  const phone = param(spec, 'phone');
  if (phoneError(phone)) throw new Error(`contacts checker ${spec.family}: "${phone}" is not a valid phone number`);
  return phone;
}
const seedName = (id: string): string => {
  const c = CONTACTS.find((x) => x.id === id);
  return c ? fullName(c) : id;
};

/** The Contacts app's success checkers; they read the session state in-process, never through the page. */
export function check(state: ContactsState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'contacts') throw new Error(`contacts checker got a spec for app "${spec.app}"`);
  switch (spec.family as ContactsFamily) {
    case 'add_contact': {
      const first = param(spec, 'first_name');
      const last = param(spec, 'last_name');
      const phone = phoneParam(spec);
      const added = state.contacts.filter((c) => !state.initialIds.includes(c.id));
      if (added.length === 0) return no('no contact was added');
      const match = added.find((c) => sameText(c.first, first) && sameText(c.last, last));
      if (!match) return no(`added ${added.map((c) => `"${fullName(c)}"`).join(', ')}, expected "${first} ${last}"`);
      if (digits(match.phone) !== digits(phone)) return no(`${fullName(match)} was saved with phone ${match.phone}, expected ${phone}`);
      if (added.length > 1) return no(`${added.length} contacts were added, expected one`);
      return ok(`added ${fullName(match)} (${match.phone})`);
    }
    case 'edit_phone': {
      const target = contactParam(spec);
      const phone = phoneParam(spec);
      const c = state.contacts.find((x) => x.id === target.id);
      if (!c) return no(`${fullName(target)} was deleted`);
      const others = state.contacts.filter((x) => x.id !== target.id && state.initialPhones[x.id] !== undefined && state.initialPhones[x.id] !== x.phone);
      if (digits(c.phone) !== digits(phone)) {
        const also = others.length ? ` (changed the phone of ${others.map((x) => fullName(x)).join(', ')} instead)` : '';
        return no(`${fullName(c)}'s phone is ${c.phone}, expected ${phone}${also}`);
      }
      if (others.length) return no(`also changed the phone of ${others.map((x) => fullName(x)).join(', ')}`);
      if (!sameText(fullName(c), fullName(target))) return no(`the contact was renamed to "${fullName(c)}"`);
      return ok(`${fullName(c)}'s phone is now ${c.phone}`);
    }
    case 'favourite_contact': {
      // The DAG's slot is `favourite` (contacts that are not favourites yet); `contact` is accepted too.
      const target = contactParam(spec, spec.params.favourite !== undefined ? 'favourite' : 'contact');
      const c = state.contacts.find((x) => x.id === target.id);
      if (!c) return no(`${fullName(target)} was deleted`);
      if (c.favourite) return ok(`${fullName(c)} is a favourite`);
      const newFavs = state.contacts.filter((x) => x.favourite && !(INITIAL_FAVOURITES as readonly string[]).includes(x.id)).map((x) => fullName(x));
      return no(`${fullName(c)} is not a favourite${newFavs.length ? ` (favourited ${newFavs.join(', ')})` : ''}`);
    }
    case 'delete_contact': {
      const target = contactParam(spec);
      const missing = state.initialIds.filter((id) => !state.contacts.some((c) => c.id === id));
      const wrong = missing.filter((id) => id !== target.id).map(seedName);
      if (!missing.includes(target.id)) return no(`${fullName(target)} is still in the contacts${wrong.length ? ` (deleted ${wrong.join(', ')} instead)` : ''}`);
      if (wrong.length) return no(`deleted ${fullName(target)} but also ${wrong.join(', ')}`);
      return ok(`deleted ${fullName(target)}`);
    }
    default:
      throw new Error(`contacts checker: unknown task family "${spec.family}" (known: ${CONTACTS_FAMILIES.join(', ')})`);
  }
}

export const contactsCheckers: AppCheckers<ContactsState> = { families: CONTACTS_FAMILIES, check };
