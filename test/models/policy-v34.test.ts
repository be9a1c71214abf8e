import { describe, expect, it } from 'vitest';
import { fieldScore, formFields, formValues, optionScore } from '../../models/reference/roles/policy-form.js';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { searchStep } from '../../models/reference/roles/policy-search.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Where a generic policy looks for what a request asks (read off the templates and v34 corpora of seeds 33–34):
 * a form of the app's own behind its catch-all tab, a thing to put in a cart on the home list rather than in the
 * cart, and a field's label that is no option. Every app, screen and name here is invented.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const input = (instruction: string, history: string[], lines: OcrLine[]) => ({ instruction, guidance: [] as string[], history, lines, screen, temperature: 0, random: mulberry32(1), switches: [] });
const at = (d: { action: { action: string; coordinate?: [number, number] } }, lines: OcrLine[]): string | undefined => {
  if (d.action.action !== 'click' || !d.action.coordinate) return undefined;
  const [x, y] = d.action.coordinate;
  return lines.find((l) => x >= l.box.x && x <= l.box.x + l.box.w && y >= l.box.y && y <= l.box.y + l.box.h)?.text;
};

describe('a form of the app\'s own, not on the first tab', () => {
  // A ferry app: tabs at the top, the first ("Routes") open; the claim form is kept under "More".
  const page = [
    line('9:41', 12, 6, 36, 18),
    line('Ferrio', 16, 46, 90, 24),
    line('Routes', 40, 100, 70), line('Passes', 130, 100, 70), line('Card', 230, 100, 70), line('More', 340, 100, 50),
    line('Harbour Loop', 20, 180, 150), line('Every 20 min', 20, 206, 120),
    line('Island Express', 20, 260, 150), line('Every 45 min', 20, 286, 120),
  ];
  const hist = ['Opened the Ferrio app. [goal 1/6 done]'];

  it('is looked for in the catch-all tab at once, before a tab only loosely related to a name of the request', () => {
    const d = decide(input('File a lost property report for an Umbrella left on Bay Shuttle, described as "Green umbrella with a wooden handle".', hist, page));
    expect(at(d, page)).toBe('More');
  });

  it('a tab that shares a word with the request still comes first', () => {
    const d = decide(input('Buy a Weekend pass on Ferrio.', hist, page));
    expect(at(d, page)).not.toBe('More');
  });
});

describe('a thing to put in the cart', () => {
  // A grocery app: the home list of shops runs below the fold; tabs Home | Basket | Orders at the bottom.
  const home = [
    line('9:41', 12, 6, 36, 18),
    line('Grocio', 12, 44, 90, 24),
    line('Shops near you', 16, 180, 180),
    line('Leafy Corner', 100, 240, 130), line('Fruit · Veg', 100, 266, 100),
    line('Daily Dairy', 100, 340, 130), line('Milk · Cheese', 100, 366, 110),
    line('Crumb & Co', 100, 440, 130), line('Bakery', 100, 466, 80),
    line('Fishmonger Bay', 100, 760, 150), line('Fish', 100, 786, 60),
    line('Home', 40, 889, 50, 15), line('Basket', 180, 887, 60, 20), line('Orders', 320, 887, 55, 19),
  ];
  const hist = ['Opened the Grocio app. [goal 1/4 done]'];

  it('is not looked for in the basket the request puts it in, nor in the orders it says not to place', () => {
    const d = decide(input('Put 3 Sourdough Loaf from Oven Hill in my Grocio basket, but do not order yet.', hist, home));
    expect(at(d, home)).toBeUndefined();
    expect(d.action.action).toBe('swipe');
  });
});

describe('a field\'s label is no option', () => {
  it('"Phone number" is not the option "Phone" described; "Phone case" still is', () => {
    expect(optionScore('Phone number', 'Phone')).toBeLessThan(0.95);
    expect(optionScore('Card name', 'Card')).toBeLessThan(0.95);
    expect(optionScore('Dry Cleaning service', 'Dry Cleaning')).toBeGreaterThanOrEqual(0.95);
  });
});

