/**
 * The reference critic roles on real screenshots (Chromium) read by the real OCR engine, driven through the
 * critics/ request builders and parsers exactly as the pipeline would.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeStep } from '../../critics/step-critic.js';
import type { JudgeStepInput } from '../../critics/step-critic.js';
import { pngDataUrl } from '../../critics/json.js';
import { judgeTrajectory } from '../../critics/trajectory-critic.js';
import type { JudgeTrajectoryInput } from '../../critics/trajectory-critic.js';
import { createOcrEngine } from '../../models/ocr.js';
import {
  instructionEntities,
  stepCriticRole,
  trajectoryMultimodalCriticRole,
  trajectoryTextCriticRole,
} from '../../models/reference/roles/critics.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { roleModel } from './fake-model.js';
import { PAGES, TAPS, launch, render } from './screens.js';

const INSTRUCTION = 'Order a Cheeseburger from Burger Palace';

let browser: Browser;
let ocr: OcrEngine;
const shots = {} as Record<keyof typeof PAGES, Uint8Array>;

beforeAll(async () => {
  [browser, ocr] = await Promise.all([launch(), createOcrEngine()]);
  for (const k of Object.keys(PAGES) as (keyof typeof PAGES)[]) shots[k] = await render(browser, PAGES[k]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function step(input: Partial<JudgeStepInput> & Pick<JudgeStepInput, 'action' | 'before' | 'after'>) {
  const r = await judgeStep(roleModel(stepCriticRole, ocr), { instruction: INSTRUCTION, history: [], ...input });
  if ('error' in r) throw new Error(`unparseable: ${r.error.message}`);
  return r;
}

describe('instructionEntities', () => {
  it('extracts names, quoted strings and numbers, not the leading verb', () => {
    expect(instructionEntities(INSTRUCTION)).toEqual(['Cheeseburger', 'Burger Palace']);
    expect(instructionEntities('Order 2 Cheeseburgers from Burger Palace')).toEqual(['2', 'Cheeseburgers', 'Burger Palace']);
    expect(instructionEntities('Send "see you at 7" to Anna Smith.')).toEqual(['see you at 7', 'Anna Smith']);
  });
});

describe('reference step critic', () => {
  it('GOOD for tapping the restaurant the instruction names', async () => {
    const r = await step({ action: { action: 'click', coordinate: [...TAPS.burgerPalace] }, before: shots.list, after: shots.palaceMenu });
    expect(r.verdict.annotation).toBe('GOOD');
    expect(r.score).toBe(1);
    expect(r.verdict.summary).toMatch(/^Tapped "Burger Palace"; the screen now shows "Menu"/);
    expect(r.verdict.summary.split(/\s+/).length).toBeLessThanOrEqual(30);
  });

  it('HARMFUL for tapping the near-duplicate "Burger Place"', async () => {
    const r = await step({ action: { action: 'click', coordinate: [...TAPS.burgerPlace] }, before: shots.list, after: shots.placeMenu });
    expect(r.verdict.annotation).toBe('HARMFUL');
    expect(r.score).toBe(0);
    expect(r.verdict.summary).toMatch(/Tapped "Burger Place" instead of "Burger Palace"/);
  });

  it('NEUTRAL for a tap with no visible effect', async () => {
    const again = await render(browser, PAGES.list); // re-rendered, so the bytes need not be identical
    const r = await step({ action: { action: 'click', coordinate: [...TAPS.blank] }, before: shots.list, after: again });
    expect(r.verdict.annotation).toBe('NEUTRAL');
    expect(r.verdict.analysis).toMatch(/did not visibly change/);
  });

  it('GOOD for going Back right after a mistake, HARMFUL for going Back from the right page', async () => {
    const recovery = await step({
      action: { action: 'system_button', button: 'Back' },
      before: shots.placeMenu,
      after: shots.list,
      history: ['Tapped "Burger Place" instead of "Burger Palace"; the screen now shows "Burger Place".'],
    });
    expect(recovery.verdict.annotation).toBe('GOOD');
    const retreat = await step({
      action: { action: 'system_button', button: 'Back' },
      before: shots.palaceMenu,
      after: shots.list,
      history: ['Tapped "Burger Palace"; the screen now shows "Menu".'],
    });
    expect(retreat.verdict.annotation).toBe('HARMFUL');
  });

  it('GOOD for typing text from the instruction, HARMFUL for a misspelling of it', async () => {
    const typed = await step({ action: { action: 'type', text: 'Burger Palace' }, before: shots.list, after: shots.palaceMenu });
    expect(typed.verdict.annotation).toBe('GOOD');
    const typo = await step({ action: { action: 'type', text: 'Burger Palce' }, before: shots.list, after: shots.placeMenu });
    expect(typo.verdict.annotation).toBe('HARMFUL');
  });
});

describe('reference trajectory critics', () => {
  async function trajectory(
    instruction: string,
    screens: Uint8Array[],
    actions: JudgeStepInput['action'][],
    outcome: string | undefined,
  ): Promise<JudgeTrajectoryInput> {
    const summaries: string[] = [];
    for (let i = 0; i < actions.length; i++) {
      const r = await step({ instruction, history: [...summaries], action: actions[i]!, before: screens[i]!, after: screens[i + 1]! });
      summaries.push(r.verdict.summary);
    }
    const captions = await Promise.all(screens.map(async (s) => (await ocr.recognize(s)).map((l) => l.text).join('\n')));
    return {
      instruction,
      steps: actions.map((a, i) => ({ summary: summaries[i]!, actionText: JSON.stringify(a) })),
      captions,
      screenshots: screens.map(pngDataUrl),
      outcome,
    };
  }
  const models = () => ({ text: roleModel(trajectoryTextCriticRole, ocr, 7), multimodal: roleModel(trajectoryMultimodalCriticRole, ocr, 7) });
  const tapAddToCart: JudgeStepInput['action'] = { action: 'click', coordinate: [84, 316] };

  it('Correct (both channels) for a trajectory that ordered from the right restaurant', async () => {
    const input = await trajectory(INSTRUCTION, [shots.list, shots.palaceMenu, shots.confirmation], [
      { action: 'click', coordinate: [...TAPS.burgerPalace] },
      tapAddToCart,
    ], 'success');
    const r = await judgeTrajectory(models(), input, { votes: 1 });
    expect(r.channels.map((c) => [c.channel, c.correct])).toEqual([
      ['text', true],
      ['multimodal', true],
    ]);
    expect(r.correct).toBe(true);
  });

  it('Incorrect for the near-duplicate restaurant, and for a self-reported failure', async () => {
    const wrong = await trajectory(INSTRUCTION, [shots.list, shots.placeMenu], [{ action: 'click', coordinate: [...TAPS.burgerPlace] }], 'success');
    const r = await judgeTrajectory(models(), wrong, { votes: 1 });
    expect(r.channels.map((c) => c.correct)).toEqual([false, false]);
    expect(r.channels[0]!.reason).toMatch(/no completion signal/);
    expect(r.channels[0]!.reason).toMatch(/mistake and never undone/);

    const right = await trajectory(INSTRUCTION, [shots.list, shots.palaceMenu, shots.confirmation], [
      { action: 'click', coordinate: [...TAPS.burgerPalace] },
      tapAddToCart,
    ], 'failure');
    expect((await judgeTrajectory(models(), right, { votes: 1 })).correct).toBe(false);
  });

  it('a borderline trajectory (quantity not evidenced) is Incorrect at temperature 0 and splits votes when sampled', async () => {
    const input = await trajectory('Order 2 Cheeseburgers from Burger Palace', [shots.list, shots.palaceMenu, shots.confirmation], [
      { action: 'click', coordinate: [...TAPS.burgerPalace] },
      tapAddToCart,
    ], 'success');
    const greedy = await judgeTrajectory(models(), input, { votes: 1 });
    expect(greedy.channels.map((c) => c.correct)).toEqual([false, false]);
    expect(greedy.channels[1]!.reason).toMatch(/only 2\/3 key entities/);

    const sampled = await judgeTrajectory(models(), input, { votes: 16, voteRule: 'majority', temperature: 1 });
    for (const c of sampled.channels) {
      expect(c.votes).toHaveLength(16);
      expect(c.votes.some(Boolean)).toBe(true);
      expect(c.votes.some((v) => !v)).toBe(true);
    }
    // A clear success stays (almost) unanimous under the same sampling.
    const clear = await trajectory(INSTRUCTION, [shots.list, shots.palaceMenu, shots.confirmation], [
      { action: 'click', coordinate: [...TAPS.burgerPalace] },
      tapAddToCart,
    ], 'success');
    const clearVotes = await judgeTrajectory(models(), clear, { votes: 16, voteRule: 'majority', temperature: 1 });
    for (const c of clearVotes.channels) expect(c.votes.filter(Boolean).length).toBeGreaterThanOrEqual(12);
    expect(clearVotes.correct).toBe(true);
  });
});
