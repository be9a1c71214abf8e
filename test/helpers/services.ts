import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createPool } from '../../storage/db.js';
import { migrate } from '../../storage/migrate.js';
import { createS3BlobStore } from '../../storage/blob-s3.js';
import type { BlobStore } from '../../domain/ports.js';

export interface TestDatabase {
  name: string;
  url: string;
  pool: pg.Pool;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A FRESH, uniquely named database on the shared test Postgres server (global-setup.ts), migrated unless
 * `migrate: false`. Call `drop()` in afterAll.
 */
export async function testDatabase(opts: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`create database ${c.escapeIdentifier(name)}`));
  const url = withDatabase(inject('pgAdminUrl'), name);
  const pool = createPool(url);
  if (opts.migrate !== false) await migrate(pool);
  return {
    name,
    url,
    pool,
    drop: async () => {
      await pool.end();
      await admin((c) => c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`));
    },
  };
}

/** An S3 blob store on the shared test S3 server, in a fresh bucket (created on first use). */
export function testS3BlobStore(prefix = ''): { store: BlobStore; bucket: string } {
  const s3 = inject('s3');
  const bucket = `t-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
  const store = createS3BlobStore({
    bucket,
    prefix,
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    createBucket: true,
  });
  return { store, bucket };
}
