import { describe, expect, it } from 'vitest';
import { exploreStep, readExplore } from '../../models/reference/roles/policy-explore.js';
import { formFields, formValues } from '../../models/reference/roles/policy-form.js';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { searchStep } from '../../models/reference/roles/policy-search.js';
import type { SwitchBox } from '../../models/reference/roles/policy-vision.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Controls a generic policy must reach where apps put them (read off the templates and v32 corpora of seeds 33–34):
 * an action in the page's top bar, a switch under a floating button, and the app whose first screen shows the kind of
 * app the request names. Every app, screen and name here is invented.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const input = (instruction: string, history: string[], lines: OcrLine[], switches: SwitchBox[] = []) => ({ instruction, guidance: [] as string[], history, lines, screen, temperature: 0, random: mulberry32(1), switches });
const at = (d: { action: { action: string; coordinate?: [number, number] } }, lines: OcrLine[]): string | undefined => {
  if (d.action.action !== 'click' || !d.action.coordinate) return undefined;
  const [x, y] = d.action.coordinate;
  return lines.find((l) => x >= l.box.x && x <= l.box.x + l.box.w && y >= l.box.y && y <= l.box.y + l.box.h)?.text;
};

describe('an action in the top bar of an open thing', () => {
  const request = 'Shelve the memo "Dock rota draft" in Quillo.';
  const page = [line('9:41', 12, 6, 36, 18), line('←', 20, 48, 20, 20), line('Shelve', 282, 47, 60, 20), line('Dock rota draft', 16, 104, 200, 26), line('Ines Moro', 72, 150, 100), line('Hi, here is the rota for next week.', 16, 210, 320), line('Reply', 80, 300, 60), line('Close', 280, 300, 60)];
  const hist = ['Opened the Quillo app. [goal 1/3 done]', 'Chose "Dock rota draft". [search 1: option Dock rota draft #a1]'];

  it('is tapped when it is the request\'s own verb', () => {
    const d = searchStep(input(request, hist, page), 'Quillo');
    expect(at(d, page)).toBe('Shelve');
  });

  it('the bar\'s other words are not buttons: a verb the request does not use is left alone', () => {
    const other = page.map((l) => (l.text === 'Shelve' ? line('Forward', 282, 47, 70, 20) : l));
    const d = searchStep(input(request, hist, other), 'Quillo');
    expect(at(d, other)).not.toBe('Forward');
  });
});

describe('a switch hidden under a floating button', () => {
  const rows = [line('9:41', 12, 6, 36, 18), line('Alarms', 16, 50, 90, 24), line('Tea', 30, 190, 60, 22), line('Laundry', 30, 310, 80, 22), line('Stretch', 30, 810, 80, 22), line('+ New alarm', 262, 792, 120, 24)];
  const sws: SwitchBox[] = [{ x: 330, y: 185, w: 52, h: 30, on: true }, { x: 330, y: 305, w: 52, h: 30, on: true }];
  const hist = ['Opened the Tickr app. [goal 1/2 done]'];

  it('is scrolled clear before it is tapped, never tapped through the button', () => {
    const d = decide(input('Turn my Stretch alarm Off.', hist, rows, sws));
    expect(d.action.action).toBe('swipe');
    expect(d.conclusion).toMatch(/uncover the switch of "Stretch"/);
  });

  it('once clear (or when nothing covers it) the switch is tapped', () => {
    const clear = [...rows.filter((l) => l.text !== 'Stretch'), line('Stretch', 30, 430, 80, 22)];
    const d = decide(input('Turn my Stretch alarm Off.', hist, clear, [...sws, { x: 330, y: 425, w: 52, h: 30, on: true }]));
    expect(d.action).toEqual({ action: 'click', coordinate: [356, 440] });
  });
});

const glimmoLess = (): OcrLine[] => [line('ReelBox', 20, 50), line('Now showing', 20, 120), line('Tickets', 130, 880, 60)];

