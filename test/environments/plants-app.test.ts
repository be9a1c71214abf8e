import { describe, expect, it } from 'vitest';
import type { ChromiumSession } from '../../environments/chromium.js';
import { checkApp, getApp } from '../../environments/app-world.js';
import { generateQueries } from '../../query-gen/sample.js';
import { usePhone } from './phone-driver.js';
import {
  CARE_ACTIONS,
  FEED_OPTIONS,
  initialPlantsState,
  LIGHT_NAMES,
  PLANT_NAMES,
  plantErrors,
  REMOVE_REASON_NAMES,
  ROOMS,
  SEEDED_PLANTS,
  SPECIES_NAMES,
  WATER_OPTIONS,
  WHEN_NAMES,
  type PlantsState,
} from '../../environments/apps/plants/state.js';

const { step, tap, exact, spec, check, open } = usePhone('plants', 'Fernly');

const state = async (s: ChromiumSession): Promise<PlantsState> => (await s.checkerState()).plants as PlantsState;
const reason = async (s: ChromiumSession, family: string, params: Record<string, string>): Promise<string> => checkApp(await state(s), spec(family, params)).reason;
/** Opens a plant from the My plants tab by its nickname. */
async function openPlant(s: ChromiumSession, name: string): Promise<void> {
  await tap(s, s.page.locator('.bnav a[aria-label="My plants"]'));
  await tap(s, s.page.locator(`a.pl[data-name="${name}"]`));
  expect(await s.page.getByText('Care history', { exact: true }).isVisible()).toBe(true);
}