describe('values a request gives in everyday wording', () => {
  it('a mail\'s text said last, unquoted, after "that reads:" is its body, end mark included', () => {
    const goals = planTask('I need to follow up quickly. Send a mail to bo.hale@example.org, subject Crate count, that reads: See you at the dock.', []).goals;
    expect(goals.map((g) => g.text)).toEqual(['open Mail', 'tap Compose', 'type bo.hale@example.org in To', 'type the subject Crate count', 'type the message', 'send it']);
    expect(goals.find((g) => g.text === 'type the message')).toMatchObject({ value: 'See you at the dock.' });
  });

  it('a code of capitals and digits (a licence plate) is a value typed as written, so the request is a form', () => {
    expect(formValues('then a boat to my marina app named Sea Otter, with hull number 7QKX204 from Maine', [])).toContainEqual(expect.objectContaining({ value: '7QKX204', kind: 'number' }));
    const goals = planTask('Would you add a boat to my marina app named Sea Otter, with hull number 7QKX204 from Maine?', []).goals;
    expect(goals[1]).toMatchObject({ kind: 'tap', targets: expect.arrayContaining(['Add boat']) });
    expect(goals.filter((g) => g.kind === 'field')).toHaveLength(3);
    // (A short mark with a letter — "Route 12X" — stays part of its name.)
    expect(formValues('then the Route 12X bus', []).map((v) => v.value)).toEqual(['Route 12X']);
  });
});

describe('note-style requests and where a thing is added', () => {
  it('"label: verb X" is the verb done in the labelled place; "label: noun values" stays a label with values', () => {
    // (Read before as a button named after the label: "tap Memos", "tap Lib Borrow".)
    const taps = (t: string): string[][] => planTask(t, []).goals.flatMap((g) => (g.kind === 'tap' ? [g.targets] : []));
    const del = taps('memos: rm "Old packing list"');
    expect(del[0]).toEqual(['Old packing list']);
    expect(del[1]).toContain('Delete');
    expect(del.flat()).not.toContain('Memos');
    const borrow = taps('lib: borrow The Salt Road');
    expect(borrow[0]).toEqual(['The Salt Road']);
    expect(borrow[1]![0]).toBe('Borrow');
    // (A label's values, no verb of their own: a form of the label's kind, as before.)
    expect(planTask('dock: berth 4471, Sea Otter, 2 hours', []).goals.map((g) => g.text)).toEqual(['open the app the request names', 'tap Dock berth', 'fill in 4471', 'fill in Sea Otter', 'submit the form', 'confirm']);
  });

  it('a thing removed "from my clock app" is named without its kind and the app', () => {
    const goals = planTask('Please remove the Tide check alarm from my clock app.', []).goals;
    expect(goals[0]).toMatchObject({ kind: 'open', target: 'Clock' });
    expect(goals[1]).toMatchObject({ kind: 'press', target: 'Tide check' });
  });

  it('"to my marina app" names where the request is done, no section in the app to open', () => {
    const tap = planTask('Would you add a boat to my marina app named Sea Otter, with hull number 7QKX204 from Maine?', []).goals[1];
    expect(tap).toMatchObject({ kind: 'tap' });
    expect((tap as { via?: string[] }).via).toContain('Boats');
    expect((tap as { via?: string[] }).via).not.toContain('Marina');
  });

  it('the section of a form\'s kind is opened on the catch-all tab opened to look for it', () => {
    const account = [
      line('9:41', 12, 6, 36, 18),
      line('Account', 15, 47, 88, 21),
      line('Ana Lind', 73, 99, 74, 18),
      line('Boats', 15, 204, 69, 18), line('2 boats · default Sea Lark', 15, 229, 211, 14),
      line('Payment methods', 14, 267, 148, 21), line('Visa ****4821', 16, 293, 91, 14),
      line('Berths', 51, 886, 50, 18), line('Trips', 173, 887, 66, 17), line('Account', 314, 887, 60, 19),
    ];
    const request = 'Would you add a boat to my marina app named Sea Otter, with hull number 7QKX204 from Maine?';
    const hist = ['Opened the Harbr app. [goal 1/7 done]', 'Opened "Where is your berth?" to look for "Add boat". [goal 2/7: via 1]', 'Opened the "Account" tab to look for "Add boat". [goal 2/7: tab Account]'];
    expect(at(decide(input(request, hist, account)), account)).toBe('Boats');
  });

  it('a section opened on a tab is not opened again on that tab (a row that did nothing): the next tab is looked in', () => {
    const receipts = [
      line('9:41', 12, 6, 36, 18),
      line('Account', 15, 47, 88, 21),
      line('Vehicles', 15, 204, 69, 18), line('2 boats · default Sea Lark', 15, 229, 211, 14),
      line('Receipts', 15, 396, 80, 18), line('Sent to ana@example.com', 15, 420, 200, 14),
      line('Berths', 51, 886, 50, 18), line('Trips', 173, 887, 66, 17), line('Account', 314, 887, 60, 19),
    ];
    const request = 'Send the Harbr receipt from May 3 in berth 1270 to my email.';
    const hist = ['Opened the Harbr app. [goal 1/7 done]', 'Opened the "Account" tab to look for "Send receipt". [goal 2/7: tab Account]', 'Opened "Receipts" to look for "Send receipt". [goal 2/7: via 1]'];
    const d = decide(input(request, hist, receipts));
    expect(d.conclusion).not.toMatch(/via 2/);
    expect(at(d, receipts)).not.toBe('Receipts');
  });
});

