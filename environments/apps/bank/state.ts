import { rng, shuffle } from '../shared.js';

export interface Card {
  id: number;
  /** Nickname shown on the card ("Travel Credit"); the user refers to the card by it. */
  name: string;
  kind: 'Debit' | 'Credit';
  last4: string;
  frozen: boolean;
}

export interface Biller {
  id: number;
  /** Biller name; near-duplicates share a prefix ("City Water" / "City Water & Sewer"). */
  name: string;
  account: string;
  /** Amount due in cents. */
  dueCents: number;
  dueDate: string;
  /** Cents paid in this session (0: unpaid). */
  paidCents: number;
}

/** A confirmed transfer to a payee. */
export interface Transfer {
  payee: string;
  cents: number;
  note: string;
}

/** A transfer that passed validation and waits on the review screen (not sent until Confirm). */
export interface Draft {
  payee: string;
  cents: number;
  note: string;
}

/** Bank's per-session state. Read by checkers in-process; the page never sees this object. */
export interface BankState {
  seed: number;
  checkingCents: number;
  savingsCents: number;
  cards: Card[];
  billers: Biller[];
  transfers: Transfer[];
  draft: Draft | null;
  /** Low balance alert threshold label ("Off" or "$50"). */
  alert: string;
  paperless: boolean;
  seq: number;
}

/** Name, kind, last four digits, frozen at the start of a session (the same for every seed). */
const CARDS: readonly (readonly [string, 'Debit' | 'Credit', string, boolean])[] = [
  ['Everyday Debit', 'Debit', '4821', false],
  ['Joint Debit', 'Debit', '5530', false],
  ['Rewards Credit', 'Credit', '9034', false],
  ['Travel Credit', 'Credit', '1177', true],
  ['Online Shopping', 'Credit', '6402', true],
];

/** Name, account number ending, amount due (cents), due date. */
const BILLERS: readonly (readonly [string, string, number, string])[] = [
  ['City Water', '3391', 4820, 'Jun 12'],
  ['City Water & Sewer', '7710', 6315, 'Jun 15'],
  ['Metro Energy', '2208', 11240, 'Jun 9'],
  ['Metro Energy Gas', '5561', 3875, 'Jun 18'],
  ['Northside Internet', '9902', 6999, 'Jun 20'],
  ['Northside Mobile', '4417', 5500, 'Jun 22'],
  ['Sunrise Auto Insurance', '1036', 14210, 'Jun 25'],
  ['Sunrise Home Insurance', '8824', 9630, 'Jun 28'],
  ['Green Valley HOA', '6650', 22500, 'Jul 1'],
  ['County Property Tax', '3127', 41860, 'Jul 5'],
];

export const CARD_NAMES: readonly string[] = CARDS.map(([n]) => n);
/** Whether each card is frozen when a session starts. */
export const CARD_FROZEN: Readonly<Record<string, boolean>> = Object.fromEntries(CARDS.map(([n, , , f]) => [n, f]));
export const BILLER_NAMES: readonly string[] = BILLERS.map(([n]) => n);
export const PAYEES: readonly string[] = ['Maria Lopez', 'Mario Lopez', 'Sam Patel', 'Samantha Patel', 'Jordan Lee', 'Chris Wong', 'Dana Brooks'];
export const ALERT_OPTIONS: readonly string[] = ['Off', '$25', '$50', '$100', '$250', '$500'];
export const DEFAULT_ALERT = 'Off';
export const CHECKING_START_CENTS = 248016;
export const NOTE_MAX = 40;

export function initialBankState(seed: number): BankState {
  const rand = rng(seed ^ 0x3b51d7);
  return {
    seed,
    checkingCents: CHECKING_START_CENTS,
    savingsCents: 815000,
    cards: CARDS.map(([name, kind, last4, frozen], i) => ({ id: i + 1, name, kind, last4, frozen })),
    billers: shuffle(BILLERS, rand).map(([name, account, dueCents, dueDate], i) => ({ id: i + 1, name, account, dueCents, dueDate, paidCents: 0 })),
    transfers: [],
    draft: null,
    alert: DEFAULT_ALERT,
    paperless: true,
    seq: 0,
  };
}

/** "$1,234.50" for 123450 cents. */
export const money = (cents: number): string =>
  `$${Math.floor(cents / 100).toLocaleString('en-US')}.${String(cents % 100).padStart(2, '0')}`;

/** Cents for an amount as a person types it ("40.5", "$1,200", "25.00"); undefined when it is not one. */
export function parseAmount(text: string): number | undefined {
  const t = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(t)) return undefined;
  const [whole, frac = ''] = t.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}
