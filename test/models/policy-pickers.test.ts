import { describe, expect, it } from 'vitest';
import { requestCore } from '../../models/reference/roles/intent.js';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { fieldStep, filledOnScreen, formFields, formValues, submitButton, understandForm } from '../../models/reference/roles/policy-form.js';
import { findSteppers, type Stepper } from '../../models/reference/roles/policy-vision.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * A form of pickers, chips and a stepper behind an "Add" button on the tab that holds the place the request names
 * ("put X on the menu"), and the context sentences such a request comes in. Every request and screen here is invented
 * (a party-planning app "Hostly"); none is a built-in app's.
 */
const line = (text: string, x: number, y: number, w = 120, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };

/** Hostly's "Add a dish" form: a dish picker, a day picker, course chips wrapping onto a second row, a guests stepper. */
const dishForm = (guests?: number): OcrLine[] => [
  line('9:41', 12, 6, 36, 18),
  line('Add a dish', 65, 47, 117, 20),
  line('Save', 349, 48, 46, 19),
  line('Dish', 24, 146, 40, 18),
  line('Choose a dish', 42, 187, 126, 20),
  line('Day', 22, 257, 36, 21),
  line('Saturday (today)', 41, 297, 140, 23),
  line('Course', 23, 369, 60, 18),
  line('Starter', 40, 407, 70, 18),
  line('Main', 152, 406, 50, 21),
  line('Dessert', 241, 406, 70, 21),
  line('Drinks', 40, 457, 60, 18),
  line('Guests', 24, 523, 72, 21),
  ...(guests !== undefined ? [line(String(guests), 98, 562, 12, 20)] : []),
  line('How many people are coming', 24, 600, 245, 20),
];
const glyphs = (): Stepper['minus'][] => [
  { text: '−', box: { x: 42, y: 571, w: 12, h: 3 }, confidence: 0.9 },
  { text: '+', box: { x: 154, y: 566, w: 12, h: 12 }, confidence: 0.9 },
];

describe('policy: a request in context sentences about a thing to put somewhere', () => {
  it('"…, so I\'m making X for C. Can you put it on the menu in App?" is one request with the day, the course and the count', () => {
    const core = requestCore("We're hosting on Friday, so I'm making Lemon tart for Dessert. Can you put it on the menu in Hostly? Make it 6 servings.");
    expect(core).toBe('Put Lemon tart on the menu in Hostly on Friday for Dessert. Make it 6 servings.');
  });

  it('a weekday alone or a contraction ("We\'ve") is never the thing a pronoun stands for', () => {
    const core = requestCore("We've got friends over on Sunday, so I'm doing Garlic bread for Starter. Please put it on the menu in Hostly.");
    expect(core).toMatch(/^Put Garlic bread on the menu in Hostly on Sunday for Starter\./);
  });

  it('"so I can …" stays a purpose clause (not a statement of its own)', () => {
    expect(requestCore('Add Lemon tart to my menu in Hostly so I can plan ahead.')).toBe('Add Lemon tart to my menu in Hostly.');
  });

  it('reads a count of things as a number cued by its noun ("6 servings", "for 4 guests"), not a duration', () => {
    const vs = formValues('then Lemon tart on the menu for 4 guests. Make it 6 servings. It takes 40 minutes');
    expect(vs).toEqual(expect.arrayContaining([
      expect.objectContaining({ value: '4 guests', input: '4', kind: 'number' }),
      expect.objectContaining({ value: '6 servings', input: '6', kind: 'number' }),
    ]));
    expect(vs.some((v) => v.input === '40')).toBe(false);
  });

  it('the thing right after the verb runs through its lower-case words ("Lemon tart"), the app named by "in App on Friday" is no value', () => {
    const plan = understandForm('Put Lemon meringue tart on the menu in Hostly on Friday for Dessert. Make it 6 servings.')!;
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'Hostly' });
    const open = plan.goals[1] as { targets: string[]; via?: string[]; form: { value: string }[] };
    // "the menu" is where it goes, not its kind: no "Put menu" button; the place's section is looked for on the way.
    expect(open.targets).toEqual(['Put', 'Add']);
    expect(open.via).toEqual(['Menu']);
    expect(open.form.map((v) => v.value).sort()).toEqual(['6 servings', 'Dessert', 'Friday', 'Lemon meringue tart']);
  });

  it('"Add X to my App <noun> plan": the place is the head noun after the app', () => {
    const plan = understandForm('Add Garlic bread to my Hostly party plan for Sunday Starter, 8 servings.')!;
    const open = plan.goals[1] as { targets: string[]; via?: string[] };
    expect(open.via).toContain('Plan');
    expect(open.targets[0]).not.toMatch(/plan/i);
  });
});

