import { describe, expect, it } from 'vitest';
import { requestCore } from '../../models/reference/roles/intent.js';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { understandDayChoice, understandTimeWindow } from '../../models/reference/roles/policy-edit.js';
import { fieldStep, formFields, formValues, understandForm } from '../../models/reference/roles/policy-form.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Things kept per person (a family app: each child's bookings, a choice per day for each), a feature on for a window of
 * time, and a form with a person's card, a date picker and chips. Every request and screen here is invented (a
 * sports-club app "Kidsport"); none is a built-in app's.
 */
const line = (text: string, x: number, y: number, w = 120, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const step = (instruction: string, history: string[], lines: OcrLine[]) => decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });

describe('policy: a thing of one person among several', () => {
  it('"Cancel Ava\'s spot at Junior Swim": the thing is Junior Swim, reached through Ava, and the button on Ava\'s row', () => {
    const plan = planTask("Cancel Ava's spot at Junior Swim in Kidsport.", []);
    const open = plan.goals.find((g) => g.kind === 'tap' && (g as { entity?: boolean }).entity) as { targets: string[]; via?: string[] };
    expect(open.targets).toEqual(['Junior Swim']);
    expect(open.via).toContain('ava');
    const action = plan.goals.find((g) => g.kind === 'tap' && (g as { words?: string[] }).words?.includes('cancel') && !(g as { entity?: boolean }).entity) as { near?: string[] };
    expect(action.near).toEqual(['Ava']);
  });

  it('taps the button on the named person\'s row, not the first of the same label', () => {
    const req = "Cancel Ava's spot at Junior Swim in Kidsport.";
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const gi = plan.goals.findIndex((g) => g.kind === 'tap' && (g as { near?: string[] }).near);
    const hist = plan.goals.slice(0, gi).map((g, i) => `Did ${g.text}. [goal ${i + 1}/${n} done]`);
    const page = [
      line('9:41', 12, 6, 36, 18),
      line('Junior Swim', 16, 100, 140, 24),
      line('Your bookings', 16, 560, 140, 18),
      line('Noah Reyes', 74, 610, 110, 20),
      line('Cancel spot', 268, 620, 110, 20),
      line('Ava Reyes', 74, 686, 100, 20),
      line('Cancel spot', 268, 696, 110, 20),
    ];
    const d = step(req, hist, page);
    expect(d.action).toMatchObject({ action: 'click' });
    const [, y] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(y).toBeGreaterThan(690);
  });

  it('"Change Ava\'s swim lesson on Wednesday to Pool B in App": its section, Ava\'s tab, the day, the choice, save', () => {
    const plan = understandDayChoice("Change Ava's swim lesson on Wednesday to Pool B in Kidsport.")!;
    expect(plan.goals.map((g) => g.kind)).toEqual(['open', 'tap', 'tap', 'tap', 'fill', 'submit']);
    expect(plan.goals[0]).toMatchObject({ target: 'Kidsport' });
    expect((plan.goals[1] as { targets: string[] }).targets).toEqual(expect.arrayContaining(['Swim lessons', 'Lessons']));
    expect(plan.goals[2]).toMatchObject({ targets: ['Ava'], optional: true });
    expect((plan.goals[3] as { targets: string[] }).targets[0]).toBe('Wednesday');
    expect(plan.goals[4]).toMatchObject({ value: 'Pool B' });
  });

  it('the same said as a wish in context: "Ava has been asking for X, and it\'s served on Wednesday. Switch that day\'s …"', () => {
    const plan = understandDayChoice("Ava has been asking for the Deep end session, and it's served on Wednesday. Could you switch that day's swim lesson in Kidsport?")!;
    expect(plan).toBeDefined();
    expect(plan.goals[2]).toMatchObject({ targets: ['Ava'] });
    expect(plan.goals[4]).toMatchObject({ value: 'Deep end session' });
    // Nothing to change without a day.
    expect(understandDayChoice('Ava has been asking for the Deep end session. Could you switch that day\'s swim lesson?')).toBeUndefined();
  });
});

