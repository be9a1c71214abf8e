/**
 * A control whose only mark is a glyph the OCR stand-in cannot read (a stepper's "+" in white on a coloured pill):
 * the pixels say it is a plus (policy-vision.ts `detectSymbols`, letters and hyphens are not), the describer names a
 * tap on it by the glyph and its row, and the reference policy, reading "tap + next to <row>" as text, taps that
 * glyph on that row — not the other row's, not the count.
 */
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createOcrEngine } from '../../models/ocr.js';
import { guideDescriberRole } from '../../models/reference/roles/guide-describer.js';
import { decide } from '../../models/reference/roles/policy.js';
import { detectSymbols } from '../../models/reference/roles/policy-vision.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { circleInteraction } from '../../synthesis/annotate.js';
import { launch, render } from '../critics/screens.js';

let browser: Browser;
let ocr: OcrEngine;
beforeAll(async () => {
  [browser, ocr] = await Promise.all([launch(), createOcrEngine()]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

const stepper = (n: number): string =>
  `<div style="position:absolute;right:16px;top:12px;display:flex;align-items:center;background:#d33;color:#fff;border-radius:20px;height:40px;font:bold 24px sans-serif">
     <span style="padding:0 14px">−</span><span style="padding:0 6px;font-size:18px">${n}</span><span style="padding:0 14px">+</span></div>`;
const row = (title: string, sub: string, control: string): string =>
  `<div style="position:relative;height:84px;border-bottom:1px solid #ddd;padding:12px 16px;box-sizing:border-box;font-family:sans-serif">
     <div style="font-weight:bold;font-size:19px">${title}</div><div style="color:#555;font-size:15px">${sub}</div>${control}</div>`;
const menu = (a: number, b: number): string =>
  `<html><body style="margin:0;background:#fff"><div style="background:#d33;color:#fff;font:bold 21px sans-serif;padding:14px">Burger Palace</div>
   ${row('Classic Burger', 'Beef patty - cheddar, extra pickles', stepper(a))}${row('Veggie Burger', 'Grilled tofu, lettuce + tomato', stepper(b))}
   ${row('Fries', 'Salted, twice cooked', '<div style="position:absolute;right:16px;top:20px;border:2px solid #d33;color:#d33;border-radius:18px;padding:4px 14px;font:bold 17px sans-serif">Add</div>')}
   </body></html>`;

const pixels = async (png: Uint8Array) => {
  const r = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: r.data, width: r.info.width, height: r.info.height, channels: r.info.channels };
};
const url = (png: Uint8Array): string => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;

it('reads the plus and minus glyphs of both steppers, and no letter or hyphen', async () => {
  const img = await pixels(await render(browser, menu(1, 2)));
  const found = detectSymbols(img.data, img.width, img.height, img.channels);
  const right = found.filter((g) => g.box.x > 200);
  // One pair per burger row (rows at ~50–134 and ~134–218 px), minus left of plus.
  const inRow = (top: boolean): string[] => right.filter((g) => (g.box.y < 134) === top).sort((a, b) => a.box.x - b.box.x).map((g) => g.text);
  expect(inRow(true)).toEqual(['−', '+']);
  expect(inRow(false)).toEqual(['−', '+']);
  // In the text, the plus of "lettuce + tomato" is a plus too; the hyphen of "Beef patty - cheddar" and letters are not.
  expect(found.filter((g) => g.box.x <= 200).map((g) => g.text)).toEqual(['+']);
});

it('the describer names a tap on the "+" by the glyph and its row; the policy taps that glyph on that row from the text', async () => {
  const before = await render(browser, menu(1, 2));
  const after = await render(browser, menu(2, 2));
  const img = await pixels(before);
  const plus = detectSymbols(img.data, img.width, img.height, img.channels).filter((g) => g.text === '+').sort((a, b) => a.box.y - b.box.y);
  const first = plus[0]!.box;
  const at: [number, number] = [Math.round(first.x + first.w / 2), Math.round(first.y + first.h / 2)];
  const marked = await circleInteraction(before, { action: 'click', coordinate: at });
  const reply = await guideDescriberRole(
    {
      model: 'ref-guide-describer',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Action: tap at the circled point' }, ...[marked, before, after].map((p) => ({ type: 'image_url' as const, image_url: { url: url(p) } }))] }],
    },
    { ocr, random: Math.random },
  );
  const d = JSON.parse(String(reply.content)) as { target: string; row?: string; changed: boolean };
  expect(d).toMatchObject({ target: '+', row: 'Classic Burger', changed: true });

  // The policy reads the guidance line as text; the OCR lines carry no "+", so it reads the glyphs off the pixels.
  const lines = [...(await ocr.recognize(Buffer.from(before))), ...detectSymbols(img.data, img.width, img.height, img.channels)];
  const veggie = plus[1]!.box;
  for (const [name, box] of [['Classic Burger', first], ['Veggie Burger', veggie]] as const) {
    const out = decide({ instruction: 'Order two burgers', guidance: [`tap + next to ${name}`], history: [], lines, screen: { width: img.width, height: img.height }, temperature: 0, random: Math.random });
    expect(out.action.action).toBe('click');
    const [x, y] = (out.action as { coordinate: [number, number] }).coordinate;
    expect(x >= box.x - 4 && x <= box.x + box.w + 4 && y >= box.y - 4 && y <= box.y + box.h + 4, `${name}: ${x},${y} vs ${JSON.stringify(box)}`).toBe(true);
  }
}, 120_000);
