import { dayCalendar, rng } from '../shared.js';

/** The account holder's member key; friends are keyed by first name. */
export const YOU = 'you';

/** A group of people who share expenses. */
export interface Group {
  id: string;
  name: string;
  kind: string;
  /** Member keys, `you` first. */
  members: readonly string[];
}

/** One shared expense. */
export interface Expense {
  id: number;
  groupId: string;
  title: string;
  /** Total, in cents. */
  cents: number;
  /** Member key of who paid. */
  payer: string;
  /** Member keys it is split equally between, in group order. */
  split: string[];
  category: string;
  /** Day offset (0 = today, -1 = yesterday). */
  day: number;
  notes: string;
  /** Member key of who entered it. */
  addedBy: string;
  /** In the group when the session starts. */
  seeded: boolean;
  /** Added in this session from Add expense. */
  added: boolean;
  /** Deleted (stays in state, so Undo can bring it back). */
  deleted: boolean;
  /** Times it was saved from Edit expense in this session. */
  edits: number;
  /** Order it was added, edited, deleted or restored in this session (0 for an untouched seeded expense). */
  seq: number;
}

/** A payment between two members that settles (part of) a balance. */
export interface Payment {
  id: number;
  groupId: string;
  from: string;
  to: string;
  cents: number;
  method: string;
  day: number;
  note: string;
  seeded: boolean;
  seq: number;
}

/** Splitto's per-session state. Read by checkers in-process; the page never sees this object. */
export interface SplitsState {
  seed: number;
  expenses: Expense[];
  payments: Payment[];
  seq: number;
}

export const OWNER = 'Robin Hayes';
export const OWNER_EMAIL = 'robin.hayes@example.com';

/** Today is Monday, September 15, 9:41 AM. Offsets count days from today. */
const calendar = dayCalendar(2025, 8, 15);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;
/** "Today", "Yesterday" or the short day ("Sat, Sep 13"). */
export const relDay = (offset: number): string => (offset === 0 ? 'Today' : offset === -1 ? 'Yesterday' : shortDay(offset));

/** Friends: key (first name), full name. Near-duplicates: Maya / Mia, Sam / Sean. */
export const FRIENDS: readonly (readonly [string, string])[] = [
  ['Maya', 'Maya Chen'],
  ['Mia', 'Mia Torres'],
  ['Sam', 'Sam Patel'],
  ['Sean', 'Sean Walsh'],
  ['Priya', 'Priya Nair'],
  ['Leo', 'Leo Brooks'],
  ['Hannah', 'Hannah Kim'],
  ['Omar', 'Omar Haddad'],
];
export const FRIEND_NAMES: readonly string[] = FRIENDS.map(([n]) => n);
export const fullName = (key: string): string => (key === YOU ? OWNER : (FRIENDS.find(([n]) => n === key)?.[1] ?? key));
/** "You" or the friend's first name. */
export const who = (key: string): string => (key === YOU ? 'You' : key);

export const GROUPS: readonly Group[] = [
  { id: 'lisbon', name: 'Lisbon trip', kind: 'Trip', members: [YOU, 'Maya', 'Sam', 'Priya'] },
  { id: 'flat', name: 'Flat 4B', kind: 'Home', members: [YOU, 'Mia', 'Sean'] },
  { id: 'climbing', name: 'Climbing crew', kind: 'Friends', members: [YOU, 'Sam', 'Leo', 'Hannah'] },
  { id: 'cabin', name: 'Cabin weekend', kind: 'Trip', members: [YOU, 'Maya', 'Mia', 'Omar', 'Leo'] },
];
export const GROUP_NAMES: readonly string[] = GROUPS.map((g) => g.name);
export const groupOf = (id: string): Group | undefined => GROUPS.find((g) => g.id === id);
export const groupByName = (name: string): Group | undefined => GROUPS.find((g) => g.name.toLowerCase() === name.trim().toLowerCase());

export const CATEGORIES: readonly string[] = ['General', 'Food & drink', 'Groceries', 'Transport', 'Lodging', 'Entertainment', 'Household', 'Utilities'];
export const DEFAULT_CATEGORY = 'General';
export const METHODS: readonly string[] = ['Cash', 'Bank transfer', 'PayPal', 'Venmo', 'Zelle'];
export const DEFAULT_METHOD = 'Cash';
export const TITLE_MAX = 40;
export const MAX_CENTS = 1_000_000;
/** How far back an expense's date can be set: today and the 30 days before. */
export const DATE_OFFSETS: readonly number[] = Array.from({ length: 31 }, (_, i) => -i);

