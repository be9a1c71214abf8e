/**
 * Summarises a V8 CPU profile (`node --cpu-prof`) into self time per area and the top functions, so a benchmark's
 * note can say what dominates with numbers.
 *
 *   npx tsx bench/profile-summary.ts /tmp/prof/CPU.….cpuprofile [--top 25]
 *
 * Areas: a node_modules package (`@temporalio/worker`, `pg`, `onnxruntime-node`, …), a repo folder (`models/`,
 * `environments/`, …), `node:` internals, or V8's `(garbage collector)`, `(program)` and `(idle)`.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';

const CpuProfile = z.object({
  nodes: z.array(
    z.object({
      id: z.number(),
      callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
      hitCount: z.number().optional(),
    }),
  ),
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number()).optional(),
  timeDeltas: z.array(z.number()).optional(),
});

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' } } });
const file = positionals[0];
if (!file) {
  console.error('usage: npx tsx bench/profile-summary.ts FILE.cpuprofile [--top N]');
  process.exit(2);
}
const profile = CpuProfile.parse(JSON.parse(readFileSync(file, 'utf8')));

/** Self time (µs) per node id, from the sample stream (exact) or hit counts (fallback). */
const selfUs = new Map<number, number>();
if (profile.samples && profile.timeDeltas) {
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    // timeDeltas[i] is the time before sample i: attribute the following interval to sample i.
    const dt = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, dt));
  }
} else {
  const hits = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0) || 1;
  for (const n of profile.nodes) selfUs.set(n.id, ((n.hitCount ?? 0) / hits) * (profile.endTime - profile.startTime));
}

function areaOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  if (url.startsWith('node:')) return 'node: internals';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const m = /\/(activities|agents|bench|cli|critics|domain|environments|export|models|query-gen|review|storage|synthesis|workflows)\//.exec(url);
  return m ? `${m[1]}/` : url.replace(/^file:\/\//, '');
}

const byArea = new Map<string, number>();
const byFn = new Map<string, number>();
for (const n of profile.nodes) {
  const us = selfUs.get(n.id) ?? 0;
  if (us === 0) continue;
  const area = areaOf(n.callFrame.url, n.callFrame.functionName);
  byArea.set(area, (byArea.get(area) ?? 0) + us);
  const fn = `${n.callFrame.functionName || '(anonymous)'} ${area}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  byFn.set(fn, (byFn.get(fn) ?? 0) + us);
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idle = byArea.get('(idle)') ?? 0;
const busy = total - idle;
const top = Number(values.top);
const fmt = (us: number): string => `${(us / 1e6).toFixed(1).padStart(7)} s  ${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(5)}%`;
console.log(`profile ${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s on the main thread (not idle); shares are of that busy time`);
console.log('\nself time by area:');
for (const [a, us] of [...byArea].filter(([a]) => a !== '(idle)').sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${fmt(us)}  ${a}`);
console.log('\ntop functions (self time):');
for (const [f, us] of [...byFn].filter(([f]) => !f.startsWith('(idle)')).sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`  ${fmt(us)}  ${f}`);
