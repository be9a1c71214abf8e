import { randomBytes } from 'node:crypto';

/** Strings at least this long are escaped and encoded once per encoder (system prompts, tool specs). */
const LONG = 256;

/**
 * JSON Lines for rows that repeat a few long strings — every SFT row carries the same system prompt and tool
 * spec, which are most of its bytes. Each long string is JSON-escaped and UTF-8-encoded once; its bytes are copied
 * into every row that holds it, and only the rest of the row goes through `JSON.stringify`. The output is
 * byte-identical to `rows.map((r) => JSON.stringify(r)).join('\n') + '\n'` (test/export/jsonl.test.ts).
 *
 * Long strings are swapped for a marker carrying a per-encoder random nonce while the row is stringified, so
 * no text a row could hold is mistaken for one.
 */
export class JsonlEncoder {
  private readonly nonce = randomBytes(6).toString('hex');
  private readonly ids = new Map<string, number>();
  private readonly encoded: Buffer[] = [];
  private readonly marker: RegExp;
  private readonly replacer: (this: unknown, key: string, value: unknown) => unknown;

  constructor() {
    // JSON.stringify writes U+0001 as the six characters \u0001.
    this.marker = new RegExp(`"\\\\u0001${this.nonce}:(\\d+)\\\\u0001"`, 'g');
    const prefix = `\u0001${this.nonce}:`;
    this.replacer = (_key, value) => {
      if (typeof value !== 'string' || value.length < LONG) return value;
      let id = this.ids.get(value);
      if (id === undefined) {
        id = this.encoded.length;
        this.ids.set(value, id);
        this.encoded.push(Buffer.from(JSON.stringify(value)));
      }
      return `${prefix}${id}\u0001`;
    };
  }

  /** One row's JSON (no newline) as buffers to concatenate. */
  private row(row: unknown, out: Buffer[]): number {
    const json = JSON.stringify(row, this.replacer);
    let bytes = 0;
    let at = 0;
    for (const m of json.matchAll(this.marker)) {
      if (m.index > at) {
        const piece = Buffer.from(json.slice(at, m.index));
        out.push(piece);
        bytes += piece.length;
      }
      const long = this.encoded[Number(m[1])]!;
      out.push(long);
      bytes += long.length;
      at = m.index + m[0].length;
    }
    const tail = Buffer.from(at === 0 ? `${json}\n` : `${json.slice(at)}\n`);
    out.push(tail);
    return bytes + tail.length;
  }

  /** The rows as JSON Lines (each row followed by a newline). */
  encode(rows: readonly unknown[]): Buffer {
    const out: Buffer[] = [];
    let bytes = 0;
    for (const r of rows) bytes += this.row(r, out);
    return Buffer.concat(out, bytes);
  }
}

/** JSON Lines of these rows (see JsonlEncoder). */
export const encodeJsonl = (rows: readonly unknown[]): Buffer => new JsonlEncoder().encode(rows);
