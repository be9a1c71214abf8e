import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  CARE_ACTIONS,
  dayLabel,
  feedLabel,
  LIGHT_NAMES,
  PLANT_NAMES,
  relDays,
  REMOVE_REASON_NAMES,
  ROOMS,
  SEEDED_PLANTS,
  SPECIES_NAMES,
  WATER_OPTIONS,
  FEED_OPTIONS,
  WHEN,
  type CareLog,
  type Plant,
  type PlantsState,
} from './state.js';

export const PLANTS_FAMILIES = ['add_plant', 'log_care', 'set_schedule', 'remove_plant'] as const;
export type PlantsFamily = (typeof PLANTS_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`plants checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`plants checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');
/** "3 days" / "every 3 days" → 3; "2 weeks" → 2. */
const count = (v: string, unit: 'days' | 'weeks'): number => {
  const m = new RegExp(`^(?:every\\s+)?(\\d+)\\s+${unit}$`, 'i').exec(v.trim());
  return m ? Number(m[1]) : NaN;
};

/** Success checkers for Fernly; they read the server-side session state in-process. */
export function check(state: PlantsState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'plants') throw new Error(`plants checker got a spec for app "${spec.app}"`);
  const nameOf = (id: number): string => state.plants.find((p) => p.id === id)?.name ?? 'a plant';
  const seededPlant = (key: string): Plant => {
    const name = param(spec, key, PLANT_NAMES);
    const p = state.plants.find((x) => !x.added && same(x.name, name));
    if (!p) throw new Error(`plants checker ${spec.family}: no plant "${name}"`);
    return p;
  };
  const entry = (l: CareLog): string => `${nameOf(l.plantId)} ${l.action.toLowerCase()} ${relDays(l.day)}`;
  const added = state.plants.filter((p) => p.added);
  const removed = state.plants.filter((p) => p.removed && !p.added).sort((a, b) => a.seq - b.seq);
  const newLogs = state.logs.filter((l) => !l.seeded).sort((a, b) => a.seq - b.seq);
  const seedOf = (p: Plant) => SEEDED_PLANTS.find(([n]) => n === p.name);
  /** Seeded plants whose schedule differs from the one they started with. */
  const rescheduled = state.plants.filter((p) => {
    const s = seedOf(p);
    return !p.added && s !== undefined && (p.waterDays !== s[4] || p.feedWeeks !== s[5] || !p.reminders);
  });
  switch (spec.family as PlantsFamily) {
    case 'add_plant': {
      const name = param(spec, 'new_plant');
      const species = param(spec, 'species', SPECIES_NAMES);
      const room = param(spec, 'room', ROOMS);
      const light = param(spec, 'light', LIGHT_NAMES);
      if (PLANT_NAMES.some((n) => same(n, name))) throw new Error(`plants checker add_plant: "${name}" is already a plant's name`);
      const live = added.filter((p) => !p.removed);
      const p = live.find((x) => same(x.name, name)) ?? live[live.length - 1];
      if (!p) return no(added.length ? `a plant was added but then removed (${list(added.map((x) => x.name))})` : 'no plant was added');
      if (!same(p.name, name)) return no(`the plant added is "${p.name}", expected "${name}"`);
      if (!same(p.species, species)) return no(`${p.name} was added as a ${p.species}, expected a ${species}`);
      if (!same(p.room, room)) return no(`${p.name} was put in the ${p.room}, expected the ${room}`);
      if (!same(p.light, light)) return no(`${p.name}'s light is ${p.light}, expected ${light}`);
      if (added.length > 1) return no(`${added.length} plants were added (${list(added.map((x) => x.name))}), expected one`);
      if (removed.length) return no(`${p.name} was added but ${list(removed.map((x) => x.name))} was removed`);
      return ok(`added ${p.name}, a ${p.species} in the ${p.room} (${p.light})`);
    }
    case 'log_care': {
      const p = seededPlant('care_plant');
      const action = param(spec, 'care_action', CARE_ACTIONS);
      const when = param(spec, 'care_when', WHEN.map(([n]) => n));
      const day = WHEN.find(([n]) => same(n, when))?.[1] ?? 0;
      if (p.removed) return no(`${p.name} was removed`);
      if (!newLogs.length) return no('no care was logged');
      const mine = newLogs.filter((l) => l.plantId === p.id);
      if (!mine.length) return no(`no care was logged for ${p.name} (logged ${list(newLogs.map(entry))} instead)`);
      const l = mine.find((x) => same(x.action, action)) ?? mine[mine.length - 1]!;
      if (!same(l.action, action)) return no(`${p.name}'s new entry is ${l.action.toLowerCase()}, expected ${action.toLowerCase()}`);
      if (l.day !== day) return no(`${p.name} was logged as ${l.action.toLowerCase()} ${relDays(l.day)} (${dayLabel(l.day)}), expected ${when.toLowerCase()}`);
      if (newLogs.length > 1) return no(`${newLogs.length} care entries were logged (${list(newLogs.map(entry))}), expected one`);
      if (removed.length || added.length) return no(`the care was logged but plants were ${removed.length ? 'removed' : 'added'} too`);
      return ok(`logged ${entry(l)} (${dayLabel(l.day)})`);
    }
    case 'set_schedule': {
      const p = seededPlant('sched_plant');
      const waterText = param(spec, 'water_every');
      const feedText = param(spec, 'feed_every');
      const water = count(waterText, 'days');
      const feed = count(feedText, 'weeks');
      if (!WATER_OPTIONS.includes(water)) throw new Error(`plants checker set_schedule: unknown water_every "${waterText}"`);
      if (!FEED_OPTIONS.includes(feed) || feed === 0) throw new Error(`plants checker set_schedule: unknown feed_every "${feedText}"`);
      if (!state.scheduleSaves.length) return no('no care schedule was saved');
      if (p.removed) return no(`${p.name} was removed`);
      if (p.waterDays !== water) return no(`${p.name} is watered every ${p.waterDays} days, expected every ${water} days`);
      if (p.feedWeeks !== feed) return no(`${p.name}'s fertilizer is set to ${feedLabel(p.feedWeeks).toLowerCase()}, expected every ${feed} weeks`);
      if (!p.reminders) return no(`${p.name}'s schedule was set but its reminders were turned off`);
      const others = rescheduled.filter((x) => x.id !== p.id);
      if (others.length) return no(`${p.name}'s schedule was set but the schedule of ${list(others.map((x) => x.name))} changed too`);
      if (removed.length || added.length) return no(`the schedule was set but plants were ${removed.length ? 'removed' : 'added'} too`);
      return ok(`${p.name} is watered every ${p.waterDays} days and fertilized every ${p.feedWeeks} weeks`);
    }
    case 'remove_plant': {
      const p = seededPlant('remove_plant');
      const reason = param(spec, 'remove_reason', REMOVE_REASON_NAMES);
      const others = removed.filter((x) => x.id !== p.id);
      if (!p.removed) return no(removed.length ? `${p.name} was not removed (removed ${list(others.map((x) => x.name))} instead)` : 'no plant was removed');
      if (!same(p.removeReason, reason)) return no(`${p.name} was removed with the reason "${p.removeReason}", expected "${reason}"`);
      if (others.length) return no(`${removed.length} plants were removed (${list(removed.map((x) => x.name))}), expected one`);
      if (added.length) return no(`${p.name} was removed but ${list(added.map((x) => x.name))} was added`);
      return ok(`removed ${p.name} (${p.removeReason})`);
    }
    default:
      throw new Error(`plants checker: unknown task family "${spec.family}" (known: ${PLANTS_FAMILIES.join(', ')})`);
  }
}

export const plantsCheckers: AppCheckers<PlantsState> = { families: PLANTS_FAMILIES, check };
