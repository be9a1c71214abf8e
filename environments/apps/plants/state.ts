import { dayCalendar, rng } from '../shared.js';

/** One houseplant on the account. */
export interface Plant {
  id: number;
  /** The nickname ("Monty", "Minty"); near-duplicates differ by a letter. */
  name: string;
  species: string;
  room: string;
  light: string;
  /** Water every this many days. */
  waterDays: number;
  /** Fertilize every this many weeks; 0 = off. */
  feedWeeks: number;
  /** Care reminders for this plant. */
  reminders: boolean;
  notes: string;
  /** Day offset it joined the collection (negative: before today). */
  since: number;
  /** Added in this session from Add plant. */
  added: boolean;
  /** Removed from the collection (stays in state, so Undo can bring it back). */
  removed: boolean;
  removeReason: string;
  /** Order it was added or removed in this session (0 for an untouched seeded plant). */
  seq: number;
}

export type CareAction = 'Watered' | 'Fertilized' | 'Misted' | 'Repotted' | 'Pruned';

/** One care entry of a plant's history. */
export interface CareLog {
  id: number;
  plantId: number;
  action: CareAction;
  /** Day offset it was done (0 = today, -1 = yesterday). */
  day: number;
  /** In the history when the session starts. */
  seeded: boolean;
  seq: number;
}

/** A schedule saved from Care schedule in this session. */
export interface ScheduleChange {
  plantId: number;
  waterDays: number;
  feedWeeks: number;
  reminders: boolean;
  seq: number;
}

/** Fernly's per-session state. Read by checkers in-process; the page never sees this object. */
export interface PlantsState {
  seed: number;
  plants: Plant[];
  logs: CareLog[];
  /** Every Save on a Care schedule page in this session, in order. */
  scheduleSaves: ScheduleChange[];
  /** Leaf points: earned for each care entry. */
  points: number;
  seq: number;
}

export const OWNER = 'Alex Morgan';
export const OWNER_EMAIL = 'alex.morgan@example.com';
export const REMINDER_TIME = '8:00 AM';

/** Today is Monday, April 14, 9:41 AM. Offsets count days from today. */
const calendar = dayCalendar(2025, 3, 14);
export const { dateOf, weekdayOf, dayLabel, shortDay, dayOfMonth, monthShort } = calendar;

export const ROOMS: readonly string[] = ['Living room', 'Kitchen', 'Bedroom', 'Bathroom', 'Office', 'Balcony'];
/** Light levels: name, what it means. */
export const LIGHTS: readonly (readonly [string, string])[] = [
  ['Low light', 'A north window or a few feet from any window'],
  ['Medium light', 'Bright room, no sun on the leaves'],
  ['Bright indirect light', 'Near a sunny window, behind a sheer curtain'],
  ['Direct sun', 'Sun on the leaves for 4+ hours a day'],
];
export const LIGHT_NAMES: readonly string[] = LIGHTS.map(([n]) => n);

