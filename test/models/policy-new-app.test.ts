import { describe, expect, it } from 'vitest';
import { keyeventArgs } from '../../environments/adb.js';
import { mapKeyEvents } from '../../environments/chromium.js';
import { instructionEntities } from '../../models/reference/roles/intent.js';
import { CLEAR_FIELD_KEYS, decide, planTask } from '../../models/reference/roles/policy.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * The generic readings added after the Pharmacy app's first-contact run (issue 17, part A): none names an app,
 * a label or a data value of it; the screens below are invented ones of the same shapes.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const launcher = (labels: string[]): OcrLine[] => [line('9:41', 180, 94, 60, 40), line('Monday, June 2', 130, 166), ...labels.map((l, i) => line(l, 20 + (i % 4) * 100, 300 + Math.floor(i / 4) * 115, 70, 18))];
const page = (title: string, rest: string[]): OcrLine[] => [line('9:41', 10, 6, 40, 16), line(title, 20, 44, 120, 24), ...rest.map((t, i) => line(t, 20, 110 + i * 64))];
const step = (instruction: string, history: string[], lines: OcrLine[]) => decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });

describe('reference policy: readings that carry over to an app it was not written for', () => {
  it('keeps a strength or size with the name it follows ("Sertraline 50 mg"), and numbers alone stay numbers', () => {
    expect(instructionEntities('Please refill Sertraline 50 mg for me at the pharmacy.')).toContain('Sertraline 50 mg');
    expect(instructionEntities('Buy the Travel Mug 500 ml in Blue')).toContain('Travel Mug 500 ml');
    // (A house number heads the street it names: one value, as the address field takes it.)
    expect(instructionEntities('Order 2 Classic Burger to 12 Baker Street')).toEqual(expect.arrayContaining(['2', 'Classic Burger', '12 Baker Street']));
  });

  it('a launcher label whose open leaves the home screen as it was is no app: the next candidate is looked into', () => {
    // An icon's glyph ("Qz") read as a label, before the real apps.
    const home = launcher(['Qz', 'Vault', 'Weather']);
    const req = 'Lock my Travel Card right away';
    const first = step(req, [], home);
    expect(first.action).toEqual({ action: 'open', text: 'Qz' });
    // Still the home screen after opening "Qz": score 0, go on with "Vault" (before: "Qz" again, until max steps).
    const second = step(req, [first.conclusion], home);
    expect(second.conclusion).toMatch(/\[seen Qz=0\].*\[peek Vault\]/);
    expect(second.action).toEqual({ action: 'open', text: 'Vault' });
  });

  it('taps a button that says more than the verb ("Request refill" for "Refill X"), and a dialog\'s button that repeats its first word', () => {
    const req = 'Renew Parking Permit B for me.';
    const detail = page('Permit', ['Parking Permit B', 'Expires Jun 30', 'Request renewal', 'Renew online now']);
    const hist = ['Opened the Vault app. [goal 1/5 done]', 'Tapped "Parking Permit B". [goal 3/5 done]'];
    const tapRenew = step(req, hist, detail);
    expect(tapRenew.conclusion).toMatch(/^Tapped "Renew online now"/);
    const dialog = [...detail, line('Renew this permit?', 40, 420, 300, 24), line('Cancel', 200, 500, 60, 20), line('Renew', 300, 500, 60, 20)];
    const confirm = step(req, [...hist, tapRenew.conclusion], dialog);
    expect(confirm.conclusion).toMatch(/^Tapped "Renew"/);
    expect(planTask('Refill Sertraline 50 mg for me at the pharmacy.', []).goals.find((g) => g.kind === 'tap' && g.words)).toMatchObject({ words: ['refill'] });
  });

  it('a switch of a thing inside a named app is that app\'s, found by its name on the screen that lists such switches', () => {
    const plan = planTask('Switch my Atorvastatin 20 mg reminder On in the Pharmacy app.', []).goals;
    expect(plan).toEqual([
      { kind: 'open', target: 'Pharmacy', text: 'open Pharmacy' },
      { kind: 'toggle', target: 'Atorvastatin 20 mg', on: true, text: 'switch Atorvastatin 20 mg on', via: ['reminder'], viaFirst: true, label: ['reminder'] },
    ]);
    // No app named: looked for by the name; a phone setting still goes to Settings.
    expect(planTask('Turn the dose reminder for Sertraline 50 mg On.', []).goals[0]).toMatchObject({ kind: 'open', target: undefined, explore: { names: ['Sertraline 50 mg'] } });
    expect(planTask('Turn Wi-Fi Off', []).goals[0]).toMatchObject({ kind: 'open', target: 'Settings' });
    // The name shows in a list without a switch: the "Reminders" tab is opened first.
    const list = page('Vault', ['Items', 'Reminders', 'Atorvastatin 20 mg', '4 refills left']);
    const d = step('Switch my Atorvastatin 20 mg reminder On in the Pharmacy app.', ['Opened the Pharmacy app. [goal 1/2 done]'], list);
    expect(d.conclusion).toMatch(/^Opened "Reminders"/);
  });

  it('a preference inside an app: the setting\'s words name the field, the value is picked in it', () => {
    for (const req of ['Make Riverside Mall my preferred pharmacy store.', 'Set my pharmacy pickup store to Riverside Mall.']) {
      const goals = planTask(req, []).goals;
      expect(goals.map((g) => g.kind)).toEqual(['open', 'tap', 'fill', 'tap']);
      expect(goals[2]).toMatchObject({ kind: 'fill', value: 'Riverside Mall' });
    }
    // Phone settings keep their reader.
    expect(planTask('Set the brightness to 40%', []).goals[1]).toMatchObject({ kind: 'choose', setting: 'brightness', value: '40%' });
  });

  it('replaces a field\'s text: once the field is focused its old text is deleted (adb keyevents), then the new one typed', () => {
    for (const req of ['Replace the number saved for Ana Lee with 555-610-4433.', "Could you change Ana Lee's phone number to 555-610-4433?"]) {
      expect(planTask(req, []).goals.find((g) => g.kind === 'type' && g.replace)).toMatchObject({ value: '555-610-4433' });
    }
    const req = "Change Ana Lee's phone number to 555-610-4433";
    const form = page('Edit contact', ['First name', 'Ana', 'Phone', '555-276-1278', 'Save']);
    const hist = ['Opened the Contacts app. [goal 1/6 done]', 'Typed "Ana Lee" [goal 2/6 done]', 'Tapped "Ana Lee". [goal 3/6 done]', 'Tapped "Edit". [goal 4/6 done]'];
    const focus = step(req, hist, form);
    expect(focus.conclusion).toMatch(/\[goal 5\/6: focused\]/);
    const clear = step(req, [...hist, focus.conclusion], form);
    expect(clear.action).toEqual({ action: 'key', text: CLEAR_FIELD_KEYS });
    const typed = step(req, [...hist, focus.conclusion, clear.conclusion], form);
    expect(typed.action).toEqual({ action: 'type', text: '555-610-4433' });
    // Both phones take the sequence as `adb shell input keyevent A B …` does; anything else is still refused.
    expect(mapKeyEvents(CLEAR_FIELD_KEYS)).toHaveLength(41);
    expect(mapKeyEvents('KEYCODE_MOVE_END KEYCODE_DEL')).toEqual([{ kind: 'key', key: 'End' }, { kind: 'key', key: 'Backspace' }]);
    expect(mapKeyEvents('ctrl a')).toBeUndefined();
    expect(keyeventArgs('KEYCODE_MOVE_END 67')).toEqual(['KEYCODE_MOVE_END', '67']);
    expect(keyeventArgs('ctrl c')).toBeUndefined();
  });

  it('reads "the alarm named X" as X and a possessive after a new contact\'s name as no part of it', () => {
    expect(planTask('Switch Off the alarm named Work.', []).goals[1]).toMatchObject({ kind: 'toggle', target: 'Work', on: false });
    const add = planTask("555-348-1290 is Priya Nowak's number, add them as a new contact.", []).goals;
    expect(add.filter((g) => g.kind === 'type').map((g) => (g as { value: string }).value)).toEqual(['Priya', 'Nowak', '555-348-1290']);
  });
});

