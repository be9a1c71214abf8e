/**
 * Reference-policy baseline: how often the CPU reference policy (`ref-policy`) actually completes the
 * generated tasks on the real apps, judged by the apps' ground-truth checkers.
 *
 *   npx tsx bench/policy-eval.ts [--episodes 24] [--seeds 1,2,3] [--temperature 0] [--sessions 2]
 *                                [--max-steps 15] [--apps food] [--verbose] [--shots DIR]
 *
 * For every seed: `generateQueries({ dags: loadDags(), count: episodes, seed })` draws the tasks (the agent
 * sees the refined instruction, exactly as in a production cycle); each one is rolled out with the GUI-Owl
 * episode loop (`runEpisode`, maxSteps 15, 1 screenshot of history) on a Chromium phone, calling the
 * reference server through the gateway, on `--sessions` sessions in parallel. After each episode the
 * session's checker (`session.check(query.checker)`) decides success — the policy's own terminate status
 * is reported separately (a "success" claim that the checker rejects is a false success). Episodes where the
 * phone itself failed (crash/hang: `environmentFailure`) are printed as ENV, the slot continues on a fresh session,
 * and excluded from the rates.
 *
 * Output: one line per episode, the conclusions of failed episodes, then success rates per app and per
 * task family for each seed (`--apps` restricts the draw to some apps; default all built-in apps), their mean ± sample standard deviation over the seeds, and the average
 * number of steps. `--shots DIR` copies the screenshots of failed episodes there (DIR/<seed>-<n>-<step>.png)
 * to see what the policy saw.
 *
 * Everything runs in-process (no Postgres/Temporal): app server, Chromium, OCR and reference server.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runEpisode, type EpisodeResult } from '../agents/episode.js';
import type { Query } from '../domain/entities.js';
import { loadDags } from '../environments/app-world.js';
import type { ChromiumSession } from '../environments/chromium.js';
import { createChatModel } from '../models/gateway.js';
import { REFERENCE_MODELS } from '../models/reference/roles.js';
import { generateQueries } from '../query-gen/sample.js';
import { startReferenceRig } from './reference-rig.js';

const { values } = parseArgs({
  options: {
    episodes: { type: 'string', default: '24' },
    seeds: { type: 'string', default: '1,2,3' },
    temperature: { type: 'string', default: '0' },
    sessions: { type: 'string', default: '2' },
    'max-steps': { type: 'string', default: '15' },
    verbose: { type: 'boolean', default: false },
    shots: { type: 'string' },
    apps: { type: 'string', default: '' },
  },
});
const EPISODES = Number(values.episodes);
const SEEDS = values.seeds.split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n));
const TEMPERATURE = Number(values.temperature);
const SESSIONS = Math.max(1, Number(values.sessions));
const MAX_STEPS = Number(values['max-steps']);
const APPS = values.apps.split(',').map((s) => s.trim()).filter(Boolean);
if (!(EPISODES > 0) || SEEDS.length === 0 || !(TEMPERATURE >= 0)) {
  console.error('usage: npx tsx bench/policy-eval.ts [--episodes N] [--seeds 1,2,3] [--temperature T] [--sessions 2]');
  process.exit(2);
}

interface Outcome {
  seed: number;
  n: number;
  query: Query;
  result: EpisodeResult;
  success: boolean;
  reason: string;
}

function groupRates(outcomes: Outcome[], key: (o: Outcome) => string): Map<string, { ok: number; total: number }> {
  const m = new Map<string, { ok: number; total: number }>();
  for (const o of outcomes) {
    const k = key(o);
    const e = m.get(k) ?? { ok: 0, total: 0 };
    e.total++;
    if (o.success) e.ok++;
    m.set(k, e);
  }
  return m;
}

function meanSd(xs: number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean, sd };
}

const pct = (x: number): string => `${(100 * x).toFixed(0).padStart(3)}%`;

async function main(): Promise<void> {
  const rig = await startReferenceRig('trajforge-policy-eval-');
  const { blobs, env, ref } = rig;
  // No response cache: at T > 0 every request carries its own seed, and at T = 0 caching would only hide cost.
  const policy = createChatModel({ baseUrl: ref.baseUrl, model: REFERENCE_MODELS.policy, maxRetries: 1 }, { cache: false });
  const sessions: ChromiumSession[] = await Promise.all(Array.from({ length: SESSIONS }, () => env.newSession()));
  if (values.shots) await mkdir(values.shots, { recursive: true });

  const outcomes: Outcome[] = [];
  const t0 = performance.now();
  try {
    for (const seed of SEEDS) {
      const { queries } = generateQueries({ dags: loadDags(), count: EPISODES, seed, apps: APPS });
      let next = 0;
      await Promise.all(
        sessions.map(async (_, slot) => {
          for (let i = next++; i < queries.length; i = next++) {
            const session = sessions[slot]!;
            const query = queries[i]!;
            const result = await runEpisode({
              env: session,
              policy,
              blobs,
              app: query.app,
              instruction: query.instruction,
              seed: seed * 1000 + i,
              maxSteps: MAX_STEPS,
              historyImages: 1,
              temperature: TEMPERATURE,
            });
            const check = await session.check(query.checker).catch((e: unknown) => ({ success: false, reason: `check failed: ${(e as Error).message}` }));
            if (result.environmentFailure) {
              // The phone broke (crash, hang): report it and continue on a fresh session.
              console.log(`ENV  seed ${seed} #${i}: ${result.environmentFailure}`);
              await session.close().catch(() => undefined);
              sessions[slot] = await env.newSession();
            }
            const o: Outcome = { seed, n: i, query, result, success: check.success, reason: check.reason };
            outcomes.push(o);
            const claimed = result.status === 'terminated' ? result.outcome : result.status;
            console.log(
              `${o.success ? 'PASS' : 'FAIL'} seed ${seed} #${String(i).padStart(2)} ${query.family.padEnd(18)} steps ${String(result.steps.length).padStart(2)} claimed ${String(claimed).padEnd(9)} ${JSON.stringify(query.instruction)} — ${check.reason}`,
            );
            if (!o.success || values.verbose) {
              for (const s of result.steps) {
                const a = s.action ? JSON.stringify(s.action) : `error ${s.error?.kind}: ${s.error?.message}`;
                console.log(`      ${String(s.index).padStart(2)} ${s.conclusion}  ${a}`);
              }
            }
            if (!o.success && values.shots) {
              for (const s of result.steps) {
                await writeFile(join(values.shots, `${seed}-${i}-${s.index}.png`), await blobs.get(s.before.screenshotKey));
              }
            }
          }
        }),
      );
    }
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await rig.close();
  }
  const seconds = (performance.now() - t0) / 1000;

  // Per-group rates, for each seed, then mean ± sd over seeds.
  // Episodes whose phone broke (EpisodeResult.environmentFailure) say nothing about the policy: excluded.
  const envFailed = outcomes.filter((o) => o.result.environmentFailure !== undefined);
  const judged = outcomes.filter((o) => o.result.environmentFailure === undefined);
  const report = (title: string, key: (o: Outcome) => string): void => {
    const keys = [...new Set(judged.map(key))].sort();
    console.log(`\n${title.padEnd(20)} ${SEEDS.map((s) => `seed ${s}`.padStart(13)).join('')}   mean ± sd   (n)`);
    for (const k of [...keys, 'ALL']) {
      const perSeed = SEEDS.map((seed) => {
        const g = groupRates(judged.filter((o) => o.seed === seed && (k === 'ALL' || key(o) === k)), () => k).get(k);
        return g ?? { ok: 0, total: 0 };
      });
      const rates = perSeed.filter((g) => g.total > 0).map((g) => g.ok / g.total);
      const { mean, sd } = meanSd(rates);
      const n = perSeed.reduce((a, g) => a + g.total, 0);
      const cells = perSeed.map((g) => (g.total ? `${pct(g.ok / g.total)} ${`${g.ok}/${g.total}`.padStart(5)}` : '—'.padStart(10)).padStart(13)).join('');
      console.log(`${k.padEnd(20)} ${cells}   ${pct(mean)} ± ${(100 * sd).toFixed(0).padStart(2)}  (${n})`);
    }
  };
  console.log(`\nreference policy on ${judged.length} episodes (${envFailed.length} more excluded: environment failures), temperature ${TEMPERATURE}, seeds ${SEEDS.join(',')}, maxSteps ${MAX_STEPS}`);
  report('app', (o) => o.query.app);
  report('family', (o) => o.query.family);

  const steps = judged.map((o) => o.result.steps.length);
  const okSteps = judged.filter((o) => o.success).map((o) => o.result.steps.length);
  const claimedSuccess = judged.filter((o) => o.result.status === 'terminated' && o.result.outcome === 'success');
  const falseSuccess = claimedSuccess.filter((o) => !o.success).length;
  const missedSuccess = judged.filter((o) => o.success && !(o.result.status === 'terminated' && o.result.outcome === 'success')).length;
  console.log(
    `\nsteps: mean ${meanSd(steps).mean.toFixed(1)} (successes ${meanSd(okSteps).mean.toFixed(1)}); ` +
      `claimed success ${claimedSuccess.length}, of which false ${falseSuccess}; checker success without a success claim ${missedSuccess}; ` +
      `max_steps ${judged.filter((o) => o.result.status === 'max_steps').length}; ${seconds.toFixed(0)} s (${(outcomes.length / seconds * 60).toFixed(1)} episodes/min)`,
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
