/**
 * Guidance synthesis on real screenshots (Chromium) read by the real OCR engine, every role driven in-process
 * exactly as the reference server answers it: the describer sees a circled point (and only that tells it where a
 * tap landed), QC drops ineffective and off-target steps, the synthesiser writes essential steps, and the reference
 * policy acts on them as text.
 */
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPolicyRequest, parsePolicyReply } from '../../agents/gui-owl.js';
import type { Action } from '../../domain/action.js';
import { createOcrEngine } from '../../models/ocr.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { guideDescriberRole } from '../../models/reference/roles/guide-describer.js';
import { guideQcRole } from '../../models/reference/roles/guide-qc.js';
import { guideSynthRole } from '../../models/reference/roles/guide-synth.js';
import { guidanceGoals, guidanceLines } from '../../models/reference/roles/policy-guidance.js';
import { policyRole } from '../../models/reference/roles/policy.js';
import { parseGoals } from '../../models/reference/roles/policy-intent.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { MARK_RADIUS } from '../../synthesis/annotate.js';
import { describerRequest, synthesizeGuidance, type GuidanceModels, type ReferenceStep } from '../../synthesis/guidance.js';
import { PAGES, TAPS, launch, render } from '../critics/screens.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';

let browser: Browser;
let ocr: OcrEngine;
const blobs = new MemoryBlobStore();
const keys = {} as Record<keyof typeof PAGES, string>;
let models: GuidanceModels;

