import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rollout } from '../../domain/entities.js';
import * as repo from '../../storage/repos.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

/** Migration 0004: `steps.roles` (multi-agent role IO) round-trips through upsertRollout/getRollout. */
let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const key = (c: string) => `sha256/${c}${c}/${c.repeat(64)}.png`;
const obs = (c: string) => ({ screenshotKey: key(c), width: 412, height: 915 });

describe('step roles storage', () => {
  it('writes and reads back the roles array; steps without roles stay without', async () => {
    await repo.upsertCycle(db.pool, { id: 'c-roles', config: {}, configHash: 'h', modelVersion: 'm@1', criticVersion: 'c' });
    await repo.upsertQueries(db.pool, 'c-roles', [
      {
        id: 'q-roles',
        app: 'food',
        dagVersion: 'v1',
        family: 'view_menu',
        instruction: 'Show me the menu of Sushi Zen in Foodie.',
        rawInstruction: 'Open Foodie, tap Sushi Zen.',
        path: ['home', 'restaurant'],
        slots: { restaurant: 'Sushi Zen' },
        checker: { app: 'food', family: 'view_menu', params: { restaurant: 'Sushi Zen' } },
        difficulty: 2,
        sampler: 'families',
        seed: 1,
      },
    ]);
    const r = Rollout.parse({
      id: 'c-roles/q-roles/a0',
      cycleId: 'c-roles',
      queryId: 'q-roles',
      attempt: 0,
      agentMode: 'mobile-agent-v3',
      actionSpace: 'mobile',
      model: { name: 'policy', version: 'v1' },
      status: 'terminated',
      outcome: 'success',
      steps: [
        {
          index: 0,
          before: obs('a'),
          after: obs('b'),
          action: { action: 'open', text: 'Foodie' },
          reasoning: 'open it',
          conclusion: 'Opened Foodie.',
          latencyMs: 12,
          roles: [
            { role: 'manager', request: { messages: [{ role: 'system', text: 'You are the Manager', images: [] }, { role: 'user', text: '### Mode ###\ninit', images: [key('a')] }] }, reply: '{"thought":"t","completed_subgoals":[],"pending_subgoals":["Open Foodie"]}', parsed: { thought: 't', completed_subgoals: [], pending_subgoals: ['Open Foodie'] } },
            { role: 'reflector', request: { messages: [{ role: 'user', text: 'x', images: [key('a'), key('b')] }] }, reply: 'nope', error: { kind: 'format_error', field: 'reflector', message: 'not JSON' } },
          ],
        },
        { index: 1, before: obs('b'), action: { action: 'terminate', status: 'success' }, reasoning: '', conclusion: 'done', latencyMs: 3 },
      ],
    });
    await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h' });
    const back = await repo.getRollout(db.pool, r.id);
    expect(back).toEqual(r);
    expect(back!.steps[1]!.roles).toBeUndefined();
    // Idempotent rewrite.
    await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h' });
    expect(await repo.getRollout(db.pool, r.id)).toEqual(r);
  });
});
