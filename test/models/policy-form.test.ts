import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { assignFields, fieldStep, filledOnScreen, formFields, formValues, submitButton, understandForm } from '../../models/reference/roles/policy-form.js';
import { tabRow } from '../../models/reference/roles/policy-screen.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Form filling field by field, the tab walk and in-app threshold alerts (issue 17, helper B). Every screen and request
 * here is invented (a gift-card app, a parcel app, a plant-care app); none is a built-in app's.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const step = (instruction: string, history: string[], lines: OcrLine[]) => decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });

/** A gift-card app's form: a picker (Recipient), a money input with a "$" prefix, a message input, a Continue button. */
const giftForm = (recipient = 'Pick a friend', value = '0.00', message = 'Say something nice'): OcrLine[] => [
  line('9:41', 10, 6, 40, 16),
  line('New gift card', 20, 44, 160, 24),
  line('Recipient', 20, 110, 90),
  line(recipient, 24, 140, 150),
  line('Value', 20, 200, 60),
  line('$', 24, 232, 10),
  line(value, 44, 230, 60),
  line('Message (optional)', 20, 290, 150),
  line(message, 24, 320, 170),
  line('Paid from', 20, 380, 80),
  line('Main wallet', 250, 380, 120),
  line('Continue', 170, 460, 80),
];

