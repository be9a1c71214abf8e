/**
 * Chaos benchmark: the same cycle (fixed seed) twice on fresh services of its own — once fault-free, once while a
 * seeded fault injector kills workers, restarts Temporal and Postgres, breaks S3 and model requests and hangs or kills
 * the environment (bench/chaos-harness.ts) — then prints faults per kind, the outcome, lost/duplicated counts against
 * the fault-free run and the time to recover per fault kind.
 *
 *   npx tsx bench/chaos.ts [--seed 7] [--queries 6] [--attempts 1] [--max-steps 6] [--apps food,notes,shop]
 *     [--kills 24] [--temporal-restarts 3] [--postgres-restarts 3] [--chromium-kills 2] [--browser-hangs 2]
 *     [--freezes 2] [--restless 2] [--disk-fulls 2] [--disk-full-hold-s 20] [--rate 0.1] [--start-s 20] [--window-s 420]
 *     [--guidance] [--no-baseline] [--keep]
 */
import { mkdtemp } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { compare, faultTable, invariantViolations, NO_FAULTS, runChaosCycle, type ChaosPlan, type ChaosRunOptions, type ChaosRunResult } from './chaos-harness.js';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '7' },
    queries: { type: 'string', default: '6' },
    attempts: { type: 'string', default: '1' },
    'max-steps': { type: 'string', default: '6' },
    apps: { type: 'string', default: 'food,notes,shop' },
    sessions: { type: 'string', default: '2' },
    kills: { type: 'string', default: '24' },
    'temporal-restarts': { type: 'string', default: '3' },
    'postgres-restarts': { type: 'string', default: '3' },
    'chromium-kills': { type: 'string', default: '2' },
    'browser-hangs': { type: 'string', default: '2' },
    freezes: { type: 'string', default: '2' },
    restless: { type: 'string', default: '2' },
    'disk-fulls': { type: 'string', default: '2' },
    'disk-full-hold-s': { type: 'string', default: '20' },
    rate: { type: 'string', default: '0.1' },
    'start-s': { type: 'string', default: '20' },
    'window-s': { type: 'string', default: '420' },
    guidance: { type: 'boolean', default: false },
    'no-baseline': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const int = (k: keyof typeof values): number => Number(values[k]);
const load = (): string => loadavg().map((x) => x.toFixed(1)).join(' ');
const log = (line: string): void => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

const plan: ChaosPlan = {
  workerKills: int('kills'),
  temporalRestarts: int('temporal-restarts'),
  postgresRestarts: int('postgres-restarts'),
  chromiumKills: int('chromium-kills'),
  browserHangs: int('browser-hangs'),
  workerFreezes: int('freezes'),
  restlessPages: int('restless'),
  diskFulls: int('disk-fulls'),
  diskFullHoldMs: int('disk-full-hold-s') * 1000,
  httpFaultRate: Number(values.rate),
  startMs: int('start-s') * 1000,
  windowMs: int('window-s') * 1000,
};
const base = async (faulty: boolean): Promise<ChaosRunOptions> => ({
  seed: int('seed'),
  queries: int('queries'),
  attempts: int('attempts'),
  maxSteps: int('max-steps'),
  apps: String(values.apps).split(','),
  guidance: Boolean(values.guidance),
  envSessions: int('sessions'),
  plan: faulty ? plan : NO_FAULTS,
  home: await mkdtemp(path.join(tmpdir(), faulty ? 'trajforge-chaos-' : 'trajforge-calm-')),
  keep: Boolean(values.keep),
  cycleTimeoutMs: 60 * 60_000,
  log: (l) => log(`${faulty ? 'chaos' : 'calm '}: ${l}`),
});

