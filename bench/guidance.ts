/**
 * Guidance uplift on hard queries (GUI-Owl §6.4; AgentTrek's 3.3× is the goal).
 *
 *   npx tsx bench/guidance.ts [--queries 6] [--k 4] [--seeds 1,2,3] [--apps clock,contacts,settings]
 *                             [--ref-attempts 3] [--max-steps 15] [--sessions 2]
 *
 * Per seed: `generateQueries` draws the tasks; every query gets K unguided attempts (attempt 0 at T=0, the rest at
 * T=0.7, as a cycle does). Queries with 0/K checker successes are HARD. For each hard query a reference trajectory
 * is sought from other configurations — the Mobile-Agent-v3 role mode, then the end-to-end policy at T=1.0 —
 * `--ref-attempts` tries each; the checker stands in for the person who verifies a demonstration before it is used.
 * Guidance is synthesised from the reference through the gateway roles (describer on circled screenshots, QC,
 * synthesiser: synthesis/guidance.ts). Then, on FRESH seeds (not the ones that selected the query as hard, so
 * regression to the mean does not pass for uplift), every hard query with guidance gets K unguided and K guided
 * attempts on the same seeds. The policy reads the guidance only as text in its prompt.
 *
 * Output: per app and overall, per seed and mean ± sd over seeds: hard queries, references found, success on the
 * fresh seeds without and with guidance, and the ratio with ÷ without.
 * Everything runs in-process: app server, Chromium, OCR, reference server through the gateway.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runAgentEpisode, type AgentMode } from '../agents/run.js';
import type { Role } from '../domain/config.js';
import type { Query } from '../domain/entities.js';
import type { ChatModel } from '../domain/ports.js';
import { startAppServer } from '../environments/app-server.js';
import { loadDags } from '../environments/app-world.js';
import { createChromiumEnv, type ChromiumSession } from '../environments/chromium.js';
import { createChatModel } from '../models/gateway.js';
import { createOcrEngine } from '../models/ocr.js';
import { REFERENCE_MODELS, referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';
import { generateQueries } from '../query-gen/sample.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import { referenceSteps } from '../activities/guidance.js';
import { synthesizeGuidance } from '../synthesis/guidance.js';

const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '6' },
    k: { type: 'string', default: '4' },
    seeds: { type: 'string', default: '1,2,3' },
    apps: { type: 'string', default: 'clock,contacts,settings' },
    'ref-attempts': { type: 'string', default: '3' },
    'max-steps': { type: 'string', default: '15' },
    sessions: { type: 'string', default: '2' },
  },
});
const N = Number(values.queries);
const K = Number(values.k);
const SEEDS = values.seeds.split(',').map(Number).filter(Number.isInteger);
const APPS = values.apps.split(',').map((s) => s.trim()).filter(Boolean);
const REF = Number(values['ref-attempts']);
const MAX_STEPS = Number(values['max-steps']);
const SESSIONS = Math.max(1, Number(values.sessions));
if (!(N > 0) || !(K >= 1) || SEEDS.length === 0) {
  console.error('usage: npx tsx bench/guidance.ts [--queries N] [--k K] [--seeds 1,2,3] [--apps a,b]');
  process.exit(2);
}

interface Row {
  seed: number;
  app: string;
  query: string;
  hard: boolean;
  reference?: string;
  unguided?: number;
  guided?: number;
}

const meanSd = (xs: number[]): string => {
  if (xs.length === 0) return '—';
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)) : 0;
  return `${m.toFixed(2)} ± ${sd.toFixed(2)}`;
};

async function main(): Promise<void> {
  const blobDir = await mkdtemp(join(tmpdir(), 'trajforge-guidance-bench-'));
  const blobs = createLocalBlobStore(blobDir);
  const appServer = await startAppServer({});
  const env = await createChromiumEnv({ appServer, blobs });
  const ocr = await createOcrEngine();
  const ref = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
  const model = (role: Role): ChatModel => createChatModel({ baseUrl: ref.baseUrl, model: REFERENCE_MODELS[role], maxRetries: 1 }, { cache: false });
  const models: Partial<Record<Role, ChatModel>> = Object.fromEntries(
    (['policy', 'manager', 'worker', 'reflector', 'notetaker', 'guideDescriber', 'guideQc', 'guideSynth'] as Role[]).map((r) => [r, model(r)]),
  );
  const pool: ChromiumSession[] = await Promise.all(Array.from({ length: SESSIONS }, () => env.newSession()));
  const free = [...pool];
  const waiters: ((s: ChromiumSession) => void)[] = [];
  const lease = (): Promise<ChromiumSession> => (free.length ? Promise.resolve(free.pop()!) : new Promise((r) => waiters.push(r)));
  const release = (s: ChromiumSession): void => (waiters.length ? waiters.shift()!(s) : void free.push(s));

  const episode = async (q: Query, mode: AgentMode, seed: number, temperature: number, guidance?: string) => {
    const s = await lease();
    try {
      const result = await runAgentEpisode(mode, { env: s, models, blobs, app: q.app, instruction: q.instruction, seed, maxSteps: MAX_STEPS, historyImages: 1, temperature, ...(guidance ? { guidance } : {}) });
      const ok = result.environmentFailure ? false : (await s.check(q.checker).catch(() => ({ success: false }))).success;
      return { result, ok };
    } finally {
      release(s);
    }
  };

  const rows: Row[] = [];
  const t0 = performance.now();
  try {
    for (const seed of SEEDS) {
      const { queries } = generateQueries({ dags: loadDags(), count: N, seed, apps: APPS });
      await Promise.all(
        queries.map(async (q, i) => {
          const base = seed * 100_000 + i * 100;
          const attempts = await Promise.all(Array.from({ length: K }, (_, j) => episode(q, 'gui-owl', base + j, j === 0 ? 0 : 0.7)));
          const row: Row = { seed, app: q.app, query: q.id, hard: attempts.every((a) => !a.ok) };
          rows.push(row);
          if (!row.hard) return;
          // Reference: another role configuration first, then exploration at T=1.0.
          let reference;
          for (const [mode, temp] of [['mobile-agent-v3', 0.7], ['gui-owl', 1.0]] as const) {
            for (let r = 0; r < REF && !reference; r++) {
              const e = await episode(q, mode, base + 50 + r + (mode === 'gui-owl' ? 10 : 0), temp);
              if (e.ok) reference = { id: `${seed}/${q.id}/${mode}/${r}`, steps: e.result };
            }
          }
          if (!reference) {
            console.log(`HARD seed ${seed} ${q.app.padEnd(9)} ${JSON.stringify(q.instruction)}: no reference found`);
            return;
          }
          const steps = referenceSteps({ id: reference.id, cycleId: 'bench', queryId: q.id, attempt: 0, agentMode: 'gui-owl', actionSpace: 'mobile', model: { name: 'x', version: '0' }, status: reference.steps.status, steps: reference.steps.steps });
          let g;
          try {
            g = await synthesizeGuidance({ describer: models.guideDescriber!, qc: models.guideQc!, synth: models.guideSynth! }, blobs, { id: reference.id, source: 'model', instruction: q.instruction, steps });
          } catch (e) {
            console.log(`HARD seed ${seed} ${q.app.padEnd(9)} ${JSON.stringify(q.instruction)}: guidance failed: ${(e as Error).message}`);
            return;
          }
          row.reference = reference.id;
          // Fresh seeds, same for both arms.
          const fresh = Array.from({ length: K }, (_, j) => base + 80 + j);
          const [un, gd] = await Promise.all([
            Promise.all(fresh.map((s, j) => episode(q, 'gui-owl', s, j === 0 ? 0 : 0.7))),
            Promise.all(fresh.map((s, j) => episode(q, 'gui-owl', s, j === 0 ? 0 : 0.7, g.text))),
          ]);
          row.unguided = un.filter((x) => x.ok).length / K;
          row.guided = gd.filter((x) => x.ok).length / K;
          console.log(`HARD seed ${seed} ${q.app.padEnd(9)} ${JSON.stringify(q.instruction)}: guided ${row.guided.toFixed(2)} vs unguided ${row.unguided.toFixed(2)}; guidance: ${g.steps.join(' | ')}`);
        }),
      );
    }
  } finally {
    await Promise.all(pool.map((s) => s.close()));
    await env.close();
    await ref.close();
    await appServer.close();
    await rm(blobDir, { recursive: true, force: true });
  }

  console.log(`\nguidance uplift: ${rows.length} queries × K=${K}, seeds ${SEEDS.join(',')}, apps ${APPS.join(',')}, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  console.log(`${'app'.padEnd(10)} ${'hard'.padStart(5)} ${'refs'.padStart(5)}  ${'unguided (fresh seeds)'.padEnd(24)} ${'guided'.padEnd(16)} with ÷ without`);
  for (const app of [...new Set(rows.map((r) => r.app)).values()].sort().concat('ALL')) {
    const sel = rows.filter((r) => app === 'ALL' || r.app === app);
    const perSeed = SEEDS.map((seed) => sel.filter((r) => r.seed === seed && r.guided !== undefined));
    const un = perSeed.filter((p) => p.length).map((p) => p.reduce((a, r) => a + r.unguided!, 0) / p.length);
    const gd = perSeed.filter((p) => p.length).map((p) => p.reduce((a, r) => a + r.guided!, 0) / p.length);
    const ratios = un.map((u, i) => (u > 0 ? gd[i]! / u : Number.NaN)).filter((x) => Number.isFinite(x));
    const ratio = ratios.length ? meanSd(ratios) : gd.some((x) => x > 0) ? '∞ (0 unguided successes)' : '—';
    console.log(
      `${app.padEnd(10)} ${String(sel.filter((r) => r.hard).length).padStart(5)} ${String(sel.filter((r) => r.reference).length).padStart(5)}  ${meanSd(un).padEnd(24)} ${meanSd(gd).padEnd(16)} ${ratio}`,
    );
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
