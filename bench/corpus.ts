/**
 * A labelled rollout corpus for critic benchmarks: rolls the reference policy out on generated tasks in the
 * real apps once, labels each rollout with the app's checker (ground truth, never shown to critics), and keeps
 * it on disk so critics can be re-judged (and re-tuned) without re-rolling.
 *
 *   npx tsx bench/corpus.ts --out DIR [--rollouts 500] [--seeds 1,2,3] [--temperatures 0,0.7] [--sessions 2]
 *                           [--max-steps 15] [--apps food,shop] [--mode gui-owl|mobile-agent-v3|swirl|ces]
 *                           [--paraphrases bench/paraphrases/v1.json] [--platform desktop]
 *   npx tsx bench/critics.ts --corpus DIR        (judges the corpus instead of rolling out)
 *
 * Layout: DIR/blobs (local blob store: screenshots, and under ocr/ the OCR of each screenshot by content hash, so
 * judging later starts from the rollouts' OCR as the pipeline does), DIR/rollouts.jsonl (one line per finished rollout:
 * job, episode result, ground truth), DIR/corpus.json (the options). Resumable: re-running with the same DIR
 * and options rolls out only the jobs not yet in rollouts.jsonl. Environment failures are counted, not kept.
 * For each seed, `generateQueries` draws ⌈N / (seeds × temperatures)⌉ tasks; each is rolled out once per
 * temperature with the GUI-Owl episode loop (1 screenshot of history) on `--sessions` Chromium phones, or with
 * `--platform desktop` on `--sessions` real desktop sessions (environments/desktop/: Xvfb, `computer_use`) over the
 * desktop apps' DAGs.
 */
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { EpisodeResult } from '../agents/episode.js';
import { AGENT_MODES, MODE_ROLES, runAgentEpisode, type AgentMode } from '../agents/run.js';
import type { Role } from '../domain/config.js';
import type { Query } from '../domain/entities.js';
import type { BlobStore, ChatModel } from '../domain/ports.js';
import { startAppServer } from '../environments/app-server.js';
import { loadDags } from '../environments/app-world.js';
import { createChromiumEnv, type ChromiumSession } from '../environments/chromium.js';
import { createChatModel } from '../models/gateway.js';
import { blobOcrStore, createOcrEngine } from '../models/ocr.js';
import type { OcrEngine } from '../models/reference/types.js';
import { REFERENCE_MODELS, referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';
import { loadDesktopDags } from '../environments/desktop/apps/index.js';
import { createDesktopEnv } from '../environments/desktop/session.js';
import { INFEASIBLE_FAMILY, infeasibleSuccess } from '../query-gen/infeasible.js';
import { generateQueries } from '../query-gen/sample.js';
import { createLocalBlobStore } from '../storage/blob-local.js';

/** A session rollouts run in: a Chromium phone or a desktop display, both checkable. */
type CorpusSession = Pick<ChromiumSession, 'id' | 'reset' | 'step' | 'close'> & { check: ChromiumSession['check'] };

export interface CorpusJob {
  seed: number;
  n: number;
  temperature: number;
  query: Query;
}

export interface CorpusRollout extends CorpusJob {
  result: EpisodeResult;
  groundTruth: boolean;
  /** The checker's reason (measurement only); absent in corpora written before it was kept. */
  groundTruthReason?: string;
}

export interface CorpusOptions {
  rollouts: number;
  seeds: number[];
  temperatures: number[];
  sessions: number;
  maxSteps: number;
  apps: string[];
  /** Rollout mode (default gui-owl; absent from corpora built before modes were benchmarked). */
  mode?: AgentMode;
  /**
   * A paraphrase set (bench/paraphrases/*.json): each job's instruction is replaced by one of its family's
   * independent phrasings, filled with the query's own slot values (the checker spec is unchanged).
   */
  paraphrases?: string;
  /** `desktop`: real desktop applications on Xvfb (absent: phone apps in Chromium, as corpora built before it). */
  platform?: 'desktop';
}

/** A paraphrase set: per `app/family`, ≥ 3 independently written phrasings with `{slot}` placeholders. */
export type ParaphraseSet = Record<string, string[]>;

/**
 * The job's instruction in the paraphrase arm: phrasing `n mod k` of its family, filled with the query's slot
 * values; undefined when the family has no phrasing or one needs a slot the query lacks (the job is then left out
 * of both arms, so they stay paired).
 */
export function paraphrase(set: ParaphraseSet, query: Query, n: number): string | undefined {
  const list = set[`${query.app}/${query.checker.family}`];
  if (!list?.length) return undefined;
  const slots: Record<string, string> = { ...query.slots, ...query.checker.params };
  const tpl = list[n % list.length]!;
  let ok = true;
  const text = tpl.replace(/\{([a-z][a-z0-9_]*)\}/g, (all, k: string) => {
    const v = slots[k];
    if (v === undefined) ok = false;
    return v ?? all;
  });
  return ok ? text : undefined;
}

export const rolloutKey = (j: CorpusJob): string => `${j.seed}/${j.query.id}/t${j.temperature}`;

/** The jobs a corpus of these options consists of (deterministic: same options → same jobs). */
export function corpusJobs(o: CorpusOptions, paraphrases?: ParaphraseSet): CorpusJob[] {
  const perSeed = Math.ceil(o.rollouts / (o.seeds.length * o.temperatures.length));
  const jobs: CorpusJob[] = [];
  for (const seed of o.seeds) {
    const { queries } = generateQueries({ dags: o.platform === 'desktop' ? loadDesktopDags() : loadDags(), count: perSeed, seed, apps: o.apps });
    queries.forEach((query, n) => {
      const reworded = paraphrases ? paraphrase(paraphrases, query, n) : query.instruction;
      if (reworded === undefined) return;
      const q = { ...query, instruction: reworded };
      o.temperatures.forEach((temperature) => jobs.push({ seed, n, temperature, query: q }));
    });
  }
  return jobs.slice(0, o.rollouts);
}

/** Reads a paraphrase set (a JSON object of string arrays), naming the bad key on bad input. */
export async function loadParaphrases(file: string): Promise<ParaphraseSet> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as unknown;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${file}: a paraphrase set is an object of app/family → phrasings`);
  for (const [k, v] of Object.entries(raw)) {
    if (k.startsWith('$')) continue;
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`${file}: "${k}" must be an array of strings`);
  }
  return Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith('$'))) as ParaphraseSet;
}

export async function loadCorpus(dir: string): Promise<{ blobs: BlobStore; rollouts: CorpusRollout[]; options: CorpusOptions }> {
  const options = JSON.parse(await readFile(join(dir, 'corpus.json'), 'utf8')) as CorpusOptions;
  const text = await readFile(join(dir, 'rollouts.jsonl'), 'utf8').catch(() => '');
  const byKey = new Map<string, CorpusRollout>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as CorpusRollout;
      byKey.set(rolloutKey(r), r);
    } catch {
      // a line cut short by an interrupted run: that job is simply rolled out again
    }
  }
  return { blobs: createLocalBlobStore(join(dir, 'blobs')), rollouts: [...byKey.values()], options };
}

/**
 * Rolls out every job of `options` not yet in DIR, appending each finished rollout as it completes. `ocr`: the
 * engine the reference server reads screenshots with (a caller that judges afterwards passes its own, so the
 * judging starts with the rollouts' OCR cache, as in the pipeline).
 */
export async function buildCorpus(
  dir: string,
  options: CorpusOptions,
  log: (line: string) => void = console.log,
  deps: { ocr?: OcrEngine } = {},
): Promise<{ rollouts: CorpusRollout[]; envFailures: number; seconds: number }> {
  await mkdir(dir, { recursive: true });
  const prev = await readFile(join(dir, 'corpus.json'), 'utf8').catch(() => undefined);
  if (prev !== undefined && prev !== JSON.stringify(options)) throw new Error(`${dir} holds a corpus built with other options: ${prev}`);
  await writeFile(join(dir, 'corpus.json'), JSON.stringify(options));
  const existing = await loadCorpus(dir);
  const have = new Set(existing.rollouts.map(rolloutKey));
  // Rolled out round-robin over seeds (the set of jobs is the same), so a corpus stopped early still spans them all.
  const set = options.paraphrases ? await loadParaphrases(options.paraphrases) : undefined;
  const jobs = interleaveSeeds(corpusJobs(options, set).filter((j) => !have.has(rolloutKey(j))));
  log(`corpus ${dir}: ${existing.rollouts.length} rollouts already there, ${jobs.length} to roll out`);
  const blobs = existing.blobs;
  const out = join(dir, 'rollouts.jsonl');

  const desktop = options.platform === 'desktop';
  const appServer = desktop ? undefined : await startAppServer({});
  const env: { newSession(): Promise<CorpusSession>; close(): Promise<void> } = appServer
    ? await createChromiumEnv({ appServer, blobs })
    : // Critics read screenshots only: the accessibility tree (a second of AT-SPI per step under load) is not stored.
      createDesktopEnv({ blobs, stateDir: join(dir, 'desktop'), a11yTree: false });
  const ocr = deps.ocr ?? (await createOcrEngine({ store: blobOcrStore(blobs) }));
  const ref = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
  const mode: AgentMode = options.mode ?? 'gui-owl';
  const models = Object.fromEntries(
    MODE_ROLES[mode].map((r) => [r, createChatModel({ baseUrl: ref.baseUrl, model: REFERENCE_MODELS[r], maxRetries: 1 }, { cache: false })]),
  ) as Record<Role, ChatModel>;
  const rollouts = [...existing.rollouts];
  let envFailures = 0;
  const t0 = performance.now();
  const sessions: CorpusSession[] = await Promise.all(Array.from({ length: Math.max(1, options.sessions) }, () => env.newSession()));
  try {
    let next = 0;
    await Promise.all(
      sessions.map(async (_, slot) => {
        for (let i = next++; i < jobs.length; i = next++) {
          const job = jobs[i]!;
          const session = sessions[slot]!;
          const result = await runAgentEpisode(mode, {
            env: session,
            models,
            blobs,
            app: job.query.app,
            instruction: job.query.instruction,
            seed: job.seed * 1000 + job.n * 10 + Math.round(job.temperature * 10),
            maxSteps: options.maxSteps,
            historyImages: 1,
            temperature: job.temperature,
            ...(desktop ? { actionSpace: 'desktop' as const } : {}),
          });
          if (result.environmentFailure) {
            envFailures++;
            log(`ENV  ${rolloutKey(job)}: ${result.environmentFailure}`);
            await session.close().catch(() => undefined);
            sessions[slot] = await env.newSession();
            continue;
          }
          const check =
            job.query.checker.family === INFEASIBLE_FAMILY || job.query.feasible === false
              ? infeasibleSuccess(result.status, result.outcome)
              : await session.check(job.query.checker).catch((err: unknown) => ({ success: false, reason: `checker failed: ${String(err)}` }));
          const done: CorpusRollout = { ...job, result, groundTruth: check.success, groundTruthReason: check.reason };
          rollouts.push(done);
          await appendFile(out, `${JSON.stringify(done)}\n`);
          if (rollouts.length % 25 === 0) log(`  rolled out ${rollouts.length} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
        }
      }),
    );
  } finally {
    await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
    await env.close();
    await appServer?.close();
    await ref.close();
  }
  return { rollouts, envFailures, seconds: (performance.now() - t0) / 1000 };
}

