import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { encodeJsonl } from './jsonl.js';

/**
 * Parquet through DuckDB: rows are staged as newline-delimited JSON and converted with one `COPY … TO (FORMAT
 * parquet)` under an explicit column schema, so types never depend on inference. One thread and insertion order
 * preserved make the output byte-identical for identical rows (re-export test).
 *
 * `columns` maps column names to DuckDB types; `select` may transform staged columns (e.g. base64 → BLOB).
 */
export class ParquetWriter {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly con: DuckDBConnection,
    private readonly dir: string,
  ) {}

  static async open(): Promise<ParquetWriter> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1', preserve_insertion_order: 'true' });
    const con = await instance.connect();
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trajforge-parquet-'));
    return new ParquetWriter(instance, con, dir);
  }

  async write(rows: readonly unknown[], columns: Record<string, string>, select = '*'): Promise<Uint8Array> {
    const stem = path.join(this.dir, `t${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`);
    const input = `${stem}.jsonl`;
    const output = `${stem}.parquet`;
    await fs.writeFile(input, encodeJsonl(rows));
    const cols = Object.entries(columns)
      .map(([k, t]) => `${quoteString(k)}: ${quoteString(t)}`)
      .join(', ');
    try {
      await this.con.run(
        `COPY (SELECT ${select} FROM read_json('${input}', format = 'newline_delimited', columns = {${cols}})) TO '${output}' (FORMAT parquet, COMPRESSION zstd)`,
      );
      return new Uint8Array(await fs.readFile(output));
    } finally {
      await fs.rm(input, { force: true });
      await fs.rm(output, { force: true });
    }
  }

  async close(): Promise<void> {
    this.con.closeSync();
    this.instance.closeSync();
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}

const quoteString = (s: string): string => `'${s.replace(/'/g, "''")}'`;