describe('a tab opened to look for a button', () => {
  it('is not opened again as the section that should hold it', () => {
    const mine = [
      line('9:41', 12, 6, 36, 18),
      line('My tickets', 15, 47, 120, 21),
      line('Ocean Drift', 15, 140, 120, 18), line('Fri, May 9 · 7:30 PM', 15, 163, 160, 14), line('2 tickets · Screen 3', 15, 183, 160, 14),
      line('Ocean Drift', 15, 240, 120, 18), line('Sat, May 10 · 6:00 PM', 15, 263, 160, 14), line('1 ticket · Screen 1', 15, 283, 160, 14),
      line('Films', 51, 886, 50, 18), line('My tickets', 130, 887, 90, 17), line('Wallet', 300, 887, 60, 19),
    ];
    const request = 'Cancel my Ocean Drift tickets on Friday, May 9.';
    const hist = ['Opened the Flickr app. [goal 1/6 done]', 'Tapped "Ocean Drift". [goal 4/6 done]', 'Swiped up to look for "Cancel". [goal 5/6: scroll 1 #abc]', 'Opened the "My tickets" tab to look for "Cancel". [goal 5/6: tab My tickets]'];
    const d = decide(input(request, hist, mine));
    expect(d.conclusion).not.toMatch(/via 1/);
    expect(at(d, mine)).not.toBe('My tickets');
  });
});

describe('the user\'s own booking of a thing the catalog shows too', () => {
  const front = [
    line('9:41', 12, 6, 36, 18),
    line('Screeny', 15, 46, 90, 22),
    line('Now showing', 16, 110, 140),
    line('Lantern Walk', 110, 160, 130), line('Drama · 1h 52m', 110, 186, 120),
    line('Salt Harbour', 110, 260, 130), line('Thriller · 2h 5m', 110, 286, 120),
    line('Films', 30, 887, 50, 18), line('My tickets', 130, 887, 80, 18), line('Wallet', 240, 887, 55, 18), line('Account', 320, 887, 60, 18),
  ];
  const request = 'Cancel my Lantern Walk tickets for Friday, May 9 in Screeny and take the money back as Gift credit.';

  it('is looked for on the "My …" tab first, not opened from the catalog\'s front page', () => {
    const d = decide(input(request, ['Opened the Screeny app. [goal 1/8 done]'], front));
    expect(at(d, front)).toBe('My tickets');
  });

  it('once that tab was opened, a thing shown by name is the one to open', () => {
    const hist = ['Opened the Screeny app. [goal 1/8 done]', 'Tapped "My tickets". [goal 2/8 done]'];
    const mine = [...front.slice(0, 2), line('Upcoming', 16, 110, 100), line('Lantern Walk', 30, 160, 130), line('Friday, May 9 · 7:30 PM', 30, 186, 200), ...front.slice(7)];
    expect(at(decide(input(request, hist, mine)), mine)).toBe('Lantern Walk');
  });
});

describe('a form that asks again for a choice after its send button', () => {
  it('"30-day" is the option "30-day supply"; a bare count is no option of a longer line', () => {
    expect(optionScore('30-day supply', '30-day')).toBeGreaterThanOrEqual(0.95);
    expect(optionScore('2 refills left', '2')).toBeLessThan(0.95);
  });

  it('has its choices made again on that page (one made on the page before did not count); typed text stays typed', () => {
    const form = [
      line('9:41', 12, 6, 36, 18),
      line('Refill request', 66, 47, 151, 22),
      line('Zyrtex 5 mg', 32, 118, 200, 25), line('For Pip · 2 refills left', 30, 147, 160, 20),
      line('How much?', 15, 218, 100, 14),
      line('14-day pack', 51, 254, 121, 21), line('28-day pack', 52, 323, 119, 23),
      line('Choose how much you need', 16, 453, 217, 17),
      line('Counter pickup', 52, 529, 130, 22), line('Courier', 51, 597, 90, 22),
      line('Send request', 145, 841, 123, 20),
    ];
    const hist = [
      'Opened the Vetly app. [goal 1/6 done]',
      'Tapped "Zyrtex 5 mg". [search 1: tap #a1]',
      'Tapped "14-day pack". [search 2: tap #a2]',
      'Tapped "Refill request". [search 3: tap #a2]',
      'Chose "Counter pickup". [search 4: option Counter #b1]',
      'Tapped "Send request". [search 5: commit #b1]',
    ];
    const d = searchStep(input('Pip is low on Zyrtex 5 mg. Ask the vet for a 14-day pack refill, Counter pickup please.', hist, form), 'Vetly');
    expect(at(d, form)).toBe('14-day pack');
    // (Chosen as the request's value again, not tapped as a control not yet tried.)
    expect(d.conclusion).toMatch(/^Chose "14-day pack"/);
  });
});

