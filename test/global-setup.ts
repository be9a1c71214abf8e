import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { cacheDir as defaultCacheDir, REPO_ROOT } from '../cli/services/paths.js';
import { startEmbeddedPostgres } from '../cli/services/postgres.js';
import { freePort, startS3Server } from '../cli/services/s3-server.js';
import { ensureTemporalCli, startTemporalDevServer } from '../cli/services/temporal.js';

/** Values the shared services hand to test files (`inject('...')`). */
export interface S3Endpoint {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of a maintenance database on the test Postgres server (create per-file databases with it). */
    pgAdminUrl: string;
    s3: S3Endpoint;
    /** gRPC address of a Temporal dev server (fresh history per test run). */
    temporalAddress: string;
    temporalUiUrl: string;
  }
}

/**
 * Starts the shared services once per test run:
 * - Postgres: TEST_DATABASE_URL's server if set, else a fresh embedded cluster in
 *   `<repo>/.trajforge/test-pg-*` on a free port. Each test file creates its own database
 *   (test/helpers/services.ts).
 * - S3: versitygw on a fresh data dir and a free port.
 * - Temporal: TEST_TEMPORAL_ADDRESS if set, else a dev server with a fresh SQLite file on free ports.
 * Everything this setup started is stopped (and its scratch dirs removed) at teardown.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const env = process.env;
  const stops: (() => Promise<void>)[] = [];
  // Vitest may call the teardown more than once (and concurrently): run it once, in reverse start order.
  let tearingDown: Promise<void> | undefined;
  const teardown = (): Promise<void> =>
    (tearingDown ??= (async () => {
      for (const stop of [...stops].reverse()) {
        await stop().catch((err: unknown) => console.error('teardown:', err));
      }
    })());
  try {
    const state = path.join(REPO_ROOT, '.trajforge');
    const cache = defaultCacheDir(env.TRAJFORGE_CACHE);
    await fs.mkdir(state, { recursive: true });

    const [pgAdminUrl, s3, temporal] = await Promise.all([
      (async () => {
        if (env.TEST_DATABASE_URL) return env.TEST_DATABASE_URL;
        // A private cluster per run (initdb ≈ 2 s): concurrent test runs must not share, or stop, each other's.
        const dir = await fs.mkdtemp(path.join(state, 'test-pg-'));
        await fs.chmod(dir, 0o755); // as root, Postgres runs as the `postgres` user, which must reach the data dir
        stops.push(() => fs.rm(dir, { recursive: true, force: true }));
        const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: await freePort() });
        stops.push(() => pg.stop());
        return pg.adminUrl;
      })(),
      (async () => {
        const dataDir = await fs.mkdtemp(path.join(state, 'test-s3-'));
        stops.push(() => fs.rm(dataDir, { recursive: true, force: true }));
        const server = await startS3Server({ cacheDir: cache, dataDir });
        stops.push(() => server.stop());
        return server;
      })(),
      (async () => {
        if (env.TEST_TEMPORAL_ADDRESS) return { address: env.TEST_TEMPORAL_ADDRESS, uiUrl: '' };
        const cli = await ensureTemporalCli({
          cacheDir: cache,
          ...(env.TEMPORAL_CLI ? { explicitPath: env.TEMPORAL_CLI } : {}),
          ...(env.PATH ? { pathEnv: env.PATH } : {}),
        });
        const stateDir = await fs.mkdtemp(path.join(state, 'test-temporal-'));
        stops.push(() => fs.rm(stateDir, { recursive: true, force: true }));
        const port = await freePort();
        let uiPort = await freePort();
        while (uiPort === port) uiPort = await freePort();
        const server = await startTemporalDevServer({ cli, stateDir, port, uiPort });
        stops.push(() => server.stop());
        return server;
      })(),
    ]);

    project.provide('pgAdminUrl', pgAdminUrl);
    project.provide('s3', {
      endpoint: s3.endpoint,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      region: s3.region,
    });
    project.provide('temporalAddress', temporal.address);
    project.provide('temporalUiUrl', temporal.uiUrl);
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
