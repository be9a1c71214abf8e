/**
 * The demonstration library: a reference source of the cycle's guidance stage (config `guidance.referenceSources`
 * containing `demonstration`), besides attempts in another role configuration. A demonstration is a person's
 * trajectory of a query — the person may know the app (its page, the task's slot values); agents and critics never
 * see it, only the guidance text synthesised from its screenshots (describer → QC → synthesiser).
 *
 * Two kinds, looked up in this order:
 * - **recorded** (`human`): a person demonstrated this very instruction in the browser (environments/recorder.ts) and
 *   the recording was saved as `<dir>/<id>.json` (`saveRecordedDemonstration`, `trajforge demos record`; the
 *   screenshots are keys in the line's blob store). Matched by app and instruction (case and spacing ignored). With
 *   `dir`, the folder is read again at every lookup (a recording saved while the worker runs is found at once);
 * - **scripted** (`scripted`): a script per `app/family` (scripted.ts) that reads the query's slot values, so it
 *   demonstrates any query of its family; played on a fresh browser session and verified by the checker, as the
 *   demonstrating person would check their own work.
 */
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { MobileAction } from '../../domain/action.js';
import { ObservationRef, type Query } from '../../domain/entities.js';
import type { ReferenceStep } from '../../synthesis/guidance.js';
import type { ChromiumSession } from '../chromium.js';
import { DEMOS, demonstrate } from './scripted.js';

export const RecordedDemonstration = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, . _ - (it names the file)'),
    app: z.string().min(1),
    instruction: z.string().min(1),
    steps: z.array(z.object({ index: z.number().int().min(0), before: ObservationRef, after: ObservationRef, action: MobileAction }).strict()).min(1),
    /** The query the person demonstrated (`--query-id`), when there was one: lineage only. */
    queryId: z.string().min(1).optional(),
    /**
     * Whether the end state was checked: `checker` (the query's checker accepted it; recordings a checker rejects
     * are not saved) or `unchecked` (no query with a spec was named). The checker itself is never stored here.
     */
    verified: z.enum(['checker', 'unchecked']).optional(),
    /** ISO time the recording finished. */
    recordedAt: z.string().datetime().optional(),
  })
  .strict();
export type RecordedDemonstration = z.infer<typeof RecordedDemonstration>;

/** A demonstration ready for guidance synthesis; `id` is its lineage (`query_guidance.reference_id`). */
export interface Demonstration {
  id: string;
  source: 'scripted' | 'human';
  steps: ReferenceStep[];
}

const norm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** Reads one saved recording; a missing file is the fs error (ENOENT), a bad one an error naming the file and its field. */
export async function readRecordedDemonstration(file: string): Promise<RecordedDemonstration> {
  const text = await readFile(file, 'utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`);
  }
  const parsed = RecordedDemonstration.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** Reads every `*.json` recording of `dir` (none when the folder does not exist); a bad file is an error naming it and its field. */
export async function loadRecordedDemonstrations(dir: string): Promise<RecordedDemonstration[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return Promise.all(names.map((n) => readRecordedDemonstration(join(dir, n))));
}

/** Saves a recording as `<dir>/<id>.json` (validated; written whole through a rename, so saving again is idempotent). */
export async function saveRecordedDemonstration(dir: string, rec: RecordedDemonstration): Promise<string> {
  const parsed = RecordedDemonstration.parse(rec);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${parsed.id}.json`);
  await writeFile(`${file}.tmp`, JSON.stringify(parsed, null, 2));
  await rename(`${file}.tmp`, file);
  return file;
}

export interface DemonstrationLibrary {
  /** What the library would use for this query: a recording of its instruction, its family's script, or nothing. */
  kindFor(query: Query): Promise<'human' | 'scripted' | undefined>;
  /** Whether the query's family has a scripted demonstration (no recording is read). */
  hasScript(query: Query): boolean;
  /** A recording of this query's instruction in this app, if one was saved (with `dir`: as the folder is now). */
  recorded(query: Query): Promise<Demonstration | undefined>;
  /**
   * Plays the query's family script on `session` (reset with `envSeed`) and returns it if the checker accepts the end
   * state; undefined when no script exists, the query is infeasible, or the demonstration did not achieve the task.
   */
  scripted(query: Query, session: ChromiumSession, opts: { appTitle: string; envSeed: number; id: string }): Promise<Demonstration | undefined>;
}

/**
 * `recorded`: recordings known up front (tests); `dir`: a folder of saved recordings, read again at every lookup so a
 * person's recording saved while a worker runs (`trajforge demos record`) is used without a restart. A recording in
 * `dir` wins over one with the same app and instruction in `recorded`.
 */
export function createDemonstrationLibrary(opts: { recorded?: readonly RecordedDemonstration[]; dir?: string } = {}): DemonstrationLibrary {
  const key = (app: string, instruction: string): string => `${app}\n${norm(instruction)}`;
  const fixed = new Map<string, RecordedDemonstration>();
  for (const r of opts.recorded ?? []) fixed.set(key(r.app, r.instruction), r);
  const recorded = async (query: Query): Promise<Demonstration | undefined> => {
    const k = key(query.app, query.instruction);
    // The newest saved recording of this instruction (files are read in name order; the last one recorded wins).
    const saved = opts.dir ? (await loadRecordedDemonstrations(opts.dir)).filter((r) => key(r.app, r.instruction) === k) : [];
    const r = saved.sort((a, b) => (a.recordedAt ?? '').localeCompare(b.recordedAt ?? '')).at(-1) ?? fixed.get(k);
    return r ? { id: `recording:${r.id}`, source: 'human', steps: r.steps.map((s) => ({ index: s.index, before: s.before, after: s.after, action: s.action })) } : undefined;
  };
  const hasScript = (query: Query): boolean => !!DEMOS[`${query.app}/${query.family}`] && query.feasible !== false;
  return {
    async kindFor(query) {
      if (await recorded(query)) return 'human';
      return hasScript(query) ? 'scripted' : undefined;
    },
    hasScript,
    recorded,
    async scripted(query, session, o) {
      const d = await demonstrate(session, query, o.appTitle, o.envSeed);
      return d?.ok ? { id: o.id, source: 'scripted', steps: d.steps } : undefined;
    },
  };
}
