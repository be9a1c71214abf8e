import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleDrive } from './app.js';
import { driveCheckers } from './checkers.js';
import { initialDriveState, type DriveState } from './state.js';

export const DRIVE_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Nimbrel, a cloud file storage app (Home with Suggested and Recent files, Starred, Shared with me and Files tabs, nested
 * folders with a + New button, an item menu per row, a Share page with people suggestions and roles, a Move picker, file
 * details, Offline, Trash and Settings in a side drawer): make a folder inside another, move a file into a folder, share
 * a file with someone in a given role, make a file available offline. Added as a held-out app, written blind: its
 * author read only the app format (`environments/**`, `domain/dag.ts`, the app tests) and the earlier paraphrase sets,
 * never the policy, critics or query generator's consumers.
 */
export const driveApp: AppModule<DriveState> = {
  id: 'drive',
  title: 'Nimbrel',
  icon: { color: '#2f5fd0', glyph: 'Nb' },
  dag: loadDag(DRIVE_DAG_PATH, 'environments/apps/drive/dag.json'),
  initialState: initialDriveState,
  handle: handleDrive,
  checkers: driveCheckers,
};