describe('the app whose first screen shows the kind of app the request names', () => {
  it('is taken at once, however little else of the request it shows', () => {
    const home = [line('9:41', 12, 6, 36, 18), line('ReelBox', 30, 300, 70, 16), line('Tallyo', 130, 300, 70, 16), line('Notes', 230, 300, 60, 16)];
    const cue = { words: ['seat', 'preference', 'front'], verbs: [], names: ['Front'], request: 'update my film app preferences so the seat preference is Front', text: 'Can you update my film app preferences so the seat preference is Front?', context: ['film'] };
    const first = exploreStep(readExplore([]), home, screen, cue, true);
    expect(first.kind).toBe('peek');
    const peeked = first.kind === 'peek' ? first.app : '';
    // ReelBox shows "Films" (the kind) and nothing else of the request; it is the app when it was looked into first.
    const glimmo = [line('ReelBox', 20, 50), line('Now showing', 20, 120), line('Films', 30, 880, 60), line('Tickets', 130, 880, 60)];
    const hist = [`Opened ${peeked} to look inside. [apps ${first.kind === 'peek' ? (first.apps ?? []).join('|') : ''}] ${first.note}`];
    const next = exploreStep(readExplore(hist), glimmo, screen, cue, false);
    expect(peeked).toBe('ReelBox');
    expect(next).toMatchObject({ kind: 'stay', app: 'ReelBox' });
    // Without the kind on it, the first screen settles nothing: the next app is looked into.
    const bare = glimmoLess();
    expect(exploreStep(readExplore(hist), bare, screen, cue, false).kind).toBe('peek');
  });
});

describe('a name given with a preposition inside it', () => {
  it('"call it Gift from Grandma" is one name; "name it Lunch for Friday" is a name and a day', () => {
    expect(formValues('Follow parcel QX4411 and call it Socks from Oma.').map((v) => v.value)).toContain('Socks from Oma');
    const lunch = formValues('Add an event and name it Lunch for Friday.').map((v) => v.value);
    expect(lunch).not.toContain('Lunch for Friday');
    expect(formValues('Add a code 4411 and name it Dog Sitter in Latchly.').map((v) => v.value)).not.toContain('Dog Sitter in Latchly');
  });
});

describe('a form with a full-width button under it', () => {
  it('the button\'s centred word is no field label', () => {
    const form = [line('Code', 26, 164, 60, 18), line('QX4411', 42, 206, 110, 20), line('Nickname (optional)', 26, 284, 170, 18), line('e.g. Birthday gift', 42, 326, 140, 20), line('Follow', 176, 436, 60, 20)];
    const labels = formFields(form, screen).map((f) => f.label.text);
    expect(labels).toEqual(['Code', 'Nickname (optional)']);
  });
});

describe('a flow whose remaining values are asked on a later page', () => {
  const request = 'Biscuit is running low on Zyltra 10 mg tablet. Ask the clinic for a 60-day supply renewal, Curbside pickup please.';
  const page = [line('9:41', 12, 6, 36, 18), line('Medication', 66, 47, 120, 22), line('Zyltra 10 mg tablet', 30, 118, 220, 24), line('1 tablet by mouth daily', 30, 150, 200), line('Prescribed by', 16, 234, 110), line('Dr. Ada Holm', 250, 234, 140), line('60-day supply', 16, 382, 120), line('$31.20', 340, 382, 56), line('Renewals left', 16, 330, 120), line('2', 380, 330, 12), line('Request a renewal', 120, 448, 170, 22)];
  const hist = ['Opened the Petlo app. [goal 1/5 done]', 'Tapped "Zyltra 10 mg tablet". [search 1: tap #a1]', 'Tapped "60-day supply". [search 2: tap #a2]'];

  it('its action button leads on once the page, seen whole, offers none of them', () => {
    const d = searchStep(input(request, hist, page), 'Petlo');
    expect(at(d, page)).toBe('Request a renewal');
    expect(d.conclusion).toMatch(/: tap #/);
  });

  it('while a remaining value is offered on the page, it is chosen first', () => {
    const withOption = [...page, line('Curbside pickup', 16, 520, 140), line('Home delivery', 200, 520, 130)];
    const d = searchStep(input(request, hist, withOption), 'Petlo');
    expect(at(d, withOption)).toBe('Curbside pickup');
  });
});

describe('a thing to remove, named before the place it is kept', () => {
  it('"the alarm labelled Work from my clock" is the alarm "Work"', () => {
    const goals = planTask('Would you remove the alarm labelled Early Run from my clock?', []).goals;
    expect(goals.find((g) => g.kind === 'press')).toMatchObject({ target: 'Early Run' });
  });
});

describe('an event "with that title"', () => {
  it('takes the title the request said first, whole', () => {
    const goals = planTask('I just booked Tea with Odile for May 14. It starts at 16:00, so please create an event with that title in the Calendar app.', []).goals;
    expect(goals.map((g) => g.text)).toContain('type the title Tea with Odile');
  });
});

describe('a thing asked for "on loan"', () => {
  it('is borrowed, not bought', () => {
    const goals = planTask('Can you get me a copy of The Quiet Fen on loan from the library?', []).goals;
    expect(goals.map((g) => g.text)).toContain('tap Borrow');
  });
});
