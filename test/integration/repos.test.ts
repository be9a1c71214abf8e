import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rollout, type Query, type Step } from '../../domain/entities.js';
import { DataIntegrityError, NotFoundError, one, withTransaction } from '../../storage/db.js';
import * as repo from '../../storage/repos.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { z } from 'zod';

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const CRITIC = 'critic-v1';

function query(id: string): Query {
  return {
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
    seed: 42,
  };
}

const obs = (n: number) => ({ screenshotKey: `sha256/0${n}/${String(n).repeat(64)}.png`, width: 1080, height: 2400 });

function steps(n: number): Step[] {
  return Array.from({ length: n }, (_, i) => {
    const base = { index: i, before: obs(i), reasoning: `think ${i}`, conclusion: `did ${i}`, latencyMs: 100 + i };
    if (i === 1) return { ...base, error: { kind: 'out_of_bounds' as const, field: 'arguments.coordinate', message: 'x > width' } };
    // Step 2 carries environment metrics (migration 0002); others have none: both must round-trip.
    const metrics = i === 2 ? { metrics: { actionMs: 12.5, settleMs: 61.25, screenshotBytes: 48_213, uiTreeBytes: 3_071 } } : {};
    return { ...base, after: obs(i + 1), action: { action: 'click' as const, coordinate: [10 * i, 20] as [number, number] }, modelCallKey: `sha256/aa/${'a'.repeat(64)}.json`, ...metrics };
  });
}

function rollout(cycleId: string, queryId: string, attempt: number, stepCount: number, extra: Partial<Rollout> = {}): Rollout {
  return Rollout.parse({
    id: `${cycleId}/${queryId}/a${attempt}`,
    cycleId,
    queryId,
    attempt,
    agentMode: 'gui-owl',
    actionSpace: 'mobile',
    model: { name: 'policy', version: 'v1' },
    status: 'terminated',
    outcome: 'success',
    steps: steps(stepCount),
    groundTruth: true,
    ...extra,
  });
}

async function count(table: string, where = 'true', values: unknown[] = []): Promise<number> {
  const row = await one(db.pool, `select count(*) as n from ${table} where ${where}`, values, z.object({ n: z.number() }));
  return row.n;
}

async function startCycle(id: string): Promise<repo.CycleRow> {
  return repo.upsertCycle(db.pool, { id, config: { queries: 2 }, configHash: 'h1', modelVersion: 'policy@v1', criticVersion: CRITIC });
}

