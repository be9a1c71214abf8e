import { describe, expect, it } from 'vitest';
import { foldContext, foldSharedCost, foldSharedEvent } from '../../models/reference/roles/policy-act.js';
import { understandEdit } from '../../models/reference/roles/policy-edit.js';
import { fieldStep, formFields, formValues, submitButton } from '../../models/reference/roles/policy-form.js';
import { viaLine } from '../../models/reference/roles/policy-screen.js';
import { CLEAR_FIELD_KEYS, decide, planTask } from '../../models/reference/roles/policy.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Changing one value of a thing kept inside another, and acting with a person inside a place (issue 17, session of
 * 2026-11-27, eighth: read off the thirteenth blind app's seeds 11–12). Every request and screen here is invented — no
 * built-in app's names, labels or data.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const step = (instruction: string, history: string[], lines: OcrLine[]) =>
  decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });
const doneUpTo = (goals: { text: string }[], at: number): string[] => goals.slice(0, at).map((g, i) => `Did "${g.text}". [goal ${i + 1}/${goals.length} done]`);

describe('changing one value of a thing the user has', () => {
  it('"Change the <field> of X in G to V": open X through G, Edit, replace the field named, save', () => {
    const plan = understandEdit('Change the total of Harbor lunch in Book club to $22.10 in Tabby.')!;
    expect(plan).toBeDefined();
    expect(plan.goals.map((g) => g.kind)).toEqual(['open', 'type', 'tap', 'tap', 'field', 'tap']);
    expect(plan.goals[0]).toMatchObject({ target: 'Tabby' });
    expect(plan.goals[2]).toMatchObject({ targets: ['Harbor lunch'], entity: true, via: expect.arrayContaining(['Book club']) });
    expect(plan.goals[3]).toMatchObject({ targets: expect.arrayContaining(['Edit']) });
    expect(plan.goals[4]).toMatchObject({ kind: 'field', replace: true, values: [{ input: '22.10', kind: 'amount', cues: ['total'] }] });
    // The place may come after the value, and the thing may be named with a possessive.
    expect(understandEdit('Update the date of Harbor lunch to June 4 in Book club on Tabby.')!.goals[2]).toMatchObject({ targets: ['Harbor lunch'], via: expect.arrayContaining(['Book club']) });
    expect(understandEdit("Change Harbor lunch's total to $22.10 in Tabby.")!.goals[2]).toMatchObject({ targets: ['Harbor lunch'] });
    // No typed value: no edit plan (a setting or a state is read elsewhere).
    expect(understandEdit('Change the theme of Tabby to Dark.')).toBeUndefined();
  });

  it('"I entered X wrong in our G group … says V. Could you fix it?": the value\'s kind names the field', () => {
    const goals = planTask('I logged Ski rental wrong in our Alps crew group. The slip actually says $140.00. Could you correct it in Tabby?', []).goals;
    expect(goals.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ targets: ['Ski rental'], via: expect.arrayContaining(['Alps crew']) });
    expect(goals.find((g) => g.kind === 'field')).toMatchObject({ replace: true, values: [{ input: '140.00', cues: expect.arrayContaining(['amount']) }] });
  });

  it('the field holding the old value is cleared before the new one is typed', () => {
    const instruction = 'Change the total of Harbor lunch in Book club to $22.10 in Tabby.';
    const goals = planTask(instruction, []).goals;
    const at = goals.findIndex((g) => g.kind === 'field');
    const form = [line('Edit expense', 60, 46, 140), line('Save', 349, 48, 46), line('Description', 25, 146, 100), line('Harbor lunch', 41, 188, 120), line('Total', 25, 259, 60), line('$', 25, 303, 13), line('18.00', 60, 302, 50)];
    const tapped = step(instruction, doneUpTo(goals, at), form);
    expect(tapped.conclusion).toMatch(/Tapped the field "Total"/);
    const cleared = step(instruction, [...doneUpTo(goals, at), tapped.conclusion], form);
    expect(cleared.action).toEqual({ action: 'key', text: CLEAR_FIELD_KEYS });
    const typed = step(instruction, [...doneUpTo(goals, at), tapped.conclusion, cleared.conclusion], form);
    expect(typed.action).toEqual({ action: 'type', text: '22.10' });
  });

  it('a form whose only submit button is the top bar\'s "Save"', () => {
    const form = [line('Add expense', 66, 46, 132, 24), line('Save', 349, 48, 46), line('Description', 25, 146, 100), line('Harbor lunch', 41, 188, 120), line('Total', 25, 259, 60), line('22.10', 60, 302, 50)];
    expect(submitButton(form, screen, ['add'])?.text).toBe('Save');
  });
});

