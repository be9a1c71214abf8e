import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleLibrary } from './app.js';
import { libraryCheckers } from './checkers.js';
import { initialLibraryState, type LibraryState } from './state.js';

export const LIBRARY_DAG_PATH = new URL('./dag.json', import.meta.url);

/** Added after the reference policy and critics were frozen (issue 17): none of their code was written against it. */
export const libraryApp: AppModule<LibraryState> = {
  id: 'library',
  title: 'Library',
  icon: { color: '#2f9e44', glyph: 'L' },
  dag: loadDag(LIBRARY_DAG_PATH, 'environments/apps/library/dag.json'),
  initialState: initialLibraryState,
  handle: handleLibrary,
  checkers: libraryCheckers,
};
