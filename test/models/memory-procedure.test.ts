import { describe, expect, it } from 'vitest';
import { decide } from '../../models/reference/roles/policy.js';
import { numbersFit, PolicyMemory, slotEntities } from '../../models/reference/memory.js';
import { fillProcedureSlots, procedureOf, procedureSlots, slotArgument, withUnusedValues, type ProcedureStep } from '../../models/reference/procedure.js';
import type { OcrLine } from '../../models/reference/types.js';
import { numberAt, numberPoint } from '../../models/reference/roles/policy-screen.js';

/** Learned procedures (models/reference/procedure.ts); their held-out measurement on the real apps is bench/cold-start.ts. */
const slotsOf = (instruction: string): Map<string, string> => procedureSlots(instruction, slotEntities(instruction));
const click = (label: string): ProcedureStep => ({ action: { action: 'click', coordinate: [10, 10] }, label });
const ALARM_10_05: ProcedureStep[] = [
  { action: { action: 'open', text: 'Clock' } },
  click('+ Add alarm'),
  click('7'),
  click('10'),
  click('10'), // a retried tap is one step
  click('00'),
  click('05'),
  click('Alarm name'),
  { action: { action: 'type', text: 'Yoga' } },
  { action: { action: 'swipe', coordinate: [200, 600], coordinate2: [200, 200] } },
  click('Tue'),
  click('Save alarm'),
  { action: { action: 'terminate', status: 'success' } },
];