describe('policy: a request with several values fills a form field by field', () => {
  const req = 'Send a $30 gift card to Noor Haddad with the message Happy birthday.';

  it('reads each value with its kind and the words that name its field', () => {
    const vs = formValues('$30 to Noor Haddad with the message Happy birthday');
    expect(vs).toEqual(expect.arrayContaining([
      expect.objectContaining({ value: 'Happy birthday', kind: 'text', cues: ['message'] }),
      expect.objectContaining({ value: '$30', input: '30', kind: 'amount' }),
      expect.objectContaining({ value: 'Noor Haddad', kind: 'name', cues: expect.arrayContaining(['to']) }),
    ]));
    // A sentence's first word is no name ("Put "X" as the note.").
    expect(formValues('$12 to Noor Haddad. Put "Lunch" as the note.').map((v) => v.value)).toEqual(expect.arrayContaining(['Lunch', '$12', 'Noor Haddad']));
    expect(formValues('$12 to Noor Haddad. Put "Lunch" as the note.').map((v) => v.value)).not.toContain('Put');
    // A purpose ("for bike repairs") is a text; a reference number is a number; "from X" cues a source field.
    const ship = formValues('parcel 88213 for bike repairs from Lindqvist Depot');
    expect(ship).toEqual(expect.arrayContaining([
      expect.objectContaining({ value: '88213', kind: 'number', cues: expect.arrayContaining(['parcel']) }),
      expect.objectContaining({ value: 'bike repairs', kind: 'text', cues: ['for'] }),
      expect.objectContaining({ value: 'Lindqvist Depot', kind: 'name', cues: expect.arrayContaining(['from']) }),
    ]));
  });

  it('plans: the app, the button that opens the form, one field goal per value, submit, confirm', () => {
    const plan = understandForm(req)!;
    expect(plan).toBeDefined();
    expect(plan.goals.map((g) => g.kind)).toEqual(['open', 'tap', 'field', 'field', 'field', 'submit', 'tap']);
    expect(plan.goals[1]).toMatchObject({ kind: 'tap', targets: expect.arrayContaining(['Send money', 'Send']) });
    // One value only, or no typed value: no form.
    expect(understandForm('Borrow Quiet Harbor from the library')).toBeUndefined();
    expect(understandForm('Pay my Harbor Gas bill')).toBeUndefined();
  });

  it('matches fields by label and placeholder: amount → Value ($ 0.00), person → Recipient, message → Message', () => {
    const values = (understandForm('Send $30 to Noor Haddad with the message Happy birthday')!.goals[2] as { values: ReturnType<typeof formValues> }).values;
    const fields = formFields(giftForm(), screen);
    expect(fields.map((f) => f.label.text)).toEqual(['Recipient', 'Value', 'Message (optional)']);
    // "Paid from / Main wallet" is a key–value row, no field; the "$" beside "0.00" is not the input.
    expect(fields[1]!.input!.text).toBe('0.00');
    const a = assignFields(values, fields);
    const by = (v: string) => a.get(values.findIndex((x) => x.value === v))?.label.text;
    expect(by('Happy birthday')).toBe('Message (optional)');
    expect(by('$30')).toBe('Value');
    expect(by('Noor Haddad')).toBe('Recipient');
    expect(submitButton(giftForm(), screen, ['send'])?.text).toBe('Continue');
  });

  it('an unnamed field takes what is left, and a placeholder example of the same shape takes its value', () => {
    const values = (understandForm('Register Monstera Deliciosa, tag 5512093, from Greenway Nursery')!.goals[2] as { values: ReturnType<typeof formValues> }).values;
    const form = [
      line('Register a plant', 20, 44, 160, 24),
      line('Plant', 20, 110, 60), line('e.g. Ficus Lyrata', 24, 140, 170),
      line('Tag number', 20, 200, 90), line('7 digits', 24, 230, 80),
      line('Previous owner', 20, 290, 120), line('Shop or person', 24, 320, 130),
      line('Register plant', 150, 400, 120),
    ];
    const a = assignFields(values, formFields(form, screen));
    const by = (v: string) => a.get(values.findIndex((x) => x.value === v))?.label.text;
    expect(by('5512093')).toBe('Tag number');
    expect(by('Greenway Nursery')).toBe('Previous owner');
    expect(by('Monstera Deliciosa')).toBe('Plant');
  });

  it('a name the form has no field for is skipped once the form shows (not looked for until the steps run out)', () => {
    const req = 'Move tag 5512093 (Monstera Deliciosa) over from Greenway Nursery to Plantly.';
    const plan = understandForm(req)!;
    const values = (plan.goals[2] as { values: ReturnType<typeof formValues> }).values;
    expect(values.map((v) => v.value)).toContain('Plantly');
    const n = plan.goals.length;
    const form = [
      line('Register a plant', 20, 44, 160, 24),
      line('Plant', 20, 110, 60), line('Monstera Deliciosa', 24, 140, 170),
      line('Tag number', 20, 200, 90), line('5512093', 24, 230, 80),
      line('Previous owner', 20, 290, 120), line('Greenway Nursery', 24, 320, 130),
      line('Save plant', 150, 400, 120),
    ];
    const hist = ['Opened Plantly. [goal 1/' + n + ' done]', 'Tapped "Move tag". [goal 2/' + n + ' done]'];
    const s = step(req, hist, form);
    expect(s.conclusion).toMatch(/^Tapped "Save plant"/);
  });

  it('steps: taps the field; a picker that opens offers the value (exact name, not its near-duplicate)', () => {
    const order = (understandForm(req)!.goals[2] as { values: { value: string }[] }).values.map((v) => v.value);
    const k = order.indexOf('Noor Haddad');
    const before = ['Opened the Giftly app. [goal 1/7 done]', 'Tapped "Send money". [goal 2/7 done]', ...order.slice(0, k).map((_, i) => `Filled. [goal ${i + 3}/7 done]`)];
    const s = step(req, before, giftForm());
    expect(s.conclusion).toMatch(new RegExp(`Tapped the field "Recipient" for "Noor Haddad"\\. \\[goal ${k + 3}/7: field #\\d+\\]`));
    expect(s.action).toMatchObject({ action: 'click', coordinate: [99, 150] });
    // The picker dialog: near-duplicate "Noor Hadad" listed first; the exact name is chosen.
    const dialog = [...giftForm(), line('Recipient', 60, 300, 100), line('Noor Hadad', 60, 350), line('Noor Haddad', 60, 400), line('Omar Haddad', 60, 450), line('Cancel', 280, 520, 60)];
    const pickIt = step(req, [...before, s.conclusion], dialog);
    expect(pickIt.conclusion).toMatch(/^Chose "Noor Haddad"/);
    expect(pickIt.action).toMatchObject({ action: 'click', coordinate: [140, 410] });
  });

  it('an input tapped leaves the screen as it was: the value is typed (the amount without its currency sign)', () => {
    const hist = ['Opened the Giftly app. [goal 1/7 done]', 'Tapped "Send money". [goal 2/7 done]'];
    const values = understandForm(req)!.goals.find((g) => g.kind === 'field');
    const order = (values as { values: { value: string }[] }).values.map((v) => v.value);
    const amountGoal = order.indexOf('$30') + 3;
    const before = [...hist, ...order.slice(0, order.indexOf('$30')).map((_, k) => `Filled. [goal ${k + 3}/7 done]`)];
    const tap = step(req, before, giftForm());
    expect(tap.conclusion).toMatch(new RegExp(`Tapped the field "Value" for "\\$30"\\. \\[goal ${amountGoal}/7: field #\\d+\\]`));
    // Focus styling hides the "$" prefix: one line fewer is still the same screen.
    const focused = giftForm().filter((l) => l.text !== '$');
    const typed = step(req, [...before, tap.conclusion], focused);
    expect(typed.action).toEqual({ action: 'type', text: '30' });
  });

  it('the button that opens the form is skipped when the form already shows, and submit is the button under the fields', () => {
    const req2 = 'Send $30 to Noor Haddad with the message Happy birthday.';
    const s = step(req2, ['Opened the Giftly app. [goal 1/7 done]'], giftForm('Noor Haddad', '30', 'Happy birthday'));
    expect(s.conclusion).toMatch(/^Tapped "Continue"/);
  });
});