describe('Fernly houseplant care app (written blind, a held-out app for the frozen policy and critics)', () => {
  it('is registered with a DAG whose task families all have checkers, slot values name real things, and queries are generated', () => {
    const app = getApp('plants');
    expect(app?.title).toBe('Fernly');
    expect(app?.dag.tasks.map((t) => t.id).sort()).toEqual([...(app?.checkers.families ?? [])].sort());
    expect(app?.dag.tasks).toHaveLength(4);
    const st = initialPlantsState(3);
    expect(st).toEqual(initialPlantsState(3));
    expect(initialPlantsState(3)).not.toEqual(initialPlantsState(4));
    const slot = (page: string, key: string) => app?.dag.pages.find((p) => p.id === page)?.slots.find((x) => x.key === key);
    const lower = (xs: readonly string[]): string[] => xs.map((x) => x.toLowerCase());
    // Care: every plant, action and day the DAG offers is one the Log care sheet has.
    expect(slot('plants', 'care_plant')?.values).toEqual([...PLANT_NAMES]);
    expect(slot('care_sheet', 'care_action')?.values).toEqual(lower(CARE_ACTIONS));
    expect(slot('care_sheet', 'care_when')?.values).toEqual(lower(WHEN_NAMES));
    // Schedules: each plant's offered intervals are on the pickers and differ from the ones it starts with.
    const sched = slot('plants', 'sched_plant')?.values ?? [];
    const water = slot('schedule', 'water_every')?.dependsOn?.values ?? {};
    const feed = slot('schedule', 'feed_every')?.dependsOn?.values ?? {};
    expect(Object.keys(water).sort()).toEqual([...sched].sort());
    expect(Object.keys(feed).sort()).toEqual([...sched].sort());
    for (const name of sched) {
      const seeded = SEEDED_PLANTS.find(([n]) => n === name);
      expect(seeded, name).toBeDefined();
      for (const v of water[name] ?? []) {
        const days = Number(/^(\d+) days$/.exec(v)?.[1]);
        expect(WATER_OPTIONS, `${name} ${v}`).toContain(days);
        expect(days, `${name} ${v}`).not.toBe(seeded?.[4]);
      }
      for (const v of feed[name] ?? []) {
        const weeks = Number(/^(\d+) weeks$/.exec(v)?.[1]);
        expect(FEED_OPTIONS, `${name} ${v}`).toContain(weeks);
        expect(weeks, `${name} ${v}`).not.toBe(seeded?.[5]);
      }
    }
    // Removal: real plants, real reasons.
    for (const v of slot('plants', 'remove_plant')?.values ?? []) expect(PLANT_NAMES).toContain(v);
    for (const v of slot('remove_dialog', 'remove_reason')?.values ?? []) expect(REMOVE_REASON_NAMES).toContain(v);
    // Add plant: the form accepts every nickname, species, room and light the DAG offers.
    for (const v of slot('add_form', 'species')?.values ?? []) expect(SPECIES_NAMES).toContain(v);
    expect(slot('add_form', 'room')?.values).toEqual([...ROOMS]);
    expect(slot('add_form', 'light')?.values).toEqual([...LIGHT_NAMES]);
    for (const name of slot('add_form', 'new_plant')?.values ?? [])
      for (const species of slot('add_form', 'species')?.values ?? [])
        for (const room of ROOMS) for (const light of LIGHT_NAMES) expect(plantErrors(st.plants, { name, species, room, light }), `${name} ${species}`).toEqual({});
    const ap0 = { new_plant: 'Kiwi', species: 'Orchid', room: 'Kitchen', light: 'Direct sun' };
    expect(() => checkApp(st, spec('add_plant', { ...ap0, species: 'Cactus' }))).toThrow(/unknown species/);
    expect(() => checkApp(st, spec('add_plant', { ...ap0, room: 'Garage' }))).toThrow(/unknown room/);
    expect(() => checkApp(st, spec('add_plant', { ...ap0, new_plant: 'Monty' }))).toThrow(/already a plant's name/);
    expect(() => checkApp(st, spec('add_plant', { new_plant: 'Kiwi', species: 'Orchid', room: 'Kitchen' }))).toThrow(/missing param "light"/);
    expect(() => checkApp(st, spec('log_care', { care_plant: 'Kiwi', care_action: 'watered', care_when: 'today' }))).toThrow(/unknown care_plant/);
    expect(() => checkApp(st, spec('log_care', { care_plant: 'Monty', care_action: 'sang to', care_when: 'today' }))).toThrow(/unknown care_action/);
    expect(() => checkApp(st, spec('log_care', { care_plant: 'Monty', care_action: 'watered', care_when: 'last week' }))).toThrow(/unknown care_when/);
    expect(() => checkApp(st, spec('set_schedule', { sched_plant: 'Monty', water_every: '4 days', feed_every: '2 weeks' }))).toThrow(/unknown water_every/);
    expect(() => checkApp(st, spec('set_schedule', { sched_plant: 'Monty', water_every: '5 days', feed_every: 'never' }))).toThrow(/unknown feed_every/);
    expect(() => checkApp(st, spec('remove_plant', { remove_plant: 'Sonny', remove_reason: 'Bored of it' }))).toThrow(/unknown remove_reason/);
    // Doing nothing fails every family.
    expect(checkApp(st, spec('add_plant', ap0))).toEqual({ success: false, reason: 'no plant was added' });
    expect(checkApp(st, spec('log_care', { care_plant: 'Monty', care_action: 'watered', care_when: 'today' }))).toEqual({ success: false, reason: 'no care was logged' });
    expect(checkApp(st, spec('set_schedule', { sched_plant: 'Monty', water_every: '10 days', feed_every: '2 weeks' }))).toEqual({ success: false, reason: 'no care schedule was saved' });
    expect(checkApp(st, spec('remove_plant', { remove_plant: 'Sonny', remove_reason: 'It died' }))).toEqual({ success: false, reason: 'no plant was removed' });
    // Every template slot is set on a page of the family's path; generated instructions carry the values verbatim.
    for (const task of app!.dag.tasks) {
      const keys = new Set(task.path.flatMap((id) => app!.dag.pages.find((p) => p.id === id)?.slots.map((x) => x.key) ?? []));
      for (const t of task.templates) for (const m of t.matchAll(/\{(\w+)\}/g)) expect(keys.has(m[1] ?? ''), `${task.id}: {${m[1]}}`).toBe(true);
    }
    const { queries } = generateQueries({ dags: [app!.dag], count: 40, seed: 11, apps: ['plants'] });
    expect(new Set(queries.map((q) => q.checker.family))).toEqual(new Set(app?.checkers.families));
    for (const q of queries) {
      expect(q.instruction).not.toMatch(/\{[a-z_]+\}/);
      if (q.feasible !== false) for (const v of Object.values(q.checker.params)) expect(q.instruction).toContain(v);
      // Sampled slot combinations are satisfiable: checking the untouched state fails rather than throws.
      expect(checkApp(initialPlantsState(1), q.checker).success).toBe(false);
    }
  });

  it('validates the Add plant form field by field, adds one plant with its species, room and light, and another species, room, light or a second plant fails', async () => {
    const s = await open();
    expect(await s.page.getByText('Needs care today').isVisible()).toBe(true);
    await tap(s, s.page.locator('.bnav a[aria-label="My plants"]'));
    expect(await s.page.getByText('11 plants · Sorted by room').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.fab'));
    expect(await s.page.getByText('Nickname', { exact: true }).isVisible()).toBe(true);
    await tap(s, exact(s, 'button.primary', 'Save plant'));
    expect(await s.page.getByText('Give your plant a nickname').isVisible()).toBe(true);
    expect(await s.page.locator('#e-species').textContent()).toBe('Choose a species');
    expect(await s.page.getByText('Choose a room').isVisible()).toBe(true);
    expect(await s.page.getByText('Choose how much light it gets').isVisible()).toBe(true);
    // A nickname already taken (in another case), the species found by search.
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'minty' });
    await tap(s, s.page.locator('#species-btn'));
    await tap(s, s.page.locator('#sq'));
    await step(s, { action: 'type', text: 'spider' });
    expect(await s.page.locator('#splist .opt:not([hidden])').count()).toBe(1);
    await tap(s, s.page.locator('#splist .opt[data-v="Spider plant"]'));
    expect(await s.page.locator('#species-v').textContent()).toBe('Spider plant');
    expect(await s.page.locator('#species-h').textContent()).toBe('Suggested: water every 7 days · Medium light');
    await tap(s, exact(s, '#g-room .chip', 'Office'));
    await tap(s, exact(s, '#g-room .chip', 'Bedroom'));
    expect(await s.page.locator('#g-room .chip.on').textContent()).toBe('Bedroom');
    await tap(s, s.page.locator('#g-light .opt[data-v="Medium light"]'));
    await tap(s, exact(s, 'button.primary', 'Save plant'));
    expect(await s.page.getByText('You already have a plant called Minty').isVisible()).toBe(true);
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'key', text: 'KEYCODE_MOVE_END' });
    for (let i = 0; i < 5; i++) await step(s, { action: 'key', text: 'KEYCODE_DEL' });
    await step(s, { action: 'type', text: 'Clover' });
    const sp = { new_plant: 'Clover', species: 'Spider plant', room: 'Bedroom', light: 'Medium light' };
    expect(await check(s, spec('add_plant', sp))).toBe(false);
    await tap(s, exact(s, 'button.primary', 'Save plant'));
    expect(await s.page.getByText('Plant added').isVisible()).toBe(true);
    expect(await s.page.locator('#v-water').textContent()).toBe('Every 7 days');
    expect(await reason(s, 'add_plant', sp)).toBe('added Clover, a Spider plant in the Bedroom (Medium light)');
    expect(await reason(s, 'add_plant', { ...sp, species: 'Snake plant' })).toBe('Clover was added as a Spider plant, expected a Snake plant');
    expect(await reason(s, 'add_plant', { ...sp, room: 'Office' })).toBe('Clover was put in the Bedroom, expected the Office');
    expect(await reason(s, 'add_plant', { ...sp, light: 'Low light' })).toBe("Clover's light is Medium light, expected Low light");
    expect(await reason(s, 'add_plant', { ...sp, new_plant: 'Pip' })).toBe('the plant added is "Clover", expected "Pip"');
    // A second plant fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="My plants"]'));
    expect(await s.page.getByText('12 plants · Sorted by room').isVisible()).toBe(true);
    await tap(s, s.page.locator('a.fab'));
    await tap(s, s.page.locator('#name'));
    await step(s, { action: 'type', text: 'Pip' });
    await tap(s, s.page.locator('#species-btn'));
    await tap(s, s.page.locator('#sq'));
    await step(s, { action: 'type', text: 'orchid' });
    await tap(s, s.page.locator('#splist .opt[data-v="Orchid"]'));
    await tap(s, exact(s, '#g-room .chip', 'Kitchen'));
    await tap(s, s.page.locator('#g-light .opt[data-v="Bright indirect light"]'));
    await tap(s, exact(s, 'button.primary', 'Save plant'));
    expect(await s.page.getByText('Plant added').isVisible()).toBe(true);
    expect(await reason(s, 'add_plant', sp)).toBe('2 plants were added ("Clover", "Pip"), expected one');
    await s.close();
  }, 120_000);

  it('logs one care entry from the Log care sheet only after Save; the near-duplicate plant, another action or day, or a second entry (✓ Done on Today) fails', async () => {
    const s = await open(2);
    await openPlant(s, 'Sunny');
    await tap(s, s.page.locator('#log'));
    expect(await s.page.getByText('What did you do?').isVisible()).toBe(true);
    expect(await s.page.locator('#care-save').isDisabled()).toBe(true);
    await tap(s, exact(s, '#g-act .chip', 'Misted'));
    await tap(s, exact(s, '#g-act .chip', 'Watered'));
    await tap(s, exact(s, '#g-act .chip', 'Misted'));
    expect(await s.page.locator('#g-act .chip[aria-pressed="true"]').allTextContents()).toEqual(['Watered']);
    expect(await s.page.locator('#g-when button[aria-checked="true"]').textContent()).toBe('Today');
    await tap(s, exact(s, '#g-when button', 'Yesterday'));
    await tap(s, exact(s, '#care .acts button', 'Cancel'));
    expect(await s.page.getByText('What did you do?').isVisible()).toBe(false);
    const sp = { care_plant: 'Sunny', care_action: 'watered', care_when: 'yesterday' };
    expect(await reason(s, 'log_care', sp)).toBe('no care was logged');
    // Reopened, the sheet starts over.
    await tap(s, s.page.locator('#log'));
    expect(await s.page.locator('#care-save').isDisabled()).toBe(true);
    await tap(s, exact(s, '#g-act .chip', 'Watered'));
    await tap(s, exact(s, '#g-when button', 'Yesterday'));
    await tap(s, s.page.locator('#care-save'));
    expect(await s.page.getByText('Care logged').first().isVisible()).toBe(true);
    expect(await s.page.locator('.hist.new').count()).toBe(1);
    expect(await reason(s, 'log_care', sp)).toBe('logged Sunny watered yesterday (Sunday, April 13)');
    expect(await reason(s, 'log_care', { ...sp, care_plant: 'Sonny' })).toBe('no care was logged for Sonny (logged "Sunny watered yesterday" instead)');
    expect(await reason(s, 'log_care', { ...sp, care_action: 'misted' })).toBe("Sunny's new entry is watered, expected misted");
    expect(await reason(s, 'log_care', { ...sp, care_when: '2 days ago' })).toBe('Sunny was logged as watered yesterday (Sunday, April 13), expected 2 days ago');
    // ✓ Done on the Today tab logs a second entry, which fails the task.
    await tap(s, s.page.locator('.bnav a[aria-label="Today"]'));
    const task = s.page.locator('.task').first();
    const [plant, act] = [await task.getAttribute('data-plant'), await task.getAttribute('data-act')];
    await tap(s, task.locator('button.done'));
    expect(await s.page.getByText(`${plant}: ${act?.toLowerCase()} ✓`).isVisible()).toBe(true);
    expect(await reason(s, 'log_care', sp)).toBe(`2 care entries were logged ("Sunny watered yesterday", "${plant} ${act?.toLowerCase()} today"), expected one`);
    if (plant !== 'Sunny' && act) expect(await check(s, spec('log_care', { care_plant: plant ?? '', care_action: act.toLowerCase(), care_when: 'today' }))).toBe(false);
    await s.close();
  }, 120_000);

  it('saves a care schedule only on Save schedule; leaving without saving, another interval, reminders turned off or another plant rescheduled too fails', async () => {
    const s = await open(3);
    await openPlant(s, 'Monty');
    expect(await s.page.locator('#v-water').textContent()).toBe('Every 7 days');
    await tap(s, s.page.locator('#edit-schedule'));
    expect(await s.page.getByText('Water every', { exact: true }).first().isVisible()).toBe(true);
    await tap(s, s.page.locator('#r-water'));
    await tap(s, exact(s, '#waterdlg .opt .t', 'Every 14 days'));
    expect(await s.page.locator('#s-water').textContent()).toBe('Every 14 days');
    // Back without saving keeps the old schedule.
    await tap(s, s.page.locator('header button[aria-label="Back"]'));
    expect(await s.page.locator('#v-water').textContent()).toBe('Every 7 days');
    const sp = { sched_plant: 'Monty', water_every: '10 days', feed_every: '2 weeks' };
    expect(await reason(s, 'set_schedule', sp)).toBe('no care schedule was saved');
    await tap(s, s.page.locator('#edit-schedule'));
    expect(await s.page.locator('#s-water').textContent()).toBe('Every 7 days');
    await tap(s, s.page.locator('#r-water'));
    await tap(s, exact(s, '#waterdlg .opt .t', 'Every 10 days'));
    await tap(s, s.page.locator('#r-feed'));
    await tap(s, exact(s, '#feeddlg .opt .t', 'Every 2 weeks'));
    await tap(s, s.page.locator('#r-remind'));
    expect(await s.page.locator('#r-remind').getAttribute('aria-checked')).toBe('false');
    await tap(s, s.page.locator('#save'));
    expect(await s.page.getByText('Schedule updated').first().isVisible()).toBe(true);
    expect(await reason(s, 'set_schedule', sp)).toBe("Monty's schedule was set but its reminders were turned off");
    await tap(s, s.page.locator('#edit-schedule'));
    await tap(s, s.page.locator('#r-remind'));
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('#v-water').textContent()).toBe('Every 10 days');
    expect(await s.page.locator('#v-feed').textContent()).toBe('Every 2 weeks');
    expect(await reason(s, 'set_schedule', sp)).toBe('Monty is watered every 10 days and fertilized every 2 weeks');
    expect(await reason(s, 'set_schedule', { ...sp, water_every: '14 days' })).toBe('Monty is watered every 10 days, expected every 14 days');
    expect(await reason(s, 'set_schedule', { ...sp, feed_every: '8 weeks' })).toBe("Monty's fertilizer is set to every 2 weeks, expected every 8 weeks");
    expect(await check(s, spec('set_schedule', { sched_plant: 'Minty', water_every: '5 days', feed_every: '2 weeks' }))).toBe(false);
    // Rescheduling the near-duplicate Minty too fails the task.
    await openPlant(s, 'Minty');
    await tap(s, s.page.locator('#edit-schedule'));
    await tap(s, s.page.locator('#r-feed'));
    await tap(s, exact(s, '#feeddlg .opt .t', 'Off'));
    await tap(s, s.page.locator('#save'));
    expect(await s.page.locator('#v-feed').textContent()).toBe('Off');
    expect(await reason(s, 'set_schedule', sp)).toBe('Monty\'s schedule was set but the schedule of "Minty" changed too');
    await s.close();
  }, 120_000);

  it('removes one plant after a reason is picked in the confirm dialog; Cancel and Undo keep it, and the near-duplicate plant, another reason or a second removal fails', async () => {
    const s = await open(4);
    await openPlant(s, 'Sonny');
    await tap(s, s.page.locator('#remove-btn'));
    expect(await s.page.getByText('Why are you removing it?', { exact: false }).isVisible()).toBe(true);
    await tap(s, s.page.locator('#remove-ok'));
    expect(await s.page.locator('#rerr').textContent()).toBe('Choose a reason');
    await tap(s, s.page.locator('#g-reason .opt[data-v="It died"]'));
    await tap(s, exact(s, '#remove .acts button', 'Cancel'));
    expect(await s.page.getByText('Remove Sonny?').isVisible()).toBe(false);
    const sp = { remove_plant: 'Sonny', remove_reason: 'I gave it away' };
    expect(await reason(s, 'remove_plant', sp)).toBe('no plant was removed');
    // From the ⋮ menu this time; the dialog starts with no reason.
    await tap(s, s.page.locator('header button[aria-label="More options"]'));
    await tap(s, s.page.getByRole('menuitem', { name: 'Remove plant' }));
    expect(await s.page.locator('#g-reason .opt[aria-checked="true"]').count()).toBe(0);
    await tap(s, s.page.locator('#g-reason .opt[data-v="I gave it away"]'));
    await tap(s, s.page.locator('#remove-ok'));
    expect(await s.page.getByText('Plant removed').isVisible()).toBe(true);
    expect(await s.page.getByText('10 plants · Sorted by room').isVisible()).toBe(true);
    expect(await s.page.locator('a.pl.off[data-name="Sonny"]').textContent()).toContain('I gave it away');
    expect(await reason(s, 'remove_plant', sp)).toBe('removed Sonny (I gave it away)');
    expect(await reason(s, 'remove_plant', { ...sp, remove_reason: 'It died' })).toBe('Sonny was removed with the reason "I gave it away", expected "It died"');
    expect(await reason(s, 'remove_plant', { ...sp, remove_plant: 'Sunny' })).toBe('Sunny was not removed (removed "Sonny" instead)');
    // Undo brings it back.
    await tap(s, s.page.locator('#undo'));
    expect(await s.page.getByText('Sonny is back in My plants').isVisible()).toBe(true);
    expect(await reason(s, 'remove_plant', sp)).toBe('no plant was removed');
    await tap(s, s.page.locator('a.pl[data-name="Sonny"]'));
    await tap(s, s.page.locator('#remove-btn'));
    await tap(s, s.page.locator('#g-reason .opt[data-v="I gave it away"]'));
    await tap(s, s.page.locator('#remove-ok'));
    expect(await check(s, spec('remove_plant', sp))).toBe(true);
    // Removing the near-duplicate Sunny as well fails the task.
    await tap(s, s.page.locator('a.pl[data-name="Sunny"]'));
    await tap(s, s.page.locator('#remove-btn'));
    await tap(s, s.page.locator('#g-reason .opt[data-v="It died"]'));
    await tap(s, s.page.locator('#remove-ok'));
    expect(await s.page.getByText('9 plants · Sorted by room').isVisible()).toBe(true);
    expect(await reason(s, 'remove_plant', sp)).toBe('2 plants were removed ("Sonny", "Sunny"), expected one');
    await s.close();
  }, 120_000);
});
