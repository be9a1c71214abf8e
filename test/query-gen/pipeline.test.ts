import { describe, expect, it } from 'vitest';
import { AppDag } from '../../domain/dag.js';
import type { Query } from '../../domain/entities.js';
import { loadFoodDag } from '../../environments/apps/food/index.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { queryRefineRole, querySynthRole, refineInstruction, synthesizeInstruction } from '../../models/reference/roles/query.js';
import { dedupe, isNearDuplicate } from '../../query-gen/dedup.js';
import { editDistance, trapFlags } from '../../query-gen/difficulty.js';
import { infeasibleSuccess, makeInfeasible } from '../../query-gen/infeasible.js';
import { describe as describePath, extractMetadata } from '../../query-gen/metadata.js';
import { mapToFamily, samplePath, walkOfLength } from '../../query-gen/paths.js';
import { generateQueryBatch } from '../../query-gen/pipeline.js';
import { seededRandom } from '../../query-gen/sample.js';
import { validationVerdict } from '../../query-gen/validate.js';

// Food's own families only (other apps' cross-app families reference DAGs this test does not load).
const loaded = loadFoodDag();
const food: AppDag = { ...loaded, tasks: loaded.tasks.filter((t) => t.path.every((p) => !p.includes(':'))) };
const models = { synth: inProcessModel('ref-query-synth', querySynthRole), refine: inProcessModel('ref-query-refine', queryRefineRole) };

/** A second app with a cross-app family (notes → food), to exercise qualified pages. */
const memo = AppDag.parse({
  app: 'memo',
  version: '1',
  title: 'Memo',
  startPage: 'launcher',
  pages: [
    { id: 'launcher', description: 'home screen', marker: 'Weather' },
    { id: 'list', description: 'memo list', marker: 'Memos', slots: [{ key: 'memo', description: 'memo title', values: ['Lunch plan', 'Dinner plan'] }] },
    { id: 'memo', description: 'a memo', marker: 'Edit' },
  ],
  transitions: [
    { from: 'launcher', to: 'list', action: 'open Memo', control: 'Memo' },
    { from: 'list', to: 'memo', action: 'open a memo', control: '{memo}', slot: 'memo' },
  ],
  tasks: [{ id: 'order_from_memo', description: 'read a memo and order', path: ['launcher', 'list', 'memo', 'food:home', 'food:restaurant'], templates: ['Open Memo, tap {memo}, then open Foodie and tap {restaurant}', 'Order from the restaurant in my {memo} memo: {restaurant}'] }],
});

describe('path sampling', () => {
  it('is reproducible per seed for every sampler', () => {
    for (const sampler of ['families', 'uniform', 'length', 'coverage'] as const) {
      const draw = (seed: number) => {
        const r = seededRandom(seed);
        return Array.from({ length: 30 }, () => samplePath(food, r, { sampler, length: 4, allowFree: true })?.pages.join('>'));
      };
      expect(draw(3)).toEqual(draw(3));
      expect(draw(3)).not.toEqual(draw(4));
    }
  });

  it('length-controlled walks have the target length and map to families', () => {
    const r = seededRandom(1);
    for (let k = 2; k <= 6; k++) expect(walkOfLength(food, k, r)).toHaveLength(k);
    expect(mapToFamily(food, ['launcher', 'home', 'restaurant', 'cart'])?.family.id).toBe('add_to_cart');
    // A prefix is completed to the shortest family it starts.
    expect(mapToFamily(food, ['launcher', 'home', 'search_results'])?.family.id).toBe('search_restaurant');
    expect(mapToFamily(food, ['launcher', 'home', 'orders'])).toBeUndefined();
  });

  it('coverage-driven sampling prefers edges with few accepted trajectories', () => {
    const count = (coverage?: { pages: Record<string, number>; edges: Record<string, number> }) => {
      const r = seededRandom(11);
      let search = 0;
      for (let i = 0; i < 2000; i++) {
        const p = samplePath(food, r, coverage ? { sampler: 'coverage', coverage, allowFree: true } : { sampler: 'uniform', allowFree: true });
        if (p?.pages.includes('search_results')) search++;
      }
      return search;
    };
    const covered = { pages: { 'food:restaurant': 50, 'food:cart': 50 }, edges: { 'food:home>restaurant': 200, 'food:home>cart': 100 } };
    const uniform = count();
    const driven = count(covered);
    expect(driven).toBeGreaterThan(uniform * 1.5);
  });
});