describe('policy: a thing not on the first tab is looked for in the app\'s other tabs', () => {
  // (The plan's own tab walk: the search that takes over after SEARCH_AFTER looking steps is off here.)
  beforeAll(() => {
    process.env.TRAJFORGE_POLICY_SEARCH = 'off';
  });
  afterAll(() => {
    delete process.env.TRAJFORGE_POLICY_SEARCH;
  });
  const tabs = (rest: string[]): OcrLine[] => [
    line('9:41', 10, 6, 40, 16),
    line('Parcelo', 20, 44, 100, 24),
    line('Home', 20, 100, 50, 18), line('Parcels', 120, 100, 70, 18), line('Depots', 230, 100, 60, 18), line('Account', 320, 100, 70, 18),
    ...rest.map((t, i) => line(t, 20, 170 + i * 60)),
  ];

  it('reads a tab bar (three or more short labels across the screen), not a launcher', () => {
    expect(tabRow(tabs(['Welcome back']), screen).map((l) => l.text)).toEqual(['Home', 'Parcels', 'Depots', 'Account']);
    expect(tabRow([line('Only', 20, 100, 40), line('Two', 100, 100, 40)], screen)).toEqual([]);
  });

  it('after a scroll without the thing, opens a tab not tried yet (one sharing a word with the request first)', () => {
    const req = 'Track my parcel from Lindqvist Depot';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const gi = plan.goals.findIndex((g) => g.kind === 'tap' && (g as { entity?: boolean }).entity) + 1;
    expect(gi).toBeGreaterThan(0);
    const hist = [`Opened the Parcelo app. [goal 1/${n} done]`, `Swiped up to look for "Lindqvist Depot". [goal ${gi}/${n}: scroll 1]`];
    const s = step(req, hist, tabs(['Welcome back', 'Recent activity']));
    expect(s.conclusion).toMatch(new RegExp(`^Opened the "(Parcels|Depots)" tab .*\\[goal ${gi}/${n}: tab (Parcels|Depots)\\]`));
    const tried = /tab (\w+)\]/.exec(s.conclusion)![1]!;
    // That tab scrolled twice without it: the next untried tab, never the same one again.
    const more = [...hist, s.conclusion, `Swiped up. [goal ${gi}/${n}: scroll 1]`, `Swiped up. [goal ${gi}/${n}: scroll 2]`];
    const next = step(req, more, tabs(['Nothing here']));
    expect(next.conclusion).toMatch(/^Opened the "\w+" tab/);
    expect(next.conclusion).not.toContain(`"${tried}"`);
  });
});

