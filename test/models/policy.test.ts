import { describe, expect, it } from 'vitest';
import { decide, matchScore, parseGoals } from '../../models/reference/roles/policy.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

const line = (text: string, x: number, y: number, w = 120, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const base = { guidance: [] as string[], history: [] as string[], screen, temperature: 0, random: mulberry32(1) };

describe('reference policy: goals', () => {
  it('splits instructions into typed sub-goals', () => {
    const goals = parseGoals('In the Foodie app, order 2 Fries from Burger Palace');
    expect(goals.map((g) => g.kind)).toEqual(['open', 'tap', 'add', 'tap']);
    expect(goals[2]).toMatchObject({ kind: 'add', target: 'Fries', qty: 2 });
    expect(parseGoals('Open Foodie and add Fish and Chips to the cart')[1]).toMatchObject({ kind: 'add', target: 'Fish and Chips', qty: 1 });
    expect(parseGoals('Search for "pad thai" and then tap Thai Garden')[0]).toMatchObject({ kind: 'type', field: 'search', value: 'pad thai', submit: true });
    expect(parseGoals('enter the delivery address 5 Elm Road, Springfield')[0]).toMatchObject({ kind: 'type', field: 'address', value: '5 Elm Road, Springfield' });
  });

  it('scores exact names above near-duplicates', () => {
    expect(matchScore('Burger Palace', 'Burger Palace')).toBe(1);
    expect(matchScore('BurgerPalace', 'Burger Palace')).toBe(1); // OCR drops spaces
    expect(matchScore('Burger Palace Express', 'Burger Palace')).toBeLessThan(0.9);
    expect(matchScore('Burger Place', 'Burger Palace')).toBeLessThanOrEqual(0.9);
    expect(matchScore('Sushi Go', 'Burger Palace')).toBeLessThan(0.4);
  });
});

describe('reference policy: decisions', () => {
  const list = [line('Burger Palace Express', 20, 120, 200), line('Burger Palace', 20, 200)];

  it('prefers guidance steps over the instruction', () => {
    const d = decide({ ...base, instruction: 'Open Mail', guidance: ['tap Burger Palace'], lines: list });
    expect(d.action).toEqual({ action: 'click', coordinate: [80, 210] });
  });

  it('at T>0 samples: mostly the exact name, sometimes the trap or a scroll, and jittered points', () => {
    const random = mulberry32(42);
    const picks = Array.from({ length: 200 }, () => decide({ ...base, instruction: 'tap Burger Palace', lines: list, temperature: 1, random }));
    const exact = picks.filter((p) => p.action.action === 'click' && p.action.coordinate[1] >= 200).length;
    expect(exact).toBeGreaterThan(150);
    expect(exact).toBeLessThan(200);
    expect(new Set(picks.map((p) => JSON.stringify(p.action))).size).toBeGreaterThan(10);
  });

  it('scrolls, then goes back, then gives up when the target never appears', () => {
    const history: string[] = [];
    const kinds: string[] = [];
    for (let i = 0; i < 8; i++) {
      const d = decide({ ...base, instruction: 'tap Sushi Go', history, lines: list });
      kinds.push(d.action.action === 'system_button' ? 'back' : d.action.action);
      history.push(d.conclusion);
      if (d.action.action === 'terminate') break;
    }
    expect(kinds).toEqual(['swipe', 'swipe', 'swipe', 'back', 'swipe', 'swipe', 'swipe', 'back']);
    const last = decide({ ...base, instruction: 'tap Sushi Go', history, lines: list });
    expect(last.action).toEqual({ action: 'terminate', status: 'failure' });
  });

  it('waits once, then terminates optimistically when no confirmation shows', () => {
    const history = ['Tapped "Burger Palace". [goal 1/1 done]'];
    const w = decide({ ...base, instruction: 'tap Burger Palace', history, lines: list });
    expect(w.action.action).toBe('wait');
    const t = decide({ ...base, instruction: 'tap Burger Palace', history: [...history, w.conclusion], lines: list });
    expect(t.action).toEqual({ action: 'terminate', status: 'success' });
  });

  it('gives up after the step budget', () => {
    const history = Array.from({ length: 12 }, () => 'Did something else.');
    expect(decide({ ...base, instruction: 'tap Burger Palace', history, lines: list }).action).toEqual({ action: 'terminate', status: 'failure' });
  });
});
