import { expect, it } from 'vitest';
import { PolicyMemory, slotEntities } from '../../models/reference/memory.js';
import { labelStem, procedureOf, procedureSlots, type ProcedureStep } from '../../models/reference/procedure.js';
import { decide } from '../../models/reference/roles/policy.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * A tapped label that ends in a value read off the screen (an amount on a button) is written down by its stem, so a
 * learned procedure transfers to another item whose button shows another amount (found on Bank's pay_bill: the
 * procedure "tap Pay $142.10" failed on every other bill; the held-out measurement is bench/cold-start.ts).
 */
const slotsOf = (instruction: string): Map<string, string> => procedureSlots(instruction, slotEntities(instruction));
const click = (label: string): ProcedureStep => ({ action: { action: 'click', coordinate: [200, 400] }, label });
const PAY_GAS: ProcedureStep[] = [{ action: { action: 'open', text: 'Bank' } }, click('Bills'), click('Metro Energy Gas'), click('Pay $38.75'), click('Pay now'), { action: { action: 'terminate', status: 'success' } }];

it('label stems: an amount or count after a separator or $ is dropped; other labels stay whole', () => {
  expect(labelStem('Pay $142.10')).toBe('Pay');
  expect(labelStem('View cart · 1 item')).toBe('View cart');
  expect(labelStem('Cart (')).toBe('Cart');
  expect(labelStem('Sam (work)')).toBe('Sam (work)');
  expect(labelStem('Size 43')).toBe('Size 43');
  expect(labelStem('$25')).toBe('$25');
  expect(labelStem('Pay now')).toBe('Pay now');
  expect(labelStem('Go ($5)')).toBe('Go ($5)'); // fewer than three letters: no stem
});

it('the learned procedure names the stem, and the request\'s own value stays a slot', () => {
  const steps = procedureOf(PAY_GAS, slotsOf('Pay what I owe Metro Energy Gas from my bank account.'))!;
  expect(steps).toEqual(['open Bank', 'tap Bills', expect.stringMatching(/^tap \{e\d+\}$/), 'tap Pay', 'tap Pay now']);
});

it('recalled for another bill, the stem step taps that bill\'s own Pay button', () => {
  const m = new PolicyMemory('0.1.1');
  m.addProcedure('Pay what I owe Metro Energy Gas from my bank account.', PAY_GAS);
  const recall = m.recallProcedure('Pay what I owe Northside Mobile from my bank account.');
  expect(recall?.steps).toEqual(['open Bank', 'tap Bills', 'tap Northside Mobile', 'tap Pay', 'tap Pay now']);
  const line = (text: string, y: number): OcrLine => ({ text, box: { x: 40, y, w: 200, h: 24 }, confidence: 0.9 });
  const billScreen = [line('Bill', 60), line('Northside Mobile', 160), line('Amount due', 250), line('$55.00', 250), line('Pay from', 330), line('Pay $55.00', 420)];
  const history = ['Opened the Bank app. [goal 1/5 done]', 'Tapped "Bills". [goal 2/5 done]', 'Tapped "Northside Mobile". [goal 3/5 done]'];
  const d = decide({ instruction: 'Pay what I owe Northside Mobile from my bank account.', guidance: recall!.steps, history, lines: billScreen, screen: { width: 412, height: 915 }, temperature: 0, random: () => 0.5 });
  expect(d.action).toMatchObject({ action: 'click' });
  expect((d.action as { coordinate: [number, number] }).coordinate[1]).toBeGreaterThan(420);
  expect((d.action as { coordinate: [number, number] }).coordinate[1]).toBeLessThan(444);
});
