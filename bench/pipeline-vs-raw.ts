/**
 * What orchestration costs: four arms on the same environment, parallelism and queries, in one run.
 *
 *   npm run bench:pipeline [-- --queries 30 --rounds 3 --sessions 2 --raw-steps 210 --latency off]
 *   node --cpu-prof --cpu-prof-dir /tmp/prof --import tsx bench/pipeline-vs-raw.ts …   # then bench/profile-summary.ts
 *
 *   raw            scripted tour actions straight into the sessions (action → settled screenshot stored);
 *   agent          the GUI-Owl episode loop through the gateway to the reference server; no Temporal, no Postgres;
 *   agent+critics  agent, plus the step critic and both trajectory-critic channels on every finished episode, as
 *                  the pipeline runs them (2 judgements at a time, like the cpu worker), no Temporal, no Postgres;
 *   pipeline       a full productionCycle on Temporal and Postgres: queries, rollouts, critics, calibration, export.
 *
 * Fairness: the queries are split into `rounds` chunks; every round runs every arm on the same chunk (the same
 * queries, seeds and temperature as the cycle's first attempt), the arm order rotating from round to round, and
 * every arm run starts with cold caches — its own blob directory, OCR engine, reference server and gateway
 * clients (the pipeline: a fresh runtime and fresh workers). Goal: pipeline ÷ (agent+critics) ≥ 0.90.
 * The machine's load average is printed at the start and the end.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pgLib from 'pg';
import { loadConfig, type AppConfig } from '../cli/config.js';
import { startRuntime, startWorkers } from '../cli/runtime.js';
import { startEmbeddedPostgres } from '../cli/services/postgres.js';
import type { MobileAction } from '../domain/action.js';
import { ROLES, type Role } from '../domain/config.js';
import type { Query, Step } from '../domain/entities.js';
import type { BlobStore, ChatModel, OcrEngine } from '../domain/ports.js';
import { runAgentEpisode } from '../agents/run.js';
import { toDataUrl } from '../agents/episode.js';
import { judgeStep } from '../critics/step-critic.js';
import { judgeTrajectory } from '../critics/trajectory-critic.js';
import { startAppServer } from '../environments/app-server.js';
import { createChromiumEnv, type ChromiumSession } from '../environments/chromium.js';
import { loadDags } from '../environments/app-world.js';
import { createChatModel } from '../models/gateway.js';
import { blobOcrStore, createOcrEngine } from '../models/ocr.js';
import { describeLatency, parseLatencySpec } from '../models/reference/latency.js';
import { referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';
import { generateQueryBatch } from '../query-gen/pipeline.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import type { CycleResult } from '../workflows/contracts.js';

const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '30' },
    rounds: { type: 'string', default: '3' },
    sessions: { type: 'string', default: '2' },
    'raw-steps': { type: 'string', default: '210' },
    'max-steps': { type: 'string', default: '15' },
    latency: { type: 'string', default: 'off' },
    arms: { type: 'string', default: 'raw,agent,agent+critics,pipeline' },
  },
});
const QUERIES = Number(values.queries);
const ROUNDS = Math.max(1, Number(values.rounds));
const SESSIONS = Number(values.sessions);
const RAW_STEPS = Number(values['raw-steps']);
const MAX_STEPS = Number(values['max-steps']);
const LATENCY = parseLatencySpec(values.latency);
const ARMS = values.arms.split(',') as Arm[];
type Arm = 'raw' | 'agent' | 'agent+critics' | 'pipeline';
/** The cpu worker runs 2 activities at a time (cli/runtime.ts); the in-process critics arm does the same. */
const JUDGE_CONCURRENCY = 2;

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

interface ArmRun {
  steps: number;
  seconds: number;
  latencies: number[];
  note?: string;
}

const pct = (xs: readonly number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};
const load = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');

