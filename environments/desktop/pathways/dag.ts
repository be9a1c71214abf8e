import { createHash } from 'node:crypto';
import { AppDag, type DagPage, type DagTransition, type TaskFamily } from '../../../domain/dag.js';
import type { CheckResult } from '../../app-types.js';
import { pathwayKey, type Pathway } from './memory.js';

/**
 * Pathways → query generation: each window or dialog the deep search reached becomes a page of the app's DAG
 * (reached from the start page by its shortest pathway) with a task family "open it", so pathway queries come out
 * of the same query-gen pipeline (sampling, synthesis, refinement, lineage, dedup) as every other query. Their
 * checker is generic: the window's title among the display's real window titles.
 */

/** Task families made from pathways: `pathway_<window>`; checked by `checkPathwayWindow`, whatever the app. */
export const PATHWAY_FAMILY_PREFIX = 'pathway_';
export const PATHWAY_PAGE_PREFIX = 'pw_';

const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40) || 'window';

export interface PathwayDag {
  dag: AppDag;
  /** The DAG page each used pathway leads to. */
  pages: Map<string, Pathway>;
}

/**
 * `base` extended with the pathways' windows: one page, one transition and one task family per distinct window
 * title (its first, i.e. shortest, pathway in breadth-first order). The version records the pathway set, so every
 * query's lineage names it.
 */
export function pathwayDag(base: AppDag, pathways: readonly Pathway[]): PathwayDag {
  const pages: DagPage[] = [];
  const transitions: DagTransition[] = [];
  const tasks: TaskFamily[] = [];
  const byPage = new Map<string, Pathway>();
  const titles = new Set<string>();
  const ids = new Set(base.pages.map((p) => p.id));
  for (const p of pathways) {
    if (p.effect !== 'window' || !p.window || titles.has(p.window)) continue;
    // A title naming an absolute path names the exploring session's own home: no other session shows it.
    if (/(^|[\s*])\/\S+\//.test(p.window)) continue;
    titles.add(p.window);
    let id = `${PATHWAY_PAGE_PREFIX}${slug(p.window)}`;
    for (let n = 2; ids.has(id); n++) id = `${PATHWAY_PAGE_PREFIX}${slug(p.window)}_${n}`;
    ids.add(id);
    const names = p.steps.map((s) => s.name);
    pages.push({
      id,
      description: `the "${p.window}" window, opened by ${names.join(' > ')}`,
      marker: p.window,
      slots: [{ key: 'window', description: 'the window or dialog to open', values: [p.window] }],
      terminal: true,
    });
    transitions.push({ from: base.startPage, to: id, action: `choose ${names.join(' > ')}`, control: names.at(-1)! });
    tasks.push({
      id: `${PATHWAY_FAMILY_PREFIX}${id.slice(PATHWAY_PAGE_PREFIX.length)}`,
      description: `Open the "${p.window}" window through ${names.join(' > ')}.`,
      path: [base.startPage, id],
      templates: [`In ${base.title} choose ${names.join(' > ')} to open the {window} window.`, `Open the {window} window in ${base.title}.`],
    });
    byPage.set(id, p);
  }
  const digest = createHash('sha256')
    .update([...byPage.values()].map((p) => `${pathwayKey(p.steps)}=${p.window}`).join('\n'))
    .digest('hex')
    .slice(0, 8);
  const dag = AppDag.parse({
    ...base,
    version: byPage.size ? `${base.version}+pathways.${digest}` : base.version,
    pages: [...base.pages, ...pages],
    transitions: [...base.transitions, ...transitions],
    tasks: [...base.tasks, ...tasks],
  });
  return { dag, pages: byPage };
}

/** The generic pathway checker: the requested window is open (a title of a visible top-level window). */
export async function checkPathwayWindow(params: Readonly<Record<string, string>>, titles: () => Promise<string[]>): Promise<CheckResult> {
  const want = params.window?.trim();
  if (!want) throw new Error('pathway checker spec lacks params: window');
  const open = (await titles()).map((t) => t.trim());
  return open.includes(want)
    ? { success: true, reason: `a window titled "${want}" is open` }
    : { success: false, reason: `no window titled "${want}" is open (open: ${open.map((t) => `"${t}"`).join(', ') || 'none'})` };
}