/** Group, title, payer, category, base amount in cents, day offset, who is left out of the split (none: everyone). */
type SeedExpense = readonly [string, string, string, string, number, number, (readonly string[])?];
const EXPENSES: readonly SeedExpense[] = [
  ['lisbon', 'Apartment deposit', 'Priya', 'Lodging', 48000, -24],
  ['lisbon', 'Airport taxi', 'Sam', 'Transport', 3840, -20],
  ['lisbon', 'Pastry breakfast', YOU, 'Food & drink', 1420, -19],
  ['lisbon', 'Dinner at Tasca', 'Maya', 'Food & drink', 9680, -19],
  ['lisbon', 'Groceries', 'Sam', 'Groceries', 4175, -18],
  ['lisbon', 'Tram 28 tickets', YOU, 'Transport', 2560, -18],
  ['lisbon', 'Sintra day trip', 'Priya', 'Entertainment', 13200, -17],
  ['lisbon', 'Dinner at Taberna', YOU, 'Food & drink', 8840, -17],
  ['lisbon', 'Fado show', 'Maya', 'Entertainment', 7200, -16, ['Sam']],
  ['lisbon', 'Airport taxi back', YOU, 'Transport', 3600, -15],
  ['flat', 'Costco run', YOU, 'Groceries', 15490, -23],
  ['flat', 'Internet bill', 'Sean', 'Utilities', 6500, -14],
  ['flat', 'Water bill', 'Mia', 'Utilities', 4830, -12],
  ['flat', 'Electricity bill', YOU, 'Utilities', 11836, -10],
  ['flat', "Trader Joe's run", 'Mia', 'Groceries', 8612, -9],
  ['flat', 'Cleaning supplies', 'Sean', 'Household', 2748, -6],
  ['flat', 'New shower curtain', 'Mia', 'Household', 2499, -4],
  ['flat', 'Pizza night', 'Sean', 'Food & drink', 4200, -2],
  ['climbing', 'Rope', YOU, 'General', 18900, -30],
  ['climbing', 'Gym day passes', 'Leo', 'Entertainment', 8000, -13],
  ['climbing', 'Chalk and tape', 'Hannah', 'General', 2350, -13],
  ['climbing', 'Gas to Red Rocks', YOU, 'Transport', 5420, -8],
  ['climbing', 'Campsite', 'Sam', 'Lodging', 6000, -8],
  ['climbing', 'Burritos', 'Leo', 'Food & drink', 4760, -7, ['Hannah']],
  ['cabin', 'Cabin rental', 'Omar', 'Lodging', 64000, -7],
  ['cabin', 'Gas', 'Mia', 'Transport', 5800, -7],
  ['cabin', 'Groceries for the cabin', 'Maya', 'Groceries', 13245, -7],
  ['cabin', 'Firewood', 'Leo', 'Household', 3000, -6],
  ['cabin', 'Board games', YOU, 'Entertainment', 3699, -6],
  ['cabin', 'Hot tub fee', 'Omar', 'Lodging', 4500, -5, ['Leo']],
];
export const SEEDED_EXPENSES = EXPENSES;
export const seededTitles = (groupId: string): string[] => EXPENSES.filter(([g]) => g === groupId).map(([, t]) => t);

export const money = (cents: number): string => {
  const sign = cents < 0 ? '-' : '';
  const [whole, frac] = (Math.abs(cents) / 100).toFixed(2).split('.');
  return `${sign}$${(whole ?? '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac ?? '00'}`;
};
/** "$42.00", "42", "1,250.5" → cents; NaN when it is not an amount. */
export const parseMoney = (text: string): number => {
  const t = text.trim().replace(/^\$\s*/, '').replace(/,/g, '');
  if (!/^\d+(\.\d{1,2})?$|^\.\d{1,2}$/.test(t)) return NaN;
  return Math.round(Number(t) * 100);
};

/** Equal shares of `cents` between `split` (in that order); the first members take the leftover cents. */
export function shares(cents: number, split: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  if (!split.length) return out;
  const base = Math.floor(cents / split.length);
  const extra = cents - base * split.length;
  split.forEach((m, i) => out.set(m, base + (i < extra ? 1 : 0)));
  return out;
}

export const live = (s: SplitsState): Expense[] => s.expenses.filter((e) => !e.deleted);
export const expenseOf = (s: SplitsState, id: number): Expense | undefined => s.expenses.find((e) => e.id === id);
export const paymentOf = (s: SplitsState, id: number): Payment | undefined => s.payments.find((p) => p.id === id);

