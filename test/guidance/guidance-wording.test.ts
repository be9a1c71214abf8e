/**
 * Guidance wording that survives a fresh episode: the describer names a tapped card by its title and a repeated
 * label ("Add" on every menu row) by its row; the synthesiser strips counts and prices from labels ("View cart · 1
 * item" → "View cart"), merges a repeated tap into one line with a count, and finds a per-episode address even when
 * the note's text wraps over two OCR lines; the reference policy reads all of it as text.
 */
import { describe, expect, it } from 'vitest';
import type { OcrLine } from '../../domain/ports.js';
import { rowTitle, titleOf, visiblyChanged } from '../../models/reference/roles/guide-describer.js';
import { guideSynthRole, stableLabel } from '../../models/reference/roles/guide-synth.js';
import { guidanceGoals } from '../../models/reference/roles/policy-guidance.js';
import { parseGoals } from '../../models/reference/roles/policy-intent.js';
import { decide } from '../../models/reference/roles/policy.js';
import { imperative } from '../../models/reference/roles/reasoning.js';
import type { RoleContext } from '../../models/reference/types.js';

const synth = async (steps: unknown[]): Promise<string[]> => {
  const r = await guideSynthRole({ model: 'ref-guide-synth', messages: [{ role: 'user', content: JSON.stringify({ task: 't', steps }) }] }, {} as RoleContext);
  return (JSON.parse(String(r.content)) as { steps: string[] }).steps;
};
const line = (text: string, y: number, x = 24, h = 20): OcrLine => ({ text, box: { x, y, w: 8 * text.length, h }, confidence: 0.99 });
const SCREEN = { width: 412, height: 915 };
const TAP = 'tap at the circled point';

// A menu: every dish row has its own "Add" button at the right, a little below the dish name.
const MENU = [line('Pizza Roma', 60, 60), line('Margherita Pizza', 200), line('Tomato, basil', 226), line('Add', 215, 330), line('Pepperoni Pizza', 320), line('Spicy salami', 346), line('Add', 335, 330)];

describe('describer: which thing was touched', () => {
  it('names a card by its title, not by the detail line under the finger', () => {
    // A product card: name, price, colours stacked at the same left edge; the tap landed on the price.
    const card = [line('Fleece Pullover Hoodie', 250, 110), line('$45.99', 276, 110), line('3 colours · S-XL', 300, 110), line('Heavyweight Hoodie', 380, 110)];
    expect(titleOf(card, card[1]!).text).toBe('Fleece Pullover Hoodie');
    expect(titleOf(card, card[2]!).text).toBe('Fleece Pullover Hoodie');
    // The next card (a bigger gap) is another stack.
    expect(titleOf(card, card[3]!).text).toBe('Heavyweight Hoodie');
  });

  it('names the row of a label that is repeated on the screen, and no row for a unique one', () => {
    expect(rowTitle(MENU, MENU[6]!)).toBe('Pepperoni Pizza');
    expect(rowTitle(MENU, MENU[3]!)).toBe('Margherita Pizza');
    expect(rowTitle(MENU, MENU[0]!)).toBeUndefined();
  });

  it('counts a glyph-sized change (a cart badge 1 → 2) as visible, not a blinking caret or nothing', () => {
    const px = 412 * 915;
    expect(visiblyChanged({ share: 44 / px, box: { w: 8, h: 10 } }, px)).toBe(true);
    expect(visiblyChanged({ share: 40 / px, box: { w: 2, h: 20 } }, px)).toBe(false);
    expect(visiblyChanged({ share: 0, box: { w: 0, h: 0 } }, px)).toBe(false);
    expect(visiblyChanged({ share: 0.01, box: { w: 400, h: 800 } }, px)).toBe(true);
  });
});

describe('synthesiser: lines that hold on another episode', () => {
  it('strips what changes between visits from a label, and keeps labels that are numbers or addresses', () => {
    expect(stableLabel('View cart · 1 item')).toBe('View cart');
    expect(stableLabel('Cart (2')).toBe('Cart');
    expect(stableLabel('Add to cart')).toBe('Add to cart');
    expect(stableLabel('Size XL')).toBe('Size XL');
    expect(stableLabel('Size 43')).toBe('Size 43');
    expect(stableLabel('00')).toBe('00');
    expect(stableLabel('12 Baker Street')).toBe('12 Baker Street');
  });

  it('merges a repeated tap into one line with a count and names a repeated label by its row', async () => {
    const steps = await synth([
      { action: 'open the app "ShopMart"', target: 'ShopMart' },
      { action: TAP, target: 'Add to cart' },
      { action: TAP, target: 'Add to cart' },
      { action: TAP, target: 'Add to cart' },
      { action: TAP, target: 'Cart (3' },
      { action: TAP, target: 'Add', row: 'Pepperoni Pizza' },
      { action: TAP, target: 'View cart · 1 item' },
    ]);
    expect(steps).toEqual(['open ShopMart', 'tap Add to cart 3 times', 'tap Cart', 'tap Add next to Pepperoni Pizza', 'tap View cart']);
  });

  it('finds an address that wrapped over two lines of a note in another app, and never copies it', async () => {
    const steps = await synth([
      { action: 'open the app "Notes"', target: 'Notes', visible: ['Notes', 'Dinner plans'] },
      { action: TAP, target: 'Dinner plans', visible: ['Dinner plans', 'Friday with Sam and Alex. Deliver to 48 Maple', 'Avenue. Ring the bell twice.'] },
      { action: 'open the app "Foodie"', target: 'Foodie', visible: ['Foodie'] },
      { action: TAP, target: 'Street and number', visible: ['Checkout'] },
      { action: 'type "48 Maple Avenue"', target: '48 Maple Avenue', visible: ['48 Maple Avenue'] },
    ]);
    expect(steps).toEqual(['open Notes', 'read the address from Dinner plans in Notes', 'open Foodie', 'enter the address from Notes into the Street and number field']);
    expect(steps.join('\n')).not.toContain('Maple');
  });
});

