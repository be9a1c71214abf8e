/**
 * Cold start on a task family the policy has never succeeded on (issue 18), run as self-evolution generations with
 * the eval gate (issue 12): guidance from a few reference trajectories, retraining on the guided successes, and a
 * frozen held-out eval set rolled out UNGUIDED decides whether each candidate serves the next generation.
 *
 *   npx tsx bench/cold-start.ts [--app clock] [--family create_alarm] [--queries 3] [--k 2] [--generations 3]
 *                               [--eval-queries 6] [--eval-seeds 1,2,3] [--eval-temperature 0.3] [--seed 1]
 *                               [--max-steps 15] [--sessions 2] [--corrupt] [--held-out slots|instruction] [--draws 3]
 *
 * `--draws` draws (seeds `--seed`, `--seed`+1, …; a draw holds one phrasing per slot-value tuple) of the family's
 * feasible queries are split (query-gen/heldout.ts) into a frozen EVAL set (`--eval-queries`, never demonstrated,
 * never guided, never trained on) and fresh PRODUCTION queries (`--queries` new ones per generation). Held out by
 * slot values (`--held-out slots`, default): no production query has the slot values of an eval query (a family with
 * five cards is evaluated on cards it never trained on); `--held-out instruction`: only the instructions differ (the
 * earlier clock runs, `--draws 1`). Any app and family with a scripted demonstration works (`--app`, `--family`). Generation 0 is the base policy
 * (no memory), evaluated on the eval set. Each generation g ≥ 1 then:
 *   - production: for each new query one scripted demonstration (the demonstration library, a stand-in for a person in the
 *     browser, checker-verified) becomes guidance through the gateway roles (describer → QC → synthesiser); K guided
 *     attempts (guidance read as text in the prompt) and K unguided attempts (T = 0 then 0.7, as a cycle) by the
 *     SERVED policy;
 *   - training: the candidate memory = the served memory + the checker-successful production episodes since the
 *     served version (models/reference/trainer.ts `trainMemory`, the loop's reference trainer), exported exactly as a
 *     dataset would be (export/gui-owl-sft.ts `buildSamples`): the prompts carry NO guidance text (checked);
 *   - eval: the candidate on the frozen eval set, one run per seed at `--eval-temperature`, checker-scored, unguided;
 *   - gate (evolution/gate.ts, the line's rule): promote iff mean_cand − mean_cur > max(sd_cand, sd_cur) over ≥ 3
 *     seeds; a promoted candidate serves the next generation, a rejected one is dropped (its data stays pending).
 * `--corrupt`: after the last generation, a candidate trained on the same data with every step's action swapped for
 * another step's (a corrupted snapshot) is evaluated and gated against the served model: it must be rejected.
 * The checker stands in for the critics' acceptance (the bench measures the policy and the gate, not the critics).
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
import { gateDecision, mean, sampleSd } from '../evolution/gate.js';
import { buildSamples, type SftSample } from '../export/gui-owl-sft.js';
import { createChatModel } from '../models/gateway.js';
import { createOcrEngine } from '../models/ocr.js';
import type { PolicyMemory } from '../models/reference/memory.js';
import { REFERENCE_MODELS, referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer, type ReferenceServer } from '../models/reference/server.js';
import { trainMemory } from '../models/reference/trainer.js';
import { splitHeldOut, type HeldOutBy } from '../query-gen/heldout.js';
import { generateQueries } from '../query-gen/sample.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import { synthesizeGuidance } from '../synthesis/guidance.js';
import { createDemonstrationLibrary } from '../environments/demonstrations/library.js';

const { values } = parseArgs({
  options: {
    app: { type: 'string', default: 'clock' },
    family: { type: 'string', default: 'create_alarm' },
    queries: { type: 'string', default: '3' },
    k: { type: 'string', default: '2' },
    generations: { type: 'string', default: '3' },
    'eval-queries': { type: 'string', default: '6' },
    'eval-seeds': { type: 'string', default: '1,2,3' },
    'eval-temperature': { type: 'string', default: '0.3' },
    seed: { type: 'string', default: '1' },
    'max-steps': { type: 'string', default: '15' },
    sessions: { type: 'string', default: '2' },
    corrupt: { type: 'boolean', default: false },
    'held-out': { type: 'string', default: 'slots' },
    draws: { type: 'string', default: '3' },
  },
});
const N = Number(values.queries);
const K = Number(values.k);
const GENS = Number(values.generations);
const E = Number(values['eval-queries']);
const EVAL_SEEDS = values['eval-seeds'].split(',').map(Number).filter(Number.isInteger);
const EVAL_T = Number(values['eval-temperature']);
const SEED = Number(values.seed);
const MAX_STEPS = Number(values['max-steps']);
const SESSIONS = Math.max(1, Number(values.sessions));
const HELD_OUT = values['held-out'] as HeldOutBy;
const DRAWS = Number(values.draws);
if (HELD_OUT !== 'slots' && HELD_OUT !== 'instruction') {
  console.error(`--held-out must be slots or instruction, got ${JSON.stringify(values['held-out'])}`);
  process.exit(2);
}
if (!(N >= 1 && K >= 1 && GENS >= 1 && E >= 1 && EVAL_SEEDS.length >= 3 && EVAL_T >= 0 && Number.isInteger(DRAWS) && DRAWS >= 1)) {
  console.error('usage: npx tsx bench/cold-start.ts [--queries N≥1] [--k K≥1] [--generations G≥1] [--eval-queries E≥1] [--eval-seeds ≥ 3 seeds]');
  process.exit(2);
}

type Frac = [number, number];
interface GenRow {
  gen: number;
  candidate: string;
  guided: Frac;
  unguided: Frac;
  trainedOn: number;
  evalRates: number[];
  decision: string;
  served: string;
  wallS: number;
}

const frac = ([a, b]: Frac): string => `${a}/${b} (${b ? ((100 * a) / b).toFixed(0) : '–'}%)`;
const ms = (xs: number[]): string => `${mean(xs).toFixed(2)} ± ${sampleSd(xs).toFixed(2)}`;

async function main(): Promise<void> {
  const blobDir = await mkdtemp(join(tmpdir(), 'trajforge-cold-start-'));
  const blobs = createLocalBlobStore(blobDir);
  const appServer = await startAppServer({});
  const env = await createChromiumEnv({ appServer, blobs });
  const ocr = await createOcrEngine();
  const pool: ChromiumSession[] = await Promise.all(Array.from({ length: SESSIONS }, () => env.newSession()));
  const free = [...pool];
  const waiters: ((s: ChromiumSession) => void)[] = [];
  const take = (): Promise<ChromiumSession> => (free.length ? Promise.resolve(free.pop()!) : new Promise((r) => waiters.push(r)));
  const envStats = { replaced: 0, rerolled: 0 };
  /**
   * A healthy session: under load the environment's watchdog kills a hung browser or page, which breaks the sessions
   * on it for good (every later episode on them ends at once, `degraded`, 0 steps) — a broken one is replaced.
   */
  const lease = async (): Promise<ChromiumSession> => {
    const s = await take();
    if (await s.healthy()) return s;
    await s.close().catch(() => undefined);
    envStats.replaced++;
    const fresh = await env.newSession();
    pool[pool.indexOf(s)] = fresh;
    return fresh;
  };
  const release = (s: ChromiumSession): void => (waiters.length ? waiters.shift()!(s) : void free.push(s));
  const title = loadDags().find((d) => d.app === values.app)?.title ?? values.app;
  const rows: GenRow[] = [];
  const library = createDemonstrationLibrary();
  const t0 = performance.now();
  const servers: ReferenceServer[] = [];
  /** The policy (and guidance roles) served with a given memory, through the gateway. */
  const modelsFor = async (memory: PolicyMemory | undefined): Promise<Partial<Record<Role, ChatModel>>> => {
    const server = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(memory ? { memory } : {}), ocr });
    servers.push(server);
    const model = (role: Role): ChatModel => createChatModel({ baseUrl: server.baseUrl, model: REFERENCE_MODELS[role], maxRetries: 1 }, { cache: false });
    return Object.fromEntries((['policy', 'guideDescriber', 'guideQc', 'guideSynth'] as Role[]).map((r) => [r, model(r)]));
  };
  const episode = async (models: Partial<Record<Role, ChatModel>>, q: Query, seed: number, temperature: number, guidance?: string) => {
    // An environment failure is not an outcome of the policy: the episode is rolled again (at most twice), as a cycle
    // re-rolls it; one that still fails counts as a failure.
    for (let tries = 0; ; tries++) {
      const s = await lease();
      try {
        const r = await runAgentEpisode('gui-owl', { env: s, models, blobs, app: q.app, instruction: q.instruction, seed, maxSteps: MAX_STEPS, historyImages: 1, temperature, ...(guidance ? { guidance } : {}) });
        if (r.environmentFailure && tries < 2) {
          envStats.rerolled++;
          continue;
        }
        const ok = !r.environmentFailure && (await s.check(q.checker).catch(() => ({ success: false }))).success;
        return { r, ok };
      } finally {
        release(s);
      }
    }
  };
  /** Unguided checker success on the frozen eval set, one rate per eval seed (and which queries succeeded, printed). */
  const evaluate = async (models: Partial<Record<Role, ChatModel>>, evalSet: Query[], label: string): Promise<number[]> => {
    const perSeed = await Promise.all(EVAL_SEEDS.map((es) => Promise.all(evalSet.map((q, i) => episode(models, q, 7_000_000 + es * 1000 + i, EVAL_T)))));
    evalSet.forEach((q, i) => console.log(`  ${label} eval ${perSeed.map((res) => (res[i]!.ok ? '✓' : '✗')).join('')}  ${JSON.stringify(q.instruction)}`));
    return perSeed.map((res) => res.filter((x) => x.ok).length / res.length);
  };
  const train = async (samples: SftSample[], base: PolicyMemory | undefined, version: string): Promise<PolicyMemory> =>
    (await trainMemory({ samples, blobs, ocr, version, dataset: `cold-start-${version}@1`, trainedAt: new Date(0).toISOString(), parsePrompt: parsePolicyPrompt, ...(base ? { base } : {}) })).memory;
  try {
    // Draws (seed, seed+1, …: a draw holds one phrasing per slot-value tuple, so further draws add the family's other
    // phrasings), split: the frozen eval set first, then fresh production queries per generation. `--held-out slots`
    // (default): production never has an eval query's slot values; `instruction`: only never its instruction.
    if (!loadDags().some((d) => d.app === values.app && d.tasks.some((t) => t.id === values.family))) throw new Error(`--app ${values.app} --family ${values.family}: no such task family`);
    const all: Query[] = [];
    for (let d = 0; d < DRAWS; d++) all.push(...generateQueries({ dags: loadDags(), count: (E + N * GENS) * 30, seed: SEED + d, apps: [values.app] }).queries.filter((q) => q.family === values.family && q.feasible !== false));
    const { evalSet, production } = splitHeldOut(all, E, HELD_OUT);
    if (evalSet.length < E || production.length < N * GENS) {
      throw new Error(`${values.app}/${values.family}: ${evalSet.length} eval + ${production.length} production queries held out by ${HELD_OUT} from ${DRAWS} draws; need ${E} + ${N * GENS} (lower --eval-queries, --queries or --generations)`);
    }
    for (const q of evalSet) console.log(`eval   ${JSON.stringify(q.instruction)}`);
    for (const q of production.slice(0, N * GENS)) console.log(`prod   ${JSON.stringify(q.instruction)}`);
    let served: PolicyMemory | undefined;
    let servedModels = await modelsFor(undefined);
    let g0 = performance.now();
    let servedRates = await evaluate(servedModels, evalSet, 'base');
    rows.push({ gen: 0, candidate: 'base 0.1.0', guided: [0, 0], unguided: [0, 0], trainedOn: 0, evalRates: servedRates, decision: 'served', served: '0.1.0', wallS: (performance.now() - g0) / 1000 });
    console.log(`gen 0 base: eval ${servedRates.map((r) => r.toFixed(2)).join(', ')} → ${ms(servedRates)}`);
    let pending: SftSample[] = [];
    /** Every production sample of the run (the corrupted candidate is trained on a corrupted copy). */
    const allSamples: SftSample[] = [];
    for (let gen = 1; gen <= GENS; gen++) {
      g0 = performance.now();
      const qs = production.slice((gen - 1) * N, gen * N);
      const guidance = new Map<string, string>();
      for (const [i, q] of qs.entries()) {
        const s = await lease();
        try {
          // The line's demonstration library (its scripted source: this bench has no recordings).
          const d = await library.scripted(q, s, { appTitle: title, envSeed: SEED * 1000 + gen * 100 + i, id: `demo/${q.id}` });
          if (!d) continue;
          const g = await synthesizeGuidance({ describer: servedModels.guideDescriber!, qc: servedModels.guideQc!, synth: servedModels.guideSynth! }, blobs, { id: d.id, source: d.source, instruction: q.instruction, steps: d.steps });
          guidance.set(q.id, g.text);
          console.log(`gen ${gen} guidance for ${JSON.stringify(q.instruction)}: ${g.steps.join(' | ')}`);
        } finally {
          release(s);
        }
      }
      const successes: { q: Query; rollout: Rollout; guided: boolean }[] = [];
      const attempt = async (q: Query, j: number, guided: boolean): Promise<boolean> => {
        const text = guided ? guidance.get(q.id) : undefined;
        const { r, ok } = await episode(servedModels, q, SEED * 100_000 + gen * 1000 + j * 10 + (guided ? 1 : 0), j === 0 ? 0 : 0.7, text);
        // One line per attempt (what the served policy did), for reading why an arm fails.
        const did = r.steps.map((x) => (x.conclusion || JSON.stringify(x.action)).replace(/\s+/g, ' ').slice(0, 90)).join(' › ');
        console.log(`  g${gen} ${guided ? 'guided  ' : 'unguided'} ${ok ? '✓' : '✗'} ${JSON.stringify(q.instruction)} (${r.steps.length} steps, ${r.status}${r.environmentFailure ? `: ${r.environmentFailure}` : ''}): ${did}`);
        if (ok) successes.push({ q, guided, rollout: { id: `g${gen}/${q.id}/${guided ? 'g' : 'a'}${j}`, cycleId: `cold-${gen}`, queryId: q.id, attempt: j, agentMode: 'gui-owl', actionSpace: 'mobile', model: { name: 'ref-policy', version: served?.version ?? '0.1.0' }, status: r.status, steps: r.steps } });
        return ok;
      };
      const arm = async (guided: boolean): Promise<Frac> => {
        const res = await Promise.all(qs.filter((q) => !guided || guidance.has(q.id)).flatMap((q) => Array.from({ length: K }, (_, j) => attempt(q, j, guided))));
        return [res.filter(Boolean).length, res.length];
      };
      const [guided, unguided] = await Promise.all([arm(true), arm(false)]);
      const samples = successes.flatMap((x) =>
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
      if (samples.some((s) => s.messages.some((m) => m.content.includes('Essential steps') || m.content.includes('Guidance:')))) throw new Error('guidance text leaked into training samples');
      if (samples.some((s) => evalSet.some((e) => e.id === s.meta.query_id))) throw new Error('an eval query reached the training data');
      pending = [...pending, ...samples];
      allSamples.push(...samples);
      const version = `0.1.${gen}`;
      const candidate = await train(pending, served, version);
      const candModels = await modelsFor(candidate);
      for (const p of candidate.toJSON().procedures ?? []) console.log(`  ${version} procedure ×${p.count} [${p.intent.join(' ')}]: ${p.steps.join(' | ')}`);
      const candRates = await evaluate(candModels, evalSet, version);
      const decision = gateDecision({ current: servedRates, candidate: candRates });
      if (decision.promote) {
        served = candidate;
        servedModels = candModels;
        servedRates = candRates;
        pending = [];
      }
      const row: GenRow = {
        gen,
        candidate: `${version} (${candidate.procedureCount} procedures)`,
        guided,
        unguided,
        trainedOn: samples.length,
        evalRates: candRates,
        decision: `${decision.promote ? 'promoted' : 'rejected'} (gain ${decision.gain.toFixed(2)} vs spread ${decision.margin.toFixed(2)})`,
        served: served?.version ?? '0.1.0',
        wallS: (performance.now() - g0) / 1000,
      };
      rows.push(row);
      console.log(`gen ${gen}: guided ${frac(guided)}, unguided (served) ${frac(unguided)}; ${samples.length} samples → ${row.candidate}; eval ${candRates.map((r) => r.toFixed(2)).join(', ')} → ${ms(candRates)}; ${row.decision}; ${row.wallS.toFixed(0)} s`);
    }
    if (values.corrupt) {
      g0 = performance.now();
      // The same kind of data, corrupted: every step's assistant turn (action, reasoning) comes from another step.
      const data = allSamples;
      const shifted = data.map((s, i) => {
        const other = data[(i + 7) % data.length]!;
        return { ...s, messages: [...s.messages.filter((m) => m.role !== 'assistant'), ...other.messages.filter((m) => m.role === 'assistant')] };
      });
      const bad = await train(shifted, undefined, '0.9.0');
      const badRates = await evaluate(await modelsFor(bad), evalSet, 'corrupted');
      const decision = gateDecision({ current: servedRates, candidate: badRates });
      console.log(`corrupted candidate 0.9.0 (${shifted.length} samples, actions shifted by 7 steps): eval ${badRates.map((r) => r.toFixed(2)).join(', ')} → ${ms(badRates)}; ${decision.promote ? 'PROMOTED (gate failed)' : 'rejected'} (gain ${decision.gain.toFixed(2)} vs spread ${decision.margin.toFixed(2)}); ${((performance.now() - g0) / 1000).toFixed(0)} s`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
    await Promise.all(pool.map((s) => s.close().catch(() => undefined)));
    await env.close();
    await appServer.close();
    await rm(blobDir, { recursive: true, force: true });
  }
  console.log(`\ncold start → self-evolution: ${values.app}/${values.family}, ${N} new production queries × K=${K} per generation, eval ${E} held-out queries × seeds ${EVAL_SEEDS.join(',')} at T=${EVAL_T}, ${((performance.now() - t0) / 1000).toFixed(0)} s, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; environment: ${envStats.rerolled} episodes re-rolled after an environment failure, ${envStats.replaced} broken sessions replaced, watchdog hangs ${JSON.stringify(env.hangs)}`);
  console.log('| generation | candidate | success with guidance (production) | unguided success, served policy (production) | samples added | eval success per seed (unguided, held-out) | mean ± sd | gate | served after | wall |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.gen} | ${r.candidate} | ${r.gen ? frac(r.guided) : '—'} | ${r.gen ? frac(r.unguided) : '—'} | ${r.trainedOn} | ${r.evalRates.map((x) => x.toFixed(2)).join(', ')} | ${ms(r.evalRates)} | ${r.decision} | ${r.served} | ${r.wallS.toFixed(0)} s |`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
