import { z } from 'zod';
import type { Query } from '../domain/entities.js';
import { ValidationError } from '../domain/errors.js';
import { isNearDuplicate, jaccard, normalizedTokens } from '../query-gen/dedup.js';
import { many, type Queryable } from '../storage/db.js';
import { getEvalSet, listEvalSets } from '../storage/query-stats-repo.js';

/**
 * The contamination guard: no training export may contain a frozen evaluation query (storage/query-stats-repo.ts
 * eval sets). Three checks, in this order:
 * - `exact`: the normalised instruction (case, accents, punctuation and whitespace folded) equals an eval query's;
 * - `near`: the instructions' normalised token sets (query-gen/dedup.ts, stop words dropped) have Jaccard
 *   similarity ≥ NEAR_CONTAMINATION_JACCARD, or — when the caller passes the item's query — query-gen's own
 *   near-duplicate rule holds (same app and slot values, and the same final page or ≥ 0.9 similar wording);
 * - `screens`: the item's whole screenshot chain (first observation, then every post-action observation of its
 *   rollout) equals the chain of some rollout of an eval query. Screenshots are content-addressed, so equal keys
 *   are equal pixels.
 * The near threshold is lower than query-gen's dedup (0.9): for evaluation hygiene a false drop costs one training
 * sample, a missed near-duplicate inflates the eval score.
 */
export interface ContaminationHit {
  kind: 'exact' | 'near' | 'screens';
  evalSet: string;
  evalQueryId: string;
}

/** What the guard checks of one exported item. */
export interface ContaminationItem {
  instruction: string;
  /** The whole screenshot chain of the item's rollout, in order (not just a sample's last frames). */
  screenshotKeys: readonly string[];
  /** The item's query, when the caller has it: enables query-gen's slot-aware near-duplicate rule. */
  query?: Query;
}

export interface ContaminationGuard {
  /** Eval sets the guard checks against (empty: none frozen). */
  readonly evalSets: readonly string[];
  /** How many eval queries and eval-query rollout chains it holds (for the manifest). */
  readonly size: { queries: number; chains: number };
  /** Throws a ValidationError on a malformed item (the export must then refuse, not guess). */
  check(item: ContaminationItem): ContaminationHit | null;
}

/** Token-set Jaccard similarity at or above which an instruction is a near-duplicate of an eval query. */
export const NEAR_CONTAMINATION_JACCARD = 0.8;

