import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadDag } from '../../apps/kit.js';
import type { DesktopApp, DesktopCheckContext } from './types.js';
import { supplyRows } from './fixtures.js';

/** The episode's workbook: ~/Documents/supplies.gnumeric (made from a seeded CSV by Gnumeric's own ssconvert). */
export const SHEET_FILE = 'Documents/supplies.gnumeric';

/** Reads the saved workbook's first sheet as rows of cell strings (values, formulas evaluated by Gnumeric). */
async function savedCells(ctx: DesktopCheckContext): Promise<string[][] | undefined> {
  try {
    const csv = await ctx.run(['ssconvert', '--export-type=Gnumeric_stf:stf_csv', path.join(ctx.home, SHEET_FILE), 'fd://1']);
    return csv.split(/\r?\n/).filter((l) => l.length > 0).map((l) => l.split(',').map((c) => c.replace(/^"|"$/g, '')));
  } catch {
    return undefined;
  }
}

/** "B3" → [row 2, col 1] (zero-based). */
export function cellIndex(ref: string): [number, number] {
  const m = /^([A-Z])(\d{1,3})$/.exec(ref.trim().toUpperCase());
  if (!m) throw new Error(`not a cell reference: "${ref}"`);
  return [Number(m[2]) - 1, m[1]!.charCodeAt(0) - 65];
}

const sameNumber = (a: string | undefined, b: string): boolean => a !== undefined && Number(a) === Number(b) && a.trim() !== '';

/** Gnumeric on a seeded supplies workbook. Checkers read the saved file through ssconvert. */
export const spreadsheetApp: DesktopApp = {
  id: 'spreadsheet',
  title: 'Gnumeric',
  windowClass: 'gnumeric',
  command: (home) => ['gnumeric', '--no-splash', path.join(home, SHEET_FILE)],
  async prepare(home, seed, run) {
    await mkdir(path.join(home, 'Documents'), { recursive: true });
    const csv = ['item,qty,price', ...supplyRows(seed).map((r) => `${r.item},${r.qty},${r.price}`)].join('\n') + '\n';
    const csvPath = path.join(home, 'Documents', 'supplies.csv');
    await writeFile(csvPath, csv);
    await run(['ssconvert', csvPath, path.join(home, SHEET_FILE)]);
  },
  dag: loadDag(new URL('./dags/spreadsheet.json', import.meta.url), 'environments/desktop/apps/dags/spreadsheet.json'),
  families: [
    {
      id: 'set_cell',
      slots: ['cell', 'value'],
      async check(p, ctx) {
        const cells = await savedCells(ctx);
        if (!cells) return { success: false, reason: `${SHEET_FILE} cannot be read` };
        const [r, c] = cellIndex(p.cell!);
        const got = cells[r]?.[c];
        return got === p.value || sameNumber(got, p.value!)
          ? { success: true, reason: `${p.cell} = ${p.value} in the saved workbook` }
          : { success: false, reason: `${p.cell} is "${got ?? ''}" in the saved workbook, not "${p.value}"` };
      },
    },
    {
      id: 'column_total',
      slots: ['total_cell', 'column'],
      async check(p, ctx) {
        const cells = await savedCells(ctx);
        if (!cells) return { success: false, reason: `${SHEET_FILE} cannot be read` };
        const [r, c] = cellIndex(p.total_cell!);
        const col = p.column!.trim().toUpperCase().charCodeAt(0) - 65;
        const expected = cells.slice(1).filter((_, i) => i + 1 !== r).reduce((a, row) => a + (Number(row[col]) || 0), 0);
        const got = cells[r]?.[c];
        return sameNumber(got, String(expected))
          ? { success: true, reason: `${p.total_cell} holds the column ${p.column} total ${expected}` }
          : { success: false, reason: `${p.total_cell} is "${got ?? ''}", the column ${p.column} total is ${expected}` };
      },
    },
  ],
};
