import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { criticsCommand } from '../../cli/critics.js';
import { z } from 'zod';
import { createActivities, criticVersion, type ActivityDeps } from '../../activities/index.js';
import { CycleConfig, ROLES, type Role } from '../../domain/config.js';
import { Rollout, type Query, type Step } from '../../domain/entities.js';
import type { ChatModel } from '../../domain/ports.js';
import { FEATURE_NAMES, features, predict, toOnnx, type LogisticModel } from '../../critics/learned-critic.js';
import { deriveReviewCandidates } from '../../critics/review.js';
import { one } from '../../storage/db.js';
import * as repo from '../../storage/repos.js';
import { listCalibration } from '../../storage/calibration-repo.js';
import { countReviewCandidates, listReviewCandidates, replaceReviewCandidates } from '../../storage/review-repo.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';
import { cannedModel } from '../critics/fake-model.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

let db: TestDatabase;
let dir: string;
beforeAll(async () => {
  db = await testDatabase();
  dir = await mkdtemp(join(tmpdir(), 'trajforge-learned-'));
});
afterAll(async () => {
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const INSTRUCTION = 'Order a Margherita pizza from Luigi';

function query(id: string): Query {
  return {
    id,
    app: 'food',
    dagVersion: 'food@1',
    family: 'order',
    instruction: INSTRUCTION,
    rawInstruction: INSTRUCTION,
    path: ['home'],
    slots: {},
    checker: { app: 'food', family: 'order', params: {} },
    difficulty: 1,
    sampler: 'uniform',
    seed: 1,
  };
}

async function count(where: string, values: unknown[]): Promise<number> {
  return (await one(db.pool, `select count(*)::int as n from review_candidates where ${where}`, values, z.object({ n: z.number() }))).n;
}

describe('migration 0006', () => {
  it('creates review_candidates and lets trajectory_verdicts and critic_calibration hold the learned channel', async () => {
    const cols = await db.pool.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'review_candidates' order by ordinal_position`,
    );
    expect(cols.rows.map((r) => r.column_name)).toEqual(
      expect.arrayContaining(['rollout_id', 'kind', 'critic_version', 'cycle_id', 'query_id', 'reason', 'priority', 'status', 'reviewer_verdict', 'reviewer']),
    );
    await repo.upsertCycle(db.pool, { id: 'cycle-9', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: 'cv' });
    await repo.upsertQueries(db.pool, 'cycle-9', [query('q9')]);
    const r = Rollout.parse({ id: 'cycle-9/q9/a0', cycleId: 'cycle-9', queryId: 'q9', attempt: 0, agentMode: 'gui-owl', actionSpace: 'mobile', model: { name: 'p', version: '1' }, status: 'terminated', steps: [] });
    await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h' });
    await repo.upsertTrajectoryVerdicts(db.pool, [{ rolloutId: r.id, criticVersion: 'cv', channel: 'learned', correct: true, reason: 'p=0.9' }]);
    expect((await repo.listTrajectoryVerdicts(db.pool, r.id, 'cv')).map((v) => v.channel)).toEqual(['learned']);
    await expect(
      db.pool.query(`insert into trajectory_verdicts (rollout_id, critic_version, channel, correct) values ($1, 'cv', 'bogus', true)`, [r.id]),
    ).rejects.toThrow(/trajectory_verdicts_channel_check/);
    await db.pool.query(
      `insert into critic_calibration (critic_version, cycle_id, scope, channel, split, tp, fp, tn, fn) values ('cv', 'cycle-9', 'all', 'learned', 'all', 1, 0, 0, 0)`,
    );
    // A resolved row needs a reviewer verdict; an unknown kind or status is refused.
    await expect(
      db.pool.query(
        `insert into review_candidates (rollout_id, kind, critic_version, cycle_id, query_id, reason, priority, accepted, status) values ($1, 'channels_split', 'cv', 'cycle-9', 'q9', 'x', 1, true, 'resolved')`,
        [r.id],
      ),
    ).rejects.toThrow(/check/);
    await expect(
      db.pool.query(`insert into review_candidates (rollout_id, kind, critic_version, cycle_id, query_id, reason, priority, accepted) values ($1, 'vibes', 'cv', 'cycle-9', 'q9', 'x', 1, true)`, [r.id]),
    ).rejects.toThrow(/check/);
  });
});

describe('review repo', () => {
  it('upserts idempotently, keeps reviewer decisions, drops stale open candidates only', async () => {
    await repo.upsertCycle(db.pool, { id: 'cycle-8', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: 'cv' });
    await repo.upsertQueries(db.pool, 'cycle-8', [query('q8')]);
    const r = Rollout.parse({ id: 'cycle-8/q8/a0', cycleId: 'cycle-8', queryId: 'q8', attempt: 0, agentMode: 'gui-owl', actionSpace: 'mobile', model: { name: 'p', version: '1' }, status: 'terminated', outcome: 'success', steps: [] });
    await repo.upsertRollout(db.pool, r, { degraded: false, configHash: 'h' });
    const lineage = { rolloutId: r.id, criticVersion: 'cv', cycleId: 'cycle-8', queryId: 'q8', accepted: false };
    const derived = deriveReviewCandidates({
      steps: [{ idx: 0, annotation: 'GOOD' }],
      channels: [
        { channel: 'text', correct: true, votes: [true, false, true] },
        { channel: 'multimodal', correct: false, votes: [false, false, false] },
      ],
      accepted: false,
      status: 'terminated',
      outcome: 'success',
    });
    expect(derived.map((c) => c.kind).sort()).toEqual(['channels_split', 'claimed_success_rejected', 'rejected_all_good', 'votes_split']);
    await replaceReviewCandidates(db.pool, lineage, derived);
    const first = await listReviewCandidates(db.pool, { rolloutId: r.id });
    await replaceReviewCandidates(db.pool, lineage, derived);
    const second = await listReviewCandidates(db.pool, { rolloutId: r.id });
    expect(second).toEqual(first); // same rows, same updated_at: an identical re-judgement writes nothing
    expect(second.map((c) => c.priority)).toEqual([...second.map((c) => c.priority)].sort((a, b) => b - a));
    expect(second[0]).toMatchObject({ kind: 'channels_split', cycleId: 'cycle-8', queryId: 'q8', app: 'food', instruction: INSTRUCTION, status: 'open', reviewerVerdict: null });

    // A reviewer resolves one, then a re-judgement raises neither it nor votes_split any more.
    await db.pool.query(
      `update review_candidates set status = 'resolved', reviewer_verdict = true, reviewer = 'ana', reviewed_at = now() where rollout_id = $1 and kind = 'channels_split'`,
      [r.id],
    );
    const rest = derived.filter((c) => c.kind !== 'channels_split' && c.kind !== 'votes_split').map((c) => ({ ...c, reason: `${c.reason} (again)` }));
    await replaceReviewCandidates(db.pool, lineage, rest);
    const third = await listReviewCandidates(db.pool, { rolloutId: r.id });
    expect(third.map((c) => c.kind).sort()).toEqual(['channels_split', 'claimed_success_rejected', 'rejected_all_good']);
    expect(third.find((c) => c.kind === 'channels_split')).toMatchObject({ status: 'resolved', reviewerVerdict: true, reviewer: 'ana' });
    expect(third.find((c) => c.kind === 'rejected_all_good')!.reason).toMatch(/\(again\)$/);
    expect(await listReviewCandidates(db.pool, { rolloutId: r.id, status: 'open', limit: 1 })).toHaveLength(1);
    expect(await countReviewCandidates(db.pool, { cycleId: 'cycle-8' })).toEqual([
      { kind: 'channels_split', total: 1, open: 0, accepted: 0 },
      { kind: 'rejected_all_good', total: 1, open: 1, accepted: 0 },
      { kind: 'claimed_success_rejected', total: 1, open: 1, accepted: 0 },
    ]);
    await expect(replaceReviewCandidates(db.pool, lineage, [derived[0]!, derived[0]!])).rejects.toThrow(/duplicate kinds/);
  });
});

describe('judgeTrajectory with the learned channel (real Postgres, ONNX via onnxruntime-node)', () => {
  // Weights over every feature, so the stored probability checks the whole feature vector, not one entry.
  const model: LogisticModel = { weights: [0.5, -0.3, -1, 0.7, -0.8, 0.1, 2, 1.1, -0.9, 0.6], bias: -1 };
  let modelPath: string;
  let blobs: MemoryBlobStore;
  const models = (): Record<Role, ChatModel> => {
    const m = Object.fromEntries(ROLES.map((r): [Role, ChatModel] => [r, cannedModel(['unused'])])) as Record<Role, ChatModel>;
    m.trajCriticText = cannedModel(['{"reasoning":"done","verdict":"Correct"}', '{"reasoning":"done","verdict":"Correct"}', '{"reasoning":"unsure","verdict":"Incorrect"}']);
    m.trajCriticMultimodal = cannedModel(['{"reasoning":"no confirmation","verdict":"Incorrect"}']);
    return m;
  };
  const caption = 'Order placed | Margherita pizza';
  const deps = (): ActivityDeps => ({
    db: db.pool,
    blobs,
    envPool: {} as ActivityDeps['envPool'], // judging never leases an environment
    models: models(),
    policyModel: { name: 'p', version: '1' },
    dags: [],
    ocr: { recognize: () => Promise.resolve([{ text: caption, box: { x: 0, y: 0, w: 10, h: 10 }, confidence: 1 }]) },
  });

  beforeAll(async () => {
    expect(model.weights).toHaveLength(FEATURE_NAMES.length);
    modelPath = join(dir, 'toy.onnx');
    await writeFile(modelPath, toOnnx(model));
    await writeFile(join(dir, 'toy.provenance.json'), JSON.stringify({ features: FEATURE_NAMES, threshold: 0.5 }));
    blobs = new MemoryBlobStore();
    const keys = await Promise.all([1, 2, 3].map((i) => blobs.put(new Uint8Array([137, 80, 78, 71, i]), { ext: '.png' })));
    const obs = (i: number) => ({ screenshotKey: keys[i]!, width: 100, height: 200 });
    const steps: Step[] = [0, 1].map((i) => ({ index: i, before: obs(i), after: obs(i + 1), action: { action: 'click', coordinate: [1, 2] }, reasoning: '', conclusion: `step ${i}`, latencyMs: 1 }));
    await repo.upsertCycle(db.pool, { id: 'cycle-1', config: {}, configHash: 'h', modelVersion: 'p@1', criticVersion: 'cv' });
    await repo.upsertQueries(db.pool, 'cycle-1', [query('q1')]);
    const rollout = Rollout.parse({
      id: 'cycle-1/q1/a0', cycleId: 'cycle-1', queryId: 'q1', attempt: 0, agentMode: 'gui-owl', actionSpace: 'mobile',
      model: { name: 'p', version: '1' }, status: 'terminated', outcome: 'success', steps, groundTruth: true,
    });
    await repo.upsertRollout(db.pool, rollout, { degraded: false, configHash: 'h' });
  });

  it('stores the learned verdict (ONNX = TS predict), records candidates once, calibrates the learned channel', async () => {
    const config = { critic: { votes: 3, learned: { model: modelPath } } };
    const activities = createActivities(deps());
    const cv = criticVersion(deps().models, CycleConfig.parse(config));
    expect(cv).toMatch(/;learned=[0-9a-f]{12}@0\.5:off$/);
    await repo.upsertStepVerdicts(
      db.pool,
      [0, 1].map((idx) => ({ rolloutId: 'cycle-1/q1/a0', idx, criticVersion: cv, analysis: 'a', summary: `s${idx}`, annotation: 'GOOD' as const, score: 1 })),
    );

    expect(await activities.judgeTrajectory({ rolloutId: 'cycle-1/q1/a0', config })).toEqual({ correct: false });
    const verdicts = await repo.listTrajectoryVerdicts(db.pool, 'cycle-1/q1/a0', cv);
    expect(verdicts.map((v) => v.channel).sort()).toEqual(['consensus', 'learned', 'multimodal', 'text']);
    const expected = predict(
      model,
      features({ instruction: INSTRUCTION, annotations: ['GOOD', 'GOOD'], outcome: 'success', textVotes: [true, true, false], multimodalVotes: [false, false, false], finalCaption: caption }),
    );
    const learned = verdicts.find((v) => v.channel === 'learned')!;
    const p = Number(/p=([0-9.]+)/.exec(learned.reason)?.[1]);
    expect(p).toBeCloseTo(expected, 4);
    expect(learned.correct).toBe(expected >= 0.5);
    expect(verdicts.find((v) => v.channel === 'consensus')).toMatchObject({ correct: false, reason: 'rule=both' });

    const kinds = (await listReviewCandidates(db.pool, { rolloutId: 'cycle-1/q1/a0', criticVersion: cv })).map((c) => c.kind).sort();
    expect(kinds).toEqual(['channels_split', 'claimed_success_rejected', ...(expected >= 0.5 ? ['learned_disagrees'] : []), 'rejected_all_good', 'votes_split'].sort());
    const before = await count('rollout_id = $1', ['cycle-1/q1/a0']);
    // Re-judging (a Temporal retry, or a re-run) neither duplicates verdicts nor candidates.
    await activities.judgeTrajectory({ rolloutId: 'cycle-1/q1/a0', config });
    await createActivities(deps()).judgeTrajectory({ rolloutId: 'cycle-1/q1/a0', config });
    expect(await count('rollout_id = $1', ['cycle-1/q1/a0'])).toBe(before);
    expect(await repo.listTrajectoryVerdicts(db.pool, 'cycle-1/q1/a0', cv)).toHaveLength(4);

    const summary = await activities.calibrateCritics({ cycleId: 'cycle-1', config });
    expect(summary.rollouts).toBe(1);
    // The suggestion names its τc (what `critic.trajectoryTauC` would apply) beside the vote and consensus rule.
    expect(summary.suggested).toMatchObject({ tauC: expect.any(Number), description: expect.stringMatching(/^votes \w+, consensus \w+, τc \d\.\d\d$/) });
    const learnedCal = (await listCalibration(db.pool, { cycleId: 'cycle-1', criticVersion: cv })).filter((e) => e.channel === 'learned' && e.scope === 'all' && e.split === 'all');
    expect(learnedCal).toHaveLength(1);
    expect(learnedCal[0]!.metrics).toMatchObject(expected >= 0.5 ? { tp: 1, fn: 0 } : { tp: 0, fn: 1 });
  });

  it('majority consensus lets the learned channel break a channel split (its own critic version)', async () => {
    const config = { critic: { votes: 3, learned: { model: modelPath, threshold: 0.3, consensus: 'majority' } } };
    const activities = createActivities(deps());
    const { correct } = await activities.judgeTrajectory({ rolloutId: 'cycle-1/q1/a0', config });
    const rows = await db.pool.query<{ critic_version: string; channel: string; correct: boolean; reason: string }>(
      `select critic_version, channel, correct, reason from trajectory_verdicts where rollout_id = 'cycle-1/q1/a0' and critic_version like '%:majority'`,
    );
    const learned = rows.rows.find((r) => r.channel === 'learned')!;
    expect(learned.critic_version).toMatch(/@0\.3:majority$/);
    // text says Correct, multimodal Incorrect: the learned verdict decides.
    expect(correct).toBe(learned.correct);
    expect(rows.rows.find((r) => r.channel === 'consensus')).toMatchObject({ correct: learned.correct, reason: 'rule=both;learned=majority' });
  });

  it('applies the trajectory τc gate: consensus Correct is rejected when the mean step CriticScore is below critic.trajectoryTauC', async () => {
    const correct = '{"reasoning":"the confirmation is on screen","verdict":"Correct"}';
    const both = (): ActivityDeps => ({ ...deps(), models: { ...models(), trajCriticText: cannedModel([correct]), trajCriticMultimodal: cannedModel([correct]) } });
    const judgeWith = async (tauT: number): Promise<{ correct: boolean | null; reason: string; cv: string }> => {
      const config = { critic: { votes: 1, trajectoryTauC: tauT, learned: { model: null } } };
      const cv = criticVersion(both().models, CycleConfig.parse(config));
      await repo.upsertStepVerdicts(db.pool, [
        { rolloutId: 'cycle-1/q1/a0', idx: 0, criticVersion: cv, analysis: 'a', summary: 's0', annotation: 'GOOD' as const, score: 1 },
        { rolloutId: 'cycle-1/q1/a0', idx: 1, criticVersion: cv, analysis: 'a', summary: 's1', annotation: 'NEUTRAL' as const, score: 0.2 },
      ]);
      const { correct: accepted } = await createActivities(both()).judgeTrajectory({ rolloutId: 'cycle-1/q1/a0', config });
      const consensus = (await repo.listTrajectoryVerdicts(db.pool, 'cycle-1/q1/a0', cv)).find((v) => v.channel === 'consensus')!;
      return { correct: accepted, reason: consensus.reason, cv };
    };
    const off = await judgeWith(0);
    expect(off).toMatchObject({ correct: true, reason: 'rule=both' });
    const pass = await judgeWith(0.6); // mean (1 + 0.2) / 2 = 0.6 reaches it
    expect(pass.correct).toBe(true);
    expect(pass.reason).toBe('rule=both;tauC=0.6:pass(mean step score 0.600)');
    const fail = await judgeWith(0.75);
    expect(fail.correct).toBe(false);
    expect(fail.reason).toBe('rule=both;tauC=0.75:fail(mean step score 0.600)');
    // Each gate is its own critic version, so calibration never mixes gated and ungated verdicts.
    expect(new Set([off.cv, pass.cv, fail.cv]).size).toBe(3);
    expect(fail.cv).toMatch(/;tauC=0\.75$/);
    await expect(createActivities(both()).judgeTrajectory({ rolloutId: 'cycle-1/q1/a0', config: { critic: { trajectoryTauC: 1.5 } } })).rejects.toThrow(
      /config\.critic\.trajectoryTauC/,
    );
  });

  it('a missing model file is a non-retryable config error naming the field', async () => {
    const activities = createActivities(deps());
    await expect(activities.judgeTrajectory({ rolloutId: 'cycle-1/q1/a0', config: { critic: { learned: { model: join(dir, 'nope.onnx') } } } })).rejects.toThrow(
      /config\.critic\.learned\.model: .*nope\.onnx/,
    );
    await expect(activities.judgeTrajectory({ rolloutId: 'cycle-1/q1/a0', config: { critic: { learned: { modle: 'x' } } } })).rejects.toThrow(/config\.critic\.learned/);
  });
});

describe('trajforge critics review-candidates / report', () => {
  async function run(args: string[]): Promise<string> {
    const lines: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = db.url;
    try {
      await criticsCommand(args);
    } finally {
      spy.mockRestore();
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
    return lines.join('');
  }

  it('lists the queue by priority with lineage, filters by cycle and status, and summarises per reason in the report', async () => {
    const text = await run(['review-candidates', '--cycle', 'cycle-8', '--limit', '5']);
    expect(text).toContain('review candidates (cycle-8, open)');
    const order = ['claimed_success_rejected', 'rejected_all_good'].map((k) => text.indexOf(k));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(text).not.toContain('channels_split'); // resolved, not open
    expect(text).toContain('cycle-8/q8/a0');
    expect(text).toContain(`food: ${INSTRUCTION}`);
    const all = await run(['review-candidates', '--cycle', 'cycle-8', '--status', 'all', '--limit', '1']);
    expect(all).toMatch(/channels_split .*cycle-8\/q8\/a0 \[resolved: reviewer says Correct\]/);
    expect(all).not.toContain('rejected_all_good');
    expect(await run(['review-candidates', '--cycle', 'cycle-404'])).toContain('no review candidates (cycle-404, open)');
    await expect(run(['review-candidates', '--limit', '0'])).rejects.toThrow(/--limit/);

    const report = await run(['report', '--cycle', 'cycle-1']);
    expect(report).toMatch(/all\s+learned\s+all\s+1/);
    expect(report).toMatch(/review candidates \(cycle-1\): \d+ in all/);
    expect(report).toMatch(/channels_split\s+2\s+2\s+1/); // two critic versions; the majority one accepted
    expect(report).toContain('top 5 open');
  });
});