/** What `friend` owes you in the group, in cents (negative: you owe them). */
export function pairBalance(s: SplitsState, groupId: string, friend: string): number {
  let n = 0;
  for (const e of live(s)) {
    if (e.groupId !== groupId) continue;
    const sh = shares(e.cents, e.split);
    if (e.payer === YOU) n += sh.get(friend) ?? 0;
    else if (e.payer === friend) n -= sh.get(YOU) ?? 0;
  }
  for (const p of s.payments) {
    if (p.groupId !== groupId) continue;
    if (p.from === YOU && p.to === friend) n += p.cents;
    else if (p.from === friend && p.to === YOU) n -= p.cents;
  }
  return n;
}
/** Each member's net in the group (positive: gets back, negative: owes). */
export function netBalances(s: SplitsState, groupId: string): Map<string, number> {
  const g = groupOf(groupId);
  const net = new Map<string, number>((g?.members ?? []).map((m) => [m, 0]));
  const add = (m: string, c: number): void => void net.set(m, (net.get(m) ?? 0) + c);
  for (const e of live(s)) {
    if (e.groupId !== groupId) continue;
    add(e.payer, e.cents);
    for (const [m, c] of shares(e.cents, e.split)) add(m, -c);
  }
  for (const p of s.payments) {
    if (p.groupId !== groupId) continue;
    add(p.from, p.cents);
    add(p.to, -p.cents);
  }
  return net;
}
/** Your net in the group: what you are owed (negative: what you owe). */
export const groupBalance = (s: SplitsState, groupId: string): number =>
  (groupOf(groupId)?.members ?? []).filter((m) => m !== YOU).reduce((n, f) => n + pairBalance(s, groupId, f), 0);

export function initialSplitsState(seed: number): SplitsState {
  const rand = rng(seed ^ 0x5b1770);
  // Amounts differ by seed (within 8% of the receipt above), and so do the payments already made.
  const expenses: Expense[] = EXPENSES.map(([groupId, title, payer, category, base, day, out], i) => {
    const g = groupOf(groupId);
    const split = (g?.members ?? []).filter((m) => !(out ?? []).includes(m));
    return {
      id: 101 + i,
      groupId,
      title,
      cents: Math.round(base * (0.92 + rand() * 0.16)),
      payer,
      split,
      category,
      day,
      notes: '',
      addedBy: payer,
      seeded: true,
      added: false,
      deleted: false,
      edits: 0,
      seq: 0,
    };
  });
  const state: SplitsState = { seed, expenses, payments: [], seq: 0 };
  // Earlier payments: part of a balance paid back, so balances differ by seed but none is settled by chance.
  const pay = (groupId: string, friend: string, day: number, method: string): void => {
    const owed = pairBalance(state, groupId, friend);
    const part = Math.round(Math.abs(owed) * (0.3 + rand() * 0.3));
    if (part < 100) return;
    const [from, to] = owed > 0 ? [friend, YOU] : [YOU, friend];
    state.payments.push({ id: 501 + state.payments.length, groupId, from, to, cents: part, method, day, note: '', seeded: true, seq: 0 });
  };
  if (rand() < 0.5) pay('lisbon', 'Priya', -14, 'Bank transfer');
  if (rand() < 0.5) pay('flat', 'Sean', -11, 'Venmo');
  if (rand() < 0.5) pay('climbing', 'Sam', -5, 'Cash');
  if (rand() < 0.5) pay('cabin', 'Omar', -3, 'Zelle');
  return state;
}

/** Why an expense cannot be saved, by field (empty when it can). */
export function expenseErrors(groupId: string, d: { title: string; amount: string; payer: string; split: readonly string[]; category: string; day: number }): Record<string, string> {
  const errors: Record<string, string> = {};
  const g = groupOf(groupId);
  const title = cleanText(d.title);
  if (!title) errors.title = 'Enter a description';
  else if (title.length > TITLE_MAX) errors.title = `Use ${TITLE_MAX} characters or fewer`;
  const cents = parseMoney(d.amount);
  if (!d.amount.trim()) errors.amount = 'Enter an amount';
  else if (Number.isNaN(cents)) errors.amount = 'Enter an amount like 12.50';
  else if (cents <= 0 || cents > MAX_CENTS) errors.amount = `Enter an amount between $0.01 and ${money(MAX_CENTS)}`;
  if (!g?.members.includes(d.payer)) errors.payer = 'Choose who paid';
  if (!d.split.length) errors.split = 'Choose at least one person to split with';
  else if (!d.split.every((m) => g?.members.includes(m))) errors.split = 'Choose people in this group';
  if (!CATEGORIES.includes(d.category)) errors.category = 'Choose a category';
  if (!DATE_OFFSETS.includes(d.day)) errors.day = 'Choose a date';
  return errors;
}

export const cleanText = (s: string): string => s.trim().replace(/\s+/g, ' ');