function summary(name: string, r: ChaosRunResult, expected: number): void {
  console.log(`\n${name}: ${r.completed ? 'completed' : `NOT completed (${r.error})`} in ${(r.elapsedMs / 1000).toFixed(0)} s; worker processes started ${JSON.stringify(r.workerStarts)}`);
  if (r.result) {
    const c = r.result.counts;
    console.log(`  rollouts ${c.rollouts} (degraded ${c.degraded}), steps ${c.steps}, step verdicts ${c.stepVerdicts}, accepted ${c.accepted}, rejected ${c.rejected}, dataset ${r.result.dataset ? `${r.result.dataset.name} v${r.result.dataset.version}, ${r.result.dataset.samples} samples` : 'none'}`);
  }
  if (r.snapshot) {
    const v = invariantViolations(r.snapshot, expected, r.result?.dataset ? 1 : 0);
    console.log(`  invariants (no duplicate, nothing dangling): ${v.length ? v.join('; ') : 'all hold'}`);
    console.log(`  blobs: ${r.snapshot.blobs.objects} objects, ${r.snapshot.blobs.referenced} referenced by rows, ${r.snapshot.blobs.missing.length} missing, ${r.snapshot.blobs.corrupt.length} not matching their key`);
    const rs = [...r.snapshot.rollouts.values()];
    console.log(`  tags: ${rs.filter((x) => x.degraded).length} degraded, ${rs.filter((x) => x.envError).length} with an environment-error step, ${rs.filter((x) => x.modelError).length} with a model-error step, ${rs.filter((x) => x.unsettled).length} with an unsettled-page step`);
  }
}

async function main(): Promise<void> {
  const expected = int('queries') * int('attempts');
  console.log(`chaos bench: seed ${values.seed}, ${values.queries} queries × ${values.attempts} attempts, ≤${values['max-steps']} steps, apps ${values.apps}; load average ${load()} at the start`);
  console.log(`plan: ${JSON.stringify(plan)}`);
  const calm = values['no-baseline'] ? undefined : await runChaosCycle(await base(false));
  if (calm) summary('fault-free run', calm, expected);
  console.log(`load average ${load()}`);
  const chaos = await runChaosCycle(await base(true));
  summary('chaos run', chaos, expected);
  console.log('\nfaults injected (recover: worker ready again / server answering / hang noticed / next request served; next row: the pipeline wrote again):');
  for (const line of faultTable(chaos.faults)) console.log(line);
  for (const f of chaos.faults.filter((x) => x.note && x.at > 0 && (x.kind === 'blob disk full' || x.kind === 'page never settles' || x.note.startsWith('skipped') || x.note.startsWith('not') || x.note.startsWith('no ')))) console.log(`    ${f.kind}: ${f.note}`);
  const processFaults = chaos.faults.filter((f) => f.at > 0 && !f.note?.startsWith('skipped')).length;
  const httpFaults = chaos.faults.filter((f) => f.at === 0).length;
  console.log(`  total: ${processFaults} process/service faults, ${httpFaults} HTTP faults`);
  if (chaos.hungDetectionMs.length) console.log(`  hung environment noticed in: ${chaos.hungDetectionMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')} (bound: 30 s)`);
  if (calm?.snapshot && chaos.snapshot) {
    const c = compare(calm.snapshot, chaos.snapshot);
    console.log('\nagainst the fault-free run (same seed):');
    console.log(`  ${'key'.padEnd(32)} ${'calm'.padStart(6)} ${'chaos'.padStart(6)} ${'lost'.padStart(5)} ${'dup'.padStart(5)}`);
    for (const r of c.rows) console.log(`  ${r.what.padEnd(32)} ${String(r.baseline).padStart(6)} ${String(r.chaos).padStart(6)} ${String(r.lost).padStart(5)} ${String(r.duplicated).padStart(5)}`);
    console.log(`  rollouts with the same actions as the fault-free run: ${c.identicalRollouts}/${calm.snapshot.rollouts.size}; diverged and tagged (degraded / environment or model error step / unsettled page): ${c.divergedTagged}; diverged untagged: ${c.divergedUntagged.length}${c.divergedUntagged.length ? ` (${c.divergedUntagged.join(', ')})` : ''}`);
    console.log(`  dataset lines of same-trajectory rollouts: ${c.datasetLines.compared} compared, ${c.datasetLines.identical} identical, ${c.datasetLines.differing} differing`);
  }
  console.log(`\nload average ${load()} at the end`);
  process.exit(chaos.completed ? 0 : 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
