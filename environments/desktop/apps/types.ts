import type { AppDag } from '../../../domain/dag.js';
import type { CheckerSpec } from '../../../domain/entities.js';
import type { CheckResult } from '../../app-types.js';
import { PATHWAY_FAMILY_PREFIX, checkPathwayWindow } from '../pathways/dag.js';

/** What a checker may read: the session's real state (files on disk, window titles, the display's a11y tree). */
export interface DesktopCheckContext {
  /** The session user's home directory (fresh per episode). */
  home: string;
  /** Titles of the visible top-level windows. */
  windowTitles(): Promise<string[]>;
  /** Texts/names in the live accessibility tree (for state an application keeps only in memory). */
  a11yTexts(): Promise<string[]>;
  /** Runs a command on the session's display (e.g. `ssconvert` to read a saved spreadsheet); returns stdout. */
  run(argv: readonly string[]): Promise<string>;
}

/** A task family of a desktop application: its slots and the OSWorld-style checker that reads real state. */
export interface DesktopFamily {
  id: string;
  /** Slot names the checker reads from `CheckerSpec.params`. */
  slots: readonly string[];
  check(params: Readonly<Record<string, string>>, ctx: DesktopCheckContext): Promise<CheckResult>;
}

/**
 * A real Debian desktop application as an environment app: how to launch it, which files and configuration a
 * fresh episode starts from (seeded), and its task families with checkers. Agents never see any of this except
 * what appears on screen.
 */
export interface DesktopApp {
  id: string;
  /** The window title a person sees (for the README and query generation). */
  title: string;
  /** X WM_CLASS of its main window (to wait for it after launch). */
  windowClass: string;
  /** argv launching it for a prepared home. */
  command(home: string): string[];
  /** Writes the episode's user files and app configuration into an empty home (deterministic in `seed`). */
  prepare(home: string, seed: number, run: DesktopCheckContext['run']): Promise<void>;
  families: readonly DesktopFamily[];
  /** Its annotated DAG (windows and dialogs as pages, menu pathways as transitions, task families), for query-gen. */
  dag: AppDag;
}

export async function checkDesktop(app: DesktopApp, spec: CheckerSpec, ctx: DesktopCheckContext): Promise<CheckResult> {
  // Families made by the software-pathway search (environments/desktop/pathways/) share one generic checker.
  if (spec.family.startsWith(PATHWAY_FAMILY_PREFIX)) return checkPathwayWindow(spec.params, () => ctx.windowTitles());
  const family = app.families.find((f) => f.id === spec.family);
  if (!family) throw new Error(`desktop app ${app.id} has no task family "${spec.family}" (has: ${app.families.map((f) => f.id).join(', ')})`);
  const missing = family.slots.filter((s) => spec.params[s] === undefined);
  if (missing.length > 0) throw new Error(`checker spec for ${app.id}/${family.id} lacks params: ${missing.join(', ')}`);
  return family.check(spec.params, ctx);
}
