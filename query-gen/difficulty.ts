import type { SlotSpec } from '../domain/dag.js';

/**
 * Difficulty estimate of a query (an integer ≥ 1):
 *   difficulty = transitions on the path + slots to fill + 2 × trap flags
 * Trap flags (each counts once per slot):
 * - `near_duplicate_value`: another value of the same slot is within edit distance ≤ max(2, 20% of the
 *   length) (e.g. Burger Palace / Burger Place, Sushi Zen / Sushi Zone): a grounding trap.
 * - `shared_value`: the value is allowed under several parent values (`dependsOn`, e.g. Classic Burger on two
 *   burger menus): picking it under the wrong parent looks right.
 * - `infeasible`: the query asks for something the app cannot do (the agent must notice and stop).
 */
export type TrapFlag = 'near_duplicate_value' | 'shared_value' | 'infeasible';

export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[t.length]!;
}

export function trapFlags(slots: Record<string, string>, specs: Record<string, SlotSpec>, feasible = true): { slot: string; flag: TrapFlag }[] {
  const out: { slot: string; flag: TrapFlag }[] = [];
  for (const [key, value] of Object.entries(slots)) {
    const spec = specs[key];
    if (!spec) continue;
    const limit = Math.max(2, Math.floor(value.length * 0.2));
    if (spec.values.some((v) => v !== value && editDistance(v, value) <= limit)) out.push({ slot: key, flag: 'near_duplicate_value' });
    if (spec.dependsOn && Object.values(spec.dependsOn.values).filter((vs) => vs.includes(value)).length > 1) out.push({ slot: key, flag: 'shared_value' });
  }
  if (!feasible) out.push({ slot: '*', flag: 'infeasible' });
  return out;
}

export function estimateDifficulty(pathLength: number, slotCount: number, traps: number): number {
  return Math.max(1, pathLength - 1 + slotCount + 2 * traps);
}