beforeAll(async () => {
  [browser, ocr] = await Promise.all([launch(), createOcrEngine()]);
  for (const k of Object.keys(PAGES) as (keyof typeof PAGES)[]) keys[k] = await blobs.put(await render(browser, PAGES[k]), { ext: '.png' });
  models = {
    describer: inProcessModel('ref-guide-describer', guideDescriberRole, ocr),
    qc: inProcessModel('ref-guide-qc', guideQcRole, ocr),
    synth: inProcessModel('ref-guide-synth', guideSynthRole, ocr),
  };
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

const obs = (k: keyof typeof PAGES) => ({ screenshotKey: keys[k], width: 360, height: 640 });
const tap = (p: readonly [number, number]): Action => ({ action: 'click', coordinate: [p[0], p[1]] });

async function describe1(step: ReferenceStep): Promise<{ target: string; changed: boolean; description: string }> {
  const res = await models.describer.complete(await describerRequest(blobs, step));
  return JSON.parse(String(res.response.choices[0]!.message.content)) as { target: string; changed: boolean; description: string };
}

describe('describer', () => {
  it('gets the pre-action screenshot with the interaction point circled, and no coordinates in the text', async () => {
    const req = await describerRequest(blobs, { index: 0, before: obs('list'), after: obs('palaceMenu'), action: tap(TAPS.burgerPalace) });
    const user = req.messages[1]!.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(user[0]!.text).toContain('tap at the circled point');
    expect(user[0]!.text).not.toMatch(/\d+\s*,\s*\d+/);
    const png = Buffer.from(user[1]!.image_url!.url.split(',')[1]!, 'base64');
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const px = (x: number, y: number) => data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3);
    // On the ring (radius away from the point, right of it): magenta; at the centre: the page's own pixels.
    const [x, y] = TAPS.burgerPalace;
    const ring = px(x + MARK_RADIUS, y);
    expect(ring[0]).toBeGreaterThan(200);
    expect(ring[1]).toBeLessThan(80);
    expect(ring[2]).toBeGreaterThan(200);
    // The post-action screenshot is passed unmarked.
    const unmarked = Buffer.from(user[2]!.image_url!.url.split(',')[1]!, 'base64');
    expect(Buffer.compare(unmarked, Buffer.from(await blobs.get(keys.list)))).toBe(0);
    const after = Buffer.from(user[3]!.image_url!.url.split(',')[1]!, 'base64');
    expect(Buffer.compare(after, Buffer.from(await blobs.get(keys.palaceMenu)))).toBe(0);
  });

  it('reads the label under the circle: moving the circle changes the described target', async () => {
    const palace = await describe1({ index: 0, before: obs('list'), after: obs('palaceMenu'), action: tap(TAPS.burgerPalace) });
    expect(palace.target).toBe('Burger Palace');
    expect(palace.target).not.toBe('Burger Place');
    expect(palace.changed).toBe(true);
    expect(palace.description).toMatch(/tapped/);
    const place = await describe1({ index: 0, before: obs('list'), after: obs('placeMenu'), action: tap(TAPS.burgerPlace) });
    expect(place.target).toMatch(/Burger Place/);
  });
});

describe('quality control', () => {
  it('drops a step with no visible effect and one that hit something other than intended; keeps a good one', async () => {
    const reference = {
      id: 'cycle-1/q-x/a0',
      source: 'model' as const,
      instruction: 'Order a Cheeseburger from Burger Palace',
      steps: [
        // Ineffective: a tap on blank space, same screen after.
        { index: 0, before: obs('list'), after: obs('list'), action: tap(TAPS.blank), intent: 'Tapped "Burger Palace" to open it.' },
        // Off target: meant Burger Palace, hit Burger Place.
        { index: 1, before: obs('list'), after: obs('placeMenu'), action: tap(TAPS.burgerPlace), intent: 'Tapped "Burger Palace" to open its menu.' },
        // Good.
        { index: 2, before: obs('list'), after: obs('palaceMenu'), action: tap(TAPS.burgerPalace), intent: 'Tapped "Burger Palace" to open its menu.' },
        { index: 3, before: obs('palaceMenu'), action: { action: 'terminate', status: 'success' } as Action, intent: 'Done.' },
      ],
    };
    const g = await synthesizeGuidance(models, blobs, reference);
    const byIndex = new Map(g.described.map((d) => [d.index, d]));
    expect(byIndex.get(0)).toMatchObject({ kept: false, changed: false });
    expect(byIndex.get(0)!.reason).toMatch(/ineffective/);
    expect(byIndex.get(1)!.kept).toBe(false);
    expect(byIndex.get(1)!.reason).toMatch(/mismatch/);
    expect(byIndex.get(2)!.kept).toBe(true);
    expect(byIndex.get(3)!.kept).toBe(false);
    expect(g.steps).toHaveLength(1);
    expect(g.steps[0]).toBe('tap Burger Palace');
    expect(g.text).toMatch(/^Essential steps/);
    expect(g.models).toEqual({ describer: 'ref-guide-describer', qc: 'ref-guide-qc', synth: 'ref-guide-synth' });
  });

  it('without a stated intent (scripted or human demonstration) still drops ineffective steps', async () => {
    const g = await synthesizeGuidance(models, blobs, {
      id: 'rec-1',
      source: 'human',
      instruction: 'Open Burger Place',
      steps: [
        { index: 0, before: obs('list'), after: obs('list'), action: tap(TAPS.blank) },
        { index: 1, before: obs('list'), after: obs('placeMenu'), action: tap(TAPS.burgerPlace) },
      ],
    });
    expect(g.described.map((d) => d.kept)).toEqual([false, true]);
    expect(g.steps).toEqual(['tap Burger Place']);
  });

  it('refuses to synthesise from a reference with no effective step', async () => {
    await expect(
      synthesizeGuidance(models, blobs, { id: 'r', source: 'human', instruction: 'x', steps: [{ index: 0, before: obs('list'), after: obs('list'), action: tap(TAPS.blank) }] }),
    ).rejects.toThrow(/no effective step/);
  });
});

describe('the reference policy reads guidance as text', () => {
  it('keeps only imperative lines and maps long press to a press goal', () => {
    const lines = ['Essential steps (from a reference demonstration; check each against the screen):', 'tap Burger Palace', 'Observation: a list', 'Next: long press Gym'];
    expect(guidanceLines(lines)).toEqual(['tap Burger Palace', 'long press Gym']);
    const goals = guidanceGoals(lines, parseGoals);
    expect(goals.map((g) => g.kind)).toEqual(['tap', 'press']);
  });

  it('asks a close match of a guidance tap and finds an entered field by its whole label', () => {
    const goals = guidanceGoals(['tap 00', 'enter "Call Mom" into the Alarm name field'], parseGoals);
    expect(goals[0]).toMatchObject({ kind: 'tap', targets: ['00'], min: 0.9 });
    expect(goals[1]).toMatchObject({ kind: 'type', value: 'Call Mom', words: ['Alarm name'] });
  });

  it('follows a guidance step to the named row (not the near-duplicate) on a real screen', async () => {
    const policy = inProcessModel('ref-policy', policyRole, ocr);
    const shot = Buffer.from(await blobs.get(keys.list)).toString('base64');
    const request = buildPolicyRequest({
      instruction: 'Get me something to eat',
      history: [],
      screenshots: [{ dataUrl: `data:image/png;base64,${shot}` }],
      screen: { width: 360, height: 640 },
      guidance: 'Essential steps (from a reference demonstration; check each against the screen):\n1. tap Burger Palace',
    });
    const reply = parsePolicyReply((await policy.complete({ ...request, temperature: 0 })).response.choices[0]!.message, 'mobile', { width: 360, height: 640 });
    expect(reply.result.ok).toBe(true);
    const a = reply.result.ok ? reply.result.action : undefined;
    expect(a?.action).toBe('click');
    const y = (a as { coordinate: [number, number] }).coordinate[1];
    // Burger Palace's row (y ≈ 167), not Burger Place's (y ≈ 84).
    expect(Math.abs(y - TAPS.burgerPalace[1])).toBeLessThan(30);
  });
});
