import { describe, expect, it } from 'vitest';
import { requestCore } from '../../models/reference/roles/intent.js';
import { foldContext, mergeDetails } from '../../models/reference/roles/policy-act.js';
import { knowledgeFit } from '../../models/reference/roles/policy-explore.js';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Wording and flow mechanics read off the v13 wording arm and the twelfth blind app (issue 17, session of 2026-11-27):
 * every request and screen here is invented — no built-in app's names, labels or data.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const texts = (instruction: string): string[] => planTask(instruction, []).goals.map((g) => g.text);

describe('courtesy frames and where the request is done', () => {
  it('"Is it possible to …" and "Would you mind <gerund> …" are the plain request', () => {
    expect(requestCore('Is it possible to archive the Quarterly plan in my Docs?')).toBe('Archive the Quarterly plan in my Docs.');
    expect(requestCore("Would you mind cancelling Tuesday's Pottery session?")).toBe("Cancel Tuesday's Pottery session.");
    expect(requestCore('Would you mind putting Bo Lin in favourites?')).toBe('Put Bo Lin in favourites.');
  });
  it('an app a sentence opens with, or opens before "and", says where the request is done (not a date, not a step list)', () => {
    expect(requestCore('In Kettle, add a recipe called Miso soup.')).toBe('Add a recipe called Miso soup in Kettle.');
    expect(requestCore('On Friday, add lunch with Sam to my calendar.')).toBe('On Friday, add lunch with Sam to my calendar.');
    expect(requestCore('Open Tally and freeze the one called Travel Visa, and leave the other cards alone.')).toBe('Freeze Travel Visa in Tally.');
    expect(requestCore('Open Tally, tap Cards, then tap Freeze.')).toBe('Open Tally, tap Cards, then tap Freeze.');
  });
  it('a terse request led by its app in lower case: a verb after it is the request, a noun after a brand a thing to add', () => {
    expect(requestCore('tally send $40 to Ana Ruiz')).toBe('Send $40 to Ana Ruiz in Tally');
    expect(requestCore('kettlo recipe Miso soup 20 minutes')).toBe('Add a recipe Miso soup 20 minutes in Kettlo');
    // A request verb first is no app; nor is a known word followed by a name.
    expect(requestCore('delete chat with Lena Park')).toBe('delete chat with Lena Park');
  });
});

describe('context sentences and details in sentences of their own', () => {
  it('a statement before the request folds in as its details when the reading would take its first word for a verb', () => {
    expect(foldContext('Northway Clinic is too far now. Submit a transfer for Lumex 5 mg. The reference on the label is 7730021.')).toBe('Submit a transfer for Lumex 5 mg, Northway Clinic, reference 7730021.');
    const plan = planTask('Northway Clinic is too far now. Please submit a transfer in Meds for Lumex 5 mg; the reference on the label is 7730021.', []);
    expect(plan.goals.find((g) => g.kind === 'tap')?.text).toBe('tap Submit transfer');
  });
  it('an option ("I\'d like the money back as X", "For the refund, choose X", "X is fine") and a labelled value ("The reason is Y") join the request', () => {
    expect(mergeDetails("Cancel my Opera night booking for Friday. I'd like the money back as Store credit.")).toBe('Cancel my Opera night booking for Friday, as Store credit.');
    expect(mergeDetails('Drop my Opera night booking. For the refund, choose Back to card.')).toBe('Drop my Opera night booking, as Back to card.');
    expect(mergeDetails('Book Pip a groom on Monday at 9:00 AM. The reason is Nail clip.')).toBe('Book Pip a groom on Monday at 9:00 AM, reason Nail clip.');
    expect(mergeDetails('Add a Snake plant called Noodle to my plants in Verdi. It lives in the Hallway and gets Bright light.')).toBe('Add a Snake plant called Noodle to my plants in Verdi, Hallway, Bright.');
  });
  it('the pronoun of a request stands for the thing next to its kind, and a case change alone makes no statement a request', () => {
    expect(requestCore('The lecture is running late and my meter in zone 7710 is almost up. Extend it by 30 minutes in Meterly.')).toBe('Extend Zone 7710 by 30 minutes in Meterly.');
  });
});

