import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadDag } from '../../apps/kit.js';
import type { DesktopApp } from './types.js';
import { evaluateExpression } from '../../../domain/arithmetic.js';

/** Value of a two-operand expression (shared with the critics: domain/arithmetic.ts). */
export const evaluate = evaluateExpression;

/**
 * Galculator (a GTK calculator). It keeps its display only in memory, so its checker reads the live display
 * through the accessibility tree — real application state, never shown to agents as a verdict.
 */
export const calculatorApp: DesktopApp = {
  id: 'calculator',
  title: 'galculator',
  windowClass: 'galculator',
  command: () => ['galculator'],
  async prepare(home) {
    await mkdir(path.join(home, '.config', 'galculator'), { recursive: true });
  },
  dag: loadDag(new URL('./dags/calculator.json', import.meta.url), 'environments/desktop/apps/dags/calculator.json'),
  families: [
    {
      id: 'compute',
      slots: ['expression'],
      async check(p, ctx) {
        const want = evaluate(p.expression!);
        if (want === undefined) throw new Error(`calculator/compute: cannot evaluate "${p.expression}"`);
        const shown = (await ctx.a11yTexts()).map((t) => t.replace(/\s+/g, '')).filter((t) => /^-?[\d.,]+(e[+-]?\d+)?$/i.test(t));
        return shown.some((t) => Math.abs(Number(t.replace(/,/g, '')) - want) < 1e-9)
          ? { success: true, reason: `the display shows ${want}` }
          : { success: false, reason: `the display shows ${shown.join(' / ') || 'no number'}, not ${want}` };
      },
    },
  ],
};
