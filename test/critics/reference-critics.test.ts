/**
 * The reference critic roles on real screenshots (Chromium) read by the real OCR engine, driven through the
 * critics/ request builders and parsers exactly as the pipeline would.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeStep } from '../../critics/step-critic.js';
import type { JudgeStepInput } from '../../critics/step-critic.js';
import { pngDataUrl } from '../../critics/json.js';
import { buildTextChannelRequest, judgeTrajectory, parseChannelVerdict } from '../../critics/trajectory-critic.js';
import type { JudgeTrajectoryInput } from '../../critics/trajectory-critic.js';
import { createOcrEngine } from '../../models/ocr.js';
import {
  instructionEntities,
  stepCriticRole,
  trajectoryMultimodalCriticRole,
  trajectoryTextCriticRole,
} from '../../models/reference/roles/critics.js';
import { offeredAction } from '../../models/reference/roles/evidence.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { roleModel } from './fake-model.js';
import { MORE_PAGES, PAGES, ROW_TAPS, TAPS, alarms, launch, render } from './screens.js';

const INSTRUCTION = 'Order a Cheeseburger from Burger Palace';

let browser: Browser;
let ocr: OcrEngine;
const shots = {} as Record<keyof typeof PAGES, Uint8Array>;

beforeAll(async () => {
  [browser, ocr] = await Promise.all([launch(), createOcrEngine()]);
  for (const k of Object.keys(PAGES) as (keyof typeof PAGES)[]) shots[k] = await render(browser, PAGES[k]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

async function step(input: Partial<JudgeStepInput> & Pick<JudgeStepInput, 'action' | 'before' | 'after'>) {
  const r = await judgeStep(roleModel(stepCriticRole, ocr), { instruction: INSTRUCTION, history: [], ...input });
  if ('error' in r) throw new Error(`unparseable: ${r.error.message}`);
  return r;
}

describe('instructionEntities', () => {
  it('extracts names, quoted strings and numbers, not the leading verb', () => {
    expect(instructionEntities(INSTRUCTION)).toEqual(['Cheeseburger', 'Burger Palace']);
    expect(instructionEntities('Order 2 Cheeseburgers from Burger Palace')).toEqual(['2', 'Cheeseburgers', 'Burger Palace']);
    expect(instructionEntities('Send "see you at 7" to Anna Smith.')).toEqual(['see you at 7', 'Anna Smith']);
  });
});

describe('reference step critic', () => {
  it('GOOD for tapping the restaurant the instruction names', async () => {
    const r = await step({ action: { action: 'click', coordinate: [...TAPS.burgerPalace] }, before: shots.list, after: shots.palaceMenu });
    expect(r.verdict.annotation).toBe('GOOD');
    expect(r.score).toBe(1);
    expect(r.verdict.summary).toMatch(/^Tapped "Burger Palace"; the screen now shows "Menu"/);
    expect(r.verdict.summary.split(/\s+/).length).toBeLessThanOrEqual(30);
  });

  it('speaks desktop words for desktop steps: Clicked, Double-clicked, Pressed keys, Dragged, Scrolled — never Tapped or Swiped', async () => {
    const click = await step({ action: { action: 'click', coordinate: [...TAPS.burgerPalace] }, before: shots.list, after: shots.palaceMenu, actionSpace: 'desktop' });
    expect(click.verdict.annotation).toBe('GOOD');
    expect(click.verdict.summary).toMatch(/^Clicked "Burger Palace"; the screen now shows "Menu"/);
    const dbl = await step({ action: { action: 'double_click', coordinate: [...TAPS.burgerPalace] }, before: shots.list, after: shots.palaceMenu });
    expect(dbl.verdict.summary).toMatch(/^Double-clicked "Burger Palace"/);
    const keys = await step({ action: { action: 'key', keys: ['ctrl', 's'] }, before: shots.list, after: shots.palaceMenu, actionSpace: 'desktop' });
    expect(keys.verdict.summary).toMatch(/^Pressed keys ctrl\+s;/);
    const drag = await step({ action: { action: 'drag', coordinate: [20, 300], coordinate2: [20, 100] }, before: shots.list, after: shots.palaceMenu, actionSpace: 'desktop' });
    expect(drag.verdict.summary).toMatch(/^Dragged;/);
    const scroll = await step({ action: { action: 'scroll', pixels: 3 }, before: shots.list, after: shots.palaceMenu, actionSpace: 'desktop' });
    expect(scroll.verdict.summary).toMatch(/^Scrolled;/);
    for (const r of [click, dbl, keys, drag, scroll]) expect(r.verdict.summary + r.verdict.analysis).not.toMatch(/Tapped|Swiped|tapped/);
    // The phone wording is unchanged.
    const tap = await step({ action: { action: 'click', coordinate: [...TAPS.burgerPalace] }, before: shots.list, after: shots.palaceMenu });
    expect(tap.verdict.summary).toMatch(/^Tapped "Burger Palace"/);
  });

  it('HARMFUL for tapping the near-duplicate "Burger Place"', async () => {
    const r = await step({ action: { action: 'click', coordinate: [...TAPS.burgerPlace] }, before: shots.list, after: shots.placeMenu });
    expect(r.verdict.annotation).toBe('HARMFUL');
    expect(r.score).toBe(0);
    expect(r.verdict.summary).toMatch(/Tapped "Burger Place" instead of "Burger Palace"/);
  });

  it('a label that resembles the app the request names is no near-duplicate item ("The Midnight Library" is no Library app)', async () => {
    const r = await step({ instruction: 'Renew my loan in the Burger Plaza app', action: { action: 'click', coordinate: [...TAPS.burgerPlace] }, before: shots.list, after: shots.placeMenu });
    expect(r.verdict.annotation, r.verdict.summary).not.toBe('HARMFUL');
    expect(r.verdict.summary, r.verdict.summary).not.toMatch(/instead of/);
  });

  it('NEUTRAL for a tap with no visible effect', async () => {
    const again = await render(browser, PAGES.list); // re-rendered, so the bytes need not be identical
    const r = await step({ action: { action: 'click', coordinate: [...TAPS.blank] }, before: shots.list, after: again });
    expect(r.verdict.annotation).toBe('NEUTRAL');
    expect(r.verdict.analysis).toMatch(/did not visibly change/);
  });

  it('GOOD for going Back right after a mistake, HARMFUL for going Back from the right page', async () => {
    const recovery = await step({
      action: { action: 'system_button', button: 'Back' },
      before: shots.placeMenu,
      after: shots.list,
      history: ['Tapped "Burger Place" instead of "Burger Palace"; the screen now shows "Burger Place".'],
    });
    expect(recovery.verdict.annotation).toBe('GOOD');
    const retreat = await step({
      action: { action: 'system_button', button: 'Back' },
      before: shots.palaceMenu,
      after: shots.list,
      history: ['Tapped "Burger Palace"; the screen now shows "Menu".'],
    });
    expect(retreat.verdict.annotation).toBe('HARMFUL');
  });

  it('GOOD for typing text from the instruction, HARMFUL for a misspelling of it', async () => {
    const typed = await step({ action: { action: 'type', text: 'Burger Palace' }, before: shots.list, after: shots.palaceMenu });
    expect(typed.verdict.annotation).toBe('GOOD');
    const typo = await step({ action: { action: 'type', text: 'Burger Palce' }, before: shots.list, after: shots.placeMenu });
    expect(typo.verdict.annotation).toBe('HARMFUL');
  });
});

describe('reference trajectory critics', () => {
  async function trajectory(
    instruction: string,
    screens: Uint8Array[],
    actions: JudgeStepInput['action'][],
    outcome: string | undefined,
  ): Promise<JudgeTrajectoryInput> {
    const summaries: string[] = [];
    for (let i = 0; i < actions.length; i++) {
      const r = await step({ instruction, history: [...summaries], action: actions[i]!, before: screens[i]!, after: screens[i + 1]! });
      summaries.push(r.verdict.summary);
    }
    const captions = await Promise.all(screens.map(async (s) => (await ocr.recognize(s)).map((l) => l.text).join('\n')));
    return {
      instruction,
      steps: actions.map((a, i) => ({ summary: summaries[i]!, actionText: JSON.stringify(a) })),
      captions,
      screenshots: screens.map(pngDataUrl),
      outcome,
    };
  }
  const models = () => ({ text: roleModel(trajectoryTextCriticRole, ocr, 7), multimodal: roleModel(trajectoryMultimodalCriticRole, ocr, 7) });
  const tapAddToCart: JudgeStepInput['action'] = { action: 'click', coordinate: [84, 316] };

  it('Correct (both channels) for a trajectory that ordered from the right restaurant', async () => {
    const input = await trajectory(INSTRUCTION, [shots.list, shots.palaceMenu, shots.confirmation], [
      { action: 'click', coordinate: [...TAPS.burgerPalace] },
      tapAddToCart,
    ], 'success');
    const r = await judgeTrajectory(models(), input, { votes: 1 });
    expect(r.channels.map((c) => [c.channel, c.correct])).toEqual([
      ['text', true],
      ['multimodal', true],
    ]);
    expect(r.correct).toBe(true);
  });

  it('Incorrect for the near-duplicate restaurant, and for a self-reported failure', async () => {
    const wrong = await trajectory(INSTRUCTION, [shots.list, shots.placeMenu], [{ action: 'click', coordinate: [...TAPS.burgerPlace] }], 'success');
    const r = await judgeTrajectory(models(), wrong, { votes: 1 });
    expect(r.channels.map((c) => c.correct)).toEqual([false, false]);
    expect(r.channels[0]!.reason).toMatch(/no completion signal/);
    expect(r.channels[0]!.reason).toMatch(/mistake and never undone/);

    const right = await trajectory(INSTRUCTION, [shots.list, shots.palaceMenu, shots.confirmation], [
      { action: 'click', coordinate: [...TAPS.burgerPalace] },
      tapAddToCart,
    ], 'failure');
    expect((await judgeTrajectory(models(), right, { votes: 1 })).correct).toBe(false);
  });

  it('a trajectory that leaves an entity unevidenced (the quantity) is Incorrect at temperature 0 and in nearly every sampled vote', async () => {
    const input = await trajectory('Order 2 Cheeseburgers from Burger Palace', [shots.list, shots.palaceMenu, shots.confirmation], [
      { action: 'click', coordinate: [...TAPS.burgerPalace] },
      tapAddToCart,
    ], 'success');
    const greedy = await judgeTrajectory(models(), input, { votes: 1 });
    expect(greedy.channels.map((c) => c.correct)).toEqual([false, false]);
    expect(greedy.channels[1]!.reason).toMatch(/only 2\/3 key entities/);

    // Coverage counts cubed: one of three entities missing is no longer a coin flip (precision first).
    const sampled = await judgeTrajectory(models(), input, { votes: 16, voteRule: 'majority', temperature: 1 });
    for (const c of sampled.channels) {
      expect(c.votes).toHaveLength(16);
      expect(c.votes.filter(Boolean).length).toBeLessThanOrEqual(2);
    }
    expect(sampled.correct).toBe(false);
    // A clear success stays (almost) unanimous under the same sampling.
    const clear = await trajectory(INSTRUCTION, [shots.list, shots.palaceMenu, shots.confirmation], [
      { action: 'click', coordinate: [...TAPS.burgerPalace] },
      tapAddToCart,
    ], 'success');
    const clearVotes = await judgeTrajectory(models(), clear, { votes: 16, voteRule: 'majority', temperature: 1 });
    for (const c of clearVotes.channels) expect(c.votes.filter(Boolean).length).toBeGreaterThanOrEqual(12);
    expect(clearVotes.correct).toBe(true);
  });
});

// ------------------------------------------------------------------------------------------------------------
// Generic completion evidence outside Foodie (regressions: true successes the reference critics rejected).

/** The text channel alone on synthetic captions (one OCR line per caption line) and step summaries. */
async function textVerdict(
  instruction: string,
  steps: readonly [action: JudgeStepInput['action'], summary: string][],
  captions: readonly string[],
  outcome = 'success',
): Promise<{ correct: boolean; reason: string }> {
  const request = buildTextChannelRequest({
    instruction,
    steps: steps.map(([a, summary]) => ({ summary, actionText: JSON.stringify(a) })),
    captions,
    outcome,
  });
  const { response } = await roleModel(trajectoryTextCriticRole, ocr).complete(request);
  const parsed = parseChannelVerdict(response.choices[0]!.message, 'text');
  if (!parsed.ok) throw new Error(parsed.error.message);
  return { correct: parsed.verdict.correct, reason: parsed.verdict.reason };
}
const open = (app: string): JudgeStepInput['action'] => ({ action: 'open', text: app });
const tap: JudgeStepInput['action'] = { action: 'click', coordinate: [100, 200] };
const press: JudgeStepInput['action'] = { action: 'long_press', coordinate: [100, 200], time: 1 };
const typeText = (text: string): JudgeStepInput['action'] => ({ action: 'type', text });
const done: JudgeStepInput['action'] = { action: 'terminate', status: 'success' };

