/**
 * The demonstration library: a reference source of the cycle's guidance stage (config `guidance.referenceSources`
 * containing `demonstration`), besides attempts in another role configuration. A demonstration is a person's
 * trajectory of a query — the person may know the app (its page, the task's slot values); agents and critics never
 * see it, only the guidance text synthesised from its screenshots (describer → QC → synthesiser).
 *
 * Two kinds, looked up in this order:
 * - **recorded** (`human`): a person demonstrated this very instruction in the browser (environments/recorder.ts) and
 *   the recording was saved as `<dir>/<id>.json` (`saveRecordedDemonstration`; the screenshots are keys in the
 *   line's blob store). Matched by app and instruction (case and spacing ignored);
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

/** Reads every `*.json` recording of `dir` (none when the folder does not exist); a bad file is an error naming it and its field. */
export async function loadRecordedDemonstrations(dir: string): Promise<RecordedDemonstration[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return Promise.all(
    names.map(async (n) => {
      const file = join(dir, n);
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new Error(`${file}: not JSON (${(err as Error).message})`);
      }
      const parsed = RecordedDemonstration.safeParse(raw);
      if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
      return parsed.data;
    }),
  );
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
  kindFor(query: Query): 'human' | 'scripted' | undefined;
  /** A recording of this query's instruction in this app, if one was saved. */
  recorded(query: Query): Demonstration | undefined;
  /**
   * Plays the query's family script on `session` (reset with `envSeed`) and returns it if the checker accepts the end
   * state; undefined when no script exists, the query is infeasible, or the demonstration did not achieve the task.
   */
  scripted(query: Query, session: ChromiumSession, opts: { appTitle: string; envSeed: number; id: string }): Promise<Demonstration | undefined>;
}

export function createDemonstrationLibrary(opts: { recorded?: readonly RecordedDemonstration[] } = {}): DemonstrationLibrary {
  const byKey = new Map<string, RecordedDemonstration>();
  for (const r of opts.recorded ?? []) byKey.set(`${r.app}\n${norm(r.instruction)}`, r);
  const recorded = (query: Query): Demonstration | undefined => {
    const r = byKey.get(`${query.app}\n${norm(query.instruction)}`);
    return r ? { id: `recording:${r.id}`, source: 'human', steps: r.steps.map((s) => ({ index: s.index, before: s.before, after: s.after, action: s.action })) } : undefined;
  };
  return {
    kindFor(query) {
      if (recorded(query)) return 'human';
      return DEMOS[`${query.app}/${query.family}`] && query.feasible !== false ? 'scripted' : undefined;
    },
    recorded,
    async scripted(query, session, o) {
      const d = await demonstrate(session, query, o.appTitle, o.envSeed);
      return d?.ok ? { id: o.id, source: 'scripted', steps: d.steps } : undefined;
    },
  };
}
