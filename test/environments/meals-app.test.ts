import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  DAY_NAMES,
  dayByName,
  DEFAULT_SERVINGS,
  initialMealsState,
  MEALS,
  planErrors,
  RECIPE_NAMES,
  recipeByName,
  recipeOf,
  recipeErrors,
  REMINDER_NAMES,
  SEEDED_RECIPES,
  SEEDED_REMINDERS,
  slug,
  TIMES,
  type MealsState,
} from '../../environments/apps/meals/state.js';

const { step, tap, exact, spec, check, open } = usePhone('meals', 'Saffra');

const state = async (s: ChromiumSession): Promise<MealsState> => (await s.checkerState()).meals as MealsState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
/** Opens a recipe from the Recipes tab by its name. */
async function openRecipe(s: ChromiumSession, name: string): Promise<void> {
  await tap(s, s.page.locator('.bnav a[aria-label="Recipes"]'));
  await tap(s, s.page.locator(`a.rc[data-name="${name}"]`));
  expect(await s.page.getByText('Ingredients', { exact: true }).isVisible()).toBe(true);
}
/** Opens a reminder from the Profile tab by its name. */
async function openReminder(s: ChromiumSession, name: string): Promise<void> {
  await tap(s, s.page.locator('.bnav a[aria-label="Profile"]'));
  await tap(s, s.page.locator(`a.rm[data-reminder="${name}"]`));
  expect(await s.page.getByText('Remind me', { exact: true }).isVisible()).toBe(true);
}
/** Scrolls an option of a long picker list into view (as a swipe in the dialog would), then taps it. */
async function pick(s: ChromiumSession, sel: string): Promise<void> {
  await s.page.locator(sel).scrollIntoViewIfNeeded();
  await tap(s, s.page.locator(sel));
}
/** Taps a text field, empties it and types `text`. */
async function retype(s: ChromiumSession, sel: string, text: string): Promise<void> {
  await tap(s, s.page.locator(sel));
  await step(s, { action: 'key', text: 'KEYCODE_MOVE_END' });
  for (let i = 0; i < 6; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
  if (text) await step(s, { action: 'type', text });
}

describe('Saffra recipe box and meal planner app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('meals');
    expect(app?.title).toBe('Saffra');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialMealsState(3);
    expect(st).toEqual(initialMealsState(3));
    expect(initialMealsState(3)).not.toEqual(initialMealsState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    // Plan a meal: every recipe, day, meal and servings count the DAG offers is one the form takes, and none is the form's default.
    const planRecipes = slot('plan_form', 'plan_recipe')?.values ?? [];
    const meals = slot('plan_form', 'plan_meal')?.dependsOn?.values ?? {};
    expect(Object.keys(meals).sort()).toEqual([...planRecipes].sort());
    for (const day of slot('plan_form', 'plan_day')?.values ?? []) {
      expect(DAY_NAMES).toContain(day);
      expect(dayByName(day)).not.toBe(0);
    }
    for (const n of slot('plan_form', 'plan_servings')?.values ?? []) expect(Number(n)).not.toBe(DEFAULT_SERVINGS);
    for (const name of planRecipes) {
      const r = recipeByName(st, name)!;
      expect(r, name).toBeDefined();
      for (const meal of meals[name] ?? []) {
        expect(MEALS).toContain(meal);
        for (const day of slot('plan_form', 'plan_day')?.values ?? [])
          for (const n of slot('plan_form', 'plan_servings')?.values ?? []) expect(planErrors(st, { recipe: r.id, day: dayByName(day)!, meal, servings: Number(n) })).toEqual({});
      }
    }
    // Cook time: real recipes; a new time is never the one the recipe starts with, and the edit form takes it.
    const cook = slot('edit_recipe', 'edit_minutes')?.dependsOn?.values ?? {};
    expect(Object.keys(cook).sort()).toEqual([...(slot('recipes', 'edit_recipe')?.values ?? [])].sort());
    for (const [name, values] of Object.entries(cook)) {
      const seeded = SEEDED_RECIPES.find(([n]) => n === name);
      expect(seeded, name).toBeDefined();
      for (const v of values) {
        expect(Number(v), `${name} ${v}`).not.toBe(seeded?.[4]);
        expect(recipeErrors({ name, serves: seeded![2], prep: String(seeded![3]), cook: v, collection: seeded![1] })).toEqual({});
      }
    }
    // Delete: real recipes, none on the plan any seed starts with.
    const del = slot('recipes', 'delete_recipe')?.values ?? [];
    for (const name of del) expect(RECIPE_NAMES).toContain(name);
    for (let seed = 1; seed <= 40; seed++) for (const p of initialMealsState(seed).plan) expect(del.map(slug), `${seed}`).not.toContain(p.recipeId);
    // Reminders: every reminder, at times on the picker that it is not already on at.
    expect(slot('profile', 'reminder')?.values).toEqual([...REMINDER_NAMES]);
    const times = slot('reminder', 'reminder_time')?.dependsOn?.values ?? {};
    expect(Object.keys(times).sort()).toEqual([...REMINDER_NAMES].sort());
    for (const [name, values] of Object.entries(times)) {
      const seeded = SEEDED_REMINDERS.find(([, n]) => n === name);
      for (const v of values) {
        expect(TIMES).toContain(v);
        expect(seeded?.[2] && seeded[3] === v, `${name} ${v}`).toBe(false);
      }
    }
    const plan0 = { plan_recipe: 'Lemon chicken soup', plan_day: 'Thursday', plan_meal: 'Dinner', plan_servings: '4' };
    expect(() => checkApp(st, spec('plan_meal', { ...plan0, plan_recipe: 'Beef stew' }))).toThrow(/unknown plan_recipe/);
    expect(() => checkApp(st, spec('plan_meal', { ...plan0, plan_day: 'Someday' }))).toThrow(/unknown plan_day/);
    expect(() => checkApp(st, spec('plan_meal', { ...plan0, plan_meal: 'Brunch' }))).toThrow(/unknown plan_meal/);
    expect(() => checkApp(st, spec('plan_meal', { ...plan0, plan_servings: 'lots' }))).toThrow(/unknown plan_servings/);
    expect(() => checkApp(st, spec('plan_meal', { plan_recipe: 'Lemon chicken soup', plan_day: 'Thursday', plan_meal: 'Dinner' }))).toThrow(/missing param "plan_servings"/);
    expect(() => checkApp(st, spec('edit_cook_time', { edit_recipe: 'Mushroom stroganoff', edit_minutes: '20' }))).toThrow(/already cooks for 20 minutes/);
    expect(() => checkApp(st, spec('set_reminder', { reminder: 'Dinner prep', reminder_time: '5:00 PM' }))).toThrow(/already on at 5:00 PM/);
    expect(() => checkApp(st, spec('set_reminder', { reminder: 'Supper prep', reminder_time: '5:30 PM' }))).toThrow(/unknown reminder/);
    expect(() => checkApp(st, spec('set_reminder', { reminder: 'Lunch prep', reminder_time: '12:15 PM' }))).toThrow(/unknown reminder_time/);
    expect(() => checkApp(st, spec('delete_recipe', { delete_recipe: 'Beef stew' }))).toThrow(/unknown delete_recipe/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('plan_meal', plan0))).toEqual({ success: false, reason: 'no meal was added to the plan' });
    expect(checkApp(st, spec('edit_cook_time', { edit_recipe: 'Mushroom stroganoff', edit_minutes: '25' }))).toEqual({ success: false, reason: 'no recipe was edited' });
    expect(checkApp(st, spec('set_reminder', { reminder: 'Lunch prep', reminder_time: '12:00 PM' }))).toEqual({ success: false, reason: 'no reminder was saved' });
    expect(checkApp(st, spec('delete_recipe', { delete_recipe: 'Black bean tacos' }))).toEqual({ success: false, reason: 'no recipe was deleted' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      expect(task.templates).toHaveLength(3);
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 80, seed: 11, apps: ['meals'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialMealsState(1), q.checker).success).toBe(false);
    }
  });

  it('validates Plan a meal and adds one meal with its recipe, day, meal and servings; another value, a meal taken off the plan or a second meal fails', async () => {
    const s = await open(1);
    expect(await s.page.getByText('Your recipe box').isVisible()).toBe(true);
    await tap(s, s.page.locator('.bnav a[aria-label="Planner"]'));
    expect(await s.page.getByText('This week', { exact: true }).isVisible()).toBe(true);
    await tap(s, s.page.locator('#add'));
    expect(await s.page.getByText('Plan a meal').first().isVisible()).toBe(true);
    expect(await s.page.locator('#g-meal .chip.on').count()).toBe(0);
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('#e-recipe').textContent()).toBe('Choose a recipe');
    expect(await s.page.locator('#e-meal').textContent()).toBe('Choose a meal');
    // The near-duplicate Lemon chicken orzo first, then Lemon chicken soup.
    await tap(s, s.page.locator('#recipe-btn'));
    await pick(s, '#recipedlg .opt[data-v="lemon-chicken-orzo"]');
    expect(await s.page.locator('#recipe-v').textContent()).toBe('Lemon chicken orzo');
    await tap(s, s.page.locator('#recipe-btn'));
    await pick(s, '#recipedlg .opt[data-v="lemon-chicken-soup"]');
    expect(await s.page.locator('#recipe-v').textContent()).toBe('Lemon chicken soup');
    await tap(s, s.page.locator('#day-btn'));
    await tap(s, s.page.locator('#daydlg .opt[data-v="3"]'));
    expect(await s.page.locator('#day-v').textContent()).toBe('Thursday');
    await tap(s, exact(s, '#g-meal .chip', 'Dinner'));
    await tap(s, s.page.locator('#servings-plus'));
    await tap(s, s.page.locator('#servings-plus'));
    expect(await s.page.locator('#servings').textContent()).toBe('4');
    const sp = { plan_recipe: 'Lemon chicken soup', plan_day: 'Thursday', plan_meal: 'Dinner', plan_servings: '4' };
    expect(await reason(s, 'plan_meal', sp)).toBe('no meal was added to the plan');
    await tap(s, s.page.locator('#save'));
    expect(await s.page.getByText('Added to your plan').isVisible()).toBe(true);
    expect(await s.page.locator('.pe.new').getAttribute('data-name')).toBe('Lemon chicken soup');
    expect(await reason(s, 'plan_meal', sp)).toBe('planned Lemon chicken soup for Thursday dinner, 4 servings');
    expect(await check(s, spec('plan_meal', sp))).toBe(true);
    expect(await reason(s, 'plan_meal', { ...sp, plan_day: 'Friday' })).toBe('Lemon chicken soup was planned for Thursday, expected Friday');
    expect(await reason(s, 'plan_meal', { ...sp, plan_meal: 'Lunch' })).toBe('Lemon chicken soup was planned as dinner, expected lunch');
    expect(await reason(s, 'plan_meal', { ...sp, plan_servings: '3' })).toBe('Lemon chicken soup was planned for 4 servings, expected 3 servings');
    expect(await reason(s, 'plan_meal', { ...sp, plan_recipe: 'Lemon chicken orzo' })).toBe('the meal added is Lemon chicken soup, expected Lemon chicken orzo');
    // Taking a meal that was already planned off the plan fails the task.
    const first = (await state(s)).plan.find((p) => p.seeded)!;
    const firstName = recipeOf(await state(s), first.recipeId)!.name;
    await tap(s, s.page.locator(`.pe[data-entry="${first.id}"] .more`));
    await tap(s, s.page.getByRole('menuitem', { name: 'Remove from plan' }));
    expect(await s.page.getByText('Remove from plan?').isVisible()).toBe(true);
    await tap(s, s.page.locator('#unplan-ok'));
    expect(await s.page.getByText('Removed from plan').isVisible()).toBe(true);
    expect(await reason(s, 'plan_meal', sp)).toBe(`Lemon chicken soup on Thursday dinner was planned but ${firstName} on ${DAY_NAMES[first.day]} ${first.meal.toLowerCase()} was taken off the plan`);
    // A second meal, from a recipe's Add to plan, fails the task.
    await openRecipe(s, 'Greek salad');
    await tap(s, s.page.locator('#plan-btn'));
    expect(await s.page.locator('#recipe-v').textContent()).toBe('Greek salad');
    await tap(s, exact(s, '#g-meal .chip', 'Lunch'));
    await tap(s, s.page.locator('#save'));
    expect(await s.page.getByText('Added to your plan').isVisible()).toBe(true);
    expect(await reason(s, 'plan_meal', sp)).toBe('2 meals were added (Lemon chicken soup on Thursday dinner, Greek salad on Monday lunch), expected one');
    await s.close();
  }, 120_000);

  it("changes a recipe's cook time only on Save; leaving without saving, another field changed too, another time or the near-duplicate recipe edited as well fails", async () => {
    const s = await open(2);
    await openRecipe(s, 'Mushroom stroganoff');
    expect(await s.page.locator('#v-cook').textContent()).toBe('20 min');
    await tap(s, s.page.locator('#edit'));
    expect(await s.page.locator('#cook').inputValue()).toBe('20');
    await retype(s, '#cook', '25');
    // Back without saving keeps the old time.
    await tap(s, s.page.locator('header button[aria-label="Back"]'));
    expect(await s.page.locator('#v-cook').textContent()).toBe('20 min');
    const sp = { edit_recipe: 'Mushroom stroganoff', edit_minutes: '25' };
    expect(await reason(s, 'edit_cook_time', sp)).toBe('no recipe was edited');
    await tap(s, s.page.locator('#edit'));
    expect(await s.page.locator('#cook').inputValue()).toBe('20');
    await retype(s, '#cook', '');
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('#e-cook').textContent()).toBe('Enter the minutes');
    await retype(s, '#cook', '25');
    await retype(s, '#prep', '15');
    await tap(s, s.page.locator('#save'));
    expect(await s.page.getByText('Recipe updated').isVisible()).toBe(true);
    expect(await s.page.locator('#v-cook').textContent()).toBe('25 min');
    expect(await reason(s, 'edit_cook_time', sp)).toBe("Mushroom stroganoff's cook time was changed but its prep time changed too, from 10 to 15 minutes");
    await tap(s, s.page.locator('#edit'));
    await retype(s, '#prep', '10');
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('#v-prep').textContent()).toBe('10 min');
    expect(await reason(s, 'edit_cook_time', sp)).toBe('Mushroom stroganoff now cooks for 25 minutes (was 20)');
    expect(await reason(s, 'edit_cook_time', { ...sp, edit_minutes: '15' })).toBe('Mushroom stroganoff now cooks for 25 minutes, expected 15');
    expect(await reason(s, 'edit_cook_time', { edit_recipe: 'Mushroom risotto', edit_minutes: '30' })).toBe('Mushroom risotto still cooks for 35 minutes (edited "Mushroom stroganoff" instead)');
    // Editing the near-duplicate Mushroom risotto too fails the task.
    await openRecipe(s, 'Mushroom risotto');
    await tap(s, s.page.locator('#edit'));
    await retype(s, '#cook', '30');
    await tap(s, s.page.locator('#save'));
    expect(await s.page.getByText('Recipe updated').isVisible()).toBe(true);
    expect(await reason(s, 'edit_cook_time', sp)).toBe('Mushroom stroganoff was changed but "Mushroom risotto" was edited too');
    await s.close();
  }, 120_000);

  it('turns a reminder on at a time only on Save; leaving without saving, leaving it off, another time, a changed repeat or another reminder changed fails', async () => {
    const s = await open(3);
    await openReminder(s, 'Lunch prep');
    expect(await s.page.locator('#on-row').getAttribute('aria-checked')).toBe('false');
    await tap(s, s.page.locator('#on-row'));
    await tap(s, s.page.locator('header button[aria-label="Back"]'));
    const sp = { reminder: 'Lunch prep', reminder_time: '12:00 PM' };
    expect(await reason(s, 'set_reminder', sp)).toBe('no reminder was saved');
    await tap(s, s.page.locator('a.rm[data-reminder="Lunch prep"]'));
    await tap(s, s.page.locator('#time-btn'));
    await pick(s, '#timedlg .opt[data-v="12:00 PM"]');
    expect(await s.page.locator('#time-v').textContent()).toBe('12:00 PM');
    await tap(s, s.page.locator('#save'));
    expect(await s.page.getByText('Reminder saved').first().isVisible()).toBe(true);
    expect(await reason(s, 'set_reminder', sp)).toBe('Lunch prep was saved but is off');
    await tap(s, s.page.locator('a.rm[data-reminder="Lunch prep"]'));
    await tap(s, s.page.locator('#on-row'));
    await tap(s, exact(s, '#g-repeat .chip', 'Every day'));
    await tap(s, s.page.locator('#save'));
    expect(await reason(s, 'set_reminder', sp)).toBe('Lunch prep is on at 12:00 PM but its repeat changed from Weekdays to Every day');
    await tap(s, s.page.locator('a.rm[data-reminder="Lunch prep"]'));
    await tap(s, exact(s, '#g-repeat .chip', 'Weekdays'));
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('a.rm[data-reminder="Lunch prep"] .s').textContent()).toBe('On · 12:00 PM · Weekdays');
    expect(await reason(s, 'set_reminder', sp)).toBe('Lunch prep reminder is on at 12:00 PM, weekdays');
    expect(await check(s, spec('set_reminder', sp))).toBe(true);
    expect(await reason(s, 'set_reminder', { ...sp, reminder_time: '11:00 AM' })).toBe('Lunch prep is set for 12:00 PM, expected 11:00 AM');
    expect(await reason(s, 'set_reminder', { reminder: 'Breakfast prep', reminder_time: '7:30 AM' })).toBe('Breakfast prep is still off (saved "Lunch prep" instead)');
    // Changing the near-duplicate Dinner prep too fails the task.
    await openReminder(s, 'Dinner prep');
    await tap(s, s.page.locator('#time-btn'));
    await pick(s, '#timedlg .opt[data-v="6:00 PM"]');
    await tap(s, s.page.locator('#save'));
    expect(await reason(s, 'set_reminder', sp)).toBe('Lunch prep is on at 12:00 PM but the "Dinner prep" reminder was changed too');
    expect(await reason(s, 'set_reminder', { reminder: 'Dinner prep', reminder_time: '6:00 PM' })).toBe('Dinner prep is on at 6:00 PM but the "Lunch prep" reminder was changed too');
    await s.close();
  }, 120_000);

  it('deletes one recipe after the confirm dialog; Cancel and Undo keep it, and the near-duplicate recipe, a favorite toggled or a second deletion fails', async () => {
    const s = await open(4);
    await openRecipe(s, 'Black bean tacos');
    await tap(s, s.page.locator('#delete-btn'));
    expect(await s.page.getByText('Delete recipe?').isVisible()).toBe(true);
    await tap(s, exact(s, '#delete .acts button', 'Cancel'));
    expect(await s.page.getByText('Delete recipe?').isVisible()).toBe(false);
    const sp = { delete_recipe: 'Black bean tacos' };
    expect(await reason(s, 'delete_recipe', sp)).toBe('no recipe was deleted');
    // From the ⋮ menu this time.
    await tap(s, s.page.locator('header button[aria-label="More options"]'));
    await tap(s, s.page.getByRole('menuitem', { name: 'Delete recipe' }));
    await tap(s, s.page.locator('#delete-ok'));
    expect(await s.page.getByText('Recipe deleted').first().isVisible()).toBe(true);
    expect(await s.page.locator('a.rc[data-name="Black bean tacos"]').count()).toBe(0);
    expect(await reason(s, 'delete_recipe', sp)).toBe('deleted Black bean tacos from the recipe box');
    expect(await reason(s, 'delete_recipe', { delete_recipe: 'Black bean burgers' })).toBe('Black bean burgers was not deleted (deleted "Black bean tacos" instead)');
    // Undo brings it back.
    await tap(s, s.page.locator('#undo'));
    expect(await s.page.getByText('Black bean tacos restored').isVisible()).toBe(true);
    expect(await reason(s, 'delete_recipe', sp)).toBe('no recipe was deleted');
    await openRecipe(s, 'Black bean tacos');
    await tap(s, s.page.locator('#delete-btn'));
    await tap(s, s.page.locator('#delete-ok'));
    expect(await check(s, spec('delete_recipe', sp))).toBe(true);
    // Toggling a favorite on the way fails the task.
    const wasFav = initialMealsState(4).recipes.find((r) => r.name === 'Greek salad')!.favorite;
    await openRecipe(s, 'Greek salad');
    await tap(s, s.page.locator('#fav-btn'));
    expect(await s.page.locator('#fav-btn').getAttribute('aria-pressed')).toBe(String(!wasFav));
    expect(await reason(s, 'delete_recipe', sp)).toBe(`Black bean tacos was deleted but "Greek salad" was ${wasFav ? 'removed from' : 'added to'} favorites`);
    await tap(s, s.page.locator('#fav-btn'));
    expect(await s.page.locator('#fav-btn').getAttribute('aria-pressed')).toBe(String(wasFav));
    expect(await check(s, spec('delete_recipe', sp))).toBe(true);
    // Deleting another recipe as well fails the task.
    await openRecipe(s, 'Egg fried rice');
    await tap(s, s.page.locator('#delete-btn'));
    await tap(s, s.page.locator('#delete-ok'));
    expect(await s.page.getByText('Recipe deleted').first().isVisible()).toBe(true);
    expect(await reason(s, 'delete_recipe', sp)).toBe('2 recipes were deleted ("Black bean tacos", "Egg fried rice"), expected one');
    await s.close();
  }, 120_000);
});
