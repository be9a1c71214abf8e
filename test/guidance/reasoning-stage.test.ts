/**
 * The reasoning-data stage on one accepted rollout (synthesis/reasoning-stage.ts), on real screenshots (Chromium)
 * read by the real OCR engine, the reasoner and policy answering in-process exactly as the reference server does:
 * every filter decision comes back with its reason, kept traces carry their lineage and the executed action.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Action } from '../../domain/action.js';
import type { Step } from '../../domain/entities.js';
import { createOcrEngine } from '../../models/ocr.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { policyRole } from '../../models/reference/roles/policy.js';
import { distillerRole, reasonerRole } from '../../models/reference/roles/reasoning.js';
import { createSynthesisActivities } from '../../activities/synthesis.js';
import type { ActivityDeps } from '../../activities/deps.js';
import { Rollout } from '../../domain/entities.js';
import { exportSnapshot } from '../../export/snapshot.js';
import * as repo from '../../storage/repos.js';
import { replaceReviewCandidates } from '../../storage/review-repo.js';
import { listQueue } from '../../storage/review-queue-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { reasoningForRollout } from '../../synthesis/reasoning-stage.js';
import { PAGES, TAPS, launch, render } from '../critics/screens.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';

let browser: Browser;
let ocr: OcrEngine;
const blobs = new MemoryBlobStore();
let list = '';
let menu = '';

beforeAll(async () => {
  [browser, ocr] = await Promise.all([launch(), createOcrEngine()]);
  list = await blobs.put(await render(browser, PAGES.list), { ext: '.png' });
  menu = await blobs.put(await render(browser, PAGES.palaceMenu), { ext: '.png' });
}, 60_000);

let db: TestDatabase | undefined;
afterAll(async () => {
  await browser?.close();
  await db?.drop();
});

const obs = (key: string) => ({ screenshotKey: key, width: 360, height: 640 });
const step = (index: number, before: string, after: string, action: Action, reasoning: string, conclusion: string): Step =>
  ({ index, before: obs(before), after: obs(after), action, reasoning, conclusion, latencyMs: 1 }) as Step;

describe('reasoning-data stage', () => {
  it('records every filter decision with its reason; keeps traces whose predicted action matches, with lineage', async () => {
    const tap: Action = { action: 'click', coordinate: [TAPS.burgerPalace[0], TAPS.burgerPalace[1]] };
    const steps: Step[] = [
      step(0, list, menu, tap, 'The list shows restaurants; I tap "Burger Palace" to open its menu.', 'Tapped "Burger Palace".'),
      // Inconsistent: the thought asks to scroll, the action taps.
      step(1, list, menu, tap, 'Nothing useful here, I should scroll down further.', 'Scrolled down.'),
      step(2, menu, menu, { action: 'terminate', status: 'success' }, 'The menu of Burger Palace is open: done.', 'Task complete.'),
    ];
    const r = await reasoningForRollout(
      { reasoner: inProcessModel('ref-reasoner', reasonerRole, ocr), policy: inProcessModel('ref-policy', policyRole, ocr) },
      blobs,
      { cycleId: 'cycle-1', rolloutId: 'cycle-1/q1/a0', instruction: 'Tap Burger Palace', steps, styles: ['cot-template', 'simplest'], reasonerModel: 'ref-reasoner', guidanceVersion: 2 },
    );
    // One consistency decision per executed step, each with a reason.
    const rule = r.decisions.filter((d) => d.filter === 'consistency_rule');
    expect(rule.map((d) => [d.step, d.keep])).toEqual([[0, true], [1, false], [2, true]]);
    expect(rule[1]!.reason).toMatch(/scroll/);
    for (const d of r.decisions) expect(d.reason.length).toBeGreaterThan(5);
    // Hint-guided rejection sampling only on the consistent non-terminal step, one decision per style.
    const hint = r.decisions.filter((d) => d.filter === 'hint_match');
    expect(hint.map((d) => [d.step, d.details?.style])).toEqual([[0, 'cot-template'], [0, 'simplest']]);
    expect(r.counts).toMatchObject({ steps: 3, consistencyRejected: 1, traces: 2 });
    expect(r.counts.kept + r.counts.rejected).toBe(2);
    // Kept traces: the executed action verbatim, lineage with the hint style and the guidance version.
    expect(r.samples.length).toBe(r.counts.kept);
    expect(r.counts.kept, JSON.stringify(hint)).toBeGreaterThan(0);
    for (const s of r.samples) {
      expect(s.action).toEqual(tap);
      expect(s.lineage).toMatchObject({ cycle: 'cycle-1', sourceRollout: 'cycle-1/q1/a0', sourceStep: 0, hintStyle: s.hintStyle, reasoner: 'ref-reasoner', guidanceVersion: 2 });
      expect(hint.find((d) => d.sampleId === s.id)?.keep).toBe(true);
    }
  }, 120_000);
});

describe('reasoning stage in the cycle (activity, Postgres, export)', () => {
  it('queues steps no hint style reproduces as needs_human, distils multi-agent steps, and exports both with the executed actions', async () => {
    db = await testDatabase();
    const tap: Action = { action: 'click', coordinate: [TAPS.burgerPalace[0], TAPS.burgerPalace[1]] };
    const swipe: Action = { action: 'swipe', coordinate: [180, 500], coordinate2: [180, 200] };
    const roles = [
      { role: 'manager', request: { messages: [{ role: 'user', text: 'plan', images: [] }] }, reply: '{}', parsed: { pending_subgoals: ['Tap Burger Palace'], completed_subgoals: [] } },
      { role: 'worker', request: { messages: [{ role: 'user', text: 'act', images: [] }] }, reply: '{}', parsed: { thought: 'The list shows "Burger Palace"; tapping it.', summary: 'Tapped "Burger Palace".' } },
    ];
    const rollout = Rollout.parse({
      id: 'c1/q1/a0',
      cycleId: 'c1',
      queryId: 'q1',
      attempt: 0,
      agentMode: 'mobile-agent-v3',
      actionSpace: 'mobile',
      model: { name: 'policy', version: '1' },
      status: 'terminated',
      outcome: 'success',
      steps: [
        { ...step(0, list, menu, tap, 'The list shows restaurants; I tap "Burger Palace" to open its menu.', 'Tapped "Burger Palace".'), roles },
        step(1, list, menu, swipe, 'Scrolling down to see more restaurants below.', 'Swiped up.'),
        step(2, menu, menu, { action: 'terminate', status: 'success' }, 'The menu of Burger Palace is open: done.', 'Task complete.'),
      ],
    });
    await repo.upsertCycle(db.pool, { id: 'c1', config: {}, configHash: 'h', modelVersion: 'policy@1', criticVersion: 'cv1' });
    await repo.upsertQueries(db.pool, 'c1', [
      { id: 'q1', app: 'food', dagVersion: 'food@1', family: 'view_menu', instruction: 'Tap Burger Palace', rawInstruction: 'x', path: ['home', 'menu'], slots: {}, checker: { app: 'food', family: 'view_menu', params: {} }, difficulty: 1, sampler: 'uniform', seed: 1 },
    ]);
    await repo.upsertRollout(db.pool, rollout, { degraded: false, configHash: 'h' });
    await repo.upsertTrajectoryVerdicts(db.pool, [{ rolloutId: rollout.id, criticVersion: 'cv1', channel: 'consensus', correct: true, reason: '', votes: [] }]);
    const models = { reasoner: inProcessModel('ref-reasoner', reasonerRole, ocr), policy: inProcessModel('ref-policy', policyRole, ocr), distiller: inProcessModel('ref-distiller', distillerRole, ocr) };
    const activities = createSynthesisActivities({ db: db.pool, blobs, models } as unknown as ActivityDeps);
    const counts = await activities.synthesizeReasoning({ cycleId: 'c1', rolloutId: rollout.id, styles: ['cot-template', 'simplest'] });
    expect(counts).toMatchObject({ steps: 3, needsHuman: 1, distilled: 1 });
    // The swipe no style reproduces is in the review queue, with its reason and steps.
    const queued = await db.pool.query<{ kind: string; reason: string; details: { steps: number[] }; priority: number }>(`select kind, reason, details, priority from review_candidates where rollout_id = $1`, [rollout.id]);
    expect(queued.rows).toHaveLength(1);
    expect(queued.rows[0]).toMatchObject({ kind: 'needs_human', details: { steps: [1] } });
    expect(queued.rows[0]!.reason).toMatch(/step 1/);
    expect((await listQueue(db.pool, { kind: 'needs_human' })).map((q) => q.rolloutId)).toEqual([rollout.id]);
    // Idempotent on retry; a re-judgement of the rollout does not remove it.
    await activities.synthesizeReasoning({ cycleId: 'c1', rolloutId: rollout.id, styles: ['cot-template', 'simplest'] });
    await replaceReviewCandidates(db.pool, { rolloutId: rollout.id, criticVersion: 'cv1', cycleId: 'c1', queryId: 'q1', accepted: true }, []);
    expect((await db.pool.query(`select 1 from review_candidates where rollout_id = $1 and kind = 'needs_human'`, [rollout.id])).rowCount).toBe(1);
    // The distillation was stored with its lineage, and its consistency decision recorded.
    const stored = await db.pool.query<{ id: string; kind: string; action: unknown; lineage: Record<string, unknown> }>(`select id, kind, action, lineage from reasoning_samples order by id`);
    const distill = stored.rows.find((r) => r.kind === 'distill')!;
    expect(distill).toMatchObject({ id: 'c1/q1/a0#0#distill', action: tap, lineage: { distiller: 'ref-distiller', roles: ['manager', 'worker'], sourceStep: 0 } });
    const decision = await db.pool.query<{ keep: boolean; reason: string }>(`select keep, reason from filter_decisions where sample_id = 'c1/q1/a0#0#distill' and filter = 'consistency_rule'`);
    expect(decision.rows[0]?.keep).toBe(true);
    // Exported as reasoning rows: every tool call is the executed action.
    const snap = (await exportSnapshot({ db: db.pool, blobs }, { name: 'r', formats: ['reasoning'] }))!;
    const text = Buffer.from(await blobs.get(snap.manifest.files.find((f) => f.path === 'reasoning/train.jsonl')!.blobKey)).toString('utf8');
    const rows = text.trim().split('\n').map((l) => JSON.parse(l) as { id: string; messages: { content: string }[]; meta: { step: number; kind: string } });
    expect(rows.map((r) => r.meta.kind)).toContain('distill');
    expect(rows.length).toBe(stored.rows.length);
    for (const r of rows) {
      const call = JSON.parse(/<tool_call>\n(.*)\n<\/tool_call>$/s.exec(r.messages.at(-1)!.content)![1]!) as { arguments: unknown };
      expect(call.arguments).toEqual(rollout.steps[r.meta.step]!.action);
    }
  }, 180_000);
});
