import { describe, expect, it } from 'vitest';
import { decide, planTask, tabAbout } from '../../models/reference/roles/policy.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';
import { aboutness, hasWordVector, wordSimilarity } from '../../models/reference/word-vectors.js';

/**
 * Generic mechanisms added after the sixteenth blind app's first contact: distributional word knowledge (GloVe vectors)
 * for choosing where a thing is kept, and the same button on several rows told apart by the thing the request names.
 * Every request and screen here is invented (a "Tidewell" marina app); none is a built-in app's.
 */
const line = (text: string, x: number, y: number, w = 120, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const step = (instruction: string, history: string[], lines: OcrLine[]) => decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });

describe('word vectors (GloVe 100-d, int8 cache built from the npm package)', () => {
  it('know everyday associations and not made-up brand words', () => {
    expect(hasWordVector('harbour')).toBe(true);
    expect(hasWordVector('tidewellx')).toBe(false);
    expect(wordSimilarity('boat', 'sailing')!).toBeGreaterThan(0.5);
    expect(wordSimilarity('boat', 'sailing')!).toBeGreaterThan(wordSimilarity('boat', 'invoice')!);
    // Plural and past forms find their word.
    expect(wordSimilarity('moorings', 'mooring')).toBe(1);
    expect(wordSimilarity('tidewellx', 'boat')).toBeUndefined();
    expect(aboutness(['children', 'lunch', 'class'], ['school'])!).toBeGreaterThan(aboutness(['zone', 'vehicle', 'meter'], ['school'])!);
  });
});

describe('policy: the tab a thing is kept under, by meaning', () => {
  it('a topical tab near in meaning to the thing sought scores; generic tabs and unrelated ones do not', () => {
    expect(tabAbout('Trips', ['cruise'])).toBeGreaterThan(0.5);
    expect(tabAbout('Home', ['mooring'])).toBe(0);
    expect(tabAbout('More', ['mooring'])).toBe(0);
    expect(tabAbout('Invoices', ['sailing'])).toBe(0);
  });

  it('looks in the tab whose label is about the thing before scrolling a tab that is not', () => {
    // (No word of the request is a tab's: only meaning says that a cruise is among the trips.)
    const req = 'Cancel my Harbour Lights cruise in Tidewell.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const open = plan.goals.findIndex((g) => g.kind === 'open');
    const hist = plan.goals.slice(0, open + 1).map((g, i) => `Did ${g.text}. [goal ${i + 1}/${n} done]`);
    const home = [
      line('9:41', 12, 6, 36, 18),
      line('Tidewell', 16, 48, 100, 22),
      line('Welcome back', 16, 120, 160, 24),
      line('Berth B-14 paid until July', 16, 170, 260, 18),
      line('Home', 20, 880, 50, 18),
      line('Invoices', 110, 880, 70, 18),
      line('Trips', 210, 880, 70, 18),
      line('More', 320, 880, 50, 18),
    ];
    const d = step(req, hist, home);
    expect(d.action).toMatchObject({ action: 'click' });
    const [x, y] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(y).toBeGreaterThan(870);
    expect(x).toBeGreaterThan(200);
    expect(x).toBeLessThan(290);
  });
});

describe('policy: the same button on several rows', () => {
  it('taps the one on the row of the thing the request names', () => {
    const req = 'Pay the Fuel dock invoice in Tidewell.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const gi = plan.goals.findIndex((g) => g.kind === 'tap');
    const hist = plan.goals.slice(0, Math.max(0, gi)).map((g, i) => `Did ${g.text}. [goal ${i + 1}/${n} done]`);
    const page = [
      line('9:41', 12, 6, 36, 18),
      line('Invoices', 16, 48, 100, 22),
      line('Berth rental', 74, 200, 120, 20),
      line('Pay', 320, 212, 40, 20),
      line('Fuel dock', 74, 280, 100, 20),
      line('Pay', 320, 292, 40, 20),
      line('Winter storage', 74, 360, 140, 20),
      line('Pay', 320, 372, 40, 20),
    ];
    const d = step(req, hist, page);
    expect(d.action).toMatchObject({ action: 'click' });
    const [, y] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(y).toBeGreaterThan(285);
    expect(y).toBeLessThan(310);
  });
});