describe('a name of a thing of the field\'s kind', () => {
  it('goes to the field that names its kind in everyday English ("Montana" is a state), not one named after the thing', () => {
    const form = [
      line('9:41', 12, 6, 36, 18),
      line('Add boat', 66, 47, 151, 22),
      line('Hull number', 24, 140, 120, 20), line('e.g. 7QKX204', 42, 180, 120, 20),
      line('State', 24, 260, 60, 20), line('Choose a state', 42, 300, 140, 20),
      line('Boat name', 24, 380, 100, 20), line('e.g. Sea Lark', 42, 420, 120, 20),
      line('Save boat', 150, 700, 100, 22),
    ];
    const fields = formFields(form, screen);
    const state = fields.find((f) => f.label.text === 'State')!;
    const name = fields.find((f) => f.label.text === 'Boat name')!;
    const vermont = { value: 'Montana', input: 'Montana', kind: 'name' as const, cues: ['from', 'number'] };
    expect(fieldScore(vermont, state)).toBeGreaterThan(fieldScore(vermont, name));
    // (A made-up name has no kind in the lexicon: nothing gained.)
    expect(fieldScore({ ...vermont, value: 'Zorvane', input: 'Zorvane' }, state)).toBeLessThanOrEqual(0.5);
  });
});

describe('the way of a refund said as a statement', () => {
  const values = (t: string): string[] => planTask(t, []).goals.flatMap((g) => ('values' in g && Array.isArray(g.values) ? (g.values as unknown[]).filter((v): v is string => typeof v === 'string') : []));
  it('"X is fine for the money" is the refund taken as X, and the day the context named stays with the booking', () => {
    const v = values("I can't make it to Ocean Drift on Friday, May 9 anymore. Please cancel those tickets; Gift balance is fine for the money.");
    expect(v).toContain('Gift balance');
    expect(v).toContain('Friday, May 9');
    expect(values('Cancel my Ocean Drift seats for May 9. Back to my card is fine for the refund.')).toContain('Back to my card');
  });
  it('"any reason is fine" names no way of a refund', () => {
    expect(values('Cancel the Rex visit on May 3; any reason is fine.')).toEqual(['May 3']);
  });
});

describe('the user\'s preferred place, set in a drop-down', () => {
  const page = [
    line('9:41', 12, 6, 36, 18),
    line('My branch', 14, 47, 90, 21),
    line('Loans', 13, 99, 60, 20), line('Holds', 161, 100, 60, 18), line('My branch', 307, 99, 74, 22),
    line('Preferred branch', 25, 162, 130, 17),
    line('Downtown', 42, 205, 93, 18),
    line('Holds are sent to your preferred branch.', 0, 263, 290, 21),
  ];
  const request = 'Set my library pickup branch to Lakeside Plaza.';
  it('"Preferred branch" is the field for "my pickup branch"; a sentence that informs is no row to open', () => {
    const d = decide(input(request, ['Opened the Shelfy app. [goal 1/4 done]', 'Tapped "My branch". [goal 2/4 done]'], page));
    expect(at(d, page)).toBe('Downtown');
  });
  it('in its list of choices, a name the OCR read a letter short ("Lakeside Plaz") is still the option; a digit never', () => {
    expect(optionScore('Lakeside Plaz', 'Lakeside Plaza')).toBeGreaterThanOrEqual(0.95);
    expect(optionScore('Apartment 413', 'Apartment 412')).toBeLessThan(0.95);
    expect(optionScore('Classic Burgers', 'Classic Burger')).toBeLessThan(0.95);
  });
});
