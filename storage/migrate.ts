import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { z } from 'zod';
import { many, withClient } from './db.js';

/** `<repo>/migrations`. */
export const DEFAULT_MIGRATIONS_DIR: string = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'migrations',
);

/** Session advisory lock key shared by every migrator ("trajforg" as a 64-bit number's low bits). */
const LOCK_KEY = 7_238_211_871_092_001;

export interface MigrationFile {
  version: number;
  name: string;
  file: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationError';
  }
}

const FILE_RE = /^(\d+)_([a-z0-9_]+)\.sql$/;

/** Reads `NNNN_name.sql` files in version order; rejects duplicates and stray `.sql` names. */
export async function readMigrations(dir: string = DEFAULT_MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.sql'));
  const out: MigrationFile[] = [];
  for (const file of names) {
    const m = FILE_RE.exec(file);
    if (!m) throw new MigrationError(`migration file ${file} in ${dir} is not named NNNN_snake_name.sql`);
    const sql = await fs.readFile(path.join(dir, file), 'utf8');
    out.push({
      version: Number.parseInt(m[1] ?? '', 10),
      name: m[2] ?? '',
      file,
      sql,
      checksum: createHash('sha256').update(sql).digest('hex'),
    });
  }
  out.sort((a, b) => a.version - b.version);
  for (let i = 1; i < out.length; i++) {
    const prev = out[i - 1];
    const cur = out[i];
    if (prev && cur && prev.version === cur.version) {
      throw new MigrationError(`two migrations share version ${cur.version}: ${prev.file} and ${cur.file}`);
    }
  }
  return out;
}

const AppliedRow = z.object({ version: z.number().int(), name: z.string(), checksum: z.string() });

/**
 * Applies pending migrations in version order, each in its own transaction, under a session-level
 * `pg_advisory_lock` so concurrent starts serialise (the losers find everything applied and do nothing).
 * Forward-only: refuses to run when an applied migration's file changed (checksum) or disappeared.
 * Returns the migrations this call applied, as file stems (`0001_init`); empty when already current.
 */
export async function migrate(pool: pg.Pool, dir: string = DEFAULT_MIGRATIONS_DIR): Promise<string[]> {
  const files = await readMigrations(dir);
  return withClient(pool, async (client) => {
    await client.query('select pg_advisory_lock($1)', [LOCK_KEY]);
    try {
      await client.query(`
        create table if not exists schema_migrations (
          version integer primary key,
          name text not null,
          checksum text not null,
          applied_at timestamptz not null default now()
        )`);
      const applied = await many(
        client,
        'select version, name, checksum from schema_migrations order by version',
        [],
        AppliedRow,
      );
      const byVersion = new Map(files.map((f) => [f.version, f]));
      for (const row of applied) {
        const file = byVersion.get(row.version);
        if (!file) {
          throw new MigrationError(
            `migration ${row.version} (${row.name}) is applied in the database but has no file in ${dir}; ` +
              'the database is newer than this code',
          );
        }
        if (file.checksum !== row.checksum) {
          throw new MigrationError(
            `migration ${file.file} changed after it was applied (checksum ${row.checksum.slice(0, 12)} in the ` +
              `database, ${file.checksum.slice(0, 12)} on disk); migrations are forward-only: revert the edit and ` +
              'add a new migration instead',
          );
        }
      }
      const done = new Set(applied.map((r) => r.version));
      const result: string[] = [];
      for (const file of files) {
        if (done.has(file.version)) continue;
        await client.query('begin');
        try {
          await client.query(file.sql);
          await client.query('insert into schema_migrations (version, name, checksum) values ($1, $2, $3)', [
            file.version,
            file.name,
            file.checksum,
          ]);
          await client.query('commit');
        } catch (err) {
          await client.query('rollback').catch(() => undefined);
          throw new MigrationError(`migration ${file.file} failed: ${(err as Error).message}`);
        }
        result.push(file.file.replace(/\.sql$/, ''));
      }
      return result;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [LOCK_KEY]).catch(() => undefined);
    }
  });
}
