import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../cli/config.js';
import { startRuntime, startWorkers, type Runtime, type Workers } from '../../cli/runtime.js';
import { SnapshotManifest } from '../../export/manifest.js';
import type { CycleResult } from '../../workflows/contracts.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

/**
 * A whole production cycle on the real Temporal dev server, real Postgres, the local blob store, real
 * Chromium and the built-in reference model server — the main job's code path at a small size.
 */
describe('productionCycle on the real services', () => {
  let db: TestDatabase;
  let home: string;
  let rt: Runtime;
  let workers: Workers;
  let prefix: string;
  let first: CycleResult;

  const input = (cycleNumber: number, config: Record<string, unknown>) => ({
    cycleId: `cycle-${cycleNumber}`,
    cycleNumber,
    config,
    taskQueuePrefix: prefix,
  });

  beforeAll(async () => {
    db = await testDatabase();
    home = await mkdtemp(join(tmpdir(), 'trajforge-cycle-'));
    prefix = `t-${randomBytes(4).toString('hex')}`;
    const config = loadConfig({
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TRAJFORGE_HOME: home,
      TRAJFORGE_TASK_QUEUE_PREFIX: prefix,
      TRAJFORGE_ENV_SESSIONS: '2',
    });
    rt = await startRuntime(config);
    workers = await startWorkers(rt, { prefix });
    // Guidance off: these counts are exactly 3 queries × 2 attempts (the guidance stage is tested in test/guidance).
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-cycle-1`,
      taskQueue: `${prefix}-main`,
      args: [input(1, { queries: 3, attempts: 2, maxSteps: 10, guidance: { enabled: false } })],
    });
    first = (await handle.result()) as CycleResult;
  }, 600_000);

  afterAll(async () => {
    await workers?.shutdown();
    await rt?.close();
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it('runs every stage and counts agree with the database', async () => {
    const c = first.counts;
    expect(c.queries).toBe(3);
    expect(c.rollouts).toBe(6);
    expect(c.steps).toBeGreaterThan(0);
    expect(c.stepVerdicts).toBeGreaterThan(0);
    expect(c.accepted + c.rejected + c.degraded).toBe(6);
    const rows = await db.pool.query<{ n: string }>(`select count(*) as n from rollouts where cycle_id = 'cycle-1'`);
    expect(Number(rows.rows[0]!.n)).toBe(6);
    const steps = await db.pool.query<{ n: string }>(`select count(*) as n from steps where rollout_id like 'cycle-1/%'`);
    expect(Number(steps.rows[0]!.n)).toBe(c.steps);
    const lineage = await db.pool.query(`select model_name, model_version, config_hash from rollouts where cycle_id = 'cycle-1'`);
    for (const r of lineage.rows) expect(r).toMatchObject({ model_name: 'ref-policy', model_version: '0.1.0', config_hash: first.configHash });
  });

  it('keeps screenshots out of workflow history: only keys travel', async () => {
    const ids = [`${prefix}-cycle-1`];
    const some = await db.pool.query<{ id: string }>(`select id from rollouts where cycle_id = 'cycle-1' limit 2`);
    ids.push(...some.rows.map((r) => r.id));
    for (const id of ids) {
      const history = await rt.temporal.client.workflow.getHandle(id).fetchHistory();
      const json = JSON.stringify(history);
      // base64 PNG signature; payload data is base64 in history JSON, so search decoded payloads too.
      expect(json).not.toContain('iVBORw0KGgo');
      const decoded = (history.events ?? [])
        .flatMap((e) => JSON.stringify(e).match(/"data":"([A-Za-z0-9+/=]+)"/g) ?? [])
        .map((m) => Buffer.from(m.slice(8, -1), 'base64').toString('utf8'))
        .join('');
      expect(decoded).not.toContain('iVBORw0KGgo');
      expect(decoded).not.toContain('data:image');
      expect(json.length).toBeLessThan(2_000_000);
    }
  });

  it('exports a dataset whose manifest hashes match the stored files', async () => {
    if (first.counts.accepted === 0) {
      expect(first.dataset).toBeNull();
      return;
    }
    expect(first.dataset).not.toBeNull();
    const ds = first.dataset!;
    const manifestKey = `datasets/${ds.name}/v${ds.version}/manifest.json`;
    const manifest = SnapshotManifest.parse(JSON.parse(Buffer.from(await rt.blobs.get(manifestKey)).toString('utf8')));
    expect(manifest.lineage.cycles).toEqual(['cycle-1']);
    expect(manifest.lineage.configHashes).toEqual([first.configHash]);
    for (const f of manifest.files) {
      const bytes = await rt.blobs.get(f.blobKey);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(f.sha256);
      if (!f.path.endsWith('.jsonl')) continue;
      const lines = Buffer.from(bytes).toString('utf8').trim().split('\n');
      expect(lines.length).toBe(f.rows);
      // Other formats of the snapshot (reasoning traces: several per step) count their own rows.
      if (!f.path.startsWith('sft/')) continue;
      expect(lines.length).toBe(ds.samples);
      const sample = JSON.parse(lines[0]!) as { messages: { role: string; content: string }[]; images: string[]; meta: { image_keys: string[] } };
      expect(sample.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
      expect(sample.messages[2]!.content).toContain('<tool_call>');
      for (const k of sample.meta.image_keys) expect(await rt.blobs.has(k)).toBe(true);
      // Portable: images copied into the snapshot and named relative to it.
      for (const p of sample.images) expect(await rt.blobs.has(`datasets/${ds.name}/v${ds.version}/${p}`)).toBe(true);
    }
  });

  it('accounts model usage per role for the cycle (tokens; cost 0 on the free reference server)', async () => {
    const usage = await db.pool.query<{ role: string; calls: string; prompt: string; cost: number }>(
      `select role, sum(calls) as calls, sum(prompt_tokens) as prompt, sum(cost_usd) as cost from model_usage where cycle_id = 'cycle-1' group by role`,
    );
    const byRole = new Map(usage.rows.map((r) => [r.role, r]));
    // Every step is one policy call (a step with a transport error may have retried: at least one call each).
    expect(Number(byRole.get('policy')?.calls)).toBeGreaterThanOrEqual(first.counts.steps);
    expect(Number(byRole.get('stepCritic')?.calls)).toBeGreaterThanOrEqual(first.counts.stepVerdicts);
    expect(Number(byRole.get('trajCriticText')?.calls)).toBeGreaterThan(0);
    expect(Number(byRole.get('policy')?.prompt)).toBeGreaterThan(0);
    for (const r of usage.rows) expect(Number(r.cost)).toBe(0);
  });

  it('runs a mobile-agent-v3 cycle through the gateway; every role\'s IO is queryable per step', async () => {
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-cycle-3`,
      taskQueue: `${prefix}-main`,
      args: [input(3, { queries: 1, attempts: 1, maxSteps: 6, apps: ['food'], agentMode: 'mobile-agent-v3' })],
    });
    const r = (await handle.result()) as CycleResult;
    expect(r.counts.rollouts).toBe(1);
    expect(r.counts.steps).toBeGreaterThan(0);
    const roles = await db.pool.query<{ idx: number; role: string; images: number }>(
      `select s.idx, x->>'role' as role, jsonb_array_length(coalesce(x->'request'->'messages'->0->'images', '[]'::jsonb)) as images
       from steps s cross join lateral jsonb_array_elements(s.roles) x where s.rollout_id like 'cycle-3/%' order by s.idx`,
    );
    const names = new Set(roles.rows.map((x) => x.role));
    for (const role of ['manager', 'worker', 'reflector']) expect(names).toContain(role);
    const steps = await db.pool.query<{ n: string }>(`select count(*) as n from steps where rollout_id like 'cycle-3/%' and roles is not null`);
    expect(Number(steps.rows[0]!.n)).toBe(r.counts.steps);
    const usage = await db.pool.query<{ role: string }>(`select distinct role from model_usage where cycle_id = 'cycle-3'`);
    const metered = new Set(usage.rows.map((x) => x.role));
    for (const role of ['manager', 'worker', 'reflector', 'stepCritic']) expect(metered).toContain(role);
    expect(metered.has('policy')).toBe(false);
  }, 300_000);

  it('re-running the same cycle duplicates nothing', async () => {
    const before = await db.pool.query(`select (select count(*) from rollouts) r, (select count(*) from steps) s,
      (select count(*) from step_verdicts) v, (select count(*) from datasets) d, (select count(*) from queries) q`);
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-cycle-1-again`,
      taskQueue: `${prefix}-main`,
      args: [input(1, { queries: 3, attempts: 2, maxSteps: 10, guidance: { enabled: false } })],
    });
    const again = (await handle.result()) as CycleResult;
    const after = await db.pool.query(`select (select count(*) from rollouts) r, (select count(*) from steps) s,
      (select count(*) from step_verdicts) v, (select count(*) from datasets) d, (select count(*) from queries) q`);
    expect(after.rows[0]).toEqual(before.rows[0]);
    expect(again.counts).toEqual(first.counts);
    expect(again.dataset?.version).toBe(first.dataset?.version);
  }, 300_000);

  it('fails fast on invalid input, naming the field', async () => {
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-bad`,
      taskQueue: `${prefix}-main`,
      args: [input(2, { queries: 0 })],
    });
    const err = await handle.result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(String((err as WorkflowFailedError).cause?.message)).toContain('config.queries');
  });
});
