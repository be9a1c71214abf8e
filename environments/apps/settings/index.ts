import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleSettings } from './app.js';
import { settingsCheckers } from './checkers.js';
import { initialSettingsState, type SettingsState } from './state.js';

export const SETTINGS_DAG_PATH = new URL('./dag.json', import.meta.url);

export const settingsApp: AppModule<SettingsState> = {
  id: 'settings',
  title: 'Settings',
  icon: { color: '#0b5cad', glyph: 'S' },
  dag: loadDag(SETTINGS_DAG_PATH, 'environments/apps/settings/dag.json'),
  initialState: initialSettingsState,
  handle: handleSettings,
  checkers: settingsCheckers,
};
