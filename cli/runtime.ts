import { createDemonstrationLibrary } from '../environments/demonstrations/library.js';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import {
  DefaultLogger,
  NativeConnection,
  Runtime as TemporalRuntime,
  Worker,
  bundleWorkflowCode,
  type ActivityInterceptorsFactory,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import type { Pool } from 'pg';
import { ROLES, type Role } from '../domain/config.js';
import type { BlobStore, ChatModel } from '../domain/ports.js';
import { createActivities, type GroundTruthSession } from '../activities/index.js';
import { EnvPool } from '../environments/pool.js';
import { loadDags } from '../environments/app-world.js';
import { startAppServer } from '../environments/app-server.js';
import { createChromiumEnv } from '../environments/chromium.js';
import { loadDesktopDags } from '../environments/desktop/apps/index.js';
import { createDesktopEnv } from '../environments/desktop/session.js';
import { createChatModel } from '../models/gateway.js';
import { meterActivities } from '../activities/usage.js';
import { blobOcrStore, createOcrEngine } from '../models/ocr.js';
import { startReferenceServer } from '../models/reference/server.js';
import { policyHandler, referenceRoles } from '../models/reference/roles.js';
import type { RoleHandler } from '../models/reference/types.js';
import { REF_POLICY_MODEL } from '../models/reference/trainer.js';
import { readPolicyMemory } from '../models/trainers/reference.js';
import { getModel } from '../storage/registry-repo.js';
import type { OcrEngine } from '../domain/ports.js';
import { loadLatestPolicyMemory } from './train.js';
import { startObservability } from './observability.js';
import { taskQueueBacklog } from './task-queue-backlog.js';
import { funnelCounts } from '../storage/report-repo.js';
import { createBlobStore } from '../storage/blob.js';
import { createPool } from '../storage/db.js';
import { migrate } from '../storage/migrate.js';
import { queueNames } from '../workflows/contracts.js';
import type { AppConfig } from './config.js';
import { startEmbeddedPostgres } from './services/postgres.js';
import { ensureTemporalCli, startTemporalDevServer } from './services/temporal.js';

/** Version of the built-in reference policy; the reference trainer bumps it when it learns. */
export const REFERENCE_POLICY_VERSION = '0.1.0';

export interface Runtime {
  config: AppConfig;
  db: Pool;
  databaseUrl: string;
  blobs: BlobStore;
  temporal: { client: Client; address: string; uiUrl?: string; embedded: boolean };
  models: Record<Role, ChatModel>;
  /** Base URL of the built-in reference server when any role uses it. */
  referenceUrl?: string;
  /** Version of the built-in reference policy served: the latest trained ref-policy memory, else REFERENCE_POLICY_VERSION. */
  referencePolicyVersion?: string;
  /** The OCR engine of the reference server, shared with the critics' captioning when present. */
  ocr?: OcrEngine;
  services: string[];
  close(): Promise<void>;
}

type Closer = () => Promise<unknown>;

const bundles = new Map<string, Promise<WorkflowBundleWithSourceMap>>();
/**
 * Bundles the workflow code once per process and set of workflow interceptor modules (tracing adds one; webpack
 * takes a few seconds).
 */
export function workflowBundle(interceptorModules: readonly string[] = []): Promise<WorkflowBundleWithSourceMap> {
  const key = interceptorModules.join('\0');
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('../workflows/index.ts', import.meta.url)),
      ...(interceptorModules.length ? { workflowInterceptorModules: [...interceptorModules] } : {}),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} } as never,
    });
    bundles.set(key, bundle);
  }
  return bundle;
}

let loggingInstalled = false;
/** Temporal's SDK logs every worker state change at INFO; keep warnings and errors only. */
function installTemporalLogging(): void {
  if (loggingInstalled) return;
  loggingInstalled = true;
  try {
    const quiet = new DefaultLogger('WARN', (entry) => {
      // Activity-only workers (env, cpu) legitimately have no workflows.
      if (entry.message.startsWith('No workflows registered')) return;
      process.stderr.write(`${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message} ${entry.meta ? JSON.stringify(entry.meta) : ''}\n`);
    });
    TemporalRuntime.install({ logger: quiet });
  } catch {
    // Already installed by the embedding program (e.g. a test harness): keep theirs.
  }
}

/**
 * The composition root: starts whatever is not configured (embedded Postgres, Temporal dev server,
 * reference model server), connects to what is, migrates, and builds the model clients.
 * Same code path for embedded and production — only the configuration differs.
 */