/** Cold model stack for one arm run: blob dir, OCR engine (+ its blob-store cache), reference server, gateway clients. */
async function modelStack(config: AppConfig): Promise<{ blobs: BlobStore; ocr: OcrEngine; models: Record<Role, ChatModel>; close(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'trajforge-bench-arm-'));
  const blobs = createLocalBlobStore(dir);
  const ocr = await createOcrEngine({ store: blobOcrStore(blobs) });
  const server = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr, ...(LATENCY ? { latency: LATENCY } : {}) });
  const models = {} as Record<Role, ChatModel>;
  for (const role of ROLES) {
    const endpoint = config.models[role]!;
    models[role] = createChatModel({ ...endpoint, baseUrl: server.baseUrl, model: endpoint.model! }, { blobs, accountAs: role });
  }
  return {
    blobs,
    ocr,
    models,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function rawArm(sessions: ChromiumSession[], steps: number): Promise<ArmRun> {
  const latencies: number[] = [];
  const per = Math.ceil(steps / sessions.length);
  await Promise.all(sessions.map((s, i) => s.reset({ app: 'food', seed: i + 1 })));
  const t0 = performance.now();
  await Promise.all(
    sessions.map(async (s) => {
      for (let k = 0; k < per; k++) {
        const t = performance.now();
        await s.step(TOUR[k % TOUR.length]!);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { steps: sessions.length * per, seconds: (performance.now() - t0) / 1000, latencies };
}

/** The seed runEpisode (activities/rollout.ts) derives from the rollout id. */
const seedOf = (rolloutId: string): number => (parseInt(createHash('sha256').update(rolloutId).digest('hex').slice(0, 8), 16) % 1_000_000) + 1;

/** The critics exactly as activities/judge.ts runs them, minus Postgres: step critic per step, then both channels. */
async function judgeInMemory(stack: Awaited<ReturnType<typeof modelStack>>, config: AppConfig, query: Query, steps: Step[], outcome?: string): Promise<boolean> {
  const summaries: string[] = [];
  const stepSummaries = new Map<number, string>();
  for (const step of steps) {
    if (!step.action) {
      summaries.push('(invalid action)');
      continue;
    }
    const before = await stack.blobs.get(step.before.screenshotKey);
    const after = await stack.blobs.get((step.after ?? step.before).screenshotKey);
    const r = await judgeStep(stack.models.stepCritic, { instruction: query.instruction, history: [...summaries], action: step.action, before, after });
    const summary = 'verdict' in r ? r.verdict.summary : 'The critic reply could not be parsed.';
    summaries.push(summary);
    stepSummaries.set(step.index, summary);
  }
  const screens = [steps[0]?.before, ...steps.map((s) => s.after)].filter((o) => o !== undefined);
  const keys = [...new Set(screens.map((o) => o.screenshotKey))];
  const captions: string[] = [];
  for (const key of keys) captions.push((await stack.ocr.recognize(await stack.blobs.get(key))).map((l) => l.text).join(' | '));
  const picked = keys.length <= 6 ? keys : Array.from({ length: 6 }, (_, i) => keys[Math.round((i * (keys.length - 1)) / 5)]!);
  const c = config.cycle.critic;
  const result = await judgeTrajectory(
    { text: stack.models.trajCriticText, multimodal: stack.models.trajCriticMultimodal },
    {
      instruction: query.instruction,
      steps: steps.map((s) => ({ summary: stepSummaries.get(s.index) ?? s.conclusion, actionText: s.action ? JSON.stringify(s.action) : `(invalid: ${s.error?.kind ?? 'unknown'})` })),
      captions,
      screenshots: await Promise.all(picked.map((k) => toDataUrl(stack.blobs, k))),
      ...(outcome !== undefined ? { outcome } : {}),
    },
    { votes: c.votes, voteRule: c.voteRule, consensus: c.consensus },
  );
  return result.correct;
}

/** Episodes on the sessions (one per session at a time); with `critics`, each finished episode is judged meanwhile. */
async function agentArm(config: AppConfig, sessions: ChromiumSession[], queries: Query[], cycleId: string, critics: boolean, useBlobs: (b: BlobStore) => void): Promise<ArmRun> {
  const stack = await modelStack(config);
  useBlobs(stack.blobs);
  try {
    let steps = 0;
    let accepted = 0;
    const statuses = new Map<string, number>();
    const judgements: Promise<void>[] = [];
    let judging = 0;
    const waiters: (() => void)[] = [];
    const judge = async (q: Query, s: Step[], outcome?: string): Promise<void> => {
      while (judging >= JUDGE_CONCURRENCY) await new Promise<void>((r) => waiters.push(r));
      judging++;
      try {
        if (await judgeInMemory(stack, config, q, s, outcome)) accepted++;
      } finally {
        judging--;
        waiters.shift()?.();
      }
    };
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      sessions.map(async (env) => {
        while (next < queries.length) {
          const q = queries[next++]!;
          const r = await runAgentEpisode('gui-owl', {
            env,
            models: stack.models,
            blobs: stack.blobs,
            app: q.app,
            instruction: q.instruction,
            seed: seedOf(`${cycleId}/${q.id}/a0`),
            maxSteps: MAX_STEPS,
            historyImages: config.cycle.historyImages,
            temperature: 0,
          });
          steps += r.steps.filter((s) => s.after).length;
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (critics && r.status !== 'degraded') judgements.push(judge(q, r.steps, r.outcome));
        }
      }),
    );
    await Promise.all(judgements);
    const ended = [...statuses].map(([k, v]) => `${k} ${v}`).join(', ');
    return { steps, seconds: (performance.now() - t0) / 1000, latencies: [], note: critics ? `accepted ${accepted}/${queries.length}; ${ended}` : ended };
  } finally {
    await stack.close();
  }
}

async function pipelineArm(base: AppConfig, databaseUrl: string, temporalAddress: string, db: pgLib.Pool, cycleNumber: number, queries: number): Promise<ArmRun & { queryIds: string[] }> {
  const blobDir = await mkdtemp(join(tmpdir(), 'trajforge-bench-pipe-'));
  const prefix = `bench-${Date.now().toString(36)}-${cycleNumber}`;
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    BLOB_DIR: blobDir,
    TRAJFORGE_ENV_SESSIONS: String(SESSIONS),
    TRAJFORGE_TASK_QUEUE_PREFIX: prefix,
    ...(values.latency !== 'off' ? { TRAJFORGE_REFERENCE_LATENCY: values.latency } : {}),
  });
  const rt = await startRuntime(config);
  const workers = await startWorkers(rt, { prefix });
  try {
    const cycleId = `cycle-${cycleNumber}`;
    const t0 = performance.now();
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-${cycleId}`,
      taskQueue: `${prefix}-main`,
      args: [{ cycleId, cycleNumber, config: { ...base.cycle, queries, attempts: 1, maxSteps: MAX_STEPS, concurrency: SESSIONS }, taskQueuePrefix: prefix }],
    });
    const result = (await handle.result()) as CycleResult;
    const seconds = (performance.now() - t0) / 1000;
    const gen = await rt.temporal.client.workflow.getHandle(`${cycleId}/generate-queries`).describe();
    const genSeconds = gen.closeTime && gen.startTime ? (gen.closeTime.getTime() - gen.startTime.getTime()) / 1000 : 0;
    const n = await db.query<{ n: string }>(`select count(*) as n from steps where rollout_id like $1 and after is not null`, [`${cycleId}/%`]);
    const ids = await db.query<{ query_id: string }>(`select query_id from cycle_queries where cycle_id = $1 order by query_id`, [cycleId]);
    return {
      steps: Number(n.rows[0]!.n),
      seconds,
      latencies: [],
      note: `accepted ${result.counts.accepted}/${result.counts.rollouts}; query generation ${genSeconds.toFixed(1)} s of it`,
      queryIds: ids.rows.map((r) => r.query_id),
    };
  } finally {
    await workers.shutdown();
    await rt.close();
    await rm(blobDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const loadStart = load();
  const base = loadConfig();
  const database = `bench_${Date.now()}`;
  let databaseUrl = base.databaseUrl;
  let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  if (!databaseUrl) {
    pg = await startEmbeddedPostgres({ dataDir: join(base.home, 'postgres'), database, ...(base.postgresPort ? { port: base.postgresPort } : {}) });
    databaseUrl = pg.url;
  }
  // One runtime owns the services (and the embedded Temporal dev server when none is configured); every arm run
  // builds its own cold models and blob directory against them.
  const svcBlobs = await mkdtemp(join(tmpdir(), 'trajforge-bench-svc-'));
  const services = await startRuntime(loadConfig({ ...process.env, DATABASE_URL: databaseUrl, BLOB_DIR: svcBlobs }));
  const totals = new Map<Arm, { steps: number; seconds: number; latencies: number[]; notes: string[] }>(ARMS.map((a) => [a, { steps: 0, seconds: 0, latencies: [], notes: [] }]));
  try {
    const appServer = await startAppServer({});
    const envStack = await mkdtemp(join(tmpdir(), 'trajforge-bench-env-'));
    // The sessions write screenshots where the running arm reads them: a store that forwards to the arm's own.
    const rawBlobs = createLocalBlobStore(envStack);
    let armBlobs: BlobStore = rawBlobs;
    const forwarding = new Proxy({} as BlobStore, {
      get: (_t, prop) => {
        const v = (armBlobs as unknown as Record<string | symbol, unknown>)[prop];
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(armBlobs) : v;
      },
    });
    const chromium = await createChromiumEnv({ appServer, blobs: forwarding, executablePath: base.chromiumPath });
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => chromium.newSession()));
    await rawArm(sessions, SESSIONS * 3); // browser warm-up, not counted
    const dags = loadDags();
    const perRound = Math.ceil(QUERIES / ROUNDS);
    for (let round = 1; round <= ROUNDS; round++) {
      const count = Math.min(perRound, QUERIES - perRound * (round - 1));
      if (count <= 0) break;
      const cycleId = `cycle-${round}`;
      // The same queries the cycle's generateQueries activity draws (activities/queries.ts: seed × 100 003 + cycle number).
      const qStack = await modelStack(base);
      const { queries } = await generateQueryBatch({
        dags,
        count,
        seed: base.cycle.seed * 100_003 + round,
        sampler: base.cycle.querySampler,
        models: { synth: qStack.models.querySynth, refine: qStack.models.queryRefine },
        apps: base.cycle.apps,
        infeasibleRate: base.cycle.infeasibleRate,
      });
      await qStack.close();
      const order = ARMS.map((_, i) => ARMS[(i + round - 1) % ARMS.length]!);
      for (const arm of order) {
        let run: ArmRun;
        armBlobs = rawBlobs;
        const useBlobs = (b: BlobStore): void => {
          armBlobs = b;
        };
        if (arm === 'raw') run = await rawArm(sessions, Math.ceil(RAW_STEPS / ROUNDS));
        else if (arm === 'agent') run = await agentArm(base, sessions, queries, cycleId, false, useBlobs);
        else if (arm === 'agent+critics') run = await agentArm(base, sessions, queries, cycleId, true, useBlobs);
        else {
          const p = await pipelineArm(base, databaseUrl, services.temporal.address, services.db, round, count);
          const same = p.queryIds.join() === queries.map((q) => q.id).sort().join();
          run = { ...p, note: `${p.note}${same ? '' : '; WARNING: the cycle drew other queries than the arms'}` };
        }
        const t = totals.get(arm)!;
        t.steps += run.steps;
        t.seconds += run.seconds;
        t.latencies.push(...run.latencies);
        if (run.note) t.notes.push(run.note);
        console.log(`round ${round} ${arm.padEnd(13)} ${String(run.steps).padStart(4)} steps ${run.seconds.toFixed(1).padStart(6)} s  ${(run.steps / run.seconds).toFixed(2)} steps/s${run.note ? `  (${run.note})` : ''}  load ${load()}`);
      }
    }
    await chromium.close();
    await appServer.close();
    await rm(envStack, { recursive: true, force: true });

    const rate = (a: Arm): number => {
      const t = totals.get(a);
      return t ? t.steps / t.seconds : NaN;
    };
    console.log(`\nbench: ${SESSIONS} environment sessions, ${QUERIES} queries × 1 attempt in ${ROUNDS} interleaved rounds, ≤${MAX_STEPS} steps, ${os.cpus().length} cores, model latency ${describeLatency(LATENCY)}`);
    console.log(`load average at start ${loadStart}, at end ${load()}`);
    console.log('| arm | env steps | seconds | steps/s | notes |');
    console.log('|---|---|---|---|---|');
    for (const [arm, t] of totals) {
      const extra = arm === 'raw' ? `step p50 ${pct(t.latencies, 50).toFixed(0)} ms, p95 ${pct(t.latencies, 95).toFixed(0)} ms` : t.notes.join('; ');
      console.log(`| ${arm} | ${t.steps} | ${t.seconds.toFixed(1)} | ${rate(arm).toFixed(2)} | ${extra} |`);
    }
    const ratio = (a: Arm, b: Arm): string => (totals.has(a) && totals.has(b) ? (rate(a) / rate(b)).toFixed(3) : 'n/a');
    console.log(`\nagent/raw              = ${ratio('agent', 'raw')}`);
    console.log(`(agent+critics)/agent  = ${ratio('agent+critics', 'agent')}   (what judging costs)`);
    console.log(`pipeline/(agent+critics) = ${ratio('pipeline', 'agent+critics')}   (orchestration, storage, export; goal ≥ 0.90)`);
    console.log(`pipeline/raw           = ${ratio('pipeline', 'raw')}`);
  } finally {
    await services.close();
    await rm(svcBlobs, { recursive: true, force: true });
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