describe('metadata extraction', () => {
  it('respects dependsOn and extracts D′ for every page, across apps', () => {
    const r = seededRandom(5);
    for (let i = 0; i < 200; i++) {
      const m = extractMetadata([food], 'food', food.tasks.find((t) => t.id === 'order_dish')!.path, r, food.tasks.find((t) => t.id === 'order_dish'));
      expect(food.pages.find((p) => p.id === 'restaurant')!.slots[0]!.dependsOn!.values[m.slots.restaurant!]).toContain(m.slots.dish);
      expect(m.descriptions).toHaveLength(7);
      expect(Object.keys(m.slots)).toEqual(['restaurant', 'dish', 'quantity', 'address', 'payment']);
    }
    const cross = extractMetadata([food, memo], 'memo', memo.tasks[0]!.path, r, memo.tasks[0]);
    expect(cross.descriptions.map((d) => d.page)).toEqual(['launcher', 'list', 'memo', 'food:home', 'food:restaurant']);
    expect(Object.keys(cross.slots).sort()).toEqual(['memo', 'restaurant']);
    expect(cross.apps.map((a) => a.title)).toEqual(['Memo', 'Foodie']);
    expect(cross.steps.some((s) => s.action === 'open the Foodie app')).toBe(true);
  });
});

describe('reference query roles', () => {
  const meta = describePath([food], 'food', food.tasks.find((t) => t.id === 'order_dish')!.path, { restaurant: 'Burger Palace', dish: 'Classic Burger', quantity: '2', address: '12 Baker Street', payment: 'Card' }, food.tasks.find((t) => t.id === 'order_dish'));
  const input = { appTitle: meta.appTitle, apps: meta.apps, steps: meta.steps, slots: meta.slots };

  it('synth: varied text that contains every slot value verbatim', () => {
    const texts = new Set<string>();
    for (let s = 0; s < 40; s++) {
      const t = synthesizeInstruction(input, seededRandom(s));
      for (const v of Object.values(meta.slots)) expect(t).toContain(v);
      texts.add(t);
    }
    expect(texts.size).toBeGreaterThan(30);
    const opens = new Set([...texts].map((t) => t.match(/(open|launch|start|go to)/i)?.[1]?.toLowerCase()));
    expect(opens.size).toBeGreaterThanOrEqual(3);
  });

  it('refine: drops navigation clauses and keeps goals and slot values', () => {
    const raw = 'Open Foodie, tap Burger Palace, add Classic Burger, set the quantity to 2, tap View cart, go to checkout, type 12 Baker Street in the Street and number field, tap Card and confirm the order.';
    const texts = new Set<string>();
    for (let s = 0; s < 20; s++) {
      const t = refineInstruction({ instruction: raw, appTitle: 'Foodie', slots: meta.slots }, seededRandom(s));
      for (const v of Object.values(meta.slots)) expect(t).toContain(v);
      expect(t).not.toMatch(/\b(open Foodie|tap View cart|go to checkout)\b/i);
      expect(t).toMatch(/confirm the order/i);
      texts.add(t);
    }
    expect(texts.size).toBeGreaterThan(1);
    // With few-shot hints (the family's natural templates), one of them is used.
    const hinted = refineInstruction({ instruction: raw, appTitle: 'Foodie', slots: meta.slots, hints: meta.hints }, seededRandom(1));
    expect(meta.hints.some((h) => hinted.includes(h.slice(5, 30)))).toBe(true);
  });
});

