import { describe, expect, it } from 'vitest';
import { decide } from '../../models/reference/roles/policy.js';
import { PolicyMemory, slotEntities } from '../../models/reference/memory.js';
import { fillProcedureSlots, procedureOf, procedureSlots, slotArgument, type ProcedureStep } from '../../models/reference/procedure.js';
import type { OcrLine } from '../../models/reference/types.js';

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

  it('writes an accepted episode down as slotted steps (field taps merged into the typing, swipes and terminate left out)', () => {
    const steps = procedureOf(ALARM_10_05, slotsOf('Set an alarm for 10:05 AM every Tue called Yoga.'));
    const filled = steps!.map((s) => fillProcedureSlots(s, slotsOf('Set an alarm for 6:15 AM every Fri called Gym.')));
    expect(filled).toEqual(['open Clock', 'tap + Add alarm', 'tap 7', 'tap 6', 'tap 00', 'tap 15', 'enter "Gym" into the Alarm name field', 'tap Fri', 'tap Save alarm']);
    // A tap that hit no label cannot be written down.
    expect(procedureOf([{ action: { action: 'click', coordinate: [1, 1] } }], new Map())).toBeUndefined();
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
