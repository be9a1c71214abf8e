import type { Action } from '../domain/action.js';
import type { AppDag, DagTransition } from '../domain/dag.js';
import type { ObservationRef } from '../domain/entities.js';
import type { BlobStore, EnvSession } from '../domain/ports.js';

// environments/ imports only domain: these mirror query-gen/validate.ts's port structurally (the activity and
// the CLI pass a crawler validator where an `InterfaceValidator` is expected).
export type ValidationReason = 'missing_page' | 'missing_control' | 'missing_slot_value' | 'transition_failed';
export interface ValidationResult {
  valid: boolean;
  failedAt?: { page: string; reason: ValidationReason; detail?: string };
}
export interface ValidationTarget {
  app: string;
  path: readonly string[];
  slots: Record<string, string>;
}

function splitRef(ref: string, home: string): [string, string] {
  const i = ref.indexOf(':');
  return i < 0 ? [home, ref] : [ref.slice(0, i), ref.slice(i + 1)];
}
function findPage(dags: readonly AppDag[], home: string, ref: string): { dag: AppDag; page: AppDag['pages'][number] } | undefined {
  const [app, id] = splitRef(ref, home);
  const dag = dags.find((d) => d.app === app);
  const page = dag?.pages.find((p) => p.id === id);
  return dag && page ? { dag, page } : undefined;
}
/** The transition between consecutive pages (undefined where the path switches app), preferring one that sets a query slot. */
function pathTransitions(dags: readonly AppDag[], app: string, pages: readonly string[], slots: Record<string, string>): (DagTransition | undefined)[] {
  return pages.slice(0, -1).map((ref, i) => {
    const [a1, p1] = splitRef(ref, app);
    const [a2, p2] = splitRef(pages[i + 1]!, app);
    if (a1 !== a2) return undefined;
    const edges = dags.find((d) => d.app === a1)?.transitions.filter((t) => t.from === p1 && t.to === p2) ?? [];
    return edges.find((t) => t.slot !== undefined && slots[t.slot] !== undefined) ?? edges.find((t) => !t.slot) ?? edges[0];
  });
}

/**
 * Ground-truth crawler over an environment session's reduced UI tree (`uiTreeKey`: `{viewport, nodes:[{role,
 * name, bounds, value?, placeholder?, obscured?}]}`): interface validation of queries (GUI-Owl §6.2 step 5)
 * and DAG discovery (the desktop "deep-search chains": BFS over actionable elements with path memory and
 * replay). Tooling, not an agent: it reads the UI tree and taps element centres.
 */

export interface UiNode {
  role: string;
  name: string;
  bounds: [number, number, number, number];
  value?: string;
  placeholder?: string;
  obscured?: boolean;
}
export interface UiTree {
  viewport: [number, number];
  nodes: UiNode[];
}

/** Icon glyphs whose accessible name is a word. */
const GLYPH_NAMES: Record<string, string[]> = {
  '+': ['increase', 'add one', 'plus'],
  '−': ['decrease', 'minus'],
  '-': ['decrease', 'minus'],
  '←': ['back'],
  '⋮': ['more options'],
};

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();
const centre = (n: UiNode): [number, number] => [Math.round((n.bounds[0] + n.bounds[2]) / 2), Math.round((n.bounds[1] + n.bounds[3]) / 2)];
const isField = (n: UiNode): boolean => n.role === 'textbox' || n.role === 'searchbox';
const wordIn = (hay: string, needle: string): boolean => new RegExp(`(^|[^a-z0-9])${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^a-z0-9])`).test(hay);

/** How well a node matches a control label: 3 exact, 2 prefix, 1 whole-word contained, 0 none. */
export function labelScore(n: UiNode, label: string): number {
  const l = norm(label);
  const names = [norm(n.name), norm(n.placeholder ?? '')].filter(Boolean);
  let best = 0;
  for (const name of names) {
    if (name === l) best = Math.max(best, 3);
    else if (name.startsWith(l + ' ') || name.startsWith(l + ' ·')) best = Math.max(best, 2);
    else if (l.length > 1 && wordIn(name, l)) best = Math.max(best, 1);
    for (const alias of GLYPH_NAMES[label.trim()] ?? []) if (name.startsWith(alias)) best = Math.max(best, 2);
  }
  return best;
}