describe('policy: an alert threshold is an in-app preference, not a phone setting', () => {
  it('"Alert me when X drops below $V" and "Set my low X alert to $V" fill the app\'s alert field', () => {
    for (const req of ['Alert me when my plant budget drops below $40.', 'Set my low budget alert to $40.', 'I want a warning if my budget goes under $40.']) {
      const goals = planTask(req, []).goals;
      expect(goals[0]).toMatchObject({ kind: 'open', target: undefined });
      expect(goals.find((g) => g.kind === 'fill')).toMatchObject({ value: '$40', via: expect.arrayContaining(['Alerts', 'Settings', 'More']) });
    }
    // A phone setting with a level still goes to the phone's Settings.
    expect(planTask('Set Font size to Large', []).goals[0]).toMatchObject({ kind: 'open', target: 'Settings' });
  });

  it('a label sharing only one of three words ("Total budget") is not the alert field; the tab that keeps settings is opened', () => {
    const req = 'Set my low budget alert to $40.';
    const goals = planTask(req, []).goals;
    const n = goals.length;
    const fi = goals.findIndex((g) => g.kind === 'fill') + 1;
    const home = [line('9:41', 10, 6, 40, 16), line('Plantly', 20, 44, 100, 24), line('Plants', 20, 100, 60, 18), line('Shop', 130, 100, 50, 18), line('More', 330, 100, 50, 18), line('Total budget', 20, 170, 120), line('$212.00', 20, 200, 90)];
    const s = step(req, [`Plantly is the app. [goal 1/${n} done]`, `No "My" tab. [goal 2/${n} done]`], home);
    expect(s.conclusion).toMatch(new RegExp(`^Opened "More" to look for .*\\[goal ${fi}/${n}: via 1\\]`));
  });
});

describe('policy: the verb\'s button on a page that also shows a field label starting with the verb', () => {
  it('taps "Renew $12.00", not the label "Renew from" above the account it names', () => {
    const req = 'Renew my Harbor Pass membership.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const gi = plan.goals.findIndex((g) => g.kind === 'tap' && (g as { words?: string[] }).words) + 1;
    const page = [line('9:41', 10, 6, 40, 16), line('Membership', 20, 44, 120, 24), line('Harbor Pass', 20, 110), line('Renew from', 20, 300, 100), line('Main wallet', 20, 330, 120), line('Renew $12.00', 140, 420, 120)];
    const hist = Array.from({ length: gi - 1 }, (_, k) => `Done. [goal ${k + 1}/${n} done]`);
    const s = step(req, hist, page);
    expect(s.conclusion).toMatch(/^Tapped "Renew \$12\.00"/);
  });
});

describe('policy: a confirmation dialog whose button is "<Verb> now"', () => {
  it('taps "Renew now" in the dialog after the verb\'s button, instead of assuming success', () => {
    const req = 'Renew my Harbor Pass membership.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const hist = Array.from({ length: n - 1 }, (_, k) => `Done. [goal ${k + 1}/${n} done]`);
    hist[n - 2] = `Tapped "Renew $12.00". [goal ${n - 1}/${n} done]`;
    const dialog = [line('9:41', 10, 6, 40, 16), line('Membership', 20, 44, 120, 24), line('Harbor Pass', 20, 110), line('Renew $12.00', 140, 420, 120), line('Renew this pass?', 40, 500, 200), line('Cancel', 150, 580, 60), line('Renew now', 260, 580, 90)];
    const s = step(req, hist, dialog);
    expect(s.conclusion).toMatch(/^Tapped "Renew now"/);
  });
});

describe('a value offered as an option of its own (after FreshFold)', () => {
  it('is chosen by tapping it, and its row is never a field for another value', () => {
    const screen = { width: 412, height: 915 };
    const lines = [
      line('9:41', 10, 6, 40, 16),
      line('Book a polish', 60, 44, 200, 24),
      line('WHICH SURFACE?', 16, 150, 160, 18),
      line('Oak Table', 52, 192, 120, 22),
      line('Solid wood, oiled · from $40', 52, 218, 240, 18),
      line('Marble Top', 52, 275, 120, 22),
      line('Stone, sealed · from $60', 52, 301, 240, 18),
      line('Notes', 26, 400, 80, 18),
      line('Anything we should know?', 40, 430, 240, 20),
    ];
    const values = formValues('then my Marble Top with the note Fragile edges');
    const i = values.findIndex((v) => v.value === 'Marble Top');
    const st = fieldStep(values, i, lines, screen, undefined);
    expect(st).toMatchObject({ do: 'tap', state: 'done', conclusion: 'Chose "Marble Top".' });
    // The note goes into the Notes field, never into the "Oak Table" row read as a label with a line under it.
    const note = fieldStep(values, values.findIndex((v) => v.value === 'Fragile edges'), lines, screen, undefined);
    expect(note.do).toBe('tap');
    expect((note as { conclusion: string }).conclusion).toMatch(/"Notes"/);
    // Shown as an option, a value is not filled in yet; "3 in the morning" is no length in inches.
    expect(filledOnScreen(values, i, lines, screen)).toBe(false);
    expect(formValues('then my Oak Table on June 3 in the 9–11 AM window').map((v) => v.value)).toContain('June 3');
  });
});

