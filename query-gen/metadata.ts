import type { AppDag, SlotSpec, TaskFamily } from '../domain/dag.js';
import { findPage, pathTransitions, splitRef } from './paths.js';
import { templateSlots } from './sample.js';

/** Metadata extraction (GUI-Owl §6.2 step 2): page descriptions D′ and slot-value pairs K′/V′ along a path. */
export interface PathMetadata {
  app: string;
  appTitle: string;
  /** Titles of every app the path visits (cross-app paths), in order of first visit. */
  apps: { app: string; title: string }[];
  /** D′: one entry per page, qualified `app:page` for other apps. */
  descriptions: { page: string; description: string }[];
  /** K′/V′: the chosen value per slot key, in path order. */
  slots: Record<string, string>;
  /** Slot specs the values were drawn from, by key. */
  specs: Record<string, SlotSpec>;
  /** What the user does between pages, with slot references filled (explicit navigation). */
  steps: { from: string; to: string; action: string; control: string; slot?: string; value?: string }[];
  family?: { id: string; description: string };
  /** The family's natural (non-navigation) templates, filled: few-shot hints for the refiner. */
  hints: string[];
}

/** Slot specs along a (possibly cross-app) path, first definition of each key wins, in path order. */
export function pathSlotSpecs(dags: readonly AppDag[], app: string, pages: readonly string[]): SlotSpec[] {
  const seen = new Set<string>();
  const out: SlotSpec[] = [];
  for (const ref of pages) {
    for (const slot of findPage(dags, app, ref)?.page.slots ?? []) {
      if (seen.has(slot.key)) continue;
      seen.add(slot.key);
      out.push(slot);
    }
  }
  return out;
}

/**
 * Slot keys a path fills: for a family, the keys its templates mention (what its checker needs); for a free
 * walk, keys consumed by the transitions it takes plus slot-setting self-loops on pages it passes through.
 */
export function pathSlotKeys(dags: readonly AppDag[], app: string, pages: readonly string[], family?: TaskFamily): Set<string> {
  if (family) return templateSlots(family);
  const keys = new Set<string>();
  for (const t of pathTransitions(dags, app, pages)) if (t?.slot) keys.add(t.slot);
  pages.slice(0, -1).forEach((ref) => {
    const [a, p] = splitRef(ref, app);
    for (const t of dags.find((d) => d.app === a)?.transitions ?? []) if (t.from === p && t.to === p && t.slot) keys.add(t.slot);
  });
  return keys;
}

/** Orders specs so that every `dependsOn` parent comes before its dependants. */
function dependencyOrder(specs: readonly SlotSpec[]): SlotSpec[] {
  const byKey = new Map(specs.map((s) => [s.key, s]));
  const out: SlotSpec[] = [];
  const done = new Set<string>();
  const visit = (s: SlotSpec, depth: number): void => {
    if (done.has(s.key) || depth > specs.length) return;
    const parent = s.dependsOn ? byKey.get(s.dependsOn.slot) : undefined;
    if (parent) visit(parent, depth + 1);
    done.add(s.key);
    out.push(s);
  };
  for (const s of specs) visit(s, 0);
  return out;
}

/** Values a slot may take given the values chosen so far (`dependsOn`). */
export function allowedValues(spec: SlotSpec, chosen: Record<string, string>): readonly string[] {
  if (!spec.dependsOn) return spec.values;
  const parent = chosen[spec.dependsOn.slot];
  return parent === undefined ? spec.values : (spec.dependsOn.values[parent] ?? spec.values);
}

