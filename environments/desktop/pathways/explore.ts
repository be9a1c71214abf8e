import type { ObservationRef } from '../../../domain/entities.js';
import type { BlobStore, EnvSession } from '../../../domain/ports.js';
import type { InterfaceValidator } from '../../../query-gen/validate.js';
import { A11yTree, type A11yNode } from '../atspi.js';
import { pathwayKey, stepKey, type Pathway, type PathwayMemory, type PathwayStep } from './memory.js';

/**
 * Software-pathway deep search over the accessibility tree (GUI-Owl §6.2, desktop query generation): from an
 * application's start state, click every clickable accessibility node (menus, menu items, buttons, tabs),
 * breadth first and bounded in depth and count, and record each pathway — the nodes clicked and the window or
 * dialog it opened — in a pathway memory, so an explored pathway is never executed again. Generic: it reads only
 * the accessibility tree's roles, names, states and boxes, never an application's id or files.
 */

/**
 * Roles of windows, in the order a new one names a pathway's result (a dialog's own title before a chooser widget
 * inside it).
 */
const WINDOW_ROLES = ['dialog', 'alert', 'frame', 'window', 'file chooser', 'color chooser', 'font chooser'];
/** Roles a person clicks to navigate. */
const CLICK_ROLES = new Set(['menu', 'menu item', 'check menu item', 'radio menu item', 'push button', 'toggle button', 'page tab']);
/**
 * Nodes the search never clicks: they end the session, destroy the user's data or leave the machine (a generic
 * stop-list of words, not of applications).
 */
const STOP = /\b(quit|exit|close|delete|remove|erase|trash|print|log ?out|shut ?down|restart)\b/i;

/** A node's name as a person reads it (menu items carry their shortcut column as trailing spaces). */
export const cleanName = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Titles of the windows in a tree, dialogs first (then in `WINDOW_ROLES` order, then tree order). */
export function windowsOf(tree: A11yTree): string[] {
  const rank = (role: string): number => WINDOW_ROLES.indexOf(role);
  const wins = tree.nodes.filter((n) => rank(n.role) >= 0 && cleanName(n.name));
  return [...new Set(wins.sort((a, b) => rank(a.role) - rank(b.role)).map((n) => cleanName(n.name)))];
}

/** The clickable nodes of a tree, first of each role+name, in tree order. */
export function clickablesOf(tree: A11yTree): { step: PathwayStep; node: A11yNode }[] {
  const seen = new Set<string>();
  const out: { step: PathwayStep; node: A11yNode }[] = [];
  for (const node of tree.nodes) {
    const name = cleanName(node.name);
    if (!CLICK_ROLES.has(node.role) || !name || STOP.test(name) || !node.states.includes('sensitive')) continue;
    const step = { role: node.role, name };
    const k = stepKey(step);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ step, node });
  }
  return out;
}

/** What changed from `before` to `after` when `steps`' last node was clicked. */
export function effectOf(steps: PathwayStep[], before: A11yTree, after: A11yTree): Pathway {
  const had = new Set(windowsOf(before));
  // A window opened only when there are more windows: a title that merely changed (a document marked modified,
  // another tab shown) is the same window.
  const opened = windowsOf(after).length > had.size ? windowsOf(after).filter((w) => !had.has(w)) : [];
  const known = new Set(clickablesOf(before).map((c) => stepKey(c.step)));
  const children = clickablesOf(after)
    .map((c) => c.step)
    .filter((s) => !known.has(stepKey(s)));
  if (opened.length > 0) return { steps, effect: 'window', window: opened[0]!, children };
  return { steps, effect: children.length > 0 ? 'menu' : 'none', children };
}

export interface ExploreOptions {
  session: Pick<EnvSession, 'reset' | 'step'>;
  /** Where the session stores observations (the accessibility tree is read back from `uiTreeKey`). */
  blobs: BlobStore;
  app: string;
  seed?: number;
  memory: PathwayMemory;
  /** Nodes per pathway (1 = the start state's nodes only). Default 2. */
  maxDepth?: number;
  /** Pathways visited (from memory or executed) before the search stops. Default 60. */
  maxPathways?: number;
  log?: (line: string) => void;
  /** Called after each pathway executed and recorded (e.g. to save the memory as the search goes). */
  onRecorded?: () => Promise<void>;
}

export interface ExploreReport {
  app: string;
  /** Pathways visited this search, in breadth-first order. */
  pathways: Pathway[];
  /** Pathways executed in the application this time (the rest came from the memory). */
  executed: number;
  fromMemory: number;
  /** Pathways whose nodes could not be found again when replayed, or whose result could not be read (not recorded). */
  unreplayable: number;
  /** Windows and dialogs reached (titles), each with its shortest pathway. */
  windows: { title: string; steps: PathwayStep[] }[];
  resets: number;
  actions: number;
}

const center = (n: A11yNode): [number, number] => [Math.round((n.bounds[0] + n.bounds[2]) / 2), Math.round((n.bounds[1] + n.bounds[3]) / 2)];

