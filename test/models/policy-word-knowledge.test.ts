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
