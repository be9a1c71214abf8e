/**
 * Cold start on a task family the policy has never succeeded on (issue 18): guidance from a few reference
 * trajectories, then retraining on the guided data, must lift UNGUIDED success.
 *
 *   npx tsx bench/cold-start.ts [--app clock] [--family create_alarm] [--queries 3] [--held-out 2] [--k 2]
 *                               [--generations 2] [--seeds 1] [--max-steps 15] [--sessions 2]
 *
 * Per seed: `generateQueries` draws `--queries` tasks of the family (the TRAINED queries) and `--held-out` more
 * (never demonstrated, never guided, never trained on). Generation 0 is the reference policy with no memory.
 * For each trained query one scripted demonstration (bench/demos.ts: a stand-in for a person in the browser,
 * checker-verified) becomes guidance through the gateway roles (describer → QC → synthesiser). Every generation g:
 *   - unguided: K attempts per trained and per held-out query (T=0 then 0.7);
 *   - guided:   K attempts per trained query with its guidance in the prompt (read as text);
 *   - then the policy memory is trained (models/reference/trainer.ts `trainMemory`, the loop's trainer, on top of
 *     the previous generation's memory) on the checker-successful episodes of this generation — exported exactly as
 *     a dataset would be (export/gui-owl-sft.ts `buildSamples`), so the prompts carry NO guidance text — and serves
 *     generation g+1.
 * Reported per generation: success with guidance, unguided success on the trained queries, unguided success on the
 * held-out queries (the memory is keyed by instruction, so held-out queries measure generalisation, not recall).
 * The checker stands in for the critics' acceptance (the bench measures the policy, not the critics).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parsePolicyPrompt } from '../agents/gui-owl.js';
import { runAgentEpisode } from '../agents/run.js';
import type { Role } from '../domain/config.js';
import type { Query, Rollout } from '../domain/entities.js';
import type { ChatModel } from '../domain/ports.js';
import { startAppServer } from '../environments/app-server.js';
import { loadDags } from '../environments/app-world.js';
import { createChromiumEnv, type ChromiumSession } from '../environments/chromium.js';
import { buildSamples, type SftSample } from '../export/gui-owl-sft.js';
import { createChatModel } from '../models/gateway.js';
import { createOcrEngine } from '../models/ocr.js';
import type { PolicyMemory } from '../models/reference/memory.js';
import { REFERENCE_MODELS, referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer, type ReferenceServer } from '../models/reference/server.js';
import { trainMemory } from '../models/reference/trainer.js';
import { generateQueries } from '../query-gen/sample.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import { synthesizeGuidance } from '../synthesis/guidance.js';
import { demonstrate } from './demos.js';

const { values } = parseArgs({
  options: {
    app: { type: 'string', default: 'clock' },
    family: { type: 'string', default: 'create_alarm' },
    queries: { type: 'string', default: '3' },
    'held-out': { type: 'string', default: '2' },
    k: { type: 'string', default: '2' },
    generations: { type: 'string', default: '2' },
    seeds: { type: 'string', default: '1' },
    'max-steps': { type: 'string', default: '15' },
    sessions: { type: 'string', default: '2' },
  },
});
const N = Number(values.queries);
const H = Number(values['held-out']);
const K = Number(values.k);
const GENS = Number(values.generations);
const SEEDS = values.seeds.split(',').map(Number).filter(Number.isInteger);
const MAX_STEPS = Number(values['max-steps']);
const SESSIONS = Math.max(1, Number(values.sessions));

interface GenRow {
  seed: number;
  gen: number;
  memory: string;
  guided: [number, number];
  trained: [number, number];
  heldOut: [number, number];
  trainedOn: number;
}

const frac = ([a, b]: [number, number]): string => `${a}/${b} (${b ? ((100 * a) / b).toFixed(0) : '–'}%)`;

async function main(): Promise<void> {
  const blobDir = await mkdtemp(join(tmpdir(), 'trajforge-cold-start-'));
  const blobs = createLocalBlobStore(blobDir);
  const appServer = await startAppServer({});
  const env = await createChromiumEnv({ appServer, blobs });
  const ocr = await createOcrEngine();
  const pool: ChromiumSession[] = await Promise.all(Array.from({ length: SESSIONS }, () => env.newSession()));
  const free = [...pool];
  const waiters: ((s: ChromiumSession) => void)[] = [];
  const lease = (): Promise<ChromiumSession> => (free.length ? Promise.resolve(free.pop()!) : new Promise((r) => waiters.push(r)));
  const release = (s: ChromiumSession): void => (waiters.length ? waiters.shift()!(s) : void free.push(s));
  const title = loadDags().find((d) => d.app === values.app)?.title ?? values.app;
  const rows: GenRow[] = [];
  const t0 = performance.now();
  let server: ReferenceServer | undefined;
  try {
    for (const seed of SEEDS) {
      const all = generateQueries({ dags: loadDags(), count: (N + H) * 15, seed, apps: [values.app] }).queries.filter((q) => q.family === values.family && q.feasible !== false);
      const trainedQs = all.slice(0, N);
      const heldOutQs = all.slice(N, N + H);
      if (trainedQs.length === 0) throw new Error(`no ${values.app}/${values.family} queries drawn for seed ${seed}`);
      let memory: PolicyMemory | undefined;
      let guidance = new Map<string, string>();
      for (let gen = 0; gen <= GENS; gen++) {
        server = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(memory ? { memory } : {}), ocr });
        const base = server.baseUrl;
        const model = (role: Role): ChatModel => createChatModel({ baseUrl: base, model: REFERENCE_MODELS[role], maxRetries: 1 }, { cache: false });
        const models: Partial<Record<Role, ChatModel>> = Object.fromEntries((['policy', 'guideDescriber', 'guideQc', 'guideSynth'] as Role[]).map((r) => [r, model(r)]));
        // Guidance once (generation 0): one demonstration per trained query.
        if (gen === 0) {
          guidance = new Map();
          for (const [i, q] of trainedQs.entries()) {
            const s = await lease();
            try {
              const d = await demonstrate(s, q, title, seed * 1000 + 900 + i);
              if (!d?.ok) continue;
              const g = await synthesizeGuidance({ describer: models.guideDescriber!, qc: models.guideQc!, synth: models.guideSynth! }, blobs, { id: `demo/${q.id}`, source: 'scripted', instruction: q.instruction, steps: d.steps });
              guidance.set(q.id, g.text);
              console.log(`seed ${seed} guidance for ${JSON.stringify(q.instruction)}: ${g.steps.join(' | ')}`);
            } finally {
              release(s);
            }
          }
        }
        const successes: { q: Query; rollout: Rollout; guided: boolean }[] = [];
        const run = async (q: Query, j: number, guided: boolean): Promise<boolean> => {
          const s = await lease();
          try {
            const text = guided ? guidance.get(q.id) : undefined;
            const epSeed = seed * 100_000 + gen * 1000 + j;
            const r = await runAgentEpisode('gui-owl', { env: s, models, blobs, app: q.app, instruction: q.instruction, seed: epSeed, maxSteps: MAX_STEPS, historyImages: 1, temperature: j === 0 ? 0 : 0.7, ...(text ? { guidance: text } : {}) });
            const ok = !r.environmentFailure && (await s.check(q.checker).catch(() => ({ success: false }))).success;
            if (ok) successes.push({ q, guided, rollout: { id: `s${seed}/g${gen}/${q.id}/${guided ? 'g' : 'a'}${j}`, cycleId: `cold-${gen}`, queryId: q.id, attempt: j, agentMode: 'gui-owl', actionSpace: 'mobile', model: { name: 'ref-policy', version: memory?.version ?? '0.1.0' }, status: r.status, steps: r.steps } });
            return ok;
          } finally {
            release(s);
          }
        };
        const arm = async (qs: Query[], guided: boolean): Promise<[number, number]> => {
          const res = await Promise.all(qs.filter((q) => !guided || guidance.has(q.id)).flatMap((q) => Array.from({ length: K }, (_, j) => run(q, j, guided))));
          return [res.filter(Boolean).length, res.length];
        };
        const [guided, trained, heldOut] = await Promise.all([arm(trainedQs, true), arm(trainedQs, false), arm(heldOutQs, false)]);
        // Train the next generation on this generation's successful episodes, exported without guidance text.
        const samples: SftSample[] = successes
          .filter((x) => trainedQs.includes(x.q))
          .flatMap((x) =>
            buildSamples({
              rollout: x.rollout,
              query: x.q,
              judgements: new Map(),
              tauC: 0,
              historyImages: 1,
              lineage: { cycleId: x.rollout.cycleId, modelVersion: x.rollout.model.version, criticVersion: '-', dagVersion: '-', configHash: '-' },
              uri: (k) => blobs.uri(k),
              mode: 'all',
              ...(x.guided ? { guidance: { version: 1 } } : {}),
            }).samples,
          );
        if (samples.some((s) => s.messages.some((m) => m.content.includes('Essential steps')))) throw new Error('guidance text leaked into training samples');
        const row: GenRow = { seed, gen, memory: memory?.version ?? 'none', guided, trained, heldOut, trainedOn: samples.length };
        rows.push(row);
        console.log(`seed ${seed} gen ${gen} (memory ${row.memory}): guided ${frac(guided)}, unguided trained ${frac(trained)}, unguided held-out ${frac(heldOut)}; ${samples.length} samples from ${successes.length} successful episodes → next memory`);
        await server.close();
        server = undefined;
        if (gen < GENS && samples.length > 0) {
          const t = await trainMemory({ samples, blobs, ocr, version: `0.1.${gen + 1}`, dataset: `cold-start-g${gen}@1`, trainedAt: new Date(0).toISOString(), parsePrompt: parsePolicyPrompt, ...(memory ? { base: memory } : {}) });
          memory = t.memory;
        }
      }
    }
  } finally {
    await server?.close();
    await Promise.all(pool.map((s) => s.close()));
    await env.close();
    await appServer.close();
    await rm(blobDir, { recursive: true, force: true });
  }
  console.log(`\ncold start: ${values.app}/${values.family}, ${N} trained + ${H} held-out queries × K=${K}, seeds ${SEEDS.join(',')}, ${((performance.now() - t0) / 1000).toFixed(0)} s, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`${'gen'.padEnd(4)} ${'memory'.padEnd(8)} ${'guided (trained q)'.padEnd(20)} ${'unguided trained q'.padEnd(20)} ${'unguided held-out'.padEnd(20)} samples trained on`);
  for (let gen = 0; gen <= GENS; gen++) {
    const sel = rows.filter((r) => r.gen === gen);
    const sum = (k: 'guided' | 'trained' | 'heldOut'): [number, number] => [sel.reduce((a, r) => a + r[k][0], 0), sel.reduce((a, r) => a + r[k][1], 0)];
    console.log(`${String(gen).padEnd(4)} ${(sel[0]?.memory ?? '').padEnd(8)} ${frac(sum('guided')).padEnd(20)} ${frac(sum('trained')).padEnd(20)} ${frac(sum('heldOut')).padEnd(20)} ${sel.reduce((a, r) => a + r.trainedOn, 0)}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
