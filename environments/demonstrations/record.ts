/**
 * A person demonstrating one instruction in the browser, start to finish: the app is opened on a fresh session, the
 * recorder (environments/recorder.ts) turns the person's taps, long presses, swipes and typing into mobile actions
 * with screenshots until they say they are done (or close the page), the end state is checked with the query's
 * checker when a query with a spec was named (the person checking their own work; a rejected demonstration is not
 * saved), and the recording is saved with zod (library.ts `saveRecordedDemonstration`) where the demonstration
 * library finds it. `trajforge demos record` is the command around it (cli/demos.ts).
 */
import type { Page } from 'playwright-core';
import type { Query } from '../../domain/entities.js';
import type { BlobStore } from '../../domain/ports.js';
import type { ChromiumSession } from '../chromium.js';
import { startRecorder } from '../recorder.js';
import { RecordedDemonstration, saveRecordedDemonstration } from './library.js';

export interface RecordDemonstrationOptions {
  session: ChromiumSession;
  /** The line's blob store (the screenshots' keys go into the recording; workers read them from the same store). */
  blobs: BlobStore;
  /** Where recordings live (`$TRAJFORGE_HOME/demonstrations`). */
  dir: string;
  app: string;
  /** The app's launcher label ("Foodie"): the first step opens it, as an agent's first step would. */
  appTitle: string;
  instruction: string;
  /** The query demonstrated: its checker verifies the end state (never stored, never shown to agents). */
  query?: Query;
  /** The recording's id (names the file); default `<app>-<time>`. */
  id?: string;
  /** Seed of the fresh app state. Default 1. */
  seed?: number;
  /** Resolves when the person is done (Enter in the terminal). Closing the page ends the recording too. */
  done: Promise<unknown>;
  /**
   * Called once the app is open and the recorder listens: the CLI says so, a test starts its "person". `pause`
   * resolves once every action so far is a step with its settled screenshot (a scripted person calls it between
   * actions, as a real one is slower than the screenshot).
   */
  onReady?: (page: Page, pause: () => Promise<void>) => void | Promise<void>;
  settleMs?: number;
  now?: () => Date;
}

export interface RecordDemonstrationResult {
  recording: RecordedDemonstration;
  /** The file written; undefined when the checker rejected the end state or nothing was recorded. */
  file?: string;
  /** The checker's verdict when the query has one. */
  check?: { success: boolean; reason: string };
  /** Why nothing was saved (no step, checker rejected). */
  notSaved?: string;
  /** The page was closed before the person pressed Enter (typing not yet followed by a touch is lost then). */
  pageClosed: boolean;
}

export async function recordDemonstration(o: RecordDemonstrationOptions): Promise<RecordDemonstrationResult> {
  if (o.query && o.query.app !== o.app) throw new Error(`app: the query ${o.query.id} is for "${o.query.app}", not "${o.app}"`);
  const now = o.now ?? (() => new Date());
  const id = o.id ?? `${o.app}-${now().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')}`;
  const s = o.session;
  const start = await s.reset({ app: o.app, seed: o.seed ?? 1 });
  // The first step opens the app from the launcher, like an agent's first step.
  const opened = await s.step({ action: 'open', text: o.appTitle });
  const page = s.page;
  const recorder = await startRecorder(page, o.blobs, { ...(o.settleMs !== undefined ? { settleMs: o.settleMs } : {}) });
  let pageClosed = false;
  const closed = new Promise<void>((resolve) => page.once('close', () => {
    pageClosed = true;
    resolve();
  }));
  await o.onReady?.(page, () => recorder.idle());
  await Promise.race([o.done, closed]);
  // A closed page can take no more screenshots: keep the steps recorded so far.
  const taken = pageClosed ? [...recorder.steps] : await recorder.finish().catch(() => [...recorder.steps]);
  const steps = [
    { index: 0, before: start, after: opened.observation, action: { action: 'open' as const, text: o.appTitle } },
    ...taken.map((st, i) => ({ ...st, index: i + 1 })),
  ];
  const check = o.query ? await s.check(o.query.checker) : undefined;
  const recording = RecordedDemonstration.parse({
    id,
    app: o.app,
    instruction: o.instruction,
    steps,
    ...(o.query ? { queryId: o.query.id } : {}),
    verified: check ? 'checker' : 'unchecked',
    recordedAt: now().toISOString(),
  });
  if (taken.length === 0) return { recording, notSaved: 'the person did nothing after the app opened', pageClosed, ...(check ? { check } : {}) };
  if (check && !check.success) return { recording, check, notSaved: `the query's checker rejected the end state: ${check.reason}`, pageClosed };
  const file = await saveRecordedDemonstration(o.dir, recording);
  return { recording, file, pageClosed, ...(check ? { check } : {}) };
}
