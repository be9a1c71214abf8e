import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Query } from '../../domain/entities.js';
import * as repo from '../../storage/repos.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const base: Query = {
  id: 'q-old',
  app: 'food',
  dagVersion: '1.0.0',
  family: 'view_menu',
  instruction: 'Show me the menu of Pizza Roma in Foodie.',
  rawInstruction: 'Open Foodie and tap Pizza Roma.',
  path: ['launcher', 'home', 'restaurant'],
  slots: { restaurant: 'Pizza Roma' },
  checker: { app: 'food', family: 'view_menu', params: { restaurant: 'Pizza Roma' } },
  difficulty: 3,
  sampler: 'families@2',
  seed: 1,
};

describe('queries: lineage, feasibility and validation columns (0003)', () => {
  it('round-trips new fields and leaves older-style queries unchanged', async () => {
    await repo.upsertCycle(db.pool, { id: 'cycle-1', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: 'c' });
    const infeasible: Query = {
      ...base,
      id: 'q-new',
      family: 'infeasible',
      slots: { restaurant: 'Pizza Fiesta' },
      checker: { app: 'food', family: 'infeasible', params: { restaurant: 'Pizza Fiesta', baseFamily: 'view_menu' } },
      feasible: false,
      lineage: { sampler: 'families', synthModel: 'ref-query-synth', refineModel: 'ref-query-refine', dagVersion: '1.0.0', seed: 1 },
      metadata: { descriptions: [{ page: 'home', description: 'Foodie home' }], slots: { restaurant: 'Pizza Fiesta' } },
      validation: { valid: false, failedAt: { page: 'home', reason: 'missing_slot_value' } },
    };
    await repo.upsertQueries(db.pool, 'cycle-1', [base, infeasible]);
    expect(await repo.getQuery(db.pool, 'q-old')).toEqual(base);
    expect(await repo.getQuery(db.pool, 'q-new')).toEqual(infeasible);
    const cov = await repo.queryCoverage(db.pool, 'cycle-1');
    expect(cov.map((r) => [r.app, r.rollouts, r.accepted])).toEqual([
      ['food', 0, 0],
      ['food', 0, 0],
    ]);
  });
});