describe('things kept in a place, and a person acted with there', () => {
  it('a section whose name carries a number is opened when the request names it whole ("Unit 7C"); a number is still no section otherwise', () => {
    const lines = [line('Unit 7C', 20, 300), line('15 minutes', 20, 360), line('Garden shed', 20, 420)];
    expect(viaLine(lines, ['Unit 7C', 'unit'], screen)?.text).toBe('Unit 7C');
    expect(viaLine(lines, ['minutes'], screen)).toBeUndefined();
  });

  it('"the Oat milk run expense" names "Oat milk run"; "Airport shuttle" is not "Airport shuttle back"', () => {
    const goals = planTask('Delete the Oat milk run expense from Unit 7C in Tabby.', []).goals;
    expect(goals.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ targets: ['Oat milk run'], via: expect.arrayContaining(['Unit 7C']) });
    const instruction = 'Delete the Airport shuttle expense from Unit 7C in Tabby.';
    const plan = planTask(instruction, []).goals;
    const at = plan.findIndex((g) => g.kind === 'tap' && g.entity);
    const lines = [line('Unit 7C', 92, 109), line('Airport shuttle back', 119, 420, 170), line('Groceries', 119, 490, 90)];
    expect(step(instruction, doneUpTo(plan, at), lines).conclusion).not.toMatch(/^Tapped "Airport shuttle back"/);
  });

  it('"X and I squared up our G balance by M. Record it": settle up with X in G via M', () => {
    expect(foldSharedEvent('Noor and I squared up our Book club balance by Venmo. Record the full amount in Tabby.')).toBe('Square up with Noor in Book club via Venmo in Tabby.');
    const goals = planTask('Noor and I squared up our Book club balance by Venmo. Can you record the full amount in Tabby?', []).goals;
    const action = goals.find((g) => g.kind === 'tap' && !g.entity && g.words);
    expect(action).toMatchObject({ targets: expect.arrayContaining(['Settle Up']) });
    expect(goals.some((g) => g.kind === 'fill' && g.value === 'Venmo')).toBe(true);
  });

  it('a person acted with, not in view while the action\'s button is: the button first, then the person on the page it opens', () => {
    const instruction = 'Settle up with Noor in Book club on Tabby, paid via bank transfer.';
    const goals = planTask(instruction, []).goals;
    expect(goals.some((g) => g.kind === 'fill' && g.value === 'bank transfer')).toBe(true);
    const at = goals.findIndex((g) => g.kind === 'tap' && g.entity);
    const group = [line('Book club', 92, 109), line('Noor owes you $21.10', 14, 217, 200), line('Settle up', 71, 320, 75), line('Balances', 265, 320, 77), line('Harbor lunch', 119, 490, 110)];
    const first = step(instruction, doneUpTo(goals, at), group);
    expect(first.conclusion).toMatch(/^Tapped "Settle up" first.*\[action first \d+\]/);
    const balances = [line('Settle up', 65, 45, 91), line('Which balance do you want to settle?', 16, 100, 346), line('Noor Haddad', 73, 157, 110), line('$21.10', 321, 166, 55), line('Noor owes you', 72, 180, 102), line('Ivo Maris', 71, 228, 103)];
    const second = step(instruction, [...doneUpTo(goals, at), first.conclusion], balances);
    expect(second.conclusion).toMatch(/^Tapped "Noor Haddad"/);
    // The action's step now counts as done: the next thing asked for is the payment method.
    const form = [line('Record a payment', 60, 46, 160), line('Paid with', 25, 300, 90), line('Cash', 25, 340, 60), line('bank transfer', 120, 340, 120), line('Record payment', 120, 800, 160)];
    const third = step(instruction, [...doneUpTo(goals, at), first.conclusion, second.conclusion], form);
    expect(third.conclusion).toMatch(/bank transfer/);
  });

  it('a context that says which place the thing was put in: the request acts on it there', () => {
    expect(foldContext('Museum tickets got added to our Alps crew group by mistake. Remove Museum tickets in Tabby.')).toBe('Remove Museum tickets from Alps crew in Tabby.');
  });

  it('"X covered Y for everyone, it came to $N. Can you put it in our G group?": add that cost to G, paid by X', () => {
    expect(foldSharedCost('Noor covered Ferry snacks for everyone, it came to $31.20. Put Ferry snacks in our Book club group on Tabby. File Ferry snacks under Food and split it equally.')).toBe(
      'Add a shared cost of $31.20 for Ferry snacks to Book club in Tabby, paid by Noor, under Food.',
    );
    const goals = planTask('Noor covered Ferry snacks for everyone, it came to $31.20. Can you put it in our Book club group on Tabby? File it under Food and split it equally.', []).goals;
    expect(goals.filter((g) => g.kind === 'field').map((g) => g.text)).toEqual(['fill in $31.20', 'fill in Ferry snacks', 'fill in Noor', 'fill in Food']);
    expect(goals[1]).toMatchObject({ kind: 'tap', via: expect.arrayContaining(['Book club']) });
  });

  it('a picker field the request names ("paid by Noor" beside "Paid by · You") is opened, not the same name further down the form', () => {
    const values = formValues('Add $31.20 for Ferry snacks, paid by Noor');
    const at = values.findIndex((v) => v.value === 'Noor');
    const form = [line('Add expense', 66, 46, 132), line('Description', 25, 146, 100), line('Ferry snacks', 41, 188, 120), line('Amount', 25, 259, 64), line('31.20', 60, 302, 50), line('Paid by', 22, 371, 63), line('You', 40, 414, 34), line('Split equally between', 25, 485, 166), line('You', 109, 530, 30), line('Noor', 106, 582, 49), line('Ivo', 108, 637, 40), line('Save', 150, 800, 60)];
    const st = fieldStep(values, at, form, screen, undefined);
    expect(st).toMatchObject({ do: 'tap', line: { text: 'You', box: { y: 414 } } });
    // Offered right under its label (chips): chosen there.
    const chips = [line('Description', 25, 146, 100), line('Ferry snacks', 41, 188, 120), line('Paid by', 22, 371, 63), line('You', 40, 414, 34), line('Noor', 120, 414, 40), line('Save', 150, 800, 60)];
    expect(fieldStep(values, at, chips, screen, undefined)).toMatchObject({ do: 'tap', line: { text: 'Noor' } });
    // A longer option among radio rows under a section's header is chosen where it shows.
    const radio = formValues('Save 12 Elm Road, and for drop-off choose Leave with the porter');
    const leave = radio.findIndex((v) => v.value === 'Leave with the porter');
    const rows = [line('Street address', 25, 284, 114), line('e.g. 415 Larkin St', 40, 324, 146), line('DROP-OFF', 15, 669, 100), line('Hand it to me', 52, 702, 115), line('Driver waits for you', 50, 725, 200), line('Leave with the porter', 54, 853, 194), line('For buildings with a doorman', 52, 876, 280), line('Save address', 150, 900, 100)];
    expect(fieldStep(radio, leave, rows, screen, undefined)).toMatchObject({ do: 'tap', line: { text: 'Leave with the porter' } });
  });

  it('on the page of the thing just opened, its own name is no section for the action: the page is scrolled for it', () => {
    const instruction = 'Museum tickets got added to our Alps crew group by mistake. Please remove it in Tabby.';
    const goals = planTask(instruction, []).goals;
    const at = goals.findIndex((g) => g.kind === 'tap' && !g.entity && g.words);
    const page = [line('Expense details', 67, 46, 158), line('Edit', 307, 47, 38), line('Museum tickets', 92, 103, 182), line('$15.15', 90, 137, 107), line('Group', 14, 600, 52), line('Alps crew', 306, 599, 92), line('Groups', 24, 887, 56, 19), line('Friends', 127, 887, 55, 17), line('Activity', 231, 887, 53, 18), line('Account', 331, 887, 61, 19)];
    expect(step(instruction, doneUpTo(goals, at), page).conclusion).toMatch(/^Swiped up to look for/);
  });
});

