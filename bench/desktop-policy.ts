/**
 * The reference policy on the desktop: success per app and family (checker-judged) over generated desktop queries.
 *
 *   npx tsx bench/desktop-policy.ts [--queries 20] [--seeds 1,2,3] [--max-steps 10]
 *
 * Rolls out with the same episode loop as the pipeline (agents/episode.ts, `computer_use` tool) against real
 * desktop sessions; mean ± sd over seeds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runEpisode } from '../agents/episode.js';
import { loadDesktopDags } from '../environments/desktop/apps/index.js';
import { createDesktopEnv } from '../environments/desktop/session.js';
import { createOcrEngine } from '../models/ocr.js';
import { inProcessModel } from '../models/reference/in-process.js';
import { referenceRoles } from '../models/reference/roles.js';
import { queryRefineRole, querySynthRole } from '../models/reference/roles/query.js';
import { generateQueryBatch } from '../query-gen/pipeline.js';
import { MemoryBlobStore } from '../test/environments/memory-blobs.js';

const { values } = parseArgs({ options: { queries: { type: 'string', default: '20' }, seeds: { type: 'string', default: '1,2,3' }, 'max-steps': { type: 'string', default: '10' }, verbose: { type: 'boolean', default: false } } });
const seeds = values.seeds.split(',').map(Number);
const ocr = await createOcrEngine();
const policy = inProcessModel('ref-policy', referenceRoles()['ref-policy']!, ocr);
const synth = { synth: inProcessModel('ref-query-synth', querySynthRole), refine: inProcessModel('ref-query-refine', queryRefineRole) };
const blobs = new MemoryBlobStore();
const dir = await mkdtemp(path.join(tmpdir(), 'tf-desktop-policy-'));
const env = createDesktopEnv({ blobs, stateDir: dir });
const session = await env.newSession();
const perApp = new Map<string, number[]>();
try {
  for (const seed of seeds) {
    const { queries } = await generateQueryBatch({ dags: loadDesktopDags(), count: Number(values.queries), seed, sampler: 'families', models: synth });
    const wins = new Map<string, [number, number]>();
    for (const q of queries) {
      const result = await runEpisode({ env: session, policy, blobs, app: q.app, instruction: q.instruction, seed: q.seed, maxSteps: Number(values['max-steps']), historyImages: 1, temperature: 0, actionSpace: 'desktop' });
      const ok = result.environmentFailure ? false : (await session.check(q.checker)).success;
      const w = wins.get(q.app) ?? [0, 0];
      wins.set(q.app, [w[0] + (ok ? 1 : 0), w[1] + 1]);
      if (values.verbose) console.log(`${ok ? 'OK  ' : 'FAIL'} ${q.app}/${q.family} ${result.steps.length} steps: ${q.instruction} | ${result.steps.map((s) => s.conclusion).join(' › ')}`);
    }
    for (const [app, [k, n]] of wins) perApp.set(app, [...(perApp.get(app) ?? []), (100 * k) / n]);
    perApp.set('all', [...(perApp.get('all') ?? []), (100 * [...wins.values()].reduce((a, [k]) => a + k, 0)) / [...wins.values()].reduce((a, [, n]) => a + n, 0)]);
  }
} finally {
  await env.close();
  await rm(dir, { recursive: true, force: true });
}
const stats = (xs: number[]): string => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1));
  return `${m.toFixed(0)} ± ${sd.toFixed(0)}`;
};
console.log(`reference policy on the desktop, ${values.queries} queries × seeds ${values.seeds}, ≤${values['max-steps']} steps`);
console.log('| app | success %, mean ± sd over seeds |');
console.log('|---|---|');
for (const [app, xs] of perApp) console.log(`| ${app} | ${stats(xs)} |`);