describe('instructionEntities: names the instruction introduces', () => {
  it('reads "called X that says Y", "my note X", e-mail addresses, and drops switch positions and leading verbs', () => {
    expect(instructionEntities('Make a note called Birthday party that says Call back on Monday at 10.')).toEqual(['Birthday party', 'Call back on Monday at 10']);
    expect(instructionEntities('Pin my note Shopping list to the top.')).toEqual(['Shopping list']);
    expect(instructionEntities('Jot down "Buy candles" in a new note titled Plumber.')).toEqual(['Buy candles', 'Plumber']);
    expect(instructionEntities('Email sam.carter@example.com with the subject Weekend plans.')).toEqual(['Weekend plans', 'sam.carter@example.com']);
    expect(instructionEntities('Turn my Work alarm On.')).toEqual(['Work']);
    expect(instructionEntities('Turn my Work late shift alarm On.')).toEqual(['Work late shift']);
    expect(instructionEntities('Please switch Bluetooth On on my phone.')).toEqual(['Bluetooth']);
    // A quote's leftover and a verb after "the message" are no texts of their own.
    expect(instructionEntities('Could you move the message "Trip notes" out of my inbox into the archive?')).toEqual(['Trip notes']);
    expect(instructionEntities('Email kim.ito@example.com; the message should say "See you at 6".')).toEqual(['See you at 6', 'kim.ito@example.com']);
  });
});

