import type { AppModule } from '../../app-types.js';
import { loadDag } from '../kit.js';
import { handleMeals } from './app.js';
import { mealsCheckers } from './checkers.js';
import { initialMealsState, type MealsState } from './state.js';

export const MEALS_DAG_PATH = new URL('./dag.json', import.meta.url);

/**
 * Saffra, a recipe box and weekly meal planner (Recipes with each recipe's details, Planner for this week, Groceries,
 * Profile with meal reminders). Added as a held-out app, written blind: its author read only the app format
 * (`environments/**`, `domain/dag.ts`, the app tests) and the earlier paraphrase sets, never the policy, critics or
 * query generator.
 */
export const mealsApp: AppModule<MealsState> = {
  id: 'meals',
  title: 'Saffra',
  icon: { color: '#c2410c', glyph: 'Sa' },
  dag: loadDag(MEALS_DAG_PATH, 'environments/apps/meals/dag.json'),
  initialState: initialMealsState,
  handle: handleMeals,
  checkers: mealsCheckers,
};
