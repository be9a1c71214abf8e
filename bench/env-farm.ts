/**
 * Environment farm benchmark (run: `npx tsx bench/env-farm.ts [--steps N] [--levels 1,2,4,8] [--level-steps N] [--sections 1,2,3]`).
 *
 * Prints, in one run:
 * 1. step latency p50/p95 (action → settled screenshot stored, the `EnvSession.step` wall time) over a fixed tour
 *    of the food app, with the per-phase breakdown from `StepMetrics` (action, settle — which includes reading the UI
 *    tree, done in the settle probe's round trip —, observe = screenshot and stores), for the default configuration
 *    and for variants (JPEG screenshots, no UI tree, route interception) so the cost of each is visible;
 * 2. resident memory per session: the Chromium process tree's RSS and PSS (browser, zygotes, renderers, utility
 *    processes, from /proc) with N sessions open on the food app minus the idle browser, divided by N;
 * 3. sessions sustainable on this machine: 1, 2, 4, 8 sessions stepping in parallel; aggregate steps/s and p95 per
 *    level; "sustainable" = the highest level whose p95 stays under 1 s.
 * Goals (issue): p50 ≤ 150 ms, ≤ 100 MB per session. Blobs go to an in-memory store (environment cost only).
 * Timings on a shared machine are noisy: the load average is printed with the results.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { MobileAction } from '../domain/action.js';
import { startAppServer, type AppServer } from '../environments/app-server.js';
import { createChromiumEnv, fastCaptureFallbacks, type ChromiumEnvOptions, type ChromiumSession } from '../environments/chromium.js';
import { MemoryBlobStore } from '../test/environments/memory-blobs.js';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const STEPS = Number(arg('steps', '300'));
const VARIANT_STEPS = Number(arg('variant-steps', '80'));
const LEVELS = arg('levels', '1,2,4,8').split(',').map(Number);
const LEVEL_STEPS = Number(arg('level-steps', '40'));
const MEM_SESSIONS = Number(arg('mem-sessions', '8'));
const P95_LIMIT_MS = 1000;
/** Which of the three parts to run (`--sections 1` for the latency percentiles alone). */
const SECTIONS = new Set(arg('sections', '1,2,3').split(',').map(Number));

/** A fixed tour of the food app (412×915 phone, seed 1): list → restaurant → scroll → back → search → cart → home. */
const TOUR: MobileAction[] = [
  { action: 'open', text: 'Foodie' },
  { action: 'click', coordinate: [206, 360] },
  { action: 'swipe', coordinate: [206, 700], coordinate2: [206, 300] },
  { action: 'system_button', button: 'Back' },
  { action: 'click', coordinate: [150, 121] },
  { action: 'type', text: 'pizza' },
  { action: 'key', text: 'KEYCODE_ENTER' },
  { action: 'click', coordinate: [206, 883] },
  { action: 'click', coordinate: [68, 883] },
  { action: 'system_button', button: 'Home' },
];

interface Sample {
  totalMs: number;
  actionMs: number;
  settleMs: number;
  bytes: number;
}

const pct = (xs: readonly number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))]!;
};
const f0 = (v: number): string => v.toFixed(0);
const mb = (kb: number): string => `${(kb / 1024).toFixed(1)} MB`;

const errors: string[] = [];

/** Runs `steps` tour steps; a failed step is recorded (not timed) and ends the tour when the session is gone. */
async function tour(session: ChromiumSession, steps: number, out: Sample[]): Promise<void> {
  await session.reset({ app: 'food', seed: 1 });
  for (let i = 0; i < steps; i++) {
    const action = TOUR[i % TOUR.length]!;
    const t0 = performance.now();
    let r;
    try {
      r = await session.step(action);
    } catch (err) {
      errors.push(`${action.action}: ${(err as Error).message}`);
      if ((err as { recoverable?: boolean }).recoverable === false) return;
      continue;
    }
    const totalMs = performance.now() - t0;
    out.push({ totalMs, actionMs: r.metrics?.actionMs ?? 0, settleMs: r.metrics?.settleMs ?? 0, bytes: r.metrics?.screenshotBytes ?? 0 });
  }
}

function summary(samples: readonly Sample[]): string {
  const tot = samples.map((s) => s.totalMs);
  const observe = samples.map((s) => s.totalMs - s.actionMs - s.settleMs);
  return (
    `n=${samples.length} p50=${f0(pct(tot, 0.5))} ms p95=${f0(pct(tot, 0.95))} ms | ` +
    `action p50=${f0(pct(samples.map((s) => s.actionMs), 0.5))} settle p50=${f0(pct(samples.map((s) => s.settleMs), 0.5))} ` +
    `observe p50=${f0(pct(observe, 0.5))} ms | screenshot p50=${(pct(samples.map((s) => s.bytes), 0.5) / 1024).toFixed(0)} KiB`
  );
}

/** Every descendant of `root` (and root), from /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(e));
      children.set(ppid, list);
    } catch {
      // exited
    }
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    out.push(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** Summed RSS and PSS (kB) of a process tree. */
function treeMemory(root: number): { rssKb: number; pssKb: number; processes: number } {
  let rssKb = 0;
  let pssKb = 0;
  const pids = processTree(root);
  for (const pid of pids) {
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      rssKb += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      pssKb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      try {
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        rssKb += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      } catch {
        // exited
      }
    }
  }
  return { rssKb, pssKb, processes: pids.length };
}

