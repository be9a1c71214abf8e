import type { AppDag } from '../domain/dag.js';
import type { Query } from '../domain/entities.js';
import type { ChatModel } from '../domain/ports.js';
import { Deduper } from './dedup.js';
import { estimateDifficulty, trapFlags } from './difficulty.js';
import { INFEASIBLE_FAMILY, makeInfeasible } from './infeasible.js';
import { diversityOf, type DiversityReport } from './diversity.js';
import { describe, extractMetadata, type PathMetadata } from './metadata.js';
import { edgeKey, pageKey, pathEdges, samplePath, splitRef, type CoverageMap, type SamplerName } from './paths.js';
import { queryId, seededRandom } from './sample.js';
import { refine, synthesize, SynthesisError } from './synth.js';
import { validationVerdict, type InterfaceValidator } from './validate.js';

/**
 * The query-generation pipeline (GUI-Owl §6.2): path sampling → metadata extraction → instruction synthesis →
 * refinement → (optional) interface validation, plus difficulty, exact/near dedup and infeasible variants.
 * Pure apart from the ports (models, validator); the same seed and deterministic models give the same queries.
 */

export interface BatchOptions {
  dags: readonly AppDag[];
  count: number;
  seed: number;
  sampler: SamplerName;
  models: { synth: ChatModel; refine: ChatModel };
  validator?: InterfaceValidator;
  /** Restrict to these apps (empty: every app with a DAG). */
  apps?: readonly string[];
  /** Restrict to these task families (ids such as `create_alarm`; empty: every family). Free walks are dropped. */
  families?: readonly string[];
  /** `length` sampler: pages per path. */
  length?: number;
  /** `coverage` sampler: accepted-trajectory counts. */
  coverage?: CoverageMap;
  /** Share of infeasible queries. Default 0. */
  infeasibleRate?: number;
  /** Keep walks that map to no family (they get checker family `reach_page`, which apps may not check). */
  allowFree?: boolean;
  /** Give up after this many draws per requested query. Default 20. */
  maxDrawsPerQuery?: number;
}

export interface BatchReport {
  seed: number;
  sampler: SamplerName;
  requested: number;
  generated: number;
  drawn: number;
  /** Draws whose walk maps to no task family (resampled unless `allowFree`). */
  unmapped: number;
  perApp: Record<string, { generated: number; infeasible: number }>;
  dedup: { exact: number; near: number; rate: number };
  synthesis: { failed: number; refineFallbacks: number };
  validation?: { checked: number; dropped: number; failureRate: number; byReason: Record<string, number> };
  coverage: Record<string, { pages: string; edges: string; families: string; uncoveredPages: string[]; uncoveredEdges: string[]; uncoveredFamilies: string[] }>;
  difficulty: Record<string, number>;
  families: Record<string, number>;
  /** Lexical diversity of the kept (refined) instructions: distinct-1/2 and self-BLEU. */
  diversity: DiversityReport;
}

export interface BatchResult {
  queries: Query[];
  report: BatchReport;
}

function pickApp(dags: readonly AppDag[], random: () => number): AppDag {
  return dags[Math.floor(random() * dags.length)]!;
}

async function buildQuery(
  opts: BatchOptions,
  dag: AppDag,
  pages: string[],
  meta: PathMetadata,
  feasible: boolean,
  sampler: string,
  stats: BatchReport['synthesis'],
): Promise<Query | undefined> {
  const family = meta.family?.id ?? 'reach_page';
  const checkerFamily = feasible ? family : INFEASIBLE_FAMILY;
  const base = { app: dag.app, dagVersion: dag.version, family: checkerFamily, slots: meta.slots };
  const qSeed = opts.seed;
  let raw: string;
  try {
    raw = await synthesize(opts.models.synth, meta, qSeed);
  } catch (e) {
    if (e instanceof SynthesisError) {
      stats.failed++;
      return undefined;
    }
    throw e;
  }
  const refined = await refine(opts.models.refine, meta, raw, qSeed);
  if (refined.fellBack) stats.refineFallbacks++;
  const traps = trapFlags(meta.slots, meta.specs, feasible);
  const params: Record<string, string> = feasible ? { ...meta.slots } : { ...meta.slots, baseFamily: family };
  if (!feasible && family === 'reach_page') params.page = pages[pages.length - 1]!;
  if (feasible && family === 'reach_page') params.page = pages[pages.length - 1]!;
  return {
    ...base,
    id: queryId({ ...base, family: `${checkerFamily}${family === 'reach_page' ? `:${pages.join('>')}` : ''}` }),
    instruction: refined.text,
    rawInstruction: raw,
    path: pages,
    checker: { app: dag.app, family: checkerFamily, params },
    difficulty: estimateDifficulty(pages.length, Object.keys(meta.slots).length, traps.length),
    sampler: `${sampler}@2`,
    seed: opts.seed,
    feasible,
    lineage: { sampler, synthModel: opts.models.synth.name, refineModel: opts.models.refine.name, dagVersion: dag.version, seed: opts.seed },
    metadata: { descriptions: meta.descriptions, slots: meta.slots },
  };
}