describe('reference step critic: rows, controls and typed text', () => {
  let off: Uint8Array;
  let gymOn: Uint8Array;
  let classOn: Uint8Array;
  beforeAll(async () => {
    [off, gymOn, classOn] = (await Promise.all([alarms({}), alarms({ Gym: true }), alarms({ 'Gym class': true })].map((h) => render(browser, h)))) as [Uint8Array, Uint8Array, Uint8Array];
  }, 60_000);

  it('a tap on the switch at the end of the named row is GOOD; on the longer-named neighbour\'s switch HARMFUL', async () => {
    const instruction = 'Turn my Gym alarm On.';
    const right = await step({ instruction, action: { action: 'click', coordinate: ROW_TAPS.switchOf(0) }, before: off, after: gymOn });
    expect(right.verdict.annotation).toBe('GOOD');
    expect(right.verdict.summary).toMatch(/^Tapped (the row of )?"Gym";/);
    const wrong = await step({ instruction, action: { action: 'click', coordinate: ROW_TAPS.switchOf(1) }, before: off, after: classOn });
    expect(wrong.verdict.annotation).toBe('HARMFUL');
    expect(wrong.verdict.summary).toMatch(/"Gym class" instead of "Gym"/);
    // Tapping the label "Gym class" itself is the same trap ("Gym" is also a line of its own on that screen).
    const label = await step({ instruction, action: { action: 'click', coordinate: ROW_TAPS.rowText(1) }, before: off, after: classOn });
    expect(label.verdict.annotation).toBe('HARMFUL');
  });

  it('the control that performs the instruction\'s verb on the named item\'s page is GOOD, not off-task', async () => {
    const [event, dialog] = await Promise.all([render(browser, MORE_PAGES.event), render(browser, MORE_PAGES.deleteDialog)]);
    const r = await step({
      instruction: 'Delete Book Club from my calendar.',
      history: ['Opened "Calendar"; the screen now shows "July 2025".', 'Tapped "Book Club"; the screen now shows "Event".'],
      action: { action: 'click', coordinate: ROW_TAPS.rowText(2) },
      before: event,
      after: dialog,
    });
    expect(r.verdict.summary).toMatch(/^Tapped "Delete event"/);
    expect(r.verdict.annotation).toBe('GOOD');
  });

  it('an abbreviation ("Jun" for June) is not a near-duplicate', async () => {
    const [months, picked] = await Promise.all([render(browser, MORE_PAGES.months), render(browser, MORE_PAGES.monthPicked)]);
    const jun = (await ocr.recognize(months)).find((l) => l.text.trim() === 'Jun');
    expect(jun).toBeDefined();
    const at: [number, number] = [Math.round(jun!.box.x + jun!.box.w / 2), Math.round(jun!.box.y + jun!.box.h / 2)];
    const r = await step({ instruction: 'Add "Call with Grandma" to my calendar on June 11 at 09:00.', action: { action: 'click', coordinate: at }, before: months, after: picked });
    expect(r.verdict.annotation, r.verdict.summary).not.toBe('HARMFUL');
  });

  it('a removal control is asked for by any removal verb ("Cancel the Project Review" → "Delete event")', async () => {
    const [event, dialog] = await Promise.all([render(browser, MORE_PAGES.event), render(browser, MORE_PAGES.deleteDialog)]);
    const r = await step({
      instruction: 'Cancel the Book Club in my calendar, I no longer need it.',
      history: ['Opened "Calendar"; the screen now shows "July 2025".', 'Long-pressed "Book Club"; the screen now shows "Delete event".'],
      action: { action: 'click', coordinate: ROW_TAPS.rowText(2) },
      before: event,
      after: dialog,
    });
    expect(r.verdict.summary).toMatch(/^Tapped "Delete event"/);
    expect(r.verdict.annotation, r.verdict.summary).not.toBe('HARMFUL');
    // Not asked for at all, the same control is still a mistake.
    const unasked = await step({ instruction: 'Open Book Club in my calendar.', action: { action: 'click', coordinate: ROW_TAPS.rowText(2) }, before: event, after: dialog });
    expect(unasked.verdict.annotation).toBe('HARMFUL');
  });

  it('a tap that leaves the offered item on screen (focusing a field of the same form) is not off-task', async () => {
    const [form, focused, away] = await Promise.all([render(browser, MORE_PAGES.checkout), render(browser, MORE_PAGES.checkoutFocused), render(browser, MORE_PAGES.event)]);
    const instruction = 'Order 3 Pad Thai from Noodle Bar, delivered to 5 Harbour View, paying by Cash.';
    const history = ['Tapped "Noodle Bar"; the screen now shows "Menu".', 'Tapped the row of "Pad Thai"; the screen now shows "3".', 'Tapped "Go to checkout"; the screen now shows "Checkout".'];
    const field = await step({ instruction, history, action: { action: 'click', coordinate: ROW_TAPS.rowText(0) }, before: form, after: focused });
    expect(field.verdict.summary).toMatch(/^Tapped "Delivery address"/);
    expect(field.verdict.annotation).not.toBe('HARMFUL');
    // Navigating away from a screen that offered "Cash" is still off-task.
    const nav = await step({ instruction, history, action: { action: 'click', coordinate: ROW_TAPS.rowText(0) }, before: form, after: away });
    expect(nav.verdict.annotation).toBe('HARMFUL');
    expect(nav.verdict.summary).toMatch(/instead of "Cash", going off-task/);
  });

  it('an e-mail address typed verbatim is GOOD even where the instruction follows it with a colon', async () => {
    const r = await step({
      instruction: 'Send a mail to alex.kim@example.com: subject Weekend plans, text "Could you resend the invoice?".',
      action: typeText('alex.kim@example.com'),
      before: shots.list,
      after: shots.palaceMenu,
    });
    expect(r.verdict.annotation).toBe('GOOD');
  });

  it('typed text must be the instruction\'s wording verbatim: a changed ending is HARMFUL', async () => {
    const instruction = 'Make a note called Birthday party that says Call back on Monday at 10.';
    const ok = await step({ instruction, action: typeText('Birthday party'), before: shots.list, after: shots.palaceMenu });
    expect(ok.verdict.annotation).toBe('GOOD');
    const typo = await step({ instruction, action: typeText('Birthday partys'), before: shots.list, after: shots.palaceMenu });
    expect(typo.verdict.annotation).toBe('HARMFUL');
    expect(typo.verdict.summary).toMatch(/instead of/);
  });

  it('a typed text that runs on into another labelled part of the instruction is HARMFUL (two values in one field)', async () => {
    const instruction = 'I need to get back to kim.ito@example.com by email. subject: Trip notes; body: "Bring the maps"';
    const ok = await step({ instruction, action: typeText('Trip notes'), before: shots.list, after: shots.palaceMenu });
    expect(ok.verdict.annotation).toBe('GOOD');
    const runOn = await step({ instruction, action: typeText('Trip notes. body: "Bring the maps"'), before: shots.list, after: shots.palaceMenu });
    expect(runOn.verdict.annotation).toBe('HARMFUL');
    expect(runOn.verdict.summary, runOn.verdict.summary).toMatch(/two values in one/);
  });
});

