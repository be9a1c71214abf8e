/**
 * Guidance storage and export (migration 0015): versions per query are idempotent per reference, uplift is
 * recomputed from stored rollouts and retires guidance that stops helping, filter decisions and reasoning samples
 * upsert on their natural keys, and exported samples never contain guidance text unless asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Rollout, type Query } from '../../domain/entities.js';
import { buildSamples } from '../../export/gui-owl-sft.js';
import { many } from '../../storage/db.js';
import {
  activeGuidance,
  guidedFamilies,
  recordFilterDecisions,
  refreshUplift,
  RETIRE_AFTER_ATTEMPTS,
  rolloutGuidance,
  rolloutGuidanceMany,
  setRolloutGuidance,
  upsertGuidance,
  upsertReasoningSamples,
} from '../../storage/guidance-repo.js';
import * as repo from '../../storage/repos.js';
import { criticGate } from '../../synthesis/filters.js';
import { formatGuidance } from '../../synthesis/guidance.js';
import { spreadOverFamilies } from '../../activities/guidance.js';
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
  app: 'food',
  dagVersion: 'food@1',
  family: 'order',
  instruction: `Order a Cheeseburger from Burger Palace (${id})`,
  rawInstruction: 'x',
  path: ['home'],
  slots: {},
  checker: { app: 'food', family: 'order', params: {} },
  difficulty: 3,
  sampler: 'uniform',
  seed: 1,
});
const obs = { screenshotKey: `sha256/00/${'0'.repeat(64)}.png`, width: 412, height: 915 };
const obs2 = { screenshotKey: `sha256/11/${'1'.repeat(64)}.png`, width: 412, height: 915 };

async function addRollout(id: string, queryId: string, accepted: boolean, gt: boolean): Promise<Rollout> {
  const r = Rollout.parse({
    id,
    cycleId: 'cycle-1',
    queryId,
    attempt: Number(/(\d+)$/.exec(id)![1]),
    agentMode: 'gui-owl',
    actionSpace: 'mobile',
    model: { name: 'p', version: '1' },
    status: 'terminated',
    outcome: 'success',
    steps: [
      { index: 0, before: obs, after: obs2, action: { action: 'click', coordinate: [80, 167] }, reasoning: 'Open "Burger Palace".', conclusion: 'Tapped "Burger Palace".', latencyMs: 1 },
      { index: 1, before: obs2, action: { action: 'terminate', status: 'success' }, reasoning: 'Done.', conclusion: 'Done.', latencyMs: 1 },
    ],
    groundTruth: gt,
  });
  await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h' });
  await repo.upsertTrajectoryVerdicts(db.pool, [{ rolloutId: r.id, criticVersion: CRITIC, channel: 'consensus', correct: accepted, reason: '', votes: [] }]);
  return r;
}

describe('guidance storage', () => {
  it('one version per reference (idempotent), the next version for a new reference; uplift and retirement from rollouts', async () => {
    await repo.upsertCycle(db.pool, { id: 'cycle-1', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: CRITIC });
    await repo.upsertQueries(db.pool, 'cycle-1', [query('q1'), query('q2')]);
    const g = { queryId: 'q1', text: formatGuidance(['tap Burger Palace']), steps: ['tap Burger Palace'], described: [], source: 'model', referenceId: 'cycle-1/q1/r0', cycleId: 'cycle-1', models: {} };
    expect(await upsertGuidance(db.pool, g)).toBe(1);
    expect(await upsertGuidance(db.pool, g)).toBe(1);
    expect(await upsertGuidance(db.pool, { ...g, referenceId: 'cycle-1/q1/r1' })).toBe(2);
    const rows = await many(db.pool, `select version from query_guidance where query_id = 'q1' order by version`, [], z.object({ version: z.number() }));
    expect(rows.map((r) => r.version)).toEqual([1, 2]);
    expect((await activeGuidance(db.pool, ['q1', 'q2'])).map((x) => [x.queryId, x.version])).toEqual([['q1', 2]]);

    // Two unguided failures, then guided attempts on version 2: helping (3/4 accepted) → stays active.
    await addRollout('cycle-1/q1/a0', 'q1', false, false);
    await addRollout('cycle-1/q1/a1', 'q1', false, false);
    for (let k = 0; k < RETIRE_AFTER_ATTEMPTS; k++) {
      await addRollout(`cycle-1/q1/g${k}`, 'q1', k > 0, k > 0);
      await setRolloutGuidance(db.pool, `cycle-1/q1/g${k}`, 2);
    }
    const helped = await refreshUplift(db.pool, 'q1', 2);
    expect(helped).toMatchObject({ status: 'active', guidedAttempts: 4, guidedSuccesses: 3, unguidedAttempts: 2, unguidedSuccesses: 0 });
    expect(await rolloutGuidance(db.pool, 'cycle-1/q1/g0', 'q1')).toEqual({ version: 2, text: g.text });
    expect(await rolloutGuidance(db.pool, 'cycle-1/q1/a0', 'q1')).toBeUndefined();
    expect(await rolloutGuidanceMany(db.pool, ['cycle-1/q1/g0', 'cycle-1/q1/a0'])).toEqual(new Map([['cycle-1/q1/g0', { version: 2, text: g.text, source: 'model' }]]));
    // Purpose follows from the business key; guided attempt 0 coexists with plain attempt 0.
    const purposes = await many(db.pool, `select id, purpose, attempt from rollouts where query_id = 'q1' and attempt = 0 order by id`, [], z.object({ id: z.string(), purpose: z.string(), attempt: z.number() }));
    expect(purposes.map((p) => [p.id, p.purpose])).toEqual([['cycle-1/q1/a0', 'attempt'], ['cycle-1/q1/g0', 'guided']]);

    // Version 1 on q2: guided no better than unguided after enough attempts → retired with the reason.
    await upsertGuidance(db.pool, { ...g, queryId: 'q2', referenceId: 'cycle-1/q2/r0' });
    await addRollout('cycle-1/q2/a0', 'q2', true, true);
    await addRollout('cycle-1/q2/a1', 'q2', false, false);
    for (let k = 0; k < RETIRE_AFTER_ATTEMPTS; k++) {
      await addRollout(`cycle-1/q2/g${k}`, 'q2', k === 0, k === 0);
      await setRolloutGuidance(db.pool, `cycle-1/q2/g${k}`, 1);
    }
    const retired = await refreshUplift(db.pool, 'q2', 1);
    expect(retired).toMatchObject({ status: 'retired', guidedAttempts: 4, guidedSuccesses: 1, unguidedAttempts: 2, unguidedSuccesses: 1 });
    expect(retired!.retiredReason).toBe('no uplift: 1/4 guided vs 1/2 unguided');
    expect(await activeGuidance(db.pool, ['q2'])).toEqual([]);
  });

  it('a capped guidance stage spreads its queries over task families: the least guided family first', async () => {
    // q1 and q2 (food/order) have guidance from the test above; q3 is another family with none.
    await repo.upsertQueries(db.pool, 'cycle-1', [{ ...query('q3'), family: 'track', checker: { app: 'food', family: 'track', params: {} } }, query('q4')]);
    const rows = await guidedFamilies(db.pool, ['q4', 'q3']);
    expect(rows.sort((a, b) => (a.queryId < b.queryId ? -1 : 1))).toEqual([
      { queryId: 'q3', family: 'food/track', guided: 0 },
      { queryId: 'q4', family: 'food/order', guided: 2 },
    ]);
    expect(spreadOverFamilies(rows, 1)).toEqual(['q3']);
    expect(spreadOverFamilies(rows, 2)).toEqual(['q3', 'q4']);
    // Within one selection too: a second query of a family waits for the other families.
    const c = [
      { queryId: 'a1', family: 'x/a', guided: 0 },
      { queryId: 'a2', family: 'x/a', guided: 0 },
      { queryId: 'b1', family: 'x/b', guided: 0 },
    ];
    expect(spreadOverFamilies(c, 2)).toEqual(['a1', 'b1']);
    expect(spreadOverFamilies(c, 5)).toEqual(['a1', 'b1', 'a2']);
    expect(spreadOverFamilies([], 2)).toEqual([]);
  });

  it('filter decisions and reasoning samples upsert on their natural keys', async () => {
    const d = [criticGate('cycle-1/q1/a0#0', 0.5, 0.25), criticGate('cycle-1/q1/a0#1', 0, 0.25)];
    await recordFilterDecisions(db.pool, 'filters@1', d.map((x, i) => ({ ...x, rolloutId: 'cycle-1/q1/a0', step: i })));
    await recordFilterDecisions(db.pool, 'filters@1', d.map((x, i) => ({ ...x, rolloutId: 'cycle-1/q1/a0', step: i })));
    const rows = await many(db.pool, `select sample_id, keep, reason from filter_decisions order by sample_id`, [], z.object({ sample_id: z.string(), keep: z.boolean(), reason: z.string() }));
    expect(rows).toEqual([
      { sample_id: 'cycle-1/q1/a0#0', keep: true, reason: 'CriticScore 0.50 ≥ τc 0.25' },
      { sample_id: 'cycle-1/q1/a0#1', keep: false, reason: 'CriticScore 0.00 < τc 0.25' },
    ]);
    const sample = { id: 'cycle-1/q1/a0#0/simplest', rolloutId: 'cycle-1/q1/a0', step: 0, kind: 'hint_rs' as const, hintStyle: 'simplest', thought: 'Next: tap Burger Palace', conclusion: '', action: { action: 'click', coordinate: [80, 167] }, lineage: { source: 'cycle-1/q1/a0', reasoner: 'ref-reasoner' } };
    await upsertReasoningSamples(db.pool, [sample]);
    await upsertReasoningSamples(db.pool, [sample]);
    const n = await many(db.pool, `select count(*)::int as n from reasoning_samples`, [], z.object({ n: z.number() }));
    expect(n[0]!.n).toBe(1);
  });

  it('rejects a needs_human review candidate kind only before migration 0015 (the constraint now allows it)', async () => {
    await db.pool.query(
      `insert into review_candidates (rollout_id, kind, critic_version, cycle_id, query_id, reason, priority, accepted)
       values ('cycle-1/q1/a0', 'needs_human', 'hint-rs@1', 'cycle-1', 'q1', 'no hint style reproduced step 0', 10, false)`,
    );
    await expect(
      db.pool.query(`insert into review_candidates (rollout_id, kind, critic_version, cycle_id, query_id, reason, priority, accepted) values ('cycle-1/q1/a0', 'bogus', 'x', 'cycle-1', 'q1', 'r', 1, false)`),
    ).rejects.toThrow(/review_candidates_kind_check/);
  });
});

describe('exports', () => {
  const rollout = Rollout.parse({
    id: 'cycle-1/q1/g0',
    cycleId: 'cycle-1',
    queryId: 'q1',
    attempt: 0,
    agentMode: 'gui-owl',
    actionSpace: 'mobile',
    model: { name: 'p', version: '1' },
    status: 'terminated',
    steps: [{ index: 0, before: obs, after: obs2, action: { action: 'click', coordinate: [80, 167] }, reasoning: 'Open it.', conclusion: 'Tapped "Burger Palace".', latencyMs: 1 }],
  });
  const text = formatGuidance(['tap Burger Palace', 'add 1 Cheeseburger']);
  const build = (guidance?: { version: number; text?: string }) =>
    buildSamples({
      rollout,
      query: query('q1'),
      judgements: new Map([[0, { annotation: 'GOOD' as const, score: 1 }]]),
      tauC: 0.25,
      historyImages: 1,
      lineage: { cycleId: 'cycle-1', modelVersion: 'p@1', criticVersion: CRITIC, dagVersion: 'food@1', configHash: 'h' },
      uri: (k) => `file:///${k}`,
      ...(guidance ? { guidance } : {}),
    }).samples;

  it('never contain guidance text by default, but stamp the guidance version (lineage)', () => {
    const [s] = build({ version: 3 });
    const all = JSON.stringify(s);
    expect(all).not.toContain('Essential steps');
    expect(all).not.toContain('add 1 Cheeseburger');
    expect(all).not.toContain('Guidance:');
    expect(s!.meta.guidance_version).toBe(3);
  });

  it('carry it only when asked (--keep-guidance)', () => {
    const [s] = build({ version: 3, text });
    expect(s!.messages[1]!.content).toContain('Guidance:');
    expect(s!.messages[1]!.content).toContain('2. add 1 Cheeseburger');
    expect(s!.messages[2]!.content).toContain('<tool_call>');
  });
});