/** Page/edge/task-family coverage of a query set against the DAGs (self-loops excluded from edges). */
export function coverageOf(dags: readonly AppDag[], queries: readonly Pick<Query, 'app' | 'path' | 'family'>[]): BatchReport['coverage'] {
  const pages = new Set<string>();
  const edges = new Set<string>();
  const families = new Set<string>();
  for (const q of queries) {
    families.add(`${q.app}:${q.family}`);
    for (const ref of q.path) {
      const [a, p] = splitRef(ref, q.app);
      pages.add(pageKey(a, p));
    }
    for (const e of pathEdges(q.app, q.path)) edges.add(e);
  }
  const out: BatchReport['coverage'] = {};
  for (const dag of dags) {
    const allPages = dag.pages.map((p) => pageKey(dag.app, p.id));
    const allEdges = [...new Set(dag.transitions.filter((t) => t.from !== t.to).map((t) => edgeKey(dag.app, t.from, t.to)))];
    const up = allPages.filter((p) => !pages.has(p));
    const ue = allEdges.filter((e) => !edges.has(e));
    const uf = dag.tasks.map((t) => t.id).filter((f) => !families.has(`${dag.app}:${f}`));
    out[dag.app] = {
      pages: `${allPages.length - up.length}/${allPages.length}`,
      edges: `${allEdges.length - ue.length}/${allEdges.length}`,
      families: `${dag.tasks.length - uf.length}/${dag.tasks.length}`,
      uncoveredPages: up,
      uncoveredEdges: ue,
      uncoveredFamilies: uf,
    };
  }
  return out;
}

export async function generateQueryBatch(opts: BatchOptions): Promise<BatchResult> {
  const random = seededRandom(opts.seed);
  const dags = opts.dags.filter((d) => !opts.apps?.length || opts.apps.includes(d.app));
  if (dags.length === 0) throw new Error('no app DAG matches the requested apps');
  const infeasibleRate = opts.infeasibleRate ?? 0;
  // A family filter rejects most draws before any model call, so it gets a larger draw budget.
  const budget = opts.count * (opts.maxDrawsPerQuery ?? (opts.families?.length ? 200 : 20));
  const synthesis = { failed: 0, refineFallbacks: 0 };
  const candidates: Query[] = [];
  const seen = new Set<string>();
  let drawn = 0;
  let unmapped = 0;
  let exact = 0;
  let near = 0;
  let kept: Query[] = [];
  const deduper = new Deduper();
  // Draw until `count` distinct queries survive dedup (dedup runs incrementally, in draw order).
  while (kept.length < opts.count && drawn < budget) {
    drawn++;
    const dag = pickApp(dags, random);
    const sampled = samplePath(dag, random, {
      sampler: opts.sampler,
      ...(opts.length !== undefined ? { length: opts.length } : {}),
      ...(opts.coverage ? { coverage: opts.coverage } : {}),
      ...(opts.allowFree ? { allowFree: true } : {}),
    });
    if (!sampled) {
      unmapped++;
      continue;
    }
    if (opts.families?.length && !opts.families.includes(sampled.family?.id ?? '')) continue;
    let meta = extractMetadata(opts.dags, dag.app, sampled.pages, random, sampled.family);
    let feasible = true;
    // Infeasible variants are kept to the requested share of the surviving set (feasible draws dedupe more).
    const infeasibleKept = kept.filter((k) => k.feasible === false).length;
    if (infeasibleRate > 0 && random() < infeasibleRate * 4 && infeasibleKept < Math.ceil(infeasibleRate * (kept.length + 1))) {
      const variant = makeInfeasible(meta.slots, meta.specs, random);
      if (variant) {
        feasible = false;
        meta = { ...describe(opts.dags, dag.app, sampled.pages, variant.slots, sampled.family), specs: meta.specs };
      }
    }
    // Cheap exact-duplicate check before paying for the model calls.
    const key = JSON.stringify([dag.app, sampled.family?.id ?? sampled.pages.join('>'), feasible, meta.slots]);
    if (seen.has(key)) {
      exact++;
      continue;
    }
    seen.add(key);
    const q = await buildQuery(opts, dag, sampled.pages, meta, feasible, sampled.sampler, synthesis);
    if (!q) continue;
    candidates.push(q);
    const r = deduper.add(q);
    if (r === 'kept') kept.push(q);
    else if (r === 'exact') exact++;
    else near++;
  }

  let validation: BatchReport['validation'];
  if (opts.validator) {
    const byReason: Record<string, number> = {};
    const survivors: Query[] = [];
    for (const q of kept) {
      const result = await opts.validator.validate({ app: q.app, path: q.path, slots: q.slots });
      const verdict = validationVerdict(result, q.feasible ?? true);
      const withResult: Query = { ...q, validation: { valid: result.valid, ...(result.failedAt ? { failedAt: result.failedAt } : {}) } };
      if (verdict.keep) survivors.push(withResult);
      else byReason[verdict.reason ?? 'unknown'] = (byReason[verdict.reason ?? 'unknown'] ?? 0) + 1;
    }
    const dropped = kept.length - survivors.length;
    validation = { checked: kept.length, dropped, failureRate: kept.length ? dropped / kept.length : 0, byReason };
    kept = survivors;
  }

  const perApp: BatchReport['perApp'] = {};
  const difficulty: Record<string, number> = {};
  const families: Record<string, number> = {};
  for (const q of kept) {
    const a = (perApp[q.app] ??= { generated: 0, infeasible: 0 });
    a.generated++;
    if (q.feasible === false) a.infeasible++;
    const bucket = q.difficulty >= 12 ? '12+' : String(q.difficulty);
    difficulty[bucket] = (difficulty[bucket] ?? 0) + 1;
    const fam = q.feasible === false ? `infeasible(${q.checker.params.baseFamily ?? '?'})` : q.family;
    families[fam] = (families[fam] ?? 0) + 1;
  }
  const sortedDifficulty = Object.fromEntries(Object.entries(difficulty).sort(([a], [b]) => parseInt(a) - parseInt(b)));
  const considered = candidates.length + exact;
  return {
    queries: kept,
    report: {
      seed: opts.seed,
      sampler: opts.sampler,
      requested: opts.count,
      generated: kept.length,
      drawn,
      unmapped,
      perApp,
      dedup: { exact, near, rate: considered ? (exact + near) / considered : 0 },
      synthesis,
      ...(validation ? { validation } : {}),
      coverage: coverageOf(dags, kept),
      difficulty: sortedDifficulty,
      families,
      diversity: diversityOf(
        kept.map((q) => q.instruction),
        { slots: kept.map((q) => ({ family: `${q.app}/${q.family}`, values: Object.values(q.metadata?.slots ?? q.checker.params) })) },
      ),
    },
  };
}

