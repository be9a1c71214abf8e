import { spawn, type ChildProcess } from 'node:child_process';
import { constants as fsConstants, openSync, closeSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { processAlive, readOwner, removeOwner, waitForExit, writeOwner, type ServiceOwner } from './ownership.js';

/** The Temporal CLI version built when none is found. */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
export const DEFAULT_TEMPORAL_PORT = 7233;

async function isExecutable(file: string): Promise<boolean> {
  try {
    const st = await fs.stat(file);
    if (!st.isFile()) return false;
    await fs.access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** First executable named `name` on a PATH-style string. */
export async function findOnPath(name: string, pathEnv: string | undefined): Promise<string | undefined> {
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fd = openSync(logFile, 'a');
    const child = spawn(cmd, args, { env, stdio: ['ignore', fd, fd] });
    child.on('error', (err) => {
      closeSync(fd);
      reject(err);
    });
    child.on('exit', (code, signal) => {
      closeSync(fd);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}; see ${logFile}`));
    });
  });
}

/**
 * Finds a Temporal CLI, in order: `explicitPath` → `temporal` on PATH → `<cacheDir>/bin/temporal` →
 * building it with `go install github.com/temporalio/cli/cmd/temporal@v1.5.1` into `<cacheDir>/bin`
 * (several minutes) → a clear error saying how to provide one.
 */
export async function ensureTemporalCli(opts: {
  cacheDir: string;
  explicitPath?: string;
  /** PATH to search (the caller's `process.env.PATH`); also used to find `go`. */
  pathEnv?: string;
  onLog?: (line: string) => void;
}): Promise<string> {
  if (opts.explicitPath) {
    if (await isExecutable(opts.explicitPath)) return path.resolve(opts.explicitPath);
    throw new Error(`the Temporal CLI given explicitly (${opts.explicitPath}) does not exist or is not executable`);
  }
  const pathEnv = opts.pathEnv ?? process.env.PATH;
  const onPath = await findOnPath('temporal', pathEnv);
  if (onPath) return onPath;

  const binDir = path.join(path.resolve(opts.cacheDir), 'bin');
  const cached = path.join(binDir, 'temporal');
  if (await isExecutable(cached)) return cached;

  const go = (await findOnPath('go', pathEnv)) ?? ((await isExecutable('/usr/local/go/bin/go')) ? '/usr/local/go/bin/go' : undefined);
  if (!go) {
    throw new Error(
      'no Temporal CLI found: pass its path explicitly (--temporal-cli / TEMPORAL_CLI), put `temporal` on PATH ' +
        `(https://docs.temporal.io/cli), place it at ${cached}, or install Go so it can be built with ` +
        `\`GOBIN=${binDir} go install ${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}\``,
    );
  }
  await fs.mkdir(binDir, { recursive: true });
  const logFile = path.join(binDir, 'temporal-build.log');
  opts.onLog?.(`building Temporal CLI ${TEMPORAL_CLI_VERSION} with ${go} (log: ${logFile}); this takes minutes`);
  try {
    await run(go, ['install', `${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`], { ...process.env, PATH: pathEnv, GOBIN: binDir }, logFile);
  } catch (err) {
    throw new Error(
      `building the Temporal CLI failed (${(err as Error).message}); pass an existing CLI explicitly or put \`temporal\` on PATH`,
    );
  }
  await fs.writeFile(path.join(binDir, 'temporal.version'), `${TEMPORAL_CLI_VERSION}\n`);
  return cached;
}

export interface TemporalServerHandle {
  /** gRPC address for `Connection.connect({ address })`. */
  address: string;
  /** Web UI URL (for a reused server: the URL at the requested UI port). */
  uiUrl: string;
  /** True when a server already listening on the port was reused; `stop` then leaves it alone. */
  reused: boolean;
  /** True when the reused server was an orphan of a crashed run of this home, now owned (and stopped) by this handle. */
  adopted?: boolean;
  logFile: string;
  /** Stops the server if this call started it and `keep` was false; otherwise a no-op. */
  stop(): Promise<void>;
}

/** One readiness probe: connect and ask for the `default` namespace (created at launch). */
async function probe(address: string): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 1000 });
    await connection.workflowService.describeNamespace({ namespace: 'default' });
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

/** Probes every 500 ms until the server answers or `timeoutMs` passes. */
async function probeUntil(address: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe(address)) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

async function tail(file: string, bytes = 3000): Promise<string> {
  try {
    const text = await fs.readFile(file, 'utf8');
    return text.slice(-bytes);
  } catch {
    return '';
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts `temporal server start-dev` with its SQLite history in `<stateDir>/temporal.db` (so history
 * survives restarts) and its output in `<stateDir>/temporal.log`, or reuses a server already answering
 * on `port` (a previous run's kept server, or one the user started).
 *
 * Lifecycle: the server is spawned detached (its own process group, output to the log file, not to our
 * pipes) so that it *can* outlive this process. Whoever starts it owns it: with `keep: false` (default)
 * `stop()` — and, as a fallback, this process exiting — terminates it; with `keep: true` it is left
 * running for the next run to reuse. A reused server is never stopped by us.
 */
export async function startTemporalDevServer(opts: {
  cli: string;
  stateDir: string;
  port?: number;
  uiPort?: number;
  /** Leave the server running after `stop()`/exit so later runs reuse it. */
  keep?: boolean;
  /** Bound on waiting for readiness (default 60 s). */
  readyTimeoutMs?: number;
  /** Extra namespaces to create at launch. */
  namespaces?: string[];
}): Promise<TemporalServerHandle> {
  const port = opts.port ?? DEFAULT_TEMPORAL_PORT;
  const uiPort = opts.uiPort ?? port + 1000;
  const address = `127.0.0.1:${port}`;
  const uiUrl = `http://127.0.0.1:${uiPort}`;
  const stateDir = path.resolve(opts.stateDir);
  const logFile = path.join(stateDir, 'temporal.log');

  // A live server this home recorded is waited for rather than replaced: under load one probe can time out,
  // and a second server spawned on the same port would fail to bind while the old one answers its probes.
  const owner = await readOwner(temporalOwnerFile(stateDir));
  const recordedAlive = owner !== undefined && owner.port === port && processAlive(owner.pid);
  if ((await probe(address)) || (recordedAlive && (await probeUntil(address, opts.readyTimeoutMs ?? 60_000)))) {
    // A server this home started for a run that is gone (a crashed main job) is adopted: stopped at this run's end.
    if (!opts.keep && owner && recordedAlive && !processAlive(owner.ownerPid)) {
      await writeOwner(temporalOwnerFile(stateDir), { pid: owner.pid, port });
      return { address, uiUrl, reused: true, adopted: true, logFile, stop: async () => void (await stopTemporalDevServer(stateDir)) };
    }
    return { address, uiUrl, reused: true, logFile, stop: async () => undefined };
  }
  if (recordedAlive) {
    throw new Error(`the Temporal dev server of ${stateDir} (pid ${owner.pid}) is alive but does not answer on ${address}; stop it with \`trajforge stop\``);
  }

  await fs.mkdir(stateDir, { recursive: true });
  const fd = openSync(logFile, 'a');
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    path.join(stateDir, 'temporal.db'),
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--ui-port',
    String(uiPort),
    ...(opts.namespaces ?? []).flatMap((n) => ['--namespace', n]),
  ];
  let child: ChildProcess;
  try {
    child = spawn(opts.cli, args, { detached: true, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let spawnError: Error | undefined;
  child.on('error', (err) => {
    spawnError = err;
  });
  const done = exited(child);

  const killGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      /* already gone */
    }
  };
  const onExit = (): void => killGroup('SIGTERM');
  if (opts.keep) child.unref();
  else process.once('exit', onExit);

  const deadline = Date.now() + (opts.readyTimeoutMs ?? 60_000);
  let delay = 100;
  for (;;) {
    if (spawnError) throw new Error(`could not run the Temporal CLI ${opts.cli}: ${spawnError.message}`);
    if (child.exitCode !== null || child.signalCode !== null) {
      process.removeListener('exit', onExit);
      throw new Error(
        `temporal server start-dev exited (${child.exitCode ?? child.signalCode}) before it was ready ` +
          `(port ${port} or ${uiPort} in use?); log: ${logFile}\n${await tail(logFile)}`,
      );
    }
    if (await probe(address)) break;
    if (Date.now() > deadline) {
      killGroup('SIGKILL');
      process.removeListener('exit', onExit);
      throw new Error(
        `Temporal dev server on ${address} not ready after ${opts.readyTimeoutMs ?? 60_000} ms; log: ${logFile}\n${await tail(logFile)}`,
      );
    }
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 1000);
  }

  const ownerFile = temporalOwnerFile(stateDir);
  if (child.pid !== undefined) await writeOwner(ownerFile, { pid: child.pid, port });
  let stopped = false;
  return {
    address,
    uiUrl,
    reused: false,
    logFile,
    stop: async () => {
      if (stopped || opts.keep) return;
      stopped = true;
      process.removeListener('exit', onExit);
      killGroup('SIGTERM');
      const timer = setTimeout(() => killGroup('SIGKILL'), 10_000);
      await done;
      clearTimeout(timer);
      await removeOwner(ownerFile);
    },
  };
}

/** The owner record of the dev server whose history lives in `stateDir`. */
export const temporalOwnerFile = (stateDir: string): string => path.join(path.resolve(stateDir), 'temporal.owner.json');

/** What the dev server of `stateDir` is doing, without starting anything (for `trajforge status`). */
export interface TemporalDevServerState {
  address: string;
  answering: boolean;
  /** The recorded starter and the server's pid, when this home's trajforge started it and it is alive. */
  owner?: ServiceOwner;
}

export async function temporalDevServerState(stateDir: string, port = DEFAULT_TEMPORAL_PORT): Promise<TemporalDevServerState> {
  const owner = await readOwner(temporalOwnerFile(stateDir));
  const live = owner && processAlive(owner.pid) ? owner : undefined;
  const address = `127.0.0.1:${live?.port ?? port}`;
  return { address, answering: await probe(address), ...(live ? { owner: live } : {}) };
}

/**
 * Stops the dev server this home started (SIGTERM to its process group: the server flushes its SQLite
 * history; SIGKILL after `timeoutMs`). Returns false when no live server of this home is recorded.
 */
export async function stopTemporalDevServer(stateDir: string, timeoutMs = 10_000): Promise<boolean> {
  const owner = await readOwner(temporalOwnerFile(stateDir));
  if (!owner || !processAlive(owner.pid)) {
    await removeOwner(temporalOwnerFile(stateDir));
    return false;
  }
  const signal = (s: NodeJS.Signals): void => {
    try {
      process.kill(-owner.pid, s);
    } catch {
      /* already gone */
    }
  };
  signal('SIGTERM');
  if (!(await waitForExit(owner.pid, timeoutMs))) {
    signal('SIGKILL');
    await waitForExit(owner.pid, 5000);
  }
  await removeOwner(temporalOwnerFile(stateDir));
  return true;
}
