/**
 * The step critic's off-task rule (models/reference/roles/step-critic.ts): a tap that opens the tapped control's own
 * options over the same page (a picker titled by the control) covers the offered item; it does not leave it.
 */
import { describe, expect, it } from 'vitest';
import type { OcrLine } from '../../models/reference/types.js';
import { opensOwnOptions } from '../../models/reference/roles/step-critic.js';

const at = (text: string, x: number, y: number): OcrLine => ({ text, box: { x, y, w: 40, h: 22 }, confidence: 0.9 });
// Real OCR lines of the form and of the picker its "Hour" button opened.
const FORM = [at('9:41', 13, 6), at('Add alarm', 66, 45), at('Save', 353, 47), at('Hour', 95, 142), at('Minute', 274, 141), at('7', 102, 161), at('AM', 97, 271), at('PM', 283, 272), at('Alarm name', 41, 385), at('Thu', 253, 494)];
const PICKER = [at('9:41', 13, 6), at('Add alarm', 66, 45), at('Save', 353, 48), at('Hour', 61, 137), at('4', 104, 332), at('6', 103, 425), at('8', 102, 521), at('Cancel', 277, 760)];
const OTHER_PAGE = [at('9:41', 13, 6), at('Clock', 15, 46), at('Hour', 61, 137), at('Alarms', 16, 106)];
const SCALE = 915 / 640;

describe('opening a control\'s own options', () => {
  it('is recognised when the page title stays and the tapped text heads what opened', () => {
    expect(opensOwnOptions('Hour', FORM, PICKER, SCALE)).toBe(true);
  });
  it('is not: another page (title changed), the text did not move, or the text is gone', () => {
    expect(opensOwnOptions('Hour', FORM, OTHER_PAGE, SCALE)).toBe(false);
    expect(opensOwnOptions('Hour', FORM, FORM, SCALE)).toBe(false);
    expect(opensOwnOptions('Minute', FORM, PICKER, SCALE)).toBe(false);
  });
});
