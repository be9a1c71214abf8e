import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { parseOrThrow } from '../../../domain/errors.js';

/**
 * The pathway memory of the software-pathway deep search (GUI-Owl §6.2, desktop query generation): every pathway
 * (a sequence of accessibility nodes clicked from an application's start state) that was explored, with what it
 * led to, so a later search never executes an explored pathway again and query generation can use them.
 */

/** One clicked accessibility node, identified the way a person would find it again: its role and name. */
export const PathwayStep = z.object({ role: z.string().min(1), name: z.string().min(1) });
export type PathwayStep = z.infer<typeof PathwayStep>;

/**
 * What clicking the pathway's last node did: `window` a new window or dialog appeared (its title), `menu` new
 * clickable nodes appeared without a new window (a menu or a popup opened), `none` nothing a person could click next.
 */
export const PathwayEffect = z.enum(['window', 'menu', 'none']);
export type PathwayEffect = z.infer<typeof PathwayEffect>;

export const Pathway = z.object({
  steps: z.array(PathwayStep).min(1),
  effect: PathwayEffect,
  /** Title of the window or dialog the pathway opened (`effect: window`). */
  window: z.string().min(1).optional(),
  /** Clickable nodes that appeared (the next level of the search starts from them). */
  children: z.array(PathwayStep).default([]),
});
export type Pathway = z.infer<typeof Pathway>;

export const PathwayMemoryFile = z.object({
  version: z.literal(1),
  /** Per application id: the clickable nodes of its start state and its explored pathways, in exploration order. */
  apps: z.record(z.string(), z.object({ start: z.array(PathwayStep), pathways: z.array(Pathway) })),
});
export type PathwayMemoryFile = z.infer<typeof PathwayMemoryFile>;

export const stepKey = (s: PathwayStep): string => `${s.role}:${s.name}`;
export const pathwayKey = (steps: readonly PathwayStep[]): string => steps.map(stepKey).join(' > ');

/** The memory in use: lookups by pathway, idempotent records, saved atomically as JSON. */
export class PathwayMemory {
  private readonly byApp = new Map<string, Map<string, Pathway>>();
  private readonly starts = new Map<string, PathwayStep[]>();

  constructor(file?: PathwayMemoryFile) {
    for (const [app, entry] of Object.entries(file?.apps ?? {})) {
      this.setStart(app, entry.start);
      for (const p of entry.pathways) this.record(app, p);
    }
  }

  /** The clickable nodes of the app's start state (the search's first level), if it was opened before. */
  start(app: string): PathwayStep[] | undefined {
    return this.starts.get(app);
  }

  setStart(app: string, steps: PathwayStep[]): void {
    this.starts.set(app, steps);
    if (!this.byApp.has(app)) this.byApp.set(app, new Map());
  }

  get(app: string, steps: readonly PathwayStep[]): Pathway | undefined {
    return this.byApp.get(app)?.get(pathwayKey(steps));
  }

  /** Records an explored pathway; recording the same pathway again replaces it (idempotent). */
  record(app: string, p: Pathway): void {
    let m = this.byApp.get(app);
    if (!m) this.byApp.set(app, (m = new Map()));
    m.set(pathwayKey(p.steps), p);
  }

  pathways(app: string): Pathway[] {
    return [...(this.byApp.get(app)?.values() ?? [])];
  }

  apps(): string[] {
    return [...this.byApp.keys()].sort();
  }

  toJSON(): PathwayMemoryFile {
    return { version: 1, apps: Object.fromEntries(this.apps().map((a) => [a, { start: this.start(a) ?? [], pathways: this.pathways(a) }])) };
  }
}

/** Reads a memory file; a missing file is an empty memory, a malformed one an error naming the field. */
export async function loadPathwayMemory(file: string): Promise<PathwayMemory> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return new PathwayMemory();
  }
  return new PathwayMemory(parseOrThrow(PathwayMemoryFile, JSON.parse(text), file));
}

export async function savePathwayMemory(file: string, memory: PathwayMemory): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(memory.toJSON(), null, 2)}\n`);
  await rename(tmp, file);
}
