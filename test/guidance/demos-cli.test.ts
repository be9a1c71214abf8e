/**
 * `trajforge demos record` through its function (environments/demonstrations/record.ts, called by cli/demos.ts): a
 * Playwright-driven "person" uses the real app page with mouse and keyboard under the recorder; the end state is
 * verified with the query's checker and the recording saved with zod; a demonstration library created BEFORE the
 * recording (a running worker's) then returns it for that instruction, and the guidance-stage activity uses it —
 * no worker restart. A demonstration the checker rejects is not saved; `demos list` / `demos show` read the folder.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demosListLines, demosShowLines } from '../../cli/demos.js';
import type { Query } from '../../domain/entities.js';
import { startAppServer } from '../../environments/app-server.js';
import { loadDags } from '../../environments/app-world.js';
import { createChromiumEnv, type ChromiumEnv } from '../../environments/chromium.js';
import { createDemonstrationLibrary, loadRecordedDemonstrations } from '../../environments/demonstrations/library.js';
import { recordDemonstration } from '../../environments/demonstrations/record.js';
import { generateQueries } from '../../query-gen/sample.js';
import { createLocalBlobStore } from '../../storage/blob-local.js';

let appServer: Awaited<ReturnType<typeof startAppServer>>;
let env: ChromiumEnv;
let tmp: string;
let blobs: ReturnType<typeof createLocalBlobStore>;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'trajforge-demos-cli-'));
  blobs = createLocalBlobStore(join(tmp, 'blobs'));
  appServer = await startAppServer({});
  env = await createChromiumEnv({ appServer, blobs });
}, 120_000);
afterAll(async () => {
  await env?.close();
  await appServer?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

const createNote = (): Query => {
  const q = generateQueries({ dags: loadDags(), count: 60, seed: 3, apps: ['notes'] }).queries.find((x) => x.family === 'create_note' && x.feasible !== false);
  if (!q) throw new Error('no notes/create_note query drawn');
  return q;
};

/** The "person": looks at the page, moves the mouse to what they want and clicks it, types on the keyboard. */
async function clickOn(page: Page, selector: string): Promise<void> {
  const loc = page.locator(selector).first();
  await loc.waitFor();
  const b = (await loc.boundingBox())!;
  await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
}

it('a person records a demonstration through the CLI function; a running library returns it without a restart', async () => {
  const q = createNote();
  const { title, body } = q.checker.params as { title: string; body: string };
  const dir = join(tmp, 'demonstrations');
  // The worker's library exists before the recording (cli/runtime.ts builds it once, with the folder).
  const library = createDemonstrationLibrary({ dir });
  expect(await library.recorded(q)).toBeUndefined();
  expect(await library.kindFor(q)).toBeUndefined(); // no script for notes/create_note either

  const session = await env.newSession();
  let finished!: () => void;
  const done = new Promise<void>((r) => (finished = r));
  try {
    const rec = recordDemonstration({
      session,
      blobs,
      dir,
      app: 'notes',
      appTitle: 'Notes',
      instruction: q.instruction,
      query: q,
      id: 'note-by-a-person',
      seed: 7,
      settleMs: 150,
      done,
      onReady: async (page, pause) => {
        // A person pauses between actions; the recorder's pause (every action so far recorded) stands for that.
        await clickOn(page, 'a.fab');
        await pause();
        await page.locator('#title').waitFor();
        await clickOn(page, '#title');
        await pause();
        await page.keyboard.type(title);
        await pause();
        await clickOn(page, '#body');
        await pause();
        await page.keyboard.type(body);
        await pause();
        await clickOn(page, 'button.primary');
        await pause();
        await page.locator('.view h2').waitFor();
        finished(); // Enter in the terminal
      },
    });
    const r = await rec;
    expect(r.check).toMatchObject({ success: true });
    expect(r.file).toBe(join(dir, 'note-by-a-person.json'));
    expect(r.pageClosed).toBe(false);
    // open, tap New note, tap Title, type, tap Note, type, tap Save note
    expect(r.recording.steps.map((s) => s.action.action)).toEqual(['open', 'click', 'click', 'type', 'click', 'type', 'click']);
    expect(r.recording.steps[0]!.action).toEqual({ action: 'open', text: 'Notes' });
    expect(r.recording.steps.filter((s) => s.action.action === 'type').map((s) => (s.action as { text: string }).text)).toEqual([title, body]);
    expect(r.recording.steps.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const s of r.recording.steps) expect(await blobs.has(s.after.screenshotKey)).toBe(true);
    expect(r.recording).toMatchObject({ queryId: q.id, verified: 'checker', app: 'notes' });
    // Nothing of the checker is stored with the recording.
    expect(JSON.stringify(r.recording)).not.toMatch(/"(checker|family|params|spec)":/);
  } finally {
    await session.close();
  }

  // The same library object, no restart: the new recording is found for this instruction (case/spacing ignored).
  const found = await library.recorded({ ...q, instruction: `  ${q.instruction.toUpperCase()} ` });
  expect(found).toMatchObject({ id: 'recording:note-by-a-person', source: 'human' });
  expect(found!.steps).toHaveLength(7);
  expect(await library.kindFor(q)).toBe('human');
  expect(await library.recorded({ ...q, app: 'mail' })).toBeUndefined();
  expect((await loadRecordedDemonstrations(dir)).map((r) => r.id)).toEqual(['note-by-a-person']);

  expect((await demosListLines(dir)).join('\n')).toMatch(/note-by-a-person\s+notes\s+7\s+checker\s+/);
  const shown = (await demosShowLines(dir, 'note-by-a-person')).join('\n');
  expect(shown).toContain(q.instruction);
  expect(shown).toContain('{"action":"type","text":');
  await expect(demosShowLines(dir, 'nope')).rejects.toThrow(/no recording "nope"/);
}, 240_000);

it('a demonstration the checker rejects is not saved, and says why', async () => {
  const q = createNote();
  const dir = join(tmp, 'rejected');
  const session = await env.newSession();
  try {
    let finished!: () => void;
    const done = new Promise<void>((r) => (finished = r));
    const r = await recordDemonstration({
      session,
      blobs,
      dir,
      app: 'notes',
      appTitle: 'Notes',
      instruction: q.instruction,
      query: q,
      settleMs: 150,
      done,
      onReady: async (page) => {
        // The person opens the form and gives up without saving.
        await clickOn(page, 'a.fab');
        await page.locator('#title').waitFor();
        finished();
      },
    });
    expect(r.check?.success).toBe(false);
    expect(r.file).toBeUndefined();
    expect(r.notSaved).toMatch(/checker rejected the end state/);
    expect(r.recording.steps.map((s) => s.action.action)).toEqual(['open', 'click']);
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
    await expect(recordDemonstration({ session, blobs, dir, app: 'mail', appTitle: 'Mail', instruction: 'x', query: q, done: Promise.resolve() })).rejects.toThrow(/app: the query .* is for "notes"/);
  } finally {
    await session.close();
  }
}, 240_000);