describe('learned procedures (unit)', () => {
  it('slots read from the request: entities, their tokens, value words and their prefixes', () => {
    const slots = slotsOf('Set an alarm for 10:05 AM every Tue called Yoga.');
    expect(slotArgument('Yoga', slots)).toMatch(/^\{e\d+\}$/);
    expect(fillProcedureSlots(slotArgument('05', slots), slots)).toBe('05');
    expect(slotArgument('05', slots)).toMatch(/^\{e\d+\.1\}$/);
    expect(slotArgument('+ Add alarm', slots)).toBe('+ Add alarm');
    const fri = slotsOf('Wake me at 7:55 PM on Fris; label it Call Mom.');
    expect(slotArgument('Fri', fri)).toMatch(/^\{w\d+:3\}$/);
    expect(fillProcedureSlots(slotArgument('Fri', fri), slotsOf('Wake me at 4:40 PM on Mons; label it Dentist.'))).toBe('Mon');
    // A slot the new request lacks: no fill.
    expect(fillProcedureSlots('tap {e3}', slotsOf('Wake me at 4:40 PM'))).toBeUndefined();
  });

  it('value words are counted in the request itself, whatever frames it (a sentence\'s first word and "I" are no values)', () => {
    const learned = slotsOf('Wake me at 7:55 AM on Fris; label it Dentist.');
    const day = slotArgument('Fri', learned);
    expect(day).toMatch(/^\{w\d+:3\}$/);
    // "Wake" starts a sentence after a preamble; "I" is a pronoun; "Thanks" starts a closing sentence.
    expect(fillProcedureSlots(day, slotsOf("I'm in a bit of a rush. Wake me at 4:20 AM on Sats; label it Laundry, please."))).toBe('Sat');
    expect(fillProcedureSlots(day, slotsOf('Can I ask you to wake me at 5:00 AM on Weds; label it Pick up kids?'))).toBe('Wed');
    expect(fillProcedureSlots(day, slotsOf('Wake me at 11:10 PM on Mons; label it Yoga, please. Thanks a lot.'))).toBe('Mon');
    expect([...slotsOf('Hi there. Please wake me at 6:10 AM on Tues; label it Gym.').values()]).not.toContain('Hi');
  });

  it('writes an accepted episode down as slotted steps (field taps merged into the typing, swipes and terminate left out)', () => {
    const steps = procedureOf(ALARM_10_05, slotsOf('Set an alarm for 10:05 AM every Tue called Yoga.'));
    const filled = steps!.map((s) => fillProcedureSlots(s, slotsOf('Set an alarm for 6:15 AM every Fri called Gym.')));
    expect(filled).toEqual(['open Clock', 'tap + Add alarm', 'tap 7', 'tap 6', 'tap 00', 'tap 15', 'enter "Gym" into the Alarm name field', 'tap Fri', 'tap Save alarm']);
    // A tap that hit no label cannot be written down.
    expect(procedureOf([{ action: { action: 'click', coordinate: [1, 1] } }], new Map())).toBeUndefined();
  });

  it('a field keeps its label verbatim even when its example text is this request\'s value (a placeholder is screen text)', () => {
    const learned = 'Transfer my Losartan 50 mg prescription, number 7315508, from CityCare Drugs.';
    const steps = procedureOf(
      [
        { action: { action: 'open', text: 'Pharmacy' } },
        click('Transfer a prescription'),
        click('e.g. Losartan 50 mg'),
        { action: { action: 'type', text: 'Losartan 50 mg' } },
        click('Pharmacy name'),
        { action: { action: 'type', text: 'CityCare Drugs' } },
      ],
      slotsOf(learned),
    )!;
    const next = slotsOf('Transfer my Simvastatin 40 mg prescription, number 5190736, from Budget Rx.');
    expect(steps.map((t) => fillProcedureSlots(t, next))).toEqual([
      'open Pharmacy',
      'tap Transfer a prescription',
      'enter "Simvastatin 40 mg" into the e.g. Losartan 50 mg field',
      'enter "Budget Rx" into the Pharmacy name field',
    ]);
  });

  it('a tapped option whose last letter OCR clipped is still the request\'s value (its slot transfers)', () => {
    const slots = slotsOf('Set my pickup store to Riverside Mall.');
    expect(slotArgument('Riverside Mal', slots)).toMatch(/^\{e\d+\}$/);
    expect(fillProcedureSlots(slotArgument('Riverside Mal', slots), slotsOf('Set my pickup store to Oak Park Plaza.'))).toBe('Oak Park Plaza');
    // Two letters short, or a short value: another label, kept verbatim.
    expect(slotArgument('Riverside Ma', slots)).toBe('Riverside Ma');
    expect(slotArgument('Gy', slotsOf('Wake me at 7:55 AM; label it Gym.'))).toBe('Gy');
  });

  it('a 7 o\'clock alarm keeps the picker-opening tap: the same label tapped twice at different places is the control, then the value', () => {
    const at = (label: string, x: number, y: number): ProcedureStep => ({ action: { action: 'click', coordinate: [x, y] }, label });
    const seven: ProcedureStep[] = [
      { action: { action: 'open', text: 'Clock' } },
      at('+ Add alarm', 300, 800),
      at('7', 102, 161), // the Hour button showing its current value
      at('7', 200, 420), // the option 7 in the picker it opened
      at('00', 290, 161),
      at('00', 200, 300),
      at('Alarm name', 100, 395),
      { action: { action: 'type', text: 'Gym' } },
      at('Save alarm', 194, 663),
    ];
    const steps = procedureOf(seven, slotsOf('Set an alarm for 7:00 AM called Gym.'))!;
    const filled = steps.map((t) => fillProcedureSlots(t, slotsOf('Set an alarm for 4:35 AM called Swim.')));
    expect(filled).toEqual(['open Clock', 'tap + Add alarm', 'tap 7', 'tap 4', 'tap 00', 'tap 35', 'enter "Swim" into the Alarm name field', 'tap Save alarm']);
  });

  it('a numbered option OCR did not read is found from its column: the policy taps its place, the trainer names it', () => {
    // The hour picker as PP-OCR read it (real lines from a run): 1, 3, 7 missing, 2 read as "?", 5 as "to".
    const at = (text: string, x: number, y: number): OcrLine => ({ text, box: { x, y, w: 12, h: 22 }, confidence: 0.9 });
    const HOURS = [at('Add alarm', 66, 45), at('Hour', 61, 137), at('?', 104, 236), at('4', 104, 332), at('to', 104, 378), at('6', 103, 425), at('8', 102, 521), at('9', 102, 569), at('10', 103, 616), at('11', 102, 664), at('12', 100, 710), at('Cancel', 277, 760)];
    const screen = { width: 412, height: 915 };
    const p5 = numberPoint(HOURS, '5', screen)!;
    expect(Math.abs(p5[1] - (378 + 11))).toBeLessThan(8);
    expect(Math.abs(numberPoint(HOURS, '1', screen)![1] - 194)).toBeLessThan(10);
    expect(numberAt([108, 386], HOURS)).toBe('5');
    expect(numberAt([108, 482], HOURS)).toBe('7');
    // A demonstration taps the middle of the option's row, right of its number.
    expect(numberAt([206, 482], HOURS)).toBe('7');
    expect(numberPoint(HOURS, '30', screen)).toBeUndefined();
    // Not a column: the form's "7" and "00" buttons.
    expect(numberPoint([at('7', 102, 161), at('00', 281, 162), at('AM', 97, 271)], '5', screen)).toBeUndefined();
    // Minutes, two digits, step 5; the radio circles read as a column of "0" are no column (not increasing).
    const MINUTES = [at('00', 101, 183), at('0', 67, 231), at('05', 101, 231), at('0', 67, 279), at('10', 101, 279), at('20', 103, 376), at('0', 69, 377), at('25', 102, 423)];
    expect(numberAt([113, 340], MINUTES)).toBe('15');
    expect(numberPoint(MINUTES, '15', screen)![1]).toBeGreaterThan(320);
    // The policy, following a step "tap 5" on that screen, taps the place of 5.
    const d = decide({ instruction: 'Set an alarm for 5:00 PM called Yoga.', guidance: ['tap 5'], history: [], lines: HOURS, screen, temperature: 0, random: () => 0.5 });
    expect(d.action).toMatchObject({ action: 'click' });
    expect(Math.abs((d.action as { coordinate: [number, number] }).coordinate[1] - 389)).toBeLessThan(8);
  });

  it('a value the learned episode never chose (the screen\'s default) is chosen when this request asks for another one', () => {
    const at = (label: string, x: number, y: number): ProcedureStep => ({ action: { action: 'click', coordinate: [x, y] }, label });
    // Learned from a morning alarm: AM was already selected, so no step chose it.
    const morning: ProcedureStep[] = [
      { action: { action: 'open', text: 'Clock' } },
      at('+ Add alarm', 300, 800),
      at('Hour', 114, 152),
      at('4', 104, 343),
      at('Minute', 299, 152),
      at('55', 113, 722),
      at('Alarm name', 92, 397),
      { action: { action: 'type', text: 'Dentist' } },
      at('Fri', 336, 503),
      at('Save alarm', 207, 664),
    ];
    const m = new PolicyMemory('0.1.1');
    m.addProcedure('Wake me at 4:55 AM on Fris; label it Dentist.', morning);
    const pm = m.recallProcedure('Wake me at 3:35 PM on Mons; label it Yoga.')!.steps;
    expect(pm).toEqual(['open Clock', 'tap + Add alarm', 'tap Hour', 'tap 3', 'tap Minute', 'tap 35', 'tap PM', 'enter "Yoga" into the Alarm name field', 'tap Mon', 'tap Save alarm']);
    // The same value as the source's: nothing to choose.
    expect(m.recallProcedure('Wake me at 6:10 AM on Tues; label it Gym.')!.steps).not.toContain('tap AM');
    expect(withUnusedValues(['tap {e1.0}'], [], slotsOf('Wake me at 3:35 PM on Mons; label it Yoga.'), 'Wake me at 3:35 PM on Mons; label it Yoga.')).toEqual(['tap {e1.0}']);
  });

  it('the same request with other numbers (a loose match) does not replay the remembered request\'s numbers', () => {
    const m = new PolicyMemory('0.1.1');
    const line = (text: string, x: number, y: number): OcrLine => ({ text, box: { x, y, w: 30, h: 22 }, confidence: 0.9 });
    const HOURS = [line('Add alarm', 66, 45), line('Hour', 61, 137), line('9', 102, 569), line('12', 100, 710), line('Cancel', 277, 760)];
    const screen = { width: 412, height: 915 };
    m.add({ instruction: 'Set an alarm for 12:45 AM every Mon called Gym.', lines: HOURS, screen, action: { action: 'click', coordinate: [110, 720] }, conclusion: 'Tapped "12". [goal 4/9 done]' });
    expect(m.lookup('Set an alarm for 12:45 AM every Mon called Gym.', HOURS, screen)?.conclusion).toBe('Tapped "12". [goal 4/9 done]');
    expect(m.lookup('Set an alarm for 9:10 AM every Mon called Gym.', HOURS, screen)).toBeUndefined();
    expect(numbersFit({ action: { action: 'click', coordinate: [1, 1] }, conclusion: 'Tapped "+ Add alarm". [goal 2/9 done]' }, 'Set an alarm for 9:10 AM')).toBe(true);
  });

  it('a label introduced by "label it" is one entity, words and all (its slot fills the whole typed name)', () => {
    expect(slotEntities('Wake me at 8:05 AM on Tues; label it Pick up kids.')).toContain('Pick up kids');
  });

  it('recalls the closest procedure for an unseen request of the same kind, survives JSON, and misses other kinds', () => {
    const m = new PolicyMemory('0.1.1');
    expect(m.addProcedure('Set an alarm for 10:05 AM every Tue called Yoga.', ALARM_10_05)).toBe(true);
    expect(m.addProcedure('Set an alarm for 10:05 AM every Tue called Yoga.', ALARM_10_05)).toBe(true);
    const again = PolicyMemory.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
    expect(again.procedureCount).toBe(1);
    const r = again.recallProcedure('Set an alarm for 9:45 PM every Wed called Swim.');
    expect(r).toMatchObject({ count: 2, similarity: 1 });
    expect(r!.steps).toContain('tap 9');
    expect(r!.steps).toContain('enter "Swim" into the Alarm name field');
    expect(again.recallProcedure('Delete the note Gift ideas.')).toBeUndefined();
  });

  it('a candidate retrained on top of the served memory keeps every earlier procedure and its recalls', () => {
    const served = new PolicyMemory('0.1.1');
    served.addProcedure('Set an alarm for 10:05 AM every Tue called Yoga.', ALARM_10_05);
    served.addProcedure('Set an alarm for 10:05 AM every Tue called Yoga.', ALARM_10_05);
    const before = served.recallProcedure('Set an alarm for 9:45 PM every Wed called Swim.');
    // The next generation: the served memory (as the trainer copies it) plus a procedure of another kind, and a
    // worse one of the same kind learned once (no picker steps).
    const candidate = PolicyMemory.fromJSON({ ...served.toJSON(), version: '0.1.2' });
    candidate.addProcedure('Transfer my Losartan 50 mg prescription, number 7315508, from CityCare Drugs.', [
      { action: { action: 'open', text: 'Pharmacy' } },
      click('Transfer a prescription'),
      click('Pharmacy name'),
      { action: { action: 'type', text: 'CityCare Drugs' } },
    ]);
    candidate.addProcedure('Set an alarm for 6:30 AM every Mon called Gym.', [{ action: { action: 'open', text: 'Clock' } }, click('+ Add alarm'), click('Alarm name'), { action: { action: 'type', text: 'Gym' } }, click('Save alarm')]);
    const kept = new Set(candidate.toJSON().procedures!.map((p) => p.steps.join(' | ')));
    for (const p of served.toJSON().procedures!) expect(kept.has(p.steps.join(' | '))).toBe(true);
    expect(candidate.procedureCount).toBe(3);
    expect(candidate.recallProcedure('Set an alarm for 9:45 PM every Wed called Swim.')).toEqual(before);
  });

  it('among procedures of the same intent and as often learned, the one learned from agreeing values wins (an afternoon step only for PM)', () => {
    const m = new PolicyMemory('0.1.2');
    m.addProcedure('Set an alarm for 10:05 PM every Tue called Yoga.', [...ALARM_10_05.slice(0, 7), click('PM'), ...ALARM_10_05.slice(7)]);
    m.addProcedure('Set an alarm for 10:05 PM every Tue called Yoga.', [...ALARM_10_05.slice(0, 7), click('PM'), ...ALARM_10_05.slice(7)]);
    m.addProcedure('Set an alarm for 10:05 AM every Tue called Yoga.', ALARM_10_05);
    // Learned more often wins first: the PM procedure (×2) for a morning time too.
    expect(m.recallProcedure('Set an alarm for 6:15 AM every Fri called Gym.')!.steps).toContain('tap AM');
    m.addProcedure('Set an alarm for 10:05 AM every Tue called Yoga.', ALARM_10_05);
    // Equally often: the one learned from agreeing values.
    expect(m.recallProcedure('Set an alarm for 6:15 AM every Fri called Gym.')!.steps).not.toContain('tap AM');
    expect(m.recallProcedure('Set an alarm for 6:15 PM every Fri called Gym.')!.steps).toContain('tap PM');
    expect(PolicyMemory.fromJSON(JSON.parse(JSON.stringify(m.toJSON()))).recallProcedure('Set an alarm for 6:15 AM every Fri called Gym.')!.steps).not.toContain('tap AM');
  });

  it('the policy follows a recalled procedure as it follows guidance: the first step opens the app', () => {
    const m = new PolicyMemory('0.1.1');
    m.addProcedure('Set an alarm for 10:05 AM every Tue called Yoga.', ALARM_10_05);
    const steps = m.recallProcedure('Set an alarm for 9:45 PM every Wed called Swim.')!.steps;
    const line = (text: string, y: number): OcrLine => ({ text, box: { x: 40, y, w: 120, h: 22 }, confidence: 0.9 });
    const d = decide({ instruction: 'Set an alarm for 9:45 PM every Wed called Swim.', guidance: steps, history: [], lines: [line('Clock', 300), line('Notes', 400)], screen: { width: 412, height: 915 }, temperature: 0, random: () => 0.5 });
    expect(d.action).toMatchObject({ action: 'open', text: 'Clock' });
  });
});
