import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AppDag } from '../domain/dag.js';
import { ValidationError } from '../domain/errors.js';
import type { BlobStore } from '../domain/ports.js';
import { DESKTOP_APPS, getDesktopApp, loadDesktopDags } from '../environments/desktop/apps/index.js';
import type { DesktopSession } from '../environments/desktop/session.js';
import { pathwayDag } from '../environments/desktop/pathways/dag.js';
import { explorePathways } from '../environments/desktop/pathways/explore.js';
import { loadPathwayMemory, savePathwayMemory, type Pathway, type PathwayMemory } from '../environments/desktop/pathways/memory.js';
import { createLocalBlobStore } from '../storage/blob-local.js';

/** `trajforge pathways explore|show`: the software-pathway deep search over desktop apps' accessibility trees. */

export const PATHWAYS_USAGE = `  trajforge pathways explore APP… [--depth 2] [--max 60] [--memory FILE] [--seed 1]
                                 software-pathway deep search over a desktop app's accessibility tree; explored
                                 pathways are kept in the pathway memory (default $TRAJFORGE_HOME/desktop-pathways.json)
  trajforge pathways show [--memory FILE]   the pathways in the memory, per app`;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

export async function defaultPathwayMemoryFile(): Promise<string> {
  const { loadConfig } = await import('./config.js');
  return path.join(loadConfig().home, 'desktop-pathways.json');
}

/** Runs `fn` with one desktop session (its own Xvfb display) whose observations land in a scratch blob store. */
export async function withDesktopSession<T>(fn: (ctx: { session: DesktopSession; blobs: BlobStore }) => Promise<T>): Promise<T> {
  const { createDesktopEnv } = await import('../environments/desktop/session.js');
  const dir = await mkdtemp(path.join(tmpdir(), 'tf-pathways-'));
  const blobs = createLocalBlobStore(path.join(dir, 'blobs'));
  const env = createDesktopEnv({ blobs, stateDir: path.join(dir, 'desktop') });
  try {
    return await fn({ session: await env.newSession(), blobs });
  } finally {
    await env.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The desktop DAGs extended with the memory's pathways (query generation input), and the pages pathways lead to. */
export function desktopDagsWithPathways(memory: PathwayMemory | undefined): { dags: AppDag[]; pages: Map<string, Map<string, Pathway>> } {
  const pages = new Map<string, Map<string, Pathway>>();
  const dags = loadDesktopDags().map((base) => {
    if (!memory) return base;
    const r = pathwayDag(base, memory.pathways(base.app));
    pages.set(base.app, r.pages);
    return r.dag;
  });
  return { dags, pages };
}

async function explore(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { depth: { type: 'string', default: '2' }, max: { type: 'string', default: '60' }, memory: { type: 'string' }, seed: { type: 'string', default: '1' } },
  });
  if (positionals.length === 0) throw new ValidationError(`usage:\n${PATHWAYS_USAGE}`, undefined, 'command line');
  for (const a of positionals) if (!getDesktopApp(a)) throw new ValidationError(`unknown desktop app "${a}" (one of ${DESKTOP_APPS.map((d) => d.id).join(', ')})`, undefined, 'APP');
  const depth = Number(values.depth);
  const max = Number(values.max);
  if (!(Number.isInteger(depth) && depth >= 1)) throw new ValidationError(`--depth must be an integer ≥ 1, got "${values.depth}"`, undefined, '--depth');
  if (!(Number.isInteger(max) && max >= 1)) throw new ValidationError(`--max must be an integer ≥ 1, got "${values.max}"`, undefined, '--max');
  const file = values.memory ?? (await defaultPathwayMemoryFile());
  const memory = await loadPathwayMemory(file);
  await withDesktopSession(async ({ session, blobs }) => {
    for (const app of positionals) {
      const t0 = performance.now();
      out(`${app}: deep search, depth ≤ ${depth}, ≤ ${max} pathways`);
      const r = await explorePathways({ session, blobs, app, memory, maxDepth: depth, maxPathways: max, seed: Number(values.seed), log: out, onRecorded: () => savePathwayMemory(file, memory) });
      // Saved after every app: an interrupted search keeps what it explored.
      await savePathwayMemory(file, memory);
      out(
        `${app}: ${r.pathways.length} pathways (${r.executed} executed, ${r.fromMemory} from memory, ${r.unreplayable} not replayable), ` +
          `${r.windows.length} windows/dialogs reached, ${r.actions} actions, ${r.resets} resets, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      for (const w of r.windows) out(`  "${w.title}" ← ${w.steps.map((s) => s.name).join(' > ')}`);
    }
  });
  out(`pathway memory: ${file}`);
}

async function show(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { memory: { type: 'string' } } });
  const file = values.memory ?? (await defaultPathwayMemoryFile());
  const memory = await loadPathwayMemory(file);
  for (const app of memory.apps()) {
    const ps = memory.pathways(app);
    out(`${app}: ${ps.length} pathways, ${new Set(ps.flatMap((p) => (p.window ? [p.window] : []))).size} windows/dialogs`);
    for (const p of ps) out(`  ${p.steps.map((s) => s.name).join(' > ')} → ${p.effect}${p.window ? ` "${p.window}"` : ''}`);
  }
}

export async function pathwaysCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'explore') return explore(rest);
  if (sub === 'show') return show(rest);
  throw new ValidationError(`usage:\n${PATHWAYS_USAGE}`, undefined, 'command line');
}
