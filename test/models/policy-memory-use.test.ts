/**
 * The policy's recall from memory (models/reference/roles/policy-memory-use.ts): a form filled on one screen keeps
 * several remembered actions under one entry; a step this episode already took (its conclusion is in the history)
 * is not replayed, the next remembered one is.
 */
import { describe, expect, it } from 'vitest';
import type { MobileAction } from '../../domain/action.js';
import type { OcrLine } from '../../domain/ports.js';
import { PolicyMemory } from '../../models/reference/memory.js';
import { progressOrder, recallNotDone } from '../../models/reference/roles/policy-memory-use.js';

const line = (text: string, x: number, y: number): OcrLine => ({ text, box: { x, y, w: 80, h: 20 }, confidence: 0.9 });
const SCREEN = { width: 412, height: 915 };
// One form screen: the same chrome (status bar, title, Save) whatever field is being filled.
const FORM = [line('9:41', 10, 6), line('Add alarm', 66, 45), line('Save', 350, 47), line('Hour', 95, 142), line('7', 102, 161), line('PM', 283, 272), line('Alarm name', 41, 385), line('Save alarm', 154, 653)];
const TASK = 'Wake me at 7:55 PM; label it Gym.';

describe('recall from memory', () => {
  it('does not replay a remembered step the episode already took; recalls the next one on the same screen', () => {
    const m = new PolicyMemory('0.1.1');
    const steps: { action: MobileAction; conclusion: string }[] = [
      { action: { action: 'click', coordinate: [322, 282] }, conclusion: 'Tapped "PM". [goal 5/9 done]' },
      { action: { action: 'click', coordinate: [81, 395] }, conclusion: 'Tapped the name field "Alarm name". [goal 6/9: focused]' },
      { action: { action: 'type', text: 'Gym' }, conclusion: 'Typed "Gym" into the name field. [goal 6/9 done]' },
      { action: { action: 'click', coordinate: [194, 663] }, conclusion: 'Tapped "Save alarm". [goal 7/9 done]' },
    ];
    for (let k = 0; k < 2; k++) for (const s of steps) m.add({ instruction: TASK, lines: FORM, screen: SCREEN, action: { ...s.action }, conclusion: s.conclusion });
    // Plain lookup: always the same action on this screen.
    expect(m.lookup(TASK, FORM, SCREEN)?.conclusion).toBe(steps[0]!.conclusion);
    expect(recallNotDone(m, TASK, [], FORM, SCREEN)?.conclusion).toBe(steps[0]!.conclusion);
    const h1 = ['Opened the Clock app. [goal 1/9 done]', steps[0]!.conclusion];
    expect(recallNotDone(m, TASK, h1, FORM, SCREEN)?.conclusion).toBe(steps[1]!.conclusion);
    // The field was focused: typing comes before the visible "Save alarm" tap (a plain lookup prefers anchored taps).
    const h2 = [...h1, steps[1]!.conclusion];
    expect(recallNotDone(m, TASK, h2, FORM, SCREEN)?.action).toEqual({ action: 'type', text: 'Gym' });
    const h3 = [...h2, steps[2]!.conclusion];
    expect(recallNotDone(m, TASK, h3, FORM, SCREEN)?.conclusion).toBe(steps[3]!.conclusion);
    // Everything remembered here is done: a miss (the heuristic decides), and another task recalls nothing.
    expect(recallNotDone(m, TASK, [...h3, steps[3]!.conclusion], FORM, SCREEN)).toBeUndefined();
    expect(progressOrder('Typed "Gym". [goal 6/9 done]')).toBeGreaterThan(progressOrder('Tapped the field. [goal 6/9: focused]'));
    expect(recallNotDone(m, 'Wake me at 6:00 AM; label it Run.', [], FORM, SCREEN)).toBeUndefined();
  });
});
