import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Rollout, type Query } from '../../domain/entities.js';
import { many } from '../../storage/db.js';
import * as repo from '../../storage/repos.js';
import { freezeEvalSet, getEvalSet, getQueryStats, listEvalSets, listHardQueries, refreshQueryStats } from '../../storage/query-stats-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const CRITIC = 'critic-v1';
const query = (id: string): Query => ({
  id,
  app: 'notes',
  dagVersion: 'notes@1',
  family: 'create_note',
  instruction: `Create a note called ${id}`,
  rawInstruction: `Open Notes, tap New, type ${id}`,
  path: ['home', 'editor'],
  slots: { title: id },
  checker: { app: 'notes', family: 'create_note', params: { title: id } },
  difficulty: 3,
  sampler: 'uniform',
  seed: 1,
});
const obs = { screenshotKey: `sha256/00/${'0'.repeat(64)}.png`, width: 10, height: 10 };

async function addRollout(cycleId: string, queryId: string, attempt: number, opts: { accepted?: boolean; gt?: boolean; degraded?: boolean }): Promise<string> {
  const r = Rollout.parse({
    id: `${cycleId}/${queryId}/a${attempt}`,
    cycleId,
    queryId,
    attempt,
    agentMode: 'gui-owl',
    actionSpace: 'mobile',
    model: { name: 'p', version: '1' },
    status: 'terminated',
    outcome: attempt % 2 ? 'failure' : 'success',
    steps: [{ index: 0, before: obs, after: obs, action: { action: 'terminate', status: 'success' }, latencyMs: 1 }],
    ...(opts.gt !== undefined ? { groundTruth: opts.gt } : {}),
  });
  await repo.upsertRollout(db.pool, r, { degraded: opts.degraded ?? false, configHash: 'h' });
  if (opts.accepted !== undefined) {
    await repo.upsertTrajectoryVerdicts(db.pool, [{ rolloutId: r.id, criticVersion: CRITIC, channel: 'consensus', correct: opts.accepted, reason: '', votes: [] }]);
  }
  return r.id;
}

const acceptance = (id: string) =>
  many(db.pool, `select accepted, source, critic_accepted, human_verdict from rollout_acceptance where rollout_id = $1`, [id], z.object({ accepted: z.boolean().nullable(), source: z.string(), critic_accepted: z.boolean().nullable(), human_verdict: z.boolean().nullable() }));

describe('effective acceptance, query statistics and eval sets (migration 0008)', () => {
  it('humans override critics: any human rejection wins, unanimous human acceptance accepts a critic rejection', async () => {
    await repo.upsertCycle(db.pool, { id: 'cycle-1', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: CRITIC });
    await repo.upsertQueries(db.pool, 'cycle-1', [query('q1'), query('q2'), query('q3')]);
    const a = await addRollout('cycle-1', 'q1', 0, { accepted: true, gt: true });
    const b = await addRollout('cycle-1', 'q1', 1, { accepted: false, gt: false });
    const c = await addRollout('cycle-1', 'q2', 0, { accepted: false, gt: false });
    await addRollout('cycle-1', 'q2', 1, { accepted: false, gt: false });
    await addRollout('cycle-1', 'q3', 0, { degraded: true });
    // A verdict of another critic version is not this cycle's verdict.
    await repo.upsertTrajectoryVerdicts(db.pool, [{ rolloutId: c, criticVersion: 'other', channel: 'consensus', correct: true, reason: '', votes: [] }]);

    expect(await acceptance(a)).toEqual([{ accepted: true, source: 'critics', critic_accepted: true, human_verdict: null }]);
    expect(await acceptance(c)).toEqual([{ accepted: false, source: 'critics', critic_accepted: false, human_verdict: null }]);
    await db.pool.query(`insert into review_verdicts (rollout_id, reviewer, verdict) values ($1, 'ann', true), ($2, 'ann', false), ($2, 'bob', true)`, [b, a]);
    expect(await acceptance(b)).toEqual([{ accepted: true, source: 'human', critic_accepted: false, human_verdict: true }]);
    expect(await acceptance(a)).toEqual([{ accepted: false, source: 'human', critic_accepted: true, human_verdict: false }]);
  });

  it('refreshQueryStats aggregates judged, non-degraded rollouts idempotently; hard queries have no success', async () => {
    expect(await refreshQueryStats(db.pool, 'cycle-1')).toBe(2);
    await refreshQueryStats(db.pool, 'cycle-1');
    const q1 = await getQueryStats(db.pool, 'q1');
    // a: human-rejected (0), b: human-accepted (1).
    expect(q1).toMatchObject({ attempts: 2, successes: 1, pSucc: 0.5, rewardMean: 0.5, rewardVar: 0.25, gtSuccesses: 1, lastCycleId: 'cycle-1', difficulty: 3 });
    expect(await getQueryStats(db.pool, 'q2')).toMatchObject({ attempts: 2, successes: 0, pSucc: 0, rewardVar: 0 });
    expect(await getQueryStats(db.pool, 'q3')).toBeUndefined();
    expect((await listHardQueries(db.pool, { minAttempts: 2 })).map((s) => s.queryId)).toEqual(['q2']);
    expect(await listHardQueries(db.pool, { minAttempts: 3 })).toEqual([]);
  });

  it('eval sets freeze once; the same queries again are a no-op, other queries under the name are refused', async () => {
    const qs = [query('e1'), query('e2')];
    expect(await freezeEvalSet(db.pool, { name: 'heldout', fingerprint: 'f1', spec: { seed: 3 }, queries: qs })).toEqual({ created: true });
    expect(await freezeEvalSet(db.pool, { name: 'heldout', fingerprint: 'f1', spec: { seed: 3 }, queries: qs })).toEqual({ created: false });
    await expect(freezeEvalSet(db.pool, { name: 'heldout', fingerprint: 'f2', spec: {}, queries: [query('e3')] })).rejects.toThrow(/already frozen/);
    const set = await getEvalSet(db.pool, 'heldout');
    expect(set?.queries).toEqual(qs);
    expect(await listEvalSets(db.pool)).toEqual([{ name: 'heldout', queries: 2, frozenAt: set!.frozenAt }]);
  });
});