/** Human-readable report lines. */
export function formatReport(r: BatchReport): string[] {
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const lines = [
    `queries: ${r.generated}/${r.requested} (sampler ${r.sampler}, seed ${r.seed}; ${r.drawn} draws, ${r.unmapped} unmapped walks)`,
    `per app: ${Object.entries(r.perApp).map(([a, c]) => `${a} ${c.generated} (${c.infeasible} infeasible)`).join(', ')}`,
    `families: ${Object.entries(r.families).map(([f, n]) => `${f} ${n}`).join(', ')}`,
    `dedup: ${r.dedup.exact} exact + ${r.dedup.near} near duplicates removed (rate ${pct(r.dedup.rate)})`,
    `synthesis: ${r.synthesis.failed} failed, ${r.synthesis.refineFallbacks} refinements fell back to the raw instruction`,
  ];
  if (r.validation) {
    lines.push(
      `validation: ${r.validation.checked} replayed, ${r.validation.dropped} dropped (${pct(r.validation.failureRate)})${Object.keys(r.validation.byReason).length ? ': ' + Object.entries(r.validation.byReason).map(([k, n]) => `${k} ${n}`).join(', ') : ''}`,
    );
  }
  for (const [app, c] of Object.entries(r.coverage)) {
    lines.push(`coverage ${app}: pages ${c.pages}, edges ${c.edges}, families ${c.families}${c.uncoveredPages.length ? `; uncovered pages ${c.uncoveredPages.join(' ')}` : ''}${c.uncoveredEdges.length ? `; uncovered edges ${c.uncoveredEdges.join(' ')}` : ''}${c.uncoveredFamilies.length ? `; uncovered families ${c.uncoveredFamilies.join(' ')}` : ''}`);
  }
  lines.push(`difficulty: ${Object.entries(r.difficulty).map(([d, n]) => `${d}:${n}`).join(' ')}`);
  const d = r.diversity;
  lines.push(
    `diversity: distinct-1 ${d.distinct1.toFixed(3)}, distinct-2 ${d.distinct2.toFixed(3)}, self-BLEU ${d.selfBleu.toFixed(3)} (BLEU-4 of ${d.selfBleuSample} instructions against the other ${Math.max(0, d.instructions - 1)}; lower = more varied)`,
  );
  if (d.withinFamily && d.phrasingsPerFamily !== undefined) {
    const w = d.withinFamily;
    lines.push(
      `diversity within families (slot values masked): ${d.phrasingsPerFamily.toFixed(1)} distinct phrasings per family, distinct-1 ${w.distinct1.toFixed(3)}, distinct-2 ${w.distinct2.toFixed(3)}, self-BLEU ${w.selfBleu.toFixed(3)}`,
    );
  }
  return lines;
}