describe('a name followed only by lower-case words describing it is the same thing (after PawPoint)', () => {
  it('"Zyloxin 25 mg chewable" is "Zyloxin 25 mg"; "Zyloxin 75 mg chewable" and "Harbor Line Express" are not', async () => {
    const { matchScore } = await import('../../models/reference/roles/policy-screen.js');
    expect(matchScore('Zyloxin 25 mg chewable', 'Zyloxin 25 mg')).toBeGreaterThanOrEqual(0.85);
    expect(matchScore('Zyloxin 75 mg chewable', 'Zyloxin 25 mg')).toBeLessThan(0.75);
    expect(matchScore('Harbor Line Express', 'Harbor Line')).toBeLessThan(0.75);
  });
});

describe('a date no field of the first page takes is chosen on a later page of the flow (after FreshFold)', () => {
  const screen = { width: 412, height: 915 };
  it('defers the date on a page with no date field, then picks it where offered and goes on', () => {
    const page1 = [line('9:41', 10, 6, 40, 16), line('Book a polish', 60, 44, 200, 24), line('WHICH SURFACE?', 16, 150, 160, 18), line('Oak Table', 52, 192, 120, 22), line('Solid wood, oiled', 52, 218, 240, 18), line('Continue', 160, 760, 100, 22)];
    const values = formValues('then my Oak Table on Thursday, June 5');
    const i = values.findIndex((v) => v.kind === 'date');
    expect(fieldStep(values, i, page1, screen, undefined)).toEqual({ do: 'defer', value: values[i]!.value });
    const instruction = 'Schedule a GlowCo polish for Oak Table on Thursday, June 5.';
    const n = planTask(instruction, []).goals.length;
    const page2 = [line('9:41', 10, 6, 40, 16), line('Pick a day', 60, 44, 200, 24), line('Wed, Jun 4', 20, 200, 120, 22), line('Thu, Jun 5', 20, 260, 120, 22), line('Confirm booking', 140, 780, 160, 22)];
    const history = [`Left "June 5" for a later page of the form. [deferred June 5] [goal ${n - 2}/${n} done]`, `Tapped "Continue". [goal ${n}/${n} done]`];
    const pick = decide({ instruction, guidance: [], history, lines: page2, screen, temperature: 0, random: mulberry32(1) });
    expect(pick.conclusion).toMatch(/^Chose "Thu, Jun 5"\. \[picked June 5\] \[all goals done: later 1\]/);
    const go = decide({ instruction, guidance: [], history: [...history, pick.conclusion], lines: page2, screen, temperature: 0, random: mulberry32(1) });
    expect(go.conclusion).toMatch(/^Tapped "Confirm booking"\. \[all goals done: onward 2\]/);
  });
});

describe('a deferred date is chosen in a day strip, never from a sentence that mentions it (after FreshFold seeds 21–22)', () => {
  it('"Thu" over "5" is June 5; "Back Thu, Jun 5, 5–7 PM" is a description', () => {
    const screen = { width: 412, height: 915 };
    const instruction = 'Schedule a GlowCo polish for Oak Table on Thursday, June 5.';
    const n = planTask(instruction, []).goals.length;
    const page = [
      line('9:41', 10, 6, 40, 16), line('Pick a time', 60, 44, 200, 24),
      line('Tue', 28, 262, 30, 16), line('3', 36, 282, 14, 22), line('Thu', 168, 262, 30, 16), line('5', 176, 282, 14, 22),
      line('9–11 AM', 52, 440, 100, 22), line('Back Thu, Jun 5, 5–7 PM', 52, 464, 220, 18), line('Continue', 160, 860, 100, 22),
    ];
    const history = [`Left "June 5" for a later page of the form. [deferred June 5] [goal ${n - 2}/${n} done]`, `Tapped "Continue". [goal ${n}/${n} done]`];
    const d = decide({ instruction, guidance: [], history, lines: page, screen, temperature: 0, random: mulberry32(1) });
    expect(d.conclusion).toMatch(/^Chose "5"\. \[picked June 5\]/);
  });
});