/** Samples V′ for the keys a path fills, parents first, respecting `dependsOn`. */
export function sampleSlots(specs: readonly SlotSpec[], keys: ReadonlySet<string>, random: () => number): Record<string, string> {
  const chosen: Record<string, string> = {};
  // Parents of used slots are sampled too (so a dependant's values are consistent), then dropped if unused.
  const needed = new Set(keys);
  for (const s of specs) if (keys.has(s.key) && s.dependsOn) needed.add(s.dependsOn.slot);
  for (const spec of dependencyOrder(specs)) {
    if (!needed.has(spec.key)) continue;
    const values = allowedValues(spec, chosen);
    chosen[spec.key] = values[Math.floor(random() * values.length)]!;
  }
  const ordered: Record<string, string> = {};
  for (const s of specs) if (keys.has(s.key) && chosen[s.key] !== undefined) ordered[s.key] = chosen[s.key]!;
  return ordered;
}

const fill = (text: string, slots: Record<string, string>): string => text.replace(/\{([a-z][a-z0-9_]*)\}/g, (m, k: string) => slots[k] ?? m);

/** D′, K′, V′ and the explicit steps of a path, with slot values drawn by `random`. */
export function extractMetadata(
  dags: readonly AppDag[],
  app: string,
  pages: readonly string[],
  random: () => number,
  family?: TaskFamily,
): PathMetadata {
  const dag = dags.find((d) => d.app === app);
  if (!dag) throw new Error(`no DAG for app "${app}"`);
  const specs = pathSlotSpecs(dags, app, pages);
  const slots = sampleSlots(specs, pathSlotKeys(dags, app, pages, family), random);
  return describe(dags, app, pages, slots, family);
}

/** Metadata for given slot values (also used to re-describe an infeasible variant). */
export function describe(dags: readonly AppDag[], app: string, pages: readonly string[], slots: Record<string, string>, family?: TaskFamily): PathMetadata {
  const dag = dags.find((d) => d.app === app);
  if (!dag) throw new Error(`no DAG for app "${app}"`);
  const specs = pathSlotSpecs(dags, app, pages);
  const apps: { app: string; title: string }[] = [];
  const descriptions = pages.map((ref) => {
    const found = findPage(dags, app, ref);
    if (!found) throw new Error(`path page "${ref}" is not in any DAG`);
    if (!apps.some((a) => a.app === found.dag.app)) apps.push({ app: found.dag.app, title: found.dag.title });
    return { page: ref, description: found.page.description };
  });
  const steps: PathMetadata['steps'] = [];
  const transitions = pathTransitions(dags, app, pages, slots);
  pages.forEach((ref, i) => {
    const [a, p] = splitRef(ref, app);
    const pageDag = dags.find((d) => d.app === a);
    // Slot-setting self-loops on pages the path passes through (not the last one), in DAG order.
    if (i < pages.length - 1) {
      for (const t of pageDag?.transitions ?? []) {
        if (t.from === p && t.to === p && t.slot && slots[t.slot] !== undefined) {
          steps.push({ from: ref, to: ref, action: t.action, control: fill(t.control, slots), slot: t.slot, value: slots[t.slot]! });
        }
      }
    }
    if (i === pages.length - 1) return;
    const t = transitions[i];
    const next = pages[i + 1]!;
    if (!t) {
      const title = dags.find((d) => d.app === splitRef(next, app)[0])?.title ?? next;
      steps.push({ from: ref, to: next, action: `open the ${title} app`, control: title });
      return;
    }
    const value = t.slot ? slots[t.slot] : undefined;
    steps.push({ from: ref, to: next, action: t.action, control: fill(t.control, slots), ...(t.slot && value !== undefined ? { slot: t.slot, value } : {}) });
  });
  const hints = family ? family.templates.slice(1).map((tpl) => fill(tpl, slots)).filter((h) => !/\{[a-z]/.test(h)) : [];
  return {
    app,
    appTitle: dag.title,
    apps,
    descriptions,
    slots,
    specs: Object.fromEntries(specs.filter((s) => slots[s.key] !== undefined).map((s) => [s.key, s])),
    steps,
    ...(family ? { family: { id: family.id, description: family.description } } : {}),
    hints,
  };
}
