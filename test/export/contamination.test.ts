import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rollout, type Query } from '../../domain/entities.js';
import { ValidationError } from '../../domain/errors.js';
import { filterContaminated, instructionSimilarity, loadContaminationGuard, NEAR_CONTAMINATION_JACCARD, normalizeInstruction, screenshotChain } from '../../export/contamination.js';
import { buildSamples } from '../../export/gui-owl-sft.js';
import { createPool } from '../../storage/db.js';
import * as repo from '../../storage/repos.js';
import { freezeEvalSet } from '../../storage/query-stats-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { freezeEvalSetCommand } from '../../cli/evalset.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const CRITIC = 'critic-v1';
const query = (id: string, instruction: string, app = 'food'): Query => ({
  id,
  app,
  dagVersion: `${app}@1`,
  family: 'order_food',
  instruction,
  rawInstruction: instruction,
  path: ['home', id],
  slots: { item: id },
  checker: { app, family: 'order_food', params: { item: id } },
  difficulty: 3,
  sampler: 'uniform',
  seed: 1,
});
const key = (n: number): string => `sha256/${n.toString(16).padStart(64, '0')}.png`;
const obs = (n: number) => ({ screenshotKey: key(n), width: 412, height: 915 });

/** A rollout whose screens are `frames` (first observation, then one per click), ending with terminate. */
async function addRollout(cycleId: string, q: Query, attempt: number, frames: number[], accepted: boolean): Promise<string> {
  const steps = frames.slice(1).map((f, i) => ({
    index: i,
    before: obs(frames[i]!),
    after: obs(f),
    action: { action: 'click', coordinate: [100, 100 + i] },
    reasoning: `step ${i}`,
    conclusion: `Did step ${i}.`,
    latencyMs: 1,
  }));
  steps.push({ index: steps.length, before: obs(frames.at(-1)!), action: { action: 'terminate', status: 'success' }, reasoning: 'done', conclusion: 'Done.', latencyMs: 1 } as never);
  const r = Rollout.parse({
    id: `${cycleId}/${q.id}/a${attempt}`,
    cycleId,
    queryId: q.id,
    attempt,
    agentMode: 'gui-owl',
    actionSpace: 'mobile',
    model: { name: 'p', version: '1' },
    status: 'terminated',
    outcome: 'success',
    steps,
  });
  await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h' });
  await repo.upsertTrajectoryVerdicts(db.pool, [{ rolloutId: r.id, criticVersion: CRITIC, channel: 'consensus', correct: accepted, reason: '', votes: [] }]);
  return r.id;
}

const evalQuery = query('q-eval', "Order a Margherita pizza from Luigi's Trattoria");
const nearDup = query('q-near', "Please order one margherita pizza from Luigi's Trattoria!");
const other = query('q-other', 'Order a pepperoni pizza from Burger Palace');
const notes = query('q-notes', 'Create a note called groceries', 'notes');
const sameScreens = query('q-screens', 'Archive the newsletter from City Library', 'mail');
const longer = query('q-longer', 'Archive the newsletter from Gym Club', 'mail');

