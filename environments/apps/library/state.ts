import { rng, shuffle } from '../shared.js';

export interface Book {
  id: number;
  title: string;
  author: string;
  /** A copy is on the shelf (Borrow); otherwise every copy is out (Place hold). */
  available: boolean;
}

export interface Loan {
  bookId: number;
  /** Due date as shown ("Jun 9"); renewing moves it two weeks on. */
  due: string;
  renewals: number;
  /** True for loans the session started with; false for books the user borrowed. */
  seeded: boolean;
  returned: boolean;
}

export interface Hold {
  bookId: number;
  branch: string;
  cancelled: boolean;
}

/** Library's per-session state. Read by checkers in-process; the page never sees this object. */
export interface LibraryState {
  seed: number;
  books: Book[];
  loans: Loan[];
  holds: Hold[];
  searches: string[];
  seq: number;
}

export const BRANCHES: readonly string[] = ['Central Library', 'Riverside Branch', 'Hillcrest Branch'];

/** Catalog (title, author, available). Near-duplicates on purpose: Dune / Dune Messiah, The Hobbit / The Hobbit (Illustrated). */
const CATALOG: readonly (readonly [string, string, boolean])[] = [
  ['Dune', 'Frank Herbert', true],
  ['Dune Messiah', 'Frank Herbert', true],
  ['The Hobbit', 'J. R. R. Tolkien', true],
  ['The Hobbit (Illustrated)', 'J. R. R. Tolkien', false],
  ['Circe', 'Madeline Miller', true],
  ['The Song of Achilles', 'Madeline Miller', false],
  ['Educated', 'Tara Westover', true],
  ['Becoming', 'Michelle Obama', false],
  ['Sapiens', 'Yuval Noah Harari', true],
  ['The Midnight Library', 'Matt Haig', false],
  ['Klara and the Sun', 'Kazuo Ishiguro', false],
  ['Pachinko', 'Min Jin Lee', true],
  ['Project Hail Mary', 'Andy Weir', false],
  ['The Martian', 'Andy Weir', true],
  ['Where the Crawdads Sing', 'Delia Owens', true],
  ['Atomic Habits', 'James Clear', true],
  ['The Overstory', 'Richard Powers', true],
  ['Piranesi', 'Susanna Clarke', true],
];

/** Books the session starts with on loan (title, due date). */
const SEED_LOANS: readonly (readonly [string, string])[] = [
  ['Piranesi', 'Jun 4'],
  ['The Overstory', 'Jun 6'],
  ['Atomic Habits', 'Jun 9'],
  ['The Martian', 'Jun 12'],
];

export const AVAILABLE_TITLES: readonly string[] = CATALOG.filter(([t, , a]) => a && !SEED_LOANS.some(([l]) => l === t)).map(([t]) => t);
export const ON_LOAN_TITLES: readonly string[] = CATALOG.filter(([, , a]) => !a).map(([t]) => t);
export const LOAN_TITLES: readonly string[] = SEED_LOANS.map(([t]) => t);

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS_IN = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** "Jun 4" + 14 days → "Jun 18". */
export function addDays(due: string, days: number): string {
  const [m, d] = due.split(' ') as [string, string];
  let month = MONTHS.indexOf(m);
  let day = Number(d) + days;
  while (day > (DAYS_IN[month] ?? 31)) {
    day -= DAYS_IN[month] ?? 31;
    month = (month + 1) % 12;
  }
  return `${MONTHS[month]} ${day}`;
}

export function initialLibraryState(seed: number): LibraryState {
  const rand = rng(seed ^ 0x11b7a7);
  const books: Book[] = shuffle(CATALOG, rand).map(([title, author, available], i) => ({ id: i + 1, title, author, available }));
  const byTitle = (t: string): Book => books.find((b) => b.title === t) as Book;
  const loans: Loan[] = SEED_LOANS.map(([t, due]) => {
    const b = byTitle(t);
    b.available = false;
    return { bookId: b.id, due, renewals: 0, seeded: true, returned: false };
  });
  return { seed, books, loans, holds: [], searches: [], seq: 0 };
}
