import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { Query } from '../domain/entities.js';
import { ValidationError } from '../domain/errors.js';
import { loadDags } from '../environments/app-world.js';
import { RecordedDemonstration, loadRecordedDemonstrations, readRecordedDemonstration } from '../environments/demonstrations/library.js';
import { recordDemonstration } from '../environments/demonstrations/record.js';
import { createBlobStore } from '../storage/blob.js';
import type { AppConfig } from './config.js';
import { loadConfig } from './config.js';

/**
 * `trajforge demos record|list|show`: a person's demonstrations for the demonstration library (guidance references
 * for hard queries; environments/demonstrations/). Recordings live in `$TRAJFORGE_HOME/demonstrations/<id>.json`,
 * their screenshots in the line's blob store; workers read the folder at every lookup, so a new recording is used by
 * the next guidance stage without a restart.
 */
export const DEMOS_USAGE = `  trajforge demos record --app APP --instruction "…" [--query-id ID] [--id ID] [--seed N] [--headless] [--debug-port P]
                                 open APP in Chromium (a window when DISPLAY is set), record a person's taps and typing
                                 until Enter in this terminal (or the page is closed); with --query-id the query's
                                 checker verifies the end state (a rejected demonstration is not saved)
  trajforge demos list           the saved recordings (id, app, steps, verified, instruction)
  trajforge demos show ID        one recording's steps`;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

export const demosDir = (config: AppConfig): string => resolve(config.home, 'demonstrations');

/** `demos list` as lines (exported for tests). */
export async function demosListLines(dir: string): Promise<string[]> {
  const recs = await loadRecordedDemonstrations(dir);
  if (recs.length === 0) return [`(no recordings in ${dir})`];
  return [
    `${'id'.padEnd(32)} ${'app'.padEnd(10)} ${'steps'.padStart(5)}  ${'verified'.padEnd(9)}  instruction`,
    ...recs.map((r) => `${r.id.padEnd(32)} ${r.app.padEnd(10)} ${String(r.steps.length).padStart(5)}  ${(r.verified ?? '-').padEnd(9)}  ${r.instruction}`),
  ];
}

