/**
 * The multi-generation self-evolution run: a standing line on the embedded defaults for `--generations` generations
 * (cycle → trigger → train → eval gate → promote or reject → next cycle), then the curve and the report.
 *
 *   npx tsx bench/evolve.ts [--generations 3] [--queries 10] [--apps calendar,messages,notes] [--eval-queries 8] …
 *
 * Every flag of `trajforge line start` is accepted (these are the defaults this benchmark adds: small enough for a
 * CPU-only machine). Use a fresh TRAJFORGE_HOME to start from the base policy.
 */
import { lineCommand } from '../cli/line.js';

const defaults: Record<string, string> = {
  '--id': `evolve-${Date.now().toString(36)}`,
  '--generations': '3',
  '--queries': '10',
  '--attempts': '1',
  '--max-steps': '12',
  '--apps': 'calendar,messages,notes',
  '--min-new-accepted': '6',
  '--eval-set': 'evolve-eval',
  '--eval-queries': '8',
  '--eval-seeds': '1,2,3',
  '--eval-max-steps': '12',
};
const args = process.argv.slice(2);
for (const [flag, value] of Object.entries(defaults)) if (!args.includes(flag)) args.push(flag, value);
const t0 = performance.now();
await lineCommand(['start', ...args]);
process.stdout.write(`bench/evolve: ${((performance.now() - t0) / 1000).toFixed(0)} s wall\n`);