describe('read off the fourteenth blind app after its first contact (invented names)', () => {
  it('a quantity with its unit is the new value, typed as its number: "Change the bake time of Rye loaf to 40 minutes"', () => {
    const plan = understandEdit('Change the bake time of Rye loaf to 40 minutes in Crumbly.')!;
    expect(plan.goals.find((g) => g.kind === 'field')).toMatchObject({ values: [{ value: '40 minutes', input: '40', cues: ['bake', 'time'] }] });
    // A context that says what it took, then "fix the <field>": the thing and value from the context.
    const told = understandEdit('Last time I made Rye loaf it needed 55 minutes of baking, not what the card says. Fix the bake time in Crumbly.')!;
    expect(told.goals.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ targets: ['Rye loaf'] });
    expect(told.goals.find((g) => g.kind === 'field')).toMatchObject({ values: [{ input: '55' }] });
  });

  it('"Turn on the X reminder in App at T" / "have App give me my X reminder at T": X\'s page, its time, its switch on, Save', () => {
    for (const request of ['Turn on the Feed starter reminder in Crumbly at 7:30 AM.', 'I always forget. Can you have Crumbly give me my Feed starter reminder at 7:30 AM? Keep the days the same.']) {
      const goals = planTask(request, []).goals;
      expect(goals[0]).toMatchObject({ kind: 'open', target: 'Crumbly' });
      expect(goals.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ targets: ['Feed starter'], via: expect.arrayContaining(['reminders']) });
      expect(goals.find((g) => g.kind === 'field')).toMatchObject({ values: [{ value: '7:30 AM', kind: 'time' }], replace: false });
      expect(goals.some((g) => g.kind === 'toggle' && g.on)).toBe(true);
    }
  });

  it('a sentence under a label describes the field: its words name no field ("A notification at the time you choose")', () => {
    const page = [line('Feed starter', 66, 46, 122), line('Save', 348, 46, 48), line('Remind me', 16, 99, 93), line('A notification at the time you choose', 16, 124, 241), line('Time', 24, 174, 42), line('10:00 AM', 41, 215, 75), line('Repeat', 23, 285, 60), line('Every day', 40, 322, 79)];
    const instruction = 'Turn on the Feed starter reminder in Crumbly at 7:30 AM.';
    const goals = planTask(instruction, []).goals;
    const at = goals.findIndex((g) => g.kind === 'field');
    expect(step(instruction, doneUpTo(goals, at), page).conclusion).toMatch(/^Tapped the field "Time"/);
    expect(formFields(page, screen).find((f) => f.label.text === 'Remind me')?.words).toEqual(['remind', 'me']);
  });

  it('the name just typed into a search box is no result: the result below it is opened, and alone it is not tapped', () => {
    const instruction = 'Delete the Rye loaf recipe from Crumbly.';
    const goals = planTask(instruction, []).goals;
    const at = goals.findIndex((g) => g.kind === 'tap' && g.entity);
    const history = [...doneUpTo(goals, at - 1), `Typed "Rye loaf" into the search field. [goal ${at}/${goals.length}: typed]`, `Pressed Enter to search for "Rye loaf". [goal ${at}/${goals.length} done]`];
    const results = [line('Crumbly', 15, 46, 62), line('Rye loaf', 25, 113, 151), line('1 recipe', 13, 253, 60), line('Rye loaf', 84, 296, 153), line('Bread · 55 min', 85, 319, 174)];
    expect(step(instruction, history, results).conclusion).toMatch(/^Tapped "Rye loaf"/);
    expect(step(instruction, history, results).action).toMatchObject({ coordinate: [expect.any(Number), expect.toSatisfy((y: number) => y > 250)] });
    const none = [line('Crumbly', 15, 46, 62), line('Rye loaf', 25, 113, 151), line('No recipes found', 13, 253, 160)];
    expect(step(instruction, history, none).conclusion).not.toMatch(/^Tapped "Rye loaf"/);
  });

  it('a sheet that asks ("Who paid?" over its options and Cancel) holds the option, not the same name on the form behind it', () => {
    const values = formValues('Add $31.20 for Ferry snacks, paid by Noor');
    const at = values.findIndex((v) => v.value === 'Noor');
    const sheet = [line('Add expense', 66, 46, 132), line('Who paid?', 61, 331, 110), line('You', 101, 376, 36), line('Noor', 100, 424, 51), line('Ivo', 101, 470, 42), line('Cancel', 276, 564, 59), line('Noor', 108, 637, 40), line('$16.19', 337, 640, 49)];
    expect(fieldStep(values, at, sheet, screen, 'field #31')).toMatchObject({ do: 'tap', line: { text: 'Noor', box: { y: 424 } } });
  });
});

