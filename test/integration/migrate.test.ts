import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPool } from '../../storage/db.js';
import { DEFAULT_MIGRATIONS_DIR, MigrationError, migrate, readMigrations } from '../../storage/migrate.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

const dbs: TestDatabase[] = [];
async function freshDb(): Promise<TestDatabase> {
  const db = await testDatabase({ migrate: false });
  dbs.push(db);
  return db;
}
afterAll(async () => {
  await Promise.all(dbs.map((d) => d.drop()));
});

async function tempMigrations(files: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trajforge-migrations-'));
  for (const [name, sql] of Object.entries(files)) await fs.writeFile(path.join(dir, name), sql);
  return dir;
}

async function appliedVersions(db: TestDatabase): Promise<number[]> {
  const res = await db.pool.query<{ version: number }>('select version from schema_migrations order by version');
  return res.rows.map((r) => r.version);
}

describe('migrate', () => {
  it('applies the real migrations once; a second run is a no-op', async () => {
    const db = await freshDb();
    const files = await readMigrations(DEFAULT_MIGRATIONS_DIR);
    expect(files.length).toBeGreaterThan(0);

    const first = await migrate(db.pool);
    expect(first).toEqual(files.map((f) => f.file.replace(/\.sql$/, '')));
    const second = await migrate(db.pool);
    expect(second).toEqual([]);
    expect(await appliedVersions(db)).toEqual(files.map((f) => f.version));

    const tables = await db.pool.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['cycles', 'queries', 'rollouts', 'steps', 'step_verdicts', 'trajectory_verdicts', 'datasets', 'dataset_items', 'model_versions', 'cycle_queries']),
    );
  });

  it('4 concurrent migrators on a fresh database all succeed and apply each migration exactly once', async () => {
    const db = await freshDb();
    // Several migrations, each slow enough that the migrators really overlap without the lock.
    const dir = await tempMigrations({
      '0001_a.sql': 'create table a (id int primary key); select pg_sleep(0.2);',
      '0002_b.sql': 'create table b (id int primary key); insert into a values (1);',
      '0003_c.sql': 'alter table b add column note text; insert into a values (2);',
    });
    const pools = Array.from({ length: 4 }, () => createPool(db.url, { max: 1 }));
    try {
      const results = await Promise.all(pools.map((p) => migrate(p, dir)));
      // Every migration was applied by exactly one migrator, in order, and the others found nothing to do.
      expect(results.flat().sort()).toEqual(['0001_a', '0002_b', '0003_c']);
      expect(results.filter((r) => r.length > 0)).toHaveLength(1);
      expect(await appliedVersions(db)).toEqual([1, 2, 3]);
      // Non-idempotent statements (plain inserts) ran once.
      const rows = await db.pool.query<{ id: number }>('select id from a order by id');
      expect(rows.rows.map((r) => r.id)).toEqual([1, 2]);
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('refuses to run when an applied migration file changed', async () => {
    const db = await freshDb();
    const dir = await tempMigrations({ '0001_a.sql': 'create table a (id int primary key);' });
    expect(await migrate(db.pool, dir)).toEqual(['0001_a']);

    await fs.writeFile(path.join(dir, '0001_a.sql'), 'create table a (id bigint primary key);');
    await fs.writeFile(path.join(dir, '0002_b.sql'), 'create table b (id int);');
    const err = await migrate(db.pool, dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as Error).message).toMatch(/0001_a\.sql changed after it was applied/);
    // Nothing after the refusal was applied.
    expect(await appliedVersions(db)).toEqual([1]);
    const b = await db.pool.query(`select to_regclass('public.b') as t`);
    expect(b.rows[0].t).toBeNull();
  });

  it('rolls a failing migration back completely and records nothing for it', async () => {
    const db = await freshDb();
    const dir = await tempMigrations({
      '0001_a.sql': 'create table a (id int primary key);',
      '0002_bad.sql': 'create table half (id int); select * from no_such_table;',
    });
    await expect(migrate(db.pool, dir)).rejects.toThrow(/0002_bad\.sql failed: .*no_such_table/);
    expect(await appliedVersions(db)).toEqual([1]);
    const half = await db.pool.query(`select to_regclass('public.half') as t`);
    expect(half.rows[0].t).toBeNull();
  });

  it('rejects badly named and duplicate-version migration files', async () => {
    const db = await freshDb();
    await expect(migrate(db.pool, await tempMigrations({ 'init.sql': 'select 1;' }))).rejects.toThrow(/NNNN_snake_name/);
    await expect(
      migrate(db.pool, await tempMigrations({ '0001_a.sql': 'select 1;', '001_b.sql': 'select 1;' })),
    ).rejects.toThrow(/share version 1/);
  });
});
