import { describe, expect, it } from 'vitest';
import { decide, guessedTarget, SEARCH_AFTER } from '../../models/reference/roles/policy.js';
import { formValues } from '../../models/reference/roles/policy-form.js';
import { implausibleField, searchStep, searching, segmentRow, tidyValues } from '../../models/reference/roles/policy-search.js';
import { affirmative, screenSig } from '../../models/reference/roles/policy-screen.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * The search by screen relevance, the policy's fallback when its plan is stuck in an app. Every request and screen is
 * invented (a hotel app "Kestrel"); none is a built-in app's.
 */
const line = (text: string, x: number, y: number, w = 120, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const input = (instruction: string, history: string[], lines: OcrLine[]) => ({ instruction, guidance: [] as string[], history, lines, screen, temperature: 0, random: mulberry32(1) });
const tapped = (d: { action: { action: string; coordinate?: [number, number] } }, lines: OcrLine[]): string | undefined => {
  if (d.action.action !== 'click' || !d.action.coordinate) return undefined;
  const [x, y] = d.action.coordinate;
  return lines.find((l) => x >= l.box.x && x <= l.box.x + l.box.w && y >= l.box.y && y <= l.box.y + l.box.h)?.text;
};

const status = line('9:41', 12, 6, 36, 18);
const title = line('Kestrel', 160, 50, 90, 22);
const tabs = [line('Home', 30, 880, 50, 20), line('Stays', 130, 880, 50, 20), line('Trips', 230, 880, 50, 20), line('Account', 320, 880, 70, 20)];
const request = 'Move Priya to room 412 on the Lisbon stay in Kestrel.';
const start = ['Opened the Kestrel app. [goal 1/4 done]'];

describe('policy search: exploring an app by what its screens say', () => {
  it('taps the list row whose card names the request (title and the line under it), not a greeting or a heading', () => {
    const lines = [status, title, line('Hi Priya', 16, 120, 100, 22), line('Where to next? Explore our city breaks.', 16, 150, 300, 18), line('UPCOMING STAYS', 16, 200, 160, 16), line('Porto Riverside', 16, 240, 150, 22), line('May 2 - May 4 · Sam', 16, 266, 170, 18), line('Lisbon Old Town', 16, 330, 150, 22), line('Jun 8 - Jun 11 · Priya', 16, 356, 180, 18), line('Free cancellation until 48 hours before check-in', 16, 420, 330, 18), ...tabs];
    const d = searchStep(input(request, [...start, 'Swiped up. [goal 2/4: scroll 1 #x]'], lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Lisbon Old Town');
    expect(d.conclusion).toMatch(/\[search 1: tap #[0-9a-z]+\]$/);
  });

  it('chooses a value of the request offered as an option (a code like "412")', () => {
    const lines = [status, title, line('Choose a room', 16, 100, 160, 24), line('Room 410', 16, 200), line('Room 412', 16, 260), line('Room 414', 16, 320), line('Save room', 140, 800, 120, 24)];
    const hist = [...start, 'Tapped "Lisbon Old Town". [search 1: tap #a]', 'Tapped "Change room". [search 2: tap #b]'];
    const d = searchStep(input('Put Priya in 412B on the Lisbon stay in Kestrel.', hist, [...lines, line('412B', 16, 380, 60, 20)]), 'Kestrel');
    expect(tapped(d, [...lines, line('412B', 16, 380, 60, 20)])).toBe('412B');
  });

  it('once the values are in, a committing button leads; its result line ends the task', () => {
    const lines = [status, title, line('Choose a room', 16, 100, 160, 24), line('Room 412', 16, 260), line('Selected', 260, 260, 90), line('Save room', 140, 800, 120, 24)];
    const hist = [...start, 'Tapped "Lisbon Old Town". [search 1: tap #a]', 'Chose "412B". [search 2: option 412B #b]'];
    const d = searchStep(input('Put Priya in 412B on the Lisbon stay in Kestrel.', hist, lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Save room');
    expect(d.conclusion).toContain(': commit');
    const after = [status, title, line('Room 412B saved for Priya', 16, 300, 260, 22), line('Done', 160, 800, 80, 24)];
    const end = searchStep(input('Put Priya in 412B on the Lisbon stay in Kestrel.', [...hist, d.conclusion], after), 'Kestrel');
    expect(end.action).toEqual({ action: 'terminate', status: 'success' });
  });

  it('a result-looking line without a committing tap before it does not end the task', () => {
    const lines = [status, title, line('Lisbon Old Town', 16, 120, 150, 22), line('Paid', 300, 120, 50), line('Room details', 16, 300, 140)];
    const d = searchStep(input(request, [...start, 'Tapped "Trips". [search 1: tap #a]'], lines), 'Kestrel');
    expect(d.action.action).not.toBe('terminate');
  });

  it('answers a confirmation with its affirmative button', () => {
    const lines = [status, title, line('Move Priya to room 412?', 40, 380, 300, 22), line('Cancel', 60, 460, 80, 22), line('Move guest', 240, 460, 110, 22)];
    expect(affirmative(lines)?.yes.text).toBe('Move guest');
    const d = searchStep(input(request, [...start, 'Tapped "Save room". [search 3: commit #c]'], lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Move guest');
  });

  it('types into a field whose label names the value, then picks the suggestion that shows it', () => {
    const req = 'Book a stay in Kestrel for 2 guests in Porto on June 9.';
    const form = [status, title, line('Find a stay', 16, 100, 140, 24), line('Destination', 16, 200, 120, 18), line('City or hotel', 16, 226, 140, 20), line('Search stays', 140, 800, 130, 24)];
    const d = searchStep(input(req, [...start], form), 'Kestrel');
    expect(tapped(d, form)).toBe('City or hotel');
    expect(d.conclusion).toMatch(/: field Porto ~\d+ @\d+ #/);
    const typing = searchStep(input(req, [...start, d.conclusion], form), 'Kestrel');
    expect(typing.action).toEqual({ action: 'type', text: 'Porto' });
    const suggestions = [...form, line('Porto', 16, 270, 80, 20), line('Portugal', 16, 292, 80, 16)];
    const pick = searchStep(input(req, [...start, d.conclusion, typing.conclusion], suggestions), 'Kestrel');
    expect(tapped(pick, suggestions)).toBe('Porto');
    // (Not the field itself, which now shows the text typed: the suggestion under it.)
    const shown = [...form.filter((l) => l.text !== 'City or hotel'), line('Porto', 16, 226, 140, 20), line('Porto', 16, 270, 80, 20), line('Portugal', 16, 292, 80, 16)];
    const pick2 = searchStep(input(req, [...start, d.conclusion, typing.conclusion], shown), 'Kestrel');
    expect(pick2.action.action === 'click' && pick2.action.coordinate![1] > 260).toBe(true);
  });

  it('never types into a greeting or a heading in capitals', () => {
    const lines = [status, title, line('Hi Priya', 16, 150, 100, 22), line('Welcome back', 16, 176, 130, 18), line('YOUR STAYS', 16, 240, 120, 16), line('2 upcoming', 16, 262, 120, 18)];
    const d = searchStep(input('Book a stay in Kestrel in Porto on June 9.', [...start], lines), 'Kestrel');
    expect(d.conclusion).not.toContain(': field');
    expect(implausibleField('Tapped the field "Hi Priya" for "£45.00". [goal 3/6: field #12]', 'Pay £45.00 towards my Kestrel bill.', lines, screen)).toBe(true);
    expect(implausibleField('Tapped the field "YOUR STAYS" for "Porto". [goal 3/6: field #12]', 'Book a stay in Porto in Kestrel.', lines, screen)).toBe(true);
  });

  it('does not tap controls that undo or leave unless the request asks for a removal', () => {
    const lines = [status, title, line('Lisbon Old Town', 16, 100, 150, 24), line('Cancel stay', 16, 400, 110, 22), line('Change room', 16, 460, 110, 22)];
    const d = searchStep(input('Move Priya to a room with a view on the Lisbon stay in Kestrel.', [...start, 'Tapped "Lisbon Old Town". [search 1: tap #zz]'], lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Change room');
    const rm = searchStep(input('Cancel the Lisbon stay in Kestrel.', [...start, 'Tapped "Lisbon Old Town". [search 1: tap #zz]'], lines), 'Kestrel');
    expect(tapped(rm, lines)).toBe('Cancel stay');
  });

  it('with nothing relevant in view it scrolls, stops when the page stops moving, goes Back, and reopens the app from the home screen', () => {
    const lines = [status, title, line('Sunny in Porto today', 16, 300, 220, 20), line('Gallery', 16, 400, 100, 20), line('Terms of use', 16, 820, 110, 18)];
    const sig = screenSig(lines, screen);
    const first = searchStep(input(request, [...start, 'Tapped "Trips". [search 1: tap #q]'], lines), 'Kestrel');
    expect(first.action.action).toBe('swipe');
    const again = searchStep(input(request, [...start, 'Tapped "Trips". [search 1: tap #q]', first.conclusion], lines), 'Kestrel');
    expect(first.conclusion).toContain(`#${sig}`);
    expect(again.action).toEqual({ action: 'system_button', button: 'Back' });
    const launcher = [status, ...['Kestrel', 'Camera', 'Weather', 'Music', 'Clock', 'Mail', 'Notes', 'Maps', 'Photos'].map((t, i) => line(t, 20 + (i % 4) * 100, 200 + Math.floor(i / 4) * 110, 70, 16))];
    const back = searchStep(input(request, [...start, first.conclusion, again.conclusion], launcher), 'Kestrel');
    if (back.action.action === 'open') expect(back.action.text).toBe('Kestrel');
  });

  it('decide() hands over to the search after the plan has looked for its target for SEARCH_AFTER steps, and keeps it', () => {
    const lines = [status, title, line('Lisbon Old Town', 16, 330, 150, 22), line('Jun 8 - Jun 11 · Priya', 16, 356, 180, 18), ...tabs];
    const looking = Array.from({ length: SEARCH_AFTER }, (_, i) => `Swiped up to look for "Priya". [goal 2/4: scroll ${i + 1} #s${i}]`);
    const d = decide(input(request, [...start, ...looking], lines));
    expect(searching([d.conclusion])).toBe(true);
    const next = decide(input(request, [...start, ...looking, d.conclusion], lines));
    expect(searching([next.conclusion])).toBe(true);
  });

  it('decide() never searches a guided episode', () => {
    const lines = [status, title, line('Lisbon Old Town', 16, 330, 150, 22), ...tabs];
    const looking = Array.from({ length: SEARCH_AFTER + 2 }, (_, i) => `Swiped up to look for "Priya". [goal 2/4: scroll ${i + 1} #s${i}]`);
    const d = decide({ ...input(request, [...start, ...looking], lines), guidance: ['Open Kestrel', 'Tap Trips'] });
    expect(searching([d.conclusion])).toBe(false);
  });

  it('taps a grid cell by its row number and column letter when the cells carry no text ("12C" on a seat map)', () => {
    const cols = ['A', 'B', 'C', 'D'].map((c, i) => line(c, 60 + i * 70, 200, 14, 16));
    const rows = ['10', '11', '12', '13'].map((r, i) => line(r, 16, 240 + i * 50, 20, 16));
    const lines = [status, title, line('Choose a seat for Priya', 16, 120, 220, 22), ...cols, ...rows, line('Confirm seat', 140, 800, 120, 24)];
    const d = searchStep(input('Put Priya in seat 12C on the Lisbon flight in Kestrel.', [...start, 'Tapped "Seats". [search 1: tap #a]'], lines), 'Kestrel');
    expect(d.action).toEqual({ action: 'click', coordinate: [207, 348] });
    expect(d.conclusion).toContain(': grid 12C');
  });

  it('passes over a near-duplicate that carries another number or code than the request\'s ("ending 4471" for 4417)', () => {
    const lines = [status, title, line('Pay with', 16, 150, 90, 20), line('Visa ending 4471', 16, 200, 170, 20), line('Visa ending 4417', 16, 260, 170, 20), line('Seat 22A', 16, 400, 90, 20)];
    const d = searchStep(input('Pay with the Visa ending 4417 in Kestrel.', [...start, 'Tapped "Billing". [search 1: tap #a]'], lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Visa ending 4417');
  });

  it('with nothing relevant on a tab, opens the app\'s other tabs (nearest in meaning first) instead of leaving the app', () => {
    const bar = [line('Home', 20, 880, 50, 20), line('Gallery', 110, 880, 60, 20), line('Billing', 210, 880, 60, 20), line('Profile', 320, 880, 60, 20)];
    const lines = [status, title, line('Sunny in Porto today', 16, 300, 220, 20), line('Photos of the week', 16, 400, 160, 20), ...bar];
    const d = searchStep(input('Change the direct debit date to the 21st in Kestrel.', [...start, 'Tapped "x". [search 1: tap #q]'], lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Billing');
    expect(d.conclusion).toContain(': tab billing');
    const all = [...start, 'Tapped "x". [search 1: tap #q]', 'Opened the "Billing" tab. [search 2: tab billing #a]', 'Opened the "Gallery" tab. [search 3: tab gallery #b]', 'Opened the "Profile" tab. [search 4: tab profile #c]', 'Opened the "Home" tab. [search 5: tab home #d]'];
    const end = searchStep(input('Change the direct debit date to the 21st in Kestrel.', all, lines), 'Kestrel');
    expect(end.action).toEqual({ action: 'terminate', status: 'failure' });
  });

  it('reads a number that ends a context sentence and a day of the month said alone, and holds the commit until they are in', () => {
    const form = [status, title, line('New reading', 16, 200, 120, 18), line('Enter your meter reading', 16, 226, 220, 20), line('Submit reading', 140, 800, 140, 24)];
    const req = "I've just been out to look at the Gas meter and it says 04867. Can you send that reading to Kestrel for me?";
    const d = searchStep(input(req, [...start, 'Tapped "Gas". [goal 2/2 done]'], form), 'Kestrel');
    expect(d.conclusion).toMatch(/: field 04867 ~\d+ @\d+ #/);
    const days = [status, title, line('Payment day', 16, 150, 120, 18), ...['19', '20', '21', '22'].map((n, i) => line(n, 16, 200 + i * 40, 30, 18)), line('Save changes', 140, 800, 130, 24)];
    const dd = 'Could you move my Direct Debit in Kestrel so it comes out on the 21st instead?';
    const pick = searchStep(input(dd, [...start, 'Chose "Direct Debit". [search 1: option Direct Debit #a]'], days), 'Kestrel');
    expect(tapped(pick, days)).toBe('21');
    const save = searchStep(input(dd, [...start, 'Chose "Direct Debit". [search 1: option Direct Debit #a]', pick.conclusion], days), 'Kestrel');
    expect(tapped(save, days)).toBe('Save changes');
  });

  it('does not type into a field whose tap opened a picker: the value is chosen among its options', () => {
    const form = [status, title, line('Departure date', 16, 200, 140, 18), line('Choose a date', 16, 226, 140, 20), line('Search stays', 140, 800, 130, 24)];
    const req = 'Book a stay in Kestrel on June 19.';
    const d = searchStep(input(req, [...start], form), 'Kestrel');
    expect(d.conclusion).toMatch(/: field June 19 ~\d+ @\d+ #/);
    const picker = [status, title, line('June 2026', 140, 150, 120, 20), ...['June 17', 'June 18', 'June 19', 'June 20', 'June 21'].map((t, i) => line(t, 16, 200 + i * 40, 90, 18)), line('Cancel', 60, 700, 70, 20)];
    const next = searchStep(input(req, [...start, d.conclusion], picker), 'Kestrel');
    expect(tapped(next, picker)).toBe('June 19');
  });

  it('types an amount into an empty money box that has no label line of its own', () => {
    const lines = [status, title, line('How much would you like to pay?', 16, 150, 280, 20), line('Full balance', 60, 200, 120, 20), line('£140.49', 300, 200, 70, 20), line('Another amount', 60, 270, 140, 20), line('Pay part of your balance, or add credit', 60, 294, 250, 16), line('£ 0.00', 40, 345, 60, 20), line('Continue', 170, 600, 80, 22)];
    const d = searchStep(input('Pay £45.00 towards my Kestrel bill.', [...start, 'Tapped "Another amount". [search 1: tap #q]'], lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('£ 0.00');
    expect(d.conclusion).toMatch(/: field £45.00 ~\d+ @\d+ #/);
  });

  it('a box whose placeholder is zeros under a label the request names takes the number ("New reading" over "00000")', () => {
    const lines = [status, title, line('Gas meter', 76, 110, 110, 22), line('Last reading', 16, 180, 110, 18), line('04825 m³', 310, 180, 90, 18), line('New reading', 26, 288, 110, 18), line('00000', 42, 332, 60, 20), line('Enter the 5 numbers on the display, including zeros at', 26, 374, 360, 16), line('Date of reading', 16, 446, 130, 18), line('Today, June 2', 284, 446, 110, 18), line('Submit reading', 136, 538, 140, 22)];
    const req = "I've just been out to look at the Gas meter and it says 04867. Can you send that reading to Kestrel for me?";
    const d = searchStep(input(req, [...start, 'Tapped "Gas". [goal 2/2 done]'], lines), 'Kestrel');
    expect(d.conclusion).toMatch(/: field 04867 ~\d+ @\d+ #/);
    expect(tapped(d, lines)).toBe('00000');
  });

  it('a line that shares only a word of a name is another thing, not a step towards it ("Linden Park Inn" for "The Linden House")', () => {
    const bar = [line('Explore', 20, 880, 60, 20), line('Trips', 170, 880, 50, 20), line('Account', 320, 880, 70, 20)];
    const lines = [status, title, line('Featured stays', 16, 150, 150, 20), line('Linden Park Inn', 16, 435, 150, 20), line('Harbor View Hotel', 16, 520, 170, 20), line('Seaside dining guide', 16, 700, 200, 18), ...bar];
    const d = searchStep(input('Cancel my The Linden House booking on June 12 in Kestrel.', [...start, 'Tapped "x". [search 1: tap #q]'], lines), 'Kestrel');
    expect(tapped(d, lines)).not.toBe('Linden Park Inn');
  });

  it('a running total is no result, an item count after an Add is, and an Add is never tapped twice', () => {
    const sheet = [status, title, line('Zone 4102', 16, 150, 100, 20), line('Paid so far', 16, 300, 100, 18), line('£3.40', 330, 300, 50, 18), line('Extend by', 16, 400, 90, 18)];
    const afterExtend = searchStep(input('Add 15 minutes to my parking in zone 4102 in Kestrel.', [...start, 'Tapped "Extend time". [search 3: commit #a]'], sheet), 'Kestrel');
    expect(afterExtend.action.action).not.toBe('terminate');
    const menu = [status, title, line('Mango Lassi', 16, 290, 110, 20), line('Add', 340, 290, 40, 20), line('View cart · 1 item', 110, 875, 180, 20)];
    const req = 'Put 1 Mango Lassi from Curry House in my Kestrel cart, but do not order yet.';
    const done = searchStep(input(req, [...start, 'Tapped "Curry House". [search 1: tap #a]', 'Tapped "Add". [search 2: commit #b]'], menu), 'Kestrel');
    expect(done.action).toEqual({ action: 'terminate', status: 'success' });
    const again = searchStep(input(req, [...start, 'Tapped "Curry House". [search 1: tap #a]', 'Tapped "Add". [search 2: commit #b]', 'Tapped "Mango Lassi". [search 3: tap #c]'], menu.slice(0, 4)), 'Kestrel');
    expect(tapped(again, menu)).not.toBe('Add');
  });
});

describe('policy search: values read whole, pages read for what they are about', () => {
  it('reads a weekday with its date, a time without the sentence\'s full stop and a plate as one value each', () => {
    const vals = tidyValues('Check in for the stay on Friday, June 6: arriving 9:00 PM, plate BGN 4471 please.', formValues('Check in for the stay on Friday, June 6: arriving 9:00 PM, plate BGN 4471 please.'));
    const said = vals.map((v) => v.value);
    expect(said).toContain('Friday, June 6');
    expect(said).not.toContain('Friday');
    expect(said).toContain('BGN 4471');
    expect(said).not.toContain('4471');
    expect(vals.find((v) => v.kind === 'time')?.input).toBe('9:00 PM');
  });

  it('on a stay opened from its dates, taps the action the request names, not the dates or the hotel heading the page', () => {
    const req = 'Do the online check-in in Kestrel for my Bayside Inn stay on Friday, June 6: arriving around 9:00 PM, plate WLX 209.';
    const lines = [status, line('Your booking', 60, 44, 140, 24), line('Bayside Inn', 100, 123, 150, 21), line('Fri, Jun 6 - Sun, Jun 8 · 2 nights', 100, 151, 230, 17), line('Check in online', 136, 225, 142, 20), line('Check-in', 15, 431, 69, 18), line('Friday, June 6, from 3:00 PM', 166, 430, 232, 21), line('Cancel booking', 139, 758, 135, 22), ...tabs];
    const hist = ['Opened the Kestrel app. [goal 1/4 done]', 'Chose "Fri, Jun 6 - Sun, Jun 8". [search 1: option Friday, June 6 #a1]'];
    const d = searchStep(input(req, hist, lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Check in online');
  });

  it('commits a form once its values are in: a filled field\'s label, an informing sentence and a date the page shows are done with', () => {
    const req = 'Do the online check-in in Kestrel for my Bayside Inn stay on Tuesday, June 3: arriving around 8:00 PM, car licence plate KZE 7812.';
    const lines = [status, line('Online check-in', 67, 46, 155, 21), line('Bayside Inn', 31, 120, 134, 20), line('Tue, Jun 3 - Thu, Jun 5 · King', 30, 147, 291, 21), line('Estimated arrival time', 25, 276, 168, 17), line('8:00 PM', 40, 319, 71, 17), line('Check-in is from 3:00 PM.', 25, 360, 173, 17), line('Car licence plate (optional)', 26, 419, 204, 17), line('KZE 7812', 41, 462, 82, 18), line('Complete check-in', 122, 714, 169, 20)];
    const hist = ['Opened the Kestrel app. [goal 1/4 done]', 'Chose "Bayside Inn". [search 1: option Bayside Inn #a]', 'Tapped "Check in online". [search 2: tap #b]', 'Tapped the field "Car licence plate (optional)" for "KZE 7812". [search 3: field KZE 7812 ~16 @471 #c]', 'Typed "KZE 7812" into the field. [search 4: typed KZE 7812 #c]', 'Tapped the field "Estimated arrival time" for "8:00 PM". [search 5: field 8:00 PM ~16 @329 #d]', 'Chose "8:00 PM". [search 6: option 8:00 PM #e]'];
    const d = searchStep(input(req, hist, lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Complete check-in');
    expect(d.conclusion).toContain(': commit');
  });

  it('a question heading the page or a line that says something is no field; a bare number is no count without its noun', () => {
    const req = 'Book a Garden Twin at Bayside Inn in Kestrel for 3 nights.';
    const lines = [status, title, line('Where to next, Maya?', 17, 106, 244, 21), line('You have 14,300 reward points', 17, 134, 220, 17), line('3', 380, 300, 12, 16), line('Offers', 16, 400, 100, 20), ...tabs];
    const d = searchStep(input(req, ['Opened the Kestrel app. [goal 1/4 done]'], lines), 'Kestrel');
    expect(d.conclusion).not.toContain('Tapped the field');
    expect(tapped(d, lines)).not.toBe('3');
  });

  it('sets a count with the stepper on the row that says what it counts, and chooses the day under the calendar\'s month', () => {
    const req = 'Book a Garden Twin at Bayside Inn in Kestrel for 3 nights, checking in on Friday, June 13.';
    const glyph = (text: '+' | '−', x: number, y: number) => ({ text, box: { x, y, w: 20, h: 20 }, confidence: 1 });
    const stepper = { minus: glyph('−', 300, 300), plus: glyph('+', 370, 300), value: 1, gap: { x: 324, y: 294, w: 42, h: 32 } };
    const lines = [status, line('Garden Twin', 16, 100, 150, 24), line('Nights', 16, 300, 80, 20), line('1', 340, 300, 10, 18), line('June 2025', 140, 400, 120, 22), line('12', 200, 480, 20, 18), line('13', 250, 480, 20, 18), line('Continue', 150, 820, 110, 24)];
    const hist = ['Opened the Kestrel app. [goal 1/4 done]', 'Chose "Bayside Inn". [search 1: option Bayside Inn #a]', 'Tapped "Garden Twin". [search 2: tap #b]'];
    const d = searchStep({ ...input(req, hist, lines), steppers: [stepper] }, 'Kestrel');
    expect(d.action).toEqual({ action: 'click', coordinate: [380, 310] });
    expect(d.conclusion).toContain(': stepper 3 nights');
    const done = searchStep({ ...input(req, [...hist, d.conclusion], lines), steppers: [{ ...stepper, value: 3 }] }, 'Kestrel');
    expect(done.conclusion).toContain('13');
    expect(tapped(done, lines)).toBe('13');
  });
});

describe('policy: the plan hands over at once when it would look for a label it made up', () => {
  it('tells a composed target ("Do check", "Reserve through", "Now stay") from a label or a name the request says', () => {
    expect(guessedTarget('Opened the "Account" tab to look for "Do check". [goal 2/9: tab Account]', 'Do the online check-in for my stay.')).toBe(true);
    expect(guessedTarget('Opened the "Account" tab to look for "Reserve through". [goal 2/9: tab Account]', 'Could you reserve the room for me through Kestrel?')).toBe(true);
    expect(guessedTarget('Opened the "Account" tab to look for "Now stay". [goal 2/7: tab Account]', "Now that I'm home I'd like to rate my stay.")).toBe(true);
    expect(guessedTarget('Opened the "Account" tab to look for "Bayside Inn". [goal 2/7: tab Account]', 'Cancel my Bayside Inn booking.')).toBe(false);
    expect(guessedTarget('Opened the "More" tab to look for "Change plan". [goal 2/5: tab More]', 'Change my plan to Gold.')).toBe(false);
  });
});

describe('policy search: rows, dialogs and removals', () => {
  const hist = ['Opened the Kestrel app. [goal 1/4 done]', 'Chose "Bayside Inn". [search 1: option Bayside Inn #a]'];

  it('taps a list row\'s own button ("Select") rather than its title, and reads a statistic\'s label as no control', () => {
    const req = 'Book a Garden Twin at Bayside Inn in Kestrel for 3 nights.';
    const lines = [status, title, line('Bayside Inn', 100, 120, 150, 22), line('CHOOSE YOUR ROOM', 16, 430, 170, 14), line('Standard King', 15, 493, 125, 22), line('$195 /night', 316, 498, 84, 23), line('Garden view', 15, 537, 88, 17), line('Select', 328, 535, 53, 22), line('Garden Twin', 15, 599, 123, 20), line('$211 /night', 316, 602, 84, 23), line('2 twin beds · Sleeps 2', 14, 620, 237, 21), line('Garden view', 15, 641, 88, 17), line('Select', 328, 640, 53, 21), ...tabs];
    const d = searchStep(input(req, hist, lines), 'Kestrel');
    expect(d.action).toMatchObject({ action: 'click' });
    const [, y] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(y).toBeGreaterThanOrEqual(640);
    expect(d.conclusion).toMatch(/"Select"/);
    const account = [status, title, line('Account', 15, 100, 88, 22), line('Nights this year', 15, 267, 140, 21), line('13', 12, 291, 24, 20), line('Garden rooms', 15, 500, 140, 20), ...tabs];
    const a = searchStep(input(req, hist, account), 'Kestrel');
    expect(tapped(a, account)).not.toBe('Nights this year');
  });

  it('a removal request never commits a booking; a dialog whose no keeps the thing is answered, then its required answer chosen', () => {
    const req = 'Cancel my Bayside Inn booking that starts on Thursday, June 12 in Kestrel.';
    const booking = [status, line('Choose your dates', 67, 47, 188, 22), line('Bayside Inn', 17, 101, 113, 20), line('Confirm booking', 130, 820, 150, 24)];
    const d = searchStep(input(req, [...hist, 'Chose "12". [search 2: option Thursday, June 12 #b]'], booking), 'Kestrel');
    expect(tapped(d, booking)).not.toBe('Confirm booking');
    const dialog = [status, line('Cancel this booking?', 64, 231, 211, 23), line('Your 2 nights at Bayside Inn will be cancelled.', 62, 262, 300, 21), line('Why are you cancelling?', 61, 348, 190, 21), line('Change of plans', 102, 385, 135, 20), line('Found a better price', 103, 436, 164, 19), line('Keep booking', 87, 665, 116, 21), line('Yes, cancel', 240, 665, 95, 22)];
    const yes = searchStep(input(req, [...hist, 'Tapped "Cancel booking". [search 2: commit #b]'], dialog), 'Kestrel');
    expect(tapped(yes, dialog)).toBe('Yes, cancel');
    const answer = searchStep(input(req, [...hist, 'Tapped "Cancel booking". [search 2: commit #b]', yes.conclusion], dialog), 'Kestrel');
    expect(tapped(answer, dialog)).toBe('Change of plans');
    expect(answer.conclusion).toContain(': answer');
    const again = searchStep(input(req, [...hist, 'Tapped "Cancel booking". [search 2: commit #b]', yes.conclusion, answer.conclusion], dialog), 'Kestrel');
    expect(tapped(again, dialog)).toBe('Yes, cancel');
  });

  it('tries a page\'s other segment ("Past") before scrolling or another tab', () => {
    const req = 'Rate my visit to Bayside Inn in Kestrel: 4 stars.';
    const lines = [status, line('Trips', 13, 45, 56, 25), line('Upcoming (7)', 51, 111, 111, 21), line('Past', 284, 110, 43, 23), line('Porto Riverside', 83, 166, 150, 20), line('Courtyard King · 2 nights', 83, 190, 170, 17), ...tabs];
    expect(segmentRow(lines, screen).map((l) => l.text)).toEqual(['Upcoming (7)', 'Past']);
    const d = searchStep(input(req, ['Opened the Kestrel app. [goal 1/4 done]', 'Opened the "Trips" tab. [search 1: tab trips #a]'], lines), 'Kestrel');
    expect(tapped(d, lines)).toBe('Past');
  });

  it('never commits with a bookmark\'s toggle ("☆ Save stay") unless the request asks to keep something', () => {
    const req = 'Reserve the Harbor Loft at Kestrel for Friday, June 6.';
    const page = [status, line('Harbor Loft', 100, 45, 120, 24), line('Friday, June 6', 16, 160, 140, 20), line('☆ Save stay', 140, 420, 130, 22), line('Sea view · 2 guests', 16, 470, 180, 18)];
    const hist = ['Opened the Kestrel app. [goal 1/4 done]', 'Chose "Friday, June 6". [search 1: option Friday, June 6 #a]'];
    const d = searchStep(input(req, hist, page), 'Kestrel');
    expect(tapped(d, page)).not.toBe('☆ Save stay');
    const keep = searchStep(input('Save the Harbor Loft at Kestrel to my favourites.', hist, page), 'Kestrel');
    expect(tapped(keep, page)).toBe('☆ Save stay');
  });

  it('does not withdraw or unsubscribe anything for a request that asks for no removal', () => {
    const req = 'Reserve the Harbor Loft at Kestrel for Friday, June 6.';
    const page = [status, line('My stays', 16, 45, 120, 24), line('Harbor Loft', 16, 160, 120, 20), line('Withdraw request', 120, 700, 170, 22), line('Unsubscribe from offers', 100, 760, 200, 22)];
    const d = searchStep(input(req, ['Opened the Kestrel app. [goal 1/4 done]', 'Tapped "Harbor Loft". [search 1: tap #a]'], page), 'Kestrel');
    expect(['Withdraw request', 'Unsubscribe from offers']).not.toContain(tapped(d, page));
  });
});

describe('a confirmation dialog over a page', () => {
  it('answers with the dialog\'s own button, never a fragment of the page behind it at the screen\'s edge', () => {
    const dialog = [status, line('Leave the waitlist?', 63, 233, 200, 20), line('Se', 15, 670, 24, 17), line('Keep my spot', 79, 666, 110, 20), line('Leave', 256, 666, 60, 18)];
    expect(affirmative(dialog)?.yes.text).toBe('Leave');
  });
});
