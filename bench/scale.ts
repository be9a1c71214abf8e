/**
 * Model-latency-bound scale-out: judged trajectories per minute as environment sessions per worker grow, and with
 * several worker processes on the same task queues.
 *
 *   npx tsx bench/scale.ts [--latency lognormal:400] [--sessions 1,2,4,8] [--processes 1,2] [--process-sessions 4]
 *                          [--per-session 3] [--max-steps 10] [--quick] [--cpu-prof DIR]
 *
 * The cycle's guidance and reasoning stages are off (they run once per cycle on a handful of queries, serially):
 * a level measures rollouts and their judging. Caches are warmed equally for every level: unless `--cold`, each level first runs the same cycle (same cycle number,
 * so the same queries) unmeasured, with the same blob store, then again measured with fresh worker processes. The
 * reference model's OCR — the compute a GPU endpoint does in production, which here runs on the workers' own cores —
 * is then read back from the persistent OCR cache (`ocr/` in the blob store) wherever the screens repeat, so the
 * measured pass waits on the simulated model latency rather than on the stand-in model's CPU. Every model call still
 * goes to the reference server and waits its drawn latency (the gateway's response cache lives in the worker process
 * and starts empty). The OCR results computed during the measured pass (cache misses) are printed per level.
 *
 * `--quick`: the 2-workers ÷ 1 comparison alone (`--sessions 4 --processes 1,2 --per-session 2`) — the smallest run
 * that answers "does a second worker process double the rate". `--cpu-prof DIR`: every worker process writes a V8
 * CPU profile there when it stops (summarise with bench/profile-summary.ts).
 *
 * Every level is one production cycle on Temporal + Postgres whose `env` and `cpu` queues are served by separate
 * `trajforge worker --queues env,cpu` processes (each with its own reference server answering after the simulated
 * GPU latency, as one model replica per worker would), the `main` queue in this process. A level with S sessions per
 * worker and P processes runs `per-session × S × P` queries × 1 attempt, so every session has the same work.
 * Rate = judged trajectories ÷ the rollout phase's minutes (cycle wall time minus query generation, which does not
 * scale with sessions). While a level runs, the machine's CPU busy share (/proc/stat) and the resident memory of the
 * worker processes and their browsers (/proc/<pid>/status VmRSS over the process trees) are sampled every second,
 * so the resource that saturates is named with numbers. The CPU time each part of the line spends per env step is
 * accounted from /proc (utime + stime of every process seen in the tree, sampled each second, so a renderer that
 * exits between samples loses at most its last second): worker Node processes, their Chromium trees, and this
 * process (the `main` queue: workflows). CPU seconds per step do not depend much on other load on the machine, so
 * `cores ÷ (CPU s per step)` is the step rate at which CPU saturates, whatever the load while measuring.
 * The load average is printed at the start and the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pgLib from 'pg';
import { loadConfig, REPO_ROOT } from '../cli/config.js';
import { startRuntime, startWorkers, type Runtime } from '../cli/runtime.js';
import { startEmbeddedPostgres } from '../cli/services/postgres.js';
import { describeLatency, parseLatencySpec } from '../models/reference/latency.js';
import type { CycleResult } from '../workflows/contracts.js';

const { values } = parseArgs({
  options: {
    latency: { type: 'string', default: 'lognormal:400' },
    sessions: { type: 'string', default: '1,2,4,8' },
    processes: { type: 'string', default: '1,2' },
    'process-sessions': { type: 'string', default: '4' },
    'per-session': { type: 'string', default: '3' },
    'max-steps': { type: 'string', default: '10' },
    quick: { type: 'boolean', default: false },
    cold: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
  },
});
if (values.quick) {
  values.sessions = '4';
  values.processes = '1,2';
  values['per-session'] = '2';
}
const LATENCY = values.latency;
const latencySpec = parseLatencySpec(LATENCY);
const SESSION_LEVELS = values.sessions.split(',').filter(Boolean).map(Number);
const PROCESS_LEVELS = values.processes.split(',').filter(Boolean).map(Number);
const PROCESS_SESSIONS = Number(values['process-sessions']);
const PER_SESSION = Number(values['per-session']);
const MAX_STEPS = Number(values['max-steps']);

/** Digits that make this run's cycle ids unique on a Temporal server that outlives the bench. */
const RUN_STAMP = String(Date.now() % 1e9);