describe('reference policy: a picker option OCR misreads by a letter', () => {
  it('chooses the clearly best near match once the picker is open', () => {
    const req = 'Make Riverside Mall my preferred pharmacy store.';
    const picker = [
      ...page('My store', ['Prescriptions', 'Preferred store', 'Main Street']),
      line('Preferred store', 62, 306),
      line('Main Street', 102, 351),
      line('OakParkPlaza', 104, 401),
      line('Riverside Mal', 102, 448),
      line('Harbor Point', 102, 496),
      line('Cancel', 276, 590, 59),
    ];
    const hist = ['Opened the Pharmacy app. [goal 1/4 done]', 'Tapped "My store". [goal 2/4 done]', 'Opened the field "Preferred store". [goal 3/4: opened item]'];
    expect(step(req, hist, picker).conclusion).toMatch(/^Chose "Riverside Mal"/);
  });
});

describe('reference policy: a confirmation dialog over the page whose button opened it', () => {
  it('does not tap the page button again, nor a status line that counts the verb\'s thing', () => {
    const req = 'Refill Omeprazole 20 mg for me at the pharmacy.';
    const detail = page('Prescription', ['Omeprazole 20 mg', '1 refill left', 'Request refill']);
    const hist = ['Opened the Pharmacy app. [goal 1/5 done]', 'Tapped "Omeprazole 20 mg". [goal 3/5 done]'];
    const tapVerb = step(req, hist, detail);
    expect(tapVerb.conclusion).toMatch(/^Tapped "Request refill"/);
    // The dialog: the page's "Request refill" is still read behind it; its own button is "Request".
    const dialog = [...detail, line('Request a refill?', 60, 420, 200), line('Cancel', 200, 520, 60), line('Request', 290, 520, 70)];
    expect(step(req, [...hist, tapVerb.conclusion], dialog).conclusion).toMatch(/^Tapped "Request"\./);
  });
});

describe('reference critics: a confirmation left open on the final screen', () => {
  it('is a change never confirmed; a question with no Cancel after it, or a result line, is not one', async () => {
    const { openConfirmation } = await import('../../models/reference/roles/evidence.js');
    expect(openConfirmation(['Prescription', 'Omeprazole 20 mg', 'Request refill', 'Request a refill?', 'Omeprazole 20 mg will be ready tomorrow.', 'Cancel', 'Request'])).toBe('Request a refill?');
    expect(openConfirmation(['Omeprazole 20 mg', 'Refill requested · ready tomorrow'])).toBeUndefined();
    expect(openConfirmation(['Messages', 'Can you call me back?', 'Sent'])).toBeUndefined();
  });
});