describe('policy: reading these lines', () => {
  it('"tap X 3 times" is three taps; "tap Add next to Y" is a tap on Y\'s row', () => {
    const goals = guidanceGoals(['tap Add to cart 3 times', 'tap Add next to Pepperoni Pizza'], parseGoals);
    expect(goals.map((g) => g.kind)).toEqual(['tap', 'tap', 'tap', 'tap']);
    expect(goals[3]).toMatchObject({ kind: 'tap', targets: ['Add'], row: 'Pepperoni Pizza' });
  });

  it('taps the Add on the named row, not the first Add on the screen', () => {
    const d = decide({ instruction: 'Order a pizza.', guidance: ['open Foodie', 'tap Add next to Pepperoni Pizza'], history: ['Opened Foodie. [goal 1/2 done]'], lines: MENU, screen: SCREEN, temperature: 0, random: () => 0.5 });
    expect(d.action.action).toBe('click');
    const [, y] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(y).toBeGreaterThan(330);
    expect(y).toBeLessThan(360);
  });

  it('finds a stable label inside a line with a count, but a bare number never takes a time', () => {
    const bar = [line('Pizza Roma', 60, 60), line('View cart · 1 item $14.99', 860)];
    const d = decide({ instruction: 'Order a pizza.', guidance: ['open Foodie', 'tap View cart'], history: ['Opened Foodie. [goal 1/2 done]'], lines: bar, screen: SCREEN, temperature: 0, random: () => 0.5 });
    expect(d.action.action).toBe('click');
    expect((d.action as { coordinate: [number, number] }).coordinate[1]).toBeGreaterThan(855);
    // A number that belongs to the label is no count: "Size 4" never takes "Size 43".
    const sizes = [line('ShopMart', 60, 60), line('Size 43', 400), line('Size 44', 450)];
    const z = decide({ instruction: 'Buy shoes.', guidance: ['open ShopMart', 'tap Size 4'], history: ['Opened ShopMart. [goal 1/2 done]'], lines: sizes, screen: SCREEN, temperature: 0, random: () => 0.5 });
    expect(z.action.action).not.toBe('click');
    const alarms = [line('Alarms', 60, 60), line('7:00 AM', 200), line('8:30 AM', 300)];
    const t = decide({ instruction: 'Set an alarm.', guidance: ['open Clock', 'tap 7'], history: ['Opened Clock. [goal 1/2 done]'], lines: alarms, screen: SCREEN, temperature: 0, random: () => 0.5 });
    expect(t.action.action).not.toBe('click');
  });

  it('the reasoner words its Next line the same way, so the action predicted from it alone is the right Add', () => {
    expect(imperative({ action: 'click' }, 'Tapped "Add" for "Churros" (1 of 1). [goal 3/4 done]')).toBe('tap Add next to Churros');
    expect(imperative({ action: 'click' }, 'Tapped "View cart · 1 item". [goal 4/4 done]')).toBe('tap View cart');
    const d = decide({ instruction: 'Order a pizza.', guidance: ['Next: tap Add next to Pepperoni Pizza'], history: [], lines: MENU, screen: SCREEN, temperature: 0, random: () => 0.5 });
    expect((d.action as { coordinate: [number, number] }).coordinate[1]).toBeGreaterThan(330);
  });
});

describe('policy: a field named by a placeholder with a comma', () => {
  it('"enter "V" into the 7 digits, on the label field" is one typing step into that field, not two steps', () => {
    const goals = guidanceGoals(['enter "6648320" into the 7 digits, on the label field', 'tap Submit transfer'], parseGoals);
    expect(goals.map((g) => g.kind)).toEqual(['type', 'tap']);
    expect(goals[0]).toMatchObject({ kind: 'type', value: '6648320', words: ['7 digits, on the label'] });
  });
});

describe('policy: a guidance tap keeps the whole label', () => {
  it('"tap The Waffle Spot" looks for "The Waffle Spot" first (the step parser drops the article)', () => {
    const [g] = guidanceGoals(['tap The Waffle Spot'], parseGoals);
    expect(g).toMatchObject({ kind: 'tap', min: 0.9 });
    expect((g as { targets: string[] }).targets[0]).toBe('The Waffle Spot');
    const lines = [line('Foodie', 60, 60), line('Burger Palace', 200), line('The Waffle Spot', 320)];
    const out = decide({ instruction: 'Order a waffle', guidance: ['open Foodie', 'tap The Waffle Spot'], history: ['Opened the Foodie app. [goal 1/2 done]'], lines, screen: SCREEN, temperature: 0, random: Math.random });
    expect(out.action).toMatchObject({ action: 'click' });
    const [, y] = (out.action as { coordinate: [number, number] }).coordinate;
    expect(y).toBeGreaterThanOrEqual(320);
    expect(y).toBeLessThanOrEqual(340);
  });
});
