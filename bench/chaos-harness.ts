/**
 * The chaos harness behind `bench/chaos.ts` and `test/chaos/chaos.test.ts`: one production cycle on services of its
 * own — embedded Postgres, a Temporal dev server (SQLite file), versitygw behind a fault proxy, the reference model
 * server behind a fault proxy — with the `main`, `env` and `cpu` queues in three `trajforge worker --queues …`
 * processes kept up by a supervisor, while a seeded fault injector, bounded in count and in time, kills and restarts
 * things at random points. Afterwards it reads everything the cycle wrote (rows, blobs, the exported dataset) so a run
 * can be checked on its own and compared with a fault-free run of the same seed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, readdirSync, readFileSync, type WriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import { REPO_ROOT } from '../cli/config.js';
import { cacheDir as defaultCacheDir } from '../cli/services/paths.js';
import { startEmbeddedPostgres, stopEmbeddedPostgres } from '../cli/services/postgres.js';
import { freePort, startS3Server, type S3ServerHandle } from '../cli/services/s3-server.js';
import { ensureTemporalCli, startTemporalDevServer, stopTemporalDevServer } from '../cli/services/temporal.js';
import { readOwner } from '../cli/services/ownership.js';
import type { BlobStore } from '../domain/ports.js';
import { createOcrEngine } from '../models/ocr.js';
import { referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer, type ReferenceServer } from '../models/reference/server.js';
import { createS3BlobStore } from '../storage/blob-s3.js';
import { createPool, type Pool } from '../storage/db.js';
import type { CycleResult } from '../workflows/contracts.js';
import { mulberry32 } from '../domain/random.js';
import { makePageRestless } from './page-faults.js';

// ---------------------------------------------------------------------------------------------------------------
// Seeded randomness

/** The injector's choices are a function of the seed and the order of events (mulberry32, domain/random.ts). */
export const rng = mulberry32;

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------------
// Fault proxy (HTTP): in front of the S3 server and of the model endpoint

export type HttpFaultKind = 'http500' | 'http503' | 'slow' | 'reset' | 'http429' | 'hang' | 'truncated';

export interface FaultProxy {
  url: string;
  /** Faults injected so far, per kind. */
  injected: Map<HttpFaultKind, number>;
  /** Per faulted request: ms until the next request through this proxy succeeded. */
  recoveries: Map<HttpFaultKind, number[]>;
  requests: number;
  /** Writes (PUT) the upstream answered, by outcome; `lastOkAt`: when one last succeeded (ms). */
  writes: { ok: number; failed: number; lastOkAt: number; lastFailure: string };
  /** Turns injection on (with this rate) or off (0). */
  setRate(rate: number): void;
  /** While on, every write (PUT) is answered 507 Insufficient Storage (a full disk, simulated). */
  refuseWrites(on: boolean): void;
  close(): Promise<void>;
}

/**
 * A small reverse proxy that forwards every request unchanged (the Host header too, so S3 signatures still verify) and,
 * for a seeded `rate` of requests, injects one of `kinds` instead: an error status (500/503, 429 with Retry-After), a
 * slow answer (1–3 s, then forwarded), a connection reset, a hang (no answer until the client gives up), or a 200 whose
 * JSON body is cut in half. At most `maxFaults` faults in all.
 */
