import type { SlotSpec } from '../domain/dag.js';

/**
 * Infeasible queries (ZeroGUI-style): the same task with one slot value the app does not have — a dish that
 * is not on the chosen restaurant's menu (another restaurant's dish, `dependsOn`), or a name that exists
 * nowhere (a recombination of the words of real values, e.g. "Burger Zen"). The query is `feasible: false`
 * with checker family `infeasible`; the expected behaviour is to terminate with failure or to answer that it
 * cannot be done, without changing app state. The ground truth comes from the rollout (see `infeasibleSuccess`).
 */

export const INFEASIBLE_FAMILY = 'infeasible';

export interface InfeasibleVariant {
  slots: Record<string, string>;
  slot: string;
  value: string;
  reason: 'not_under_parent' | 'nonexistent_value';
}

function allValues(spec: SlotSpec): string[] {
  return [...new Set([...spec.values, ...Object.values(spec.dependsOn?.values ?? {}).flat()])];
}

/** A made-up value: first word(s) of one value with the last word of another, absent from `known`. */
function inventValue(values: readonly string[], known: ReadonlySet<string>, random: () => number): string | undefined {
  const multi = values.filter((v) => v.includes(' '));
  for (let tries = 0; tries < 20 && multi.length > 1; tries++) {
    const a = multi[Math.floor(random() * multi.length)]!.split(' ');
    const b = multi[Math.floor(random() * multi.length)]!.split(' ');
    const candidate = [...a.slice(0, -1), b[b.length - 1]!].join(' ');
    if (!known.has(candidate) && ![...known].some((k) => k.toLowerCase() === candidate.toLowerCase())) return candidate;
  }
  return undefined;
}

export function makeInfeasible(
  slots: Record<string, string>,
  specs: Record<string, SlotSpec>,
  random: () => number,
): InfeasibleVariant | undefined {
  const keys = Object.keys(slots).filter((k) => specs[k] && !/^\d+$/.test(slots[k]!));
  // Prefer a dependent slot (a real value from the wrong parent is the most realistic infeasible ask).
  const dependent = keys.filter((k) => {
    const s = specs[k]!;
    return s.dependsOn && slots[s.dependsOn.slot] !== undefined;
  });
  for (const key of dependent) {
    const spec = specs[key]!;
    const allowed = new Set(spec.dependsOn!.values[slots[spec.dependsOn!.slot]!] ?? []);
    const others = allValues(spec).filter((v) => !allowed.has(v));
    if (others.length) {
      const value = others[Math.floor(random() * others.length)]!;
      return { slots: { ...slots, [key]: value }, slot: key, value, reason: 'not_under_parent' };
    }
  }
  const order = [...keys];
  for (let j = order.length - 1; j > 0; j--) {
    const r = Math.floor(random() * (j + 1));
    [order[j], order[r]] = [order[r]!, order[j]!];
  }
  for (const key of order) {
    const spec = specs[key]!;
    const known = new Set(allValues(spec));
    const value = inventValue([...known], known, random);
    if (value) return { slots: { ...slots, [key]: value }, slot: key, value, reason: 'nonexistent_value' };
  }
  return undefined;
}

/**
 * Ground truth of an infeasible query from the rollout alone: success when the agent answered (said it cannot
 * be done) or terminated with `failure`; `terminate(success)`, running out of steps or an error is a failure.
 */
export function infeasibleSuccess(status: string, outcome: string | undefined): { success: boolean; reason: string } {
  if (status === 'answered') return { success: true, reason: `answered: ${outcome ?? ''}`.trim() };
  if (status === 'terminated' && outcome === 'failure') return { success: true, reason: 'terminated with failure on an infeasible task' };
  return { success: false, reason: `infeasible task ended with ${status}${outcome ? ` (${outcome})` : ''}` };
}
