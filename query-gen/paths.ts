import type { AppDag, DagPage, DagTransition, TaskFamily } from '../domain/dag.js';

/**
 * Path sampling on app DAGs (GUI-Owl §6.2 step 1). Pure and seeded: every sampler takes a `random` in [0,1)
 * (mulberry32 from sample.ts) and returns the same path for the same sequence.
 *
 * A path is a list of pages; pages of another app are qualified `app:page` (cross-app task families).
 */

export type SamplerName = 'families' | 'uniform' | 'length' | 'coverage';

/** Accepted-trajectory counts per page (`app:page`) and per edge (`app:from>to`), from `dag coverage`. */
export interface CoverageMap {
  pages: Record<string, number>;
  edges: Record<string, number>;
}

export interface SampledPath {
  app: string;
  /** Page refs: plain ids for the path's own app, `app:page` for other apps. */
  pages: string[];
  /** The family the path maps to (exact match, or the shortest family the walk is a prefix of). */
  family?: TaskFamily;
  sampler: SamplerName;
}

export const pageKey = (app: string, page: string): string => `${app}:${page}`;
export const edgeKey = (app: string, from: string, to: string): string => `${app}:${from}>${to}`;

/** `app:page` → [app, page]; a plain id belongs to `home`. */
export function splitRef(ref: string, home: string): [string, string] {
  const i = ref.indexOf(':');
  return i < 0 ? [home, ref] : [ref.slice(0, i), ref.slice(i + 1)];
}

export function findPage(dags: readonly AppDag[], home: string, ref: string): { dag: AppDag; page: DagPage } | undefined {
  const [app, id] = splitRef(ref, home);
  const dag = dags.find((d) => d.app === app);
  const page = dag?.pages.find((p) => p.id === id);
  return dag && page ? { dag, page } : undefined;
}

/** Outgoing transitions to other pages (self-loops set slots on a page; they are not steps of a walk). */
export function outgoing(dag: AppDag, page: string): DagTransition[] {
  return dag.transitions.filter((t) => t.from === page && t.to !== page);
}

function weightedPick<T>(items: readonly T[], weights: readonly number[], random: () => number): T | undefined {
  const total = weights.reduce((s, w) => s + w, 0);
  if (items.length === 0 || total <= 0) return undefined;
  let r = random() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i]!;
    if (r < 0) return items[i];
  }
  return items[items.length - 1];
}

export interface WalkOptions {
  /** Walk length bounds in pages (including the start page). */
  minPages?: number;
  maxPages?: number;
  /** Probability of stopping at each page once `minPages` is reached. Default 0.3. */
  stopProbability?: number;
  /** Edge weight; default uniform. */
  weight?: (t: DagTransition) => number;
}

/** A random walk from the start page over transitions, never revisiting a page. */
export function randomWalk(dag: AppDag, random: () => number, opts: WalkOptions = {}): string[] {
  const minPages = opts.minPages ?? 2;
  const maxPages = opts.maxPages ?? 8;
  const stop = opts.stopProbability ?? 0.3;
  const path = [dag.startPage];
  while (path.length < maxPages) {
    const here = path[path.length - 1]!;
    const next = outgoing(dag, here).filter((t) => !path.includes(t.to));
    if (next.length === 0) break;
    if (path.length >= minPages && random() < stop) break;
    const t = weightedPick(next, next.map((e) => opts.weight?.(e) ?? 1), random);
    if (!t) break;
    path.push(t.to);
  }
  return path;
}

/**
 * A walk of exactly `k` pages when one exists: randomised depth-first search over simple paths from the start
 * page (every order of edges is equally likely at each page); the longest walk found otherwise.
 */
export function walkOfLength(dag: AppDag, k: number, random: () => number): string[] {
  let best: string[] = [dag.startPage];
  const visit = (path: string[]): string[] | undefined => {
    if (path.length > best.length) best = [...path];
    if (path.length === k) return path;
    const next = outgoing(dag, path[path.length - 1]!).filter((t) => !path.includes(t.to));
    const order = next.map((t) => ({ t, r: random() })).sort((a, b) => a.r - b.r);
    for (const { t } of order) {
      const found = visit([...path, t.to]);
      if (found) return found;
    }
    return undefined;
  };
  return visit([dag.startPage]) ?? best;
}

