import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleNotes } from './app.js';
import { notesCheckers } from './checkers.js';
import { initialNotesState, type NotesState } from './state.js';

export const NOTES_DAG_PATH = new URL('./dag.json', import.meta.url);

export const notesApp: AppModule<NotesState> = {
  id: 'notes',
  title: 'Notes',
  icon: { color: '#f59f00', glyph: 'N' },
  dag: loadDag(NOTES_DAG_PATH, 'environments/apps/notes/dag.json'),
  initialState: initialNotesState,
  handle: handleNotes,
  checkers: notesCheckers,
};
