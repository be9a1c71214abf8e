import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DesktopApp } from './types.js';

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
  families: [
    {
      id: 'compute',
      slots: ['result'],
      async check(p, ctx) {
        const want = Number(p.result);
        const shown = (await ctx.a11yTexts()).map((t) => t.replace(/\s+/g, '')).filter((t) => /^-?[\d.,]+(e[+-]?\d+)?$/i.test(t));
        return shown.some((t) => Math.abs(Number(t.replace(/,/g, '')) - want) < 1e-9)
          ? { success: true, reason: `the display shows ${p.result}` }
          : { success: false, reason: `the display shows ${shown.join(' / ') || 'no number'}, not ${p.result}` };
      },
    },
  ],
};
