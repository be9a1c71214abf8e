/**
 * The Contacts app's fixed address book (names, emails, addresses); phone numbers are drawn from the seed.
 * Near-duplicates on purpose: Jon Smith / John Smith, Ana Lee / Anna Lee, Maria Garcia / Mario Garcia.
 */
import { sameText } from '../mobile-kit.js';

export interface ContactSeed {
  id: string;
  first: string;
  last: string;
  email: string;
  address: string;
}

const STREETS = ['Oak Street', 'Pine Avenue', 'Cedar Road', 'Maple Court', 'Birch Lane', 'Elm Way', 'Lake Drive', 'Hill Road'];
const NAMES: readonly [string, string][] = [
  ['Aaron', 'Blake'], ['Ana', 'Lee'], ['Anna', 'Lee'], ['Ben', 'Carter'], ['Carla', 'Diaz'], ['Chris', 'Morgan'],
  ['Daniel', 'Kim'], ['Diana', 'Hughes'], ['Emma', 'Wilson'], ['Ethan', 'Park'], ['Fatima', 'Khan'], ['George', 'Miller'],
  ['Hannah', 'Scott'], ['Ivan', 'Petrov'], ['John', 'Smith'], ['Jon', 'Smith'], ['Julia', 'Novak'], ['Kevin', 'Brown'],
  ['Laura', 'Chen'], ['Maria', 'Garcia'], ['Mario', 'Garcia'], ['Nina', 'Patel'], ['Oscar', 'Reyes'], ['Paula', 'Jones'],
  ['Quentin', 'Hale'], ['Rachel', 'Adams'], ['Sam', 'Taylor'], ['Tom', 'Baker'], ['Uma', 'Shah'], ['Victor', 'Lopez'],
  ['Wendy', 'Clark'], ['Zoe', 'Young'],
];

export const CONTACTS: readonly ContactSeed[] = NAMES.map(([first, last], i) => ({
  id: `${first}_${last}`.toLowerCase(),
  first,
  last,
  email: `${first}.${last}@example.com`.toLowerCase(),
  address: `${10 + ((i * 37) % 180)} ${STREETS[i % STREETS.length] ?? 'Oak Street'}`,
}));

/** Favourites at the start of every session (kept out of the favourite_contact slot values). */
export const INITIAL_FAVOURITES = ['emma_wilson', 'tom_baker'] as const;

/** Values for tasks: new people to add and phone numbers to enter. */
export const NEW_FIRST_NAMES = ['Priya', 'Tomasz', 'Grace', 'Lucas'] as const;
export const NEW_LAST_NAMES = ['Sharma', 'Nowak', 'Okafor', 'Bennett'] as const;
export const PHONES = ['555-201-7788', '555-348-1290', '555-610-4433', '555-872-0051'] as const;
/** Phone numbers that fail validation (the trap for add/edit). */
export const INVALID_PHONES = ['12ab', '555'] as const;

export const fullName = (c: { first: string; last: string }): string => `${c.first} ${c.last}`.trim();
export const contactByName = (name: string): ContactSeed | undefined => CONTACTS.find((c) => sameText(fullName(c), name));

/** A phone number is valid with 7–15 digits and only digits, spaces, +, -, ( and ). */
export function phoneError(phone: string): string | undefined {
  const t = phone.trim();
  if (!t) return 'Phone number is required';
  if (!/^[+\d][\d\s()-]*$/.test(t)) return 'Enter a valid phone number';
  const n = t.replace(/\D/g, '').length;
  if (n < 7 || n > 15) return 'Enter a valid phone number';
  return undefined;
}
