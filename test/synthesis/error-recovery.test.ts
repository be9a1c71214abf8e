import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../agents/episode.js';
import type { Query, Rollout } from '../../domain/entities.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv } from '../../environments/chromium.js';
import { formatAssistantTurn } from '../../export/gui-owl-sft.js';
import { createOcrEngine } from '../../models/ocr.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { referenceRoles } from '../../models/reference/roles.js';
import * as repo from '../../storage/repos.js';
import { exportSnapshot } from '../../export/snapshot.js';
import { listErrorRecoverySamples, upsertErrorRecoverySamples } from '../../storage/error-recovery-repo.js';
import { differingPixels, ERROR_RECOVERY_GENERATOR, ESCAPE_ACTION, promptStateAt, restoreState, synthesizeErrorRecovery, type ErrorRecoveryResult } from '../../synthesis/error-recovery.js';
import type { ChatModel } from '../../domain/ports.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

/**
 * Real Chromium, the real reference policy (OCR-grounded) and real app state: a Clock task whose step 1 (the
 * alarm's switch) the policy gets right only part of the time at T = 1 (it sometimes taps another alarm's switch).
 */
let server: AppServer;
let env: ChromiumEnv;
let policy: ChatModel;
let db: TestDatabase;
const blobs = new MemoryBlobStore();
const SEED = 3;
const query = { id: 'q-alarm', app: 'clock', instruction: 'Turn my Work alarm On.' } as Query;
let rollout: Rollout;
let result: ErrorRecoveryResult;

beforeAll(async () => {
  let ocr;
  [server, ocr, db] = await Promise.all([startAppServer(), createOcrEngine(), testDatabase()]);
  env = await createChromiumEnv({ appServer: server, blobs });
  policy = inProcessModel('ref-policy', referenceRoles()['ref-policy']!, ocr);
  const s = await env.newSession();
  const r = await runEpisode({ env: s, policy, blobs, app: query.app, instruction: query.instruction, seed: SEED, maxSteps: 10, historyImages: 2, temperature: 0 });
  await s.close();
  rollout = { id: 'cycle-1/q-alarm/a0', cycleId: 'cycle-1', queryId: query.id, attempt: 0, agentMode: 'gui-owl', actionSpace: 'mobile', model: { name: 'ref-policy', version: '0.1.0' }, status: r.status, steps: r.steps };
}, 180_000);

afterAll(async () => {
  await env?.close();
  await server?.close();
  await db?.drop();
});

