import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Rollout, type Query } from '../../domain/entities.js';
import { calibrate } from '../../critics/calibration.js';
import * as repo from '../../storage/repos.js';
import { listCalibration, listCalibrationRows, upsertCalibration } from '../../storage/calibration-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { criticsCommand } from '../../cli/critics.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.drop();
});

function query(id: string, app: string): Query {
  return {
    id,
    app,
    dagVersion: `${app}@1`,
    family: 'f',
    instruction: `do ${id}`,
    rawInstruction: `do ${id}`,
    path: ['home'],
    slots: {},
    checker: { app, family: 'f', params: {} },
    difficulty: 1,
    sampler: 'uniform',
    seed: 1,
  };
}

function rollout(cycleId: string, queryId: string, attempt: number, groundTruth: boolean | undefined): Rollout {
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
    steps: [],
    ...(groundTruth === undefined ? {} : { groundTruth }),
  });
}

async function verdicts(rolloutId: string, cv: string, text: boolean, mm: boolean): Promise<void> {
  await repo.upsertTrajectoryVerdicts(db.pool, [
    { rolloutId, criticVersion: cv, channel: 'text', correct: text, reason: '', votes: [text, text, !text] },
    { rolloutId, criticVersion: cv, channel: 'multimodal', correct: mm, reason: '', votes: [mm] },
    { rolloutId, criticVersion: cv, channel: 'consensus', correct: text && mm, reason: 'rule=both', votes: [] },
  ]);
}