describe('dedup, difficulty, infeasible', () => {
  const q = (over: Partial<Query>): Query => ({
    id: 'a', app: 'food', dagVersion: '1', family: 'view_menu', instruction: 'Show me the menu of Sushi Zen in Foodie.', rawInstruction: 'x',
    path: ['launcher', 'home', 'restaurant'], slots: { restaurant: 'Sushi Zen' }, checker: { app: 'food', family: 'view_menu', params: {} },
    difficulty: 3, sampler: 's', seed: 1, ...over,
  });

  it('removes exact and near duplicates but keeps different slot values', () => {
    const a = q({});
    const sameTaskOtherFamily = q({ id: 'b', family: 'search_restaurant', instruction: 'Use the search in Foodie to find Sushi Zen and open it.', path: ['launcher', 'home', 'search_results', 'restaurant'] });
    const otherValue = q({ id: 'c', slots: { restaurant: 'Sushi Zone' }, instruction: 'Show me the menu of Sushi Zone in Foodie.' });
    const reworded = q({ id: 'd', path: ['launcher', 'home', 'x'], instruction: 'Please show me the menu of Sushi Zen in Foodie' });
    expect(isNearDuplicate(a, sameTaskOtherFamily)).toBe(true);
    expect(isNearDuplicate(a, otherValue)).toBe(false);
    expect(isNearDuplicate(a, reworded)).toBe(true);
    const r = dedupe([a, a, sameTaskOtherFamily, otherValue, reworded]);
    expect(r).toMatchObject({ exact: 1, near: 2 });
    expect(r.kept.map((k) => k.id)).toEqual(['a', 'c']);
  });

  it('flags near-duplicate and shared slot values as traps', () => {
    expect(editDistance('Burger Palace', 'Burger Place')).toBe(1);
    const specs = Object.fromEntries(food.pages.flatMap((p) => p.slots).map((s) => [s.key, s]));
    const flags = trapFlags({ restaurant: 'Burger Palace', dish: 'Classic Burger' }, specs).map((f) => `${f.slot}:${f.flag}`);
    expect(flags).toEqual(['restaurant:near_duplicate_value', 'dish:shared_value']);
    expect(trapFlags({ restaurant: 'Pizza Roma' }, specs)).toEqual([]);
  });

  it('makes infeasible variants the app cannot satisfy and judges them from the rollout', () => {
    const specs = Object.fromEntries(food.pages.flatMap((p) => p.slots).map((s) => [s.key, s]));
    const v = makeInfeasible({ restaurant: 'Pizza Roma', dish: 'Tiramisu' }, specs, seededRandom(2))!;
    expect(v.reason).toBe('not_under_parent');
    expect(specs.dish!.dependsOn!.values['Pizza Roma']).not.toContain(v.slots.dish);
    const invented = makeInfeasible({ restaurant: 'Pizza Roma' }, specs, seededRandom(3))!;
    expect(invented.reason).toBe('nonexistent_value');
    expect(specs.restaurant!.values).not.toContain(invented.slots.restaurant);
    expect(infeasibleSuccess('terminated', 'failure').success).toBe(true);
    expect(infeasibleSuccess('answered', 'That restaurant does not exist').success).toBe(true);
    expect(infeasibleSuccess('terminated', 'success').success).toBe(false);
    expect(validationVerdict({ valid: false, failedAt: { page: 'restaurant', reason: 'missing_slot_value' } }, false)).toEqual({ keep: true });
    expect(validationVerdict({ valid: true }, false).keep).toBe(false);
  });
});

describe('generateQueryBatch', () => {
  it('1,000 queries: deterministic per seed, with a report', async () => {
    const opts = { dags: [food, memo], count: 1000, seed: 42, sampler: 'families' as const, models, infeasibleRate: 0.05 };
    const t0 = Date.now();
    const a = await generateQueryBatch(opts);
    const ms = Date.now() - t0;
    const b = await generateQueryBatch(opts);
    expect(a.queries).toEqual(b.queries);
    expect(a.report).toEqual(b.report);
    expect(a.queries).toHaveLength(1000);
    expect(ms).toBeLessThan(30_000);
    expect(a.report.perApp.food!.generated + a.report.perApp.memo!.generated).toBe(1000);
    const infeasible = a.queries.filter((q) => q.feasible === false);
    expect(infeasible.length).toBeGreaterThan(20);
    for (const q of infeasible) expect(q.checker.family).toBe('infeasible');
    for (const q of a.queries) {
      for (const v of Object.values(q.slots)) expect(q.instruction).toContain(v);
      expect(q.lineage).toMatchObject({ synthModel: 'ref-query-synth', refineModel: 'ref-query-refine', seed: 42 });
    }
    expect(a.queries.some((q) => q.path.includes('food:restaurant'))).toBe(true);
    expect(Object.keys(a.report.difficulty).length).toBeGreaterThan(3);
    const c = await generateQueryBatch({ ...opts, seed: 43, count: 50 });
    expect(c.queries.map((q) => q.id)).not.toEqual(a.queries.slice(0, 50).map((q) => q.id));
  });

  it('keeps only the requested families (the line --families), with enough draws to fill the batch', async () => {
    const r = await generateQueryBatch({ dags: [food], count: 12, seed: 5, sampler: 'families', models, families: ['add_to_cart'] });
    expect(r.queries).toHaveLength(12);
    expect(new Set(r.queries.map((q) => q.checker.family))).toEqual(new Set(['add_to_cart']));
  });

  it('drops queries the validator rejects and records the reason', async () => {
    const validator = { validate: async (t: { slots: Record<string, string> }) => (t.slots.restaurant === 'Sushi Zen' ? { valid: false, failedAt: { page: 'home', reason: 'missing_slot_value' as const } } : { valid: true }) };
    const r = await generateQueryBatch({ dags: [food], count: 60, seed: 1, sampler: 'uniform', models, validator });
    expect(r.queries.every((q) => q.slots.restaurant !== 'Sushi Zen' && q.validation?.valid)).toBe(true);
    expect(r.report.validation!.byReason.missing_slot_value).toBe(r.report.validation!.dropped);
    expect(r.report.validation!.dropped).toBeGreaterThan(0);
  });
});
