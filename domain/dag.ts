import { z } from 'zod';

/**
 * An app's annotated DAG G = ⟨P, A⟩ (GUI-Owl §6.2, seeds/DIGEST.md §1.3): pages with a description and the
 * slot-value pairs possible on them, and the valid transitions between pages.
 */
export const SlotSpec = z.object({
  /** Slot name, unique within the page, e.g. `dish`. */
  key: z.string().regex(/^[a-z][a-z0-9_]*$/, 'slot keys are snake_case'),
  /** Human description of what the slot chooses or enters. */
  description: z.string().min(1),
  values: z.array(z.string().min(1)).min(1, 'a slot needs at least one value'),
  /**
   * Values available per value of another slot (e.g. the dishes of each restaurant), so sampled slot
   * combinations are always satisfiable. Keys must be values of `dependsOn.slot`.
   */
  dependsOn: z.object({ slot: z.string(), values: z.record(z.string(), z.array(z.string().min(1)).min(1)) }).optional(),
});
export type SlotSpec = z.infer<typeof SlotSpec>;

export const DagPage = z.object({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/, 'page ids are snake_case'),
  description: z.string().min(1),
  slots: z.array(SlotSpec).default([]),
  /** Text that is visible when this page is shown; interface validation checks it is still there. */
  marker: z.string().min(1),
  /** A page where a task may legitimately end with no way onward (`dag lint` does not call it a dead end). */
  terminal: z.boolean().optional(),
});
export type DagPage = z.infer<typeof DagPage>;

export const DagTransition = z.object({
  from: z.string(),
  to: z.string(),
  /** What the user does, in words, e.g. `tap a restaurant`. */
  action: z.string().min(1),
  /** Visible label of the control that performs it (a slot reference `{dish}` is allowed). */
  control: z.string().min(1),
  /** Slot filled by this transition, if any. */
  slot: z.string().optional(),
});
export type DagTransition = z.infer<typeof DagTransition>;

export const TaskFamily = z.object({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/),
  description: z.string(),
  /**
   * Page path the task walks (start page first). Pages of other apps are qualified `app:page`
   * (cross-app tasks); they are checked against those apps' DAGs by `validateWorld`.
   */
  path: z.array(z.string()).min(1),
  /** Instruction templates with `{slot}` references; the first is the explicit-navigation form. */
  templates: z.array(z.string().min(1)).min(1),
});
export type TaskFamily = z.infer<typeof TaskFamily>;

export const AppDag = z
  .object({
    app: z.string().regex(/^[a-z][a-z0-9_]*$/),
    /** Bumped whenever the DAG changes; every query records it. */
    version: z.string().min(1),
    title: z.string().min(1),
    startPage: z.string(),
    pages: z.array(DagPage).min(1),
    transitions: z.array(DagTransition),
    tasks: z.array(TaskFamily).default([]),
  })
  .superRefine((dag, ctx) => {
    const ids = new Set<string>();
    dag.pages.forEach((p, i) => {
      if (ids.has(p.id)) ctx.addIssue({ code: 'custom', path: ['pages', i, 'id'], message: `duplicate page id ${p.id}` });
      ids.add(p.id);
    });
    if (!ids.has(dag.startPage)) ctx.addIssue({ code: 'custom', path: ['startPage'], message: `unknown page ${dag.startPage}` });
    dag.transitions.forEach((t, i) => {
      if (!ids.has(t.from)) ctx.addIssue({ code: 'custom', path: ['transitions', i, 'from'], message: `unknown page ${t.from}` });
      if (!ids.has(t.to)) ctx.addIssue({ code: 'custom', path: ['transitions', i, 'to'], message: `unknown page ${t.to}` });
    });
    dag.tasks.forEach((task, i) => {
      task.path.forEach((p, j) => {
        if (!p.includes(':') && !ids.has(p)) ctx.addIssue({ code: 'custom', path: ['tasks', i, 'path', j], message: `unknown page ${p}` });
      });
    });
  });
export type AppDag = z.infer<typeof AppDag>;

/** Problems with cross-app references (`app:page` in task paths) across a set of DAGs; empty when valid. */
export function validateWorld(dags: readonly AppDag[]): { app: string; path: string; message: string }[] {
  const pages = new Map(dags.map((d) => [d.app, new Set(d.pages.map((p) => p.id))]));
  const problems: { app: string; path: string; message: string }[] = [];
  for (const dag of dags) {
    dag.tasks.forEach((task, i) => {
      task.path.forEach((ref, j) => {
        if (!ref.includes(':')) return;
        const [app, page] = ref.split(':', 2) as [string, string];
        const known = pages.get(app);
        if (!known) problems.push({ app: dag.app, path: `tasks.${i}.path.${j}`, message: `unknown app "${app}" in "${ref}"` });
        else if (!known.has(page)) problems.push({ app: dag.app, path: `tasks.${i}.path.${j}`, message: `app "${app}" has no page "${page}"` });
      });
    });
  }
  return problems;
}
