import { mulberry32 } from '../../../domain/random.js';

/**
 * Seeded user content for desktop episodes: realistic, varied, and the same for the same seed, so a replayed
 * episode starts from identical files. Words are generic office vocabulary, never task answers.
 */
const TOPICS = ['quarterly report', 'team offsite', 'garden plan', 'reading list', 'travel notes', 'budget review', 'recipe ideas', 'project kickoff'];
const LINES = [
  'Call the supplier about the delayed shipment.',
  'Draft the agenda before Thursday.',
  'Book the meeting room for the review.',
  'Water the tomatoes twice a week.',
  'Return the library books on Monday.',
  'Compare three quotes for the new printer.',
  'Ask Dana for the updated figures.',
  'Send the invoice to the accounting team.',
  'Pack the charger and the passport.',
  'Try the lemon and thyme marinade.',
];
const ITEMS = ['paper', 'toner', 'pens', 'folders', 'stapler', 'notebooks', 'markers', 'tape', 'envelopes', 'labels'];
const FILE_STEMS = ['minutes', 'draft', 'summary', 'todo', 'ideas', 'outline', 'checklist', 'plan'];

export interface Rng {
  next(): number;
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  sample<T>(xs: readonly T[], n: number): T[];
}

export function rng(seed: number): Rng {
  const r = mulberry32(seed >>> 0);
  const int = (lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
  return {
    next: r,
    int,
    pick: (xs) => xs[int(0, xs.length - 1)]!,
    sample: (xs, n) => {
      const copy = [...xs];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy.slice(0, n);
    },
  };
}

/** The document: a seeded title line and every task line in a seeded order (so any line's words are present). */
export function documentText(seed: number): string {
  const g = rng(seed);
  const title = g.pick(TOPICS);
  return `${title[0]!.toUpperCase()}${title.slice(1)}\n\n${g.sample(LINES, LINES.length).join('\n')}\n`;
}

/** Words of the document a replace task may name (each occurs in exactly one task line). */
export const DOCUMENT_WORDS = ['supplier', 'agenda', 'meeting', 'tomatoes', 'library', 'printer', 'figures', 'invoice', 'passport', 'marinade'];

/** Office-supply rows (every item, seeded order, quantity and unit price): rows 2–11 of the sheet. */
export function supplyRows(seed: number): { item: string; qty: number; price: number }[] {
  const g = rng(seed);
  return g.sample(ITEMS, ITEMS.length).map((item) => ({ item, qty: g.int(1, 12), price: g.int(2, 40) / 2 }));
}

/** The file manager's text files (fixed names, so queries can name them; contents are seeded). */
export const FILE_NAMES = FILE_STEMS.map((s) => `${s}.txt`);