describe('policy: the app named before a clause of time, and the home screen', () => {
  it('"… for them in Tidewell before the prices go up": Tidewell is the app', () => {
    const plan = planTask('Sam is bringing more gear than fits. Please book a second locker for them in Tidewell before the prices go up.', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'Tidewell' });
  });

  // (A regression test of the launcher's dense layout: with the clock in the top-bar band the home screen was not read as
  // one, and its icon labels were taken for the app's tabs — "Opened the Settings tab to look for …".)
  it('never takes the home screen\'s icon labels for an app\'s tabs (the 29-icon home screen as the OCR reads it)', () => {
    const req = 'Please buy a 32 kg checked bag for Freya on the Lisbon trip in Zephra.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    // Back on the home screen with the app re-opened twice already: nothing of the app is here to look through.
    const hist = [`Opened the Zephra app. [goal 1/${n} done]`, `Re-opened the Zephra app. [goal 2/${n}: reopen 1]`, `Re-opened the Zephra app. [goal 2/${n}: reopen 2]`];
    const launcher = [
      line("9:41", 14, 8, 33, 15),
      line("LTE 100% [", 291, 8, 84, 14),
      line("9:41", 161, 63, 88, 40),
      line("Monday, June 2", 147, 107, 118, 20),
      line("S", 247, 154, 16, 20),
      line("M", 339, 152, 28, 26),
      line("Foodie", 35, 198, 49, 15),
      line("Notes", 133, 196, 47, 19),
      line("Settings", 225, 197, 60, 18),
      line("Mail", 338, 197, 30, 16),
      line("s", 149, 239, 17, 20),
      line("M", 340, 238, 26, 23),
      line("Clock", 39, 283, 40, 15),
      line("ShopMart", 123, 282, 69, 18),
      line("Contacts", 224, 284, 63, 14),
      line("Messages", 317, 283, 72, 17),
      line("31", 42, 322, 33, 25),
      line("RX", 234, 321, 42, 29),
      line("Calendar", 28, 369, 63, 14),
      line("Library", 131, 367, 51, 18),
      line("Pharmacy", 219, 367, 71, 19),
      line("Bank", 334, 368, 39, 15),
      line("PF", 335, 407, 37, 25),
      line("Transit", 34, 453, 51, 16),
      line("HomeHub", 122, 452, 71, 17),
      line("Parkspot", 222, 452, 66, 18),
      line("PulseFit", 323, 452, 61, 17),
      line("PH", 40, 491, 40, 28),
      line("PP", 138, 493, 38, 23),
      line("FF", 239, 494, 33, 22),
      line("RP", 330, 489, 45, 31),
      line("ParcelHub", 22, 537, 74, 17),
      line("PawPoint", 123, 537, 69, 17),
      line("FreshFold", 219, 537, 72, 17),
      line("ReelPass", 319, 537, 67, 17),
      line("e", 57, 584, 16, 13),
      line("sp", 138, 577, 40, 30),
      line("Sa", 238, 578, 36, 24),
      line("Bw", 333, 578, 43, 24),
      line("Fernly", 35, 622, 47, 19),
      line("Splitto", 134, 623, 47, 15),
      line("Saffra", 234, 623, 43, 15),
      line("Bellwise", 324, 621, 60, 19),
      line("Zp", 38, 660, 42, 34),
      line("Nv", 138, 663, 38, 24),
      line("W", 241, 664, 28, 21),
      line("Zephra", 35, 709, 51, 16),
      line("Norvale", 130, 709, 55, 14),
      line("Weather", 225, 707, 60, 18),
      line("Camera", 326, 709, 55, 14),
      line("M", 45, 747, 28, 26),
      line("Music", 38, 793, 42, 15),
    ];
    const d = step(req, hist, launcher);
    expect(d.conclusion).not.toMatch(/ tab /);
  });
});