/** Species: name, Latin name, suggested water days, suggested feed weeks, suggested light, a care line. */
export const SPECIES: readonly (readonly [string, string, number, number, string, string])[] = [
  ['Aloe vera', 'Aloe barbadensis', 14, 0, 'Direct sun', 'Let the soil dry out completely'],
  ['Bird of paradise', 'Strelitzia reginae', 7, 2, 'Direct sun', 'Loves sun and a steady routine'],
  ['Boston fern', 'Nephrolepis exaltata', 3, 4, 'Medium light', 'Keep the soil moist, mist often'],
  ['Calathea', 'Goeppertia orbifolia', 5, 4, 'Medium light', 'Humidity lover; use filtered water'],
  ['Chinese money plant', 'Pilea peperomioides', 7, 4, 'Bright indirect light', 'Rotate weekly so it grows straight'],
  ['Fiddle-leaf fig', 'Ficus lyrata', 7, 4, 'Bright indirect light', 'Hates drafts and being moved'],
  ['Golden pothos', 'Epipremnum aureum', 7, 6, 'Medium light', 'Forgiving; trails or climbs'],
  ['Jade plant', 'Crassula ovata', 14, 8, 'Direct sun', 'A succulent; water sparingly'],
  ['Mint', 'Mentha spicata', 3, 4, 'Direct sun', 'Thirsty; pinch the tips to keep it bushy'],
  ['Monstera deliciosa', 'Monstera deliciosa', 7, 4, 'Bright indirect light', 'Water when the top 2 inches are dry'],
  ['Orchid', 'Phalaenopsis', 7, 2, 'Bright indirect light', 'Soak the roots, then let it drain'],
  ['Peace lily', 'Spathiphyllum', 5, 6, 'Low light', 'Droops when thirsty, perks up after a drink'],
  ['Rubber plant', 'Ficus elastica', 10, 4, 'Bright indirect light', 'Wipe the leaves to keep them glossy'],
  ['Snake plant', 'Dracaena trifasciata', 14, 8, 'Low light', 'Thrives on neglect'],
  ['Spider plant', 'Chlorophytum comosum', 7, 4, 'Medium light', 'Makes baby plants you can pot up'],
  ['String of pearls', 'Curio rowleyanus', 10, 6, 'Bright indirect light', 'Water when the pearls pucker'],
  ['ZZ plant', 'Zamioculcas zamiifolia', 14, 0, 'Low light', 'Stores water in its roots'],
];
export const SPECIES_NAMES: readonly string[] = SPECIES.map(([n]) => n);
export const speciesInfo = (name: string): (readonly [string, string, number, number, string, string]) | undefined => SPECIES.find(([n]) => n === name);

export const CARE_ACTIONS: readonly CareAction[] = ['Watered', 'Fertilized', 'Misted', 'Repotted', 'Pruned'];
/** When a care entry can be logged for: label, day offset. */
export const WHEN: readonly (readonly [string, number])[] = [
  ['Today', 0],
  ['Yesterday', -1],
  ['2 days ago', -2],
];
export const WHEN_NAMES: readonly string[] = WHEN.map(([n]) => n);

/** Watering intervals offered on Care schedule, in days. */
export const WATER_OPTIONS: readonly number[] = [3, 5, 7, 10, 14, 21];
/** Fertilizer intervals offered on Care schedule, in weeks (0 = off). */
export const FEED_OPTIONS: readonly number[] = [2, 4, 6, 8, 0];
export const waterLabel = (days: number): string => `Every ${days} days`;
export const feedLabel = (weeks: number): string => (weeks === 0 ? 'Off' : `Every ${weeks} weeks`);

export const REMOVE_REASONS: readonly (readonly [string, string])[] = [
  ['It died', 'We’ll keep its history under Past plants'],
  ['I gave it away', 'A new home for your plant'],
  ['Moved outdoors', 'Living in the garden now'],
  ['Other', ''],
];
export const REMOVE_REASON_NAMES: readonly string[] = REMOVE_REASONS.map(([n]) => n);
export const NAME_MAX = 20;

/** Nickname, species, room, light, water days, feed weeks, joined (day offset). */
type SeedPlant = readonly [string, string, string, string, number, number, number];
const PLANTS: readonly SeedPlant[] = [
  ['Monty', 'Monstera deliciosa', 'Living room', 'Bright indirect light', 7, 4, -412],
  ['Figaro', 'Fiddle-leaf fig', 'Living room', 'Bright indirect light', 7, 4, -230],
  ['Minty', 'Mint', 'Kitchen', 'Direct sun', 3, 4, -41],
  ['Sunny', 'Snake plant', 'Bedroom', 'Low light', 14, 8, -655],
  ['Pearl', 'String of pearls', 'Bedroom', 'Bright indirect light', 10, 6, -98],
  ['Sonny', 'Spider plant', 'Bathroom', 'Medium light', 7, 4, -310],
  ['Rosie', 'Calathea', 'Bathroom', 'Medium light', 5, 4, -126],
  ['Fernando', 'Boston fern', 'Bathroom', 'Medium light', 3, 4, -67],
  ['Goldie', 'Golden pothos', 'Office', 'Medium light', 7, 6, -520],
  ['Zed', 'ZZ plant', 'Office', 'Low light', 14, 0, -188],
  ['Spike', 'Aloe vera', 'Balcony', 'Direct sun', 14, 0, -365],
];
export const SEEDED_PLANTS = PLANTS;
export const PLANT_NAMES: readonly string[] = PLANTS.map(([n]) => n);

