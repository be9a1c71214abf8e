import { mulberry32 } from '../domain/random.js';
import { createHash } from 'node:crypto';
import type { AppDag, SlotSpec, TaskFamily } from '../domain/dag.js';
import { canonicalJson } from '../domain/config.js';
import type { Query } from '../domain/entities.js';

/** Query generation must be reproducible from its seed. */
export const seededRandom = mulberry32;

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** Slot specs along a family's path (metadata extraction: K′, V′), in path order. */
export function slotsAlongPath(dag: AppDag, family: TaskFamily): SlotSpec[] {
  const pages = new Map(dag.pages.map((p) => [p.id, p]));
  const seen = new Set<string>();
  const slots: SlotSpec[] = [];
  for (const id of family.path) {
    for (const slot of pages.get(id)?.slots ?? []) {
      if (seen.has(slot.key)) continue;
      seen.add(slot.key);
      slots.push(slot);
    }
  }
  return slots;
}

/** Slot keys a family's templates actually mention. */
export function templateSlots(family: TaskFamily): Set<string> {
  const keys = new Set<string>();
  for (const t of family.templates) for (const m of t.matchAll(/\{([a-z][a-z0-9_]*)\}/g)) keys.add(m[1]!);
  return keys;
}

export function fillTemplate(template: string, slots: Record<string, string>): string {
  return template.replace(/\{([a-z][a-z0-9_]*)\}/g, (_m, key: string) => {
    const v = slots[key];
    if (v === undefined) throw new Error(`template slot {${key}} has no value`);
    return v;
  });
}

/** Natural key of a task: the same app, DAG version, family and slot values is the same query. */
export function queryId(q: Pick<Query, 'app' | 'dagVersion' | 'family' | 'slots'>): string {
  const h = createHash('sha256').update(canonicalJson([q.app, q.dagVersion, q.family, q.slots])).digest('hex');
  return `q-${q.app}-${h.slice(0, 16)}`;
}

export interface GenerateOptions {
  dags: readonly AppDag[];
  count: number;
  seed: number;
  /** Restrict to these apps (empty: all). */
  apps?: readonly string[];
}

export interface GenerateReport {
  queries: Query[];
  /** Samples drawn, including exact duplicates that were dropped. */
  drawn: number;
  duplicates: number;
}

/**
 * Path sampling + metadata extraction + template instruction synthesis (GUI-Owl §6.2 steps 1–3, template
 * form). Uniform over apps, then over each app's task families, then over slot values (respecting
 * `dependsOn`). The first template is the explicit-navigation form kept as `rawInstruction`; the
 * instruction given to the agent is another template when the family has one (a refinement stand-in
 * until the LLM refiner lands). Exact duplicates (same natural key) are dropped.
 */
export function generateQueries(opts: GenerateOptions): GenerateReport {
  const random = seededRandom(opts.seed);
  const dags = opts.dags.filter((d) => d.tasks.length > 0 && (!opts.apps?.length || opts.apps.includes(d.app)));
  if (dags.length === 0) throw new Error('no app with task families matches the requested apps');
  const byId = new Map<string, Query>();
  let drawn = 0;
  const budget = opts.count * 20;
  while (byId.size < opts.count && drawn < budget) {
    drawn++;
    const dag = pick(dags, random);
    const family = pick(dag.tasks, random);
    const used = templateSlots(family);
    const slots: Record<string, string> = {};
    for (const spec of slotsAlongPath(dag, family)) {
      if (!used.has(spec.key)) continue;
      let values = spec.values;
      if (spec.dependsOn) {
        const parent = slots[spec.dependsOn.slot];
        if (parent !== undefined) values = spec.dependsOn.values[parent] ?? values;
      }
      slots[spec.key] = pick(values, random);
    }
    const rawTemplate = family.templates[0]!;
    const refined = family.templates.length > 1 ? pick(family.templates.slice(1), random) : rawTemplate;
    const base = { app: dag.app, dagVersion: dag.version, family: family.id, slots };
    const id = queryId(base);
    if (byId.has(id)) continue;
    byId.set(id, {
      ...base,
      id,
      instruction: fillTemplate(refined, slots),
      rawInstruction: fillTemplate(rawTemplate, slots),
      path: family.path,
      checker: { app: dag.app, family: family.id, params: slots },
      difficulty: family.path.length + Object.keys(slots).length,
      sampler: 'uniform-template@1',
      seed: opts.seed,
    });
  }
  return { queries: [...byId.values()], drawn, duplicates: drawn - byId.size };
}
