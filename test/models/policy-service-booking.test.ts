import { describe, expect, it } from 'vitest';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { formValues } from '../../models/reference/roles/policy-form.js';
import { namedAppIn } from '../../models/reference/roles/policy-act.js';
import { affirmative, candidates, rowStatus, wrappedLines } from '../../models/reference/roles/policy-screen.js';
import { instructionEntities, requestCore } from '../../models/reference/roles/intent.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Service bookings, reschedules and quote requests said in everyday words (read off a held-out home-repair app, then
 * written here on invented apps — a roofer's marketplace "Tradora", a tutoring app "Lessonly" — none a built-in app's).
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const step = (instruction: string, history: string[], lines: OcrLine[]) => decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });

describe('names, windows and apps of a service request', () => {
  it('a business abbreviation ends no sentence; a span of times is one window; an app no dictionary knows is named after on/through', () => {
    expect(instructionEntities('Book Dalton Bros. Roofing on Tradora for Gutter repair on Friday, June 6, arriving 8–10 AM.')).toEqual(expect.arrayContaining(['Dalton Bros. Roofing', '8–10 AM']));
    expect(instructionEntities('Move my lesson to 10 AM–12 PM.')).toContain('10 AM–12 PM');
    expect(namedAppIn('Book Dalton Bros. Roofing on Tradora for Gutter repair on Friday')).toBe('Tradora');
    expect(namedAppIn('Get quotes through Tradora for a roof inspection: budget under $500')).toBe('Tradora');
    // (A place English knows is no app: "in Denver for a week".)
    expect(namedAppIn('Find a room in Denver for a week')).toBeUndefined();
    // A possessive inside a business's name of several words is a word of it; one word before it is an owner.
    expect(instructionEntities("Move my Handy Joe's Home Fixes visit to Friday.")).toContain("Handy Joe's Home Fixes");
  });

  it('"Book X on App for Y on a day, arriving a window" finds X, books it, and chooses Y, the day and the window', () => {
    const plan = planTask('Book Dalton Bros. Roofing on Tradora for Gutter repair & cleaning on Friday, June 6, arriving 8–10 AM.', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'Tradora' });
    expect(plan.goals.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ targets: ['Dalton Bros. Roofing'] });
    const fills = plan.goals.filter((g) => g.kind === 'fill').map((g) => (g as { value: string }).value);
    expect(fills).toEqual(['Gutter repair & cleaning', 'Friday, June 6', '8–10 AM']);
    // (A day to choose is no day strip to open first: that is only for the thing's own day, "X on Thursday".)
    expect(plan.goals.some((g) => g.kind === 'tap' && g.text.startsWith('open Friday'))).toBe(false);
  });

  it('"get X to come out for Y. Use App to book them for …" is a booking of X for Y', () => {
    expect(requestCore('The gutters are overflowing, so get Dalton Bros. Roofing to come out for Gutter repair. Use Tradora to book them for Friday, June 6 in the 8–10 AM window.'))
      .toBe('Book Dalton Bros. Roofing on Tradora for Gutter repair for Friday, June 6 in the 8–10 AM window.');
  });

  it('a context sentence about one pro gives "the visit" and "it" of the request: that pro\'s visit, that pro\'s bill', () => {
    expect(requestCore("I won't be around when Maple Tutors is supposed to come. Can you change the lesson in Lessonly to Tuesday, June 3 in the 4–6 PM window?"))
      .toBe('Change the Maple Tutors lesson in Lessonly to Tuesday, June 3 in the 4–6 PM window.');
    expect(requestCore('Dalton Bros. Roofing finished the job and sent the bill. Settle it through Tradora with a 15% tip.')).toBe('Settle the Dalton Bros. Roofing bill through Tradora with a 15% tip.');
    // The user's own thing of a kind is looked for under that kind's list, unless it already shows.
    const plan = planTask('Move my Maple Tutors lesson in Lessonly to Tuesday, June 3, 4–6 PM.', []);
    expect(plan.goals[1]).toMatchObject({ kind: 'tap', targets: ['My lesson', 'Lessons'], optional: true, already: ['Maple Tutors'] });
  });

  it('"post it so pros can send quotes" asks for quotes; a budget and a timeframe are values of their own', () => {
    expect(requestCore("We're finally doing a roof inspection. Post it on Tradora so local pros can send quotes; our budget is $500–$2,000.")).toMatch(/^Get quotes for roof inspection in Tradora\b/);
    const v = formValues('Get quotes through Tradora for a roof inspection: budget under $500, and I want it done within a month.');
    expect(v).toEqual(expect.arrayContaining([
      expect.objectContaining({ value: 'under $500', cues: expect.arrayContaining(['budget']) }),
      expect.objectContaining({ value: 'within a month', cues: expect.arrayContaining(['when']) }),
      expect.objectContaining({ value: 'roof inspection', cues: ['for'] }),
    ]));
    expect(formValues('Pay it with a 20% tip').map((x) => x.value)).toContain('20%');
  });
});