describe('calibration repo', () => {
  it('joins verdicts with ground truth (non-degraded, labelled only), upserts and lists metrics', async () => {
    await repo.upsertCycle(db.pool, { id: 'cycle-1', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: 'cv1' });
    await repo.upsertCycle(db.pool, { id: 'cycle-2', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: 'cv1' });
    await repo.upsertQueries(db.pool, 'cycle-1', [query('q-food', 'food'), query('q-notes', 'notes'), query('q-x', 'notes')]);
    await repo.upsertQueries(db.pool, 'cycle-2', [query('q-food', 'food')]);
    const rs = [
      rollout('cycle-1', 'q-food', 0, true),
      rollout('cycle-1', 'q-food', 1, false),
      rollout('cycle-1', 'q-notes', 0, true),
      rollout('cycle-1', 'q-x', 0, undefined), // no ground truth: excluded
      rollout('cycle-1', 'q-x', 1, true), // degraded: excluded
      rollout('cycle-2', 'q-food', 0, true), // other cycle
    ];
    for (const r of rs) await repo.upsertRollout(db.pool, r, { degraded: r.id === 'cycle-1/q-x/a1', configHash: 'h' });
    await verdicts('cycle-1/q-food/a0', 'cv1', true, true);
    await verdicts('cycle-1/q-food/a1', 'cv1', true, false);
    await verdicts('cycle-1/q-notes/a0', 'cv1', false, true);
    await verdicts('cycle-1/q-notes/a0', 'cv2', true, true);
    await verdicts('cycle-1/q-x/a0', 'cv1', true, true);
    await verdicts('cycle-1/q-x/a1', 'cv1', true, true);
    await verdicts('cycle-2/q-food/a0', 'cv1', true, true);

    const rows = await listCalibrationRows(db.pool, 'cycle-1');
    expect(rows.map((r) => `${r.rolloutId}|${r.criticVersion}`)).toEqual([
      'cycle-1/q-food/a0|cv1',
      'cycle-1/q-food/a1|cv1',
      'cycle-1/q-notes/a0|cv1',
      'cycle-1/q-notes/a0|cv2',
    ]);
    expect(rows[1]).toEqual({
      rolloutId: 'cycle-1/q-food/a1',
      queryId: 'q-food',
      app: 'food',
      criticVersion: 'cv1',
      groundTruth: false,
      // The rollout mode comes along, so each mode is calibrated apart (scope mode:<mode>).
      mode: 'gui-owl',
      verdicts: {
        text: { correct: true, votes: [true, true, false] },
        multimodal: { correct: false, votes: [false] },
        consensus: { correct: false },
      },
    });
    expect(await listCalibrationRows(db.pool, 'cycle-1', 'cv2')).toHaveLength(1);

    const entries = calibrate(rows);
    await upsertCalibration(db.pool, 'cycle-1', entries);
    await upsertCalibration(db.pool, 'cycle-1', entries); // idempotent
    const stored = await listCalibration(db.pool, { cycleId: 'cycle-1', criticVersion: 'cv1' });
    expect(stored).toHaveLength(entries.filter((e) => e.criticVersion === 'cv1').length);
    const all = stored.find((s) => s.scope === 'all' && s.channel === 'text' && s.split === 'all')!;
    expect(all.metrics).toMatchObject({ tp: 1, fp: 1, tn: 0, fn: 1, n: 3, precision: 0.5, recall: 0.5, npv: 0 });
    const mm = stored.find((s) => s.scope === 'food' && s.channel === 'multimodal' && s.split === 'all')!;
    expect(mm.metrics).toMatchObject({ tp: 1, fp: 0, tn: 1, fn: 0, precision: 1, recall: 1, npv: 1, f1: 1 });
    expect(stored[0]!.scope).toBe('all');
    expect(stored.some((s) => s.scope === 'mode:gui-owl' && s.channel === 'consensus')).toBe(true);
    // Channel disagreement is kept on consensus rows and read back as computed (migration 0023).
    const consensusAll = entries.find((e) => e.criticVersion === 'cv1' && e.scope === 'mode:gui-owl' && e.channel === 'consensus' && e.split === 'all')!;
    // cv1: q-food/a1 (text C, multimodal I, failure) and q-notes/a0 (text I, multimodal C, success) split.
    expect(consensusAll.agreement).toEqual({ compared: 3, disagreements: 2, textRight: 0, multimodalRight: 2 });
    expect(stored.find((s) => s.scope === 'mode:gui-owl' && s.channel === 'consensus' && s.split === 'all')!.agreement).toEqual(consensusAll.agreement);
    expect(stored.filter((s) => s.channel !== 'consensus').every((s) => s.agreement === undefined)).toBe(true);

    // Recomputing replaces the numbers on the same key.
    const changed = entries.map((e) => ({ ...e, metrics: { ...e.metrics, tp: 0, fp: 0, tn: 0, fn: 0, n: 0, precision: null, recall: null, npv: null, f1: null, accuracy: null } }));
    await upsertCalibration(db.pool, 'cycle-1', changed);
    const again = await listCalibration(db.pool, { cycleId: 'cycle-1' });
    expect(again).toHaveLength(entries.length);
    expect(again.every((s) => s.metrics.n === 0 && s.metrics.precision === null)).toBe(true);
    expect(await listCalibration(db.pool, { cycleId: 'cycle-2' })).toEqual([]);
  });

  it('rows carry the steps\' CriticScores in step order (newest step-critic version), for the τc gate', async () => {
    await repo.upsertCycle(db.pool, { id: 'cycle-9', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: 'cv1' });
    await repo.upsertQueries(db.pool, 'cycle-9', [query('q-tau', 'food')]);
    const obs = { screenshotKey: `sha256/${'a'.repeat(64)}.png`, width: 412, height: 915 };
    const steps = [0, 1, 2].map((index) => ({ index, before: obs, after: obs, action: { action: 'wait', time: 1 }, reasoning: '', conclusion: `s${index}`, latencyMs: 1 }));
    const r = Rollout.parse({ ...rollout('cycle-9', 'q-tau', 0, true), steps });
    await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h' });
    const sv = (idx: number, score: number, cv: string) => ({ rolloutId: r.id, idx, criticVersion: cv, analysis: '', summary: '', annotation: score === 1 ? 'GOOD' : score === 0 ? 'HARMFUL' : 'NEUTRAL', score }) as const;
    await repo.upsertStepVerdicts(db.pool, [sv(2, 0, 'old'), sv(0, 0, 'old'), sv(1, 0, 'old')]);
    await repo.upsertStepVerdicts(db.pool, [sv(2, 0, 'new'), sv(0, 1, 'new'), sv(1, 0.5, 'new')]);
    await db.pool.query(`update step_verdicts set created_at = now() + interval '1 minute' where critic_version = 'new'`);
    await verdicts(r.id, 'cv1', true, true);
    const rows = await listCalibrationRows(db.pool, 'cycle-9');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.stepScores).toEqual([1, 0.5, 0]);
  });

  it('trajforge critics report prints the stored tables and the validation-chosen rule', async () => {
    await upsertCalibration(db.pool, 'cycle-1', calibrate(await listCalibrationRows(db.pool, 'cycle-1')));
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = db.url;
    try {
      await criticsCommand(['report', '--cycle', 'cycle-1', '--critic-version', 'cv1']);
    } finally {
      spy.mockRestore();
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
    const text = lines.join('');
    expect(text).toContain('cycle-1: stored calibration');
    expect(text).toContain('critic version cv1');
    expect(text).toMatch(/all\s+consensus\s+all\s+3\s+1\s+0\s+1\s+1/);
    expect(text).toContain('rule chosen on validation');
    expect(text).not.toContain('critic version cv2');
  });
});