export async function explorePathways(opts: ExploreOptions): Promise<ExploreReport> {
  const maxDepth = opts.maxDepth ?? 2;
  const maxPathways = opts.maxPathways ?? 60;
  const log = opts.log ?? (() => undefined);
  const report: ExploreReport = { app: opts.app, pathways: [], executed: 0, fromMemory: 0, unreplayable: 0, windows: [], resets: 0, actions: 0 };

  const treeOf = async (o: ObservationRef): Promise<A11yTree> => {
    if (!o.uiTreeKey) throw new Error('pathway search needs sessions that store the accessibility tree (uiTreeKey)');
    return A11yTree.parse(JSON.parse(Buffer.from(await opts.blobs.get(o.uiTreeKey)).toString()));
  };
  const signature = (t: A11yTree): string => JSON.stringify([windowsOf(t).sort(), clickablesOf(t).map((c) => stepKey(c.step))]);

  let root: A11yTree | undefined;
  let current: A11yTree | undefined;
  const reset = async (): Promise<A11yTree> => {
    report.resets++;
    current = await treeOf(await opts.session.reset({ app: opts.app, seed: opts.seed ?? 1 }));
    return current;
  };
  const act = async (a: Parameters<EnvSession['step']>[0]): Promise<A11yTree> => {
    report.actions++;
    current = await treeOf((await opts.session.step(a)).observation);
    return current;
  };
  /** Back to the start state: Escape closes menus and dialogs; a reset when that does not get there. */
  const toRoot = async (): Promise<A11yTree> => {
    const want = signature(root!);
    for (let i = 0; i < 3 && current && signature(current) !== want; i++) await act({ action: 'key', keys: ['Escape'] });
    if (!current || signature(current) !== want) await reset();
    return current!;
  };

  /** Executes `steps` from the start state; undefined when a node of the pathway cannot be found again. */
  const execute = async (steps: PathwayStep[]): Promise<Pathway | undefined> => {
    let tree = await toRoot();
    for (let i = 0; i < steps.length; i++) {
      const found = clickablesOf(tree).find((c) => stepKey(c.step) === stepKey(steps[i]!));
      if (!found) return undefined;
      let after = await act({ action: 'click', coordinate: center(found.node) });
      if (i === steps.length - 1) {
        // A window can map after the screen settled (a loaded machine, a slow dialog), and an accessibility dump
        // can come back empty: look once more before calling the click ineffective.
        if (after.nodes.length === 0 || effectOf(steps, tree, after).effect === 'none') after = await act({ action: 'wait', time: 1 });
        if (after.nodes.length === 0) return undefined;
        return effectOf(steps, tree, after);
      }
      tree = after;
    }
    return undefined;
  };

  const needRoot = async (): Promise<A11yTree> => (root ??= await reset());
  const queue: PathwayStep[][] = [];
  let failures = 0;
  const expandedWindows = new Set<string>();
  // The start state's clickable nodes are the first level; with a full memory the start state is never opened.
  let firstLevel = opts.memory.start(opts.app);
  if (!firstLevel) {
    firstLevel = clickablesOf(await needRoot()).map((c) => c.step);
    opts.memory.setStart(opts.app, firstLevel);
  }
  for (const s of firstLevel) queue.push([s]);

  while (queue.length > 0 && report.pathways.length < maxPathways) {
    const steps = queue.shift()!;
    let p = opts.memory.get(opts.app, steps);
    if (p) report.fromMemory++;
    else {
      await needRoot();
      try {
        p = await execute(steps);
        failures = 0;
      } catch (err) {
        // A command that timed out on a starved machine costs this pathway only (the next one starts from a
        // reset); a session that keeps failing ends the search.
        if (++failures >= 3) throw err;
        log(`  ${pathwayKey(steps)}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
        current = undefined;
        p = undefined;
      }
      if (!p) {
        report.unreplayable++;
        log(`  ${pathwayKey(steps)}: a node could not be found again (or the accessibility tree came back empty)`);
        continue;
      }
      report.executed++;
      opts.memory.record(opts.app, p);
      await opts.onRecorded?.();
      log(`  ${pathwayKey(steps)} → ${p.effect}${p.window ? ` "${p.window}"` : ''}${p.children.length ? ` (+${p.children.length} clickable)` : ''}`);
    }
    report.pathways.push(p);
    if (p.effect === 'window' && p.window && !report.windows.some((w) => w.title === p.window)) report.windows.push({ title: p.window, steps: p.steps });
    // A window is expanded once, whichever pathway reached it first (breadth first: the shortest one).
    const expand = p.effect === 'menu' || (p.effect === 'window' && !expandedWindows.has(p.window!));
    if (p.effect === 'window') expandedWindows.add(p.window!);
    if (expand && steps.length < maxDepth) for (const c of p.children) queue.push([...steps, c]);
  }
  return report;
}

/**
 * Interface validation of pathway queries (query-gen's `InterfaceValidator`): replays the pathway that leads to a
 * query's last page from a fresh start state and checks its window opens. Pages no pathway leads to are not this
 * validator's business (valid).
 */
export function createPathwayValidator(opts: {
  session: Pick<EnvSession, 'reset' | 'step'>;
  blobs: BlobStore;
  /** Per app: page id → the pathway leading there (`pathwayDag(...).pages`). */
  pages: ReadonlyMap<string, ReadonlyMap<string, Pathway>>;
  seed?: number;
}): InterfaceValidator {
  const treeOf = async (o: ObservationRef): Promise<A11yTree> => A11yTree.parse(JSON.parse(Buffer.from(await opts.blobs.get(o.uiTreeKey!)).toString()));
  return {
    async validate(target) {
      const page = target.path.at(-1)!;
      const p = opts.pages.get(target.app)?.get(page);
      if (!p) return { valid: true };
      let tree = await treeOf(await opts.session.reset({ app: target.app, seed: opts.seed ?? 1 }));
      for (const s of p.steps) {
        const found = clickablesOf(tree).find((c) => stepKey(c.step) === stepKey(s));
        if (!found) return { valid: false, failedAt: { page, reason: 'missing_control', detail: `${s.role} "${s.name}"` } };
        tree = await treeOf((await opts.session.step({ action: 'click', coordinate: center(found.node) })).observation);
      }
      return windowsOf(tree).includes(p.window!) ? { valid: true } : { valid: false, failedAt: { page, reason: 'missing_page', detail: `no "${p.window}" window` } };
    },
  };
}