export async function startFaultProxy(opts: { target: string; seed: number; kinds: HttpFaultKind[]; maxFaults?: number; style: 's3' | 'json' }): Promise<FaultProxy> {
  const random = rng(opts.seed);
  const target = new URL(opts.target);
  const injected = new Map<HttpFaultKind, number>();
  const recoveries = new Map<HttpFaultKind, number[]>();
  const pending: { kind: HttpFaultKind; at: number }[] = [];
  const maxFaults = opts.maxFaults ?? Infinity;
  let rate = 0;
  let total = 0;
  let requests = 0;
  const writes = { ok: 0, failed: 0, lastOkAt: 0, lastFailure: '' };
  let refusing = false;
  const sockets = new Set<Socket>();

  const errorBody = (status: number): { body: string; type: string } =>
    opts.style === 's3'
      ? {
          body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${status === 503 ? 'SlowDown' : 'InternalError'}</Code><Message>injected fault</Message></Error>`,
          type: 'application/xml',
        }
      : { body: JSON.stringify({ error: { message: `injected fault (HTTP ${status})`, type: 'server_error' } }), type: 'application/json' };

  const succeeded = (): void => {
    const now = Date.now();
    for (const p of pending.splice(0)) {
      if (!recoveries.has(p.kind)) recoveries.set(p.kind, []);
      recoveries.get(p.kind)!.push(now - p.at);
    }
  };

  const forward = (req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const out = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        requests++;
        const body = Buffer.concat(chunks);
        if (refusing && req.method === 'PUT') {
          writes.failed++;
          writes.lastFailure = 'HTTP 507 XMinioStorageFull (simulated)';
          res.writeHead(507, { 'content-type': 'application/xml' }).end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>XMinioStorageFull</Code><Message>Storage backend has reached its minimum free drive threshold.</Message></Error>',
          );
          return;
        }
        let kind: HttpFaultKind | undefined;
        if (rate > 0 && total < maxFaults && random() < rate) kind = opts.kinds[Math.floor(random() * opts.kinds.length)]!;
        if (kind) {
          total++;
          injected.set(kind, (injected.get(kind) ?? 0) + 1);
          pending.push({ kind, at: Date.now() });
        }
        try {
          switch (kind) {
            case 'http500':
            case 'http503':
            case 'http429': {
              const status = kind === 'http500' ? 500 : kind === 'http503' ? 503 : 429;
              const e = errorBody(status);
              res.writeHead(status, { 'content-type': e.type, ...(kind === 'http429' ? { 'retry-after': '1' } : {}) }).end(e.body);
              return;
            }
            case 'reset':
              req.socket.destroy();
              return;
            case 'hang':
              // Never answer: the client's timeout must fire. The socket is destroyed when the client gives up.
              return;
            case 'slow':
              await delay(1000 + Math.floor(random() * 2000));
              break;
            default:
              break;
          }
          const up = await forward(req, body);
          if (kind === 'truncated' && up.status === 200) {
            const cut = up.body.subarray(0, Math.floor(up.body.length / 2));
            const headers = { ...up.headers, 'content-length': String(cut.length) };
            res.writeHead(200, headers).end(cut);
            return;
          }
          if (up.status < 500 && up.status !== 429) succeeded();
          if (req.method === 'PUT' && !kind) {
            if (up.status < 300) {
              writes.ok++;
              writes.lastOkAt = Date.now();
            } else if (up.status >= 500) {
              writes.failed++;
              writes.lastFailure = `HTTP ${up.status} ${/<Code>([^<]*)<\/Code>/.exec(up.body.toString('utf8'))?.[1] ?? ''}`.trim();
            }
          }
          res.writeHead(up.status, up.headers).end(up.body);
        } catch {
          // The upstream is down (a restart): answer like a dead server would.
          if (!res.headersSent) res.writeHead(502).end();
        }
      })();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${addr.port}`,
    injected,
    recoveries,
    writes,
    get requests() {
      return requests;
    },
    setRate(r) {
      rate = r;
    },
    refuseWrites(on) {
      refusing = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Processes

/** Pids of every descendant of `root` (from /proc). */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(Number(e));
    } catch {
      // Gone while we looked.
    }
  }
  const out: number[] = [];
  const walk = (p: number): void => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** The Chromium browser processes (not renderers) a worker launched. */
export function browsersOf(workerPid: number): number[] {
  return descendants(workerPid).filter((p) => {
    const args = cmdline(p);
    return args.some((a) => a.startsWith('--trajforge-browser=')) && !args.some((a) => a.startsWith('--type='));
  });
}

/**
 * A small tmpfs mounted at `dir` (root only; undefined when the mount is refused), with a full-disk fault: `fill()`
 * writes a filler file until ENOSPC and returns its size; `free()` deletes it.
 */
export async function mountTmpfs(dir: string, sizeMb: number): Promise<{ fill(): Promise<number>; free(): Promise<void>; unmount(): Promise<void> } | undefined> {
  const run = (cmd: string, args: string[]): Promise<number> =>
    new Promise((resolve) => {
      const p = spawn(cmd, args, { stdio: 'ignore' });
      p.on('error', () => resolve(-1));
      p.on('exit', (code) => resolve(code ?? -1));
    });
  if (typeof process.getuid === 'function' && process.getuid() !== 0) return undefined;
  if ((await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0755`, 'tmpfs', dir])) !== 0) return undefined;
  const filler = path.join(dir, '.chaos-disk-filler');
  return {
    async fill() {
      const chunk = Buffer.alloc(1 << 20, 0x5a);
      const fh = await fs.open(filler, 'a');
      let written = 0;
      try {
        for (;;) {
          await fh.write(chunk);
          written += chunk.length;
        }
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        await fh.close().catch(() => undefined);
      }
      return written;
    },
    free: () => fs.rm(filler, { force: true }),
    async unmount() {
      // The S3 server is stopped by now; a busy mount is retried lazily.
      if ((await run('umount', [dir])) !== 0) await run('umount', ['-l', dir]);
    },
  };
}

const signalQuietly = (pid: number, sig: NodeJS.Signals): void => {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
};

/**
 * Keeps one `trajforge worker --queues <queue>` process running: a process that exits (killed, crashed) is started
 * again at once. Each process runs in its own process group so a kill takes its Chromium with it.
 */
export class Supervisor {
  proc: ChildProcess | undefined;
  starts = 0;
  private stopping = false;
  private readyWaiters: (() => void)[] = [];
  private ready = false;
  private readonly log: WriteStream;
  /** Output of the current process (for the injector's detectors). */
  output = '';
  /** When the worker reported its environment watchdog declaring a browser or page hung (ms, any process). */
  readonly hangReports: number[] = [];

  constructor(
    readonly queue: string,
    private readonly env: NodeJS.ProcessEnv,
    logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' });
  }

  start(): void {
    if (this.stopping) return;
    this.starts++;
    this.ready = false;
    this.output = '';
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'cli/main.ts'), 'worker', '--queues', this.queue], {
      cwd: REPO_ROOT,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.proc = proc;
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      this.log.write(text);
      this.output = (this.output + text).slice(-20_000);
      if (/environment (browser|page).* hung \(no answer/.test(text)) this.hangReports.push(Date.now());
      if (!this.ready && this.output.includes('workers running')) {
        this.ready = true;
        for (const w of this.readyWaiters.splice(0)) w();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code, signal) => {
      this.log.write(`\n[supervisor] worker --queues ${this.queue} (pid ${proc.pid}) exited: ${code ?? signal}\n`);
      if (this.proc === proc) this.proc = undefined;
      if (!this.stopping) setTimeout(() => this.start(), 200);
    });
  }

  /** Resolves once the current (or next) process says its workers run. */
  whenReady(): Promise<void> {
    if (this.ready && this.proc) return Promise.resolve();
    return new Promise((r) => this.readyWaiters.push(r));
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** `kill -9` of the current process group; resolves with the ms until a replacement says its workers run. */
  async killHard(): Promise<number> {
    const proc = this.proc;
    if (!proc) return 0;
    const exited = new Promise<void>((r) => (proc.exitCode !== null || proc.signalCode !== null ? r() : proc.once('exit', () => r())));
    const t0 = Date.now();
    this.ready = false;
    this.signalGroup('SIGKILL');
    this.signalGroup('SIGCONT');
    await exited;
    await this.whenReady();
    return Date.now() - t0;
  }

  /** Signals the whole process group of the current process. */
  signalGroup(sig: NodeJS.Signals): boolean {
    const pid = this.proc?.pid;
    if (!pid) return false;
    try {
      process.kill(-pid, sig);
      return true;
    } catch {
      return false;
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      this.signalGroup('SIGCONT');
      this.signalGroup('SIGTERM');
      const timer = setTimeout(() => this.signalGroup('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    this.signalGroup('SIGKILL'); // leftovers of the group (a browser)
    await new Promise<void>((r) => this.log.end(() => r()));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The run

export type FaultKind =
  | 'kill -9 worker (env)'
  | 'kill -9 worker (cpu)'
  | 'kill -9 worker (main)'
  | 'temporal restart'
  | 'postgres restart'
  | 'chromium killed'
  | 'browser hung (SIGSTOP)'
  | 'worker frozen (SIGSTOP)'
  | 'page never settles'
  | 'blob disk full';

export interface ChaosPlan {
  /** kill -9 of worker processes, spread over env, cpu and main (env and cpu weigh more). */
  workerKills: number;
  temporalRestarts: number;
  postgresRestarts: number;
  chromiumKills: number;
  /** The env worker's Chromium frozen (SIGSTOP) mid-episode: the environment hangs. */
  browserHangs: number;
  /** The env worker frozen (SIGSTOP) mid-episode: no heartbeat; Temporal must notice within the heartbeat timeout. */
  workerFreezes: number;
  /** A page of an episode in flight made restless (its DOM changes every frame, forever) through the DevTools port. */
  restlessPages?: number;
  /**
   * The blob store's disk filled up (the S3 server's data directory is a small tmpfs, filled to ENOSPC) and freed
   * after `diskFullHoldMs` (default 20 s). Without a tmpfs (not root), simulated: the proxy answers writes 507.
   */
  diskFulls?: number;
  diskFullHoldMs?: number;
  /** Size of the tmpfs for the S3 data (MiB); default 512. */
  blobDiskMb?: number;
  /** Share of S3 and model requests that get a fault while the injector runs. */
  httpFaultRate: number;
  /** The injector acts from `startMs` to `windowMs` after the cycle starts, never after the cycle ended. */
  startMs: number;
  windowMs: number;
  /** Inject the worker freezes and browser hangs first (a short run may have no episode in flight later). */
  hangsFirst?: boolean;
}

export const NO_FAULTS: ChaosPlan = {
  workerKills: 0,
  temporalRestarts: 0,
  postgresRestarts: 0,
  chromiumKills: 0,
  browserHangs: 0,
  workerFreezes: 0,
  httpFaultRate: 0,
  startMs: 0,
  windowMs: 0,
};

export interface ChaosRunOptions {
  seed: number;
  queries: number;
  attempts: number;
  maxSteps: number;
  apps: string[];
  guidance: boolean;
  envSessions: number;
  plan: ChaosPlan;
  /** Scratch directory (created; removed at the end unless `keep`). */
  home: string;
  keep?: boolean;
  /** Model request timeout in the workers (the proxy's hangs last until it fires). */
  modelTimeoutMs?: number;
  /** Bound on the whole cycle. */
  cycleTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface FaultRecord {
  kind: FaultKind | `s3 ${HttpFaultKind}` | `model ${HttpFaultKind}`;
  at: number;
  /** ms until the broken part was back (worker ready, server answering), or the fault was noticed (hangs). */
  recoverMs?: number;
  /** ms from the fault until the pipeline next wrote a row. */
  progressMs?: number;
  note?: string;
}

export interface Snapshot {
  queries: string[];
  rollouts: Map<string, { status: string; degraded: boolean; steps: number; digest: string; envError: boolean; modelError: boolean; unsettled: boolean }>;
  steps: { rows: number; distinct: number; gapFree: boolean };
  /** `stepsWithout`: steps with an action and no verdict (a step without one — a model error — is not judged, by design). */
  stepVerdicts: { rows: number; distinctSteps: number; stepsWithout: number };
  /** Degraded rollouts are not judged by design (activities/judge.ts): only the others must have a consensus. */
  trajectoryVerdicts: { rows: number; consensus: number; rolloutsWithoutConsensus: string[] };
  datasets: { versions: number; items: number; distinctItems: number; lines: Map<string, string> };
  /** `corrupt`: content-addressed blobs whose bytes do not hash to their key (a torn write). */
  blobs: { objects: number; referenced: number; missing: string[]; corrupt: string[] };
}

export interface ChaosRunResult {
  completed: boolean;
  error?: string;
  elapsedMs: number;
  result?: CycleResult;
  faults: FaultRecord[];
  workerStarts: Record<string, number>;
  snapshot?: Snapshot;
  hungDetectionMs: number[];
}

interface Services {
  pgDir: string;
  pgPort: number;
  pgUrl: string;
  temporalDir: string;
  temporalPort: number;
  temporalUiPort: number;
  temporalCli: string;
  s3: S3ServerHandle;
}

async function startPostgres(s: Pick<Services, 'pgDir' | 'pgPort'>): Promise<string> {
  const pg = await startEmbeddedPostgres({ dataDir: s.pgDir, port: s.pgPort, database: 'chaos' });
  return pg.url;
}

async function startTemporal(s: Pick<Services, 'temporalCli' | 'temporalDir' | 'temporalPort' | 'temporalUiPort'>): Promise<void> {
  await startTemporalDevServer({ cli: s.temporalCli, stateDir: s.temporalDir, port: s.temporalPort, uiPort: s.temporalUiPort, keep: true });
}

async function withClient<T>(address: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address, connectTimeout: 5000 });
  try {
    return await fn(new Client({ connection }));
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Running episode activities (`runEpisode` pending in a running workflow): id → attempt. */
async function runningEpisodes(address: string): Promise<Map<string, { attempt: number; started: boolean; lastFailure: string }>> {
  return withClient(address, async (client) => {
    const out = new Map<string, { attempt: number; started: boolean; lastFailure: string }>();
    for await (const wf of client.workflow.list({ query: 'ExecutionStatus = "Running" AND WorkflowType = "rollout"' })) {
      const d = await client.workflow.getHandle(wf.workflowId).describe();
      for (const a of d.raw.pendingActivities ?? []) {
        if (a.activityType?.name !== 'runEpisode') continue;
        out.set(wf.workflowId, {
          attempt: a.attempt ?? 1,
          started: String(a.state) === '2' || String(a.state) === 'PENDING_ACTIVITY_STATE_STARTED',
          lastFailure: a.lastFailure?.message ?? '',
        });
      }
    }
    return out;
  });
}

/**
 * Runs one cycle under the plan and returns what happened and what was written. Never throws for a failed cycle
 * (that is an outcome); throws only when the harness itself cannot start.
 */
export async function runChaosCycle(opts: ChaosRunOptions): Promise<ChaosRunResult> {
  const log = opts.log ?? (() => undefined);
  const random = rng(opts.seed * 7919 + 13);
  await fs.mkdir(opts.home, { recursive: true });
  await fs.chmod(opts.home, 0o755); // as root, Postgres runs as `postgres`, which must reach its data dir
  const cache = defaultCacheDir(process.env.TRAJFORGE_CACHE);
  const cleanups: (() => Promise<void>)[] = [];
  const faults: FaultRecord[] = [];
  const hungDetectionMs: number[] = [];
  const prefix = `chaos${opts.seed}`;
  const workflowId = `${prefix}-cycle-1`;
  let pool: Pool | undefined;
  const supervisors: Supervisor[] = [];
  try {
    // Services of our own, on fixed ports so they restart where the workers look.
    const [pgPort, temporalPort, temporalUiPort] = [await freePort(), await freePort(), await freePort()];
    const temporalCli = await ensureTemporalCli({ cacheDir: cache, ...(process.env.TEMPORAL_CLI ? { explicitPath: process.env.TEMPORAL_CLI } : {}), ...(process.env.PATH ? { pathEnv: process.env.PATH } : {}) });
    const s: Services = {
      pgDir: path.join(opts.home, 'pg', 'data'),
      pgPort,
      pgUrl: '',
      temporalDir: path.join(opts.home, 'temporal'),
      temporalPort,
      temporalUiPort,
      temporalCli,
      s3: undefined as unknown as S3ServerHandle,
    };
    // The blob store's disk: a small tmpfs of its own when a full disk is planned and the machine allows a mount.
    const s3Dir = path.join(opts.home, 's3');
    await fs.mkdir(s3Dir, { recursive: true });
    const blobDisk = (opts.plan.diskFulls ?? 0) > 0 ? await mountTmpfs(s3Dir, opts.plan.blobDiskMb ?? 512) : undefined;
    if (blobDisk) {
      cleanups.push(blobDisk.unmount);
      log(`blob store disk: a ${opts.plan.blobDiskMb ?? 512} MiB tmpfs at ${s3Dir}`);
    } else if ((opts.plan.diskFulls ?? 0) > 0) log('blob store disk: no tmpfs (mount refused): a full disk is simulated by the S3 proxy (507 on writes)');
    s.s3 = await startS3Server({ cacheDir: cache, dataDir: s3Dir });
    cleanups.push(() => s.s3.stop());
    await fs.mkdir(path.join(opts.home, 'pg'), { recursive: true });
    await fs.chmod(path.join(opts.home, 'pg'), 0o755);
    s.pgUrl = await startPostgres(s);
    cleanups.push(async () => void (await stopEmbeddedPostgres(s.pgDir)));
    await startTemporal(s);
    cleanups.push(async () => void (await stopTemporalDevServer(s.temporalDir)));
    const address = `127.0.0.1:${temporalPort}`;

    const bucket = `chaos-${opts.seed}`;
    const s3Direct = (): BlobStore =>
      createS3BlobStore({
        bucket,
        prefix: '',
        endpoint: s.s3.endpoint,
        region: s.s3.region,
        forcePathStyle: true,
        credentials: { accessKeyId: s.s3.accessKeyId, secretAccessKey: s.s3.secretAccessKey },
        createBucket: true,
      });
    const direct = s3Direct();
    await direct.has('probe'); // creates the bucket
    const s3Proxy = await startFaultProxy({ target: s.s3.endpoint, seed: opts.seed * 31 + 1, kinds: ['http500', 'http503', 'slow', 'reset'], style: 's3' });
    cleanups.push(() => s3Proxy.close());

    const ocr = await createOcrEngine({});
    const reference: ReferenceServer = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
    cleanups.push(() => reference.close());
    const modelProxy = await startFaultProxy({ target: reference.baseUrl.replace(/\/v1$/, ''), seed: opts.seed * 31 + 2, kinds: ['http429', 'http500', 'hang', 'truncated'], style: 'json' });
    cleanups.push(() => modelProxy.close());

    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...(process.env.TRAJFORGE_CACHE ? { TRAJFORGE_CACHE: process.env.TRAJFORGE_CACHE } : {}),
      DATABASE_URL: s.pgUrl,
      TEMPORAL_ADDRESS: address,
      BLOB_STORE: `s3://${bucket}`,
      S3_ENDPOINT: s3Proxy.url,
      S3_REGION: s.s3.region,
      S3_ACCESS_KEY_ID: s.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s.s3.secretAccessKey,
      TRAJFORGE_TASK_QUEUE_PREFIX: prefix,
      TRAJFORGE_MODEL_BASE_URL: `${modelProxy.url}/v1`,
      TRAJFORGE_MODEL_TIMEOUT_MS: String(opts.modelTimeoutMs ?? 8000),
      TRAJFORGE_ENV_SESSIONS: String(opts.envSessions),
    };
    // The env worker's browser also listens on a DevTools port, through which page faults are injected from here.
    const debugPort = await freePort();
    for (const queue of ['main', 'env', 'cpu']) {
      const queueEnv = { ...env, TRAJFORGE_HOME: path.join(opts.home, `worker-${queue}`), ...(queue === 'env' ? { TRAJFORGE_CHROMIUM_DEBUG_PORT: String(debugPort) } : {}) };
      const sup = new Supervisor(queue, queueEnv, path.join(opts.home, `worker-${queue}.log`));
      supervisors.push(sup);
      sup.start();
    }
    cleanups.push(async () => void (await Promise.all(supervisors.map((x) => x.stop()))));
    const byQueue = (q: string): Supervisor => supervisors.find((x) => x.queue === q)!;
    await Promise.all(supervisors.map((x) => x.whenReady()));
    log(`workers ready (main, env, cpu); prefix ${prefix}`);

    pool = createPool(s.pgUrl, { max: 2 });
    const db = pool;
    // Progress: every row the pipeline writes, polled once a second (the moment of each increase).
    const progress: number[] = [];
    let lastCount = -1;
    let done = false;
    const poller = (async () => {
      while (!done) {
        try {
          const r = await db.query<{ n: number }>(
            `select (select count(*) from rollouts) + (select count(*) from step_verdicts) + (select count(*) from trajectory_verdicts)
                  + (select count(*) from dataset_items) + (select count(*) from queries) as n`,
          );
          const n = Number(r.rows[0]!.n);
          if (n > lastCount) {
            if (lastCount >= 0) progress.push(Date.now());
            lastCount = n;
          }
        } catch {
          // Postgres restarting.
        }
        await delay(1000);
      }
    })();

    const config = {
      queries: opts.queries,
      attempts: opts.attempts,
      maxSteps: opts.maxSteps,
      apps: opts.apps,
      seed: opts.seed,
      concurrency: opts.envSessions,
      ...(opts.guidance ? {} : { guidance: { enabled: false } }),
    };
    const t0 = Date.now();
    await withClient(address, (c) =>
      c.workflow.start('productionCycle', {
        workflowId,
        taskQueue: `${prefix}-main`,
        args: [{ cycleId: 'cycle-1', cycleNumber: 1, config, taskQueuePrefix: prefix }],
      }),
    );
    log(`cycle started: ${opts.queries} queries × ${opts.attempts} attempts, ≤${opts.maxSteps} steps, seed ${opts.seed}`);

    // The waiter: the workflow's result, through Temporal restarts.
    const deadline = t0 + (opts.cycleTimeoutMs ?? 30 * 60_000);
    const waiter = (async (): Promise<{ ok: boolean; result?: CycleResult; error?: string }> => {
      while (Date.now() < deadline) {
        try {
          const result = await withClient(address, (c) => c.workflow.getHandle(workflowId).result() as Promise<CycleResult>);
          return { ok: true, result };
        } catch (err) {
          if (err instanceof WorkflowFailedError) return { ok: false, error: `${err.message}: ${err.cause?.message ?? ''}` };
          await delay(1000);
        }
      }
      return { ok: false, error: `cycle not finished within ${opts.cycleTimeoutMs ?? 30 * 60_000} ms` };
    })().finally(() => {
      done = true;
    });

    // The injector: a seeded schedule of process and service faults inside the window; HTTP faults all window long.
    const plan = opts.plan;
    const schedule: FaultKind[] = [];
    const workerKinds: FaultKind[] = ['kill -9 worker (env)', 'kill -9 worker (env)', 'kill -9 worker (cpu)', 'kill -9 worker (cpu)', 'kill -9 worker (main)'];
    for (let i = 0; i < plan.workerKills; i++) schedule.push(workerKinds[i < workerKinds.length ? i : Math.floor(random() * workerKinds.length)]!);
    for (let i = 0; i < plan.temporalRestarts; i++) schedule.push('temporal restart');
    for (let i = 0; i < plan.postgresRestarts; i++) schedule.push('postgres restart');
    for (let i = 0; i < plan.chromiumKills; i++) schedule.push('chromium killed');
    for (let i = 0; i < plan.browserHangs; i++) schedule.push('browser hung (SIGSTOP)');
    for (let i = 0; i < plan.workerFreezes; i++) schedule.push('worker frozen (SIGSTOP)');
    for (let i = 0; i < (plan.restlessPages ?? 0); i++) schedule.push('page never settles');
    for (let i = 0; i < (plan.diskFulls ?? 0); i++) schedule.push('blob disk full');
    const span = Math.max(1, plan.windowMs - plan.startMs);
    const times = schedule.map(() => plan.startMs + random() * span).sort((a, b) => a - b);
    // Fisher–Yates over the kinds so the order is seeded too.
    for (let i = schedule.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [schedule[i], schedule[j]] = [schedule[j]!, schedule[i]!];
    }
    if (plan.hangsFirst) schedule.sort((a, b) => Number(b.includes('SIGSTOP')) - Number(a.includes('SIGSTOP')));

    /** Waits for the env worker to have an episode running (up to `ms`); false if none came. */
    const episodeInFlight = async (ms: number): Promise<Map<string, { attempt: number; started: boolean; lastFailure: string }> | undefined> => {
      const until = Date.now() + ms;
      while (!done && Date.now() < until) {
        try {
          const eps = await runningEpisodes(address);
          if ([...eps.values()].some((e) => e.started)) return eps;
        } catch {
          // Temporal busy.
        }
        await delay(1000);
      }
      return undefined;
    };
    /** Until Temporal gives up on a started episode (its attempt failed: heartbeat timeout) — a frozen worker. */
    const detectFailover = async (before: Map<string, { attempt: number; started: boolean }>, sinceMs: number, capMs: number): Promise<number | undefined> => {
      const startedAt = Date.now();
      while (Date.now() - startedAt < capMs) {
        try {
          const eps = await runningEpisodes(address);
          for (const [id, e] of eps) {
            const b = before.get(id);
            if (b?.started && (e.attempt > b.attempt || /heartbeat/i.test(e.lastFailure))) return Date.now() - sinceMs;
          }
        } catch {
          // Temporal busy.
        }
        await delay(500);
      }
      return undefined;
    };
    /** Until an episode fails over (attempt bumped) or a rollout is written with an environment error / degraded. */
    const detectEnvFailure = async (before: Map<string, { attempt: number }>, sinceMs: number, capMs: number): Promise<number | undefined> => {
      const startedAt = Date.now();
      while (Date.now() - startedAt < capMs) {
        try {
          const eps = await runningEpisodes(address);
          for (const [id, e] of eps) if (before.has(id) && e.attempt > before.get(id)!.attempt) return Date.now() - sinceMs;
          const r = await db.query<{ n: number }>(
            `select count(*) as n from rollouts where created_at >= to_timestamp($1 / 1000.0) and (degraded or exists (select 1 from steps s where s.rollout_id = rollouts.id and s.error_kind = 'environment_error'))`,
            [sinceMs],
          );
          if (Number(r.rows[0]!.n) > 0) return Date.now() - sinceMs;
          // A rollout workflow that finished since (its episode was rerun within the activity on a fresh session).
          for (const id of before.keys()) if (!eps.has(id)) return Date.now() - sinceMs;
        } catch {
          // Temporal or Postgres busy.
        }
        await delay(500);
      }
      return undefined;
    };

    /** Recoveries measured in the background (a kill does not hold up the next fault on another queue). */
    const background: Promise<void>[] = [];
    /** A rollout written since `sinceMs` with a step observed on a page that never settled. */
    const detectUnsettled = async (sinceMs: number, capMs: number): Promise<number | undefined> => {
      const startedAt = Date.now();
      while (Date.now() - startedAt < capMs && !done) {
        try {
          const r = await db.query<{ n: number }>(
            `select count(*) as n from rollouts r where r.created_at >= to_timestamp($1 / 1000.0)
                and exists (select 1 from steps s where s.rollout_id = r.id and (s.metrics->>'unsettled')::boolean)`,
            [sinceMs],
          );
          if (Number(r.rows[0]!.n) > 0) return Date.now() - sinceMs;
        } catch {
          // Postgres restarting.
        }
        await delay(500);
      }
      return undefined;
    };

    const injector = (async () => {
      await Promise.race([delay(plan.startMs), waiter]);
      if (done) return;
      if (plan.httpFaultRate > 0) {
        s3Proxy.setRate(plan.httpFaultRate);
        modelProxy.setRate(plan.httpFaultRate);
      }
      for (let i = 0; i < schedule.length && !done; i++) {
        const wait = t0 + times[i]! - Date.now();
        if (wait > 0) await Promise.race([delay(wait), waiter]);
        // Faults late against their time (a previous one took long) still run: the plan's counts are the bound.
        if (done) break;
        const kind = schedule[i]!;
        const at = Date.now();
        const rec: FaultRecord = { kind, at };
        try {
          if (kind.startsWith('kill -9 worker')) {
            const sup = byQueue(kind.includes('env') ? 'env' : kind.includes('cpu') ? 'cpu' : 'main');
            await Promise.race([sup.whenReady(), waiter]);
            if (done) break;
            rec.at = Date.now();
            background.push(Promise.race([sup.killHard().then((ms) => void (rec.recoverMs = ms)), delay(180_000)]));
          } else if (kind === 'temporal restart') {
            const owner = await readOwner(path.join(s.temporalDir, 'temporal.owner.json'));
            const hard = faults.filter((f) => f.kind === 'temporal restart').length % 2 === 1;
            if (hard && owner) {
              signalQuietly(-owner.pid, 'SIGKILL');
              await delay(500);
              await stopTemporalDevServer(s.temporalDir);
              rec.note = 'SIGKILL';
            } else {
              await stopTemporalDevServer(s.temporalDir);
              rec.note = 'SIGTERM';
            }
            await startTemporal(s);
            rec.recoverMs = Date.now() - at;
          } else if (kind === 'postgres restart') {
            await stopEmbeddedPostgres(s.pgDir);
            await startPostgres(s);
            rec.recoverMs = Date.now() - at;
          } else if (kind === 'blob disk full') {
            const hold = plan.diskFullHoldMs ?? 20_000;
            const before = { ...s3Proxy.writes };
            let freedAt: number;
            if (blobDisk) {
              rec.note = `tmpfs filled (${(await blobDisk.fill()) >> 20} MiB)`;
              await Promise.race([delay(hold), waiter]);
              await blobDisk.free();
              freedAt = Date.now();
            } else {
              s3Proxy.refuseWrites(true);
              rec.note = 'simulated: proxy answers writes 507';
              await Promise.race([delay(hold), waiter]);
              s3Proxy.refuseWrites(false);
              freedAt = Date.now();
            }
            const failed = s3Proxy.writes.failed - before.failed;
            rec.note += `; ${failed} writes refused while full${failed ? ` (${s3Proxy.writes.lastFailure})` : ''}, held ${(hold / 1000).toFixed(0)} s`;
            // Recovered: the first write that succeeded after space came back.
            const until = freedAt + 120_000;
            while (!done && s3Proxy.writes.lastOkAt < freedAt && Date.now() < until) await delay(200);
            if (s3Proxy.writes.lastOkAt >= freedAt) rec.recoverMs = s3Proxy.writes.lastOkAt - rec.at;
          } else if (kind === 'page never settles') {
            const before = await episodeInFlight(60_000);
            const fault = before ? await makePageRestless(debugPort, (url) => url.startsWith('http://127.0.0.1') && url.includes('/s/')).catch((err: unknown) => {
              rec.note = `skipped: DevTools port: ${(err as Error).message.split('\n')[0]}`;
              return undefined;
            }) : undefined;
            if (!fault) rec.note ??= 'skipped: no episode in flight';
            else {
              rec.at = Date.now();
              rec.recoverMs = await detectUnsettled(rec.at, 180_000);
              await fault.release();
              if (rec.recoverMs === undefined) rec.note = 'no unsettled step written within 180 s';
            }
          } else if (kind === 'chromium killed' || kind === 'browser hung (SIGSTOP)' || kind === 'worker frozen (SIGSTOP)') {
            const before = await episodeInFlight(60_000);
            const sup = byQueue('env');
            const browsers = sup.pid ? browsersOf(sup.pid) : [];
            if (!before || !sup.pid || (kind !== 'worker frozen (SIGSTOP)' && browsers.length === 0)) {
              rec.note = 'skipped: no episode in flight';
            } else {
              const f0 = Date.now();
              rec.at = f0;
              if (kind === 'chromium killed') {
                signalQuietly(browsers[0]!, 'SIGKILL');
                rec.recoverMs = await detectEnvFailure(before, f0, 90_000);
              } else if (kind === 'browser hung (SIGSTOP)') {
                const tree = browsers.flatMap((b) => [b, ...descendants(b)]);
                for (const p of tree) signalQuietly(p, 'SIGSTOP');
                rec.recoverMs = await detectEnvFailure(before, f0, 90_000);
                const reported = sup.hangReports.find((t) => t >= f0);
                if (reported !== undefined) rec.note = `watchdog declared it hung after ${((reported - f0) / 1000).toFixed(1)} s`;
                // The hung browser is not coming back: kill it (the pool relaunches one).
                for (const p of tree) signalQuietly(p, 'SIGKILL');
              } else {
                sup.signalGroup('SIGSTOP');
                rec.recoverMs = await detectFailover(before, f0, 90_000);
                // Frozen for good: kill it; the supervisor starts a fresh one to take the retried episode.
                await sup.killHard();
              }
              if (rec.recoverMs !== undefined && kind !== 'chromium killed') hungDetectionMs.push(rec.recoverMs);
              if (rec.recoverMs === undefined) rec.note = 'not detected within 90 s';
            }
          }
        } catch (err) {
          rec.note = `injector error: ${(err as Error).message}`;
        }
        faults.push(rec);
        log(`fault ${faults.length}: ${kind}${rec.recoverMs !== undefined ? `, recovered in ${(rec.recoverMs / 1000).toFixed(1)} s` : ''}${rec.note ? ` (${rec.note})` : ''}`);
      }
      // Past the window: HTTP faults off (bounded in time).
      await Promise.race([delay(Math.max(0, t0 + plan.windowMs - Date.now())), waiter]);
      s3Proxy.setRate(0);
      modelProxy.setRate(0);
    })();

    const outcome = await waiter;
    await injector;
    await Promise.all(background);
    await poller;
    const elapsedMs = Date.now() - t0;
    for (const f of faults) {
      const end = f.at + (f.kind.startsWith('kill') || f.kind.includes('restart') ? (f.recoverMs ?? 0) : 0);
      const next = progress.find((p) => p >= end);
      if (next !== undefined) f.progressMs = next - f.at;
    }
    for (const [name, proxy] of [['s3', s3Proxy], ['model', modelProxy]] as const) {
      for (const [kind, n] of proxy.injected) {
        const rec = proxy.recoveries.get(kind) ?? [];
        for (let i = 0; i < n; i++) faults.push({ kind: `${name} ${kind}`, at: 0, ...(rec[i] !== undefined ? { recoverMs: rec[i] } : {}) });
      }
    }
    log(`cycle ${outcome.ok ? 'completed' : `FAILED: ${outcome.error}`} in ${(elapsedMs / 1000).toFixed(0)} s`);
    const snapshot = await takeSnapshot(db, direct, 'cycle-1');
    return {
      completed: outcome.ok,
      ...(outcome.error ? { error: outcome.error } : {}),
      elapsedMs,
      ...(outcome.result ? { result: outcome.result } : {}),
      faults,
      workerStarts: Object.fromEntries(supervisors.map((x) => [x.queue, x.starts])),
      snapshot,
      hungDetectionMs,
    };
  } finally {
    await pool?.end().catch(() => undefined);
    for (const c of cleanups.reverse()) await c().catch((err: unknown) => log(`cleanup: ${(err as Error).message}`));
    if (!opts.keep) await fs.rm(opts.home, { recursive: true, force: true }).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// What a cycle wrote, and comparing two runs

export async function takeSnapshot(db: Pool, blobs: BlobStore, cycleId: string): Promise<Snapshot> {
  const like = `${cycleId}/%`;
  const queries = (await db.query<{ query_id: string }>(`select query_id from cycle_queries where cycle_id = $1 order by 1`, [cycleId])).rows.map((r) => r.query_id);
  const stepRows = (
    await db.query<{ rollout_id: string; idx: number; action: unknown; error_kind: string | null; unsettled: boolean | null; b: string | null; a: string | null; bt: string | null; at: string | null; k: string | null }>(
      `select rollout_id, idx, action, error_kind, (metrics->>'unsettled')::boolean as unsettled, before->>'screenshotKey' as b, after->>'screenshotKey' as a,
              before->>'uiTreeKey' as bt, after->>'uiTreeKey' as at, model_call_key as k
         from steps where rollout_id like $1 order by rollout_id, idx`,
      [like],
    )
  ).rows;
  const byRollout = new Map<string, typeof stepRows>();
  for (const r of stepRows) {
    if (!byRollout.has(r.rollout_id)) byRollout.set(r.rollout_id, []);
    byRollout.get(r.rollout_id)!.push(r);
  }
  const rollouts: Snapshot['rollouts'] = new Map();
  for (const r of (await db.query<{ id: string; status: string; degraded: boolean; step_count: number }>(`select id, status, degraded, step_count from rollouts where cycle_id = $1`, [cycleId])).rows) {
    const steps = byRollout.get(r.id) ?? [];
    rollouts.set(r.id, {
      status: r.status,
      degraded: r.degraded,
      steps: steps.length,
      digest: JSON.stringify(steps.map((s) => [s.action, s.error_kind])),
      envError: steps.some((s) => s.error_kind === 'environment_error'),
      modelError: steps.some((s) => s.error_kind === 'model_error'),
      unsettled: steps.some((s) => s.unsettled === true),
    });
  }
  let gapFree = true;
  for (const steps of byRollout.values()) steps.forEach((s, i) => (gapFree &&= s.idx === i));
  const sv = (await db.query<{ rollout_id: string; idx: number; n: number }>(`select rollout_id, idx, count(*) as n from step_verdicts where rollout_id like $1 group by 1, 2`, [like])).rows;
  const svKeys = new Set(sv.map((r) => `${r.rollout_id}#${r.idx}`));
  const tv = (await db.query<{ rollout_id: string; channel: string }>(`select rollout_id, channel from trajectory_verdicts where rollout_id like $1`, [like])).rows;
  const withConsensus = new Set(tv.filter((r) => r.channel === 'consensus').map((r) => r.rollout_id));
  // Every dataset version: each run has a database of its own, holding this one cycle.
  const datasets = (await db.query<{ name: string; version: number; manifest_key: string }>(`select name, version, manifest_key from datasets`)).rows;
  const items = (
    await db.query<{ rollout_id: string; step_idx: number | null; format: string | null; sample_key: string | null }>(
      `select rollout_id, step_idx, format, sample_key from dataset_items where rollout_id like $1`,
      [like],
    )
  ).rows;
  const lines = new Map<string, string>();
  for (const d of datasets) {
    const dir = d.manifest_key.replace(/manifest\.json$/, '');
    for (const key of await blobs.list(dir)) {
      if (!key.endsWith('.jsonl')) continue;
      for (const line of Buffer.from(await blobs.get(key)).toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        const j = JSON.parse(line) as { id?: string; messages?: unknown; image_keys?: unknown; tools?: unknown; meta?: { critic_score?: unknown; annotation?: unknown } };
        lines.set(`${key.slice(dir.length)}:${j.id}`, JSON.stringify([j.messages, j.image_keys, j.tools, j.meta?.critic_score, j.meta?.annotation]));
      }
    }
  }
  const referenced = new Set<string>();
  for (const s of stepRows) for (const k of [s.b, s.a, s.bt, s.at, s.k]) if (k) referenced.add(k);
  for (const d of datasets) referenced.add(d.manifest_key);
  const all = new Set(await blobs.list(''));
  // Content-addressed blobs must hash to their key: a write torn by a full disk or a reset must not have left a stub.
  const corrupt: string[] = [];
  for (const key of referenced) {
    const m = /^sha256\/[0-9a-f]{2}\/([0-9a-f]{64})/.exec(key);
    if (!m || !all.has(key)) continue;
    if (createHash('sha256').update(await blobs.get(key)).digest('hex') !== m[1]) corrupt.push(key);
  }
  return {
    queries,
    rollouts,
    steps: { rows: stepRows.length, distinct: new Set(stepRows.map((s) => `${s.rollout_id}#${s.idx}`)).size, gapFree },
    stepVerdicts: { rows: sv.reduce((n, r) => n + Number(r.n), 0), distinctSteps: svKeys.size, stepsWithout: stepRows.filter((s) => s.action != null && !svKeys.has(`${s.rollout_id}#${s.idx}`)).length },
    trajectoryVerdicts: { rows: tv.length, consensus: withConsensus.size, rolloutsWithoutConsensus: [...rollouts].filter(([id, r]) => !r.degraded && !withConsensus.has(id)).map(([id]) => id) },
    datasets: { versions: datasets.length, items: items.length, distinctItems: new Set(items.map((i) => `${i.format}:${i.rollout_id}#${i.step_idx}:${i.sample_key}`)).size, lines },
    blobs: { objects: all.size, referenced: referenced.size, missing: [...referenced].filter((k) => !all.has(k)), corrupt },
  };
}

/** Invariants of one run on its own: nothing duplicated, nothing dangling. Empty = all hold. */
export function invariantViolations(s: Snapshot, expectedRollouts: number, expectedDatasetVersions = 1): string[] {
  const v: string[] = [];
  if (s.rollouts.size < expectedRollouts) v.push(`rollouts: ${s.rollouts.size} < ${expectedRollouts} expected`);
  if (s.steps.rows !== s.steps.distinct) v.push(`steps duplicated: ${s.steps.rows} rows, ${s.steps.distinct} distinct`);
  if (!s.steps.gapFree) v.push('steps: a rollout has a gap in its step indices');
  const stepsByRollouts = [...s.rollouts.values()].reduce((n, r) => n + r.steps, 0);
  if (stepsByRollouts !== s.steps.rows) v.push(`steps: ${s.steps.rows} rows vs ${stepsByRollouts} by rollout`);
  if (s.stepVerdicts.rows !== s.stepVerdicts.distinctSteps) v.push(`step verdicts duplicated: ${s.stepVerdicts.rows} rows for ${s.stepVerdicts.distinctSteps} steps`);
  if (s.stepVerdicts.stepsWithout > 0) v.push(`steps without a verdict: ${s.stepVerdicts.stepsWithout}`);
  if (s.trajectoryVerdicts.rolloutsWithoutConsensus.length > 0) v.push(`rollouts without a consensus verdict: ${s.trajectoryVerdicts.rolloutsWithoutConsensus.join(', ')}`);
  if (s.datasets.versions !== expectedDatasetVersions) v.push(`dataset versions for the cycle: ${s.datasets.versions} (expected ${expectedDatasetVersions})`);
  if (s.datasets.items !== s.datasets.distinctItems) v.push(`dataset items duplicated: ${s.datasets.items} rows, ${s.datasets.distinctItems} distinct`);
  if (s.blobs.missing.length > 0) v.push(`blobs referenced but missing: ${s.blobs.missing.length} (${s.blobs.missing.slice(0, 3).join(', ')})`);
  if (s.blobs.corrupt.length > 0) v.push(`blobs whose bytes do not match their key: ${s.blobs.corrupt.length} (${s.blobs.corrupt.slice(0, 3).join(', ')})`);
  return v;
}

export interface Comparison {
  rows: { what: string; baseline: number; chaos: number; lost: number; duplicated: number }[];
  identicalRollouts: number;
  divergedTagged: number;
  divergedUntagged: string[];
  datasetLines: { compared: number; identical: number; differing: number };
}

/**
 * A chaos run against the fault-free run of the same seed. Keys: query ids, rollout ids, steps (rollout, index), step
 * verdicts (rollout, index), consensus verdicts (rollout), dataset lines (file, sample id), blob keys referenced. A
 * rollout whose actions differ from the baseline's diverged: tagged when degraded or carrying an environment or model
 * error step (what the faults leave), untagged otherwise (the environment's timing, see README).
 */
export function compare(base: Snapshot, chaos: Snapshot): Comparison {
  const keyDiff = (what: string, a: Set<string>, b: Set<string>, bRows: number): Comparison['rows'][number] => ({
    what,
    baseline: a.size,
    chaos: b.size,
    lost: [...a].filter((k) => !b.has(k)).length,
    duplicated: bRows - b.size,
  });
  const same = [...base.rollouts.keys()].filter((id) => chaos.rollouts.get(id)?.digest === base.rollouts.get(id)!.digest);
  const sameSet = new Set(same);
  const diverged = [...chaos.rollouts.keys()].filter((id) => base.rollouts.has(id) && !sameSet.has(id));
  const tagged = diverged.filter((id) => {
    const r = chaos.rollouts.get(id)!;
    return r.degraded || r.envError || r.modelError || r.unsettled;
  });
  const stepKeys = (s: Snapshot, only: Set<string>): Set<string> => {
    const out = new Set<string>();
    for (const [id, r] of s.rollouts) if (only.has(id)) for (let i = 0; i < r.steps; i++) out.add(`${id}#${i}`);
    return out;
  };
  const lineKeys = (s: Snapshot): Set<string> => new Set([...s.datasets.lines.keys()].filter((k) => sameSet.has(k.slice(k.indexOf(':') + 1).split('#')[0]!)));
  const bl = lineKeys(base);
  const cl = lineKeys(chaos);
  const compared = [...bl].filter((k) => cl.has(k));
  const identical = compared.filter((k) => base.datasets.lines.get(k) === chaos.datasets.lines.get(k)).length;
  return {
    rows: [
      keyDiff('queries', new Set(base.queries), new Set(chaos.queries), chaos.queries.length),
      keyDiff('rollouts', new Set(base.rollouts.keys()), new Set(chaos.rollouts.keys()), chaos.rollouts.size),
      { ...keyDiff('steps (same trajectory)', stepKeys(base, sameSet), stepKeys(chaos, sameSet), stepKeys(chaos, sameSet).size), duplicated: chaos.steps.rows - chaos.steps.distinct },
      {
        what: 'step verdicts',
        baseline: base.stepVerdicts.distinctSteps,
        chaos: chaos.stepVerdicts.distinctSteps,
        lost: chaos.stepVerdicts.stepsWithout,
        duplicated: chaos.stepVerdicts.rows - chaos.stepVerdicts.distinctSteps,
      },
      {
        what: 'consensus verdicts',
        baseline: base.trajectoryVerdicts.consensus,
        chaos: chaos.trajectoryVerdicts.consensus,
        lost: chaos.trajectoryVerdicts.rolloutsWithoutConsensus.length,
        duplicated: 0,
      },
      { what: 'dataset lines (same trajectory)', baseline: bl.size, chaos: cl.size, lost: [...bl].filter((k) => !cl.has(k)).length, duplicated: chaos.datasets.items - chaos.datasets.distinctItems },
      { what: 'dataset versions', baseline: base.datasets.versions, chaos: chaos.datasets.versions, lost: Math.max(0, 1 - chaos.datasets.versions), duplicated: Math.max(0, chaos.datasets.versions - 1) },
      { what: 'blobs referenced', baseline: base.blobs.referenced, chaos: chaos.blobs.referenced, lost: chaos.blobs.missing.length + chaos.blobs.corrupt.length, duplicated: 0 },
    ],
    identicalRollouts: same.length,
    divergedTagged: tagged.length,
    divergedUntagged: diverged.filter((id) => !tagged.includes(id)),
    datasetLines: { compared: compared.length, identical, differing: compared.length - identical },
  };
}

/** Per fault kind: count, recovery (median / max) and time to the next written row (median / max). */
export function faultTable(faults: FaultRecord[]): string[] {
  const kinds = [...new Set(faults.map((f) => f.kind))];
  const med = (xs: number[]): string => {
    if (!xs.length) return '–';
    const s = [...xs].sort((a, b) => a - b);
    return `${(s[Math.floor((s.length - 1) / 2)]! / 1000).toFixed(1)} s`;
  };
  const max = (xs: number[]): string => (xs.length ? `${(Math.max(...xs) / 1000).toFixed(1)} s` : '–');
  const rows = kinds.map((k) => {
    const fs_ = faults.filter((f) => f.kind === k);
    const rec = fs_.flatMap((f) => (f.recoverMs !== undefined ? [f.recoverMs] : []));
    const prog = fs_.flatMap((f) => (f.progressMs !== undefined ? [f.progressMs] : []));
    const skipped = fs_.filter((f) => f.note?.startsWith('skipped')).length;
    return `  ${k.padEnd(28)} ${String(fs_.length - skipped).padStart(4)}${skipped ? ` (+${skipped} skipped)` : ''}   recover p50 ${med(rec).padStart(7)} max ${max(rec).padStart(7)}   next row p50 ${med(prog).padStart(7)} max ${max(prog).padStart(7)}`;
  });
  return [`  ${'fault'.padEnd(28)} ${'n'.padStart(4)}`, ...rows];
}