export function treeTexts(tree: UiTree): string[] {
  return tree.nodes.flatMap((n) => [n.name, n.placeholder ?? '', n.value ?? '']).filter(Boolean);
}
const hasText = (tree: UiTree, text: string): boolean => treeTexts(tree).some((t) => norm(t).includes(norm(text)));
const treeSignature = (tree: UiTree): string => JSON.stringify(tree.nodes.map((n) => [n.role, n.name, n.value ?? '']));

export interface CrawlerOptions {
  session: EnvSession;
  blobs: BlobStore;
  dags: readonly AppDag[];
  /** Swipes to look for something below (and then above) the fold. Default 6. */
  maxScrolls?: number;
  /** Reset seed (app state such as list order). Default 1. */
  seed?: number;
}

class Driver {
  tree: UiTree = { viewport: [0, 0], nodes: [] };
  actions = 0;
  constructor(
    readonly session: EnvSession,
    readonly blobs: BlobStore,
  ) {}

  async read(obs: ObservationRef, retries = 3): Promise<UiTree> {
    if (!obs.uiTreeKey) {
      // The tree is read after the page settles; a navigation racing it leaves none. Look again.
      if (retries > 0) return this.read((await this.session.step({ action: 'wait', time: 0.2 })).observation, retries - 1);
      throw new Error('the environment does not provide a UI tree (uiTreeKey); the crawler needs one');
    }
    this.tree = JSON.parse(new TextDecoder().decode(await this.blobs.get(obs.uiTreeKey))) as UiTree;
    return this.tree;
  }
  async reset(app: string, seed: number): Promise<UiTree> {
    return this.read(await this.session.reset({ app, seed }));
  }
  async act(action: Action): Promise<UiTree> {
    this.actions++;
    return this.read((await this.session.step(action)).observation);
  }
  async tap(n: UiNode): Promise<UiTree> {
    return this.act({ action: 'click', coordinate: centre(n) });
  }
  /** Content moves up (`down`: see what is below) or down. */
  async scroll(dir: 'down' | 'up'): Promise<UiTree> {
    const [w, h] = this.tree.viewport;
    const x = Math.round(w / 2);
    const [y1, y2] = dir === 'down' ? [Math.round(h * 0.7), Math.round(h * 0.35)] : [Math.round(h * 0.35), Math.round(h * 0.7)];
    return this.act({ action: 'swipe', coordinate: [x, y1], coordinate2: [x, y2] });
  }
  /** Scrolls down, then back up, until `found` returns something (or gives up). */
  async seek<T>(found: (t: UiTree) => T | undefined, maxScrolls: number): Promise<T | undefined> {
    let hit = found(this.tree);
    if (hit !== undefined) return hit;
    for (const dir of ['down', 'up'] as const) {
      let last = treeSignature(this.tree);
      for (let i = 0; i < (dir === 'down' ? maxScrolls : maxScrolls * 2); i++) {
        await this.scroll(dir);
        hit = found(this.tree);
        if (hit !== undefined) return hit;
        const sig = treeSignature(this.tree);
        if (sig === last) break; // the page does not scroll further
        last = sig;
      }
    }
    return undefined;
  }
}

const fill = (text: string, slots: Record<string, string>): string => text.replace(/\{([a-z][a-z0-9_]*)\}/g, (m, k: string) => slots[k] ?? m);

type Failure = { reason: ValidationReason; detail: string };

