import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { A11yNode, A11yTree } from '../../../environments/desktop/atspi.js';
import { getDesktopApp } from '../../../environments/desktop/apps/index.js';
import { checkDesktop } from '../../../environments/desktop/apps/types.js';
import { PATHWAY_FAMILY_PREFIX, pathwayDag } from '../../../environments/desktop/pathways/dag.js';
import { clickablesOf, effectOf, explorePathways, windowsOf } from '../../../environments/desktop/pathways/explore.js';
import { PathwayMemory, loadPathwayMemory, savePathwayMemory, type Pathway } from '../../../environments/desktop/pathways/memory.js';
import { createDesktopEnv } from '../../../environments/desktop/session.js';
import { inProcessModel } from '../../../models/reference/in-process.js';
import { queryRefineRole, querySynthRole } from '../../../models/reference/roles/query.js';
import { generateQueryBatch } from '../../../query-gen/pipeline.js';
import { MemoryBlobStore } from '../memory-blobs.js';

const node = (role: string, name: string, states = ['sensitive']): A11yNode => ({ app: 'x', role, name, bounds: [0, 0, 10, 10], states });
const tree = (...nodes: A11yNode[]): A11yTree => ({ nodes });
const models = { synth: inProcessModel('ref-query-synth', querySynthRole), refine: inProcessModel('ref-query-refine', queryRefineRole) };

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('software-pathway deep search: reading the accessibility tree', () => {
  it('clickable nodes are menus, items and buttons with a name, sensitive, not on the stop-list; names as read', () => {
    const t = tree(
      node('menu', 'File'),
      node('menu item', 'Find and Replace...       '),
      node('push button', 'Quit'),
      node('push button', 'Greyed', []),
      node('label', 'Not clickable'),
      node('menu', 'File'),
    );
    expect(clickablesOf(t).map((c) => `${c.step.role}:${c.step.name}`)).toEqual(['menu:File', 'menu item:Find and Replace...']);
  });

  it('a click opened a window only when there are more windows; a changed title is the same window', () => {
    const before = tree(node('frame', 'notes.txt - Editor'), node('menu', 'Search'));
    const steps = [{ role: 'menu', name: 'Search' }];
    const menu = effectOf(steps, before, tree(node('frame', 'notes.txt - Editor'), node('menu', 'Search'), node('menu item', 'Go to...')));
    expect(menu).toMatchObject({ effect: 'menu', children: [{ role: 'menu item', name: 'Go to...' }] });
    const dialog = effectOf(steps, before, tree(node('frame', 'notes.txt - Editor'), node('dialog', 'Go To'), node('file chooser', 'Chooser'), node('push button', 'Jump')));
    expect(dialog).toMatchObject({ effect: 'window', window: 'Go To' });
    expect(windowsOf(tree(node('file chooser', 'Chooser'), node('frame', 'F'), node('dialog', 'D')))).toEqual(['D', 'F', 'Chooser']);
    expect(effectOf(steps, before, tree(node('frame', '*notes.txt - Editor'), node('menu', 'Search'))).effect).toBe('none');
  });
});

