import pg from 'pg';
import type { z } from 'zod';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
/** Anything that can run a query: a pool, a pooled client or a plain client. */
export type Queryable = Pick<pg.Pool | pg.PoolClient | pg.Client, 'query'>;

/** A query that must return a row returned none. */
export class NotFoundError extends Error {
  constructor(
    message: string,
    readonly sql: string,
    readonly values: readonly unknown[],
  ) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** A row did not match the schema the code expects (or a query returned more rows than it may). */
export class DataIntegrityError extends Error {
  constructor(
    message: string,
    readonly sql: string,
    readonly values: readonly unknown[],
    readonly issues: readonly z.core.$ZodIssue[] = [],
  ) {
    super(message);
    this.name = 'DataIntegrityError';
  }
}

// bigint (int8) and numeric come back as strings by default; counts are small, so parse int8 as a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v: string) => Number.parseInt(v, 10));

export function createPool(url: string, opts: { max?: number } = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10 });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  return pool;
}

export async function withClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await fn(client);
  } finally {
    client.release();
  }
}

/** Runs `fn` in a transaction: COMMIT on success, ROLLBACK on any failure (including a failed COMMIT). */
export async function withTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let done = false;
  let broken = false;
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    done = true;
    return result;
  } finally {
    if (!done) {
      try {
        await client.query('rollback');
      } catch {
        broken = true;
      }
    }
    // A client whose rollback failed is in an unknown state: destroy it instead of returning it to the pool.
    client.release(broken ? true : undefined);
  }
}

function parseRow<S extends z.ZodType>(schema: S, row: unknown, sql: string, values: readonly unknown[]): z.infer<S> {
  const result = schema.safeParse(row);
  if (result.success) return result.data;
  const detail = result.error.issues.map((i) => `${i.path.join('.') || '(row)'}: ${i.message}`).join('; ');
  throw new DataIntegrityError(`row does not match schema: ${detail}`, sql, values, result.error.issues);
}

/** All rows, each parsed with `rowSchema`. */
export async function many<S extends z.ZodType>(
  client: Queryable,
  sql: string,
  values: readonly unknown[],
  rowSchema: S,
): Promise<z.infer<S>[]> {
  const res = await client.query(sql, values as unknown[]);
  return res.rows.map((row: unknown) => parseRow(rowSchema, row, sql, values));
}

/** Zero or one row; more than one is a DataIntegrityError. */
export async function maybeOne<S extends z.ZodType>(
  client: Queryable,
  sql: string,
  values: readonly unknown[],
  rowSchema: S,
): Promise<z.infer<S> | undefined> {
  const res = await client.query(sql, values as unknown[]);
  if (res.rows.length > 1) {
    throw new DataIntegrityError(`expected at most one row, got ${res.rows.length}`, sql, values);
  }
  const row: unknown = res.rows[0];
  return row === undefined ? undefined : parseRow(rowSchema, row, sql, values);
}

/** Exactly one row: none is a NotFoundError, more than one a DataIntegrityError. */
export async function one<S extends z.ZodType>(
  client: Queryable,
  sql: string,
  values: readonly unknown[],
  rowSchema: S,
  what = 'row',
): Promise<z.infer<S>> {
  const row = await maybeOne(client, sql, values, rowSchema);
  if (row === undefined) throw new NotFoundError(`${what} not found`, sql, values);
  return row;
}
