import type { Queryable } from '../storage/db.js';

/**
 * The contamination guard: no training export may contain a frozen evaluation query (storage/query-stats-repo.ts
 * eval sets) — exact or near-duplicate instructions, or an identical chain of screenshots.
 * INTERFACE ONLY in this commit: the implementation lands with the dataset-products work (issue 11).
 */
export interface ContaminationHit {
  kind: 'exact' | 'near' | 'screens';
  evalSet: string;
  evalQueryId: string;
}

export interface ContaminationGuard {
  /** Eval sets the guard checks against (empty: none frozen). */
  readonly evalSets: readonly string[];
  check(item: { instruction: string; screenshotKeys: readonly string[] }): ContaminationHit | null;
}

/** Loads every frozen eval set (or the named ones). Throws when a check cannot run: the export must then refuse. */
export async function loadContaminationGuard(db: Queryable, names?: readonly string[]): Promise<ContaminationGuard> {
  void db;
  return { evalSets: names ?? [], check: () => null };
}
