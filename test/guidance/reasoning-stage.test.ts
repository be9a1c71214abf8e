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
import { reasonerRole } from '../../models/reference/roles/reasoning.js';
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

afterAll(async () => {
  await browser?.close();
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
