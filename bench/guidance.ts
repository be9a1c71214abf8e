/**
 * Guidance uplift on hard queries (GUI-Owl §6.4; AgentTrek's 3.3× is the goal).
 *
 *   npx tsx bench/guidance.ts [--queries 6] [--k 4] [--seeds 1,2,3] [--apps clock,contacts,settings]
 *                             [--families create_alarm,…] [--ref-sources scripted,mobile-agent-v3,explore]
 *                             [--ref-attempts 1] [--max-steps 15] [--sessions 2] [--probe] [--probe-pool 20]
 *                             [--no-screen] [--min-quantity N]
 *
 * Per seed: `generateQueries` draws the tasks (with --families: only those families); every query gets up to K
 * unguided attempts (attempt 0 at T=0, the rest at T=0.7, as a cycle does; the first checker success ends its
 * screening). Queries with 0/K checker successes are HARD. With `--probe`, the hard queries are FOUND instead of
 * named: per app and seed, `--probe-pool` queries drawn from all the app's families are screened that way and the first
 * `--queries` hard ones per app go on (the probe prints, per family, queries screened → hard). For
 * each hard query a reference trajectory is sought from the sources in order — `scripted` (bench/demos.ts: a
 * demonstration standing in for a person in the browser, verified by the checker as that person would), the
 * Mobile-Agent-v3 role mode, the end-to-end policy at T=1.0 (`explore`). Guidance is synthesised from the reference
 * through the gateway roles (describer on circled screenshots, QC, synthesiser: synthesis/guidance.ts). Then, on
 * FRESH seeds (not the ones that selected the query as hard, so regression to the mean does not pass for uplift),
 * every hard query with guidance gets K unguided and K guided attempts on the same seeds. The policy reads the
 * guidance only as text in its prompt (models/reference/roles/policy-guidance.ts).
 *
 * `--no-screen` skips the hardness screen: every drawn query goes on to reference → guidance → K unguided and K guided
 * attempts (for measuring whether guidance is followable on queries the policy may solve anyway, e.g. Foodie orders
 * with a quantity above 1, whose "+" taps the OCR cannot read). `--min-quantity N` keeps only queries whose task asks
 * for at least N items (a slot of the query's spec; the bench reads it, the agents never do).
 *
 * Output: per app and overall, per seed and mean ± sd over seeds: hard queries, references found, success rates on
 * the fresh seeds without and with guidance, and the uplift. Unguided success on hard queries is ~0, so a plain
 * quotient is mostly undefined; the uplift is reported as
 *   ratio = guided successes ÷ max(unguided successes, 1)   per seed (same queries, same fresh seeds),
 * a lower bound of the rate quotient whenever the unguided arm has no success (a floor of one success per seed).
 * Everything runs in-process: app server, Chromium, OCR, reference server through the gateway.
 */
import { parseArgs } from 'node:util';
import { runAgentEpisode, type AgentMode } from '../agents/run.js';
import type { Role } from '../domain/config.js';
import type { Query } from '../domain/entities.js';
import type { ChatModel } from '../domain/ports.js';
import { loadDags } from '../environments/app-world.js';
import type { ChromiumSession } from '../environments/chromium.js';
import { createChatModel } from '../models/gateway.js';
import { REFERENCE_MODELS } from '../models/reference/roles.js';
import { generateQueries } from '../query-gen/sample.js';
import { startReferenceRig } from './reference-rig.js';
import { referenceSteps } from '../activities/guidance.js';
import { synthesizeGuidance, type ReferenceStep } from '../synthesis/guidance.js';
import { demonstrate } from './demos.js';

