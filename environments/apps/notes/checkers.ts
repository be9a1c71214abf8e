import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { contains, no, ok, same } from '../kit.js';
import { SEEDED_NOTE_TITLES, type Note, type NotesState } from './state.js';

export const NOTES_FAMILIES = ['create_note', 'pin_note', 'delete_note'] as const;
export type NotesFamily = (typeof NOTES_FAMILIES)[number];

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`notes checker ${spec.family}: missing param "${key}"`);
  return v;
}
function seededTitle(spec: CheckerSpec): string {
  const t = param(spec, 'note');
  if (!SEEDED_NOTE_TITLES.some((s) => same(s, t))) throw new Error(`notes checker ${spec.family}: unknown note "${t}"`);
  return t;
}
const seededNote = (state: NotesState, title: string): Note | undefined => state.notes.find((n) => n.seeded && same(n.title, title));

/** Success checkers for Notes; they read the server-side session state in-process. */
export function check(state: NotesState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'notes') throw new Error(`notes checker got a spec for app "${spec.app}"`);
  switch (spec.family as NotesFamily) {
    case 'create_note': {
      const title = param(spec, 'title');
      const body = param(spec, 'body');
      const created = state.notes.filter((n) => !n.seeded && !n.deleted);
      const match = created.find((n) => same(n.title, title));
      if (!match) return no(created.length ? `created ${created.map((n) => `"${n.title}"`).join(', ')}, not "${title}"` : 'no note was created');
      if (!contains(match.body, body)) return no(`note "${match.title}" has text "${match.body}", expected "${body}"`);
      if (created.length > 1) return no(`${created.length} notes were created, expected one`);
      return ok(`created note "${match.title}"`);
    }
    case 'pin_note': {
      const title = seededTitle(spec);
      const n = seededNote(state, title);
      if (!n || n.deleted) return no(`note "${title}" was deleted`);
      const wrong = state.notes.filter((x) => x.pinned && !x.deleted && x !== n && !(x.seeded && x.title === 'Wi-Fi password'));
      if (!n.pinned) return no(wrong.length ? `pinned ${wrong.map((x) => `"${x.title}"`).join(', ')} instead of "${title}"` : `"${title}" is not pinned`);
      if (wrong.length) return no(`"${title}" is pinned but so are ${wrong.map((x) => `"${x.title}"`).join(', ')}`);
      return ok(`"${title}" is pinned`);
    }
    case 'delete_note': {
      const title = seededTitle(spec);
      const n = seededNote(state, title);
      const others = state.notes.filter((x) => x.deleted && x !== n);
      if (!n?.deleted) return no(others.length ? `deleted ${others.map((x) => `"${x.title}"`).join(', ')} instead of "${title}"` : `"${title}" was not deleted`);
      if (others.length) return no(`"${title}" was deleted but so were ${others.map((x) => `"${x.title}"`).join(', ')}`);
      return ok(`deleted "${title}"`);
    }
    default:
      throw new Error(`notes checker: unknown task family "${spec.family}" (known: ${NOTES_FAMILIES.join(', ')})`);
  }
}

export const notesCheckers: AppCheckers<NotesState> = { families: NOTES_FAMILIES, check };