describe('reference trajectory critics: what a completed final screen looks like', () => {
  it('delete: the item is gone from the list after Delete (with or without a toast); still listed, or nothing removed → Incorrect', async () => {
    const instruction = 'Delete Book Club from my calendar.';
    const steps: [JudgeStepInput['action'], string][] = [
      [open('Calendar'), 'Opened "Calendar"; the screen now shows "July 2025".'],
      [tap, 'Tapped "Book Club"; the screen now shows "Event".'],
      [tap, 'Tapped "Delete event"; the screen now shows "Delete this event?".'],
      [tap, 'Tapped "Delete"; the screen now shows "July 2025".'],
      [done, 'Ended the task (success); no new text appeared.'],
    ];
    const before = 'Calendar | July 2025 | Book Club | 19 | Yoga Class | 14';
    const gone = await textVerdict(instruction, steps, [before, 'Event | Book Club | Delete event', 'Delete this event?', 'Calendar | July 2025 | Yoga Class | 14']);
    expect(gone).toMatchObject({ correct: true });
    expect(gone.reason).toMatch(/gone from the final screen/);
    expect(gone.reason).not.toMatch(/"book"/); // "Book Club" is a name, not a booking task
    const toast = await textVerdict(instruction, steps, [before, 'Calendar | July 2025 | Yoga Class | 14 | Event deleted']);
    expect(toast.correct).toBe(true);
    const still = await textVerdict(instruction, steps, [before, 'Calendar | July 2025 | Book Club | 19 | Yoga Class | 14']);
    expect(still).toMatchObject({ correct: false });
    expect(still.reason).toMatch(/still lists "Book Club"/);
    const idle = await textVerdict(instruction, [steps[0]!, steps[4]!], [before, 'Calendar | July 2025 | Yoga Class | 14']);
    expect(idle.correct).toBe(false);
    // Stopped at the confirmation dialog: "will be removed" is a pending change, not a completion signal.
    const pending = await textVerdict(instruction, steps.slice(0, 3), [before, 'Delete this event? | Book Club will be removed. | Cancel | Delete']);
    expect(pending.correct).toBe(false);
  });

  it('delete: removing the near-duplicate leaves the item listed (also when OCR drops the spaces) → Incorrect', async () => {
    const instruction = 'Archive the email "Team lunch on Friday" in my inbox.';
    const steps: [JudgeStepInput['action'], string][] = [
      [open('Mail'), 'Opened "Mail"; the screen now shows "Inbox".'],
      [press, 'Long-pressed "Team lunch on Thursday" instead of "Team lunch on Friday"; the screen now shows "Archive".'],
      [tap, 'Tapped "Archive"; the screen now shows "Conversation archived".'],
    ];
    const r = await textVerdict(instruction, steps, ['Inbox | Team lunch on Thursday | Teamlunch onFriday', 'Inbox | Teamlunch onFriday | Conversation archived']);
    expect(r.correct).toBe(false);
    expect(r.reason).toMatch(/still lists "Team lunch on Friday"/);
  });

  it('set: the setting shows the new value on the final screen; another value → Incorrect', async () => {
    const instruction = 'Change my Font size to Large, please.';
    const steps: [JudgeStepInput['action'], string][] = [
      [open('Settings'), 'Opened "Settings"; the screen now shows "Display".'],
      [tap, 'Tapped "Font size"; the screen now shows "Small".'],
      [tap, 'Tapped "Large"; the screen now shows "Display".'],
    ];
    const start = 'Settings | Display | Font size | Default';
    expect(await textVerdict(instruction, steps, [start, 'Display | Dark mode | Font size | Large | Display size | Default'])).toMatchObject({ correct: true });
    const wrong = await textVerdict(instruction, steps, [start, 'Display | Dark mode | Font size | Largest | Display size | Large']);
    expect(wrong.correct).toBe(false);
    expect(wrong.reason).toMatch(/does not show "Font size" set to "Large"/);
  });

  it("set: an owner's detail is shown on the owner's record (the app's own label for it), once no form is left open", async () => {
    // An invented address book: the saved record labels the number "Cell"; the request says "number".
    const instruction = "Change Nadia Okafor's number to 555-880-1200.";
    const steps: [JudgeStepInput['action'], string][] = [
      [open('People'), 'Opened "People"; the screen now shows "Nadia Okafor".'],
      [tap, 'Tapped "Nadia Okafor"; the screen now shows "Edit".'],
      [tap, 'Tapped "Edit"; the screen now shows "Edit person".'],
      [typeText('555-880-1200'), 'Typed "555-880-1200"; the screen now shows "555-880-1200".'],
      [tap, 'Tapped "Save"; the screen now shows "Person".'],
    ];
    const start = 'People | Nadia Okafor | Tomas Berg';
    expect(await textVerdict(instruction, steps, [start, 'Person | Edit | NO | Nadia Okafor | Cell | 555-880-1200 | Email | nadia@example.com | Saved'])).toMatchObject({ correct: true });
    // Another person's record, the edit form still open, or the old number: not done.
    expect(await textVerdict(instruction, steps, [start, 'Person | Edit | TB | Tomas Berg | Cell | 555-880-1200'])).toMatchObject({ correct: false });
    expect(await textVerdict(instruction, steps, [start, 'Edit person | Nadia Okafor | Cell | 555-880-1200 | Save'])).toMatchObject({ correct: false });
    expect(await textVerdict(instruction, steps, [start, 'Person | Edit | Nadia Okafor | Cell | 555-880-1299'])).toMatchObject({ correct: false });
  });

  it('a request starting with an English verb before an amount ("Remit $75 …") has no entity "Remit"; "$75" is shown as "$75.00"', async () => {
    const instruction = 'Remit $75 to Oskar Lind for Tickets.';
    expect(instructionEntities(instruction)).toEqual(['$75', 'Oskar Lind', 'Tickets']);
    const steps: [JudgeStepInput['action'], string][] = [
      [open('Coinly'), 'Opened "Coinly"; the screen now shows "Pay someone".'],
      [tap, 'Tapped "Oskar Lind"; the screen now shows "Amount".'],
      [typeText('75'), 'Typed "75"; the screen now shows "75".'],
      [typeText('Tickets'), 'Typed "Tickets"; the screen now shows "Tickets".'],
      [tap, 'Tapped "Pay"; the screen now shows "Payment sent".'],
    ];
    const start = 'Coinly | Pay someone | Oskar Lind | Oskar Lindqvist';
    expect(await textVerdict(instruction, steps, [start, 'Payment sent | You paid $75.00 to Oskar Lind | "Tickets" | Done'])).toMatchObject({ correct: true });
    expect(await textVerdict(instruction, steps, [start, 'Payment sent | You paid $7.50 to Oskar Lind | "Tickets" | Done'])).toMatchObject({ correct: false });
  });

  it('a list heading in the plural of the request\'s verb ("ALERTS" for "Alert me …") offers no action', () => {
    expect(offeredAction('Alert me when my savings drop below $90', ['Profile', 'ALERTS', 'Low balance alert', '$90', 'Alert updated'])).toBeUndefined();
    expect(offeredAction('Alert me when my savings drop below $90', ['Profile', 'Low balance alert', '$90', 'Alert me'])).toBe('Alert me');
  });

  it('a submitted form whose result page is titled like its list ("Transfer requests") is done, not an offered action', async () => {
    const instruction = 'Can you transfer my Pantoprazole 40 mg prescription, number 5190736, from Greenleaf Pharmacy?';
    const steps: [JudgeStepInput['action'], string][] = [
      [open('Pharmacy'), 'Opened the Pharmacy app.'],
      [tap, 'Tapped "Transfer a prescription".'],
      [tap, 'Tapped the mg field "e.g. Losartan 50 mg".'],
      [typeText('Pantoprazole 40 mg'), 'Typed "Pantoprazole 40 mg" into the mg field.'],
      [tap, 'Tapped the label field "7 digits, on the label".'],
      [typeText('5190736'), 'Typed "5190736" into the label field.'],
      [tap, 'Tapped the name field "Pharmacy name".'],
      [typeText('Greenleaf Pharmacy'), 'Typed "Greenleaf Pharmacy" into the name field.'],
      [tap, 'Tapped "Submit transfer".'],
    ];
    const form = 'Transfer a prescription | Medication | e.g. Losartan 50 mg | Prescription number | 7 digits, on the label | Current pharmacy | Pharmacy name | Submit transfer';
    const screens = [
      'Pharmacy | Prescriptions | Transfer a prescription',
      form, form, form, form, form, form, form, form,
      'Transfer requests | TRANSFER REQUESTS (1) | Pantoprazole 40 mg | Pending | Rx 5190736 from Greenleaf Pharmacy | Transfer requested',
    ];
    expect(await textVerdict(instruction, steps, screens)).toMatchObject({ correct: true });
    // Still on the form with its button: not done.
    expect(await textVerdict(instruction, steps.slice(0, -1), screens.slice(0, -1))).toMatchObject({ correct: false });
  });

  it('set: a value OCR clipped by its last letter still shows it; a shorter or other value does not', async () => {
    const instruction = 'Set my pickup store to Riverside Mall.';
    const steps: [JudgeStepInput['action'], string][] = [
      [tap, 'Tapped "My store"; the screen now shows "Preferred store".'],
      [tap, 'Tapped "Main Street"; the screen now shows "Riverside Mall".'],
      [tap, 'Tapped "Riverside Mal"; the screen now shows "Preferred store updated".'],
    ];
    const start = 'Pharmacy | My store | Prescriptions';
    const picker = 'Preferred store | Main Street | Harbor Point | Riverside Mall';
    const final = (v: string): string => `My store | Preferred store | ${v} | Preferred store updated`;
    expect(await textVerdict(instruction, steps, [start, 'My store | Preferred store | Main Street', picker, final('Riverside Mal')])).toMatchObject({ correct: true });
    for (const v of ['Riverside Ma', 'Riverside Park']) {
      expect(await textVerdict(instruction, steps, [start, 'My store | Preferred store | Main Street', picker, final(v)])).toMatchObject({ correct: false });
    }
  });


  it('create: the saved item shown after Save (no toast) → Correct; the form still open → Incorrect', async () => {
    const instruction = 'Make a note called Birthday party that says Call back on Monday at 10.';
    const steps: [JudgeStepInput['action'], string][] = [
      [open('Notes'), 'Opened "Notes"; the screen now shows "Search notes".'],
      [tap, 'Tapped "New note"; the screen now shows "Title".'],
      [typeText('Birthday party'), 'Typed "Birthday party"; the screen now shows "Birthday party".'],
      [typeText('Call back on Monday at 10'), 'Typed "Call back on Monday at 10"; the screen now shows "Call back on Monday at 10".'],
      [tap, 'Tapped "Save"; the screen now shows "Pin".'],
    ];
    const form = 'New note | Birthday party | Call back on Monday at 10 | Save';
    expect(await textVerdict(instruction, steps, ['Notes | Search notes', form, 'Note | Pin | Edit | Birthday party | Call back on Monday at 10'])).toMatchObject({ correct: true });
    const open_ = await textVerdict(instruction, steps, ['Notes | Search notes', form, `${form} | Title can't be empty`]);
    expect(open_.correct).toBe(false);
  });

  it('pin: "Unpin" beside the exact item → Correct; beside its longer-named neighbour → Incorrect', async () => {
    const instruction = 'Pin my note Shopping list to the top.';
    const steps = (name: string): [JudgeStepInput['action'], string][] => [
      [open('Notes'), 'Opened "Notes"; the screen now shows "Search notes".'],
      [tap, `Tapped "${name}"; the screen now shows "Pin".`],
      [tap, 'Tapped "Pin"; the screen now shows "Unpin".'],
    ];
    const list = 'Notes | Shopping list | Shopping list (old) | Book club';
    expect(await textVerdict(instruction, steps('Shopping list'), [list, 'Note | Unpin | Edit | Shopping list | Pinned | Milk, eggs'])).toMatchObject({ correct: true });
    expect(await textVerdict(instruction, steps('Shopping list (old)'), [list, 'Note | Unpin | Edit | Shopping list (old) | Pinned | Bread'])).toMatchObject({ correct: false });
  });

  it('favourite without a written state: the item\'s own menu action on that item, menu closed → Correct; on another item or undone → Incorrect', async () => {
    const instruction = 'Make Ben Carter one of my favourite contacts.';
    const steps = (name: string, extra: [JudgeStepInput['action'], string][] = []): [JudgeStepInput['action'], string][] => [
      [open('Contacts'), 'Opened "Contacts"; the screen now shows "Search contacts".'],
      [press, `Long-pressed "${name}"; the screen now shows "Add to favourites".`],
      [tap, 'Tapped "Add to favourites"; the screen now shows "+ New contact".'],
      ...extra,
      [done, 'Ended the task (success); no new text appeared.'],
    ];
    const list = 'Contacts | Ben Carter | Bea Carter | + New contact';
    const ok = await textVerdict(instruction, steps('Ben Carter'), [list, 'Ben Carter | Add to favourites | Call', list]);
    expect(ok.correct).toBe(true);
    expect(ok.reason).toMatch(/"Add to favourites" was tapped on "Ben Carter"/);
    expect((await textVerdict(instruction, steps('Bea Carter'), [list, 'Bea Carter | Add to favourites', list])).correct).toBe(false);
    // The menu still open on the final screen: the tap did not take.
    expect((await textVerdict(instruction, steps('Ben Carter'), [list, `Ben Carter | Add to favourites | Call`])).correct).toBe(false);
    const undone = steps('Ben Carter', [
      [press, 'Long-pressed "Ben Carter"; the screen now shows "Remove from favourites".'],
      [tap, 'Tapped "Remove from favourites"; the screen now shows "+ New contact".'],
    ]);
    expect((await textVerdict(instruction, undone, [list, list])).correct).toBe(false);
  });

  it('a detour is over once the agent acts on the item it passed over; a destructive mistake is not', async () => {
    const instruction = 'Send Lena Fisher a message saying "Thanks for dinner tonight".';
    const detour: [JudgeStepInput['action'], string][] = [
      [open('Messages'), 'Opened "Messages"; the screen now shows "Lena Fisher".'],
      [tap, 'Tapped "+ Start chat" instead of "Lena Fisher", going off-task; the screen now shows "New message".'],
      [tap, 'Tapped "Lena Fisher"; the screen now shows "To Lena Fisher".'],
      [typeText('Thanks for dinner tonight'), 'Typed "Thanks for dinner tonight"; the screen now shows "Thanks for dinner tonight".'],
      [tap, 'Tapped "Send"; the screen now shows "Sent".'],
    ];
    const final = 'Lena Fisher | Happy birthday! | Thanks for dinner tonight | Sent';
    expect((await textVerdict(instruction, detour, ['Messages | Lena Fisher | Omar Haddad', 'New message | Lena Fisher', final])).correct).toBe(true);
    // Never coming back to Lena: the detour stands (the message went to someone else's thread).
    const lost = detour.map(([a, t], i): [JudgeStepInput['action'], string] => (i === 2 ? [a, 'Tapped "Omar Haddad"; the screen now shows "To Omar Haddad".'] : [a, t]));
    expect((await textVerdict(instruction, lost, ['Messages | Lena Fisher | Omar Haddad', 'New message | Lena Fisher', final])).correct).toBe(false);
  });

  it('verify, "get me … pay with", a pinned item\'s own page, and a switch row longer than the name ("Dark" → "Dark mode")', async () => {
    const verify = await textVerdict(
      'Verify my account in Settings with the code that Security Team emailed me.',
      [
        [open('Mail'), 'Opened "Mail"; the screen now shows "Inbox".'],
        [tap, 'Tapped "Security Team"; the screen now shows "Your code is 287697".'],
        [open('Settings'), 'Opened "Settings"; the screen now shows "Verify your account".'],
        [tap, 'Tapped "Verify your account"; the screen now shows "Verify account".'],
        [typeText('287697'), 'Typed "287697"; the screen now shows "287697".'],
        [tap, 'Tapped "Verify"; the screen now shows "Account verified".'],
      ],
      ['Inbox | Security Team', 'Security Team | Your code is 287697', 'Verify account | Account verified | Done'],
    );
    expect(verify.correct).toBe(true);
    expect(verify.reason).toMatch(/"Account verified"|verified/);
    // Still on the form: not verified.
    expect((await textVerdict('Verify my account in Settings with the code that Security Team emailed me.', [[open('Settings'), 'Opened "Settings"; the screen now shows "Verify account".']], ['Settings', 'Verify account | Enter code | Verify'])).correct).toBe(false);

    const order = await textVerdict(
      'Get me 2 Hot Chocolate from The Waffle Spot sent to 5 Harbour View; I will pay with Cash.',
      [
        [tap, 'Tapped "The Waffle Spot"; the screen now shows "Menu".'],
        [tap, 'Tapped the row of "Hot Chocolate"; the screen now shows "2".'],
        [typeText('5 Harbour View'), 'Typed "5 Harbour View"; the screen now shows "5 Harbour View".'],
        [tap, 'Tapped "Cash"; no new text appeared.'],
        [tap, 'Tapped "Place order"; the screen now shows "Order placed".'],
      ],
      ['Foodie | The Waffle Spot', 'Order status | Order placed | Delivering to 5 Harbour View - Paying by Cash | 2 x Hot Chocolate'],
    );
    expect(order.correct).toBe(true);
    expect(order.reason).toMatch(/"Order placed"/);

    const pin = (last: string): [JudgeStepInput['action'], string][] => [
      [open('Notes'), 'Opened "Notes"; the screen now shows "Search notes".'],
      [tap, 'Tapped "Recipes to try"; the screen now shows "Pin".'],
      [tap, last],
      [done, 'Ended the task (success); no new text appeared.'],
    ];
    const page = 'Note | Unpin | Edit | Pinned | Lemon pasta, chickpea curry';
    expect((await textVerdict('Pin my note Recipes to try to the top.', pin('Tapped "Pin"; the screen now shows "Unpin".'), ['Notes | Recipes to try | Shopping list', page])).correct).toBe(true);
    // Somewhere else after the item's page: its name must be on the final screen.
    expect((await textVerdict('Pin my note Recipes to try to the top.', pin('Tapped "Shopping list"; the screen now shows "Unpin".'), ['Notes | Recipes to try | Shopping list', page])).correct).toBe(false);

    const dark = await textVerdict(
      'Please switch Dark mode On on my phone.',
      [
        [open('Settings'), 'Opened "Settings"; the screen now shows "Display".'],
        [tap, 'Tapped "Display"; the screen now shows "Dark mode".'],
        [tap, 'Tapped "Dark mode"; the screen now shows "Show battery percentage".'],
      ],
      ['Settings | Display | Sound', 'Display | Dark mode | Brightness level | Font size | Default'],
    );
    expect(dark.correct).toBe(true);
    expect(dark.reason).toMatch(/"Dark mode" was flipped once/);
  });

  it('navigation: the names on the start page are not the requested page unless a step acted on them', async () => {
    const instruction = 'Show me the menu of Green Bowl in Foodie.';
    const list = 'Foodie | Burger Palace | Green Bowl | Sushi Go';
    const idle = await textVerdict(instruction, [[open('Foodie'), 'Opened "Foodie"; the screen now shows "Burger Palace".']], ['Home', list]);
    expect(idle.correct).toBe(false);
    expect(idle.reason).toMatch(/no step acted on them/);
    const went = await textVerdict(
      instruction,
      [[open('Foodie'), 'Opened "Foodie"; the screen now shows "Burger Palace".'], [tap, 'Tapped "Green Bowl"; the screen now shows "Menu".']],
      ['Home', list, 'Green Bowl | Menu | Quinoa Bowl'],
    );
    expect(went.correct).toBe(true);
  });

  it('toggle: the switch drawn beside the named row decides (multimodal); the text channel counts flips of that switch', async () => {
    const instruction = 'Turn my Gym alarm On.';
    const [off, gymOn, classOn] = (await Promise.all([alarms({}), alarms({ Gym: true }), alarms({ 'Gym class': true })].map((h) => render(browser, h)))) as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    const models = { text: roleModel(trajectoryTextCriticRole, ocr, 3), multimodal: roleModel(trajectoryMultimodalCriticRole, ocr, 3) };
    const caption = async (png: Uint8Array): Promise<string> => (await ocr.recognize(png)).map((l) => l.text).join(' | ');
    const run = async (screens: Uint8Array[], rows: number[]) => {
      const summaries: string[] = ['Opened "Clock"; the screen now shows "Alarms".'];
      const actions: JudgeStepInput['action'][] = [open('Clock')];
      for (let i = 0; i < rows.length; i++) {
        const a: JudgeStepInput['action'] = { action: 'click', coordinate: ROW_TAPS.switchOf(rows[i]!) };
        const r = await step({ instruction, history: [...summaries], action: a, before: screens[i]!, after: screens[i + 1]! });
        summaries.push(r.verdict.summary);
        actions.push(a);
      }
      const shots_ = [screens[0]!, ...screens];
      return judgeTrajectory(
        models,
        {
          instruction,
          steps: actions.map((a, i) => ({ summary: summaries[i]!, actionText: JSON.stringify(a) })),
          captions: await Promise.all(shots_.map(caption)),
          screenshots: shots_.map(pngDataUrl),
          outcome: 'success',
        },
        { votes: 1 },
      );
    };
    const right = await run([off, gymOn], [0]);
    expect(right.channels.map((c) => c.correct)).toEqual([true, true]);
    expect(right.channels[1]!.reason).toMatch(/switch beside "Gym" on the final screen is on/);
    expect(right.channels[0]!.reason).toMatch(/flipped once/);
    const neighbour = await run([off, classOn], [1]);
    expect(neighbour.correct).toBe(false);
    const twice = await run([off, gymOn, off], [0, 0]);
    expect(twice.channels.map((c) => c.correct)).toEqual([false, false]);
    expect(twice.channels[1]!.reason).toMatch(/is off, not on/);
  });
});

