import { dayCalendar, rng, shuffle } from '../shared.js';

/** One recipe in the recipe box. */
export interface Recipe {
  /** Slug, e.g. `lemon-chicken-orzo`. */
  id: string;
  name: string;
  collection: string;
  serves: number;
  prepMin: number;
  cookMin: number;
  /** Average rating, one decimal. */
  rating: number;
  ingredients: readonly string[];
  notes: string;
  favorite: boolean;
  /** Deleted (stays in state, so Undo can bring it back). */
  deleted: boolean;
  /** Times it was saved from Edit recipe in this session. */
  edits: number;
  /** Order it was edited, deleted or restored in this session (0 when untouched). */
  seq: number;
}

/** A meal on this week's plan. */
export interface PlanEntry {
  id: number;
  /** Day offset from today (0 = Monday … 6 = Sunday). */
  day: number;
  meal: string;
  recipeId: string;
  servings: number;
  /** On the plan when the session starts. */
  seeded: boolean;
  /** Taken off the plan in this session. */
  removed: boolean;
  seq: number;
}

/** A reminder under Profile. */
export interface Reminder {
  id: string;
  name: string;
  on: boolean;
  time: string;
  repeat: string;
  /** Times it was saved in this session. */
  saves: number;
}

/** An item on the shopping list. */
export interface GroceryItem {
  id: number;
  name: string;
  aisle: string;
  checked: boolean;
}

/** Saffra's per-session state. Read by checkers in-process; the page never sees this object. */
export interface MealsState {
  seed: number;
  recipes: Recipe[];
  plan: PlanEntry[];
  reminders: Reminder[];
  groceries: GroceryItem[];
  seq: number;
}

export const OWNER = 'Jordan Ellis';
export const OWNER_EMAIL = 'jordan.ellis@example.com';

/** Today is Monday, October 6; the plan covers this week, Monday to Sunday (offsets 0–6). */
const calendar = dayCalendar(2025, 9, 6);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;
export const WEEK: readonly number[] = [0, 1, 2, 3, 4, 5, 6];
export const DAY_NAMES: readonly string[] = WEEK.map(weekdayOf);
export const dayByName = (name: string): number | undefined => {
  const i = DAY_NAMES.findIndex((d) => d.toLowerCase() === name.trim().toLowerCase());
  return i < 0 ? undefined : i;
};

export const COLLECTIONS: readonly string[] = ['Breakfast', 'Mains', 'Soups & salads', 'Baking'];
export const MEALS: readonly string[] = ['Breakfast', 'Lunch', 'Dinner', 'Snack'];
export const DEFAULT_SERVINGS = 2;
export const MAX_SERVINGS = 12;
export const MAX_MINUTES = 600;
export const NAME_MAX = 40;
export const REPEATS: readonly string[] = ['Every day', 'Weekdays', 'Weekends'];
/** Reminder times: every half hour from 6:00 AM to 10:00 PM. */
export const TIMES: readonly string[] = Array.from({ length: 33 }, (_, i) => {
  const mins = 6 * 60 + i * 30;
  const h = Math.floor(mins / 60);
  const m = mins % 60;
  return `${h % 12 === 0 ? 12 : h % 12}:${m === 0 ? '00' : '30'} ${h < 12 ? 'AM' : 'PM'}`;
});