/**
 * Finds the control of a transition (slot references filled) and operates it: fields are tapped and typed into
 * (Enter when the transition leaves the page); buttons and links are tapped at their centre, numeric self-loop
 * slots (quantities) by tapping `value − 1` times. Candidates naming the transition's slot value win, then ones
 * naming another of the query's values (the `+` of the chosen dish), preferring exact > prefix > word matches
 * and unobscured nodes.
 */
async function operate(d: Driver, t: DagTransition, slots: Record<string, string>, maxScrolls: number): Promise<Failure | undefined> {
  if (/\{[a-z]/.test(t.control) && fill(t.control, slots) === t.control) {
    return { reason: 'missing_slot_value', detail: `control "${t.control}" needs a slot the query does not set` };
  }
  const label = fill(t.control, slots);
  const value = t.slot ? slots[t.slot] : undefined;
  const labelHasValue = value !== undefined && label.includes(value);
  const others = Object.values(slots).filter((v) => v !== value && !/^\d+$/.test(v));
  let sawLabel = false;
  const choose = (tree: UiTree): UiNode | undefined => {
    const scored = tree.nodes.map((n) => ({ n, s: labelScore(n, label) })).filter((x) => x.s > 0);
    if (scored.length) sawLabel = true;
    if (!scored.length) return undefined;
    let pool = scored;
    if (value !== undefined && !labelHasValue && !scored.some((x) => isField(x.n))) {
      const withValue = scored.filter((x) => norm(x.n.name).includes(norm(value)));
      const withContext = scored.filter((x) => others.some((o) => norm(x.n.name).includes(norm(o))));
      pool = withValue.length ? withValue : /^\d+$/.test(value) ? (withContext.length ? withContext : scored) : [];
      if (!pool.length) return undefined;
    }
    pool.sort((a, b) => b.s - a.s || Number(a.n.obscured ?? false) - Number(b.n.obscured ?? false));
    const best = pool[0]!;
    // An obscured best match (under a bottom bar) is worth a scroll; `seek` accepts it after the scrolls.
    return best.n.obscured && pool.some((x) => !x.n.obscured && x.s === best.s) ? pool.find((x) => !x.n.obscured && x.s === best.s)!.n : best.n;
  };
  const node = await d.seek(choose, maxScrolls);
  if (!node) {
    if (labelHasValue || (sawLabel && value !== undefined)) return { reason: 'missing_slot_value', detail: `"${value}" not found for control "${t.control}"` };
    return { reason: 'missing_control', detail: `no element labelled "${label}"` };
  }
  if (isField(node)) {
    await d.tap(node);
    if (value !== undefined) await d.act({ action: 'type', text: value });
    if (t.from !== t.to) await d.act({ action: 'key', text: 'KEYCODE_ENTER' });
    return undefined;
  }
  const times = value !== undefined && /^\d+$/.test(value) && t.from === t.to && !labelHasValue ? Math.max(0, Number(value) - 1) : 1;
  let target: UiNode | undefined = node;
  for (let i = 0; i < times && target; i++) {
    await d.tap(target);
    if (i + 1 < times) target = choose(d.tree);
  }
  return undefined;
}

async function replay(d: Driver, opts: CrawlerOptions, target: ValidationTarget): Promise<ValidationResult> {
  const maxScrolls = opts.maxScrolls ?? 6;
  const fail = (page: string, f: Failure): ValidationResult => ({ valid: false, failedAt: { page, reason: f.reason, detail: f.detail } });
  const pages = target.path.map((ref) => ({ ref, found: findPage(opts.dags, target.app, ref) }));
  const missing = pages.find((p) => !p.found);
  if (missing) return fail(missing.ref, { reason: 'missing_page', detail: 'page is not in the DAG' });
  await d.reset(target.app, opts.seed ?? 1);
  const first = pages[0]!;
  if (!(await d.seek((t) => (hasText(t, first.found!.page.marker) ? true : undefined), 0))) {
    return fail(first.ref, { reason: 'missing_page', detail: `marker "${first.found!.page.marker}" not visible` });
  }
  const transitions = pathTransitions(opts.dags, target.app, target.path, target.slots);
  for (let i = 0; i + 1 < pages.length; i++) {
    const here = pages[i]!;
    const next = pages[i + 1]!;
    const [hereApp, herePage] = splitRef(here.ref, target.app);
    const dag = here.found!.dag;
    // Slot-setting self-loops on this page first (add the dish, type the address…), in DAG order.
    for (const loop of dag.transitions.filter((t) => t.from === herePage && t.to === herePage && t.slot && target.slots[t.slot] !== undefined)) {
      const f = await operate(d, loop, target.slots, maxScrolls);
      if (f) return fail(here.ref, f);
    }
    const before = treeSignature(d.tree);
    const t = transitions[i];
    if (!t) {
      const [nextApp] = splitRef(next.ref, target.app);
      if (nextApp === hereApp) return fail(next.ref, { reason: 'transition_failed', detail: `the DAG has no transition ${here.ref} → ${next.ref}` });
      await d.act({ action: 'open', text: next.found!.dag.title });
    } else {
      const f = await operate(d, t, target.slots, maxScrolls);
      if (f) return fail(here.ref, f);
    }
    const marker = next.found!.page.marker;
    if (!(await d.seek((tree) => (hasText(tree, marker) ? true : undefined), 1))) {
      const reason: ValidationReason = treeSignature(d.tree) === before ? 'transition_failed' : 'missing_page';
      return fail(next.ref, { reason, detail: `marker "${marker}" not visible after ${t ? `"${fill(t.control, target.slots)}"` : 'open'}` });
    }
  }
  return { valid: true };
}

/** Interface validation by replaying a query's path in the live app. Sequential: one session, one replay at a time. */
export function createCrawlerValidator(opts: CrawlerOptions): { validate(target: ValidationTarget): Promise<ValidationResult>; actions(): number } {
  const d = new Driver(opts.session, opts.blobs);
  let chain: Promise<unknown> = Promise.resolve();
  return {
    actions: () => d.actions,
    validate(target) {
      const run = chain.then(() => replay(d, opts, target));
      chain = run.catch(() => undefined);
      return run.catch((e: unknown) => ({
        valid: false,
        failedAt: { page: target.path[0] ?? '', reason: 'transition_failed' as const, detail: e instanceof Error ? e.message : String(e) },
      }));
    },
  };
}

/** Checks that a single transition still works: replays the shortest path from the start page to `from`, then it. */
export async function checkTransition(opts: CrawlerOptions, dag: AppDag, t: DagTransition, slots: Record<string, string>): Promise<ValidationResult> {
  const path = shortestPath(dag, dag.startPage, t.from);
  if (!path) return { valid: false, failedAt: { page: t.from, reason: 'missing_page', detail: 'unreachable from the start page in the DAG' } };
  const d = new Driver(opts.session, opts.blobs);
  const pages = t.from === t.to ? path : [...path, t.to];
  return replay(d, opts, { app: dag.app, path: pages, slots });
}

export function shortestPath(dag: AppDag, from: string, to: string): string[] | undefined {
  const prev = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const p = queue.shift()!;
    if (p === to) {
      const out = [p];
      let c = prev.get(p);
      while (c) {
        out.unshift(c);
        c = prev.get(c);
      }
      return out;
    }
    for (const t of dag.transitions) if (t.from === p && !prev.has(t.to)) {
      prev.set(t.to, p);
      queue.push(t.to);
    }
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------ discovery

export interface DiscoverOptions {
  session: EnvSession;
  blobs: BlobStore;
  /** App id (reset target) and its launcher title (the first control). */
  app: string;
  title: string;
  seed?: number;
  /** Distinct UI states to expand. Default 30. */
  maxStates?: number;
  /** Actions per replayed path. Default 10. */
  maxDepth?: number;
  /** Text typed into fields: search boxes get `search`, other fields `text`. */
  typing?: { search: string; text: string };
  /** Stop after this many environment actions. Default 600. */
  maxActions?: number;
}

export interface DiscoveredPage {
  id: string;
  signature: string;
  title: string;
  texts: string[];
  /** Action path (control labels) that first reached it. */
  via: string[];
}
export interface DiscoveredDag {
  dag: {
    app: string;
    version: string;
    title: string;
    startPage: string;
    pages: { id: string; description: string; marker: string; slots: { key: string; description: string; values: string[] }[] }[];
    transitions: { from: string; to: string; action: string; control: string; slot?: string }[];
    tasks: never[];
  };
  pages: DiscoveredPage[];
  states: number;
  actions: number;
  /** Paths abandoned because a step failed (hung page, environment error). */
  errors: number;
}

interface Control {
  label: string;
  node: UiNode;
  kind: 'tap' | 'type-search' | 'type-text';
  /** Members of a repeated list (cards), recorded as one slot. */
  listValues?: string[];
}

/** Page signature: heading texts (the app bar title), or the first text lines when there is no heading; dialogs first. */
function pageSignature(tree: UiTree): { signature: string; title: string } {
  const dialog = tree.nodes.find((n) => n.role === 'dialog' || n.role === 'alertdialog');
  if (dialog) return { signature: `dialog:${norm(dialog.name)}`, title: dialog.name };
  const heads = tree.nodes.filter((n) => n.role === 'heading').map((n) => n.name);
  if (heads.length) return { signature: `h:${heads.map(norm).join('|')}`, title: heads[0]! };
  const texts = tree.nodes.slice(0, 3).map((n) => n.name);
  return { signature: `t:${texts.map(norm).join('|')}`, title: texts[0] ?? '' };
}

/** Actionable elements, with repeated list items (same role, x and size) folded into one control with values. */
function controlsOf(tree: UiTree, opts: DiscoverOptions): Control[] {
  const actionable = tree.nodes.filter(
    (n) => ['link', 'button', 'menuitem', 'radio', 'checkbox', 'tab', 'searchbox', 'textbox'].includes(n.role) && n.name && !n.obscured,
  );
  const groups = new Map<string, UiNode[]>();
  for (const n of actionable) {
    const k = `${n.role}:${n.bounds[0]}:${n.bounds[2] - n.bounds[0]}:${n.bounds[3] - n.bounds[1]}:${n.name.split(' ')[0]!.length > 12 ? '' : ''}`;
    groups.set(k, [...(groups.get(k) ?? []), n]);
  }
  const out: Control[] = [];
  const inside = (a: UiNode, b: UiNode): boolean => a !== b && a.bounds[0] >= b.bounds[0] && a.bounds[1] >= b.bounds[1] && a.bounds[2] <= b.bounds[2] && a.bounds[3] <= b.bounds[3];
  const title = (n: UiNode): string => tree.nodes.find((x) => x.role === 'text' && inside(x, n))?.name ?? n.name;
  for (const members of groups.values()) {
    const first = members[0]!;
    if (isField(first)) {
      out.push({ label: first.name || first.placeholder || 'field', node: first, kind: first.role === 'searchbox' ? 'type-search' : 'type-text' });
      continue;
    }
    // Cards of a list: ≥3 links of one size whose names differ (not a row of identical "Add" buttons).
    if (members.length >= 3 && first.role === 'link') {
      out.push({ label: title(first), node: first, kind: 'tap', listValues: members.map(title) });
      continue;
    }
    if (members.length >= 3 && new Set(members.map((m) => m.name.split(' ')[0])).size === 1) {
      out.push({ label: first.name, node: first, kind: 'tap' });
      continue;
    }
    for (const m of members) out.push({ label: title(m), node: m, kind: 'tap' });
  }
  void opts;
  return out;
}

const snake = (s: string): string =>
  norm(s)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 'p_$1') || 'page';

/**
 * Discovers a draft DAG by breadth-first search over actionable elements from the launcher: every UI state is
 * reached by replaying its remembered action path from a reset (path memory and replay), each control is tried
 * once per state, repeated list items count once (their labels become slot values), fields are typed into.
 * Pages are identified by their signature (dialog name or heading texts); states of one page that expose
 * different controls (an item added, a field filled) are expanded separately. The result is a draft for a
 * human to edit: descriptions are placeholders, markers are the page titles, no task families.
 */
export async function discoverApp(opts: DiscoverOptions): Promise<DiscoveredDag> {
  const d = new Driver(opts.session, opts.blobs);
  const maxStates = opts.maxStates ?? 30;
  const maxDepth = opts.maxDepth ?? 10;
  const maxActions = opts.maxActions ?? 600;
  const typing = opts.typing ?? { search: 'a', text: '1 Test Street' };
  const pages = new Map<string, DiscoveredPage & { slots: Map<string, string[]> }>();
  const transitions = new Map<string, { from: string; to: string; action: string; control: string; slot?: string }>();
  const states = new Set<string>();
  type Step = { control: Control; label: string };
  const queue: Step[][] = [[]];
  const triedOnPage = new Set<string>();
  let errors = 0;

  const pageOf = (tree: UiTree, via: string[]): string => {
    const { signature, title } = pageSignature(tree);
    let p = [...pages.values()].find((x) => x.signature === signature);
    if (!p) {
      let id = snake(title);
      while ([...pages.values()].some((x) => x.id === id)) id += '_2';
      p = { id, signature, title, texts: treeTexts(tree), via, slots: new Map() };
      pages.set(signature, p);
    } else p.texts = [...new Set([...p.texts, ...treeTexts(tree)])];
    return p.id;
  };
  const stateKey = (tree: UiTree): string =>
    pageSignature(tree).signature + '#' + JSON.stringify(controlsOf(tree, opts).map((c) => [c.label, c.kind]).concat(tree.nodes.filter((n) => n.value || n.role === 'radio').map((n) => [n.name, n.value ?? ''] as [string, string])));

  async function perform(c: Control, tree: UiTree): Promise<boolean> {
    // Re-find the control in the current tree (positions change after replays and scrolls).
    const node = tree.nodes.find((n) => n.role === c.node.role && (n.name === c.node.name || labelScore(n, c.label) >= 2)) ?? c.node;
    await d.tap(node);
    if (c.kind === 'type-search') {
      await d.act({ action: 'type', text: typing.search });
      await d.act({ action: 'key', text: 'KEYCODE_ENTER' });
    } else if (c.kind === 'type-text') await d.act({ action: 'type', text: typing.text });
    return true;
  }

  async function reach(path: Step[]): Promise<UiTree | undefined> {
    let tree = await d.reset(opts.app, opts.seed ?? 1);
    for (const s of path) {
      await perform(s.control, tree);
      tree = d.tree;
    }
    return tree;
  }

  while (queue.length && states.size < maxStates && d.actions < maxActions) {
    const path = queue.shift()!;
    // A hung or failed step (EnvError) costs this path, not the crawl: it is skipped and counted.
    const tree = await reach(path).catch(() => {
      errors++;
      return undefined;
    });
    if (!tree) continue;
    const key = stateKey(tree);
    if (states.has(key)) continue;
    states.add(key);
    const from = pageOf(tree, path.map((s) => s.label));
    if (path.length >= maxDepth) continue;
    let controls = controlsOf(tree, opts);
    if (path.length === 0) {
      // From the launcher only the app's own icon is explored.
      const icon = tree.nodes.find((n) => n.role === 'link' && labelScore(n, opts.title) >= 2);
      controls = icon ? [{ label: opts.title, node: icon, kind: 'tap' }] : [];
    }
    let live = true; // the session is showing this state
    for (const c of controls) {
      if (d.actions >= maxActions) break;
      // A control tried from another state of the same page leads where it led then (bottom bars, back arrows).
      const tried = `${from}|${c.listValues ? '*list*' : c.label}`;
      if (triedOnPage.has(tried)) continue;
      triedOnPage.add(tried);
      try {
        if (!live) {
          const again = await reach(path);
          if (!again || stateKey(again) !== key) continue;
        }
      } catch {
        errors++;
        continue;
      }
      const beforeSig = treeSignature(d.tree);
      live = false;
      try {
        await perform(c, d.tree);
      } catch {
        errors++;
        continue;
      }
      const after = d.tree;
      if (treeSignature(after) === beforeSig) continue; // nothing happened
      const to = pageOf(after, [...path.map((s) => s.label), c.label]);
      const page = [...pages.values()].find((p) => p.id === from)!;
      let control = c.label;
      let slot: string | undefined;
      if (c.listValues) {
        slot = `${snake(page.id)}_item`;
        page.slots.set(slot, [...new Set([...(page.slots.get(slot) ?? []), ...c.listValues])]);
        control = `{${slot}}`;
      } else if (c.kind !== 'tap') {
        slot = snake(c.label);
        page.slots.set(slot, [c.kind === 'type-search' ? typing.search : typing.text]);
      }
      const action = c.kind === 'tap' ? `tap ${c.listValues ? 'an item' : c.label}` : `type into ${c.label}`;
      const tk = `${from}>${to}>${control}`;
      if (!transitions.has(tk)) transitions.set(tk, { from, to, action, control, ...(slot ? { slot } : {}) });
      const afterKey = stateKey(after);
      if (afterKey !== key && !states.has(afterKey)) queue.push([...path, { control: c, label: c.label }]);
      // Backtrack with the system Back button when it restores this state; replay the path otherwise.
      if (to !== from) {
        live = await d
          .act({ action: 'system_button', button: 'Back' })
          .then(() => stateKey(d.tree) === key)
          .catch(() => false);
      }
    }
  }
  const list = [...pages.values()];
  const start = list[0]?.id ?? 'launcher';
  return {
    dag: {
      app: opts.app,
      version: '0.0.1-discovered',
      title: opts.title,
      startPage: start,
      pages: list.map((p) => ({
        id: p.id,
        description: `Discovered page "${p.title}" (reached via ${p.via.join(' → ') || 'reset'}); describe its content and purpose`,
        marker: p.title || p.texts[0] || p.id,
        slots: [...p.slots.entries()].map(([key, values]) => ({ key, description: `values seen for ${key}; describe what it chooses`, values })),
      })),
      transitions: [...transitions.values()],
      tasks: [],
    },
    pages: list.map(({ slots: _s, ...p }) => p),
    states: states.size,
    actions: d.actions,
    errors,
  };
}

/** Page and edge recall of a discovered DAG against a hand-written one: a hand page is found when its marker is
 * among a discovered page's texts; a hand edge (not a self-loop) when some discovered transition joins pages that
 * match its ends. */
export function discoveryRecall(hand: AppDag, found: DiscoveredDag): { pageRecall: number; edgeRecall: number; missedPages: string[]; missedEdges: string[] } {
  const matches = new Map<string, Set<string>>();
  for (const p of hand.pages) {
    matches.set(p.id, new Set(found.pages.filter((fp) => fp.texts.some((t) => norm(t).includes(norm(p.marker)))).map((fp) => fp.id)));
  }
  const missedPages = hand.pages.filter((p) => matches.get(p.id)!.size === 0).map((p) => p.id);
  const edges = [...new Set(hand.transitions.filter((t) => t.from !== t.to).map((t) => `${t.from}>${t.to}`))];
  const missedEdges = edges.filter((e) => {
    const [a, b] = e.split('>') as [string, string];
    return !found.dag.transitions.some((t) => matches.get(a)!.has(t.from) && matches.get(b)!.has(t.to));
  });
  return {
    pageRecall: (hand.pages.length - missedPages.length) / hand.pages.length,
    edgeRecall: edges.length ? (edges.length - missedEdges.length) / edges.length : 1,
    missedPages,
    missedEdges,
  };
}
