/**
 * A person demonstrating in the browser (driven here by Playwright as the "person"): the recorder turns their
 * taps, long press and typing into mobile actions with before/after screenshots, and the recording becomes
 * guidance through the same describer → QC → synthesiser chain as any reference.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRecorder } from '../../environments/recorder.js';
import { createOcrEngine } from '../../models/ocr.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { guideDescriberRole } from '../../models/reference/roles/guide-describer.js';
import { guideQcRole } from '../../models/reference/roles/guide-qc.js';
import { guideSynthRole } from '../../models/reference/roles/guide-synth.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { synthesizeGuidance } from '../../synthesis/guidance.js';
import { PAGES, TAPS, VIEWPORT, launch } from '../critics/screens.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';

let browser: Browser;
let ocr: OcrEngine;
beforeAll(async () => {
  [browser, ocr] = await Promise.all([launch(), createOcrEngine()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

// A two-screen app: tapping a restaurant opens a checkout form with an address field.
const APP = PAGES.list.replace(
  '</body>',
  `<script>
    document.querySelectorAll('.row')[1].addEventListener('click', () => {
      document.body.innerHTML = '<header>Checkout</header><div class="row">Delivery address</div>' +
        '<input id="addr" style="margin:16px;font-size:20px;width:300px" placeholder="Street and number">' +
        '<div class="btn" id="place">Place order</div>';
      document.getElementById('place').addEventListener('click', () => { document.body.innerHTML = '<header>Order placed</header>'; });
    });
  </script></body>`,
);

it('records taps and typing as mobile actions with screenshots, and the recording becomes guidance', async () => {
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  const blobs = new MemoryBlobStore();
  try {
    await page.setContent(APP, { waitUntil: 'load' });
    const recorder = await startRecorder(page, blobs, { settleMs: 150 });
    // The "person" (who pauses between actions, as people do).
    await page.mouse.click(...TAPS.burgerPalace);
    await recorder.idle();
    await page.locator('#addr').waitFor();
    const box = (await page.locator('#addr').boundingBox())!;
    await page.mouse.click(box.x + 40, box.y + box.height / 2);
    await recorder.idle();
    await page.keyboard.type('42 Main St');
    await recorder.idle();
    const place = (await page.locator('#place').boundingBox())!;
    await page.mouse.click(place.x + place.width / 2, place.y + place.height / 2);
    const steps = await recorder.finish();

    expect(steps.map((s) => s.action.action)).toEqual(['click', 'click', 'type', 'click']);
    expect(steps[0]!.action).toEqual({ action: 'click', coordinate: [...TAPS.burgerPalace] });
    expect(steps[2]!.action).toEqual({ action: 'type', text: '42 Main St' });
    for (const s of steps) {
      expect(await blobs.has(s.before.screenshotKey)).toBe(true);
      expect(s.before).toMatchObject({ width: VIEWPORT.width, height: VIEWPORT.height });
    }
    // Each step's before is the previous step's after; the screens changed where the app changed.
    for (let i = 1; i < steps.length; i++) expect(steps[i]!.before).toEqual(steps[i - 1]!.after);
    expect(steps[0]!.after.screenshotKey).not.toBe(steps[0]!.before.screenshotKey);

    const g = await synthesizeGuidance(
      { describer: inProcessModel('ref-guide-describer', guideDescriberRole, ocr), qc: inProcessModel('ref-guide-qc', guideQcRole, ocr), synth: inProcessModel('ref-guide-synth', guideSynthRole, ocr) },
      blobs,
      { id: 'recording-1', source: 'human', instruction: 'Order from Burger Palace to 42 Main St', steps: steps.map((s) => ({ ...s })) },
    );
    expect(g.source).toBe('human');
    expect(g.steps[0]).toBe('tap Burger Palace');
    expect(g.steps).toContain('tap Place order');
    expect(g.steps.some((l) => /^enter "42 Main St" into the .+ field$/.test(l))).toBe(true);
  } finally {
    await page.close();
  }
});