async function withEnv<T>(server: AppServer, opts: Partial<ChromiumEnvOptions>, fn: (env: Awaited<ReturnType<typeof createChromiumEnv>>) => Promise<T>): Promise<T> {
  const env = await createChromiumEnv({ appServer: server, blobs: new MemoryBlobStore(), ...opts });
  try {
    return await fn(env);
  } finally {
    await env.close();
  }
}

async function main(): Promise<void> {
  const server = await startAppServer();
  console.log(`env-farm: ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, load average at start ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  // 1. Step latency, one session, default configuration, then variants.
  if (SECTIONS.has(1)) {
    console.log(`\n1. step latency (action → settled screenshot stored), fixed food tour of ${TOUR.length} actions`);
    await withEnv(server, {}, async (env) => {
      const s = await env.newSession();
      await tour(s, 10, []); // warm-up
      const samples: Sample[] = [];
      await tour(s, STEPS, samples);
      console.log(`   default (PNG, UI tree):  ${summary(samples)}`);
      const byAction = new Map<string, number[]>();
      samples.forEach((x, i) => {
        const name = TOUR[i % TOUR.length]!.action;
        byAction.set(name, [...(byAction.get(name) ?? []), x.totalMs]);
      });
      console.log(`   per action p50: ${[...byAction].map(([k, v]) => `${k}=${f0(pct(v, 0.5))}`).join(' ')} ms`);
    });
    const variants: [string, Partial<ChromiumEnvOptions>][] = [
      // The settle window before the pending-timer signal existed: shows what the shorter window saves.
      ['quiet 50 ms (old)', { quietMs: 50 }],
      // Outbound network refused by intercepting every request (before: a round trip to Node per page load).
      ['route interception', { outboundBlock: 'route' }],
      ['JPEG screenshots', { screenshotFormat: 'jpeg' }],
      ['no UI tree', { uiTree: false }],
      ['JPEG, no UI tree', { screenshotFormat: 'jpeg', uiTree: false }],
    ];
    for (const [name, opts] of variants) {
      await withEnv(server, opts, async (env) => {
        const s = await env.newSession();
        await tour(s, 10, []);
        const samples: Sample[] = [];
        await tour(s, VARIANT_STEPS, samples);
        console.log(`   ${`${name}:`.padEnd(24)} ${summary(samples)}`);
      });
    }
  }

  // 2. Memory per session.
  if (SECTIONS.has(2)) {
    console.log(`\n2. memory per session (${MEM_SESSIONS} sessions on the food app)`);
    await withEnv(server, {}, async (env) => {
      const pid = env.browserPid();
      if (pid === undefined) {
        console.log('   browser pid unknown (not Linux?): skipped');
        return;
      }
      const warm = await env.newSession(); // the first page starts shared processes (network service, zygote use)
      await warm.reset({ app: 'food', seed: 1 });
      await warm.step({ action: 'open', text: 'Foodie' });
      const before = treeMemory(pid);
      const sessions: ChromiumSession[] = [];
      for (let i = 0; i < MEM_SESSIONS; i++) {
        const s = await env.newSession();
        await s.reset({ app: 'food', seed: i + 1 });
        await s.step({ action: 'open', text: 'Foodie' });
        await s.step({ action: 'click', coordinate: [206, 360] });
        sessions.push(s);
      }
      const after = treeMemory(pid);
      console.log(
        `   browser tree with 1 warm session: RSS ${mb(before.rssKb)}, PSS ${mb(before.pssKb)} (${before.processes} processes); ` +
          `with ${MEM_SESSIONS} more: RSS ${mb(after.rssKb)}, PSS ${mb(after.pssKb)} (${after.processes} processes)`,
      );
      console.log(
        `   per session: RSS +${mb((after.rssKb - before.rssKb) / MEM_SESSIONS)}, PSS +${mb((after.pssKb - before.pssKb) / MEM_SESSIONS)} ` +
          `(PSS splits shared pages; RSS counts them in every renderer) — goal ≤ 100 MB`,
      );
    });

  }

  // 3. Ramp.
  if (SECTIONS.has(3)) {
    console.log(`\n3. parallel sessions (${LEVEL_STEPS} tour steps each per level; sustainable = p95 < ${P95_LIMIT_MS} ms)`);
    let sustainable = 0;
    await withEnv(server, {}, async (env) => {
      for (const level of LEVELS) {
        const sessions = await Promise.all(Array.from({ length: level }, () => env.newSession()));
        await Promise.all(sessions.map((s) => tour(s, 3, [])));
        const samples: Sample[] = [];
        const t0 = performance.now();
        await Promise.all(sessions.map((s) => tour(s, LEVEL_STEPS, samples)));
        const wall = (performance.now() - t0) / 1000;
        const tot = samples.map((s) => s.totalMs);
        const p95 = pct(tot, 0.95);
        if (p95 < P95_LIMIT_MS) sustainable = level;
        console.log(
          `   ${String(level).padStart(2)} sessions: ${(samples.length / wall).toFixed(1)} steps/s aggregate, p50=${f0(pct(tot, 0.5))} ms p95=${f0(p95)} ms ` +
            `(load ${os.loadavg()[0]?.toFixed(1)})`,
        );
        await Promise.all(sessions.map((s) => s.close()));
      }
    });
    console.log(`   sustainable on this machine: ${sustainable} session(s) with p95 < ${P95_LIMIT_MS} ms`);
    }
    console.log(`\nstep errors: ${errors.length}${errors.length ? ` (${[...new Set(errors)].slice(0, 3).join('; ')})` : ''}; fast-capture fallbacks: ${fastCaptureFallbacks}`);
    console.log(`load average at end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (other work on the machine skews all timings)`);
    await server.close();
  }

  await main();
