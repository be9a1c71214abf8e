import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../cli/services/paths.js';
import { startEmbeddedPostgres } from '../../cli/services/postgres.js';
import { freePort } from '../../cli/services/s3-server.js';

/**
 * The user's story from the issue, on the embedded services a plain `trajforge cycle` starts: the main job
 * is `kill -9`ed mid-rollout (services orphaned, the cycle Running in Temporal with nobody working on it),
 * `status` shows it, the next run adopts the orphans and is itself killed while resuming, `stop` shuts the
 * orphans down, and a last `cycle --resume-only` restarts the services from their files and finishes the
 * cycle. Then nothing is missing or duplicated.
 */
describe('crash of the main job, then rerun', () => {
  let home: string;
  const children: ChildProcess[] = [];
  let env: NodeJS.ProcessEnv;
  let pgPort: number;

  const cli = (args: string[]): { child: ChildProcess; output: () => string; exit: Promise<number | null> } => {
    // One process (no npx/tsx wrapper), so that kill -9 hits the main job itself, as a crash would.
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let text = '';
    child.stdout!.on('data', (b: Buffer) => (text += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (text += b.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output: () => text, exit };
  };

  /** Polls a condition every 250 ms (a wait for a state, not a sleep standing in for one). */
  const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const count = async (sql: string): Promise<number> => {
    const client = new pg.Client({ connectionString: `postgres://postgres:trajforge@127.0.0.1:${pgPort}/trajforge`, connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
    } catch {
      return -1;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    if (home) {
      const stop = cli(['stop', '--force']);
      await stop.exit;
      await rm(home, { recursive: true, force: true });
    }
  });

  it('finishes the interrupted cycle exactly once and shows/stops orphaned services', async () => {
    home = await mkdtemp(path.join(REPO_ROOT, '.trajforge', 'test-crash-'));
    await chmod(home, 0o755); // as root, Postgres runs as `postgres`, which must reach its data dir
    pgPort = await freePort();
    const temporalPort = await freePort();
    let uiPort = await freePort();
    while (uiPort === temporalPort) uiPort = await freePort();
    env = { ...process.env, TRAJFORGE_HOME: home, TRAJFORGE_POSTGRES_PORT: String(pgPort), TRAJFORGE_TEMPORAL_PORT: String(temporalPort), TRAJFORGE_TEMPORAL_UI_PORT: String(uiPort), TRAJFORGE_ENV_SESSIONS: '1' };
    for (const k of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'BLOB_STORE', 'TRAJFORGE_TASK_QUEUE_PREFIX']) delete env[k];

    // 1. The first main job dies by kill -9 once a step is written (mid-rollout).
    const first = cli(['cycle', '--queries', '1', '--attempts', '1', '--max-steps', '3', '--apps', 'food', '--seed', '7']);
    await until('a step of cycle-1', async () => (await count(`select count(*) as n from steps where rollout_id like 'cycle-1/%'`)) > 0, 240_000);
    first.child.kill('SIGKILL');
    await first.exit;

    // 2. status: the services are orphaned, the cycle is unfinished and nobody works on it.
    const status = cli(['status']);
    expect(await status.exit).toBe(0);
    expect(status.output()).toMatch(/postgres\s+embedded\s+pid \d+, port \d+, ORPHANED/);
    expect(status.output()).toMatch(/temporal\s+dev\s+127\.0\.0\.1:\d+, pid \d+, ORPHANED/);
    expect(status.output()).toMatch(/cycle-1\s+running\s+queries 1, rollouts \d\/1/);

    // 3. The next run adopts the orphans and resumes; it too is killed, right after it says so.
    const second = cli(['cycle', '--resume-only']);
    await until('the second run to resume', () => second.output().includes('resuming cycle-1') || second.child.exitCode !== null, 240_000);
    expect(second.output()).toContain('adopted: left running by an interrupted run');
    second.child.kill('SIGKILL');
    await second.exit;

    // 4. stop shuts the (again orphaned) services down.
    const stop = cli(['stop']);
    expect(await stop.exit).toBe(0);
    expect(stop.output()).toMatch(/temporal\s+stopped/);
    expect(stop.output()).toMatch(/postgres\s+stopped/);
    const after = cli(['status']);
    expect(await after.exit).toBe(0);
    expect(after.output()).toMatch(/postgres\s+embedded\s+not running/);
    expect(after.output()).toMatch(/temporal\s+dev\s+not running/);

    // 5. A fresh run restarts both from their files and finishes the cycle (Temporal's history is in SQLite).
    const third = cli(['cycle', '--resume-only']);
    expect(await third.exit, third.output()).toBe(0);
    expect(third.output()).toContain('resuming cycle-1 (interrupted, still running in Temporal');
    expect(third.output()).toContain('trajforge: cycle-1 done');

    // 6. Exactly one of everything.
    const pgHandle = await startEmbeddedPostgres({ dataDir: path.join(home, 'postgres'), port: pgPort });
    try {
      expect(await count(`select count(*) as n from cycles`)).toBe(1);
      expect(await count(`select count(*) as n from cycles where id = 'cycle-1' and status = 'finished'`)).toBe(1);
      expect(await count(`select count(*) as n from cycle_queries where cycle_id = 'cycle-1'`)).toBe(1);
      expect(await count(`select count(*) as n from rollouts where cycle_id = 'cycle-1'`)).toBe(1);
      // Steps are numbered 0..n-1 without gaps and agree with the rollout's step count.
      expect(await count(`select count(*) as n from rollouts r where step_count <> (select count(*) from steps s where s.rollout_id = r.id)
                            or step_count <> coalesce((select max(idx) + 1 from steps s where s.rollout_id = r.id), 0)`)).toBe(0);
      // One consensus verdict per rollout and critic version; at most one dataset version from the cycle.
      expect(await count(`select count(*) as n from (select rollout_id, critic_version from trajectory_verdicts where channel = 'consensus' group by 1, 2 having count(*) > 1) d`)).toBe(0);
      expect(await count(`select count(*) as n from trajectory_verdicts v join rollouts r on r.id = v.rollout_id where v.channel = 'consensus' and r.cycle_id = 'cycle-1'`)).toBe(1);
      expect(await count(`select count(distinct (dataset_name, dataset_version)) as n from dataset_items i join rollouts r on r.id = i.rollout_id where r.cycle_id = 'cycle-1'`)).toBeLessThanOrEqual(1);
      expect(await count(`select count(*) as n from (select rollout_id, step_idx from dataset_items group by 1, 2, dataset_name, dataset_version having count(*) > 1) d`)).toBe(0);
    } finally {
      await pgHandle.stop();
    }
  }, 900_000);
});
