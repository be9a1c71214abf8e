import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, constants as fsConstants, openSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

/** Pinned S3-compatible server; keep in sync with scripts/install-s3-server.sh. */
export const VERSITYGW_VERSION = 'v1.8.0';
export const INSTALL_SCRIPT: string = path.join(REPO_ROOT, 'scripts', 'install-s3-server.sh');

export interface S3ServerHandle {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  logFile: string;
  stop(): Promise<void>;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A free TCP port on the loopback interface (asked of the kernel). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The pinned versitygw binary in `<cacheDir>/bin`, built by scripts/install-s3-server.sh (`go install`,
 * idempotent via a version marker) when missing or of another version.
 */
export async function ensureS3ServerBinary(opts: { cacheDir: string; pathEnv?: string }): Promise<string> {
  const binDir = path.join(path.resolve(opts.cacheDir), 'bin');
  const bin = path.join(binDir, 'versitygw');
  const marker = await fs.readFile(path.join(binDir, 'versitygw.version'), 'utf8').catch(() => '');
  if (marker.trim() === VERSITYGW_VERSION && (await isExecutable(bin))) return bin;
  await fs.mkdir(binDir, { recursive: true });
  const logFile = path.join(binDir, 'versitygw-build.log');
  const fd = openSync(logFile, 'a');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('bash', [INSTALL_SCRIPT, path.resolve(opts.cacheDir)], {
        stdio: ['ignore', fd, fd],
        env: { ...process.env, PATH: opts.pathEnv ?? process.env.PATH },
      });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`${INSTALL_SCRIPT} failed with exit code ${code}; see ${logFile}`)),
      );
    });
  } finally {
    closeSync(fd);
  }
  return bin;
}

async function answersHttp(endpoint: string): Promise<boolean> {
  try {
    const res = await fetch(endpoint, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return true; // any HTTP answer (403 for an anonymous ListBuckets) means the gateway is serving
  } catch {
    return false;
  }
}

/**
 * Starts versitygw with its posix backend: buckets are directories under `<dataDir>/buckets`, object
 * metadata lives in xattrs (or in `<dataDir>/meta` with `sidecar: true`, for filesystems without xattrs).
 * Listens on 127.0.0.1:`port` (default: a free port). Output goes to `<dataDir>/versitygw.log`.
 * The server is a child of this process; `stop()` terminates it (and it dies with this process).
 */
export async function startS3Server(opts: {
  cacheDir: string;
  dataDir: string;
  port?: number;
  binary?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  region?: string;
  sidecar?: boolean;
  readyTimeoutMs?: number;
}): Promise<S3ServerHandle> {
  const bin = opts.binary ?? (await ensureS3ServerBinary({ cacheDir: opts.cacheDir }));
  const dataDir = path.resolve(opts.dataDir);
  const root = path.join(dataDir, 'buckets');
  await fs.mkdir(root, { recursive: true });
  const port = opts.port ?? (await freePort());
  const accessKeyId = opts.accessKeyId ?? 'trajforge';
  const secretAccessKey = opts.secretAccessKey ?? 'trajforge-local-secret';
  const region = opts.region ?? 'us-east-1';
  const endpoint = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'versitygw.log');

  const posixArgs = ['posix'];
  if (opts.sidecar) {
    const meta = path.join(dataDir, 'meta');
    await fs.mkdir(meta, { recursive: true });
    posixArgs.push('--sidecar', meta);
  }
  const args = [
    '--port',
    `127.0.0.1:${port}`,
    '--access',
    accessKeyId,
    '--secret',
    secretAccessKey,
    '--region',
    region,
    '--quiet',
    ...posixArgs,
    root,
  ];
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    // Credentials go on the command line rather than through the environment so that ambient
    // ROOT_ACCESS_KEY/VGW_* variables cannot change what this server accepts.
    child = spawn(bin, args, { stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  let spawnError: Error | undefined;
  child.on('error', (err) => {
    spawnError = err;
  });
  const done = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const onExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', onExit);
  const isDone = (): boolean => child.exitCode !== null || child.signalCode !== null;

  const timeoutMs = opts.readyTimeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let delay = 50;
  for (;;) {
    const failure = spawnError
      ? `could not run ${bin}: ${spawnError.message}`
      : isDone()
        ? `versitygw exited (${child.exitCode ?? child.signalCode}) before it was ready (port ${port} in use?)`
        : Date.now() > deadline
          ? `versitygw on ${endpoint} not ready after ${timeoutMs} ms`
          : undefined;
    if (failure) {
      child.kill('SIGKILL');
      process.removeListener('exit', onExit);
      const log = await fs.readFile(logFile, 'utf8').catch(() => '');
      throw new Error(`${failure}; log: ${logFile}\n${log.slice(-3000)}`);
    }
    if (await answersHttp(endpoint)) break;
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 500);
  }

  let stopped = false;
  return {
    endpoint,
    accessKeyId,
    secretAccessKey,
    region,
    logFile,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await done;
      clearTimeout(timer);
    },
  };
}