/** `demos show ID` as lines (exported for tests); an unknown or bad id is a ValidationError naming it. */
export async function demosShowLines(dir: string, id: string): Promise<string[]> {
  const idOk = RecordedDemonstration.shape.id.safeParse(id);
  if (!idOk.success) throw new ValidationError(idOk.error.issues[0]!.message, 'ID', 'command line');
  const file = join(dir, `${id}.json`);
  let r: RecordedDemonstration;
  try {
    r = await readRecordedDemonstration(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new ValidationError(`no recording "${id}" in ${dir}`, 'ID', 'command line');
    throw err;
  }
  return [
    `recording ${r.id}  (${file})`,
    `  app          ${r.app}`,
    `  instruction  ${r.instruction}`,
    `  query        ${r.queryId ?? '-'}`,
    `  verified     ${r.verified ?? '-'}`,
    `  recorded at  ${r.recordedAt ?? '-'}`,
    `  steps        ${r.steps.length}`,
    ...r.steps.map((s) => `    ${String(s.index).padStart(3)}  ${JSON.stringify(s.action).padEnd(60)} ${s.before.screenshotKey} → ${s.after.screenshotKey}`),
  ];
}

/** Resolves at the first line on stdin (the person pressed Enter) or when stdin ends. */
function enterPressed(): { done: Promise<void>; close: () => void } {
  const rl = createInterface({ input: process.stdin });
  const done = new Promise<void>((r) => {
    rl.once('line', () => r());
    rl.once('close', () => r());
  });
  return { done, close: () => rl.close() };
}

async function record(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      app: { type: 'string' },
      instruction: { type: 'string' },
      'query-id': { type: 'string' },
      id: { type: 'string' },
      seed: { type: 'string', default: '1' },
      headless: { type: 'boolean', default: false },
      'debug-port': { type: 'string' },
    },
  });
  const config = loadConfig();
  let query: Query | undefined;
  if (values['query-id'] !== undefined) {
    const { withDatabase } = await import('./database.js');
    const { getQuery } = await import('../storage/repos.js');
    query = await withDatabase(config, (db) => getQuery(db, values['query-id']!));
    if (!query) throw new ValidationError(`no query "${values['query-id']}" in the database`, '--query-id', 'command line');
  }
  const app = values.app ?? query?.app;
  if (!app) throw new ValidationError('required (or give --query-id)', '--app', 'command line');
  const dag = loadDags().find((d) => d.app === app);
  if (!dag) throw new ValidationError(`"${app}" is not a built-in phone app (${loadDags().map((d) => d.app).join(', ')})`, '--app', 'command line');
  if (query && query.app !== app) throw new ValidationError(`the query is for "${query.app}"`, '--app', 'command line');
  const instruction = values.instruction ?? query?.instruction;
  if (!instruction?.trim()) throw new ValidationError('required (or give --query-id)', '--instruction', 'command line');
  const seed = Number(values.seed);
  if (!Number.isInteger(seed)) throw new ValidationError('an integer', '--seed', 'command line');
  const debugPort = values['debug-port'] !== undefined ? Number(values['debug-port']) : undefined;
  if (debugPort !== undefined && !(Number.isInteger(debugPort) && debugPort > 0 && debugPort < 65536)) throw new ValidationError('a port number', '--debug-port', 'command line');
  if (values.id !== undefined) {
    const ok = RecordedDemonstration.shape.id.safeParse(values.id);
    if (!ok.success) throw new ValidationError(ok.error.issues[0]!.message, '--id', 'command line');
  }

  const headed = !values.headless && !!process.env.DISPLAY;
  const blobs = createBlobStore(config.blob);
  const { startAppServer } = await import('../environments/app-server.js');
  const { createChromiumEnv } = await import('../environments/chromium.js');
  const appServer = await startAppServer({});
  // A person is slower than any watchdog interval and may leave the window idle: no hang detection here.
  const env = await createChromiumEnv({ appServer, blobs, executablePath: config.chromiumPath, headed, hangTimeoutMs: Infinity, ...(debugPort !== undefined ? { debugPort } : {}) });
  const enter = enterPressed();
  try {
    const session = await env.newSession();
    const r = await recordDemonstration({
      session,
      blobs,
      dir: demosDir(config),
      app,
      appTitle: dag.title,
      instruction,
      seed,
      done: enter.done,
      ...(query ? { query } : {}),
      ...(values.id !== undefined ? { id: values.id } : {}),
      onReady: () => {
        out(`${dag.title} is open${headed ? ' in the Chromium window' : ` in a headless browser (no DISPLAY${debugPort !== undefined ? `; DevTools on 127.0.0.1:${debugPort}` : '; set DISPLAY, or use --debug-port and a DevTools screencast'})`}.`);
        out(`Demonstrate: ${instruction}`);
        out('Recording taps, long presses, swipes and typing. Press Enter here when done (or close the page).');
      },
    });
    out(`recorded ${r.recording.steps.length} steps (the first opens ${dag.title})${r.pageClosed ? '; the page was closed' : ''}`);
    if (r.check) out(`checker: ${r.check.success ? 'accepted' : 'rejected'} the end state (${r.check.reason})`);
    if (r.file) out(`saved ${r.recording.id} → ${r.file}`);
    else {
      out(`not saved: ${r.notSaved}`);
      process.exitCode = 1;
    }
    await session.close();
  } finally {
    enter.close();
    await env.close();
    await appServer.close();
  }
}

export async function demosCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'record') return record(rest);
  if (sub === 'list') {
    for (const l of await demosListLines(demosDir(loadConfig()))) out(l);
    return;
  }
  if (sub === 'show') {
    if (!rest[0]) throw new ValidationError('give the recording id', 'ID', 'command line');
    for (const l of await demosShowLines(demosDir(loadConfig()), rest[0])) out(l);
    return;
  }
  out(DEMOS_USAGE);
  if (sub !== undefined && sub !== 'help' && sub !== '--help') process.exitCode = 2;
}