describe('contamination guard (frozen eval sets)', () => {
  it('with no eval set frozen, nothing is flagged', async () => {
    const guard = await loadContaminationGuard(db.pool);
    expect(guard.evalSets).toEqual([]);
    expect(guard.check({ instruction: evalQuery.instruction, screenshotKeys: [] })).toBeNull();
  });

  it('a planted eval query and its near-duplicate in the accepted data are dropped and counted; identical screen chains too', async () => {
    await repo.upsertCycle(db.pool, { id: 'eval-1', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: CRITIC });
    await repo.upsertCycle(db.pool, { id: 'cycle-1', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: CRITIC });
    await repo.upsertQueries(db.pool, 'eval-1', [evalQuery]);
    await repo.upsertQueries(db.pool, 'cycle-1', [evalQuery, nearDup, other, notes, sameScreens, longer]);
    // The eval gate rolled the eval query out once (frames 90 → 91 → 92), not accepted into anything.
    await addRollout('eval-1', evalQuery, 0, [90, 91, 92], false);
    await freezeEvalSet(db.pool, { name: 'heldout', fingerprint: 'fp-1', spec: { count: 1 }, queries: [evalQuery] });

    // Accepted training data: the planted eval query itself, its near-duplicate, two clean queries, a different
    // instruction that replayed exactly the eval rollout's screens, and one that shares only a prefix of them.
    await addRollout('cycle-1', evalQuery, 0, [1, 2, 3], true);
    await addRollout('cycle-1', nearDup, 0, [1, 2, 4], true);
    await addRollout('cycle-1', other, 0, [1, 5, 6], true);
    await addRollout('cycle-1', notes, 0, [7, 8], true);
    await addRollout('cycle-1', sameScreens, 0, [90, 91, 92], true);
    await addRollout('cycle-1', longer, 0, [90, 91, 92, 93], true);
    await addRollout('cycle-1', other, 1, [1, 5], false);

    const guard = await loadContaminationGuard(db.pool);
    expect(guard.evalSets).toEqual(['heldout']);
    // Chains of every rollout of the eval query, in any cycle: the eval gate's and the planted training one.
    expect(guard.size).toEqual({ queries: 1, chains: 2 });

    // The export's selection loop: accepted rollouts (rollout_acceptance) → guard → samples.
    const accepted = await repo.listAcceptedRollouts(db.pool, 'cycle-1', CRITIC);
    expect(accepted).toHaveLength(6);
    const rows = await Promise.all(
      accepted.map(async (id) => {
        const rollout = (await repo.getRollout(db.pool, id))!;
        return { rollout, query: (await repo.getQuery(db.pool, rollout.queryId))! };
      }),
    );
    const { kept, removed, hits } = filterContaminated(guard, rows, (r) => ({ instruction: r.query.instruction, screenshotKeys: screenshotChain(r.rollout.steps) }));
    expect(removed).toEqual({ exact: 1, near: 1, screens: 1 });
    expect(Object.fromEntries(hits.map((h) => [h.item.query.id, h.hit]))).toEqual({
      'q-eval': { kind: 'exact', evalSet: 'heldout', evalQueryId: 'q-eval' },
      'q-near': { kind: 'near', evalSet: 'heldout', evalQueryId: 'q-eval' },
      'q-screens': { kind: 'screens', evalSet: 'heldout', evalQueryId: 'q-eval' },
    });
    expect(kept.map((r) => r.query.id).sort()).toEqual(['q-longer', 'q-notes', 'q-other']);

    const samples = kept.flatMap((r) =>
      buildSamples({
        rollout: r.rollout,
        query: r.query,
        judgements: new Map(),
        tauC: 0,
        historyImages: 2,
        lineage: { cycleId: 'cycle-1', modelVersion: 'p@1', criticVersion: CRITIC, dagVersion: r.query.dagVersion, configHash: 'h' },
        uri: (k) => `file:///b/${k}`,
      }).samples,
    );
    expect(samples.length).toBeGreaterThan(0);
    const text = JSON.stringify(samples).toLowerCase();
    expect(text).not.toContain('margherita');
  });

  it('near-duplicate measure: folds case and punctuation, keeps different tasks apart', () => {
    expect(normalizeInstruction("  Order a MARGHERITA pizza — from Luigi's Trattoria! ")).toBe(normalizeInstruction("order a margherita pizza from luigi's trattoria"));
    expect(instructionSimilarity(evalQuery.instruction, nearDup.instruction)).toBeGreaterThanOrEqual(NEAR_CONTAMINATION_JACCARD);
    expect(instructionSimilarity(evalQuery.instruction, other.instruction)).toBeLessThan(NEAR_CONTAMINATION_JACCARD);
  });

  it('the slot-aware rule of query-gen applies when the caller passes the query', async () => {
    const guard = await loadContaminationGuard(db.pool, ['heldout']);
    const reworded = { ...evalQuery, id: 'q-reworded', instruction: 'I am hungry: get me something Italian, the classic tomato one, at that trattoria' };
    expect(guard.check({ instruction: reworded.instruction, screenshotKeys: [] })).toBeNull();
    expect(guard.check({ instruction: reworded.instruction, screenshotKeys: [], query: reworded })).toMatchObject({ kind: 'near', evalQueryId: 'q-eval' });
  });

  it('refuses when a check cannot run: unknown set, unreachable database, malformed item', async () => {
    await expect(loadContaminationGuard(db.pool, ['heldout', 'nope'])).rejects.toThrow(/not frozen: nope/);
    const dead = createPool(db.url);
    await dead.end();
    await expect(loadContaminationGuard(dead)).rejects.toThrow(/contamination guard cannot run/);
    const guard = await loadContaminationGuard(db.pool);
    expect(() => guard.check({ instruction: 42 as unknown as string, screenshotKeys: [] })).toThrow(ValidationError);
    expect(() => guard.check({ instruction: 'x', screenshotKeys: undefined as unknown as string[] })).toThrow(/screenshotKeys/);
  });

  it('trajforge evalset freeze: from a cycle (idempotent, frozen means frozen) and generated by seed', async () => {
    const a = await freezeEvalSetCommand(db.pool, { name: 'from-c1', fromCycle: 'cycle-1', count: 2, apps: ['food'] });
    expect(a.created).toBe(true);
    expect(a.queries.map((q) => q.id)).toEqual(['q-eval', 'q-near']);
    expect((await freezeEvalSetCommand(db.pool, { name: 'from-c1', fromCycle: 'cycle-1', count: 2, apps: ['food'] })).created).toBe(false);
    await expect(freezeEvalSetCommand(db.pool, { name: 'from-c1', fromCycle: 'cycle-1', count: 3 })).rejects.toThrow(/already frozen with other queries/);
    await expect(freezeEvalSetCommand(db.pool, { name: 'x', fromCycle: 'cycle-404' })).rejects.toThrow(/--from-cycle: no cycle/);
    await expect(freezeEvalSetCommand(db.pool, { name: 'x', apps: ['fax'] })).rejects.toThrow(/--apps: unknown app "fax"/);
    const g = await freezeEvalSetCommand(db.pool, { name: 'gen', count: 6, seed: 5, apps: ['notes', 'mail'] });
    expect(g.queries.length).toBeGreaterThan(0);
    expect(new Set(g.queries.map((q) => q.app))).toEqual(new Set(['notes', 'mail']));
    // The same seed gives the same set: re-freezing is a no-op.
    expect((await freezeEvalSetCommand(db.pool, { name: 'gen', count: 6, seed: 5, apps: ['notes', 'mail'] })).created).toBe(false);
    const guard = await loadContaminationGuard(db.pool);
    expect(guard.evalSets).toEqual(['from-c1', 'gen', 'heldout']);
    expect(guard.check({ instruction: g.queries[0]!.instruction, screenshotKeys: [] })).toMatchObject({ kind: 'exact', evalSet: 'gen' });
  });
});
