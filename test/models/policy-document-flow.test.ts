import { describe, expect, it } from 'vitest';
import { formFields } from '../../models/reference/roles/policy-form.js';
import { searchStep } from '../../models/reference/roles/policy-search.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * The search by screen relevance on a document-copy flow of an invented pension app ("Tallowby"): the name the request
 * asks for is read without the sentence's verb, and a means said in one plain word ("by post") is chosen where the
 * app offers it as an option. Nothing here is a built-in app's.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const input = (instruction: string, history: string[], lines: OcrLine[]) => ({ instruction, history, lines, screen, temperature: 0, random: mulberry32(1) });
const tapped = (d: { action: { action: string; coordinate?: [number, number] } }, lines: OcrLine[]): string | undefined => {
  if (d.action.action !== 'click' || !d.action.coordinate) return undefined;
  const [x, y] = d.action.coordinate;
  return lines.find((l) => x >= l.box.x && x <= l.box.x + l.box.w && y >= l.box.y && y <= l.box.y + l.box.h)?.text;
};

const request = 'I need some records for my Harbour Saver account. Ask Tallowby to send the Statement of account by post.';
const tabs = [line('Home', 30, 880, 50), line('Plans', 130, 880, 50), line('Letters', 230, 880, 60), line('Profile', 320, 880, 60)];
const start = ['Opened the Tallowby app. [goal 1/5 done]', 'Chose "Harbour Saver". [search 1: option Harbour Saver #a1]'];