describe('error-recovery data by counterfactual execution (InfiGUI-R1 §3.2.3)', () => {
  it('restoring the state before a step replays the stored screenshots exactly (deterministic given the seed)', async () => {
    const s = await env.newSession();
    const restored = await restoreState(s, blobs, rollout, query.app, SEED, 1);
    expect(restored.mismatches).toEqual([]);
    expect(restored.observation.screenshotKey).toBe(rollout.steps[1]!.before.screenshotKey);
    // A stored screen the replay does not reproduce is reported, not hidden.
    const tampered = { ...rollout, steps: rollout.steps.map((x, i) => (i === 0 ? { ...x, after: { ...x.after!, screenshotKey: `sha256/${'f'.repeat(64)}.png` } } : x)) };
    expect((await restoreState(s, blobs, tampered, query.app, SEED, 1)).mismatches).toEqual(['step 0']);
    await s.close();
  }, 60_000);

  it('an error-prone step: a wrong sampled action really executed gives a new error screen and both samples', async () => {
    const s = await env.newSession();
    result = await synthesizeErrorRecovery({ env: s, policy, blobs, rollout, query, step: 1, seed: SEED, samples: 8, temperature: 1, historyImages: 2 });
    await s.close();
    const step = rollout.steps[1]!;
    expect(result.outcome).toBe('built');
    expect(result.pSuccess).toBeGreaterThan(0);
    expect(result.pSuccess).toBeLessThan(1);
    expect(result.samples).toHaveLength(8);
    const cf = result.counterfactual!;
    expect(cf.replayVerified).toBe(true);
    expect(result.samples.find((x) => x.action && JSON.stringify(x.action) === JSON.stringify(cf.wrongAction))?.match).toBe(false);
    // A real, new screen: stored in the blob store, different from every screen of the rollout.
    const err = cf.errorObservation.screenshotKey;
    expect(await blobs.has(err)).toBe(true);
    const rolloutScreens = new Set(rollout.steps.flatMap((x) => [x.before.screenshotKey, ...(x.after ? [x.after.screenshotKey] : [])]));
    expect(rolloutScreens.has(err)).toBe(false);
    expect(await differingPixels(blobs, err, step.before.screenshotKey)).toBeGreaterThan(100);
    expect(await differingPixels(blobs, err, step.after!.screenshotKey)).toBeGreaterThan(100);

    const [escape, back] = result.built;
    const { history } = promptStateAt(rollout, 1);
    // Error-Escape: input = …, error screen; history ⊕ wrong action → target = Back.
    expect(escape!.kind).toBe('error_escape');
    expect(escape!.imageKeys.at(-1)).toBe(err);
    expect(escape!.targetAction).toEqual(ESCAPE_ACTION);
    const escUser = escape!.messages.find((m) => m.role === 'user')!.content;
    expect(escUser).toContain(`Step ${history.length + 1}: ${cf.wrongConclusion}`);
    expect(escUser.split('<image>').length - 1).toBe(escape!.imageKeys.length);
    expect(escape!.messages.at(-1)!.content).toContain('"action":"system_button","button":"Back"');
    // Back-on-Track: input = original screen s; history ⊕ wrong ⊕ escape → target = the step's own action.
    expect(back!.kind).toBe('back_on_track');
    expect(back!.imageKeys).toEqual([err, step.before.screenshotKey]);
    const backUser = back!.messages.find((m) => m.role === 'user')!.content;
    expect(backUser).toContain(`Step ${history.length + 1}: ${cf.wrongConclusion}`);
    expect(backUser).toMatch(new RegExp(`Step ${history.length + 2}: Pressed Back`));
    expect(back!.messages.at(-1)!.content).toBe(formatAssistantTurn(step));
    expect(back!.targetAction).toEqual(step.action);
    expect(back!.messages[0]!.role).toBe('system');
    expect(typeof cf.escapeRestored).toBe('boolean');
  }, 120_000);

  it('a step the policy always gets right is not error-prone: no counterfactual, no samples', async () => {
    const s = await env.newSession();
    const r = await synthesizeErrorRecovery({ env: s, policy, blobs, rollout, query, step: 0, seed: SEED, samples: 4, temperature: 1, historyImages: 2 });
    await s.close();
    expect(r.outcome).toBe('always_right');
    expect(r.pSuccess).toBe(1);
    expect(r.built).toEqual([]);
  }, 60_000);

  it('samples are stored with lineage for the exporter; a re-run upserts instead of duplicating', async () => {
    await repo.upsertCycle(db.pool, { id: 'cycle-1', config: {}, configHash: 'h', modelVersion: 'ref-policy@0.1.0', criticVersion: 'c' });
    await repo.upsertQueries(db.pool, 'cycle-1', [
      { ...query, dagVersion: 'clock@1', family: 'toggle_alarm', rawInstruction: query.instruction, path: ['alarms'], slots: {}, checker: { app: 'clock', family: 'toggle_alarm', params: {} }, difficulty: 2, sampler: 'uniform', seed: 1 },
    ]);
    await repo.upsertRollout(db.pool, rollout, { degraded: false, configHash: 'h' });
    const cf = result.counterfactual!;
    const rows = result.built.map((x) => ({
      rolloutId: rollout.id,
      step: 1,
      kind: x.kind,
      generator: ERROR_RECOVERY_GENERATOR,
      messages: x.messages,
      imageKeys: x.imageKeys,
      tools: x.tools,
      targetAction: x.targetAction,
      wrongAction: cf.wrongAction,
      escapeAction: ESCAPE_ACTION,
      errorScreenshotKey: cf.errorObservation.screenshotKey,
      beforeScreenshotKey: rollout.steps[1]!.before.screenshotKey,
      afterScreenshotKey: rollout.steps[1]!.after?.screenshotKey ?? null,
      seed: SEED,
      replayVerified: cf.replayVerified,
      escapeRestored: cf.escapeRestored,
      pSuccess: result.pSuccess,
      model: rollout.model,
      queryId: query.id,
    }));
    await upsertErrorRecoverySamples(db.pool, rows);
    await upsertErrorRecoverySamples(db.pool, rows);
    const stored = await listErrorRecoverySamples(db.pool, { cycleId: 'cycle-1' });
    expect(stored.map((r) => r.kind)).toEqual(['error_escape', 'back_on_track']);
    expect(stored[0]).toMatchObject({ rolloutId: rollout.id, step: 1, seed: SEED, model: { name: 'ref-policy', version: '0.1.0' }, wrongAction: cf.wrongAction, replayVerified: true });
    expect(stored[1]!.messages).toEqual(result.built[1]!.messages);
  });

  it('a snapshot exports both samples of an accepted rollout in the error_recovery format, images beside them', async () => {
    await repo.upsertTrajectoryVerdicts(db.pool, [{ rolloutId: rollout.id, criticVersion: 'c', channel: 'consensus', correct: true, reason: '', votes: [] }]);
    const snap = await exportSnapshot({ db: db.pool, blobs }, { name: 'recovery', formats: ['error_recovery'] });
    expect(snap?.rows.error_recovery).toBe(2);
    const file = snap!.manifest.files.find((f) => f.path === 'error_recovery/train.jsonl')!;
    const rows = Buffer.from(await blobs.get(file.blobKey)).toString().trim().split('\n').map((l) => JSON.parse(l) as { messages: { content: string }[]; images: string[]; meta: Record<string, unknown> });
    expect(rows.map((r) => r.meta.kind)).toEqual(['error_escape', 'back_on_track']);
    for (const r of rows) {
      expect(r.meta).toMatchObject({ rollout_id: rollout.id, step: 1, acceptance_source: 'critics', seed: SEED });
      expect(r.messages.map((m) => m.content).join('').split('<image>').length - 1).toBe(r.images.length);
      // Portable: relative paths to images copied into the snapshot.
      for (const ref of r.images) expect(snap!.manifest.files.some((f) => f.path === ref)).toBe(true);
    }
  });
});
