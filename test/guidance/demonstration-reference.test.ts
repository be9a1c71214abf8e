/**
 * The demonstration library as a reference source of the cycle's guidance stage, through the activities the stage
 * calls (activities/guidance.ts `demonstrateQuery` → `synthesizeQueryGuidance`), on the real app server, Chromium,
 * OCR, Postgres and the reference guidance roles in-process: a hard query's family script is played on a leased
 * session and checker-verified, guidance is synthesised from its screenshots, and the guidance row names the
 * demonstration as its source (lineage); a saved human recording of the instruction wins over the script.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityDeps, GroundTruthSession } from '../../activities/deps.js';
import { createGuidanceActivities } from '../../activities/guidance.js';
import type { Query } from '../../domain/entities.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { loadDags } from '../../environments/app-world.js';
import { createChromiumEnv, type ChromiumEnv } from '../../environments/chromium.js';
import { createDemonstrationLibrary, loadRecordedDemonstrations, saveRecordedDemonstration } from '../../environments/demonstrations/library.js';
import { EnvPool } from '../../environments/pool.js';
import { createOcrEngine } from '../../models/ocr.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { guideDescriberRole } from '../../models/reference/roles/guide-describer.js';
import { guideQcRole } from '../../models/reference/roles/guide-qc.js';
import { guideSynthRole } from '../../models/reference/roles/guide-synth.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { generateQueries } from '../../query-gen/sample.js';
import * as repo from '../../storage/repos.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

let db: TestDatabase;
let appServer: AppServer;
let env: ChromiumEnv;
let pool: EnvPool<GroundTruthSession>;
let ocr: OcrEngine;
let dir: string;
const blobs = new MemoryBlobStore();
const dags = loadDags();
let alarm: Query;
let unscripted: Query;

beforeAll(async () => {
  db = await testDatabase();
  dir = await mkdtemp(join(tmpdir(), 'trajforge-demos-'));
  appServer = await startAppServer({});
  env = await createChromiumEnv({ appServer, blobs });
  pool = new EnvPool<GroundTruthSession>(1, () => env.newSession());
  ocr = await createOcrEngine();
  const qs = generateQueries({ dags, count: 200, seed: 5, apps: ['clock'] }).queries;
  alarm = qs.find((q) => q.family === 'create_alarm' && q.feasible !== false)!;
  unscripted = qs.find((q) => q.family !== 'create_alarm' && !['set_snooze', 'toggle_alarm'].includes(q.family) && q.feasible !== false)!;
  expect(alarm && unscripted).toBeTruthy();
  await repo.upsertCycle(db.pool, { id: 'cycle-1', config: {}, configHash: 'h', modelVersion: 'ref-policy@0.1.0', criticVersion: 'cv1' });
  await repo.upsertQueries(db.pool, 'cycle-1', [alarm, unscripted]);
}, 180_000);

afterAll(async () => {
  await pool?.close();
  await env?.close();
  await appServer?.close();
  await db?.drop();
  await rm(dir, { recursive: true, force: true });
});

const activitiesWith = (library: ReturnType<typeof createDemonstrationLibrary> | undefined) =>
  createGuidanceActivities({
    db: db.pool,
    blobs,
    envPool: pool,
    dags,
    ocr,
    models: {
      guideDescriber: inProcessModel('ref-guide-describer', guideDescriberRole, ocr),
      guideQc: inProcessModel('ref-guide-qc', guideQcRole, ocr),
      guideSynth: inProcessModel('ref-guide-synth', guideSynthRole, ocr),
    },
    ...(library ? { demonstrations: library } : {}),
  } as unknown as ActivityDeps);

describe('demonstration references in the guidance stage', () => {
  it('plays the family script, verifies it, synthesises guidance from it and records the demonstration as its source', async () => {
    const acts = activitiesWith(createDemonstrationLibrary());
    const demo = await acts.demonstrateQuery({ cycleId: 'cycle-1', queryId: alarm.id, config: {} });
    expect(demo).toMatchObject({ id: `cycle-1/${alarm.id}/d0`, source: 'scripted' });
    // Open the app, +, hour, minute, AM/PM, save at least; every step has its screenshots.
    expect(demo!.steps.length).toBeGreaterThanOrEqual(6);
    for (const s of demo!.steps) expect(s.after?.screenshotKey).toBeTruthy();
    const made = await acts.synthesizeQueryGuidance({ cycleId: 'cycle-1', queryId: alarm.id, demonstration: demo! });
    expect(made?.version).toBe(1);
    const rows = await db.pool.query<{ version: number; source: string; reference_id: string; text: string; steps: string[] }>(
      `select version, source, reference_id, text, steps from query_guidance where query_id = $1`,
      [alarm.id],
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ version: 1, source: 'scripted', reference_id: `cycle-1/${alarm.id}/d0` });
    // The guidance is text about the screens (the labels the demonstration touched), e.g. the alarm's minute.
    const minute = alarm.checker.params.minute!;
    expect(rows.rows[0]!.steps.join(' | ')).toContain(`tap ${minute}`);
    // A retried activity (same demonstration) updates the same version, never adds one.
    expect((await acts.synthesizeQueryGuidance({ cycleId: 'cycle-1', queryId: alarm.id, demonstration: demo! }))?.version).toBe(1);
    expect((await db.pool.query(`select 1 from query_guidance where query_id = $1`, [alarm.id])).rowCount).toBe(1);
  }, 180_000);

  it('uses a saved human recording of the instruction before the script; none for a family without either', async () => {
    const scripted = await activitiesWith(createDemonstrationLibrary()).demonstrateQuery({ cycleId: 'cycle-1', queryId: alarm.id, config: {} });
    await saveRecordedDemonstration(dir, { id: 'alarm-by-a-person', app: 'clock', instruction: `  ${alarm.instruction.toUpperCase()} `, steps: scripted!.steps.map((s) => ({ index: s.index, before: s.before, after: s.after!, action: s.action as never })) });
    const library = createDemonstrationLibrary({ recorded: await loadRecordedDemonstrations(dir) });
    const acts = activitiesWith(library);
    const human = await acts.demonstrateQuery({ cycleId: 'cycle-1', queryId: alarm.id, config: {} });
    expect(human).toMatchObject({ id: 'recording:alarm-by-a-person', source: 'human' });
    expect(human!.steps).toHaveLength(scripted!.steps.length);
    expect(await library.kindFor(unscripted)).toBeUndefined();
    expect(await acts.demonstrateQuery({ cycleId: 'cycle-1', queryId: unscripted.id, config: {} })).toBeNull();
    // Without a library (a worker built without one) or on a desktop cycle: no demonstration.
    expect(await activitiesWith(undefined).demonstrateQuery({ cycleId: 'cycle-1', queryId: alarm.id, config: {} })).toBeNull();
    expect(await acts.demonstrateQuery({ cycleId: 'cycle-1', queryId: alarm.id, config: { platform: 'desktop' } })).toBeNull();
  }, 180_000);

  it('refuses a bad recording file and a synthesis request with no reference, naming the field', async () => {
    const bad = await mkdtemp(join(tmpdir(), 'trajforge-demos-bad-'));
    try {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(join(bad, 'x.json'), JSON.stringify({ id: 'x', app: 'clock', instruction: 'Set an alarm', steps: [] }));
      await expect(loadRecordedDemonstrations(bad)).rejects.toThrow(/x\.json: steps: /);
    } finally {
      await rm(bad, { recursive: true, force: true });
    }
    await expect(activitiesWith(undefined).synthesizeQueryGuidance({ cycleId: 'cycle-1', queryId: alarm.id })).rejects.toMatchObject({ type: 'InvalidInput', message: expect.stringMatching(/referenceRolloutId/) });
  });
});
