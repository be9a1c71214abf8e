import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { AVAILABLE_TITLES, BRANCHES, LOAN_TITLES, ON_LOAN_TITLES, type Book, type LibraryState } from './state.js';

export const LIBRARY_FAMILIES = ['borrow_book', 'renew_loan', 'place_hold'] as const;
export type LibraryFamily = (typeof LIBRARY_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`library checker ${spec.family}: missing param "${key}"`);
  if (!known.some((k) => same(k, v))) throw new Error(`library checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const titleOf = (state: LibraryState, id: number): string => state.books.find((b) => b.id === id)?.title ?? `#${id}`;
const list = (titles: readonly string[]): string => titles.map((t) => `"${t}"`).join(', ');

/** Success checkers for Library; they read the server-side session state in-process. */
export function check(state: LibraryState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'library') throw new Error(`library checker got a spec for app "${spec.app}"`);
  const book = (title: string): Book | undefined => state.books.find((b) => same(b.title, title));
  switch (spec.family as LibraryFamily) {
    case 'borrow_book': {
      const title = param(spec, 'book', AVAILABLE_TITLES);
      const borrowed = state.loans.filter((l) => !l.seeded && !l.returned).map((l) => titleOf(state, l.bookId));
      if (!borrowed.some((t) => same(t, title))) return no(borrowed.length ? `borrowed ${list(borrowed)}, not "${title}"` : 'nothing was borrowed');
      if (borrowed.length > 1) return no(`${borrowed.length} books were borrowed (${list(borrowed)}), expected one`);
      return ok(`borrowed "${title}"`);
    }
    case 'renew_loan': {
      const title = param(spec, 'loan', LOAN_TITLES);
      const id = book(title)?.id;
      const renewed = state.loans.filter((l) => l.renewals > 0);
      const target = renewed.find((l) => l.bookId === id);
      const others = renewed.filter((l) => l !== target).map((l) => titleOf(state, l.bookId));
      if (!target) return no(others.length ? `renewed ${list(others)} instead of "${title}"` : `"${title}" was not renewed`);
      if (others.length) return no(`"${title}" was renewed but so were ${list(others)}`);
      if (state.loans.some((l) => l.returned)) return no('a loan was returned');
      return ok(`renewed "${title}" until ${target.due}`);
    }
    case 'place_hold': {
      const title = param(spec, 'title', ON_LOAN_TITLES);
      const branch = param(spec, 'branch', BRANCHES);
      const holds = state.holds.filter((h) => !h.cancelled);
      const h = holds.find((x) => same(titleOf(state, x.bookId), title));
      if (!h) return no(holds.length ? `held ${list(holds.map((x) => titleOf(state, x.bookId)))}, not "${title}"` : `no hold on "${title}"`);
      if (!same(h.branch, branch)) return no(`hold on "${title}" for pickup at ${h.branch}, expected ${branch}`);
      if (holds.length > 1) return no(`${holds.length} holds were placed, expected one`);
      return ok(`hold on "${title}" at ${branch}`);
    }
    default:
      throw new Error(`library checker: unknown task family "${spec.family}" (known: ${LIBRARY_FAMILIES.join(', ')})`);
  }
}

export const libraryCheckers: AppCheckers<LibraryState> = { families: LIBRARY_FAMILIES, check };