/** Coverage-driven edge weight: ∝ 1/(1 + accepted trajectories through the edge) × 1/(1 + through its target page). */
export function coverageWeight(dag: AppDag, coverage: CoverageMap): (t: DagTransition) => number {
  return (t) => 1 / (1 + (coverage.edges[edgeKey(dag.app, t.from, t.to)] ?? 0)) / (1 + (coverage.pages[pageKey(dag.app, t.to)] ?? 0));
}

const samePath = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The family a sampled path maps to: a family with exactly this path, else the shortest family whose path the
 * sampled path is a prefix of (the walk is completed to that family's path). Undefined: a free path.
 */
export function mapToFamily(dag: AppDag, pages: readonly string[]): { family: TaskFamily; pages: string[] } | undefined {
  const exact = dag.tasks.find((f) => samePath(f.path, pages));
  if (exact) return { family: exact, pages: [...exact.path] };
  const extending = dag.tasks
    .filter((f) => f.path.length > pages.length && samePath(f.path.slice(0, pages.length), pages))
    .sort((a, b) => a.path.length - b.path.length || a.id.localeCompare(b.id))[0];
  return extending ? { family: extending, pages: [...extending.path] } : undefined;
}

export interface SampleOptions {
  sampler: SamplerName;
  /** `length`: target pages per path. */
  length?: number;
  coverage?: CoverageMap;
  /** Keep walks that map to no task family (their instruction comes from the transition actions). Default false. */
  allowFree?: boolean;
}

/**
 * One path on `dag`. `families`: uniform over task families (cross-app families included); `uniform`: a random
 * walk; `length`: a walk of `length` pages; `coverage`: a walk weighted towards rarely accepted pages/edges,
 * and families weighted by the same measure over their paths.
 */
export function samplePath(dag: AppDag, random: () => number, opts: SampleOptions): SampledPath | undefined {
  if (opts.sampler === 'families') {
    if (dag.tasks.length === 0) return undefined;
    const family = dag.tasks[Math.floor(random() * dag.tasks.length)]!;
    return { app: dag.app, pages: [...family.path], family, sampler: 'families' };
  }
  let walk: string[];
  if (opts.sampler === 'length') walk = walkOfLength(dag, opts.length ?? 4, random);
  else if (opts.sampler === 'coverage') walk = randomWalk(dag, random, { weight: coverageWeight(dag, opts.coverage ?? { pages: {}, edges: {} }) });
  else walk = randomWalk(dag, random);
  const mapped = mapToFamily(dag, walk);
  if (mapped) return { app: dag.app, pages: mapped.pages, family: mapped.family, sampler: opts.sampler };
  if (!opts.allowFree) return undefined;
  return { app: dag.app, pages: walk, sampler: opts.sampler };
}

/** Transitions a path takes between consecutive pages (`undefined` where it switches app or no edge exists). */
export function pathTransitions(
  dags: readonly AppDag[],
  app: string,
  pages: readonly string[],
  slots: Record<string, string> = {},
): (DagTransition | undefined)[] {
  const out: (DagTransition | undefined)[] = [];
  for (let i = 0; i + 1 < pages.length; i++) {
    const [a1, p1] = splitRef(pages[i]!, app);
    const [a2, p2] = splitRef(pages[i + 1]!, app);
    const dag = dags.find((d) => d.app === a1);
    if (a1 !== a2 || !dag) {
      out.push(undefined);
      continue;
    }
    const edges = dag.transitions.filter((t) => t.from === p1 && t.to === p2);
    // Prefer the edge that consumes a slot the query has, then the first one (DAG order).
    out.push(edges.find((t) => t.slot !== undefined && slots[t.slot] !== undefined) ?? edges.find((t) => !t.slot) ?? edges[0]);
  }
  return out;
}

/** Edge keys of a path (for coverage accounting). */
export function pathEdges(app: string, pages: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < pages.length; i++) {
    const [a1, p1] = splitRef(pages[i]!, app);
    const [a2, p2] = splitRef(pages[i + 1]!, app);
    if (a1 === a2) out.push(edgeKey(a1, p1, p2));
  }
  return out;
}