describe('pathway memory and pathway queries', () => {
  const pathways: Pathway[] = [
    { steps: [{ role: 'menu', name: 'Search' }], effect: 'menu', children: [{ role: 'menu item', name: 'Go to...' }] },
    { steps: [{ role: 'menu', name: 'Search' }, { role: 'menu item', name: 'Go to...' }], effect: 'window', window: 'Go To', children: [] },
    { steps: [{ role: 'push button', name: 'Jump' }], effect: 'window', window: 'Go To', children: [] },
    { steps: [{ role: 'push button', name: 'Copy' }], effect: 'window', window: '*/tmp/s1/home/notes.txt - Editor', children: [] },
  ];

  it('records idempotently, saves and loads; a malformed file is an error naming the field', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tf-pathways-'));
    dirs.push(dir);
    const m = new PathwayMemory();
    m.setStart('text_editor', [{ role: 'menu', name: 'Search' }]);
    for (const p of [...pathways, pathways[0]!]) m.record('text_editor', p);
    expect(m.pathways('text_editor')).toHaveLength(4);
    const file = path.join(dir, 'mem.json');
    await savePathwayMemory(file, m);
    const back = await loadPathwayMemory(file);
    expect(back.toJSON()).toEqual(m.toJSON());
    expect(back.get('text_editor', pathways[1]!.steps)?.window).toBe('Go To');
    expect((await loadPathwayMemory(path.join(dir, 'none.json'))).apps()).toEqual([]);
    await savePathwayMemory(file, m);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, JSON.stringify({ version: 1, apps: { text_editor: { start: [], pathways: [{ steps: [], effect: 'window' }] } } }));
    await expect(loadPathwayMemory(file)).rejects.toThrow(/steps/);
  });

  it('each window becomes a page, an edge and a family of the DAG; the same pipeline makes queries with lineage; the generic checker reads window titles', async () => {
    const base = getDesktopApp('text_editor')!.dag;
    const { dag, pages } = pathwayDag(base, pathways);
    // One page per distinct window, by its shortest (first) pathway; none for a title naming the session's own files.
    expect(pages.size).toBe(1);
    expect(dag.version).toMatch(new RegExp(`^${base.version.replace(/\./g, '\\.')}\\+pathways\\.[0-9a-f]{8}$`));
    const fam = dag.tasks.find((t) => t.id.startsWith(PATHWAY_FAMILY_PREFIX))!;
    expect(fam.path).toEqual([base.startPage, 'pw_go_to']);
    expect(dag.transitions.some((t) => t.from === base.startPage && t.to === 'pw_go_to' && t.action === 'choose Search > Go to...')).toBe(true);

    const { queries, report } = await generateQueryBatch({ dags: [dag], count: 12, seed: 3, sampler: 'families', models });
    const pq = queries.filter((q) => q.family === fam.id);
    expect(pq.length).toBe(1); // dedup: one window, one query
    expect(pq[0]!.lineage?.dagVersion).toBe(dag.version);
    expect(pq[0]!.checker).toEqual({ app: 'text_editor', family: fam.id, params: { window: 'Go To' } });
    expect(report.coverage.text_editor!.families).toMatch(/^\d+\/4$/);

    const ctx = (titles: string[]) => ({ home: '/nonexistent', windowTitles: async () => titles, a11yTexts: async () => [], run: async () => '' });
    const app = getDesktopApp('text_editor')!;
    expect(await checkDesktop(app, pq[0]!.checker, ctx(['notes.txt - Mousepad', 'Go To']))).toMatchObject({ success: true });
    expect(await checkDesktop(app, pq[0]!.checker, ctx(['notes.txt - Mousepad']))).toMatchObject({ success: false });
  });
});

describe('software-pathway deep search on a real application (bounded)', () => {
  it('explores the editor breadth first from its start state, and a second search executes nothing it remembers', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tf-pathways-'));
    dirs.push(dir);
    const blobs = new MemoryBlobStore();
    const env = createDesktopEnv({ blobs, stateDir: dir });
    const memory = new PathwayMemory();
    try {
      const session = await env.newSession();
      const first = await explorePathways({ session, blobs, app: 'text_editor', memory, maxDepth: 2, maxPathways: 7 });
      expect(first.pathways).toHaveLength(7);
      expect(first.executed + first.unreplayable).toBeGreaterThanOrEqual(7);
      // The start state's menus open: new clickable items appear under them (the next level of the search).
      const menus = first.pathways.filter((p) => p.steps.length === 1 && p.effect === 'menu');
      expect(menus.length).toBeGreaterThanOrEqual(3);
      expect(menus.every((p) => p.children.length > 0)).toBe(true);
      // Breadth first: a second-level pathway goes through a menu found on the first level.
      const deep = first.pathways.filter((p) => p.steps.length === 2);
      expect(deep.length).toBeGreaterThanOrEqual(1);
      expect(menus.some((m) => m.steps[0]!.name === deep[0]!.steps[0]!.name)).toBe(true);

      const again = await explorePathways({ session, blobs, app: 'text_editor', memory, maxDepth: 2, maxPathways: 7 });
      expect(again).toMatchObject({ executed: 0, resets: 0, actions: 0, fromMemory: 7 });
      expect(again.pathways).toEqual(first.pathways);
    } finally {
      await env.close();
    }
  });
});
