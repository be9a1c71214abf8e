/**
 * The outcome-reading step (models/reference/roles/policy.ts revealOutcome): after the last goal, an item the episode
 * created from the request's words must be visible before the policy terminates; a list that appended it below the
 * fold is scrolled (bounded), a screen that does not change is not scrolled again.
 */
import { describe, expect, it } from 'vitest';
import type { OcrLine } from '../../domain/ports.js';
import { decide, MAX_REVEAL_SCROLLS, revealOutcome } from '../../models/reference/roles/policy.js';

const line = (text: string, x: number, y: number): OcrLine => ({ text, box: { x, y, w: 120, h: 20 }, confidence: 0.9 });
const SCREEN = { width: 412, height: 915 };
const TASK = 'Wake me at 8:05 AM on Tues; label it Pick up kids.';
const GUIDANCE = ['open Clock', 'tap + Add alarm', 'tap 7', 'tap 8', 'tap 00', 'tap 05', 'enter "Pick up kids" into the Alarm name field', 'tap Tue', 'tap Save alarm'];
// The steps of the guidance, done (the policy's own conclusions).
const DONE = [
  'Opened Clock. [goal 1/8 done]',
  'Tapped "+ Add alarm". [goal 2/8 done]',
  'Tapped "7". [goal 3/8 done]',
  'Tapped "8". [goal 4/8 done]',
  'Tapped "00". [goal 5/8 done]',
  'Tapped "05". [goal 6/8 done]',
  'Tapped the Alarm name field "Alarm name". [goal 7/8: focused]',
  'Typed "Pick up kids" into the Alarm name field. [goal 7/8 done]',
  'Tapped "Tue". [goal 8/8 done]',
  'Tapped "Save alarm". [goal 9/9 done]',
];
// The list's top after saving: older alarms and the toast, the new one below the fold.
const LIST_TOP = [line('9:41', 10, 6), line('Clock', 20, 45), line('Alarms', 16, 100), line('6:30 AM', 30, 150), line('Gym', 30, 195), line('7:15 AM', 30, 260), line('School run', 30, 305), line('Alarm saved', 140, 700), line('+ Add alarm', 230, 780)];
const LIST_END = [line('9:41', 10, 6), line('Clock', 20, 45), line('7:15 AM', 30, 150), line('School run', 30, 195), line('8:05 AM', 30, 260), line('Pick up kids', 30, 305), line('Tue', 30, 330), line('+ Add alarm', 230, 780)];
const base = { instruction: TASK, guidance: GUIDANCE, screen: SCREEN, temperature: 0, random: () => 0.5 };

describe('reading the outcome before terminating', () => {
  it('scrolls when the created item is not on the result screen, and terminates once it is', () => {
    const d1 = decide({ ...base, history: DONE, lines: LIST_TOP });
    expect(d1.action.action).toBe('swipe');
    expect(d1.conclusion).toMatch(/\[all goals done: reveal 1 #\w+\]$/);
    const d2 = decide({ ...base, history: [...DONE, d1.conclusion], lines: LIST_END });
    expect(d2.action).toEqual({ action: 'terminate', status: 'success' });
  });

  it('is bounded: stops when a scroll changed nothing, and after the maximum number of scrolls', () => {
    const d1 = decide({ ...base, history: DONE, lines: LIST_TOP });
    // The same screen again (the end of the list): no second scroll.
    const same = decide({ ...base, history: [...DONE, d1.conclusion], lines: LIST_TOP });
    expect(same.action.action).not.toBe('swipe');
    const many = Array.from({ length: MAX_REVEAL_SCROLLS }, (_, i) => `Swiped up to read the outcome. [all goals done: reveal ${i + 1} #x${i}]`);
    expect(revealOutcome(TASK, [...DONE, ...many], LIST_TOP, SCREEN)).toBeUndefined();
  });

  it('does nothing when the typed text is visible, or when nothing typed comes from the request', () => {
    expect(revealOutcome(TASK, DONE, LIST_END, SCREEN)).toBeUndefined();
    // A value read elsewhere (a code) and typed is not the request's: no outcome to look for.
    expect(revealOutcome('Enter the code from Messages into the bank app.', ['Typed "482913" into the Code field. [goal 4/5 done]'], LIST_TOP, SCREEN)).toBeUndefined();
    // Nothing typed at all.
    expect(revealOutcome(TASK, DONE.filter((c) => !c.startsWith('Typed')), LIST_TOP, SCREEN)).toBeUndefined();
  });
});
