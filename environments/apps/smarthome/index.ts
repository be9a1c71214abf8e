import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleSmartHome } from './app.js';
import { smartHomeCheckers } from './checkers.js';
import { initialSmartHomeState, type SmartHomeState } from './state.js';

export const SMARTHOME_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * HomeHub, a smart home app (lights and plugs by room, door locks, guest keypad codes). Added as a held-out app,
 * written blind: without reading the reference policy's, the critics' or the query generator's code, nor the
 * earlier paraphrase sets.
 */
export const smartHomeApp: AppModule<SmartHomeState> = {
  id: 'smarthome',
  title: 'HomeHub',
  icon: { color: '#0b7285', glyph: 'H' },
  dag: loadDag(SMARTHOME_DAG_PATH, 'environments/apps/smarthome/dag.json'),
  initialState: initialSmartHomeState,
  handle: handleSmartHome,
  checkers: smartHomeCheckers,
};