describe('policy: a form of pickers, chips and a stepper', () => {
  it('a chip wrapped onto a row of its own is no label; the stepper\'s label has no input', () => {
    const fields = formFields(dishForm(), screen);
    expect(fields.map((f) => f.label.text)).toEqual(['Dish', 'Day', 'Course', 'Guests']);
    expect(fields.find((f) => f.label.text === 'Guests')!.input).toBeUndefined();
  });

  it('a day goes in a picker that shows another day ("Day · Saturday (today)")', () => {
    const values = formValues('then Lemon tart on the menu on Friday for Dessert');
    const i = values.findIndex((v) => v.value === 'Friday');
    const st = fieldStep(values, i, dishForm(), screen, undefined);
    expect(st).toMatchObject({ do: 'tap', line: { text: 'Saturday (today)' } });
  });

  it('a chip in a row of three is not filled by being shown', () => {
    const values = formValues('then Lemon tart on the menu on Friday for Dessert');
    const i = values.findIndex((v) => v.value === 'Dessert');
    expect(filledOnScreen(values, i, dishForm(), screen)).toBe(false);
  });

  it('finds a − N + stepper from its glyphs, with the count between them when read', () => {
    const st = findSteppers(glyphs(), dishForm(2));
    expect(st).toHaveLength(1);
    expect(st[0]!.value).toBe(2);
    expect(findSteppers(glyphs(), dishForm())[0]!.value).toBeUndefined();
    // A lone "+" (an Add button) is no stepper; one with a count just left of it is (its "−" greyed out at the minimum).
    expect(findSteppers([glyphs()[1]!], dishForm())).toEqual([]);
    expect(findSteppers([glyphs()[1]!], dishForm(2))).toMatchObject([{ value: 2, plus: glyphs()[1] }]);
  });

  it('taps "+" until the count shows, then keeps it and goes on', () => {
    const values = formValues('then Lemon tart on the menu. Make it 4 servings for 4 guests');
    const i = values.findIndex((v) => v.value === '4 guests');
    const up = fieldStep(values, i, dishForm(2), screen, undefined, findSteppers(glyphs(), dishForm(2)));
    expect(up).toMatchObject({ do: 'tap', point: [160, 572], state: 'stepper 1' });
    const again = fieldStep(values, i, dishForm(3), screen, 'stepper 1', findSteppers(glyphs(), dishForm(3)));
    expect(again).toMatchObject({ do: 'tap', state: 'stepper 2' });
    expect(fieldStep(values, i, dishForm(4), screen, 'stepper 2', findSteppers(glyphs(), dishForm(4)))).toMatchObject({ do: 'kept' });
    // Down with "−".
    const down = fieldStep(values, i, dishForm(7), screen, undefined, findSteppers(glyphs(), dishForm(7)));
    expect(down).toMatchObject({ do: 'tap', point: [48, 573] });
  });

  it('the whole flow: a count already shown moves on to the next value on the same screen', () => {
    const req = 'Put Lemon tart on the party plan in Hostly on Friday for Dessert, for 4 guests.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const gi = plan.goals.findIndex((g) => g.kind === 'field' && (g as { values: { value: string }[]; index: number }).values[(g as { index: number }).index]!.value === '4 guests');
    expect(gi).toBeGreaterThan(0);
    const hist = plan.goals.slice(0, gi).map((g, i) => `Did ${g.text}. [goal ${i + 1}/${n} done]`);
    const d = decide({ instruction: req, guidance: [], history: hist, lines: dishForm(4), screen, temperature: 0, random: mulberry32(1), steppers: findSteppers(glyphs(), dishForm(4)) });
    // (The count shows: nothing more to tap on the stepper; the next value, on this screen, is chosen.)
    expect(d.conclusion).toMatch(/Chose "Dessert"/);
    expect(d.conclusion).not.toMatch(/Tapped "[+−]"/);
  });

  it('submits with the top bar\'s Save, not a label that shares a word with the request ("Guests")', () => {
    expect(submitButton(dishForm(4), screen, ['put', 'add'], ['lemon', 'tart', 'menu', 'guests'])?.text).toBe('Save');
  });
});