const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '6' },
    k: { type: 'string', default: '4' },
    seeds: { type: 'string', default: '1,2,3' },
    apps: { type: 'string', default: 'clock,contacts,settings' },
    families: { type: 'string', default: '' },
    'ref-sources': { type: 'string', default: 'scripted,mobile-agent-v3,explore' },
    'ref-attempts': { type: 'string', default: '1' },
    'max-steps': { type: 'string', default: '15' },
    sessions: { type: 'string', default: '2' },
    probe: { type: 'boolean', default: false },
    'probe-pool': { type: 'string', default: '20' },
    'no-screen': { type: 'boolean', default: false },
    'min-quantity': { type: 'string', default: '0' },
  },
});
const N = Number(values.queries);
const K = Number(values.k);
const SEEDS = values.seeds.split(',').map(Number).filter(Number.isInteger);
const APPS = values.apps.split(',').map((s) => s.trim()).filter(Boolean);
const REF = Number(values['ref-attempts']);
const MAX_STEPS = Number(values['max-steps']);
const SESSIONS = Math.max(1, Number(values.sessions));
const FAMILIES = values.families.split(',').map((s) => s.trim()).filter(Boolean);
const SOURCES = values['ref-sources'].split(',').map((s) => s.trim()).filter(Boolean);
const PROBE = values.probe;
const POOL = Number(values['probe-pool']);
const NO_SCREEN = values['no-screen'];
const MIN_QTY = Number(values['min-quantity']);
/** The bench's own filter on the spec's quantity slot (measurement only). */
const enough = (q: Query): boolean => MIN_QTY <= 0 || Number(q.checker.params.quantity ?? '1') >= MIN_QTY;
if (!(N > 0) || !(K >= 1) || SEEDS.length === 0 || !(POOL > 0)) {
  console.error('usage: npx tsx bench/guidance.ts [--queries N] [--k K] [--seeds 1,2,3] [--apps a,b] [--probe] [--probe-pool M]');
  process.exit(2);
}

interface Row {
  seed: number;
  app: string;
  family: string;
  query: string;
  hard: boolean;
  reference?: string;
  /** Successes out of K on the fresh seeds. */
  unguided?: number;
  guided?: number;
  source?: string;
}

const meanSd = (xs: number[]): string => {
  if (xs.length === 0) return '—';
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)) : 0;
  return `${m.toFixed(2)} ± ${sd.toFixed(2)}`;
};

