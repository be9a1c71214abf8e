/**
 * Reasoning data: the thought–action consistency rules per action type, the online filters' recorded decisions,
 * multi-agent → end-to-end distillation (actions copied unchanged), and hint-guided rejection sampling through the
 * reference reasoner and policy on a real screenshot.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicyReply } from '../../agents/gui-owl.js';
import type { Action } from '../../domain/action.js';
import type { Step } from '../../domain/entities.js';
import { HINT_STYLES } from '../../domain/guidance.js';
import { createOcrEngine } from '../../models/ocr.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { policyRole } from '../../models/reference/roles/policy.js';
import { consistencyRole, distillerRole, reasonerRole } from '../../models/reference/roles/reasoning.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { checkConsistency, modelConsistency } from '../../synthesis/consistency.js';
import { distillStep } from '../../synthesis/distill.js';
import { criticGate, reweight } from '../../synthesis/filters.js';
import { sampleReasoning } from '../../synthesis/rejection-sampling.js';
import { PAGES, TAPS, launch, render } from '../critics/screens.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';

const tree = {
  nodes: [
    { bounds: [0, 0, 360, 640], role: 'main', name: '' },
    { bounds: [0, 60, 360, 120], role: 'button', name: 'Burger Place' },
    { bounds: [0, 140, 360, 200], role: 'button', name: 'Burger Palace' },
  ],
};
const click = (y: number): Action => ({ action: 'click', coordinate: [80, y] });

describe('thought–action consistency rules', () => {
  const cases: { name: string; step: { reasoning: string; conclusion: string; action: Action }; consistent: boolean; reason: RegExp }[] = [
    { name: 'tap on the named row', step: { reasoning: 'Open "Burger Palace".', conclusion: 'Tapped "Burger Palace".', action: click(167) }, consistent: true, reason: /touches "Burger Palace"/ },
    { name: 'tap on the near-duplicate', step: { reasoning: 'Open "Burger Palace".', conclusion: 'Tapped "Burger Palace".', action: click(90) }, consistent: false, reason: /touches "Burger Place"/ },
    { name: 'long press asked, tap done', step: { reasoning: 'Long press the note to see its options.', conclusion: 'x', action: click(167) }, consistent: false, reason: /long press/ },
    { name: 'typed text named', step: { reasoning: 'Enter the address "42 Main St".', conclusion: 'Typed it.', action: { action: 'type', text: '42 Main St' } }, consistent: true, reason: /names the typed text/ },
    { name: 'typed text not named', step: { reasoning: 'Search for pizza.', conclusion: 'Typed.', action: { action: 'type', text: '42 Main St' } }, consistent: false, reason: /not in the thought/ },
    { name: 'success claimed after failing', step: { reasoning: 'I could not find the item; it does not exist.', conclusion: 'Stop.', action: { action: 'terminate', status: 'success' } }, consistent: false, reason: /says it failed/ },
    { name: 'failure while done', step: { reasoning: 'The order is placed; the task is complete.', conclusion: 'Done.', action: { action: 'terminate', status: 'failure' } }, consistent: false, reason: /says it is done/ },
    { name: 'swipe with a reason', step: { reasoning: 'The option is below the fold; scroll down.', conclusion: 'Scrolled.', action: { action: 'swipe', coordinate: [200, 600], coordinate2: [200, 200] } }, consistent: true, reason: /move the view/ },
    { name: 'swipe without a reason', step: { reasoning: 'Tap the cart.', conclusion: 'x', action: { action: 'swipe', coordinate: [200, 600], coordinate2: [200, 200] } }, consistent: false, reason: /without any reason/ },
    { name: 'back without a reason', step: { reasoning: 'Tap the cart.', conclusion: 'x', action: { action: 'system_button', button: 'Back' } }, consistent: false, reason: /not motivated/ },
    { name: 'open the named app', step: { reasoning: 'Open Foodie first.', conclusion: 'Opened Foodie.', action: { action: 'open', text: 'Foodie' } }, consistent: true, reason: /names the app/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const v = checkConsistency(c.step, tree);
      expect(v.consistent).toBe(c.consistent);
      expect(v.check).toBe(c.step.action.action);
      expect(v.reason).toMatch(c.reason);
    });
  }
});

describe('online filters record every decision with its reason', () => {
  it('critic gate', () => {
    expect(criticGate('s1', 0.5, 0.25)).toMatchObject({ filter: 'critic_tau_c', keep: true, reason: 'CriticScore 0.50 ≥ τc 0.25' });
    expect(criticGate('s2', 0, 0.25)).toMatchObject({ keep: false, reason: 'CriticScore 0.00 < τc 0.25' });
    expect(criticGate('s3', null, 0.25)).toMatchObject({ keep: false });
    expect(criticGate('s4', null, 0)).toMatchObject({ keep: true });
  });
  it('p_succ re-weighting: deterministic per sample, downsamples solved tasks, upsamples unsolved ones', () => {
    const mean = (p: number) => Array.from({ length: 4000 }, (_, i) => reweight(`q/${i}`, p).copies).reduce((a, b) => a + b, 0) / 4000;
    expect(mean(1)).toBeGreaterThan(0.2);
    expect(mean(1)).toBeLessThan(0.3);
    expect(mean(0)).toBeGreaterThan(1.7);
    expect(mean(0)).toBeLessThan(1.8);
    expect(reweight('x', 0.3)).toEqual(reweight('x', 0.3));
    const d = reweight('y', 1).decision;
    expect(d.filter).toBe('reweight');
    expect(d.reason).toMatch(/^p_succ 1.00 → weight 0.25, [01] cop/);
    expect(d.keep).toBe((d.details!.copies as number) > 0);
  });
});

describe('multi-agent → end-to-end distillation', () => {
  const distiller = inProcessModel('ref-distiller', distillerRole);
  const obs = { screenshotKey: 'sha256/aa.png', width: 360, height: 640 };
  const roles = (action: Action): Step['roles'] => [
    { role: 'manager', request: { messages: [] }, reply: '', parsed: { thought: 'plan', completed_subgoals: ['opened Foodie'], pending_subgoals: ['Open Burger Palace', 'Add a Cheeseburger'] } },
    { role: 'worker', request: { messages: [] }, reply: '', parsed: { thought: 'Burger Palace is the second row.', action, summary: 'Open "Burger Palace"' } },
    { role: 'reflector', request: { messages: [] }, reply: '', parsed: { outcome: 'SUCCESS', feedback: 'Foodie opened.' } },
    { role: 'notetaker', request: { messages: [] }, reply: '', parsed: { notes: [] } },
  ];
  const actions: Action[] = [
    { action: 'click', coordinate: [80, 167] },
    { action: 'type', text: '42 Main St, Springfield' },
    { action: 'swipe', coordinate: [206, 700], coordinate2: [206, 350] },
    { action: 'long_press', coordinate: [12, 34], time: 1 },
    { action: 'terminate', status: 'success' },
  ];
  it('merges the roles into one GUI-Owl reasoning and keeps every action identical', async () => {
    for (const action of actions) {
      const step: Step = { index: 3, before: obs, action, reasoning: '', conclusion: '', latencyMs: 1, roles: roles(action) };
      const d = await distillStep(distiller, 'Order a Cheeseburger from Burger Palace', step);
      expect(d).toBeDefined();
      expect(d!.action).toEqual(action);
      const parsed = parsePolicyReply({ role: 'assistant', content: d!.assistant }, 'mobile', { width: 412, height: 915 });
      expect(parsed.result.ok && parsed.result.action).toEqual(action);
      expect(parsed.reasoning).toMatch(/opened Foodie.*open Burger Palace.*second row/i);
      expect(parsed.conclusion).toBe('Open "Burger Palace"');
      expect(d!.distillation).toEqual({ roles: ['manager', 'worker', 'reflector', 'notetaker'], model: 'ref-distiller' });
    }
  });
  it('skips steps without an executed action or without role outputs', async () => {
    expect(await distillStep(distiller, 'x', { index: 0, before: obs, reasoning: '', conclusion: '', latencyMs: 1, roles: roles(actions[0]!) })).toBeUndefined();
    expect(await distillStep(distiller, 'x', { index: 0, before: obs, action: actions[0]!, reasoning: '', conclusion: '', latencyMs: 1 })).toBeUndefined();
  });
});

describe('on a real screen', () => {
  let browser: Browser;
  let ocr: OcrEngine;
  const blobs = new MemoryBlobStore();
  let listKey = '';
  beforeAll(async () => {
    [browser, ocr] = await Promise.all([launch(), createOcrEngine()]);
    listKey = await blobs.put(await render(browser, PAGES.list), { ext: '.png' });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('hint-guided rejection sampling keeps styles that reproduce the action and flags steps none reproduces', async () => {
    const models = { reasoner: inProcessModel('ref-reasoner', reasonerRole, ocr), policy: inProcessModel('ref-policy', policyRole, ocr) };
    const shot = { dataUrl: `data:image/png;base64,${Buffer.from(await blobs.get(listKey)).toString('base64')}` };
    const base = { instruction: 'Order a Cheeseburger from Burger Palace', history: ['Opened Foodie. [goal 1/7 done]'], screenshot: shot, screen: { width: 360, height: 640 }, tree };
    const good = await sampleReasoning(models, { ...base, id: 'good', action: { action: 'click', coordinate: [...TAPS.burgerPalace] } });
    expect(good.attempts.map((a) => a.style)).toEqual([...HINT_STYLES]);
    expect(good.kept.length).toBeGreaterThan(0);
    expect(good.needsHuman).toBe(false);
    for (const a of good.kept) expect(a.reasoning).toMatch(/Next: tap Burger Palace/);
    // A ground-truth action no reasoning leads to (the near-duplicate row): every style is rejected, with the reason.
    const odd = await sampleReasoning(models, { ...base, id: 'odd', action: { action: 'click', coordinate: [...TAPS.burgerPlace] } });
    expect(odd.kept).toEqual([]);
    expect(odd.needsHuman).toBe(true);
    for (const a of odd.attempts) expect(a.match.reason).toMatch(/px from|outside/);
  });

  it('the model consistency check reads the label under the circle', async () => {
    const model = inProcessModel('ref-consistency', consistencyRole, ocr);
    const on = await modelConsistency(model, blobs, { reasoning: 'Open "Burger Palace".', conclusion: '', action: { action: 'click', coordinate: [...TAPS.burgerPalace] }, screenshotKey: listKey });
    expect(on).toMatchObject({ consistent: true, check: 'model' });
    const off = await modelConsistency(model, blobs, { reasoning: 'Open "Burger Palace".', conclusion: '', action: { action: 'click', coordinate: [...TAPS.burgerPlace] }, screenshotKey: listKey });
    expect(off.consistent).toBe(false);
    expect(off.reason).toMatch(/touches "Burger Place"/);
  });
});
