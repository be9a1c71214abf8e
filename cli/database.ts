import { resolve } from 'node:path';
import type { Pool } from 'pg';
import { createPool } from '../storage/db.js';
import { migrate } from '../storage/migrate.js';
import type { AppConfig } from './config.js';
import { startEmbeddedPostgres } from './services/postgres.js';

/**
 * The configured database for a one-shot command: `DATABASE_URL`, else the embedded cluster in
 * `$TRAJFORGE_HOME/postgres` (started, or reused when it already runs), migrated. `fn` gets the pool; the pool is
 * closed and an embedded server this call started is stopped afterwards, whatever `fn` does.
 */
export async function withDatabase<T>(config: AppConfig, fn: (db: Pool) => Promise<T>): Promise<T> {
  const pg = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres({ dataDir: resolve(config.home, 'postgres'), ...(config.postgresPort ? { port: config.postgresPort } : {}) });
  const pool = createPool(config.databaseUrl ?? pg!.url);
  try {
    await migrate(pool);
    return await fn(pool);
  } finally {
    await pool.end();
    await pg?.stop();
  }
}
