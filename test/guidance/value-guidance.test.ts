/**
 * Guidance for per-episode values ("enter the code from Mail"): when a reference types a value that an earlier
 * screen of ANOTHER app showed, the synthesiser writes where to read it, never the value; the reference policy reads
 * such guidance as a read goal and a typing goal filled from its own noted value — so the guidance works on an
 * episode whose code differs from the reference's.
 */
import { describe, expect, it } from 'vitest';
import type { OcrLine } from '../../domain/ports.js';
import { guideSynthRole, valueKind } from '../../models/reference/roles/guide-synth.js';
import { guidanceGoals } from '../../models/reference/roles/policy-guidance.js';
import { parseGoals } from '../../models/reference/roles/policy-intent.js';
import { decide } from '../../models/reference/roles/policy.js';
import type { RoleContext } from '../../models/reference/types.js';

const synth = async (steps: unknown[]): Promise<string[]> => {
  const r = await guideSynthRole({ model: 'ref-guide-synth', messages: [{ role: 'user', content: JSON.stringify({ task: 't', steps }) }] }, {} as RoleContext);
  return (JSON.parse(String(r.content)) as { steps: string[] }).steps;
};
const line = (text: string, y: number, x = 24): OcrLine => ({ text, box: { x, y, w: 8 * text.length, h: 20 }, confidence: 0.99 });
const SCREEN = { width: 412, height: 915 };

// A reference that read a code in Mail and entered it in Settings (the describer's `visible` is each after screen).
const REFERENCE = [
  { action: 'open the app "Mail"', target: 'Mail', visible: ['Inbox', 'Your verification code', 'Team lunch'] },
  { action: 'tap at the circled point', target: 'Your verification code', visible: ['Your verification code', 'Your code is 482913', 'It expires in 10 minutes.'] },
  { action: 'open the app "Settings"', target: 'Settings', visible: ['Settings', 'Verify account'] },
  { action: 'tap at the circled point', target: 'Verify account', visible: ['Verify account', 'Verification code'] },
  { action: 'tap at the circled point', target: 'Verification code', visible: ['Verify account', 'Verification code'] },
  { action: 'type "482913"', target: '482913', visible: ['Verify account', '482913'] },
  { action: 'tap at the circled point', target: 'Verify', visible: ['Account verified'] },
];

describe('guidance for values that differ per episode', () => {
  it('says where to read a value typed after another app showed it, and never copies the value', async () => {
    const steps = await synth(REFERENCE);
    expect(steps).toEqual([
      'open Mail',
      'read the code from Your verification code in Mail',
      'open Settings',
      'tap Verify account',
      'enter the code from Mail into the Verification code field',
      'tap Verify',
    ]);
    expect(steps.join('\n')).not.toContain('482913');
  });

  it('keeps a value literal when no other app showed it, or when it is no code or address', async () => {
    // The same code, but shown by the app it is typed into (no cross-app read): literal.
    const sameApp = await synth([
      { action: 'open the app "Settings"', target: 'Settings', visible: ['Your PIN is 4321'] },
      { action: 'tap at the circled point', target: 'PIN', visible: ['PIN'] },
      { action: 'type "4321"', target: '4321', visible: ['4321'] },
    ]);
    expect(sameApp).toEqual(['open Settings', 'enter "4321" into the PIN field']);
    // A name typed in Clock that Notes showed earlier: not a value the policy can read, literal.
    const name = await synth([
      { action: 'open the app "Notes"', target: 'Notes', visible: ['Laundry'] },
      { action: 'tap at the circled point', target: 'Laundry', visible: ['Laundry'] },
      { action: 'open the app "Clock"', target: 'Clock', visible: ['Alarm name'] },
      { action: 'tap at the circled point', target: 'Alarm name', visible: ['Alarm name'] },
      { action: 'type "Laundry"', target: 'Laundry', visible: ['Laundry'] },
    ]);
    expect(name.at(-1)).toBe('enter "Laundry" into the Alarm name field');
    expect(valueKind('12 Harbor Road')).toBe('address');
    expect(valueKind('482 913')).toBe('code');
    expect(valueKind('Laundry')).toBeUndefined();
  });

  it('an address read from a note becomes a read goal and a field filled from the noted value', () => {
    const goals = guidanceGoals(['open Notes', 'read the address from Dinner plans in Notes', 'open Foodie', 'enter the address from Notes into the Delivery address field'], parseGoals);
    expect(goals[1]).toMatchObject({ kind: 'read', what: 'address', source: 'Dinner plans' });
    expect(goals[3]).toMatchObject({ kind: 'type', value: '{address}', words: ['Delivery address'] });
  });

  it('the policy follows it on an episode with ANOTHER code: reads it off the screen and types what it read', async () => {
    const guidance = (await synth(REFERENCE)).map((s, i) => `${i + 1}. ${s}`.replace(/^\d+\. /, ''));
    const base = { instruction: 'Verify my account with the code from Mail.', guidance, screen: SCREEN, temperature: 0, random: () => 0.5 };
    // Mail is open: the message that shows the code is tapped.
    const inbox = [line('Inbox', 50, 160), line('Your verification code', 160), line('Team lunch', 240)];
    const d1 = decide({ ...base, history: ['Opened Mail. [goal 1/6 done]'], lines: inbox });
    expect(d1.action.action).toBe('click');
    expect((d1.action as { coordinate: [number, number] }).coordinate[1]).toBeGreaterThan(150);
    expect((d1.action as { coordinate: [number, number] }).coordinate[1]).toBeLessThan(190);
    // The message is open: this episode's code (not the reference's 482913) is noted and Settings opened.
    const message = [line('Your verification code', 50, 60), line('Your code is 715204', 160), line('It expires in 10 minutes.', 200)];
    const d2 = decide({ ...base, history: ['Opened Mail. [goal 1/6 done]', d1.conclusion], lines: message });
    expect(d2.conclusion).toContain('[noted code=715204]');
    expect(d2.action).toEqual({ action: 'open', text: 'Settings' });
    // On the form with the code field focused, the noted code is typed.
    const form = [line('Verify account', 50, 120), line('Verification code', 200), line('Verify', 300)];
    const history = ['Opened Mail. [goal 1/6 done]', d1.conclusion, d2.conclusion, 'Opened Settings. [goal 3/6 done]', 'Tapped "Verify account". [goal 4/6 done]', 'Tapped the field "Verification code". [goal 5/6: focused]'];
    const d3 = decide({ ...base, history, lines: form });
    expect(d3.action).toEqual({ action: 'type', text: '715204' });
  });
});