describe('records, removals and log entries', () => {
  it('a removal of a thing named right after its verb opens the thing, its reason chosen on the way', () => {
    expect(texts('Remove Basil from my herbs in Verdi, with the reason It wilted.')).toEqual(expect.arrayContaining(['open Basil', 'tap Remove', 'fill in It wilted']));
    expect(texts('Please take Basil off my herb list in Verdi. When it asks why, pick It wilted.')).toEqual(expect.arrayContaining(['open Basil', 'tap Remove']));
    // Removal verbs plan alike.
    const strip = (s: string) => JSON.stringify(planTask(s, []).goals, (k, v) => (k === 'text' ? undefined : v));
    expect(strip('Delete Basil from my herbs in Verdi, with the reason It wilted.')).toBe(strip('Remove Basil from my herbs in Verdi, with the reason It wilted.'));
  });
  it('a new thing the speaker named is a new record: its form, its name typed', () => {
    expect(requestCore('I just brought home a Snake plant and named it Noodle. Can you add it to Verdi?')).toBe('Add a Snake plant called Noodle to Verdi.');
    const plan = planTask('Add a Snake plant called Noodle to my plants in Verdi. It lives in the Hallway.', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'Verdi' });
    expect(plan.goals[1]).toMatchObject({ kind: 'tap', targets: expect.arrayContaining(['Add plant']) });
  });
  it('"log that X was <done> <when>" and "I <did> X <when>. Can you note that?" are a log entry for X', () => {
    expect(requestCore('Log in Verdi that Noodle was misted yesterday.')).toBe('Log Noodle as Misted, Yesterday in Verdi.');
    expect(requestCore('I misted Noodle today. Can you note that in Verdi?')).toBe('Log Noodle as Misted, Today in Verdi.');
    expect(texts('Log in Verdi that Noodle was misted yesterday.')).toEqual(expect.arrayContaining(['open Noodle', 'tap Log', 'fill in Misted', 'fill in Yesterday']));
  });
});

describe('app finding and the page of the thing just opened', () => {
  it('a made-up brand word is matched by its known start ("Verdant" → verdant, "Fernly" → fern)', () => {
    expect(knowledgeFit('Fernly', ['plant'])).toBeGreaterThan(0);
    expect(knowledgeFit('Zqxly', ['plant'])).toBe(0);
  });
  it('an action not in view on the thing\'s page is looked for further down that page before any section or tab', () => {
    const page = [line('9:41', 10, 6, 40, 16), line('Basil', 20, 44, 160, 24), line('Sweet basil', 20, 120), line('Care history', 20, 400), line('Today', 20, 880, 60), line('My herbs', 160, 880, 80), line('Profile', 320, 880, 60)];
    const d = decide({
      instruction: 'Remove Basil from my herbs in Verdi, with the reason It wilted.',
      guidance: [],
      history: ['Opened the Verdi app. [goal 1/7 done]', 'Tapped "Basil". [goal 4/7 done]'],
      lines: page,
      screen,
      temperature: 0,
      random: mulberry32(1),
    });
    expect(d.action.action).toBe('swipe');
    expect(d.conclusion).toMatch(/^Swiped up to look for/);
    // A section on the page itself that should hold it ("Lock card" for "Unlock") comes first.
    const card = [line('9:41', 10, 6, 40, 16), line('Travel Visa', 20, 44, 160, 24), line('CARD CONTROLS', 16, 300, 137, 14), line('Lock card', 15, 333, 99), line('Status', 15, 471, 55), line('Locked', 340, 474, 49)];
    const c = decide({
      instruction: 'Unlock my Travel Visa card in Tally.',
      guidance: [],
      history: ['Opened the Tally app. [goal 1/5 done]', 'Tapped "Travel Visa". [goal 3/5 done]'],
      lines: card,
      screen,
      temperature: 0,
      random: mulberry32(1),
    });
    expect(c.conclusion).toMatch(/^Opened "Lock card" to look for "Unlock"/);
  });
});

describe('an app named with "app" after any preposition; "for me" says nothing', () => {
  it('"through / from the X app" names the app; a trailing or inner "for me" is dropped', () => {
    expect(planTask('Could you request a refill of Lumex 5 mg through the Meds app?', []).goals[0]).toMatchObject({ kind: 'open', target: 'Meds' });
    expect(requestCore('Could you check out Dune for me from the Shelf app?')).toBe('Check out Dune from the Shelf app.');
    expect(requestCore('Would you get rid of the Gym bag alarm for me?')).toBe('Remove the Gym bag alarm.');
  });
});

describe('a name the request gives goes where the form asks for one', () => {
  it('"called Kiwi" fills the Nickname field, not the first picker', async () => {
    const { assignFields, formValues } = await import('../../models/reference/roles/policy-form.js');
    const values = formValues('Add a Snake plant called Noodle to my plants in Verdi.');
    const noodle = values.findIndex((v) => v.value === 'Noodle');
    const fields = [
      { label: line('Species', 20, 300), input: line('Choose a species', 20, 325), words: ['species'] },
      { label: line('Nickname', 20, 200), input: line('e.g. Monty', 20, 225), words: ['nickname'] },
    ];
    expect(assignFields(values, fields as never).get(noodle)?.label.text).toBe('Nickname');
  });
});
