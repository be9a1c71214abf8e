import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleClock } from './app.js';
import { clockCheckers } from './checkers.js';
import { initialClockState, type ClockState } from './state.js';

export const CLOCK_DAG_PATH = new URL('./dag.json', import.meta.url);

export const clockApp: AppModule<ClockState> = {
  id: 'clock',
  title: 'Clock',
  icon: { color: '#3b5bdb', glyph: 'C' },
  dag: loadDag(CLOCK_DAG_PATH, 'environments/apps/clock/dag.json'),
  initialState: initialClockState,
  handle: handleClock,
  checkers: clockCheckers,
};
