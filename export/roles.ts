import { createHash } from 'node:crypto';
import type { Rollout } from '../domain/entities.js';

/**
 * Role datasets from `steps.roles` (agents/mobile-agent-v3.ts, swirl.ts, ces.ts store every role call): the role's
 * request exactly as sent (its tag template included) and its raw reply as the assistant target. File name ←
 * stored role name.
 */
export const ROLE_DATASETS: Readonly<Record<string, string>> = {
  manager: 'manager',
  worker: 'worker',
  reflector: 'reflector',
  notetaker: 'notetaker',
  navigator: 'navigator',
  interactor: 'interactor',
  coordinator: 'coordinator',
  stateTracker: 'state-tracker',
};

export type RoleDropReason = 'role_error' | 'step_removed' | 'reflector_rule' | 'reflector_rebalance';

export interface RoleSample {
  /** Dataset (file) name, e.g. `state-tracker`. */
  dataset: string;
  id: string;
  rolloutId: string;
  step: number;
  messages: { role: string; content: string }[];
  imageKeys: string[];
  /** Reflector only: the judgement the sample teaches. */
  outcome?: 'SUCCESS' | 'FAILURE';
}

export interface RoleDrops {
  /** dataset → reason → count */
  [dataset: string]: Partial<Record<RoleDropReason, number>>;
}

const bump = (drops: RoleDrops, dataset: string, reason: RoleDropReason, n = 1): void => {
  const d = (drops[dataset] ??= {});
  d[reason] = (d[reason] ?? 0) + n;
};

const outcomeOf = (parsed: unknown): 'SUCCESS' | 'FAILURE' | undefined => {
  const o = (parsed as { outcome?: unknown } | undefined)?.outcome;
  return o === 'SUCCESS' || o === 'FAILURE' ? o : undefined;
};

/**
 * The role samples of one accepted rollout. Drops (counted per role): calls whose reply failed its schema or the
 * endpoint (`role_error`), calls of steps removed by cleansing or a reviewer (`step_removed`), and Reflector calls
 * outside the paper's balancing rule (`reflector_rule`, GUI-Owl §2.2.3 rule 4): a negative judgement of step i is kept
 * only when step i+1 is then judged positive (the feedback helped); positives are kept only from trajectories the
 * Reflector judged positive throughout.
 */
export function buildRoleSamples(rollout: Rollout, keptSteps: ReadonlySet<number>, drops: RoleDrops): RoleSample[] {
  const out: RoleSample[] = [];
  const reflections = new Map<number, 'SUCCESS' | 'FAILURE' | undefined>();
  for (const step of rollout.steps) {
    for (const call of step.roles ?? []) if (call.role === 'reflector') reflections.set(step.index, outcomeOf(call.parsed));
  }
  const allPositive = reflections.size > 0 && [...reflections.values()].every((o) => o === 'SUCCESS');
  for (const step of rollout.steps) {
    (step.roles ?? []).forEach((call, i) => {
      const dataset = ROLE_DATASETS[call.role];
      if (!dataset) return;
      if (call.error || call.parsed === undefined) return bump(drops, dataset, 'role_error');
      if (!keptSteps.has(step.index)) return bump(drops, dataset, 'step_removed');
      let outcome: 'SUCCESS' | 'FAILURE' | undefined;
      if (call.role === 'reflector') {
        outcome = outcomeOf(call.parsed);
        const helped = outcome === 'FAILURE' && reflections.get(step.index + 1) === 'SUCCESS';
        const clean = outcome === 'SUCCESS' && allPositive;
        if (!helped && !clean) return bump(drops, dataset, 'reflector_rule');
      }
      const imageKeys = call.request.messages.flatMap((m) => m.images);
      out.push({
        dataset,
        id: `${rollout.id}#${step.index}/${call.role}/${i}`,
        rolloutId: rollout.id,
        step: step.index,
        // Images are stored apart from the text parts: placeholders follow the message's text, which is where every
        // role template puts its screenshot(s) except CES's Coordinator (screenshot between two text parts).
        messages: [
          ...call.request.messages.map((m) => ({ role: m.role, content: m.text + '\n<image>'.repeat(m.images.length) })),
          { role: 'assistant', content: call.reply },
        ],
        imageKeys,
        ...(outcome ? { outcome } : {}),
      });
    });
  }
  return out;
}

/**
 * Reflector 1:1 rebalancing: keeps as many positives as negatives, the surplus of the larger class dropped in a
 * seeded hash order (deterministic). Other roles pass through.
 */
export function rebalanceReflector<T extends RoleSample>(samples: T[], seed: number, drops: RoleDrops): T[] {
  const refl = samples.filter((s) => s.dataset === 'reflector');
  const pos = refl.filter((s) => s.outcome === 'SUCCESS');
  const neg = refl.filter((s) => s.outcome === 'FAILURE');
  const n = Math.min(pos.length, neg.length);
  const rank = (s: RoleSample): string => createHash('sha256').update(`${seed}\n${s.id}`).digest('hex');
  const keep = (xs: T[]): T[] => [...xs].sort((a, b) => rank(a).localeCompare(rank(b))).slice(0, n);
  const kept = new Set([...keep(pos), ...keep(neg)]);
  const dropped = refl.length - kept.size;
  if (dropped > 0) bump(drops, 'reflector', 'reflector_rebalance', dropped);
  return samples.filter((s) => s.dataset !== 'reflector' || kept.has(s));
}
