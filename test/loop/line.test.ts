import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../cli/config.js';
import { startRuntime, startWorkers, type Runtime, type Workers } from '../../cli/runtime.js';
import type { SftSample } from '../../export/gui-owl-sft.js';
import { writeDataset } from '../helpers/legacy-dataset.js';
import { buildSamples } from '../../export/gui-owl-sft.js';
import { getQuery, getRollout } from '../../storage/repos.js';
import { getModel, listModelEvents } from '../../storage/registry-repo.js';
import type { LineStatus, RetrainResult } from '../../workflows/loop-contracts.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

/**
 * The self-evolving line on the real services (Temporal dev server, Postgres, Chromium, reference models), at the
 * smallest sizes that exercise every path: a paused-at-start line with a cycle-size update and continueAsNew; a
 * retrain with the reference trainer during which the workers are killed and restarted; a corrupted candidate
 * that the eval gate rejects.
 */
describe('self-evolving line', () => {
  let db: TestDatabase;
  let home: string;
  let rt: Runtime;
  let workers: Workers;
  let prefix: string;
  const cycle = { queries: 2, attempts: 1, maxSteps: 8, apps: ['calendar'], concurrency: 2 };
  const evalSpec = { evalSet: 'test-eval', queries: 2, seeds: [1, 2, 3], maxSteps: 8, temperature: 0.3 };

  beforeAll(async () => {
    db = await testDatabase();
    home = await mkdtemp(join(tmpdir(), 'trajforge-line-'));
    prefix = `t-${randomBytes(4).toString('hex')}`;
    rt = await startRuntime(
      loadConfig({ DATABASE_URL: db.url, TEMPORAL_ADDRESS: inject('temporalAddress'), TRAJFORGE_HOME: home, TRAJFORGE_TASK_QUEUE_PREFIX: prefix, TRAJFORGE_ENV_SESSIONS: '2' }),
    );
    workers = await startWorkers(rt, { prefix });
  }, 300_000);

  afterAll(async () => {
    await workers?.shutdown();
    await rt?.close();
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it('starts paused, answers status, takes a cycle-size update, continues as new and stops after maxCycles', async () => {
    const workflowId = `${prefix}-line-a`;
    const handle = await rt.temporal.client.workflow.signalWithStart('productionLine', {
      workflowId,
      taskQueue: `${prefix}-main`,
      args: [{ lineId: 'a', config: { ...cycle, queries: 3 }, maxCycles: 2, cyclesPerRun: 1, trigger: { minNewAccepted: 10_000 }, taskQueuePrefix: prefix }],
      signal: 'pause',
      signalArgs: [],
    });
    const paused = await handle.query<LineStatus>('status');
    expect(paused).toMatchObject({ phase: 'paused', paused: true, cyclesRun: 0, queries: 3 });
    // The validator refuses a bad size (the update fails, the line's state is untouched).
    await expect(handle.executeUpdate('setCycleSize', { args: [0] })).rejects.toMatchObject({ cause: { message: expect.stringMatching(/cycle size/) } });
    expect(await handle.executeUpdate<number, [number]>('setCycleSize', { args: [1] })).toBe(1);
    await handle.signal('resume');
    const done = (await rt.temporal.client.workflow.getHandle(workflowId).result()) as LineStatus;
    expect(done).toMatchObject({ phase: 'done', cyclesRun: 2, generation: 0, queries: 1, runs: 2, servedVersion: '0.1.0' });
    // Bounded history: the first run ended in continueAsNew and handed the state over.
    const first = await rt.temporal.client.workflow.getHandle(workflowId, handle.signaledRunId).fetchHistory();
    expect(first.events?.some((e) => e.workflowExecutionContinuedAsNewEventAttributes)).toBe(true);
    const rows = await db.pool.query<{ id: string; queries: number; model_version: string }>(
      `select id, (counts->>'queries')::int as queries, model_version from cycles where id like 'cycle-%' order by id`,
    );
    expect(rows.rows).toEqual([
      { id: 'cycle-1', queries: 1, model_version: 'ref-policy@0.1.0' },
      { id: 'cycle-2', queries: 1, model_version: 'ref-policy@0.1.0' },
    ]);
  }, 900_000);

  it('retrains with the reference trainer; a worker killed mid-retrain is replaced and nothing is duplicated', async () => {
    // One more cycle with more queries, so there is accepted data to train on.
    await rt.temporal.client.workflow.execute('productionCycle', {
      workflowId: `${prefix}-cycle-3`,
      taskQueue: `${prefix}-main`,
      args: [{ cycleId: 'cycle-3', cycleNumber: 3, config: cycle, taskQueuePrefix: prefix }],
    });
    const retrainId = `${prefix}/retrain-g1`;
    const handle = await rt.temporal.client.workflow.start('retrain', {
      workflowId: retrainId,
      taskQueue: `${prefix}-main`,
      args: [{ retrainId, config: cycle, trainer: { kind: 'reference' }, eval: evalSpec, taskQueuePrefix: prefix }],
    });
    // Kill the workers once the candidate is under evaluation (episodes in flight), then start fresh ones.
    for (;;) {
      const { rows } = await db.pool.query(`select 1 from model_events where key = $1`, [`${retrainId}:evaluating`]);
      if (rows.length > 0) break;
      const desc = await handle.describe();
      if (desc.status.name !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await workers.shutdown();
    workers = await startWorkers(rt, { prefix });
    const result = (await handle.result()) as RetrainResult;
    expect(['promoted', 'rejected']).toContain(result.status);
    expect(result.candidateVersion).toBe('0.1.1');
    expect(result.current?.rates).toHaveLength(3);
    expect(result.candidate?.rates).toHaveLength(3);

    const model = await getModel(db.pool, 'ref-policy', '0.1.1');
    expect(model).toMatchObject({ status: result.status, parentVersion: '0.1.0', dataset: result.dataset, decidedBy: 'eval-gate' });
    expect(model?.meta.memoryKey).toBe('models/ref-policy/0.1.1/memory.json');
    // Exactly one registry row and one event per transition; one snapshot dataset; one episode per eval query × seed.
    const versions = await db.pool.query(`select version from model_versions where name = 'ref-policy' order by version`);
    expect(versions.rows.map((r) => r.version)).toEqual(['0.1.0', '0.1.1']);
    const events = (await listModelEvents(db.pool, 'ref-policy')).filter((e) => e.version === '0.1.1');
    expect(events.map((e) => e.to)).toEqual(['candidate', 'evaluating', result.status]);
    const snapshots = await db.pool.query(`select version from datasets where name = 'gui-owl-e2e-train'`);
    expect(snapshots.rows).toHaveLength(1);
    const evalRollouts = await db.pool.query<{ cycle_id: string; n: number }>(
      `select cycle_id, count(*)::int as n from rollouts where cycle_id like 'eval-%' group by cycle_id order by cycle_id`,
    );
    expect(evalRollouts.rows).toHaveLength(6);
    for (const r of evalRollouts.rows) expect(r.n).toBe(2);
    // The eval episodes ran the version under test and never entered training selection.
    const lineage = await db.pool.query(`select distinct model_version from rollouts where cycle_id like 'eval-test-eval-ref-policy@0.1.1-%'`);
    expect(lineage.rows).toEqual([{ model_version: '0.1.1' }]);
  }, 1_200_000);

  it('rejects a candidate trained on a corrupted snapshot', async () => {
    // A deliberately bad training set: the served version's own eval episodes (so the candidate's memory is hit on
    // the eval instructions — the contamination guard is bypassed on purpose by naming the dataset explicitly),
    // with every click sent to the far corner, every typed text garbled and every success turned into a failure.
    const served = (await db.pool.query<{ version: string }>(`select version from model_versions where name = 'ref-policy' and status = 'promoted' order by created_at desc limit 1`)).rows[0]!.version;
    const ids = (await db.pool.query<{ id: string }>(`select id from rollouts where cycle_id like $1 order by id`, [`eval-test-eval-ref-policy@${served}-s%`])).rows;
    const corrupt = (s: SftSample): SftSample => ({
      ...s,
      messages: s.messages.map((m) =>
        m.role !== 'assistant'
          ? m
          : {
              ...m,
              content: m.content
                .replace(/"coordinate":\s*\[[^\]]*\]/g, '"coordinate":[405,905]')
                .replace(/"text":\s*"[^"]*"/g, '"text":"zzqx"')
                .replace(/"status":\s*"success"/g, '"status":"failure"'),
            },
      ),
    });
    const samples: { sample: SftSample; rolloutId: string; step: number }[] = [];
    for (const { id } of ids) {
      const rollout = (await getRollout(db.pool, id))!;
      const query = (await getQuery(db.pool, rollout.queryId))!;
      const built = buildSamples({
        rollout,
        query,
        judgements: new Map(),
        tauC: 0,
        historyImages: 1,
        lineage: { cycleId: rollout.cycleId, modelVersion: `ref-policy@${served}`, criticVersion: 'none', dagVersion: query.dagVersion, configHash: 'corrupted' },
        uri: (k) => rt.blobs.uri(k),
      });
      for (const sample of built.samples) samples.push({ sample: corrupt(sample), rolloutId: rollout.id, step: sample.meta.step });
    }
    expect(samples.length).toBeGreaterThan(0);
    const written = await writeDataset({
      db: rt.db,
      blobs: rt.blobs,
      name: 'corrupted',
      createdAt: '2026-01-01T00:00:00.000Z',
      lineage: { cycleId: 'corrupted', modelVersions: [`ref-policy@${served}`], criticVersion: 'none', dagVersions: {}, configHash: 'corrupted' },
      samples,
      counts: { samples: samples.length },
    });
    const retrainId = `${prefix}/retrain-corrupt`;
    const result = (await rt.temporal.client.workflow.execute('retrain', {
      workflowId: retrainId,
      taskQueue: `${prefix}-main`,
      args: [{ retrainId, config: cycle, trainer: { kind: 'reference' }, eval: evalSpec, dataset: `corrupted@${written.version}`, taskQueuePrefix: prefix }],
    })) as RetrainResult;
    expect(result.status).toBe('rejected');
    expect((await getModel(db.pool, 'ref-policy', result.candidateVersion!))?.status).toBe('rejected');
    // The served version is unchanged by a rejection.
    const line = await rt.temporal.client.workflow.execute('productionLine', {
      workflowId: `${prefix}-line-b`,
      taskQueue: `${prefix}-main`,
      args: [{ lineId: 'b', config: { ...cycle, queries: 1 }, maxCycles: 1, trigger: { minNewAccepted: 10_000 }, taskQueuePrefix: prefix }],
    });
    expect((line as LineStatus).servedVersion).toBe(served);
    expect(result.candidate!.rates.reduce((a, b) => a + b, 0)).toBeLessThan(result.current!.rates.reduce((a, b) => a + b, 0));
  }, 1_200_000);
});