export async function startRuntime(config: AppConfig, log: (line: string) => void = () => {}): Promise<Runtime> {
  const closers: Closer[] = [];
  const services: string[] = [];
  const close = async (): Promise<void> => {
    for (const c of closers.reverse()) await c().catch((err: unknown) => console.error('shutdown:', err));
  };
  try {
    installTemporalLogging();
    await mkdir(config.home, { recursive: true });

    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const pg = await startEmbeddedPostgres({ dataDir: resolve(config.home, 'postgres'), ...(config.postgresPort ? { port: config.postgresPort } : {}) });
      closers.push(() => pg.stop());
      databaseUrl = pg.url;
      services.push(`postgres   embedded  ${redact(pg.url)}${pg.adopted ? '  (adopted: left running by an interrupted run)' : ''}`);
    } else services.push(`postgres   external  ${redact(databaseUrl)}`);
    const db = createPool(databaseUrl);
    closers.push(() => db.end());
    const applied = await migrate(db);
    if (applied.length) log(`migrations applied: ${applied.join(', ')}`);

    const blobs = createBlobStore(config.blob);
    services.push(`blobs      ${config.blob.kind === 'local' ? `local     ${config.blob.dir}` : `s3        s3://${config.blob.bucket}/${config.blob.prefix}`}`);

    let address = config.temporal.address;
    let uiUrl: string | undefined;
    if (!address) {
      const cli = await ensureTemporalCli({ cacheDir: config.cacheDir, ...(config.temporal.cliPath ? { explicitPath: config.temporal.cliPath } : {}) });
      const server = await startTemporalDevServer({
        cli,
        stateDir: config.home,
        ...(config.temporal.port ? { port: config.temporal.port } : {}),
        ...(config.temporal.uiPort ? { uiPort: config.temporal.uiPort } : {}),
      });
      closers.push(() => server.stop());
      address = server.address;
      uiUrl = server.uiUrl;
      services.push(`temporal   dev       ${address}  (Web UI ${uiUrl})${server.adopted ? '  (adopted: left running by an interrupted run)' : ''}`);
    } else services.push(`temporal   external  ${address}`);
    const connection = await Connection.connect({ address });
    closers.push(() => connection.close());
    const client = new Client({ connection, namespace: config.temporal.namespace });

    let referenceUrl: string | undefined;
    let ocr: OcrEngine | undefined;
    let referencePolicyVersion: string | undefined;
    const needsReference = ROLES.some((r) => !config.models[r]?.baseUrl);
    if (needsReference) {
      // OCR persists by content hash in the blob store: a retried activity or a re-judged cycle reads it back.
      ocr = await createOcrEngine({ store: blobOcrStore(blobs) });
      // The reference policy's learned part: the latest memory `trajforge train` registered (model_versions
      // ref-policy with meta.memoryKey); its version is what rollouts record. None yet: the bare heuristic, 0.1.0.
      const memory = await loadLatestPolicyMemory(db, blobs);
      referencePolicyVersion = memory?.version ?? REFERENCE_POLICY_VERSION;
      if (memory) log(`reference policy memory ${memory.version} (${memory.size} entries, trained on ${memory.provenance.datasets.join(', ')})`);
      const server = await startReferenceServer({
        host: '127.0.0.1',
        roles: referenceRoles(memory ? { memory } : {}),
        resolve: registryPolicyResolver(db, blobs),
        ocr,
        ...(config.referenceLatency ? { latency: config.referenceLatency } : {}),
      });
      closers.push(() => server.close());
      referenceUrl = server.baseUrl;
      services.push(`models     reference ${referenceUrl}`);
    }
    const models = {} as Record<Role, ChatModel>;
    for (const role of ROLES) {
      const endpoint = config.models[role]!;
      const baseUrl = endpoint.baseUrl ?? referenceUrl!;
      if (endpoint.baseUrl) services.push(`models     ${role.padEnd(9)} ${endpoint.baseUrl} (${endpoint.model})`);
      models[role] = createChatModel({ ...endpoint, baseUrl, model: endpoint.model! }, { blobs, accountAs: role });
    }

    return {
      config,
      db,
      databaseUrl,
      blobs,
      temporal: { client, address, ...(uiUrl ? { uiUrl } : {}), embedded: !config.temporal.address },
      models,
      ...(referenceUrl ? { referenceUrl } : {}),
      ...(referencePolicyVersion ? { referencePolicyVersion } : {}),
      services,
      ...(ocr ? { ocr } : {}),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export interface Workers {
  run: Promise<void>;
  /** The Prometheus endpoint of these workers (TRAJFORGE_METRICS_PORT), when on. */
  metricsUrl?: string;
  shutdown(): Promise<void>;
}

/**
 * Starts one worker per task queue in this process: `main` (workflows and bookkeeping), `env`
 * (episodes; concurrency = environment sessions) and `cpu` (critics, OCR, export), or only the `queues` asked
 * for. In production run the same queues in separate processes or on separate machines: that is how the line
 * scales out.
 */
export const QUEUE_KINDS = ['main', 'env', 'cpu'] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

export async function startWorkers(
  rt: Runtime,
  opts: { prefix?: string; queues?: readonly QueueKind[] } = {},
): Promise<Workers> {
  const prefix = opts.prefix ?? rt.config.temporal.taskQueuePrefix;
  const queues = new Set(opts.queues ?? QUEUE_KINDS);
  const closers: Closer[] = [];
  // Only a process serving the env queue runs browsers; others get a pool that is never leased from.
  let newSession: () => Promise<GroundTruthSession> = () => Promise.reject(new Error('this worker serves no env queue'));
  if (queues.has('env') || queues.has('cpu')) {
    // cpu also needs sessions: interface validation of generated queries replays them in the real app.
    const appServer = await startAppServer({});
    closers.push(() => appServer.close());
    const chromium = await createChromiumEnv({
      appServer,
      blobs: rt.blobs,
      executablePath: rt.config.chromiumPath,
      ...(rt.config.chromiumDebugPort !== undefined ? { debugPort: rt.config.chromiumDebugPort } : {}),
      // A hung browser or page is declared (and the episode ends degraded) within ~12 s: say so in the worker's log.
      onHang: (e) => console.warn(`trajforge worker: environment ${e.what}${e.sessionId ? ` of ${e.sessionId}` : ''} hung (no answer for ${(e.silentMs / 1000).toFixed(1)} s)${e.what === 'browser' ? ': killed, relaunched on the next session' : ': session broken'}`),
    });
    closers.push(() => chromium.close());
    newSession = () => chromium.newSession();
  }
  // A lease not heartbeated for 5 minutes (the episode heartbeats every step) is taken back and its session
  // replaced; sessions idle for 10 minutes are closed.
  const envPool = new EnvPool<GroundTruthSession>(rt.config.envSessions, newSession, {
    leaseTimeoutMs: 300_000,
    idleMs: 600_000,
  });
  closers.push(() => envPool.close());
  // Desktop cycles (`platform: 'desktop'`): a second pool of real desktop sessions (one Xvfb display each), started
  // on first lease only, so phone-only workers never start an X server.
  let newDesktopSession: () => Promise<GroundTruthSession> = () => Promise.reject(new Error('this worker serves no env queue'));
  if (queues.has('env')) {
    const desktopEnv = createDesktopEnv({ blobs: rt.blobs, stateDir: resolve(rt.config.home, 'desktop') });
    closers.push(() => desktopEnv.close());
    newDesktopSession = () => desktopEnv.newSession();
  }
  const desktopPool = new EnvPool<GroundTruthSession>(rt.config.envSessions, newDesktopSession, { leaseTimeoutMs: 300_000, idleMs: 600_000 });
  closers.push(() => desktopPool.close());
  const ocr = rt.ocr ?? (await createOcrEngine({ store: blobOcrStore(rt.blobs) }));

  const activities = meterActivities(rt.db, createActivities({
    db: rt.db,
    blobs: rt.blobs,
    envPool,
    models: rt.models,
    policyModel: { name: rt.models.policy.name, version: rt.referenceUrl && !rt.config.models.policy?.baseUrl ? (rt.referencePolicyVersion ?? REFERENCE_POLICY_VERSION) : 'external' },
    dags: await loadDags(),
    desktop: { envPool: desktopPool, dags: loadDesktopDags() },
    ocr,
    policyFor: registryPolicyClient(rt),
    // Recordings saved under $TRAJFORGE_HOME/demonstrations (read at every lookup: `trajforge demos record` while the
    // worker runs is picked up without a restart), then the scripted demonstrations per family.
    demonstrations: createDemonstrationLibrary({ dir: resolve(rt.config.home, 'demonstrations') }),
  }));
  const q = queueNames(prefix);
  const connection = await NativeConnection.connect({ address: rt.temporal.address });
  closers.push(() => connection.close());
  // Metrics and traces (off by default): activity interceptors, the workflow span sink, a traced bundle.
  const o11y = rt.config.observability;
  const obs = o11y.metricsPort !== undefined || o11y.traces !== 'off'
    ? await startObservability({
        ...o11y,
        home: rt.config.home,
        service: `trajforge-worker-${[...queues].join('-')}`,
        funnel: () => funnelCounts(rt.db),
        backlog: () => taskQueueBacklog(rt.temporal.client.workflowService, rt.config.temporal.namespace, [q.main, q.env, q.cpu]),
      })
    : undefined;
  if (obs) closers.push(() => obs.close());
  const common = {
    connection,
    namespace: rt.config.temporal.namespace,
    activities,
    interceptors: { activity: [keepAlive(), ...(obs?.activityInterceptors ?? [])] },
    ...(obs?.sinks ? { sinks: obs.sinks } : {}),
  };
  const workers = await Promise.all([
    ...(queues.has('main') ? [Worker.create({ ...common, taskQueue: q.main, workflowBundle: await workflowBundle(obs?.workflowInterceptorModules) })] : []),
    ...(queues.has('env') ? [Worker.create({ ...common, taskQueue: q.env, maxConcurrentActivityTaskExecutions: rt.config.envSessions })] : []),
    ...(queues.has('cpu') ? [Worker.create({ ...common, taskQueue: q.cpu, maxConcurrentActivityTaskExecutions: rt.config.cpuConcurrency })] : []),
  ]);
  const run = Promise.all(workers.map((w) => w.run())).then(() => undefined);
  return {
    run,
    ...(obs?.metricsUrl ? { metricsUrl: obs.metricsUrl } : {}),
    async shutdown() {
      for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
      await run.catch(() => undefined);
      for (const c of closers.reverse()) await c().catch(() => undefined);
    },
  };
}

/** How often `keepAlive` heartbeats a running activity; the workflows' heartbeat timeouts are 20 s. */
export const KEEPALIVE_MS = 5000;

/**
 * Heartbeats every running activity every `intervalMs` for as long as this process runs it, on top of the
 * activities' own progress heartbeats (after each step, each judged step). So Temporal's heartbeat timeout (20 s)
 * measures whether the *worker* is alive — a `kill -9`, a frozen (SIGSTOP) process or an event loop blocked for
 * longer than the timeout are all noticed within 20 s — independently of how long one step takes under load. A hung
 * page or browser inside a live worker is bounded by the environment itself (the action timeout, 10 s by default:
 * environments/chromium.ts), a hung model endpoint by the gateway's timeout.
 */
export function keepAlive(intervalMs = KEEPALIVE_MS): ActivityInterceptorsFactory {
  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const timer = setInterval(() => {
          try {
            // Details stay those of the activity's last own heartbeat (nothing reads them back today).
            ctx.heartbeat();
          } catch {
            // The activity is finishing or cancelled: nothing to keep alive.
          }
        }, intervalMs);
        try {
          return await next(input);
        } finally {
          clearInterval(timer);
        }
      },
    },
  });
}

