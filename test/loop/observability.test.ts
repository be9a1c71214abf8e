import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../cli/config.js';
import type { SpanRecord } from '../../cli/observability.js';
import { startRuntime, startWorkers, type Runtime, type Workers } from '../../cli/runtime.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

/** Metrics scraped from a worker's /metrics endpoint and a cycle's spans, with both switched on by configuration. */
describe('observability', () => {
  let db: TestDatabase;
  let home: string;
  let rt: Runtime;
  let workers: Workers;
  let prefix: string;

  beforeAll(async () => {
    db = await testDatabase();
    home = await mkdtemp(join(tmpdir(), 'trajforge-obs-'));
    prefix = `t-${randomBytes(4).toString('hex')}`;
    rt = await startRuntime(
      loadConfig({
        DATABASE_URL: db.url,
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        TRAJFORGE_HOME: home,
        TRAJFORGE_TASK_QUEUE_PREFIX: prefix,
        TRAJFORGE_METRICS_PORT: '0',
        TRAJFORGE_TRACES: 'file',
      }),
    );
    workers = await startWorkers(rt, { prefix });
    await rt.temporal.client.workflow.execute('productionCycle', {
      workflowId: `${prefix}-cycle-1`,
      taskQueue: `${prefix}-main`,
      args: [{ cycleId: 'cycle-1', cycleNumber: 1, config: { queries: 1, attempts: 1, maxSteps: 5, apps: ['calendar'] }, taskQueuePrefix: prefix }],
    });
  }, 600_000);

  afterAll(async () => {
    await workers?.shutdown();
    await rt?.close();
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it('is off unless configured', () => {
    expect(loadConfig({}).observability).toEqual({ traces: 'off' });
    expect(() => loadConfig({ TRAJFORGE_TRACES: 'otlp' })).toThrow(/TRAJFORGE_TRACES/);
  });

  it('serves Prometheus metrics of the cycle it ran', async () => {
    expect(workers.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const res = await fetch(workers.metricsUrl!);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/trajforge_episodes_total\{status="[a-z_]+"\} 1/);
    expect(text).toMatch(/trajforge_steps_total [1-9]/);
    expect(text).toMatch(/trajforge_activity_seconds_count\{activity="runEpisode",outcome="ok"\} 1/);
    expect(text).toMatch(/trajforge_critic_decisions_total\{decision="(accepted|rejected)"\} 1/);
    expect(text).toMatch(/trajforge_model_calls\{role="policy"\} [1-9]/);
    // Model latency per role, the queue wait of activities (backlog), and the production funnel from Postgres.
    expect(text).toMatch(/trajforge_model_latency_seconds_count\{role="policy"\} [1-9]/);
    expect(text).toMatch(/trajforge_activity_schedule_to_start_seconds_count\{activity="runEpisode"\} 1/);
    const stage = (name: string): number => Number(new RegExp(`trajforge_funnel\\{stage="${name}"\\} (\\d+)`).exec(text)?.[1] ?? NaN);
    expect(stage('queries')).toBe(1);
    expect(stage('rollouts')).toBe(1);
    expect(stage('accepted')).toBeGreaterThanOrEqual(0);
    expect(stage('accepted')).toBeLessThanOrEqual(1);
    expect(stage('exported')).toBe(stage('accepted'));
    expect(text).toMatch(/trajforge_rollout_backlog 0/);
    // Temporal's own backlog per task queue and type (DescribeTaskQueue): the cycle has ended, nothing waits.
    for (const queue of ['main', 'env', 'cpu']) {
      for (const type of ['workflow', 'activity']) expect(text).toMatch(new RegExp(`trajforge_task_queue_backlog\\{task_queue="${prefix}-${queue}",type="${type}"\\} 0`));
    }
  });

  it('writes the cycle as one trace of workflow spans, and a span per activity execution', async () => {
    const spans = (await readFile(join(home, 'traces', 'spans.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SpanRecord);
    const root = spans.find((s) => s.name === 'RunWorkflow:productionCycle');
    expect(root).toBeDefined();
    const inTrace = spans.filter((s) => s.traceId === root!.traceId).map((s) => s.name);
    expect(inTrace).toEqual(
      expect.arrayContaining(['RunWorkflow:productionCycle', 'StartActivity:startCycle', 'RunWorkflow:generateQueries', 'RunWorkflow:rollout', 'StartActivity:runEpisode', 'RunWorkflow:judgeTrajectory', 'RunWorkflow:exportDataset']),
    );
    // Activity executions join the cycle's trace, each a child of the workflow span that scheduled it.
    expect(inTrace).toEqual(expect.arrayContaining(['RunActivity:startCycle', 'RunActivity:runEpisode', 'RunActivity:judgeTrajectory', 'RunActivity:exportDataset']));
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    for (const run of spans.filter((s) => s.traceId === root!.traceId && s.name.startsWith('RunActivity:'))) {
      expect(byId.get(run.parentSpanId ?? '')?.name).toBe(run.name.replace('RunActivity:', 'StartActivity:'));
    }
  });
});
