/**
 * The multi-generation self-evolution run: a standing line on the embedded defaults for `--generations` generations
 * (cycle → trigger → train → eval gate → promote or reject → next cycle), then the curve and the report.
 *
 *   npx tsx bench/evolve.ts [--generations 3] [--queries 10] [--apps calendar,messages,notes] [--eval-queries 8] …
 *                           [--hard-families X [--probe-per-family 2]]
 *
 * Every flag of `trajforge line start` is accepted (these are the defaults this benchmark adds: small enough for a
 * CPU-only machine). Use a fresh TRAJFORGE_HOME to start from the base policy.
 *
 * `--hard-families X`: before the line starts, probe every task family of `--apps` with the base policy
 * (bench/hard-families.ts: a few unguided T = 0 episodes per family, checker-judged) and run the line — its cycles
 * and its frozen eval set — on the families whose success is ≤ X only (`--families`), so that there is room to rise.
 * The cycles' guidance stage turns those hard queries into guided successes; the eval set is rolled out unguided.
 * `--ref-sources demonstration,mobile-agent-v3` takes the guidance stage's references from the demonstration library
 * first (environments/demonstrations/), so a line on families no agent mode solves can still learn them.
 */
import { loadavg } from 'node:os';
import { lineCommand } from '../cli/line.js';
import { hardFamilies, probeFamilies } from './hard-families.js';

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
/** Removes a bench-only flag and its value from the line's arguments. */
const take = (flag: string): string | undefined => {
  const i = args.indexOf(flag);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`${flag}: missing value`);
  args.splice(i, 2);
  return v;
};
const hardMax = take('--hard-families');
const perFamily = Number(take('--probe-per-family') ?? '2');
for (const [flag, value] of Object.entries(defaults)) if (!args.includes(flag)) args.push(flag, value);
const t0 = performance.now();
if (hardMax !== undefined) {
  const max = Number(hardMax);
  if (!(max >= 0 && max <= 1)) throw new Error(`--hard-families: expected a success rate in 0..1, got "${hardMax}"`);
  if (!(Number.isInteger(perFamily) && perFamily >= 1)) throw new Error(`--probe-per-family: expected an integer ≥ 1`);
  const apps = (args[args.indexOf('--apps') + 1] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const maxSteps = Number(args[args.indexOf('--max-steps') + 1]);
  const rows = await probeFamilies({ apps, perFamily, seed: 424_242, maxSteps, sessions: 2 });
  for (const r of rows) process.stdout.write(`  probe ${`${r.app}/${r.family}`.padEnd(32)} base success ${r.successes}/${r.episodes}\n`);
  const hard = hardFamilies(rows, max);
  if (hard.length === 0) throw new Error(`--hard-families ${hardMax}: no family of ${apps.join(',')} is that hard for the base policy`);
  const families = [...new Set(hard.map((r) => r.family))];
  process.stdout.write(`bench/evolve: hard families (base success ≤ ${max}): ${families.join(',')} (probe ${((performance.now() - t0) / 1000).toFixed(0)} s)\n`);
  if (args.includes('--families')) throw new Error('--hard-families chooses --families itself: give one of them');
  args.push('--families', families.join(','));
}
await lineCommand(['start', ...args]);
process.stdout.write(`bench/evolve: ${((performance.now() - t0) / 1000).toFixed(0)} s wall, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}\n`);
