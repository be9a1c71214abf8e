import { describe, expect, it } from 'vitest';
import { JsonlEncoder, encodeJsonl } from '../../export/jsonl.js';

const plain = (rows: unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('JsonlEncoder', () => {
  const system = `You are a GUI agent. ${'Tools: click(x, y), type(text) — "quoted", \\ backslash, ünïcødé, 🙂, \u0001 control. '.repeat(20)}`;
  const tools = JSON.stringify({ name: 'mobile_use', parameters: { properties: { action: { enum: ['click', 'type'] } } }, note: 'x'.repeat(300) });

  it('writes exactly the bytes of JSON.stringify per row, long repeated strings included', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({
      id: `r${i}`,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: i % 2 ? `short ${i}` : `long unique ${'y'.repeat(400)} ${i}` },
      ],
      tools,
      n: i,
      nested: { deep: [system, null, true, 1.5] },
      skipped: undefined,
    }));
    expect(encodeJsonl(rows).toString('utf8')).toBe(plain(rows));
  });

  it('is not fooled by text that looks like its marker', () => {
    const enc = new JsonlEncoder();
    const rows = [{ a: '\u00010:0\u0001', b: system, c: '"\\u0001' }, { a: system }];
    expect(enc.encode(rows).toString('utf8')).toBe(plain(rows));
    // The same encoder reuses its cache across calls.
    expect(enc.encode([{ again: system }]).toString('utf8')).toBe(plain([{ again: system }]));
  });

  it('handles top-level strings, empty input and rows without long strings', () => {
    expect(encodeJsonl([system, 'x', 3]).toString('utf8')).toBe(plain([system, 'x', 3]));
    expect(encodeJsonl([]).length).toBe(0);
    expect(encodeJsonl([{ a: 1 }]).toString('utf8')).toBe('{"a":1}\n');
  });
});