describe('repos', () => {
  it('upsertCycle is idempotent and keeps the first start; latestCycleNumber reads cycle-N ids', async () => {
    expect(await repo.latestCycleNumber(db.pool)).toBe(0);
    const first = await startCycle('cycle-1');
    const again = await repo.upsertCycle(db.pool, { id: 'cycle-1', config: { queries: 99 }, configHash: 'other', modelVersion: 'x', criticVersion: 'y' });
    expect(again).toEqual(first);
    expect(first.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(first.status).toBe('running');
    await startCycle('cycle-12');
    await startCycle('adhoc');
    expect(await repo.latestCycleNumber(db.pool)).toBe(12);
    expect(await count('cycles')).toBe(3);
  });

  it('upsertModelVersion is idempotent', async () => {
    await repo.upsertModelVersion(db.pool, { name: 'policy', version: 'v1', kind: 'policy' });
    await repo.upsertModelVersion(db.pool, { name: 'policy', version: 'v1', kind: 'policy' });
    expect(await count('model_versions')).toBe(1);
  });

  it('upsertQueries stores each query once, links it to every cycle, and reads back equal', async () => {
    const qs = [query('q1'), query('q2')];
    await repo.upsertQueries(db.pool, 'cycle-1', qs);
    await repo.upsertQueries(db.pool, 'cycle-1', [...qs, qs[0]!]);
    await repo.upsertQueries(db.pool, 'cycle-12', [qs[0]!]);
    expect(await count('queries')).toBe(2);
    expect(await count('cycle_queries', 'cycle_id = $1', ['cycle-1'])).toBe(2);
    expect(await count('cycle_queries', 'cycle_id = $1', ['cycle-12'])).toBe(1);
    expect(await repo.getQuery(db.pool, 'q1')).toEqual(qs[0]);
    expect(await repo.getQuery(db.pool, 'missing')).toBeUndefined();
    expect((await repo.listCycleQueries(db.pool, 'cycle-12')).map((q) => q.id)).toEqual(['q1']);
    const first = await one(db.pool, 'select first_cycle_id from queries where id = $1', ['q1'], z.object({ first_cycle_id: z.string() }));
    expect(first.first_cycle_id).toBe('cycle-1');
  });

  it('writing the same rollout twice leaves one row and the same steps, and reads back equal', async () => {
    const r = rollout('cycle-1', 'q1', 0, 3);
    await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h1' });
    await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h1' });
    expect(await count('rollouts', 'id = $1', [r.id])).toBe(1);
    expect(await count('steps', 'rollout_id = $1', [r.id])).toBe(3);
    expect(await repo.getRollout(db.pool, r.id)).toEqual(r);
    expect(await repo.getRollout(db.pool, 'cycle-1/q1/a9')).toBeUndefined();
    const kinds = await db.pool.query('select idx, error_kind from steps where rollout_id = $1 order by idx', [r.id]);
    expect(kinds.rows).toEqual([
      { idx: 0, error_kind: null },
      { idx: 1, error_kind: 'out_of_bounds' },
      { idx: 2, error_kind: null },
    ]);
  });

  it('rewriting a rollout replaces its steps (no stale steps survive) atomically', async () => {
    const long = rollout('cycle-1', 'q2', 0, 4);
    await repo.upsertRollout(db.pool, long, { degraded: false, configHash: 'h1' });
    const short = rollout('cycle-1', 'q2', 0, 2, { status: 'error', groundTruth: false, groundTruthReason: 'cart holds Classic Burger, not Bacon Burger' });
    delete (short as { outcome?: string }).outcome;
    await repo.upsertRollout(db.pool, short, { degraded: true, configHash: 'h1' });
    expect(await repo.getRollout(db.pool, short.id)).toEqual(short);
    expect(await count('steps', 'rollout_id = $1', [short.id])).toBe(2);
    expect(await repo.isRolloutDegraded(db.pool, short.id)).toBe(true);

    // A failing write (unknown query → FK violation) leaves nothing behind, steps included.
    const orphan = rollout('cycle-1', 'no-such-query', 0, 2);
    await expect(repo.upsertRollout(db.pool, orphan, { degraded: false, configHash: 'h1' })).rejects.toThrow(/foreign key/);
    expect(await count('rollouts', 'id = $1', [orphan.id])).toBe(0);
    expect(await count('steps', 'rollout_id = $1', [orphan.id])).toBe(0);
  });

  it('verdict upserts are idempotent, update in place, and cycleCounts adds everything up', async () => {
    const a = rollout('cycle-1', 'q1', 0, 3);
    const b = rollout('cycle-1', 'q1', 1, 2);
    await repo.upsertRollout(db.pool, b, { degraded: false, configHash: 'h1' });

    const verdicts = [0, 1, 2].map((idx) => ({
      rolloutId: a.id,
      idx,
      criticVersion: CRITIC,
      analysis: `analysis ${idx}`,
      summary: `summary ${idx}`,
      annotation: idx === 1 ? ('HARMFUL' as const) : ('GOOD' as const),
      score: idx === 1 ? 0 : 1,
    }));
    await repo.upsertStepVerdicts(db.pool, verdicts);
    await repo.upsertStepVerdicts(db.pool, verdicts);
    await repo.upsertStepVerdicts(db.pool, [{ ...verdicts[2]!, annotation: 'NEUTRAL', score: 0.5 }]);
    // Another critic version is counted separately and not in this cycle's counts.
    await repo.upsertStepVerdicts(db.pool, [{ ...verdicts[0]!, criticVersion: 'critic-v0' }]);
    const listed = await repo.listStepVerdicts(db.pool, a.id, CRITIC);
    expect(listed.map((v) => [v.idx, v.annotation, v.score])).toEqual([
      [0, 'GOOD', 1],
      [1, 'HARMFUL', 0],
      [2, 'NEUTRAL', 0.5],
    ]);

    const tv = (rolloutId: string, correct: boolean) => [
      { rolloutId, criticVersion: CRITIC, channel: 'text' as const, correct, reason: 'looks right', votes: [correct] },
      { rolloutId, criticVersion: CRITIC, channel: 'multimodal' as const, correct, reason: 'screens agree' },
      { rolloutId, criticVersion: CRITIC, channel: 'consensus' as const, correct, reason: 'rule=both', votes: [] },
    ];
    await repo.upsertTrajectoryVerdicts(db.pool, [...tv(a.id, true), ...tv(b.id, false)]);
    await repo.upsertTrajectoryVerdicts(db.pool, [...tv(a.id, true), ...tv(b.id, false)]);
    // The degraded rollout q2/a0 gets a "correct" consensus: degraded rollouts are never accepted.
    await repo.upsertTrajectoryVerdicts(db.pool, tv('cycle-1/q2/a0', true));
    expect(await count('trajectory_verdicts')).toBe(9);
    const tvs = await repo.listTrajectoryVerdicts(db.pool, a.id, CRITIC);
    expect(tvs.map((v) => [v.channel, v.correct, v.votes])).toEqual([
      ['consensus', true, []],
      ['multimodal', true, undefined],
      ['text', true, [true]],
    ]);

    expect(await repo.listAcceptedRollouts(db.pool, 'cycle-1', CRITIC)).toEqual([a.id]);
    expect(await repo.listAcceptedRollouts(db.pool, 'cycle-1', 'critic-v0')).toEqual([]);

    const counts = await repo.cycleCounts(db.pool, 'cycle-1');
    expect(counts).toEqual({
      queries: 2,
      rollouts: 3, // q1/a0, q1/a1, q2/a0
      degraded: 1,
      steps: 3 + 2 + 2,
      stepVerdicts: 3,
      accepted: 1,
      rejected: 1,
      stepErrors: 3, // step 1 of each rollout
      groundTruthSuccesses: 2, // q1/a0 and q1/a1; the degraded q2/a0 is not counted
      acceptedTruePositives: 1, // a is accepted and its checker agrees
    });
    expect(await repo.cycleCounts(db.pool, 'cycle-12')).toMatchObject({ queries: 1, rollouts: 0, steps: 0 });

    const finished = await withTransaction(db.pool, async (client) => {
      const c = await repo.cycleCounts(client, 'cycle-1');
      return repo.finishCycle(client, 'cycle-1', { ...c, exportedSamples: 5 });
    });
    expect(finished.status).toBe('finished');
    expect(finished.counts).toMatchObject({ accepted: 1, exportedSamples: 5 });
    const refinished = await repo.finishCycle(db.pool, 'cycle-1', { ...counts, exportedSamples: 6 });
    expect(refinished.finishedAt).toBe(finished.finishedAt);
    await expect(repo.finishCycle(db.pool, 'nope', {})).rejects.toBeInstanceOf(NotFoundError);
  });

  it('datasets: versions count up per name, same fingerprint returns the existing version, items are idempotent', async () => {
    expect(await repo.nextDatasetVersion(db.pool, 'sft')).toBe(1);
    const input = {
      name: 'sft',
      version: 1,
      kind: 'sft',
      format: 'gui-owl-e2e-messages@1',
      manifestKey: 'datasets/sft/v1/manifest.json',
      manifest: { name: 'sft', version: 1 },
      configHash: 'h1',
      fingerprint: 'fp-1',
    };
    const created = await repo.upsertDataset(db.pool, input);
    expect(created).toMatchObject({ name: 'sft', version: 1, manifestKey: input.manifestKey, fingerprint: 'fp-1' });
    // Same content exported again (even under a proposed new version) finds the existing row.
    const again = await repo.upsertDataset(db.pool, { ...input, version: 2 });
    expect(again).toEqual(created);
    expect(await repo.getDatasetByFingerprint(db.pool, 'fp-1')).toEqual(created);
    expect(await repo.getDatasetByFingerprint(db.pool, 'fp-x')).toBeUndefined();
    expect(await repo.nextDatasetVersion(db.pool, 'sft')).toBe(2);
    // Different content at an existing (name, version): refused, not silently dropped.
    await expect(repo.upsertDataset(db.pool, { ...input, fingerprint: 'fp-2' })).rejects.toThrow(/duplicate key/);
    const v2 = await repo.upsertDataset(db.pool, { ...input, version: 2, fingerprint: 'fp-2' });
    expect(v2.version).toBe(2);
    expect(await repo.nextDatasetVersion(db.pool, 'other')).toBe(1);

    const items = [0, 1, 2].map((i) => ({ datasetName: 'sft', datasetVersion: 1, itemIdx: i, rolloutId: 'cycle-1/q1/a0', stepIdx: i, sampleKey: `s${i}` }));
    await repo.insertDatasetItems(db.pool, items);
    await repo.insertDatasetItems(db.pool, items);
    await repo.insertDatasetItems(db.pool, [{ datasetName: 'sft', datasetVersion: 2, itemIdx: 0, rolloutId: 'cycle-1/q1/a0' }]);
    expect(await count('dataset_items', 'dataset_version = 1')).toBe(3);
    expect(await count('dataset_items', 'dataset_version = 2 and step_idx is null')).toBe(1);
  });

  it('listRollouts returns every rollout of a cycle with its steps', async () => {
    const all = await repo.listRollouts(db.pool, 'cycle-1');
    expect(all.map((r) => [r.id, r.steps.length])).toEqual([
      ['cycle-1/q1/a0', 3],
      ['cycle-1/q1/a1', 2],
      ['cycle-1/q2/a0', 2],
    ]);
    expect(all[0]).toEqual(await repo.getRollout(db.pool, 'cycle-1/q1/a0'));
    expect(await repo.listRollouts(db.pool, 'cycle-12')).toEqual([]);
  });

  it('rows that do not match their schema raise DataIntegrityError with the sql and issues', async () => {
    await db.pool.query(`update queries set slots = '"not an object"'::jsonb where id = 'q2'`);
    const err = await repo.getQuery(db.pool, 'q2').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataIntegrityError);
    expect((err as DataIntegrityError).sql).toContain('from queries');
    expect((err as DataIntegrityError).values).toEqual(['q2']);
    expect((err as DataIntegrityError).issues[0]?.path).toEqual(['slots']);
  });
});
