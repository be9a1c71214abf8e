/**
 * Environment steps/s through the whole pipeline ÷ a raw loop over the same environment, in one run.
 *
 *   npm run bench:pipeline [-- --queries 6 --raw-steps 60]
 *
 * Three measurements on the same embedded services and the same Chromium environment:
 *   raw       scripted actions straight into EnvSessions (action → settled screenshot stored), with the
 *             same number of parallel sessions the pipeline uses;
 *   agent     the GUI-Owl episode loop calling the reference policy through the gateway, no Temporal;
 *   pipeline  a full productionCycle on Temporal: rollouts, step + trajectory critics, export.
 * It prints each throughput and the ratios pipeline/raw and agent/raw.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pgLib from 'pg';
import { loadConfig } from '../cli/config.js';
import { startRuntime, startWorkers } from '../cli/runtime.js';
import { startEmbeddedPostgres } from '../cli/services/postgres.js';
import type { MobileAction } from '../domain/action.js';
import { runEpisode } from '../agents/episode.js';
import { startAppServer } from '../environments/app-server.js';
import { createChromiumEnv, type ChromiumSession } from '../environments/chromium.js';
import { loadDags } from '../environments/app-world.js';
import { generateQueries } from '../query-gen/sample.js';
import type { CycleResult } from '../workflows/contracts.js';

const { values } = parseArgs({
  options: { queries: { type: 'string', default: '6' }, 'raw-steps': { type: 'string', default: '60' }, sessions: { type: 'string', default: '2' } },
});
const QUERIES = Number(values.queries);
const RAW_STEPS = Number(values['raw-steps']);
const SESSIONS = Number(values.sessions);

/** A fixed tour of the food app touching several action types; coordinates are inside a 412×915 screen. */
const TOUR: MobileAction[] = [
  { action: 'open', text: 'Foodie' },
  { action: 'swipe', coordinate: [206, 700], coordinate2: [206, 300] },
  { action: 'swipe', coordinate: [206, 300], coordinate2: [206, 700] },
  { action: 'click', coordinate: [206, 330] },
  { action: 'system_button', button: 'Back' },
  { action: 'click', coordinate: [206, 120] },
  { action: 'type', text: 'sushi' },
  { action: 'system_button', button: 'Home' },
];

async function rawLoop(sessions: ChromiumSession[], stepsPerSession: number): Promise<{ steps: number; seconds: number; latencies: number[] }> {
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    sessions.map(async (s, i) => {
      await s.reset({ app: 'food', seed: i + 1 });
      for (let k = 0; k < stepsPerSession; k++) {
        const t = performance.now();
        await s.step(TOUR[k % TOUR.length]!);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { steps: sessions.length * stepsPerSession, seconds: (performance.now() - t0) / 1000, latencies };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

async function main(): Promise<void> {
  // Shares the embedded services of the default state directory, but writes into its own database
  // and blob directory (both removed afterwards) so the user's cycles are untouched.
  const blobDir = await mkdtemp(join(tmpdir(), 'trajforge-bench-blobs-'));
  const base = loadConfig();
  const database = `bench_${Date.now()}`;
  let databaseUrl = base.databaseUrl;
  let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  if (!databaseUrl) {
    pg = await startEmbeddedPostgres({ dataDir: join(base.home, 'postgres'), database });
    databaseUrl = pg.url;
  }
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    BLOB_DIR: blobDir,
    TRAJFORGE_ENV_SESSIONS: String(SESSIONS),
    TRAJFORGE_TASK_QUEUE_PREFIX: `bench-${Date.now()}`,
  };
  const config = loadConfig(env);
  const rt = await startRuntime(config);
  try {
    // raw
    const appServer = await startAppServer({});
    const chromium = await createChromiumEnv({ appServer, blobs: rt.blobs, executablePath: config.chromiumPath });
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => chromium.newSession()));
    await rawLoop(sessions, 3); // warm-up
    const raw = await rawLoop(sessions, Math.ceil(RAW_STEPS / SESSIONS));

    // agent loop, no Temporal, no critics
    const { queries } = generateQueries({ dags: loadDags(), count: QUERIES, seed: 4242 });
    let agentSteps = 0;
    const tAgent = performance.now();
    let next = 0;
    await Promise.all(
      sessions.map(async (session) => {
        while (next < queries.length) {
          const q = queries[next++]!;
          const r = await runEpisode({
            env: session,
            policy: rt.models.policy,
            blobs: rt.blobs,
            app: q.app,
            instruction: q.instruction,
            seed: next,
            maxSteps: config.cycle.maxSteps,
            historyImages: 1,
            temperature: 0,
          });
          agentSteps += r.steps.filter((s) => s.after).length;
        }
      }),
    );
    const agentSeconds = (performance.now() - tAgent) / 1000;
    await Promise.all(sessions.map((s) => s.close()));
    await chromium.close();
    await appServer.close();

    // full pipeline
    const workers = await startWorkers(rt);
    const tPipe = performance.now();
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${env.TRAJFORGE_TASK_QUEUE_PREFIX}-cycle-1`,
      taskQueue: `${env.TRAJFORGE_TASK_QUEUE_PREFIX}-main`,
      args: [{ cycleId: 'cycle-1', cycleNumber: 1, config: { ...config.cycle, queries: QUERIES, attempts: 1 }, taskQueuePrefix: env.TRAJFORGE_TASK_QUEUE_PREFIX }],
    });
    const result = (await handle.result()) as CycleResult;
    const pipeSeconds = (performance.now() - tPipe) / 1000;
    await workers.shutdown();
    const envSteps = await rt.db.query<{ n: string }>(`select count(*) as n from steps where rollout_id like 'cycle-1/%' and after is not null`);
    const pipeSteps = Number(envSteps.rows[0]!.n);

    const rawRate = raw.steps / raw.seconds;
    const agentRate = agentSteps / agentSeconds;
    const pipeRate = pipeSteps / pipeSeconds;
    const line = (name: string, steps: number, secs: number, rate: number): string =>
      `${name.padEnd(9)} ${String(steps).padStart(5)} env steps in ${secs.toFixed(1).padStart(6)} s = ${rate.toFixed(2).padStart(6)} steps/s`;
    console.log(`\nbench: ${SESSIONS} environment sessions, ${QUERIES} queries × 1 attempt, 2 cores`);
    console.log(line('raw', raw.steps, raw.seconds, rawRate) + `   (step latency p50 ${pct(raw.latencies, 50).toFixed(0)} ms, p95 ${pct(raw.latencies, 95).toFixed(0)} ms)`);
    console.log(line('agent', agentSteps, agentSeconds, agentRate) + '   (policy via gateway → reference server, no Temporal, no critics)');
    console.log(line('pipeline', pipeSteps, pipeSeconds, pipeRate) + `   (Temporal + critics + export; accepted ${result.counts.accepted}/${result.counts.rollouts})`);
    console.log(`ratio agent/raw    = ${(agentRate / rawRate).toFixed(3)}`);
    console.log(`ratio pipeline/raw = ${(pipeRate / rawRate).toFixed(3)}`);
    console.log(`ratio pipeline/agent = ${(pipeRate / agentRate).toFixed(3)}   (orchestration + critics overhead)`);
  } finally {
    await rt.close();
    if (pg) {
      const admin = new pgLib.Client({ connectionString: pg.adminUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${admin.escapeIdentifier(database)} with (force)`);
      await admin.end();
      await pg.stop();
    }
    await rm(blobDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