const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** Machine-wide CPU busy ticks and total ticks from /proc/stat. */
function cpuTicks(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (line[3] ?? 0) + (line[4] ?? 0);
  const total = line.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Sum of VmRSS (kB) over the process trees rooted at `roots`. */
function treeRssKb(roots: number[]): number {
  const parent = new Map<number, number>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      parent.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parent.get(p), hops++) if (roots.includes(p)) return true;
    return false;
  };
  let kb = 0;
  for (const pid of parent.keys()) {
    if (!inTree(pid)) continue;
    try {
      const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return kb;
}

const TICKS_PER_S = 100; // USER_HZ on Linux

/** utime + stime (ticks) of every process, and each one's parent, from /proc. */
function processTable(): Map<number, { ppid: number; ticks: number; comm: string }> {
  const out = new Map<number, { ppid: number; ticks: number; comm: string }>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const f = stat.slice(close + 2).split(' ');
      out.set(Number(e), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * CPU seconds spent by the worker processes (Node), their descendants (Chromium, esbuild, …) and this process during a
 * level. Every pid is remembered with the most ticks seen, so processes that exit before the end still count.
 */
function cpuAccount(roots: () => number[]): { sample(): void; result(): { workersS: number; browsersS: number; mainS: number } } {
  const seen = new Map<number, { role: 'worker' | 'child' | 'main'; first: number; last: number }>();
  let initial = true;
  const sample = (): void => {
    const table = processTable();
    const rootSet = new Set(roots());
    const roleOf = (pid: number): 'worker' | 'child' | 'main' | undefined => {
      if (pid === process.pid) return 'main';
      if (rootSet.has(pid)) return 'worker';
      for (let p = table.get(pid)?.ppid, hops = 0; p !== undefined && p > 1 && hops < 64; p = table.get(p)?.ppid, hops++) if (rootSet.has(p)) return 'child';
      return undefined;
    };
    for (const [pid, row] of table) {
      const known = seen.get(pid);
      if (known) {
        known.last = Math.max(known.last, row.ticks);
        continue;
      }
      const role = roleOf(pid);
      // A process already running at the first sample counts from there; one born later from zero.
      if (role) seen.set(pid, { role, first: initial ? row.ticks : 0, last: row.ticks });
    }
    initial = false;
  };
  return {
    sample,
    result() {
      const sum = (role: string): number => [...seen.values()].filter((v) => v.role === role).reduce((a, v) => a + v.last - v.first, 0) / TICKS_PER_S;
      return { workersS: sum('worker'), browsersS: sum('child'), mainS: sum('main') };
    },
  };
}

/** Samples CPU share and worker-tree memory every second until stopped. */
function sampler(roots: () => number[]): {
  stop(): { cpuBusyPct: number; peakRssMb: number; memAvailableMinMb: number; workersS: number; browsersS: number; mainS: number };
} {
  const start = cpuTicks();
  const account = cpuAccount(roots);
  let peakKb = 0;
  let minAvailKb = Infinity;
  const tick = (): void => {
    account.sample();
    peakKb = Math.max(peakKb, treeRssKb(roots()));
    const m = /MemAvailable:\s+(\d+)/.exec(fs.readFileSync('/proc/meminfo', 'utf8'));
    minAvailKb = Math.min(minAvailKb, Number(m?.[1] ?? Infinity));
  };
  const timer = setInterval(tick, 1000);
  tick();
  return {
    stop() {
      clearInterval(timer);
      account.sample();
      const end = cpuTicks();
      return {
        cpuBusyPct: (100 * (end.busy - start.busy)) / Math.max(1, end.total - start.total),
        peakRssMb: peakKb / 1024,
        memAvailableMinMb: minAvailKb / 1024,
        ...account.result(),
      };
    },
  };
}

interface Level {
  label: string;
  sessions: number;
  processes: number;
  judged: number;
  steps: number;
  rolloutSeconds: number;
  perMin: number;
  cpuBusyPct: number;
  peakRssMb: number;
  memAvailableMinMb: number;
  /** CPU seconds over the level: worker Node processes, their child processes (Chromium), this process (main queue). */
  workersS: number;
  browsersS: number;
  mainS: number;
  /** OCR results computed (not read from the cache) during the measured pass. */
  ocrComputed?: number;
  phases: Phases;
}

/** Where a level's wall time went, read back from the Temporal histories of the cycle and its rollout children. */
interface Phases {
  /** First episode activity started → last rollout (episode + judgement) completed. */
  rolloutsS: number;
  /** Last rollout completed → cycle completed (calibration, export, finishing). */
  tailS: number;
  /** Cycle start → first episode started (query generation, startup). */
  headS: number;
  meanEpisodeS: number;
  /** Episode completed → its judgement completed. */
  meanJudgeS: number;
  /** Episode activity scheduled → started (waiting for a free session). */
  meanQueueS: number;
}

type HistoryTime = { seconds?: unknown; nanos?: number | null } | null | undefined;
const msOf = (t: HistoryTime): number => (t ? Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6 : NaN);
const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

async function phasesOf(services: Runtime, cycleWorkflowId: string): Promise<Phases> {
  const client = services.temporal.client;
  const cycle = (await client.workflow.getHandle(cycleWorkflowId).fetchHistory()).events ?? [];
  const cycleStart = msOf(cycle[0]?.eventTime as HistoryTime);
  const cycleEnd = msOf(cycle.at(-1)?.eventTime as HistoryTime);
  const rollouts = cycle
    .map((e) => e.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId)
    .filter((id): id is string => typeof id === 'string' && /\/a\d+$/.test(id));
  const starts: number[] = [];
  const ends: number[] = [];
  const episodes: number[] = [];
  const judges: number[] = [];
  const queues: number[] = [];
  for (const id of rollouts) {
    const events = (await client.workflow.getHandle(id).fetchHistory()).events ?? [];
    const scheduled = new Map<string, { name: string; at: number }>();
    let start = NaN;
    let end = NaN;
    for (const e of events) {
      const at = msOf(e.eventTime as HistoryTime);
      const sched = e.activityTaskScheduledEventAttributes;
      if (sched) scheduled.set(String(e.eventId), { name: sched.activityType?.name ?? '', at });
      const st = e.activityTaskStartedEventAttributes;
      const s = st ? scheduled.get(String(st.scheduledEventId)) : undefined;
      if (s?.name === 'runEpisode') {
        start = at;
        queues.push((at - s.at) / 1000);
      }
      const done = e.activityTaskCompletedEventAttributes;
      if (done && scheduled.get(String(done.scheduledEventId))?.name === 'runEpisode') end = at;
    }
    const finished = msOf(events.at(-1)?.eventTime as HistoryTime);
    if (Number.isFinite(start)) starts.push(start);
    ends.push(finished);
    if (Number.isFinite(start) && Number.isFinite(end)) {
      episodes.push((end - start) / 1000);
      judges.push((finished - end) / 1000);
    }
  }
  const first = Math.min(...starts);
  const last = Math.max(...ends);
  return {
    rolloutsS: (last - first) / 1000,
    tailS: (cycleEnd - last) / 1000,
    headS: (first - cycleStart) / 1000,
    meanEpisodeS: mean(episodes),
    meanJudgeS: mean(judges),
    meanQueueS: mean(queues),
  };
}

/** Number of OCR results stored in the blob store (files under `ocr/`). */
function ocrCount(blobDir: string): number {
  const dir = join(blobDir, 'ocr');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.json')).length : 0;
}

async function runLevel(services: Runtime, databaseUrl: string, blobDir: string, sessions: number, processes: number, n: number): Promise<Level> {
  if (!values.cold) await runPass(services, databaseUrl, blobDir, sessions, processes, n, 'warm');
  const before = ocrCount(blobDir);
  const level = await runPass(services, databaseUrl, blobDir, sessions, processes, n, 'measured');
  return { ...level, ocrComputed: ocrCount(blobDir) - before };
}

async function runPass(
  services: Runtime,
  databaseUrl: string,
  blobDir: string,
  sessions: number,
  processes: number,
  n: number,
  pass: 'warm' | 'measured',
): Promise<Level> {
  const prefix = `scale-${Date.now().toString(36)}-${n}-${pass}`;
  const home = await mkdtemp(join(tmpdir(), 'trajforge-scale-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: services.temporal.address,
    BLOB_DIR: blobDir,
    TRAJFORGE_TASK_QUEUE_PREFIX: prefix,
    TRAJFORGE_ENV_SESSIONS: String(sessions),
    // Critics wait on the (simulated) model endpoint like episodes do: as many at once as there are sessions.
    TRAJFORGE_CPU_CONCURRENCY: String(Math.max(2, sessions)),
    TRAJFORGE_REFERENCE_LATENCY: LATENCY,
  };
  const procs: ChildProcess[] = [];
  const started = Array.from({ length: processes }, (_, i) => {
    const prof = values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof'], '--cpu-prof-name', `${prefix}-w${i}.cpuprofile`] : [];
    const proc = spawn(process.execPath, [...prof, '--import', 'tsx', join(REPO_ROOT, 'cli/main.ts'), 'worker', '--queues', 'env,cpu'], {
      cwd: REPO_ROOT,
      env: { ...env, TRAJFORGE_HOME: join(home, `w${i}`) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    procs.push(proc);
    const output: string[] = [];
    return new Promise<void>((resolve, reject) => {
      proc.stdout!.on('data', (c: Buffer) => {
        output.push(c.toString('utf8'));
        if (output.join('').includes('workers running')) resolve();
      });
      proc.stderr!.on('data', (c: Buffer) => output.push(c.toString('utf8')));
      proc.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output.join('')}`)));
    });
  });
  const main = await startWorkers(services, { prefix, queues: ['main'] });
  try {
    await Promise.all(started);
    const queries = PER_SESSION * sessions * processes;
    // Unique per run: child workflow ids derive from it, and a Temporal server kept from an earlier run still has them.
    const cycleId = `cycle-${RUN_STAMP}${String(n).padStart(2, '0')}${pass === 'warm' ? '0' : '1'}`;
    const s = sampler(() => procs.map((p) => p.pid!).filter(Boolean));
    const t0 = performance.now();
    const handle = await services.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-${cycleId}`,
      taskQueue: `${prefix}-main`,
      args: [{ cycleId, cycleNumber: n, config: {
            ...services.config.cycle,
            queries,
            attempts: 1,
            maxSteps: MAX_STEPS,
            concurrency: sessions * processes,
            // Guidance and reasoning run once per cycle on a few queries (their own stages, their own benches):
            // serial work that does not grow with sessions would only blur what the sessions scale.
            guidance: { ...services.config.cycle.guidance, enabled: false },
            reasoning: { ...services.config.cycle.reasoning, enabled: false },
          }, taskQueuePrefix: prefix }],
    });
    const result = (await handle.result()) as CycleResult;
    const wall = (performance.now() - t0) / 1000;
    const res = s.stop();
    const gen = await services.temporal.client.workflow.getHandle(`${cycleId}/generate-queries`).describe();
    const genSeconds = gen.closeTime && gen.startTime ? (gen.closeTime.getTime() - gen.startTime.getTime()) / 1000 : 0;
    const judged = result.counts.accepted + result.counts.rejected;
    const rolloutSeconds = wall - genSeconds;
    const phases = await phasesOf(services, `${prefix}-${cycleId}`);
    return {
      phases,
      label: `${sessions} × ${processes}`,
      sessions,
      processes,
      judged,
      steps: result.counts.steps,
      rolloutSeconds,
      perMin: judged / (rolloutSeconds / 60),
      ...res,
    };
  } finally {
    await main.shutdown();
    await Promise.all(
      procs.map(
        (proc) =>
          new Promise<void>((resolve) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
            proc.once('exit', () => resolve());
            proc.kill('SIGTERM');
            setTimeout(() => proc.kill('SIGKILL'), 20_000).unref();
          }),
      ),
    );
    await rm(home, { recursive: true, force: true });
  }
}

/** Judged trajectories per minute of the rollouts-and-judging span alone (no per-cycle head or tail). */
const steadyRate = (l: Level): number => l.judged / (l.phases.rolloutsS / 60);
const perStep = (seconds: number, l: Level): string => (l.steps ? ((1000 * seconds) / l.steps).toFixed(0) : '–');
/** The env-step rate at which this machine's cores would be busy with this line's own work alone. */
const saturation = (l: Level): string => {
  const cpuPerStep = (l.workersS + l.browsersS + l.mainS) / Math.max(1, l.steps);
  return cpuPerStep > 0 ? `${(os.cpus().length / cpuPerStep).toFixed(1)}` : '–';
};

async function main(): Promise<void> {
  const loadStart = load();
  const base = loadConfig();
  const database = `bench_scale_${Date.now()}`;
  let databaseUrl = base.databaseUrl;
  let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  if (!databaseUrl) {
    pg = await startEmbeddedPostgres({ dataDir: join(base.home, 'postgres'), database, ...(base.postgresPort ? { port: base.postgresPort } : {}) });
    databaseUrl = pg.url;
  }
  const blobDir = await mkdtemp(join(tmpdir(), 'trajforge-scale-blobs-'));
  const services = await startRuntime(loadConfig({ ...process.env, DATABASE_URL: databaseUrl, BLOB_DIR: blobDir }));
  const levels: Level[] = [];
  let n = 0;
  const report = (l: Level): void =>
    console.log(
      `| ${l.label} | ${l.judged} | ${l.steps} | ${l.rolloutSeconds.toFixed(1)} | ${l.perMin.toFixed(1)} | ${l.cpuBusyPct.toFixed(0)}% | ` +
        `${perStep(l.workersS, l)} / ${perStep(l.browsersS, l)} / ${perStep(l.mainS, l)} | ${saturation(l)} | ` +
        `${l.peakRssMb.toFixed(0)} MB | ${l.memAvailableMinMb.toFixed(0)} MB | ${l.ocrComputed ?? '–'} | ` +
        `${l.phases.rolloutsS.toFixed(1)} | ${steadyRate(l).toFixed(1)} | ${l.phases.headS.toFixed(1)} / ${l.phases.tailS.toFixed(1)} | ` +
        `${l.phases.meanEpisodeS.toFixed(1)} / ${l.phases.meanJudgeS.toFixed(1)} / ${l.phases.meanQueueS.toFixed(1)} | load ${load()} |`,
    );
  try {
    console.log(`scale bench: model latency ${describeLatency(latencySpec)}, ${PER_SESSION} queries per session, ≤${MAX_STEPS} steps, caches ${values.cold ? 'cold' : 'warmed by an unmeasured pass of each level'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load average at start ${loadStart}`);
    console.log(
      '| sessions × processes | judged | env steps | rollout phase s | judged/min | CPU busy (machine) | CPU ms per env step: workers / browsers / main | ' +
        'steps/s at CPU saturation | peak RSS (workers + browsers) | min MemAvailable | OCR computed (cache misses) | ' +
        'rollouts + judging s | judged/min in it | before / after it s | mean episode / judgement / wait for a session s | |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const s of SESSION_LEVELS) {
      const l = await runLevel(services, databaseUrl, blobDir, s, 1, ++n);
      levels.push(l);
      report(l);
    }
    const byProcesses: Level[] = [];
    for (const p of PROCESS_LEVELS) {
      const same = levels.find((l) => l.sessions === PROCESS_SESSIONS && l.processes === p);
      const l = same ?? (await runLevel(services, databaseUrl, blobDir, PROCESS_SESSIONS, p, ++n));
      if (!same) report(l);
      byProcesses.push(l);
    }
    const one = levels.find((l) => l.sessions === 1);
    const ratios = (a: Level, b: Level): string => `${(a.perMin / b.perMin).toFixed(2)} (rollouts + judging alone: ${(steadyRate(a) / steadyRate(b)).toFixed(2)})`;
    for (const l of levels) if (one && l !== one) console.log(`sessions ${l.sessions} ÷ 1: ${ratios(l, one)}`);
    const p1 = byProcesses.find((l) => l.processes === 1);
    for (const l of byProcesses) if (p1 && l !== p1) console.log(`${l.processes} worker processes ÷ 1 (${PROCESS_SESSIONS} sessions each): ${ratios(l, p1)} (goal ≥ 1.9 for 2)`);
    console.log(`load average at end ${load()}`);
  } finally {
    await services.close();
    await rm(blobDir, { recursive: true, force: true });
    if (pg) {
      const admin = new pgLib.Client({ connectionString: pg.adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${admin.escapeIdentifier(database)} with (force)`);
      await admin.end();
      await pg.stop();
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
