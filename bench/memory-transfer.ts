/**
 * Held-out transfer of the reference policy's generalised memory (models/reference/memory.ts), on the real apps
 * (Chromium + OCR, checker ground truth), in-process (no Postgres/Temporal):
 *
 *   npx tsx bench/memory-transfer.ts [--apps messages,notes] [--train 10] [--held-out 8] [--seeds 1,2] [--temperature 0.8]
 *
 * 1. Rolls out `--train` generated queries (query seed 11) at T = 0 and trains a memory on the steps of the episodes
 *    the policy itself claimed successful (no checker: ground truth never trains).
 * 2. Rolls out `--held-out` queries drawn with another query seed (12), minus any instruction also in the training
 *    draw, at `--temperature`, with and without the memory, same episode seeds; the checkers judge.
 * Prints the success rates per seed, their mean ± sd, and how many steps the generalised memory decided.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runEpisode, type EpisodeResult } from '../agents/episode.js';
import type { MobileAction } from '../domain/action.js';
import type { Query } from '../domain/entities.js';
import { startAppServer } from '../environments/app-server.js';
import { loadDags } from '../environments/app-world.js';
import { createChromiumEnv, type ChromiumSession } from '../environments/chromium.js';
import { createChatModel } from '../models/gateway.js';
import { createOcrEngine } from '../models/ocr.js';
import { PolicyMemory } from '../models/reference/memory.js';
import { REFERENCE_MODELS, referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';
import { generateQueries } from '../query-gen/sample.js';
import { createLocalBlobStore } from '../storage/blob-local.js';

const { values } = parseArgs({
  options: {
    apps: { type: 'string', default: 'messages,notes' },
    train: { type: 'string', default: '10' },
    'held-out': { type: 'string', default: '8' },
    seeds: { type: 'string', default: '1,2' },
    temperature: { type: 'string', default: '0.8' },
  },
});
const APPS = values.apps.split(',').filter(Boolean);
const TEMPERATURE = Number(values.temperature);
const SEEDS = values.seeds.split(',').map(Number);

const dir = await mkdtemp(join(tmpdir(), 'trajforge-memtransfer-'));
const appServer = await startAppServer();
const ocr = await createOcrEngine();
const blobs = createLocalBlobStore(dir);
const env = await createChromiumEnv({ appServer, blobs });
const sessions: ChromiumSession[] = [await env.newSession(), await env.newSession()];

async function rollAll(queries: Query[], memory: PolicyMemory | undefined, temperature: number, seed: number): Promise<{ query: Query; result: EpisodeResult; success: boolean }[]> {
  const server = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(memory ? { memory } : {}), ocr });
  const policy = createChatModel({ baseUrl: server.baseUrl, model: REFERENCE_MODELS.policy, maxRetries: 0 }, { cache: false });
  const out: { query: Query; result: EpisodeResult; success: boolean }[] = [];
  let next = 0;
  try {
    await Promise.all(
      sessions.map(async (_, slot) => {
        for (let i = next++; i < queries.length; i = next++) {
          const query = queries[i]!;
          const session = sessions[slot]!;
          const result = await runEpisode({ env: session, policy, blobs, app: query.app, instruction: query.instruction, seed: seed * 1000 + i, maxSteps: 12, historyImages: 1, temperature });
          const check = await session.check(query.checker).catch(() => ({ success: false }));
          if (result.environmentFailure) {
            await session.close().catch(() => undefined);
            sessions[slot] = await env.newSession();
          }
          out.push({ query, result, success: check.success && !result.environmentFailure });
        }
      }),
    );
  } finally {
    await server.close();
  }
  return out;
}

const t0 = performance.now();
try {
  const dags = loadDags();
  const train = generateQueries({ dags, count: Number(values.train), seed: 11, apps: APPS }).queries;
  const trainSet = new Set(train.map((q) => q.instruction));
  const heldOut = generateQueries({ dags, count: Number(values['held-out']), seed: 12, apps: APPS }).queries.filter((q) => !trainSet.has(q.instruction));
  const memory = new PolicyMemory('0.1.1');
  for (const { query, result } of await rollAll(train, undefined, 0, 1)) {
    if (!(result.status === 'terminated' && result.outcome === 'success')) continue;
    const history: string[] = [];
    for (const step of result.steps) {
      if (!step.action) continue;
      const lines = await ocr.recognize(await blobs.get(step.before.screenshotKey));
      memory.add({ instruction: query.instruction, lines, screen: { width: step.before.width, height: step.before.height }, action: step.action as MobileAction, conclusion: step.conclusion, thought: step.reasoning, history: [...history] });
      history.push(step.conclusion);
    }
  }
  const rate = (xs: { success: boolean }[]): number => xs.filter((x) => x.success).length / xs.length;
  const stats = (xs: number[]): string => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)) : 0;
    return `${(100 * m).toFixed(0)} ± ${(100 * sd).toFixed(0)} %`;
  };
  const before: number[] = [];
  const after: number[] = [];
  let general = 0;
  let steps = 0;
  for (const seed of SEEDS) {
    before.push(rate(await rollAll(heldOut, undefined, TEMPERATURE, seed)));
    const withMemory = await rollAll(heldOut, memory, TEMPERATURE, seed);
    after.push(rate(withMemory));
    const all = withMemory.flatMap((r) => r.result.steps);
    steps += all.length;
    general += all.filter((s) => s.reasoning.includes('general match')).length;
    console.log(`seed ${seed}: base ${before.at(-1)!.toFixed(2)} → with memory ${after.at(-1)!.toFixed(2)}`);
  }
  console.log(`apps ${APPS.join(',')}: trained on ${train.length} queries (${memory.generalSize} generalised entries), held-out ${heldOut.length} disjoint queries × ${SEEDS.length} seeds at T=${TEMPERATURE}`);
  console.log(`held-out checker success: base ${stats(before)} → with memory ${stats(after)}; ${general}/${steps} steps decided by the generalised memory; ${((performance.now() - t0) / 1000).toFixed(0)} s`);
} finally {
  for (const s of sessions) await s.close().catch(() => undefined);
  await env.close();
  await appServer.close();
  await rm(dir, { recursive: true, force: true });
}