async function main(): Promise<void> {
  const rig = await startReferenceRig('trajforge-guidance-bench-');
  const { blobs, env, ref } = rig;
  const model = (role: Role): ChatModel => createChatModel({ baseUrl: ref.baseUrl, model: REFERENCE_MODELS[role], maxRetries: 1 }, { cache: false });
  const models: Partial<Record<Role, ChatModel>> = Object.fromEntries(
    (['policy', 'manager', 'worker', 'reflector', 'notetaker', 'guideDescriber', 'guideQc', 'guideSynth'] as Role[]).map((r) => [r, model(r)]),
  );
  const pool: ChromiumSession[] = await Promise.all(Array.from({ length: SESSIONS }, () => env.newSession()));
  const free = [...pool];
  const waiters: ((s: ChromiumSession) => void)[] = [];
  const lease = (): Promise<ChromiumSession> => (free.length ? Promise.resolve(free.pop()!) : new Promise((r) => waiters.push(r)));
  const hand = (s: ChromiumSession): void => (waiters.length ? waiters.shift()!(s) : void free.push(s));
  // A session that hung (a swipe or reset timing out on a loaded machine) is replaced by a fresh one.
  let replaced = 0;
  const release = (s: ChromiumSession, healthy = true): void => {
    if (healthy) return hand(s);
    replaced++;
    void s.close().catch(() => undefined);
    void env.newSession().then(hand, (e: unknown) => console.error(`could not replace a session: ${String(e)}`));
  };

  const episode = async (q: Query, mode: AgentMode, seed: number, temperature: number, guidance?: string) => {
    // An episode the phone broke (environmentFailure, a thrown EnvError) is run again on a fresh session, at most twice.
    for (let tries = 0; ; tries++) {
      const s = await lease();
      let healthy = false;
      try {
        const result = await runAgentEpisode(mode, { env: s, models, blobs, app: q.app, instruction: q.instruction, seed, maxSteps: MAX_STEPS, historyImages: 1, temperature, ...(guidance ? { guidance } : {}) });
        if (result.environmentFailure && tries < 2) continue;
        healthy = !result.environmentFailure;
        const ok = result.environmentFailure ? false : (await s.check(q.checker).catch(() => ({ success: false }))).success;
        return { result, ok };
      } catch (e) {
        if (tries >= 2) throw e;
      } finally {
        release(s, healthy);
      }
    }
  };

  const rows: Row[] = [];
  const t0 = performance.now();
  /** Unguided attempts in order (attempt 0 at T=0, the rest at T=0.7), stopping at the first checker success. */
  const screen = async (q: Query, base: number): Promise<boolean> => {
    for (let j = 0; j < K; j++) if ((await episode(q, 'gui-owl', base + j, j === 0 ? 0 : 0.7)).ok) return false;
    return true;
  };
  /** Reference → guidance → K unguided and K guided attempts on fresh seeds, for one hard query. */
  const guide = async (q: Query, row: Row, seed: number, base: number): Promise<void> => {
    // Reference: the sources in order (a demonstration, another role configuration, exploration at T=1.0).
    let reference: { id: string; source: 'model' | 'scripted'; steps: ReferenceStep[] } | undefined;
    for (const src of SOURCES) {
      for (let r = 0; r < REF && !reference; r++) {
        if (src === 'scripted') {
          const s = await lease();
          let healthy = true;
          let none = false;
          try {
            const title = loadDags().find((d) => d.app === q.app)?.title ?? q.app;
            const d = await demonstrate(s, q, title, base + 50 + r);
            if (d?.ok) reference = { id: `${seed}/${q.id}/scripted/${r}`, source: 'scripted', steps: d.steps };
            else if (d) console.log(`demonstration of ${q.id} did not satisfy the checker`);
            none = !d;
          } catch (e) {
            // The phone broke during the demonstration: this try yields no reference.
            healthy = false;
            console.log(`demonstration of ${q.id} failed on the phone: ${(e as Error).message.split('\n')[0]}`);
          } finally {
            release(s, healthy);
          }
          if (none) break;
          continue;
        }
        const [mode, temp] = src === 'explore' ? (['gui-owl', 1.0] as const) : ([src as AgentMode, 0.7] as const);
        const e = await episode(q, mode, base + 60 + r + (src === 'explore' ? 10 : 0), temp);
        if (e.ok) {
          const id = `${seed}/${q.id}/${src}/${r}`;
          reference = { id, source: 'model', steps: referenceSteps({ id, cycleId: 'bench', queryId: q.id, attempt: 0, agentMode: mode, actionSpace: 'mobile', model: { name: 'x', version: '0' }, status: e.result.status, steps: e.result.steps }) };
        }
      }
      if (reference) break;
    }
    if (!reference) {
      console.log(`HARD seed ${seed} ${q.app.padEnd(9)} ${q.family.padEnd(16)} ${JSON.stringify(q.instruction)}: no reference found`);
      return;
    }
    let g;
    try {
      g = await synthesizeGuidance({ describer: models.guideDescriber!, qc: models.guideQc!, synth: models.guideSynth! }, blobs, { id: reference.id, source: reference.source, instruction: q.instruction, steps: reference.steps });
    } catch (e) {
      console.log(`HARD seed ${seed} ${q.app.padEnd(9)} ${q.family.padEnd(16)} ${JSON.stringify(q.instruction)}: guidance failed: ${(e as Error).message}`);
      return;
    }
    row.source = reference.source;
    row.reference = reference.id;
    // Fresh seeds, same for both arms.
    const fresh = Array.from({ length: K }, (_, j) => base + 80 + j);
    const [un, gd] = await Promise.all([
      Promise.all(fresh.map((s, j) => episode(q, 'gui-owl', s, j === 0 ? 0 : 0.7))),
      Promise.all(fresh.map((s, j) => episode(q, 'gui-owl', s, j === 0 ? 0 : 0.7, g.text))),
    ]);
    // Why a guided attempt failed: its last conclusion (the policy's own words), for the log.
    gd.forEach((x, j) => {
      if (!x.ok) console.log(`  guided attempt failed: seed ${seed} ${q.id} env seed ${fresh[j]} after ${x.result.steps.length} steps: ${JSON.stringify(x.result.steps.at(-1)?.conclusion ?? x.result.status)}`);
    });
    row.unguided = un.filter((x) => x.ok).length;
    row.guided = gd.filter((x) => x.ok).length;
    console.log(`HARD seed ${seed} ${q.app.padEnd(9)} ${q.family.padEnd(16)} ${JSON.stringify(q.instruction)}: guided ${row.guided}/${K} vs unguided ${row.unguided}/${K} (reference: ${reference.source}); guidance: ${g.steps.join(' | ')}`);
  };
  /** Probe bookkeeping: per app/family, queries screened and found hard. */
  const probed = new Map<string, { screened: number; hard: number }>();
  try {
    for (const seed of SEEDS) {
      // Without --probe: the first N queries of the draw (with --families: of those families). With --probe: up to
      // --probe-pool queries per app from ALL its families (or --families), each screened by unguided attempts; the
      // first N hard ones per app go on. No family is named: the unguided attempts find them.
      let pool: Query[];
      if (PROBE) {
        pool = APPS.flatMap((app) =>
          generateQueries({ dags: loadDags(), count: POOL * 3, seed, apps: [app] })
            .queries.filter((q) => q.feasible !== false && (FAMILIES.length === 0 || FAMILIES.includes(q.family)))
            .slice(0, POOL),
        );
      } else {
        const drawn = generateQueries({ dags: loadDags(), count: FAMILIES.length || MIN_QTY > 0 ? N * 40 : N, seed, apps: APPS }).queries;
        pool = (FAMILIES.length ? drawn.filter((q) => FAMILIES.includes(q.family) && q.feasible !== false) : drawn).filter(enough).slice(0, N);
      }
      const hardness = NO_SCREEN ? pool.map(() => true) : await Promise.all(pool.map((q, i) => screen(q, seed * 100_000 + i * 100)));
      const chosen: { q: Query; row: Row; base: number }[] = [];
      pool.forEach((q, i) => {
        const key = `${q.app}/${q.family}`;
        const p = probed.get(key) ?? { screened: 0, hard: 0 };
        p.screened++;
        if (hardness[i]) p.hard++;
        probed.set(key, p);
        const row: Row = { seed, app: q.app, family: q.family, query: q.id, hard: hardness[i]! };
        if (row.hard && chosen.filter((c) => c.q.app === q.app).length >= N) return;
        rows.push(row);
        if (row.hard) chosen.push({ q, row, base: seed * 100_000 + i * 100 });
      });
      console.log(NO_SCREEN ? `seed ${seed}: ${pool.length} queries, not screened (--no-screen), ${chosen.length} taken on` : `seed ${seed}: ${pool.length} queries screened, ${hardness.filter(Boolean).length} hard (0/${K}), ${chosen.length} taken on`);
      await Promise.all(chosen.map((c) => guide(c.q, c.row, seed, c.base)));
    }
  } finally {
    await Promise.all(pool.map((s) => s.close()));
    await rig.close();
  }

  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ');
  console.log(`\nsessions replaced after the phone hung: ${replaced}`);
  console.log(`guidance uplift: ${rows.length} queries × K=${K}, seeds ${SEEDS.join(',')}, apps ${APPS.join(',')}${FAMILIES.length ? `, families ${FAMILIES.join(',')}` : ''}, ${((performance.now() - t0) / 1000).toFixed(0)} s, load average ${load}`);
  if (PROBE) {
    console.log(`probe: hard = 0/${K} unguided successes; per family, queries screened → hard`);
    for (const [k, p] of [...probed.entries()].sort()) console.log(`  ${k.padEnd(28)} ${p.screened} → ${p.hard}`);
  }
  console.log('ratio = guided successes ÷ max(unguided successes, 1) per seed on the same hard queries and fresh seeds');
  console.log(`${'app'.padEnd(10)} ${'hard'.padStart(5)} ${'refs'.padStart(5)}  ${'unguided rate'.padEnd(14)} ${'guided rate'.padEnd(14)} ${'successes u/g (n)'.padEnd(20)} ratio mean ± sd (per seed)`);
  for (const app of [...new Set(rows.map((r) => r.app)).values()].sort().concat('ALL')) {
    const sel = rows.filter((r) => app === 'ALL' || r.app === app);
    const perSeed = SEEDS.map((seed) => sel.filter((r) => r.seed === seed && r.guided !== undefined)).filter((p) => p.length > 0);
    const sum = (p: Row[], k: 'guided' | 'unguided'): number => p.reduce((a, r) => a + r[k]!, 0);
    const un = perSeed.map((p) => sum(p, 'unguided') / (p.length * K));
    const gd = perSeed.map((p) => sum(p, 'guided') / (p.length * K));
    const ratios = perSeed.map((p) => sum(p, 'guided') / Math.max(sum(p, 'unguided'), 1));
    const n = perSeed.reduce((a, p) => a + p.length * K, 0);
    const tot = `${perSeed.reduce((a, p) => a + sum(p, 'unguided'), 0)}/${perSeed.reduce((a, p) => a + sum(p, 'guided'), 0)} (${n})`;
    console.log(
      `${app.padEnd(10)} ${String(sel.filter((r) => r.hard).length).padStart(5)} ${String(sel.filter((r) => r.reference).length).padStart(5)}  ${meanSd(un).padEnd(14)} ${meanSd(gd).padEnd(14)} ${tot.padEnd(20)} ${ratios.length ? `${meanSd(ratios)} (${ratios.map((r) => r.toFixed(2)).join(', ')})` : '—'}`,
    );
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