/** Case, accents, punctuation and runs of whitespace folded: "Order  a Pizza!" ≡ "order a pizza". */
export function normalizeInstruction(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const chainKey = (keys: readonly string[]): string => keys.join('\n');

const Item = z.object({ instruction: z.string(), screenshotKeys: z.array(z.string()) });

interface EvalEntry {
  set: string;
  query: Query;
  tokens: Set<string>;
}

/**
 * Loads every frozen eval set (or the named ones) with the screenshot chains of every rollout of their queries.
 * Throws when a check cannot run — a named set that does not exist, a stored query that fails its schema, the
 * database unreachable: the export must then refuse to write.
 */
export async function loadContaminationGuard(db: Queryable, names?: readonly string[]): Promise<ContaminationGuard> {
  let sets: string[];
  try {
    const all = (await listEvalSets(db)).map((s) => s.name);
    if (names) {
      const missing = names.filter((n) => !all.includes(n));
      if (missing.length) throw new Error(`eval set(s) not frozen: ${missing.join(', ')} (frozen: ${all.join(', ') || 'none'})`);
      sets = [...new Set(names)];
    } else sets = all;
  } catch (err) {
    throw new Error(`contamination guard cannot run: ${(err as Error).message}`, { cause: err });
  }

  const entries: EvalEntry[] = [];
  const exact = new Map<string, EvalEntry>();
  const byToken = new Map<string, EvalEntry[]>();
  for (const name of sets) {
    let set;
    try {
      set = await getEvalSet(db, name);
    } catch (err) {
      throw new Error(`contamination guard cannot run: eval set ${name} could not be read: ${(err as Error).message}`, { cause: err });
    }
    if (!set) throw new Error(`contamination guard cannot run: eval set ${name} disappeared while loading`);
    for (const query of set.queries) {
      const e: EvalEntry = { set: name, query, tokens: normalizedTokens(query.instruction) };
      entries.push(e);
      const norm = normalizeInstruction(query.instruction);
      if (!exact.has(norm)) exact.set(norm, e);
      for (const t of e.tokens) {
        const list = byToken.get(t) ?? [];
        list.push(e);
        byToken.set(t, list);
      }
    }
  }

  // Every rollout of an eval query (in any cycle, e.g. the eval gate's), as its screenshot chain.
  const chains = new Map<string, EvalEntry>();
  const byQuery = new Map(entries.map((e) => [e.query.id, e]));
  if (byQuery.size > 0) {
    let rows;
    try {
      rows = await many(
        db,
        `select r.id, r.query_id, s.idx, s.before ->> 'screenshotKey' as before_key, s.after ->> 'screenshotKey' as after_key
         from rollouts r join steps s on s.rollout_id = r.id
         where r.query_id = any($1::text[]) order by r.id, s.idx`,
        [[...byQuery.keys()]],
        z.object({ id: z.string(), query_id: z.string(), idx: z.number(), before_key: z.string().nullable(), after_key: z.string().nullable() }),
      );
    } catch (err) {
      throw new Error(`contamination guard cannot run: eval rollouts could not be read: ${(err as Error).message}`, { cause: err });
    }
    const perRollout = new Map<string, { queryId: string; keys: string[] }>();
    for (const r of rows) {
      let c = perRollout.get(r.id);
      if (!c) {
        c = { queryId: r.query_id, keys: r.before_key ? [r.before_key] : [] };
        perRollout.set(r.id, c);
      }
      if (r.after_key) c.keys.push(r.after_key);
    }
    for (const c of perRollout.values()) {
      const e = byQuery.get(c.queryId);
      if (e && c.keys.length > 0 && !chains.has(chainKey(c.keys))) chains.set(chainKey(c.keys), e);
    }
  }

  const hit = (kind: ContaminationHit['kind'], e: EvalEntry): ContaminationHit => ({ kind, evalSet: e.set, evalQueryId: e.query.id });
  const nearCache = new Map<string, EvalEntry | null>();
  const nearByText = (instruction: string): EvalEntry | null => {
    const cached = nearCache.get(instruction);
    if (cached !== undefined) return cached;
    const tokens = normalizedTokens(instruction);
    // Candidates share at least one token (inverted index); the exact Jaccard decides.
    const shared = new Map<EvalEntry, number>();
    for (const t of tokens) for (const e of byToken.get(t) ?? []) shared.set(e, (shared.get(e) ?? 0) + 1);
    let best: EvalEntry | null = null;
    let bestScore = 0;
    for (const [e, inter] of shared) {
      const score = inter / (tokens.size + e.tokens.size - inter);
      if (score >= NEAR_CONTAMINATION_JACCARD && score > bestScore) {
        best = e;
        bestScore = score;
      }
    }
    if (nearCache.size > 50_000) nearCache.clear();
    nearCache.set(instruction, best);
    return best;
  };

  return {
    evalSets: sets,
    size: { queries: entries.length, chains: chains.size },
    check(item) {
      const parsed = Item.safeParse(item);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new ValidationError(issue?.message ?? 'invalid', issue?.path.join('.') || undefined, 'contamination check');
      }
      if (entries.length === 0) return null;
      const e = exact.get(normalizeInstruction(item.instruction));
      if (e) return hit('exact', e);
      const near = nearByText(item.instruction);
      if (near) return hit('near', near);
      if (item.query) {
        const q = item.query;
        const slotNear = entries.find((x) => x.query.app === q.app && isNearDuplicate(x.query, q));
        if (slotNear) return hit('near', slotNear);
      }
      if (item.screenshotKeys.length > 0) {
        const s = chains.get(chainKey(item.screenshotKeys));
        if (s) return hit('screens', s);
      }
      return null;
    },
  };
}

/** Counts of what a guard removed, by kind (for the manifest). */
export interface ContaminationCounts {
  exact: number;
  near: number;
  screens: number;
}

/** Drops the items the guard flags and counts them by kind; `hits` says which eval query each matched. */
export function filterContaminated<T>(
  guard: ContaminationGuard,
  items: readonly T[],
  toItem: (item: T) => ContaminationItem,
): { kept: T[]; removed: ContaminationCounts; hits: { item: T; hit: ContaminationHit }[] } {
  const kept: T[] = [];
  const removed: ContaminationCounts = { exact: 0, near: 0, screens: 0 };
  const hits: { item: T; hit: ContaminationHit }[] = [];
  for (const item of items) {
    const h = guard.check(toItem(item));
    if (h) {
      removed[h.kind]++;
      hits.push({ item, hit: h });
    } else kept.push(item);
  }
  return { kept, removed, hits };
}

/** The similarity the near check uses, exposed for reports and tests. */
export function instructionSimilarity(a: string, b: string): number {
  return jaccard(normalizedTokens(a), normalizedTokens(b));
}

/** A rollout's screenshot chain as the guard compares it: the first observation, then every post-action one. */
export function screenshotChain(steps: readonly { before: { screenshotKey: string }; after?: { screenshotKey: string } }[]): string[] {
  const first = steps[0];
  if (!first) return [];
  return [first.before.screenshotKey, ...steps.flatMap((s) => (s.after ? [s.after.screenshotKey] : []))];
}
