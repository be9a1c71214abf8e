/**
 * Export throughput: steps/s of `exportSnapshot` for JSONL (SFT messages) and Parquet (GRPO step pool, TRPO
 * records) over ≥ 10,000 stored steps, images referenced by relative path and copied once (no embedding, no OCR).
 *
 * Rows are synthesised in the shape the rollout stage stores them (10-step GUI-Owl rollouts: click with a UI tree,
 * type, swipe…, terminate; real PNG screenshots in a local blob store; step verdicts and consensus verdicts), in a
 * private embedded Postgres. Usage: `npx tsx bench/export.ts [--rollouts 1000] [--steps 10] [--rounds 2]`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { startEmbeddedPostgres } from '../cli/services/postgres.js';
import { freePort } from '../cli/services/s3-server.js';
import { Rollout, type Query } from '../domain/entities.js';
import { exportSnapshot, type SnapshotRequest } from '../export/snapshot.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import { createPool } from '../storage/db.js';
import { migrate } from '../storage/migrate.js';
import * as repo from '../storage/repos.js';

const { values } = parseArgs({
  options: { rollouts: { type: 'string', default: '1000' }, steps: { type: 'string', default: '10' }, rounds: { type: 'string', default: '2' } },
});
const ROUNDS = Number(values.rounds);
const ROLLOUTS = Number(values.rollouts);
const STEPS = Number(values.steps);
const IMAGES = 200;
const CRITIC = 'critic-bench';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trajforge-bench-export-'));
await fs.chmod(dir, 0o755); // as root, Postgres runs as `postgres` and must reach its data dir
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), port: await freePort() });
const db = createPool(pg.url);
try {
  await migrate(db);
  const blobs = createLocalBlobStore(path.join(dir, 'blobs'));
  const keys: string[] = [];
  for (let i = 0; i < IMAGES; i++) {
    const png = await sharp({ create: { width: 360, height: 800, channels: 3, background: { r: i % 256, g: (i * 7) % 256, b: (i * 13) % 256 } } }).png().toBuffer();
    keys.push(await blobs.put(png, { ext: '.png', contentType: 'image/png' }));
  }
  const tree = await blobs.put(Buffer.from(JSON.stringify({ nodes: [{ bounds: [0, 0, 360, 800] }, { bounds: [20, 40, 200, 90] }] })), { ext: '.json' });
  await repo.upsertCycle(db, { id: 'cycle-1', config: {}, configHash: 'bench', modelVersion: 'policy@1', criticVersion: CRITIC });
  const queries: Query[] = Array.from({ length: ROLLOUTS / 2 }, (_, i) => ({
    id: `q${i}`,
    app: i % 2 ? 'notes' : 'shop',
    dagVersion: 'bench@1',
    family: 'bench',
    instruction: `Create a note titled bench ${i} and add the text "hello ${i}"`,
    rawInstruction: `Open Notes, tap New, type bench ${i}`,
    path: ['home', 'editor'],
    slots: { title: `bench ${i}` },
    checker: { app: 'notes', family: 'bench', params: {} },
    difficulty: 3,
    sampler: 'uniform',
    seed: i,
  }));
  await repo.upsertQueries(db, 'cycle-1', queries);
  const t0 = performance.now();
  for (let r = 0; r < ROLLOUTS; r++) {
    const q = queries[r % queries.length]!;
    const frame = (s: number): string => keys[(r * 3 + s) % IMAGES]!;
    const steps = Array.from({ length: STEPS }, (_, s) => ({
      index: s,
      before: { screenshotKey: frame(s), width: 360, height: 800, ...(s % 3 === 0 ? { uiTreeKey: tree } : {}) },
      after: { screenshotKey: frame(s + 1), width: 360, height: 800 },
      action:
        s === STEPS - 1
          ? { action: 'terminate', status: 'success' }
          : s % 3 === 0
            ? { action: 'click', coordinate: [40 + s, 60] }
            : s % 3 === 1
              ? { action: 'type', text: `bench text ${r} ${s}` }
              : { action: 'swipe', coordinate: [180, 600], coordinate2: [180, 200] },
      reasoning: `The screen shows the editor; step ${s} moves the task forward because the field is visible and empty.`,
      conclusion: `Performed step ${s} of the task.`,
      latencyMs: 12,
    }));
    const rollout = Rollout.parse({ id: `cycle-1/${q.id}/${r}`, cycleId: 'cycle-1', queryId: q.id, attempt: r, agentMode: 'gui-owl', actionSpace: 'mobile', model: { name: 'policy', version: '1' }, status: 'terminated', outcome: 'success', steps });
    await repo.upsertRollout(db, rollout, { degraded: false, configHash: 'bench' });
    await repo.upsertTrajectoryVerdicts(db, [{ rolloutId: rollout.id, criticVersion: CRITIC, channel: 'consensus', correct: r % 5 !== 0, reason: '', votes: [] }]);
    await repo.upsertStepVerdicts(db, steps.map((s) => ({ rolloutId: rollout.id, idx: s.index, criticVersion: CRITIC, analysis: '', summary: '', annotation: 'GOOD' as const, score: 0.9 })));
  }
  const total = ROLLOUTS * STEPS;
  const accepted = ROLLOUTS - Math.ceil(ROLLOUTS / 5);
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  console.log(`seeded ${ROLLOUTS} rollouts × ${STEPS} steps = ${total} steps (${accepted * STEPS} in accepted rollouts) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const run = async (label: string, req: SnapshotRequest, steps: number): Promise<void> => {
    const t = performance.now();
    const cpu0 = process.cpuUsage();
    const res = await exportSnapshot({ db, blobs }, req);
    const s = (performance.now() - t) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuS = (cpu.user + cpu.system) / 1e6;
    const rows = Object.entries(res?.rows ?? {}).map(([k, v]) => `${k}=${v}`).join(' ');
    const mb = (res?.manifest.files ?? []).filter((f) => !f.path.startsWith('images/')).reduce((n, f) => n + f.bytes, 0) / 2 ** 20;
    // Wall time depends on how busy the machine is; the exporter's own CPU time (this process, DuckDB included,
    // Postgres not) gives the throughput one free core would sustain.
    console.log(
      `${label.padEnd(44)} wall ${s.toFixed(2).padStart(6)} s ${(steps / s).toFixed(0).padStart(6)} steps/s   cpu ${cpuS.toFixed(2).padStart(6)} s ${(steps / cpuS).toFixed(0).padStart(6)} steps/s  ${mb.toFixed(0)} MiB (${rows})`,
    );
  };
  const split = [
    { name: 'train', fraction: 0.9 },
    { name: 'val', fraction: 0.05 },
    { name: 'test', fraction: 0.05 },
  ];
  // Warm-up (discarded): JIT, the Postgres buffer cache, the blob files' page cache and DuckDB's first load are paid
  // here, not by whichever arm runs first. Then the single-format arms run in rounds, each round in a new order.
  await exportSnapshot({ db, blobs }, { name: 'bench-warmup', formats: ['sft', 'grpo'], split });
  const arms: [string, SnapshotRequest, number][] = [
    ['JSONL (SFT messages)', { name: 'bench-sft', formats: ['sft'], split }, accepted * STEPS],
    ['Parquet (GRPO step pool)', { name: 'bench-grpo', formats: ['grpo'], split }, accepted * STEPS],
    ['Parquet (TRPO, all judged)', { name: 'bench-trpo', formats: ['trpo'], split }, total],
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < arms.length; i++) {
      const [label, req, steps] = arms[(i + round) % arms.length]!;
      await run(`${label} [round ${round + 1}]`, req, steps);
    }
  }
  await run('all formats', { name: 'bench-all', split }, total);
  await run('all formats, re-export (reused)', { name: 'bench-all', split }, total);
} finally {
  await db.end();
  await pg.stop();
  await fs.rm(dir, { recursive: true, force: true });
}
