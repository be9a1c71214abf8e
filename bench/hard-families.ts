/**
 * Which task families does the base reference policy fail? A small probe, so that a self-evolution run can
 * produce and evaluate on queries where there is room to rise (bench/evolve.ts `--hard-families X`).
 *
 *   npx tsx bench/hard-families.ts [--apps clock,contacts] [--per-family 2] [--max-success 0] [--seed 424242]
 *
 * Per family of the apps: `--per-family` feasible queries drawn with the probe's own seed (disjoint from the
 * line's cycle and eval seeds), one unguided episode each at T = 0 (the cycle's greedy first attempt) by the base
 * policy (no memory), judged by the checker (ground truth: measurement only, the families are chosen before the
 * line starts and nothing of the probe reaches an agent or an export). A family is hard when its success rate is
 * ≤ `--max-success`. In-process: app server, Chromium, OCR, the reference server through the gateway.
 */
import { runAgentEpisode } from '../agents/run.js';
import type { Query } from '../domain/entities.js';
import { loadDags } from '../environments/app-world.js';
import type { ChromiumSession } from '../environments/chromium.js';
import { createChatModel } from '../models/gateway.js';
import { REFERENCE_MODELS } from '../models/reference/roles.js';
import { generateQueries } from '../query-gen/sample.js';
import { startReferenceRig } from './reference-rig.js';

export interface FamilyProbe {
  app: string;
  family: string;
  successes: number;
  episodes: number;
}

export interface ProbeOptions {
  apps: readonly string[];
  perFamily: number;
  seed: number;
  maxSteps: number;
  sessions: number;
  log?: (line: string) => void;
}

/** Per-family checker success of the base policy on a small unguided probe. */
export async function probeFamilies(opts: ProbeOptions): Promise<FamilyProbe[]> {
  const dags = loadDags().filter((d) => d.tasks.length > 0 && (opts.apps.length === 0 || opts.apps.includes(d.app)));
  if (dags.length === 0) throw new Error(`--apps: no app with task families among ${opts.apps.join(',')}`);
  const picked: Query[] = [];
  for (const dag of dags) {
    const drawn = generateQueries({ dags: [dag], count: dag.tasks.length * opts.perFamily * 6, seed: opts.seed, apps: [dag.app] }).queries;
    for (const t of dag.tasks) picked.push(...drawn.filter((q) => q.family === t.id && q.feasible !== false).slice(0, opts.perFamily));
  }
  const rig = await startReferenceRig('trajforge-probe-');
  const { blobs, env, ref } = rig;
  const policy = createChatModel({ baseUrl: ref.baseUrl, model: REFERENCE_MODELS.policy, maxRetries: 1 }, { cache: false });
  const pool: ChromiumSession[] = await Promise.all(Array.from({ length: Math.max(1, opts.sessions) }, () => env.newSession()));
  const results = new Map<string, FamilyProbe>();
  try {
    let next = 0;
    await Promise.all(
      pool.map(async (s) => {
        while (next < picked.length) {
          const i = next++;
          const q = picked[i]!;
          const r = await runAgentEpisode('gui-owl', { env: s, models: { policy }, blobs, app: q.app, instruction: q.instruction, seed: opts.seed + i, maxSteps: opts.maxSteps, historyImages: 1, temperature: 0 });
          const ok = !r.environmentFailure && (await s.check(q.checker).catch(() => ({ success: false }))).success;
          const key = `${q.app}/${q.family}`;
          const row = results.get(key) ?? { app: q.app, family: q.family, successes: 0, episodes: 0 };
          row.episodes++;
          if (ok) row.successes++;
          results.set(key, row);
          opts.log?.(`probe ${key.padEnd(28)} ${ok ? 'success' : 'failure'}  ${JSON.stringify(q.instruction)}`);
        }
      }),
    );
  } finally {
    await Promise.all(pool.map((s) => s.close()));
    await rig.close();
  }
  return [...results.values()].sort((a, b) => (a.app + a.family < b.app + b.family ? -1 : 1));
}

/** The families whose probe success rate is at most `maxSuccess`. */
export function hardFamilies(rows: readonly FamilyProbe[], maxSuccess: number): FamilyProbe[] {
  return rows.filter((r) => r.episodes > 0 && r.successes / r.episodes <= maxSuccess);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { parseArgs } = await import('node:util');
  const { values } = parseArgs({
    options: {
      apps: { type: 'string', default: 'clock,contacts,settings' },
      'per-family': { type: 'string', default: '2' },
      'max-success': { type: 'string', default: '0' },
      seed: { type: 'string', default: '424242' },
      'max-steps': { type: 'string', default: '15' },
      sessions: { type: 'string', default: '2' },
    },
  });
  const rows = await probeFamilies({
    apps: values.apps.split(',').map((s) => s.trim()).filter(Boolean),
    perFamily: Number(values['per-family']),
    seed: Number(values.seed),
    maxSteps: Number(values['max-steps']),
    sessions: Number(values.sessions),
    log: (l) => console.log(l),
  });
  for (const r of rows) console.log(`${`${r.app}/${r.family}`.padEnd(32)} ${r.successes}/${r.episodes}`);
  console.log(`hard (≤ ${values['max-success']}): ${hardFamilies(rows, Number(values['max-success'])).map((r) => r.family).join(',') || 'none'}`);
}