/** Name, collection, serves, prep minutes, cook minutes, ingredients. Near-duplicates sit side by side A–Z. */
type SeedRecipe = readonly [string, string, number, number, number, readonly string[]];
const RECIPES: readonly SeedRecipe[] = [
  ['Overnight oats', 'Breakfast', 2, 10, 0, ['Rolled oats', 'Milk', 'Greek yogurt', 'Chia seeds', 'Maple syrup']],
  ['Baked oats', 'Breakfast', 2, 5, 30, ['Rolled oats', 'Banana', 'Egg', 'Milk', 'Blueberries']],
  ['Buttermilk pancakes', 'Breakfast', 4, 10, 15, ['Flour', 'Buttermilk', 'Eggs', 'Butter', 'Baking powder']],
  ['Protein pancakes', 'Breakfast', 2, 5, 10, ['Oat flour', 'Protein powder', 'Eggs', 'Cottage cheese']],
  ['Shakshuka', 'Breakfast', 3, 10, 25, ['Eggs', 'Crushed tomatoes', 'Red pepper', 'Onion', 'Cumin', 'Feta']],
  ['Spinach feta omelette', 'Breakfast', 1, 5, 8, ['Eggs', 'Baby spinach', 'Feta', 'Butter']],
  ['Lemon chicken orzo', 'Mains', 4, 10, 25, ['Chicken thighs', 'Orzo', 'Lemons', 'Chicken stock', 'Parmesan', 'Baby spinach']],
  ['Black bean tacos', 'Mains', 4, 15, 15, ['Black beans', 'Corn tortillas', 'Avocado', 'Lime', 'Red onion']],
  ['Black bean burgers', 'Mains', 4, 20, 12, ['Black beans', 'Breadcrumbs', 'Egg', 'Smoked paprika', 'Burger buns']],
  ['Chicken tikka masala', 'Mains', 4, 20, 35, ['Chicken breast', 'Greek yogurt', 'Tikka paste', 'Crushed tomatoes', 'Cream', 'Basmati rice']],
  ['Chickpea tikka masala', 'Mains', 4, 10, 30, ['Chickpeas', 'Tikka paste', 'Coconut milk', 'Crushed tomatoes', 'Basmati rice']],
  ['Mushroom risotto', 'Mains', 4, 10, 35, ['Arborio rice', 'Mushrooms', 'Vegetable stock', 'White wine', 'Parmesan']],
  ['Mushroom stroganoff', 'Mains', 4, 10, 20, ['Mushrooms', 'Sour cream', 'Onion', 'Egg noodles', 'Paprika']],
  ['Miso salmon', 'Mains', 2, 5, 15, ['Salmon fillets', 'White miso', 'Honey', 'Soy sauce', 'Rice']],
  ['Pesto gnocchi', 'Mains', 2, 5, 12, ['Gnocchi', 'Basil pesto', 'Cherry tomatoes', 'Parmesan']],
  ['Veggie fried rice', 'Mains', 3, 10, 15, ['Cooked rice', 'Frozen peas', 'Carrots', 'Eggs', 'Soy sauce']],
  ['Egg fried rice', 'Mains', 2, 5, 10, ['Cooked rice', 'Eggs', 'Spring onions', 'Soy sauce']],
  ['Greek chicken bowls', 'Mains', 4, 20, 20, ['Chicken thighs', 'Rice', 'Cucumber', 'Tzatziki', 'Kalamata olives']],
  ['Tomato basil pasta', 'Mains', 4, 10, 20, ['Spaghetti', 'Cherry tomatoes', 'Garlic', 'Fresh basil', 'Olive oil']],
  ['Lemon chicken soup', 'Soups & salads', 6, 15, 40, ['Chicken breast', 'Orzo', 'Lemons', 'Carrots', 'Celery', 'Chicken stock']],
  ['Tomato basil soup', 'Soups & salads', 4, 10, 30, ['Crushed tomatoes', 'Fresh basil', 'Onion', 'Garlic', 'Cream']],
  ['Miso ramen', 'Soups & salads', 2, 10, 20, ['Ramen noodles', 'White miso', 'Vegetable stock', 'Eggs', 'Bok choy']],
  ['Greek salad', 'Soups & salads', 2, 15, 0, ['Cucumber', 'Tomatoes', 'Feta', 'Kalamata olives', 'Red onion']],
  ['Pesto pasta salad', 'Soups & salads', 6, 15, 10, ['Fusilli', 'Basil pesto', 'Cherry tomatoes', 'Mozzarella pearls']],
  ['Banana bread', 'Baking', 8, 15, 60, ['Ripe bananas', 'Flour', 'Brown sugar', 'Butter', 'Eggs', 'Walnuts']],
  ['Banana oat muffins', 'Baking', 12, 10, 22, ['Ripe bananas', 'Rolled oats', 'Flour', 'Honey', 'Eggs']],
  ['Apple crumble', 'Baking', 6, 20, 40, ['Apples', 'Flour', 'Rolled oats', 'Butter', 'Cinnamon']],
];
export const SEEDED_RECIPES = RECIPES;
export const RECIPE_NAMES: readonly string[] = RECIPES.map(([n]) => n);
export const slug = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
/** Recipes the seeded plan draws from (none of them is one a task deletes). */
const PLAN_POOL: readonly string[] = [
  'Overnight oats',
  'Buttermilk pancakes',
  'Shakshuka',
  'Lemon chicken orzo',
  'Chicken tikka masala',
  'Mushroom risotto',
  'Miso salmon',
  'Pesto gnocchi',
  'Veggie fried rice',
  'Greek chicken bowls',
  'Tomato basil soup',
  'Tomato basil pasta',
  'Black bean burgers',
];

/** Id, name, on, time, repeat. */
const REMINDERS: readonly (readonly [string, string, boolean, string, string])[] = [
  ['breakfast', 'Breakfast prep', false, '7:00 AM', 'Weekdays'],
  ['lunch', 'Lunch prep', false, '11:30 AM', 'Weekdays'],
  ['dinner', 'Dinner prep', true, '5:00 PM', 'Every day'],
  ['thaw', 'Thaw for tomorrow', false, '8:00 PM', 'Every day'],
  ['grocery', 'Grocery day', true, '10:00 AM', 'Weekends'],
  ['plan', 'Plan next week', false, '6:00 PM', 'Weekends'],
];
export const SEEDED_REMINDERS = REMINDERS;
export const REMINDER_NAMES: readonly string[] = REMINDERS.map(([, n]) => n);

const GROCERIES: readonly (readonly [string, string])[] = [
  ['Lemons', 'Produce'],
  ['Baby spinach', 'Produce'],
  ['Cherry tomatoes', 'Produce'],
  ['Fresh basil', 'Produce'],
  ['Mushrooms', 'Produce'],
  ['Feta', 'Dairy & eggs'],
  ['Greek yogurt', 'Dairy & eggs'],
  ['Eggs', 'Dairy & eggs'],
  ['Orzo', 'Pantry'],
  ['Arborio rice', 'Pantry'],
  ['Coconut milk', 'Pantry'],
  ['Tikka paste', 'Pantry'],
  ['Salmon fillets', 'Meat & fish'],
  ['Chicken thighs', 'Meat & fish'],
];