export const plantOf = (s: PlantsState, id: number): Plant | undefined => s.plants.find((p) => p.id === id);
export const active = (s: PlantsState): Plant[] => s.plants.filter((p) => !p.removed);
export const logsOf = (s: PlantsState, id: number): CareLog[] => s.logs.filter((l) => l.plantId === id).sort((a, b) => b.day - a.day || b.id - a.id);
/** Day offset of the last time `action` was logged for the plant (undefined if never). */
export const lastDone = (s: PlantsState, id: number, action: CareAction): number | undefined => {
  const days = s.logs.filter((l) => l.plantId === id && l.action === action).map((l) => l.day);
  return days.length ? Math.max(...days) : undefined;
};
/** Day offset watering is next due (≤ 0: due today or overdue). */
export const nextWater = (s: PlantsState, p: Plant): number => (lastDone(s, p.id, 'Watered') ?? p.since) + p.waterDays;
/** Day offset fertilizing is next due, or undefined when fertilizing is off. */
export const nextFeed = (s: PlantsState, p: Plant): number | undefined => (p.feedWeeks ? (lastDone(s, p.id, 'Fertilized') ?? p.since) + p.feedWeeks * 7 : undefined);

/** "today", "yesterday", "2 days ago", "in 3 days". */
export const relDays = (offset: number): string =>
  offset === 0 ? 'today' : offset === -1 ? 'yesterday' : offset === 1 ? 'tomorrow' : offset < 0 ? `${-offset} days ago` : `in ${offset} days`;

export function initialPlantsState(seed: number): PlantsState {
  const rand = rng(seed ^ 0x9a17e5);
  const plants: Plant[] = PLANTS.map(([name, species, room, light, waterDays, feedWeeks, since], i) => ({
    id: 301 + i,
    name,
    species,
    room,
    light,
    waterDays,
    feedWeeks,
    reminders: true,
    notes: '',
    since,
    added: false,
    removed: false,
    removeReason: '',
    seq: 0,
  }));
  const logs: CareLog[] = [];
  const log = (plantId: number, action: CareAction, day: number): void => void logs.push({ id: 1001 + logs.length, plantId, action, day, seeded: true, seq: 0 });
  // The care history differs by seed: some plants are due or overdue today, others not for days.
  for (const p of plants) {
    const lastWater = -Math.min(p.waterDays + 2, 2 + Math.floor(rand() * (p.waterDays + 1)));
    log(p.id, 'Watered', lastWater);
    log(p.id, 'Watered', lastWater - p.waterDays - Math.floor(rand() * 2));
    if (p.feedWeeks) log(p.id, 'Fertilized', -Math.floor(3 + rand() * (p.feedWeeks * 7)));
    if (['Calathea', 'Boston fern', 'Fiddle-leaf fig'].includes(p.species)) log(p.id, 'Misted', -Math.floor(3 + rand() * 4));
    if (p.species === 'Monstera deliciosa') log(p.id, 'Repotted', -96);
    if (p.species === 'Mint') log(p.id, 'Pruned', -Math.floor(5 + rand() * 6));
  }
  return { seed, plants, logs, scheduleSaves: [], points: 200 + Math.floor(rand() * 40) * 10, seq: 0 };
}

/** Why Add plant cannot be saved, by field (empty when it can). */
export function plantErrors(plants: readonly Plant[], d: { name: string; species: string; room: string; light: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  const name = cleanText(d.name);
  if (!name) errors.name = 'Give your plant a nickname';
  else if (name.length > NAME_MAX) errors.name = `Use ${NAME_MAX} characters or fewer`;
  else {
    const taken = plants.find((p) => !p.removed && p.name.toLowerCase() === name.toLowerCase());
    if (taken) errors.name = `You already have a plant called ${taken.name}`;
  }
  if (!speciesInfo(d.species)) errors.species = 'Choose a species';
  if (!ROOMS.includes(d.room)) errors.room = 'Choose a room';
  if (!LIGHT_NAMES.includes(d.light)) errors.light = 'Choose how much light it gets';
  return errors;
}

export const cleanText = (s: string): string => s.trim().replace(/\s+/g, ' ');
