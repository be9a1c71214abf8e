import { expect, it } from 'vitest';
import type { Query } from '../../domain/entities.js';
import { loadDags } from '../../environments/app-world.js';
import { slotKey, splitHeldOut } from '../../query-gen/heldout.js';
import { generateQueries } from '../../query-gen/sample.js';

const q = (instruction: string, slots: Record<string, string>): Query =>
  ({ id: instruction, app: 'a', family: 'f', instruction, rawInstruction: instruction, slots }) as unknown as Query;

it('held out by slot values: eval takes whole slot groups; production never shares an eval query\'s slot values', () => {
  const qs = [
    q('Freeze A', { card: 'A' }),
    q('Please freeze my A card', { card: 'A' }),
    q('Freeze B', { card: 'B' }),
    q('freeze a', { card: 'A' }), // same instruction as the first, other case: dropped
    q('Freeze C', { card: 'C' }),
    q('Please freeze my B card', { card: 'b ' }), // same slot values as "Freeze B" (case and spaces aside)
    q('Please freeze my C card', { card: 'C' }),
  ];
  const { evalSet, production } = splitHeldOut(qs, 3);
  expect(evalSet.map((x) => x.instruction)).toEqual(['Freeze A', 'Please freeze my A card', 'Freeze B']);
  // "Please freeze my B card" asks eval's task in other words: neither eval nor production.
  expect(production.map((x) => x.instruction)).toEqual(['Freeze C', 'Please freeze my C card']);
  const evalKeys = new Set(evalSet.map(slotKey));
  expect(production.some((x) => evalKeys.has(slotKey(x)))).toBe(false);
});

it('held out by instruction: the first distinct instructions, the rest for production', () => {
  const qs = [q('Freeze A', { card: 'A' }), q('FREEZE A', { card: 'A' }), q('Please freeze my A card', { card: 'A' }), q('Freeze B', { card: 'B' })];
  const { evalSet, production } = splitHeldOut(qs, 1, 'instruction');
  expect(evalSet.map((x) => x.instruction)).toEqual(['Freeze A']);
  expect(production.map((x) => x.instruction)).toEqual(['Please freeze my A card', 'Freeze B']);
});

it('slot keys ignore key order; a bad eval count is refused', () => {
  expect(slotKey({ slots: { a: '1', b: '2' } })).toBe(slotKey({ slots: { b: '2', a: '1' } }));
  expect(() => splitHeldOut([], 0)).toThrow(/evalCount/);
});

it('on a real family with five slot values (Bank cards) eval and production cards are disjoint', () => {
  // A draw has one phrasing per slot-value tuple (five cards: five queries); three draws bring the other phrasing.
  const drawn = [1, 2, 3].flatMap((seed) => generateQueries({ dags: loadDags(), count: 100, seed, apps: ['bank'] }).queries.filter((x) => x.family === 'freeze_card'));
  const { evalSet, production } = splitHeldOut(drawn, 6);
  expect(evalSet).toHaveLength(6);
  expect(production.length).toBeGreaterThan(0);
  const evalCards = new Set(evalSet.map((x) => x.slots.card));
  expect(production.every((x) => !evalCards.has(x.slots.card))).toBe(true);
});