/**
 * Serves registry versions of the reference policy by name: `ref-policy@<version>` answers with that version's
 * trained memory (model_versions meta.memoryKey), or the bare heuristic for a version without one. Memories are
 * immutable per version, so each is loaded once.
 */
function registryPolicyResolver(db: Pool, blobs: BlobStore): (model: string) => Promise<RoleHandler | undefined> {
  const cache = new Map<string, Promise<RoleHandler | undefined>>();
  return (model) => {
    const m = new RegExp(`^${REF_POLICY_MODEL}@(.+)$`).exec(model);
    if (!m) return Promise.resolve(undefined);
    let handler = cache.get(m[1]!);
    if (!handler) {
      handler = (async () => {
        const row = await getModel(db, REF_POLICY_MODEL, m[1]!);
        if (!row) return m[1] === REFERENCE_POLICY_VERSION ? policyHandler() : undefined;
        const key = row.meta.memoryKey;
        return policyHandler(typeof key === 'string' ? await readPolicyMemory(blobs, key) : undefined);
      })();
      handler.catch(() => cache.delete(m[1]!));
      cache.set(m[1]!, handler);
    }
    return handler;
  };
}

/**
 * The policy client for a registry version (`CycleConfig.policyVersion`): a version registered with an endpoint
 * (an external trainer's served checkpoint) is called there; otherwise, with the built-in reference policy,
 * `ref-policy@<version>` on the reference server.
 */
function registryPolicyClient(rt: Runtime): (version: string) => Promise<ChatModel> {
  const cache = new Map<string, ChatModel>();
  return async (version) => {
    const hit = cache.get(version);
    if (hit) return hit;
    const endpoint = rt.config.models.policy!;
    const row = await getModel(rt.db, rt.models.policy.name, version);
    let model: ChatModel;
    if (row?.endpoint) {
      const served = typeof row.meta.servedModel === 'string' ? row.meta.servedModel : rt.models.policy.name;
      model = createChatModel({ ...endpoint, baseUrl: row.endpoint, model: served }, { blobs: rt.blobs, accountAs: 'policy' });
    } else if (rt.referenceUrl && !endpoint.baseUrl) {
      model = createChatModel({ ...endpoint, baseUrl: rt.referenceUrl, model: `${REF_POLICY_MODEL}@${version}` }, { blobs: rt.blobs, accountAs: 'policy' });
    } else throw new Error(`policy ${rt.models.policy.name}@${version} has no endpoint in the model registry`);
    cache.set(version, model);
    return model;
  };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