export const recipeOf = (s: MealsState, id: string): Recipe | undefined => s.recipes.find((r) => r.id === id);
export const recipeByName = (s: MealsState, name: string): Recipe | undefined => s.recipes.find((r) => r.name.toLowerCase() === name.trim().toLowerCase());
export const liveRecipes = (s: MealsState): Recipe[] => s.recipes.filter((r) => !r.deleted);
/** Meals on the plan: not removed, and whose recipe is still in the box. */
export const livePlan = (s: MealsState): PlanEntry[] => s.plan.filter((p) => !p.removed && !recipeOf(s, p.recipeId)?.deleted);
export const entryOf = (s: MealsState, id: number): PlanEntry | undefined => s.plan.find((p) => p.id === id);
export const reminderOf = (s: MealsState, id: string): Reminder | undefined => s.reminders.find((r) => r.id === id);
export const totalMin = (r: Recipe): number => r.prepMin + r.cookMin;
export const minutes = (n: number): string => (n >= 60 ? `${Math.floor(n / 60)} hr${n % 60 ? ` ${n % 60} min` : ''}` : `${n} min`);
export const mealOrder = (meal: string): number => MEALS.indexOf(meal);

export function initialMealsState(seed: number): MealsState {
  const rand = rng(seed ^ 0x5aff7a);
  const recipes: Recipe[] = RECIPES.map(([name, collection, serves, prepMin, cookMin, ingredients]) => ({
    id: slug(name),
    name,
    collection,
    serves,
    prepMin,
    cookMin,
    rating: Math.round((3.8 + rand() * 1.2) * 10) / 10,
    ingredients,
    notes: '',
    favorite: rand() < 0.3,
    deleted: false,
    edits: 0,
    seq: 0,
  }));
  // This week's plan differs by seed: a dinner on most days, a few breakfasts and lunches.
  const pool = shuffle(PLAN_POOL, rand);
  const plan: PlanEntry[] = [];
  let k = 0;
  const next = (): string => slug(pool[k++ % pool.length] ?? 'Shakshuka');
  for (const day of WEEK) {
    if (rand() < 0.8) plan.push({ id: 301 + plan.length, day, meal: 'Dinner', recipeId: next(), servings: 2 + Math.floor(rand() * 3), seeded: true, removed: false, seq: 0 });
    if (rand() < 0.35) plan.push({ id: 301 + plan.length, day, meal: rand() < 0.5 ? 'Breakfast' : 'Lunch', recipeId: next(), servings: 1 + Math.floor(rand() * 2), seeded: true, removed: false, seq: 0 });
  }
  const reminders: Reminder[] = REMINDERS.map(([id, name, on, time, repeat]) => ({ id, name, on, time, repeat, saves: 0 }));
  const groceries: GroceryItem[] = GROCERIES.map(([name, aisle], i) => ({ id: 11 + i, name, aisle, checked: rand() < 0.25 }));
  return { seed, recipes, plan, reminders, groceries, seq: 0 };
}

/** Why a planned meal cannot be saved, by field (empty when it can). */
export function planErrors(s: MealsState, d: { recipe: string; day: number; meal: string; servings: number }): Record<string, string> {
  const errors: Record<string, string> = {};
  const r = recipeOf(s, d.recipe);
  if (!r || r.deleted) errors.recipe = 'Choose a recipe';
  if (!WEEK.includes(d.day)) errors.day = 'Choose a day';
  if (!MEALS.includes(d.meal)) errors.meal = 'Choose a meal';
  if (!Number.isInteger(d.servings) || d.servings < 1 || d.servings > MAX_SERVINGS) errors.servings = `Choose 1 to ${MAX_SERVINGS} servings`;
  return errors;
}

/** Why a recipe cannot be saved from Edit recipe, by field (empty when it can). */
export function recipeErrors(d: { name: string; serves: number; prep: string; cook: string; collection: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = cleanText(d.name);
  if (!name) errors.name = 'Enter a name';
  else if (name.length > NAME_MAX) errors.name = `Use ${NAME_MAX} characters or fewer`;
  if (!Number.isInteger(d.serves) || d.serves < 1 || d.serves > MAX_SERVINGS) errors.serves = `Choose 1 to ${MAX_SERVINGS} servings`;
  for (const k of ['prep', 'cook'] as const) {
    const t = d[k].trim();
    if (!t) errors[k] = 'Enter the minutes';
    else if (!/^\d+$/.test(t) || Number(t) > MAX_MINUTES) errors[k] = `Enter whole minutes, 0 to ${MAX_MINUTES}`;
  }
  if (!COLLECTIONS.includes(d.collection)) errors.collection = 'Choose a collection';
  return errors;
}

export const cleanText = (s: string): string => s.trim().replace(/\s+/g, ' ');
