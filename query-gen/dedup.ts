import type { Query } from '../domain/entities.js';

/**
 * Duplicate removal. Exact: the same natural key (app, DAG version, family, slot values → `queryId`).
 * Near: the same app and the same slot assignment, and either the same final page (the same task reached by
 * another family/template, e.g. `view_menu` vs `search_restaurant` for one restaurant) or instructions whose
 * normalised token Jaccard similarity is ≥ 0.9. Queries asking for different slot values are different tasks,
 * however similar their wording ("… Burger Palace" vs "… Burger Place" is the point of a trap), so text
 * similarity alone never merges them.
 */

export const NEAR_DUP_JACCARD = 0.9;

export function normalizedTokens(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .split(/[^a-z0-9]+/)
      .filter((t) => t.length > 0 && !STOP.has(t)),
  );
}
const STOP = new Set(['a', 'an', 'the', 'please', 'to', 'in', 'on', 'and', 'then', 'of', 'me', 'my', 'for', 'it', 'i']);

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

const slotSignature = (q: Pick<Query, 'app' | 'slots' | 'feasible'>): string =>
  JSON.stringify([q.app, q.feasible ?? true, Object.entries(q.slots).sort(([a], [b]) => a.localeCompare(b))]);
const finalPage = (q: Pick<Query, 'path'>): string => q.path[q.path.length - 1] ?? '';

export function isNearDuplicate(a: Query, b: Query, threshold = NEAR_DUP_JACCARD): boolean {
  if (slotSignature(a) !== slotSignature(b)) return false;
  if (finalPage(a) === finalPage(b)) return true;
  return jaccard(normalizedTokens(a.instruction), normalizedTokens(b.instruction)) >= threshold;
}

export interface DedupResult {
  kept: Query[];
  exact: number;
  near: number;
}

/** Incremental dedup: keeps the first of every exact or near-duplicate group. Buckets by slot signature. */
export class Deduper {
  readonly #ids = new Set<string>();
  readonly #buckets = new Map<string, Query[]>();
  constructor(readonly threshold = NEAR_DUP_JACCARD) {}

  add(q: Query): 'kept' | 'exact' | 'near' {
    if (this.#ids.has(q.id)) return 'exact';
    const key = slotSignature(q);
    const bucket = this.#buckets.get(key) ?? [];
    if (bucket.some((k) => isNearDuplicate(k, q, this.threshold))) return 'near';
    this.#ids.add(q.id);
    bucket.push(q);
    this.#buckets.set(key, bucket);
    return 'kept';
  }
}

/** Keeps the first of every exact or near-duplicate group (input order). */
export function dedupe(queries: readonly Query[], threshold = NEAR_DUP_JACCARD): DedupResult {
  const d = new Deduper(threshold);
  const kept: Query[] = [];
  let exact = 0;
  let near = 0;
  for (const q of queries) {
    const r = d.add(q);
    if (r === 'kept') kept.push(q);
    else if (r === 'exact') exact++;
    else near++;
  }
  return { kept, exact, near };
}
