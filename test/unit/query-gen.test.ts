import { describe, expect, it } from 'vitest';
import { AppDag } from '../../domain/dag.js';
import { generateQueries } from '../../query-gen/sample.js';

const dag = AppDag.parse({
  app: 'shop',
  version: '1',
  title: 'Shop',
  startPage: 'home',
  pages: [
    { id: 'home', description: 'store front', marker: 'Shop', slots: [{ key: 'store', description: 'store', values: ['North', 'South'] }] },
    {
      id: 'item',
      description: 'an item',
      marker: 'Add',
      slots: [
        {
          key: 'item',
          description: 'item',
          values: ['apple', 'pear', 'fig'],
          dependsOn: { slot: 'store', values: { North: ['apple'], South: ['pear', 'fig'] } },
        },
      ],
    },
  ],
  transitions: [{ from: 'home', to: 'item', action: 'tap an item', control: '{item}' }],
  tasks: [{ id: 'buy', description: 'buy', path: ['home', 'item'], templates: ['Open Shop, tap {store}, buy {item}', 'Buy {item} at {store}'] }],
});

describe('generateQueries', () => {
  it('is reproducible from its seed and dedupes exact repeats', () => {
    const a = generateQueries({ dags: [dag], count: 3, seed: 1 });
    const b = generateQueries({ dags: [dag], count: 3, seed: 1 });
    expect(a.queries).toEqual(b.queries);
    // Only 3 distinct (store, item) combinations exist.
    expect(new Set(a.queries.map((q) => q.id)).size).toBe(a.queries.length);
    expect(a.queries.length).toBe(3);
  });

  it('respects slot dependencies and keeps raw and refined instructions', () => {
    const { queries } = generateQueries({ dags: [dag], count: 3, seed: 9 });
    for (const q of queries) {
      if (q.slots.store === 'North') expect(q.slots.item).toBe('apple');
      else expect(['pear', 'fig']).toContain(q.slots.item);
      expect(q.rawInstruction).toBe(`Open Shop, tap ${q.slots.store}, buy ${q.slots.item}`);
      expect(q.instruction).toBe(`Buy ${q.slots.item} at ${q.slots.store}`);
      expect(q.checker).toEqual({ app: 'shop', family: 'buy', params: q.slots });
      expect(q.dagVersion).toBe('1');
    }
  });

  it('rejects a DAG whose transitions name unknown pages, naming the field', () => {
    const bad = AppDag.safeParse({ ...dag, transitions: [{ from: 'home', to: 'nowhere', action: 'x', control: 'y' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['transitions', 0, 'to']);
  });
});
