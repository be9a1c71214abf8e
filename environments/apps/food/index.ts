import { readFileSync } from 'node:fs';
import { AppDag } from '../../../domain/dag.js';
import { parseOrThrow } from '../../../domain/errors.js';
import type { AppModule } from '../../app-types.js';
import { handleFood } from './app.js';
import { foodCheckers } from './checkers.js';
import { initialFoodState, type FoodState } from './state.js';

export const FOOD_DAG_PATH = new URL('./dag.json', import.meta.url);

export function loadFoodDag(): AppDag {
  return parseOrThrow(AppDag, JSON.parse(readFileSync(FOOD_DAG_PATH, 'utf8')), 'environments/apps/food/dag.json');
}

export const foodApp: AppModule<FoodState> = {
  id: 'food',
  title: 'Foodie',
  icon: { color: '#e03131', glyph: 'F' },
  dag: loadFoodDag(),
  initialState: initialFoodState,
  handle: handleFood,
  checkers: foodCheckers,
};