describe('screens of a multi-page booking', () => {
  const calendar = (extra: OcrLine[] = []): OcrLine[] => [
    line('9:41', 12, 6, 36, 18),
    line('Book a lesson', 66, 46, 160, 22),
    line('STEP 2 OF 3 · DATE AND TIME', 16, 99, 213, 14),
    line('June 2025', 25, 197, 82, 18),
    line('M', 38, 225, 19, 17),
    line('T', 94, 225, 13, 16),
    line('2', 41, 261, 13, 16),
    line('3', 94, 261, 12, 16),
    line('4', 146, 261, 12, 16),
    line('5', 200, 261, 12, 16),
    line('6', 251, 259, 16, 20),
    line('Crossed-out days: Ana does not teach or it is too soon to', 27, 351, 326, 18),
    line('book.', 26, 367, 33, 14),
    ...extra,
    line('Continue', 164, 800, 86, 22),
  ];

  it('a month calendar\'s day is chosen by its number under the month; a wrapped "book." is no button; the page goes on with Continue', () => {
    const req = 'Book Maple Tutors on Lessonly for Algebra on Friday, June 6, arriving 4–6 PM.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const at = plan.goals.findIndex((g) => g.kind === 'fill' && g.value === 'Friday, June 6');
    const hist = plan.goals.slice(0, at).map((g, i) => `Did ${g.text}. [goal ${i + 1}/${n} done]`);
    const d = step(req, hist, calendar());
    expect(d.action).toMatchObject({ action: 'click' });
    expect((d.action as { coordinate: [number, number] }).coordinate[0]).toBeGreaterThan(245);
    expect(d.conclusion).toMatch(/Chose "6"/);
    expect(candidates(calendar(), ['Book'], 0.6).map((c) => c.line.text)).not.toContain('book.');
    // All values chosen on the page: its forward button, not a claim of success ("Booked" is another window's status).
    const windows = calendar([line('ARRIVAL WINDOWS', 16, 420, 151, 14), line('4-6 PM', 14, 482, 73, 17), line('Selected', 340, 483, 59, 17), line('6-8 PM', 14, 538, 73, 17), line('Booked', 347, 539, 52, 18)]);
    const chosen = [...plan.goals.slice(0, n - 2).map((g, i) => `Did ${g.text}. [goal ${i + 1}/${n} done]`), `Chose "4-6 PM". [goal ${n - 1}/${n} done]`];
    const next = step(req, chosen, windows);
    expect(next.conclusion).toMatch(/Tapped "Continue"/);
    expect(rowStatus(windows.find((l) => l.text === 'Booked')!, windows)).toBe(true);
  });

  it('an option wrapped onto two lines is read whole; a cut-off word behind a dialog is no button of it', () => {
    const grid = [line('Roof', 35, 409, 67, 22), line('inspection', 35, 429, 100, 20), line('Gutter cleaning', 220, 419, 125, 20)];
    expect(wrappedLines(grid).map((l) => l.text)).toEqual(['Roof inspection']);
    const dialog = [line('Move this lesson?', 62, 363, 159, 20), line('From Thu, Jun 5, 4-6 PM', 61, 393, 236, 20), line('Keep current', 93, 515, 110, 20), line('Move', 270, 514, 50, 21), line('pen', 372, 515, 27, 16)];
    expect(affirmative(dialog)?.yes.text).toBe('Move');
  });
});

describe('rentals and reports said in everyday words (read off a held-out car-sharing app; here a bike-share app "Spokely")', () => {
  it('"Add 1 hour to my X ride" extends it; a start time to choose is a value; AM/PM alone is no name', () => {
    expect(requestCore('Add 1 hour to my Cargo Bike 7 ride in Spokely.')).toBe('Extend my Cargo Bike 7 ride by 1 hour in Spokely.');
    const fills = planTask('Reserve the Cargo Bike 7 on Spokely for Tuesday, June 3 from 10:00 AM, for 2 hours.', []).goals.filter((g) => g.kind === 'fill').map((g) => (g as { value: string }).value);
    expect(fills).toEqual(expect.arrayContaining(['Tuesday, June 3', '10:00 AM', '2 hours']));
    expect(fills).not.toContain('AM');
  });

  it('an e-mail address given as a value of a request in another app is no mail to send; a report on my last ride opens the ride first', () => {
    const plan = planTask('Add Ana Ruiz as a rider on my Spokely account, email ana.ruiz@example.com, relationship: friend.', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'Spokely' });
    expect(plan.goals.some((g) => g.kind === 'open' && g.target === 'Mail')).toBe(false);
    const report = planTask('Report damage on my last Cargo Bike 7 ride in Spokely: front wheel, "bent spoke".', []);
    expect(report.goals.slice(1, 5)).toEqual([
      expect.objectContaining({ kind: 'tap', targets: ['Rides', 'My rides'], optional: true, already: ['Cargo Bike 7'] }),
      // ("my last …": a thing of the past, under Past or History.)
      expect.objectContaining({ kind: 'tap', targets: expect.arrayContaining(['Past', 'History']), optional: true }),
      expect.objectContaining({ kind: 'tap', targets: ['Cargo Bike 7'], entity: true }),
      expect.objectContaining({ kind: 'tap', targets: expect.arrayContaining(['Report damage']) }),
    ]);
    expect(formValues('Report damage on my last Cargo Bike 7 ride in Spokely: front wheel, "bent spoke"').map((v) => v.value)).toEqual(expect.arrayContaining(['front wheel', 'bent spoke']));
  });

  it("a page's own button that repeats the label that opened it submits the page", () => {
    const req = 'Extend my Cargo Bike 7 ride by 1 hour in Spokely.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const hist = [...plan.goals.slice(0, n - 2).map((g, i) => `Did ${g.text}.${g.kind === 'tap' && g.text === 'tap Extend' ? ' Tapped "Extend ride".' : ''} [goal ${i + 1}/${n} done]`), `Chose "1 hour". [goal ${n - 1}/${n} done]`];
    const page = [line('9:41', 12, 6, 36, 18), line('Extend ride', 66, 47, 110, 21), line('How much more time?', 16, 183, 236, 20), line('30 minutes', 54, 227, 90, 19), line('1 hour', 54, 292, 54, 17), line('Extend ride', 156, 640, 101, 22)];
    const d = step(req, hist, page);
    expect(d.action).toMatchObject({ action: 'click' });
    expect((d.action as { coordinate: [number, number] }).coordinate[1]).toBeGreaterThan(600);
  });
});

