import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives at `<repo>/cli/services/paths.ts`). */
export const REPO_ROOT: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The state directory: databases, Temporal history, local blobs, logs.
 * `override` is the caller's TRAJFORGE_HOME (read from the environment by the caller, not here).
 */
export function stateDir(override?: string): string {
  return override && override.length > 0 ? path.resolve(override) : path.join(REPO_ROOT, '.trajforge');
}

/**
 * The cache directory for built tools (Temporal CLI, S3 server), shared between checkouts.
 * `override` is the caller's TRAJFORGE_CACHE; `home` defaults to the OS home directory.
 */
export function cacheDir(override?: string, home: string = homedir()): string {
  return override && override.length > 0 ? path.resolve(override) : path.join(home, '.cache', 'trajforge');
}

/** Well-known paths inside the state directory. */
export function statePaths(root: string): {
  root: string;
  postgresDir: string;
  temporalDb: string;
  temporalLog: string;
  blobsDir: string;
  s3DataDir: string;
  s3Log: string;
} {
  return {
    root,
    postgresDir: path.join(root, 'postgres'),
    temporalDb: path.join(root, 'temporal.db'),
    temporalLog: path.join(root, 'temporal.log'),
    blobsDir: path.join(root, 'blobs'),
    s3DataDir: path.join(root, 's3'),
    s3Log: path.join(root, 's3.log'),
  };
}
