import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  dayByName,
  initialMealsState,
  MAX_SERVINGS,
  MEALS,
  RECIPE_NAMES,
  recipeOf,
  REMINDER_NAMES,
  TIMES,
  weekdayOf,
  type MealsState,
  type PlanEntry,
  type Recipe,
  type Reminder,
} from './state.js';

export const MEALS_FAMILIES = ['plan_meal', 'edit_cook_time', 'set_reminder', 'delete_recipe'] as const;
export type MealsFamily = (typeof MEALS_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`meals checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`meals checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');
const servingsText = (n: number): string => `${n} serving${n === 1 ? '' : 's'}`;

/** Success checkers for Saffra; they read the server-side session state in-process. */
export function check(state: MealsState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'meals') throw new Error(`meals checker got a spec for app "${spec.app}"`);
  const start = initialMealsState(state.seed);
  const beforeRecipe = (r: Recipe): Recipe | undefined => start.recipes.find((x) => x.id === r.id);
  const beforeReminder = (r: Reminder): Reminder | undefined => start.reminders.find((x) => x.id === r.id);
  const recipe = (key: string): Recipe => {
    const name = param(spec, key, RECIPE_NAMES);
    const r = state.recipes.find((x) => same(beforeRecipe(x)?.name ?? '', name));
    if (!r) throw new Error(`meals checker ${spec.family}: no recipe "${name}"`);
    return r;
  };
  const nameOf = (id: string): string => recipeOf(state, id)?.name ?? id;
  const entryText = (p: PlanEntry): string => `${nameOf(p.recipeId)} on ${weekdayOf(p.day)} ${p.meal.toLowerCase()}`;

  const added = state.plan.filter((p) => !p.seeded).sort((a, b) => a.seq - b.seq);
  const addedKept = added.filter((p) => !p.removed);
  const unplanned = state.plan.filter((p) => p.seeded && p.removed);
  const deleted = state.recipes.filter((r) => r.deleted).sort((a, b) => a.seq - b.seq);
  /** Recipes (not deleted) whose details differ from how they started. */
  const changed = state.recipes.filter((r) => {
    const b = beforeRecipe(r);
    return !r.deleted && b !== undefined && (r.name !== b.name || r.collection !== b.collection || r.serves !== b.serves || r.prepMin !== b.prepMin || r.cookMin !== b.cookMin || r.notes !== b.notes);
  });
  const favs = state.recipes.filter((r) => r.favorite !== beforeRecipe(r)?.favorite);
  const reminders = state.reminders.filter((r) => {
    const b = beforeReminder(r);
    return b !== undefined && (r.on !== b.on || r.time !== b.time || r.repeat !== b.repeat);
  });
  const groceries = state.groceries.filter((g) => g.checked !== start.groceries.find((x) => x.id === g.id)?.checked);
  /** What else changed besides the task, or '' when nothing did. */
  const sideEffects = (skip: { planned?: boolean; changed?: boolean; reminders?: boolean; deleted?: boolean }): string => {
    if (!skip.planned && addedKept.length) return `${addedKept.map(entryText).join(', ')} was added to the plan`;
    if (unplanned.length) return `${unplanned.map(entryText).join(', ')} was taken off the plan`;
    if (!skip.deleted && deleted.length) return `${list(deleted.map((r) => r.name))} was deleted`;
    if (!skip.changed && changed.length) return `${list(changed.map((r) => r.name))} was edited`;
    if (favs.length) return `${list(favs.map((r) => r.name))} was ${favs[0]?.favorite ? 'added to' : 'removed from'} favorites`;
    if (!skip.reminders && reminders.length) return `the ${list(reminders.map((r) => r.name))} reminder was changed`;
    if (groceries.length) return `${list(groceries.map((g) => g.name))} was ${groceries[0]?.checked ? 'ticked' : 'unticked'} on the shopping list`;
    return '';
  };

  switch (spec.family as MealsFamily) {
    case 'plan_meal': {
      const r = recipe('plan_recipe');
      const dayName = param(spec, 'plan_day');
      const day = dayByName(dayName);
      if (day === undefined) throw new Error(`meals checker plan_meal: unknown plan_day "${dayName}"`);
      const meal = param(spec, 'plan_meal', MEALS);
      const sv = param(spec, 'plan_servings');
      const servings = Number(sv.trim());
      if (!Number.isInteger(servings) || servings < 1 || servings > MAX_SERVINGS) throw new Error(`meals checker plan_meal: unknown plan_servings "${sv}"`);
      if (r.deleted) return no(`${r.name} was deleted`);
      if (!addedKept.length) return no(added.length ? `a meal was added but then taken off the plan (${added.map(entryText).join(', ')})` : 'no meal was added to the plan');
      const p = addedKept.find((x) => x.recipeId === r.id && x.day === day && same(x.meal, meal)) ?? addedKept.find((x) => x.recipeId === r.id) ?? addedKept[addedKept.length - 1]!;
      if (p.recipeId !== r.id) return no(`the meal added is ${nameOf(p.recipeId)}, expected ${r.name}`);
      if (p.day !== day) return no(`${r.name} was planned for ${weekdayOf(p.day)}, expected ${weekdayOf(day)}`);
      if (!same(p.meal, meal)) return no(`${r.name} was planned as ${p.meal.toLowerCase()}, expected ${meal.toLowerCase()}`);
      if (p.servings !== servings) return no(`${r.name} was planned for ${servingsText(p.servings)}, expected ${servingsText(servings)}`);
      if (addedKept.length > 1) return no(`${addedKept.length} meals were added (${addedKept.map(entryText).join(', ')}), expected one`);
      const side = sideEffects({ planned: true });
      if (side) return no(`${entryText(p)} was planned but ${side}`);
      return ok(`planned ${r.name} for ${weekdayOf(day)} ${p.meal.toLowerCase()}, ${servingsText(p.servings)}`);
    }
    case 'edit_cook_time': {
      const r = recipe('edit_recipe');
      const mv = param(spec, 'edit_minutes');
      const mins = Number(mv.replace(/\s*(minutes|min)$/i, '').trim());
      if (!Number.isInteger(mins) || mins < 0) throw new Error(`meals checker edit_cook_time: unknown edit_minutes "${mv}"`);
      const b = beforeRecipe(r);
      if (!b) throw new Error(`meals checker edit_cook_time: "${r.name}" was not seeded`);
      if (b.cookMin === mins) throw new Error(`meals checker edit_cook_time: ${b.name} already cooks for ${mins} minutes`);
      if (r.deleted) return no(`${b.name} was deleted`);
      const edited = state.recipes.filter((x) => x.edits > 0);
      if (!edited.length) return no('no recipe was edited');
      if (r.cookMin !== mins) {
        if (r.cookMin === b.cookMin) return no(`${b.name} still cooks for ${b.cookMin} minutes (edited ${list(edited.map((x) => x.name))} instead)`);
        return no(`${b.name} now cooks for ${r.cookMin} minutes, expected ${mins}`);
      }
      if (r.name !== b.name) return no(`${b.name}'s cook time was changed but it was renamed "${r.name}"`);
      if (r.prepMin !== b.prepMin) return no(`${b.name}'s cook time was changed but its prep time changed too, from ${b.prepMin} to ${r.prepMin} minutes`);
      if (r.serves !== b.serves) return no(`${b.name}'s cook time was changed but it now serves ${r.serves} instead of ${b.serves}`);
      if (r.collection !== b.collection) return no(`${b.name}'s cook time was changed but it moved from ${b.collection} to ${r.collection}`);
      if (r.notes !== b.notes) return no(`${b.name}'s cook time was changed but its notes changed too`);
      const others = changed.filter((x) => x.id !== r.id);
      if (others.length) return no(`${b.name} was changed but ${list(others.map((x) => x.name))} was edited too`);
      const side = sideEffects({ changed: true });
      if (side) return no(`${b.name} was changed but ${side}`);
      return ok(`${b.name} now cooks for ${r.cookMin} minutes (was ${b.cookMin})`);
    }
    case 'set_reminder': {
      const name = param(spec, 'reminder', REMINDER_NAMES);
      const time = param(spec, 'reminder_time', TIMES);
      const r = state.reminders.find((x) => same(x.name, name));
      const b = r ? beforeReminder(r) : undefined;
      if (!r || !b) throw new Error(`meals checker set_reminder: no reminder "${name}"`);
      if (b.on && same(b.time, time)) throw new Error(`meals checker set_reminder: ${r.name} is already on at ${time}`);
      const saved = state.reminders.filter((x) => x.saves > 0);
      if (!saved.length) return no('no reminder was saved');
      if (!r.on) return no(r.saves ? `${r.name} was saved but is off` : `${r.name} is still off (saved ${list(saved.map((x) => x.name))} instead)`);
      if (!same(r.time, time)) return no(r.time === b.time ? `${r.name} is still at ${r.time}${r.saves ? '' : ` (saved ${list(saved.map((x) => x.name))} instead)`}, expected ${time}` : `${r.name} is set for ${r.time}, expected ${time}`);
      if (r.repeat !== b.repeat) return no(`${r.name} is on at ${r.time} but its repeat changed from ${b.repeat} to ${r.repeat}`);
      const others = reminders.filter((x) => x.id !== r.id);
      if (others.length) return no(`${r.name} is on at ${r.time} but the ${list(others.map((x) => x.name))} reminder was changed too`);
      const side = sideEffects({ reminders: true });
      if (side) return no(`${r.name} is on at ${r.time} but ${side}`);
      return ok(`${r.name} reminder is on at ${r.time}, ${r.repeat.toLowerCase()}`);
    }
    case 'delete_recipe': {
      const r = recipe('delete_recipe');
      const others = deleted.filter((x) => x.id !== r.id);
      if (!r.deleted) return no(deleted.length ? `${r.name} was not deleted (deleted ${list(others.map((x) => x.name))} instead)` : 'no recipe was deleted');
      if (others.length) return no(`${deleted.length} recipes were deleted (${list(deleted.map((x) => x.name))}), expected one`);
      const side = sideEffects({ deleted: true });
      if (side) return no(`${r.name} was deleted but ${side}`);
      return ok(`deleted ${r.name} from the recipe box`);
    }
    default:
      throw new Error(`meals checker: unknown task family "${spec.family}" (known: ${MEALS_FAMILIES.join(', ')})`);
  }
}

export const mealsCheckers: AppCheckers<MealsState> = { families: MEALS_FAMILIES, check };
