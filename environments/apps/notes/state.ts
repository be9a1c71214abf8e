import { ADDRESSES } from '../food/catalog.js';
import { rng, shuffle } from '../shared.js';

export interface Note {
  id: number;
  title: string;
  body: string;
  pinned: boolean;
  deleted: boolean;
  /** True for notes the session started with (seeded); false for notes the user created. */
  seeded: boolean;
  /** Per-session counter values (no wall clock). */
  createdSeq: number;
  editedSeq: number;
}

/** Notes' per-session state. Read by checkers in-process; the page never sees this object. */
export interface NotesState {
  seed: number;
  notes: Note[];
  /** The address written in the seeded "Dinner plans" note (one of Foodie's ADDRESSES, by seed). */
  dinnerAddress: string;
  searches: { q: string; seq: number }[];
  opened: { id: number; seq: number }[];
  nextId: number;
  seq: number;
}

export const DINNER_NOTE_TITLE = 'Dinner plans';

/** Seeded notes (title, body, pinned). Near-duplicates on purpose: Shopping list / Shopping list (old), Book ideas / Book club. */
const SEED_NOTES: readonly (readonly [string, string, boolean])[] = [
  ['Shopping list', 'Milk, eggs, spinach, rice, olive oil, coffee beans', false],
  ['Shopping list (old)', 'Bread, butter, apples, dish soap', false],
  ['Wi-Fi password', 'Home network: Maple-5G. Password is on the router sticker.', true],
  ['Book ideas', 'The Overstory, Piranesi, Project Hail Mary', false],
  ['Book club', 'Next meeting: discuss chapters 4 to 7', false],
  ['Gym routine', 'Mon: legs. Wed: back and arms. Fri: chest and cardio.', false],
  ['Gift ideas', 'Mom: scarf. Sam: headphones. Alex: board game.', false],
  ['Meeting notes', 'Q3 roadmap review. Action items: update budget sheet, email Priya.', false],
  ['Travel checklist', 'Passport, chargers, adapter, sunscreen, tickets', false],
  ['Recipes to try', 'Lemon pasta, chickpea curry, banana bread', false],
  ['Car service', 'Oil change due at 60,000 km. Garage on Elm Road.', false],
  ['Packing for camping', 'Tent, sleeping bag, headlamp, stove, matches', false],
  ['Movie night', 'Watch list: Arrival, Paddington 2, Spirited Away', false],
];

export const SEEDED_NOTE_TITLES: readonly string[] = [...SEED_NOTES.map((n) => n[0]), DINNER_NOTE_TITLE];

export function initialNotesState(seed: number): NotesState {
  const rand = rng(seed ^ 0x4e07e5);
  const dinnerAddress = ADDRESSES[Math.floor(rand() * ADDRESSES.length)] ?? ADDRESSES[0];
  const all: [string, string, boolean][] = [
    ...SEED_NOTES.map(([t, b, p]): [string, string, boolean] => [t, b, p]),
    [DINNER_NOTE_TITLE, `Friday with Sam and Alex. Deliver to ${dinnerAddress}. Ring the bell twice.`, false],
  ];
  const order = shuffle(all, rand);
  const notes: Note[] = order.map(([title, body, pinned], i) => ({
    id: i + 1,
    title,
    body,
    pinned,
    deleted: false,
    seeded: true,
    createdSeq: 0,
    editedSeq: 0,
  }));
  return { seed, notes, dinnerAddress, searches: [], opened: [], nextId: notes.length + 1, seq: 0 };
}
