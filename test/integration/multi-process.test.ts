import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig, REPO_ROOT } from '../../cli/config.js';
import { startRuntime, startWorkers, type Runtime, type Workers } from '../../cli/runtime.js';
import type { CycleResult } from '../../workflows/contracts.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

/**
 * The scale-out form on one machine: the `env` and `cpu` queues served by separate `trajforge worker` processes
 * (as they would be on separate machines), the `main` queue in this process, all against the same Postgres,
 * Temporal and blob store. A small cycle must complete, and the history must show that episodes ran in the env
 * process and critics in the cpu process.
 */
describe('multi-process workers (one process per queue)', () => {
  let db: TestDatabase;
  let home: string;
  let blobDir: string;
  let prefix: string;
  let rt: Runtime;
  let main: Workers;
  const children: { queue: string; proc: ChildProcess; output: string[] }[] = [];
  let result: CycleResult;

  /** Starts `trajforge worker --queues <queue>` and resolves once it reports that its workers run. */
  function spawnWorker(queue: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'cli/main.ts'), 'worker', '--queues', queue], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    children.push({ queue, proc, output });
    return new Promise((resolve, reject) => {
      const onData = (chunk: Buffer): void => {
        output.push(chunk.toString('utf8'));
        if (output.join('').includes('workers running')) resolve(proc);
      };
      proc.stdout!.on('data', onData);
      proc.stderr!.on('data', (c: Buffer) => output.push(c.toString('utf8')));
      proc.once('exit', (code) => reject(new Error(`worker --queues ${queue} exited with ${code} before starting:\n${output.join('')}`)));
    });
  }

  beforeAll(async () => {
    db = await testDatabase();
    home = await mkdtemp(join(tmpdir(), 'trajforge-mp-'));
    blobDir = join(home, 'blobs');
    prefix = `mp-${randomBytes(4).toString('hex')}`;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      BLOB_DIR: blobDir,
      TRAJFORGE_TASK_QUEUE_PREFIX: prefix,
      TRAJFORGE_ENV_SESSIONS: '2',
    };
    await Promise.all([
      spawnWorker('env', { ...env, TRAJFORGE_HOME: join(home, 'env') }),
      spawnWorker('cpu', { ...env, TRAJFORGE_HOME: join(home, 'cpu') }),
    ]);
    rt = await startRuntime(loadConfig({ ...env, TRAJFORGE_HOME: join(home, 'main') }));
    main = await startWorkers(rt, { prefix, queues: ['main'] });
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-cycle-1`,
      taskQueue: `${prefix}-main`,
      args: [{ cycleId: 'cycle-1', cycleNumber: 1, config: { queries: 2, attempts: 1, maxSteps: 5, apps: ['food', 'notes'] }, taskQueuePrefix: prefix }],
    });
    result = (await handle.result()) as CycleResult;
  }, 600_000);

  afterAll(async () => {
    await main?.shutdown();
    await rt?.close();
    await Promise.all(
      children.map(
        ({ proc }) =>
          new Promise<void>((resolve) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
            proc.once('exit', () => resolve());
            proc.kill('SIGTERM');
            // A worker that does not stop within 20 s is killed (its in-flight tasks are retried elsewhere).
            setTimeout(() => proc.kill('SIGKILL'), 20_000).unref();
          }),
      ),
    );
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  }, 60_000);

  it('completes a cycle whose rows match its counts', async () => {
    expect(result.counts.queries).toBe(2);
    expect(result.counts.rollouts).toBe(2);
    expect(result.counts.steps).toBeGreaterThan(0);
    expect(result.counts.accepted + result.counts.rejected + result.counts.degraded).toBe(2);
    const steps = await db.pool.query<{ n: string }>(`select count(*) as n from steps where rollout_id like 'cycle-1/%'`);
    expect(Number(steps.rows[0]!.n)).toBe(result.counts.steps);
    const verdicts = await db.pool.query<{ n: string }>(`select count(*) as n from step_verdicts where rollout_id like 'cycle-1/%'`);
    expect(Number(verdicts.rows[0]!.n)).toBe(result.counts.stepVerdicts);
    // Screenshots written by the env process are readable here (shared blob store).
    const key = await db.pool.query<{ k: string }>(`select before->>'screenshotKey' as k from steps where rollout_id like 'cycle-1/%' limit 1`);
    expect(await rt.blobs.has(key.rows[0]!.k)).toBe(true);
  });

  it('ran episodes in the env process and critics in the cpu process', async () => {
    const identities = new Map<string, Set<string>>();
    const ids = (await db.pool.query<{ id: string }>(`select id from rollouts where cycle_id = 'cycle-1'`)).rows.map((r) => r.id);
    for (const workflowId of [`cycle-1/generate-queries`, ...ids, ...ids.map((id) => `${id}/judge`)]) {
      const history = await rt.temporal.client.workflow.getHandle(workflowId).fetchHistory();
      const scheduled = new Map<string, string>();
      for (const e of history.events ?? []) {
        const s = e.activityTaskScheduledEventAttributes;
        if (s?.activityType?.name) scheduled.set(String(e.eventId), s.activityType.name);
        const st = e.activityTaskStartedEventAttributes;
        if (st?.identity) {
          const name = scheduled.get(String(st.scheduledEventId)) ?? '?';
          if (!identities.has(name)) identities.set(name, new Set());
          identities.get(name)!.add(st.identity);
        }
      }
    }
    const pidOf = (queue: string): string => String(children.find((c) => c.queue === queue)!.proc.pid);
    const ranIn = (activity: string): string[] => [...(identities.get(activity) ?? [])].map((i) => i.split('@')[0]!);
    expect(ranIn('runEpisode')).toEqual([pidOf('env')]);
    expect(ranIn('judgeSteps')).toEqual([pidOf('cpu')]);
    expect(ranIn('judgeTrajectory')).toEqual([pidOf('cpu')]);
    expect(ranIn('generateQueries')).toEqual([pidOf('cpu')]);
    expect(ranIn('runEpisode')).not.toContain(String(process.pid));
  });
});
