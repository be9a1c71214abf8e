import { describe, expect, it } from 'vitest';
import { filledOnScreen, formFields, formValues } from '../../models/reference/roles/policy-form.js';
import { decide } from '../../models/reference/roles/policy.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * A list of options whose descriptions wrap onto a second line (read off a seeds 13–14 regression rollout): the last
 * word of a wrapped description ("item") is no label whose field holds the next option. Every app, screen and name here
 * is invented: a bicycle workshop's "Book a service" page, options with two-line descriptions over a turnaround choice.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const page = [
  line('9:41', 12, 6, 36, 18),
  line('Book a service', 66, 48, 184, 20),
  line('JOBS WE DO', 16, 160, 190, 14),
  line('Puncture', 52, 194, 100, 18),
  line('Tube replaced and tyre checked for glass and', 51, 218, 330, 18),
  line('thorns', 51, 236, 60, 18),
  line('Brake tune', 52, 276, 110, 19),
  line('Pads, cables and levers adjusted - from $12.00 per', 51, 300, 350, 19),
  line('wheel', 50, 318, 44, 20),
  line('Full overhaul', 52, 360, 130, 20),
  line('Stripped, cleaned, regreased and rebuilt - from', 52, 384, 320, 18),
  line('$89.00', 52, 402, 60, 18),
  line('Wheel true', 53, 444, 100, 19),
  line('Spokes tensioned, hub checked and rim aligned - from', 50, 468, 345, 18),
  line('$20.00 per wheel', 50, 486, 120, 18),
  line('SPEED', 15, 560, 70, 14),
  line('Standard', 52, 594, 80, 18),
  line('Ready in 3 days · free', 51, 618, 160, 18),
  line('Rush', 53, 660, 50, 18),
  line('Ready tomorrow · +$15.00', 51, 684, 180, 18),
  line('Continue', 160, 790, 90, 22),
];
const request = 'Could you get Spokely to take my bike in for a Full Overhaul on Monday, June 9 in the 9 AM–11 AM window, with Standard speed?';

describe('options whose descriptions wrap onto a second line', () => {
  it('the end of a wrapped description is no label', () => {
    const labels = formFields(page, screen).map((f) => f.label.text);
    expect(labels).not.toContain('wheel');
    expect(labels).not.toContain('thorns');
    expect(labels).toContain('Full overhaul');
  });

  it('an option that follows a wrapped description is not filled in by being shown', () => {
    const values = formValues(request);
    const i = values.findIndex((v) => v.value === 'Full Overhaul');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(filledOnScreen(values, i, page, screen)).toBe(false);
  });

  it('the policy chooses the option before it looks for the button', () => {
    const d = decide({ instruction: request, guidance: [], history: ['Opened the Spokely app. [goal 1/9 done]', 'Tapped "Book a service". [goal 2/9 done]'], lines: page, screen, temperature: 0, random: mulberry32(1), switches: [] });
    expect(d.action.action, d.thought).toBe('click');
    const [x, y] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(page.find((l) => x >= l.box.x && x <= l.box.x + l.box.w && y >= l.box.y && y <= l.box.y + l.box.h)?.text).toBe('Full overhaul');
  });
});