describe('policy: a feature on for a window of time', () => {
  it('"Turn on do not disturb in App from 9:30 PM to 6:00 AM": the switch, then start and end', () => {
    const plan = understandTimeWindow('Turn on do not disturb in Kidsport from 9:30 PM to 6:00 AM.')!;
    expect(plan.goals.map((g) => g.kind)).toEqual(['open', 'toggle', 'fill', 'fill', 'tap']);
    expect(plan.goals[1]).toMatchObject({ target: 'Do not disturb', on: true });
    expect(plan.goals[2]).toMatchObject({ value: '9:30 PM', hints: expect.arrayContaining(['starts']) });
    expect(plan.goals[3]).toMatchObject({ value: '6:00 AM', hints: expect.arrayContaining(['ends']) });
  });

  it('"make App stay silent between 10 PM and 7 AM" names the feature by its word; other requests are not windows', () => {
    const plan = understandTimeWindow('Make Kidsport stay silent between 10 PM and 7 AM')!;
    expect(plan.goals[1]).toMatchObject({ target: 'Silent' });
    expect(understandTimeWindow('Book Junior Swim from 4:00 PM to 5:00 PM')).toBeUndefined();
  });

  const timeList = (first: number): OcrLine[] => [
    line('9:41', 12, 6, 36, 18),
    line('Notifications', 65, 47, 129, 20),
    line('Starts at', 63, 190, 172, 20),
    ...Array.from({ length: 9 }, (_, i) => {
      const m = (first + i) * 30;
      const h = Math.floor(m / 60);
      return line(`${h % 12 === 0 ? 12 : h % 12}:${m % 60 === 0 ? '00' : '30'} ${h < 12 ? 'AM' : 'PM'}`, 101, 233 + i * 49, 80, 21);
    }),
    line('Cancel', 212, 707, 60, 20),
    line('OK', 307, 707, 30, 20),
  ];

  it('scrolls an open list of times toward the value, as far as it lies, then chooses it and confirms the picker', () => {
    const req = 'Turn on do not disturb in Kidsport from 9:30 PM to 6:00 AM.';
    const plan = planTask(req, []);
    const n = plan.goals.length;
    const hist = [`Opened Kidsport. [goal 1/${n} done]`, `Switched it on. [goal 2/${n} done]`, `Opened the field "Starts at". [goal 3/${n}: opened item]`];
    const far = step(req, hist, timeList(0));
    expect(far.action).toMatchObject({ action: 'swipe' });
    const a = far.action as { coordinate: [number, number]; coordinate2: [number, number] };
    // Up the screen (later times below), a long drag: 9:30 PM is 35 rows past the last one shown.
    expect(a.coordinate[1] - a.coordinate2[1]).toBeGreaterThan(500);
    const there = step(req, [...hist, `Scrolled the times down. [goal 3/${n}: step 1]`], timeList(40));
    expect(there.conclusion).toMatch(/^Chose "9:30 PM"/);
    const ok = step(req, [...hist, `Chose "9:30 PM". [goal 3/${n} done]`], timeList(40));
    expect(ok.conclusion).toMatch(/^Tapped "OK" to close the picker/);
  });
});

describe('policy: a form with a person\'s card, a date picker and chips', () => {
  const form = (): OcrLine[] => [
    line('9:41', 12, 6, 36, 18),
    line('Report a sick day', 65, 47, 180, 20),
    line('Who is off?', 26, 165, 100, 18),
    line('Noah Reyes', 40, 205, 110, 20),
    line('Ava Reyes', 225, 205, 100, 20),
    line('Date', 26, 290, 40, 18),
    line('Monday, May 4', 42, 330, 140, 20),
    line('How long?', 26, 425, 90, 18),
    line('All day', 42, 462, 60, 20),
    line('Morning only', 134, 462, 110, 20),
    line('Afternoon only', 42, 512, 130, 20),
    line('Reason', 26, 578, 60, 18),
    line('Choose a reason', 42, 620, 140, 20),
  ];

  it('"Report Ava sick on Wednesday, May 6, reason: Fever": Ava (not "Ava sick"), the date, the reason; no weekday as the kind', () => {
    const plan = understandForm('Report Ava sick on Wednesday, May 6 in Kidsport, reason: Fever.')!;
    const open = plan.goals[1] as { targets: string[]; form: { value: string }[] };
    expect(open.form.map((v) => v.value).sort()).toEqual(['Ava', 'Fever', 'May 6']);
    expect(open.targets.join(' ')).not.toMatch(/wednesday/i);
  });

  it('"X won\'t be at practice on D (R). Can you let the coach know through App?" is an absence to report, R its reason', () => {
    expect(requestCore("Ava won't be at practice on Wednesday, May 6 (Fever). Can you let the coach know through Kidsport? It's for the whole day.")).toMatch(
      /^Report Ava absent on Wednesday, May 6 in Kidsport, reason: Fever\./,
    );
  });

  it('a chip wrapped under a row of two chips headed by its own label is no label: the reason goes in the Reason picker', () => {
    expect(formFields(form(), screen).map((f) => f.label.text)).toEqual(['Who is off?', 'Date', 'How long?', 'Reason']);
    const values = formValues('then Ava sick on May 6, reason: Fever');
    const st = fieldStep(values, values.findIndex((v) => v.value === 'Fever'), form(), screen, undefined);
    expect(st).toMatchObject({ do: 'tap', line: { text: 'Choose a reason' } });
  });

  it('a person named by the first name is the one card with that first name', () => {
    const values = formValues('then Ava sick on May 6, reason: Fever');
    const st = fieldStep(values, values.findIndex((v) => v.value === 'Ava'), form(), screen, undefined);
    expect(st).toMatchObject({ do: 'tap', line: { text: 'Ava Reyes' } });
  });

  it('an open date picker offers the day in its own words ("Wednesday, May 6" for "May 6")', () => {
    const values = formValues('then Ava sick on May 6, reason: Fever');
    const i = values.findIndex((v) => v.value === 'May 6');
    const picker = [line('Date', 63, 190, 60, 20), line('Monday, May 4', 103, 233, 160, 21), line('Tuesday, May 5', 103, 282, 160, 21), line('Wednesday, May 6', 103, 331, 170, 21), line('Cancel', 277, 707, 60, 20)];
    expect(fieldStep(values, i, picker, screen, 'field #21')).toMatchObject({ do: 'tap', line: { text: 'Wednesday, May 6' } });
  });
});