/** Jobs reordered seed by seed in turn (1,2,3,1,2,3,…), each seed's own order kept. */
export function interleaveSeeds(jobs: CorpusJob[]): CorpusJob[] {
  const bySeed = new Map<number, CorpusJob[]>();
  for (const j of jobs) bySeed.set(j.seed, [...(bySeed.get(j.seed) ?? []), j]);
  const queues = [...bySeed.values()];
  const out: CorpusJob[] = [];
  for (let i = 0; out.length < jobs.length; i++) for (const q of queues) { const j = q[i]; if (j) out.push(j); }
  return out;
}

/** "a,b" → trimmed non-empty parts. */
const list = (s: string): string[] => s.split(',').map((x) => x.trim()).filter(Boolean);

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      rollouts: { type: 'string', default: '500' },
      seeds: { type: 'string', default: '1,2,3' },
      temperatures: { type: 'string', default: '0,0.7' },
      sessions: { type: 'string', default: '2' },
      'max-steps': { type: 'string', default: '15' },
      apps: { type: 'string', default: '' },
      mode: { type: 'string' },
      paraphrases: { type: 'string' },
      platform: { type: 'string' },
    },
  });
  if (values.mode !== undefined && !(AGENT_MODES as readonly string[]).includes(values.mode)) {
    console.error(`bench/corpus.ts: bad --mode "${values.mode}" (one of ${AGENT_MODES.join(', ')})`);
    process.exit(2);
  }
  const options: CorpusOptions = {
    rollouts: Number(values.rollouts),
    seeds: list(values.seeds).map(Number),
    temperatures: list(values.temperatures).map(Number),
    sessions: Number(values.sessions),
    maxSteps: Number(values['max-steps']),
    apps: list(values.apps),
    // Only when given, so corpora built before these options keep their corpus.json.
    ...(values.mode ? { mode: values.mode as AgentMode } : {}),
    ...(values.paraphrases ? { paraphrases: values.paraphrases } : {}),
    ...(values.platform === 'desktop' ? { platform: 'desktop' as const } : {}),
  };
  const bad = !values.out
    ? '--out'
    : !(options.rollouts > 0)
      ? '--rollouts'
      : options.seeds.length === 0 || options.seeds.some((s) => !Number.isInteger(s))
        ? '--seeds'
        : options.temperatures.length === 0 || options.temperatures.some((t) => !(t >= 0 && t <= 2))
          ? '--temperatures'
          : !(options.sessions >= 1)
            ? '--sessions'
            : !(options.maxSteps >= 1)
              ? '--max-steps'
              : undefined;
  if (bad) {
    console.error(`bench/corpus.ts: bad or missing ${bad}\nusage: npx tsx bench/corpus.ts --out DIR [--rollouts 500] [--seeds 1,2,3] [--temperatures 0,0.7] [--sessions 2] [--max-steps 15] [--apps food,shop] [--mode swirl] [--paraphrases bench/paraphrases/v1.json]`);
    process.exit(2);
  }
  const { rollouts, envFailures, seconds } = await buildCorpus(values.out!, options);
  const byApp = new Map<string, { n: number; ok: number }>();
  for (const r of rollouts) {
    const e = byApp.get(r.query.app) ?? { n: 0, ok: 0 };
    e.n++;
    if (r.groundTruth) e.ok++;
    byApp.set(r.query.app, e);
  }
  console.log(`\ncorpus: ${rollouts.length} rollouts (${envFailures} environment failures this run, not kept), ${seconds.toFixed(0)} s this run`);
  for (const [app, e] of [...byApp].sort()) console.log(`  ${app.padEnd(10)} ${String(e.ok).padStart(4)}/${String(e.n).padEnd(4)} checker successes`);
  const ok = rollouts.filter((r) => r.groundTruth).length;
  console.log(`  ${'ALL'.padEnd(10)} ${String(ok).padStart(4)}/${rollouts.length}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