describe('policy search: a document sent by a means the request names', () => {
  it('reads "Send the Statement" as the name Statement: its row, not an earlier row sharing a word of the request', () => {
    const lines = [line('9:41', 12, 6, 36, 18), line('Harbour Saver', 64, 46), line('Letters for this plan. Tap one to get a copy', 16, 243, 330), line('Account summary', 68, 279), line('Harbour Saver · Issued Apr 2, 2025', 68, 300, 250), line('Statement of account', 68, 345), line('Harbour Saver · Issued Mar 3, 2025', 68, 366, 250), line('Fee schedule', 68, 411), line('Harbour Saver · Issued Mar 3, 2025', 68, 432, 250), ...tabs];
    const d = searchStep(input(request, start, lines), 'Tallowby');
    expect(tapped(d, lines)).toBe('Statement of account');
  });

  it('chooses "Post" on the send sheet before its committing button, then commits', () => {
    const sheet = [line('9:41', 12, 6, 36, 18), line('Statement of account', 20, 467), line('Harbour Saver', 20, 490), line('How should we send it?', 20, 520, 200), line('Email', 20, 578, 60), line('sam.reyes@example.com', 20, 600, 200), line('Post', 20, 664, 50), line('12 Elm Road, Fairbury, NE 68352', 20, 684, 260), line('Post takes 5-7 business days.', 20, 714, 240), line('Send copy', 160, 791, 100, 24), line('Cancel', 176, 863, 60, 24)];
    const hist = [...start, 'Tapped "Statement of account". [search 2: tap #b2]'];
    const d = searchStep(input(request, hist, sheet), 'Tallowby');
    expect(tapped(d, sheet)).toBe('Post');
    expect(d.conclusion).toMatch(/\[search 3: option post #/);
    const next = searchStep(input(request, [...hist, d.conclusion], sheet), 'Tallowby');
    expect(tapped(next, sheet)).toBe('Send copy');
  });

  it('a means of another kind is no option word: "by Friday" or "by then" chooses nothing named so', () => {
    const sheet = [line('9:41', 12, 6, 36, 18), line('How should we send it?', 20, 520, 200), line('Friday', 20, 578, 60), line('Then', 20, 664, 50), line('Send copy', 160, 791, 100, 24)];
    const hist = [...start, 'Tapped "Statement of account". [search 2: tap #b2]'];
    for (const r of ['Ask Tallowby to send the Statement of account by then.']) {
      const d = searchStep(input(r, hist, sheet), 'Tallowby');
      expect(tapped(d, sheet)).not.toBe('Then');
    }
  });
});

describe('policy search: a button that adds something the request never speaks of', () => {
  it('"+ Add a beneficiary" on a plan page is no way to send a document: it is not committed', () => {
    const page = [line('9:41', 12, 6, 36, 18), line('Harbour Saver', 64, 46), line('Overview', 20, 198, 80), line('Beneficiaries', 150, 198, 110), line('Letters', 300, 198, 70), line('Sam Reyes · 100%', 20, 300, 200), line('+ Add a beneficiary', 20, 655, 180), ...tabs];
    const hist = [...start, 'Opened the "Beneficiaries" segment. [search 2: tab beneficiaries #c3]'];
    const d = searchStep(input(request, hist, page), 'Tallowby');
    expect(tapped(d, page)).not.toBe('+ Add a beneficiary');
    expect(d.conclusion).not.toContain(': commit');
  });

  it('but a request to add that thing still takes it', () => {
    const page = [line('9:41', 12, 6, 36, 18), line('Harbour Saver', 64, 46), line('Sam Reyes · 100%', 20, 300, 200), line('+ Add a beneficiary', 20, 655, 180), ...tabs];
    const d = searchStep(input('Add Lee Park as a beneficiary of my Harbour Saver plan in Tallowby.', start, page), 'Tallowby');
    expect(tapped(d, page)).toBe('+ Add a beneficiary');
  });
});

describe('form fields: a question label of five or six words', () => {
  it('"How much will it cost?" heads the box under it ("$ Estimated cost"); the hint sentence below is no input', () => {
    const lines = [line('9:41', 12, 6, 36, 18), line('New request', 64, 46), line('Picked: Monday, May 26, 2025', 14, 742, 209, 21), line('How much will it cost?', 25, 792, 174, 17), line('$ Estimated cost', 36, 831, 143, 25), line('Your best guess is fine; we will confirm it.', 26, 878, 305, 14)];
    const f = formFields(lines, screen).find((x) => x.input?.text === '$ Estimated cost');
    expect(f?.label.text).toBe('How much will it cost?');
    expect(formFields(lines, screen).some((x) => x.label.text === '$ Estimated cost')).toBe(false);
  });
});

describe('policy search: the way into the form of a thing to add', () => {
  const page = [line('9:41', 12, 6, 36, 18), line('Harbour Saver', 64, 46), line('Overview', 20, 198, 80), line('Beneficiaries', 150, 198, 110), line('BENEFICIARIES', 16, 250, 140), line('+ Add a beneficiary', 16, 300, 180), line('Sam Reyes', 16, 350, 120), line('Partner · 100%', 16, 372, 120), line('Remove', 320, 358, 70), ...tabs];
  const hist = [...start, 'Opened the "Beneficiaries" segment. [search 2: tab beneficiaries #c3]'];
  it.each([
    'Add Lee Park as a beneficiary of my Harbour Saver plan in Tallowby: relationship Partner, share 50%.',
    'Name Lee Park as a beneficiary on Harbour Saver in Tallowby, relationship Partner, share 50%.',
  ])('"+ Add a beneficiary", not the row that shows one of the values ("Partner"): %s', (r) => {
    const d = searchStep(input(r, hist, page), 'Tallowby');
    expect(tapped(d, page)).toBe('+ Add a beneficiary');
  });
});

describe('policy search: a money box under a question', () => {
  it('"How much will it cost?" over "$ Estimated cost" takes the request\'s amount', () => {
    const page = [line('9:41', 12, 6, 36, 18), line('New request', 64, 44), line('When did it happen?', 16, 96, 180), line('Picked: Monday, May 26, 2025', 14, 792, 209, 21), line('How much will it cost?', 25, 840, 174, 17), line('$ Estimated cost', 36, 878, 143, 25)];
    const r = 'Start a hardship request in Tallowby for Roof repair on Harbour Saver, dated May 26, estimated at $350.';
    const hist = [...start, 'Tapped "Next". [search 2: tap #d4]', 'Chose "26". [search 3: option May 26 #e5]', 'Chose "Roof repair". [search 4: option Roof repair #f6]'];
    const d = searchStep(input(r, hist, page), 'Tallowby');
    expect(tapped(d, page)).toBe('$ Estimated cost');
    expect(d.conclusion).toMatch(/\[search 5: field \$350 /);
  });
});

describe('policy search: an add form whose boxes show what they take', () => {
  const form = [line('9:41', 12, 6, 36, 18), line('Add an asset', 64, 46), line('Add an item to the plan of Harbour Saver.', 16, 96, 330), line('What is it?', 16, 141, 100), line('Item name', 30, 184, 90), line('For example: Gold bracelet, or the make and model', 16, 226, 360, 16), line('Category', 16, 276, 90), line('Jewelry', 30, 312, 70), line('Watches', 150, 313, 70), line('Bicycles', 150, 360, 70), line('Other', 30, 455, 50), line('What would it cost to replace?', 16, 523, 260), line('$ Replacement value', 30, 561, 170, 25), line('What it would cost to replace it new today.', 16, 606, 330, 16), line('Continue', 170, 705, 80, 24)];
  const r = 'Add my Brompton Folding bike to Harbour Saver in Tallowby, under Bicycles, worth $1400.';
  const hist = [...start, 'Tapped "+ Add an asset". [search 2: tap #g7]', 'Chose "Bicycles". [search 3: option Bicycles #h8]'];
  it('the amount goes into the "$ Replacement value" box, tapped on its own line, not on the sentence under it', () => {
    const d = searchStep(input(r, hist, form), 'Tallowby');
    expect(tapped(d, form)).toBe('$ Replacement value');
    expect(d.conclusion).toMatch(/field \$1400 /);
  });
  it('the thing\'s name goes into the box under "What is it?" ("Item name")', () => {
    const typed = [...hist, 'Tapped the field "$ Replacement value" for "$1400". [search 4: field $1400 ~15 @573 #h8]', 'Typed "1400" into the field. [search 5: typed $1400 #h8]'];
    const d = searchStep(input(r, typed, form), 'Tallowby');
    expect(tapped(d, form)).toBe('Item name');
  });
});
