import type { Query } from '../domain/entities.js';

/**
 * Splits a draw of one family's queries into a frozen held-out EVAL set and a PRODUCTION pool (bench/cold-start.ts).
 *
 * - `slots` (default): held out by slot values — eval takes whole groups of queries that share their slot values
 *   (every phrasing of "freeze Joint Debit"), in draw order, until it has `evalCount` queries; production keeps only
 *   queries whose slot values no eval query has. Needed where a family has few slot values (five cards, five alert
 *   amounts): otherwise production would demonstrate and train on the very task an eval query asks in other words.
 * - `instruction`: held out by instruction only (eval = the first `evalCount` distinct instructions; the earlier
 *   clock runs, where nearly every draw has its own slot values).
 *
 * Instructions are compared case-insensitively, and each appears once. Pure and deterministic in the draw order.
 */
export type HeldOutBy = 'slots' | 'instruction';

export function slotKey(q: Pick<Query, 'slots'>): string {
  return JSON.stringify(
    Object.entries(q.slots)
      .map(([k, v]) => [k, v.trim().toLowerCase()] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

export function splitHeldOut(queries: readonly Query[], evalCount: number, by: HeldOutBy = 'slots'): { evalSet: Query[]; production: Query[] } {
  if (!Number.isInteger(evalCount) || evalCount < 1) throw new Error(`evalCount must be a positive integer, got ${evalCount}`);
  const seen = new Set<string>();
  const distinct = queries.filter((q) => {
    const k = q.instruction.toLowerCase();
    return !seen.has(k) && !!seen.add(k);
  });
  if (by === 'instruction') return { evalSet: distinct.slice(0, evalCount), production: distinct.slice(evalCount) };
  const groups = new Map<string, Query[]>();
  for (const q of distinct) groups.set(slotKey(q), [...(groups.get(slotKey(q)) ?? []), q]);
  const evalKeys = new Set<string>();
  const evalSet: Query[] = [];
  for (const [key, qs] of groups) {
    if (evalSet.length >= evalCount) break;
    evalKeys.add(key);
    evalSet.push(...qs.slice(0, evalCount - evalSet.length));
  }
  return { evalSet, production: distinct.filter((q) => !evalKeys.has(slotKey(q))) };
}
