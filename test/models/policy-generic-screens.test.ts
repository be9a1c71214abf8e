import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instructionEntities } from '../../models/reference/roles/intent.js';
import { foldStatement, mergeDetails, settingPairs, understandSettings } from '../../models/reference/roles/policy-act.js';
import { launcherApps } from '../../models/reference/roles/policy-explore.js';
import { formFields, formValues, assignFields } from '../../models/reference/roles/policy-form.js';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import type { SwitchBox } from '../../models/reference/roles/policy-vision.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Generic mechanisms for apps the policy was not written for (issue 17, written after the Transit app's first contact):
 * names that carry numbers, a switch named by its own words on a thing's page, a tab row walked before giving up, an
 * app's automatic feature, a form whose label is a question. Every screen here is invented — no built-in app's names,
 * labels or data.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const step = (instruction: string, history: string[], lines: OcrLine[], switches: SwitchBox[] = []) =>
  decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1), switches });
const title = (t: string): OcrLine[] => [line('9:41', 10, 6, 40, 16), line(t, 20, 44, 160, 24)];
const tabs = (labels: string[], y = 100): OcrLine[] => labels.map((l, i) => line(l, 20 + i * 100, y, 60, 20));

describe('names that carry numbers', () => {
  it('a number joined by a hyphen is a word of the name; a number after a name names, a date does not', () => {
    expect(instructionEntities('Buy me a 10-Ride Card.')).toContain('10-Ride Card');
    expect(instructionEntities('Turn off delay alerts for Ferry 9.')).toContain('Ferry 9');
    expect(instructionEntities('Book a seat on Shuttle 4 Express tomorrow')).toContain('Shuttle 4 Express');
    expect(instructionEntities('Add Lunch with Kim on June 25 at 12:30')).toEqual(expect.arrayContaining(['June', '25']));
    // Quantities stay numbers.
    expect(instructionEntities('Order 2 Classic Burger')).toEqual(expect.arrayContaining(['2', 'Classic Burger']));
    expect(planTask('Buy me a 10-Ride Card.', []).goals.map((g) => g.text)).toContain('open 10-Ride Card');
  });
});

describe('a switch named by its own words, on the page of the thing it belongs to', () => {
  const req = 'Turn off delay alerts for Harbor Ferry in the Ferries app.';
  const list = [...title('Ferries'), line('Delay report · updated 9:40', 20, 150, 260), line('Harbor Ferry', 20, 260), line('On time', 300, 262, 80), line('Island Ferry', 20, 330)];
  const detail = [...title('Harbor Ferry'), line('Harbor Ferry', 20, 130), line('Delay alerts', 20, 300, 120), line('Weekly digest', 20, 380, 130)];
  const sw = (y: number, on: boolean): SwitchBox => ({ x: 340, y, w: 50, h: 30, on });

  it('plans the switch with its label words', () => {
    expect(planTask(req, []).goals[1]).toMatchObject({ kind: 'toggle', target: 'Harbor Ferry', on: false, label: ['delay', 'alert'] });
  });

  it('opens the thing from its row, not a line that merely shares a word ("Delay report"), then taps the switch its words name', () => {
    const open = step(req, ['Opened the Ferries app. [goal 1/2 done]'], list);
    expect(open.conclusion).toMatch(/^Opened "Harbor Ferry" to find its switch\. \[goal 2\/2: opened item\]/);
    const flip = step(req, ['Opened the Ferries app. [goal 1/2 done]', open.conclusion], detail, [sw(296, true), sw(376, false)]);
    expect(flip.action).toEqual({ action: 'click', coordinate: [365, 311] });
    expect(flip.conclusion).toMatch(/"Delay alerts" switch of "Harbor Ferry"/);
  });

  it('a switch already as asked on the thing\'s page is left alone and the task ends', () => {
    const d = step(req, ['Opened the Ferries app. [goal 1/2 done]', 'Opened "Harbor Ferry" to find its switch. [goal 2/2: opened item]'], detail, [sw(296, false), sw(376, true)]);
    expect(d.action).toEqual({ action: 'terminate', status: 'success' });
  });
});

describe("a thing's switch on its own page, the request naming no switch", () => {
  const req = 'Turn on the Reading Nook in the Glowly app.';
  const list = [...title('Glowly'), line('Reading Nook', 20, 260), line('2 lights', 20, 284, 80), line('Reading Corner', 20, 330)];
  const detail = [...title('Reading Nook'), line('Brightness 70%', 20, 300), line('Enabled', 20, 400, 90)];
  const hist = ['Opened the Glowly app. [goal 1/2 done]'];

  it('opens the thing from a list that shows no switch, then taps its page\'s only switch', () => {
    const open = step(req, hist, list);
    expect(open.conclusion).toMatch(/^Opened "Reading Nook" to find its switch/);
    const flip = step(req, [...hist, open.conclusion], detail, [{ x: 340, y: 392, w: 50, h: 30, on: false }]);
    expect(flip.action).toEqual({ action: 'click', coordinate: [365, 407] });
    const done = step(req, [...hist, open.conclusion], detail, [{ x: 340, y: 392, w: 50, h: 30, on: true }]);
    expect(done.action).toEqual({ action: 'terminate', status: 'success' });
  });
});

describe('the tab walk', () => {
  // (The plan's own tab walk: the search that takes over after SEARCH_AFTER looking steps is off here.)
  beforeAll(() => {
    process.env.TRAJFORGE_POLICY_SEARCH = 'off';
  });
  afterAll(() => {
    delete process.env.TRAJFORGE_POLICY_SEARCH;
  });
  const req = 'Renew the Evening Permit in the Parkly app.';
  const hist = ['Opened the Parkly app. [goal 1/5 done]'];
  const first = [...title('Parkly'), ...tabs(['Home', 'Permits', 'Wallet', 'More']), line('Nearby lots', 20, 200), line('Lot A', 20, 260), line('Lot B', 20, 320), line('Lot C', 20, 800)];

  it('opens at once a tab that shares a word with the request', () => {
    const d = step(req, hist, first);
    expect(d.conclusion).toMatch(/Opened the "Permits" tab/);
  });

  it('with no tab fitting: scrolls the first tab (noting the tab row), scrolls back up to the row once it scrolled away, then opens the next tab', () => {
    const req2 = 'Renew the Evening Badge in the Parkly app.';
    const s1 = step(req2, hist, first);
    expect(s1.action.action).toBe('swipe');
    expect(s1.conclusion).toMatch(/\(tabs: Home\|Permits\|Wallet\|More\)/);
    const scrolled = [...title('Parkly'), line('Lot D', 20, 200), line('Lot E', 20, 700), line('Lot F', 20, 820)];
    const s2 = step(req2, [...hist, s1.conclusion], scrolled);
    expect(s2.action.action).toBe('swipe');
    const s3 = step(req2, [...hist, s1.conclusion, s2.conclusion], scrolled);
    expect(s3.conclusion).toMatch(/Swiped down to the tab row/);
    const s4 = step(req2, [...hist, s1.conclusion, s2.conclusion, s3.conclusion], first);
    // Never the first tab again (the app opened on it); "Home" was looked through.
    expect(s4.conclusion).toMatch(/Opened the "(Permits|Wallet|More)" tab/);
  });
});

describe("an app's automatic feature with its amount", () => {
  it('reads "<verb> … automatically with $V" and "Turn on auto-<verb> … with $V" as a switch found by its words plus its amount', () => {
    for (const req of ['Pay my water bill automatically with $45 when it is due.', 'Turn on autopay for my water bill with $45.']) {
      const goals = planTask(req, []).goals;
      expect(goals.map((g) => g.kind)).toEqual(['open', 'toggle', 'fill', 'tap']);
      expect(goals[1]).toMatchObject({ kind: 'toggle', on: true, byLabel: true });
      expect(goals[2]).toMatchObject({ kind: 'fill', value: '$45' });
    }
  });

  it('taps the switch whose row names the feature ("Autopay"), wherever the screen shows it', () => {
    const req = 'Pay my water bill automatically with $45 when it is due.';
    const lines = [...title('Billing'), line('Autopay', 20, 300, 90), line('Pays your bill on its due date', 20, 324, 260), line('Paperless statements', 20, 420, 200)];
    const d = step(req, ['Opened the Utility app. [goal 1/4 done]'], lines, [{ x: 340, y: 300, w: 50, h: 30, on: false }, { x: 340, y: 412, w: 50, h: 30, on: false }]);
    expect(d.action).toEqual({ action: 'click', coordinate: [365, 315] });
  });
});

describe('forms whose labels are questions', () => {
  const form = [
    ...title('Report a problem'),
    line('Where did it happen?', 20, 160, 200),
    line('Choose a station', 30, 200, 200),
    line('What is broken?', 20, 290, 180),
    line('Choose a type of fault', 30, 330, 220),
    line('Details', 20, 420, 80),
    line('Anything that helps us find it', 30, 460, 260),
    line('Send report', 140, 660, 120),
  ];

  it('a question label heads a field; a dialog question does not', () => {
    expect(formFields(form, screen).map((f) => f.label.text)).toEqual(['Where did it happen?', 'What is broken?', 'Details']);
    const dialog = [...title('Card'), line('Freeze this card?', 40, 400, 200), line('Freeze', 40, 440, 80)];
    expect(formFields(dialog, screen)).toEqual([]);
  });

  it('a dictated text goes to the text field, not to a picker; a text after a closing colon is a value', () => {
    const values = formValues('Report a fault at North Gate: the ticket machine screen is cracked');
    expect(values.map((v) => [v.value, v.kind])).toEqual([
      ['the ticket machine screen is cracked', 'text'],
      ['North Gate', 'name'],
    ]);
    const assigned = assignFields(values, formFields(form, screen));
    expect(assigned.get(0)?.label.text).toBe('Details');
  });
});

describe('launcher labels', () => {
  it("an icon's glyph drawn above its label is no app", () => {
    const home = [line('9:41', 180, 94, 60, 40), line('Qz', 130, 484, 40, 28), line('Quizzo', 125, 538, 60, 18), line('Notes', 225, 538, 50, 18), line('Maps', 325, 538, 50, 18)];
    const apps = launcherApps(home, screen, 'Start a quiz');
    expect(apps).not.toContain('Qz');
    expect(apps).toEqual(expect.arrayContaining(['Quizzo', 'Notes', 'Maps']));
  });
});

describe('things of an app are not phone settings', () => {
  it('a switch of a named thing goes to the app that has it, never Settings by a word inside the name ("String")', () => {
    expect(planTask('Turn off the Patio Heater.', []).goals[0]).toMatchObject({ kind: 'open', target: undefined, explore: expect.anything() });
    expect(planTask('Switch the Garden String Lights on in Glowly.', []).goals[0]).toMatchObject({ kind: 'open', target: 'Glowly' });
    // Phone settings keep their reader.
    expect(planTask('Turn Wi-Fi Off', []).goals[0]).toMatchObject({ kind: 'open', target: 'Settings' });
    expect(planTask('Turn Do not disturb On.', []).goals[0]).toMatchObject({ kind: 'open', target: 'Settings' });
    expect(planTask('Set the Screen timeout to 2 minutes.', []).goals[0]).toMatchObject({ kind: 'open', target: 'Settings' });
  });

  it('a setting "in X" of an app is that app\'s preference, its field picked by its words', () => {
    const goals = planTask('Set auto-dim in Glowly to 10 minutes.', []).goals;
    expect(goals[0]).toMatchObject({ kind: 'open', target: 'Glowly' });
    expect(goals.find((g) => g.kind === 'fill')).toMatchObject({ value: '10 minutes', hints: ['auto-dim'] });
  });
});

describe('a confirmation still asked is no result', () => {
  it('does not take an earlier "…ed by" line for the result while the dialog asks', () => {
    const req = 'Unlock the Shed Door in the Keyper app.';
    const hist = ['Opened the Keyper app. [goal 1/5 done]', 'Tapped "Shed Door". [goal 3/5 done]', 'Tapped "Unlock". [goal 4/5 done]'];
    const dialog = [...title('Shed Door'), line('Last unlocked by Sam', 20, 200, 200), line('Unlock Shed Door?', 40, 420, 220), line('Cancel', 60, 500, 70), line('Unlock', 260, 500, 70)];
    const d = step(req, hist, dialog);
    expect(d.conclusion).toMatch(/^Tapped "Unlock"/);
    expect(d.action.action).toBe('click');
  });
});

describe('the button that opens a form for a new thing', () => {
  it('names the head noun of the thing ("a parking pass" → "Add pass", "New pass")', () => {
    const tap = planTask('Give the Plumber a parking pass 4417 for the North Lot.', []).goals.find((g) => g.kind === 'tap' && g.form);
    expect(tap).toMatchObject({ targets: expect.arrayContaining(['Add pass', 'New pass']) });
  });
});

describe('reference policy: two pickers in one row, and a search typed but not yet submitted', () => {
  it('a value under the next label of the row is not this label\'s stepper value ("Start 9 | End 00")', () => {
    const lines = [line('New booking', 66, 45, 120, 23), line('Start', 95, 142, 40, 19), line('End', 274, 141, 40, 21), line('9', 102, 161, 22, 25), line('00', 281, 162, 36, 24), line('Save', 154, 653, 105, 21)];
    const d = decide({ instruction: 'Set the start to 10', guidance: [], history: [], lines, screen, temperature: 0, random: mulberry32(1) });
    // No "+" to tap beside "Start" (the "00" belongs to "End"): the label's own control is opened instead.
    expect(d.conclusion).not.toMatch(/Tapped \+ on/);
  });

  it('submits a typed search even though the field no longer shows its placeholder: with the bar\'s own "Search" button, else Enter', () => {
    const withButton = [line('Catalog', 36, 98, 67, 23), line('Harbor Lights', 27, 163, 157, 21), line('Search', 329, 164, 57, 18), line('Circe', 15, 264, 45, 18), line('Available', 324, 275, 66, 18)];
    const instruction = 'Borrow Harbor Lights.';
    const goals = planTask(instruction, []).goals;
    const search = goals.findIndex((g) => g.kind === 'type' && g.submit);
    expect(search).toBeGreaterThan(0);
    const n = goals.length;
    const history = [...Array.from({ length: search }, (_, i) => `done. [goal ${i + 1}/${n} done]`), `Tapped the search field. [goal ${search + 1}/${n}: focused]`, `Typed "Harbor Lights" into the search field. [goal ${search + 1}/${n}: typed]`];
    const d = decide({ instruction, guidance: [], history, lines: withButton, screen, temperature: 0, random: mulberry32(1) });
    expect(d.action.action).toBe('click');
    const [x, y] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(x).toBeGreaterThanOrEqual(329);
    expect(Math.abs(y - 173)).toBeLessThan(10);
    const without = withButton.filter((l) => l.text !== 'Search');
    const e = decide({ instruction, guidance: [], history, lines: without, screen, temperature: 0, random: mulberry32(1) });
    expect(e.action).toEqual({ action: 'system_button', button: 'Enter' });
  });

  it('finds a search bar by the "Search" button at its right end when its placeholder only says what it finds', () => {
    const lines = [line('Openings', 36, 98, 90, 23), line('Role or employer', 31, 163, 150, 20), line('Search', 326, 162, 59, 21), line('Nearby', 27, 220, 60, 20), line('Weekly picks', 15, 300, 110, 18)];
    const instruction = 'Borrow Harbor Lights.';
    const goals = planTask(instruction, []).goals;
    const search = goals.findIndex((g) => g.kind === 'type' && g.submit);
    const n = goals.length;
    const history = Array.from({ length: search }, (_, i) => `done. [goal ${i + 1}/${n} done]`);
    const d = decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });
    expect(d.conclusion).toMatch(/Tapped the search field "Role or employer"/);
  });
});

describe('the way to an action\'s button through a flow (written after ParkSpot and PulseFit; invented screens)', () => {
  const req = 'Rent a kayak at Dock 7 for 2 hours with the Blue Tandem.';
  const opened = ['Opened the Paddle app. [goal 1/7 done]', 'Tapped "Dock 7". [goal 3/7 done]'];
  const dock = [
    ...title('Dock 7'),
    line('KAYAK', 20, 200, 80),
    line('Blue Tandem', 20, 240, 120),
    line('Change', 330, 240, 60),
    line('1 hour', 20, 340, 70),
    line('2 hours', 120, 340, 80),
    line('Continue', 160, 600, 90),
  ];
  const review = [...title('Review'), line('Dock', 20, 120, 60), line('7', 360, 120, 20), line('Kayak', 20, 170, 60), line('$20.00', 320, 170, 70), line('Start kayak trip', 150, 600, 110)];

  it('plans the values and the words a final button may carry', () => {
    expect(planTask(req, []).goals[3]).toMatchObject({ kind: 'tap', words: ['rent'], values: ['Blue Tandem', '2 hours'], after: ['kayak'] });
  });

  it('keeps a value already chosen (beside "Change"), chooses the offered one, then a forward button, then the final button', () => {
    const first = step(req, opened, dock);
    expect(first.action).toEqual({ action: 'click', coordinate: [160, 350] });
    expect(first.conclusion).toMatch(/\[kept Blue Tandem\].*Chose "2 hours"\. \[goal 4\/7: pick 2 hours\]/);
    const second = step(req, [...opened, first.conclusion], dock);
    expect(second.conclusion).toMatch(/Tapped "Continue"\. \[goal 4\/7: forward 1\]/);
    // No "Rent" button on the last page: the two-word button with the request's word, not the "Kayak" price line.
    const third = step(req, [...opened, first.conclusion, second.conclusion], review);
    expect(third.action).toEqual({ action: 'click', coordinate: [205, 610] });
    expect(third.conclusion).toMatch(/Tapped "Start kayak trip"\. \[goal 4\/7 done\]/);
  });

  it('in the picker "Change" opened (a question over the choices, with Cancel), taps the value it opened it for', () => {
    const req3 = 'Rent a kayak at Dock 7 for 2 hours with the Red Single.';
    const h = [...opened, 'Chose "2 hours". [goal 4/7: pick 2 hours]', 'Opened "Change". [goal 4/7: pick change]'];
    const sheet = [
      ...title('Dock 7'),
      line('Which boat?', 60, 240, 140),
      line('Blue Tandem', 100, 290, 120),
      line('Red Single', 100, 350, 110),
      line('Green Double', 100, 410, 120),
      line('Cancel', 280, 480, 60),
    ];
    const d = step(req3, h, sheet);
    expect(d.action).toEqual({ action: 'click', coordinate: [155, 360] });
    expect(d.conclusion).toMatch(/Chose "Red Single"\. \[goal 4\/7: pick Red Single\]/);
    // A confirmation that lists none of the values is still no picker: the value step does not answer it.
    const ask = [...title('Dock 7'), line('Discard this rental?', 60, 240, 180), line('Discard', 100, 300, 80), line('Cancel', 280, 300, 60)];
    expect(step(req3, h, ask).conclusion).not.toMatch(/Chose/);
  });

  it('a statement of what the speaker did, then a request with no names, is the request about what it names', () => {
    expect(foldStatement('I just moored the Blue Tandem at Dock 7. Start a 2 hour session.')).toBe('Start a 2 hour mooring session at Dock 7 for the Blue Tandem.');
    // (A request with names of its own, or no statement, is left as it is.)
    expect(foldStatement('I just moored at Dock 7. Rent the Red Single.')).toBeUndefined();
    expect(foldStatement('Rent a kayak at Dock 7.')).toBeUndefined();
    // "Start a …" is a thing to start, never an app called "2 hour session".
    expect(planTask('I just moored the Blue Tandem at Dock 7, start a 2 hour session.', []).goals[0]).toMatchObject({ kind: 'open', explore: { names: ['Dock 7', 'Blue Tandem'] } });
  });

  it('goes back out of the flow when its last page has no such button, instead of scrolling it', () => {
    const bare = [...title('Review'), line('Dock', 20, 120, 60), line('Pay with', 20, 400, 90), line('Done', 170, 600, 60)];
    const h = [...opened, 'Chose "2 hours". [goal 4/7: pick 2 hours]', 'Tapped "Continue". [goal 4/7: forward 1]'];
    const d = step('Rent a kayak at Dock 7 for 2 hours.', h, bare);
    expect(d.action).toEqual({ action: 'system_button', button: 'Back' });
  });

  it('on another tab that lists the thing too, opens it there to look for the button', () => {
    const req2 = 'Extend my rental at Dock 7 by 1 hour.';
    const h = [...opened, 'Pressed Back after not finding "Extend". [goal 4/7: back 1]', 'Opened the "Rentals" tab to look for "Extend". [goal 4/7: tab Rentals]'];
    const rentals = [...title('Rentals'), line('ACTIVE NOW', 20, 110, 100), line('Dock 7', 20, 150, 80), line('Dock 17', 20, 330, 90)];
    const d = step(req2, h, rentals);
    expect(d.conclusion).toMatch(/Opened "Dock 7" from the "Rentals" tab\./);
    expect(d.action).toEqual({ action: 'click', coordinate: [60, 160] });
  });
});

describe('a day and a name', () => {
  it('a weekday is a date of its own, never a word of the name beside it; a number before a kind noun names', () => {
    expect(instructionEntities('Reserve a spot in the Monday Sunrise Stretch class.')).toEqual(expect.arrayContaining(['Monday', 'Sunrise Stretch']));
    expect(instructionEntities('Cancel my Row 30 class on Friday.')).toEqual(expect.arrayContaining(['Row 30', 'Friday']));
    const goals = planTask('Reserve a spot in the Monday Sunrise Stretch class.', []).goals;
    // The day is chosen first (a schedule's day strip says "Mon"), the thing is the name, not the day.
    expect(goals[1]).toMatchObject({ kind: 'tap', targets: ['Monday', 'Mon'], optional: true });
    expect(goals.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ targets: ['Sunrise Stretch'] });
  });
});

describe('a report that the thing left the app', () => {
  it('ends the task at once instead of scrolling the list for what was sent (which is not listed there)', () => {
    const req = 'Send a note to Ravi Das titled Lunch plans.';
    const plan = planTask(req, []);
    // (It typed the title: without the report, the outcome reader would scroll to find "Lunch plans" listed.)
    const done = plan.goals.map((_, i) => `${i === 1 ? 'Typed "Lunch plans" into the field.' : `Did step ${i + 1}.`} [goal ${i + 1}/${plan.goals.length} done]`);
    const inbox = [...title('Inbox'), line('Ravi Das', 20, 140), line('Weekly digest', 20, 220, 140), line('Message sent', 20, 760, 140)];
    const d = step(req, done, inbox);
    expect(d.action).toEqual({ action: 'terminate', status: 'success' });
    expect(d.conclusion).toMatch(/Message sent/);
  });
});

describe('a sheet of options in front of the button that opened it', () => {
  it('confirms with the sheet\'s own button that echoes the choice, never the button behind the sheet', () => {
    const req = 'Extend my rental at Dock 7 by 1 hour.';
    const h = ['Opened the Paddle app. [goal 1/6 done]', 'Tapped "Dock 7". [goal 3/6 done]', 'Tapped "Extend time". [goal 4/6 done]', 'Chose "1 hour". [goal 5/6 done]'];
    const sheet = [
      ...title('Dock 7'),
      line('Extend time', 150, 500, 110),
      line('Add time to Dock 7', 20, 580, 180),
      line('30 minutes', 50, 640, 110),
      line('1 hour', 50, 690, 70),
      line('Pay and extend by 1 hour', 90, 860, 230),
    ];
    const d = step(req, h, sheet);
    expect(d.action).toEqual({ action: 'click', coordinate: [205, 870] });
  });
});

describe('a new record with its values listed after a colon, and a flow entry button that lists the thing (after PawPoint)', () => {
  it('"Add my new X Name to App: a, b, 4.5 kg" is a form behind "Add X", never a cart item; a measurement types its number', () => {
    const plan = planTask('Add my new bike Zephyr to Cyclo: Road, Trek, 9.5 kg.', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'Cyclo' });
    expect(plan.goals[1]).toMatchObject({ kind: 'tap', targets: expect.arrayContaining(['Add bike', 'New bike']) });
    expect(plan.goals.some((g) => g.kind === 'add')).toBe(false);
    const vs = formValues('then my new bike Zephyr: Road, Trek, 9.5 kg');
    expect(vs.find((v) => v.value === '9.5 kg')).toMatchObject({ kind: 'number', input: '9.5' });
    expect(vs.map((v) => v.value)).toEqual(expect.arrayContaining(['Zephyr', 'Road', 'Trek']));
  });

  it('opens a "<verb> a <noun>" entry button when the thing is not on screen, never a row that only names the owner', () => {
    const req = "Request a refill of Rex's Zyloxin 5 mg tablets: 30-day supply.";
    const home = [...title('Critterly'), line('Rex: heartworm due', 20, 150, 200), line('Book a visit', 20, 260, 120), line('Request a refill', 220, 260, 150), ...tabs(['Home', 'Pets'], 860)];
    const d = step(req, ['Opened the Critterly app. [goal 1/7 done]'], home);
    expect(d.conclusion).toMatch(/^Opened "Request a refill" to look for "Zyloxin 5 mg"/);
  });
});

describe('an app named as a brand inside the request, a causative, and a record added to a collection (after FreshFold)', () => {
  it('a brand-like word of its own ("my GlowCo order", "get GlowCo to …") names the app; "get X to V …" is "V … in X"', () => {
    const plan = planTask('Can you get GlowCo to polish my Oak Table on Friday, June 6, with Deluxe finish?', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'GlowCo' });
    expect(plan.goals[1]).toMatchObject({ kind: 'tap', targets: expect.arrayContaining(['Polish']) });
    // (Never a possessive or a word of a longer name: "McKay's", "BluePeak Tower B".)
    expect(planTask("Order 2 Lemon Tart from McKay's Bakery in Foodie.", []).goals[0]).not.toMatchObject({ target: 'McKay' });
  });

  it('"Add 12 Elm Rd, 90210 to my GlowCo addresses" is a new record behind "Add address", not a cart item', () => {
    const plan = planTask('Add 12 Elm Rd, 90210 to my GlowCo addresses with the note Ring twice.', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'GlowCo' });
    expect(plan.goals[1]).toMatchObject({ kind: 'tap', targets: expect.arrayContaining(['Add address', 'New address']) });
    expect(plan.goals.some((g) => g.kind === 'add')).toBe(false);
    // A cart stays a cart.
    expect(planTask('Add 2 Lemon Tart to my cart.', []).goals.some((g) => g.kind === 'add')).toBe(true);
  });
});

describe('several settings of one app in one request, or one said as a wish (written after FreshFold; invented screens)', () => {
  it('reads each setting noun with its value, whatever the frame; a single pair needs a wish, a list of names is no setting', () => {
    expect(settingPairs('Use Amber Glow theme and Large type for my Readly books from now on.')).toEqual([
      { setting: 'theme', value: 'Amber Glow' },
      { setting: 'type', value: 'Large' },
    ]);
    expect(settingPairs('From now on Readly should show my books with Amber Glow theme, and the spacing on my pages should be Wide.')).toEqual(
      expect.arrayContaining([{ setting: 'spacing', value: 'Wide' }, { setting: 'theme', value: 'Amber Glow' }]),
    );
    expect(settingPairs('Set the font to Serif and the theme to Sepia in Readly.')).toEqual([
      { setting: 'font', value: 'Serif' },
      { setting: 'theme', value: 'Sepia' },
    ]);
    expect(understandSettings('Send money to Mario Lopez and Chris Wong.')).toBeUndefined();
    expect(understandSettings('Send Ana Ruiz a parcel at 4 Elm Road with Medium box size and Ground shipping.')).toBeUndefined();
    expect(understandSettings('Order a Large Pepperoni with Extra Cheese topping.')).toBeUndefined();
    const plan = planTask('Use Amber Glow theme and Large type for my Readly books from now on.', []);
    expect(plan.goals.map((g) => g.kind)).toEqual(['open', 'fill', 'fill', 'submit']);
    expect(plan.goals[0]).toMatchObject({ target: 'Readly' });
  });

  it("chooses the value among the field's own options (chips under its label), not a same-named option of another field", () => {
    const req = 'Use Amber Glow theme and Large type for my Readly books from now on.';
    const prefs = [
      ...title('Reading preferences'),
      line('Theme', 20, 150, 80),
      line('Amber Glow', 20, 175, 120),
      line('Margins', 20, 260, 80),
      line('Small', 20, 290, 60),
      line('Large', 120, 290, 60),
      line('Type', 20, 380, 60),
      line('Small', 20, 410, 60),
      line('Medium', 120, 410, 70),
      line('Large', 230, 410, 60),
      line('Save preferences', 120, 800, 160),
    ];
    const h = ['Opened the Readly app. [goal 1/4 done]', 'Chose "Amber Glow". [goal 2/4 done]'];
    const d = step(req, h, prefs);
    expect(d.action).toEqual({ action: 'click', coordinate: [260, 420] });
    expect(d.conclusion).toMatch(/Chose "Large"\. \[goal 3\/4 done\]/);
  });
});

describe('addresses, labelled numbers and options in sentences of their own (written after ParcelHub\'s template arm)', () => {
  it('a house number heads its street ("9 Mill Lane"); a ZIP label is no name; an option sentence joins its request', () => {
    expect(instructionEntities('Mail a card to Ana Ruiz, 14 Old Oak Road, ZIP 10115.')).toEqual(['Ana Ruiz', '14 Old Oak Road', '10115']);
    // (A quantity before a name stays a quantity.)
    expect(instructionEntities('Order 2 Classic Burger')).toEqual(['2', 'Classic Burger']);
    expect(mergeDetails("I need to mail Ana Ruiz a card at 14 Old Oak Road, ZIP 10115. It's the Large envelope. Use Priority postage.")).toBe(
      'Mail Ana Ruiz a card at 14 Old Oak Road, ZIP 10115, Large envelope, Priority postage.',
    );
    // A second sentence that asks something else is no option.
    expect(mergeDetails('Mail Ana Ruiz a card. Then delete the draft.')).toBeUndefined();
    const form = planTask("I need to mail Ana Ruiz a card at 14 Old Oak Road, ZIP 10115. It's the Large envelope. Use Priority postage.", []).goals.find((g) => g.kind === 'tap' && g.form);
    expect(form && form.kind === 'tap' && form.form?.map((v) => v.value)).toEqual(expect.arrayContaining(['14 Old Oak Road', '10115', 'Ana Ruiz', 'Large', 'Priority']));
  });
});

describe("where a setting or a new record lives (written after FreshFold's template arm; invented screens)", () => {
  const account = [
    ...title('Account'),
    line('Mia Chen', 20, 120, 100),
    line('Addresses', 20, 300, 100),
    line('2 saved', 20, 325, 70),
    line('Reading preferences', 20, 380, 180),
    line('Amber Glow theme - small type', 20, 405, 240),
    line('Notifications', 20, 480, 130),
    ...tabs(['Home', 'Books', 'Account'], 880),
  ];
  it('opens the row that sums the setting up among others before any generic place for settings', () => {
    const d = step('Use Sepia theme and Large type for my Readly books from now on.', ['Opened the Readly app. [goal 1/4 done]'], account);
    expect(d.conclusion).toMatch(/^Opened "Amber Glow theme - small type" to look for the value "Sepia"\. \[goal 2\/4: via 1\]/);
  });
  it("opens the list of the user's things of the new record's kind to find its Add button", () => {
    const req = "I'd like Readly to ship my books to 12 Elm Road (ZIP 10115). Save that address, and for delivery choose Leave at door.";
    const d = step(req, ['Opened the Readly app. [goal 1/7 done]'], account);
    expect(d.conclusion).toMatch(/^Opened "Addresses" to look for "Save address"\./);
    // The option after "choose" is one value with its field's words as cues, its "it" no pronoun to resolve.
    const plan = planTask("I'd like Readly to ship my books to 12 Elm Road (ZIP 10115). Save that address, and for delivery choose Hand it to me.", []);
    const form = plan.goals.find((g) => g.kind === 'tap' && g.form);
    expect(form && form.kind === 'tap' && form.form?.find((v) => v.value === 'Hand it to me')?.cues).toContain('delivery');
  });
});

describe('read off the eleventh blind app\'s first contact (invented wording)', () => {
  it('"with PIN 8127" is a value, no note to pin; the form opens with the noun phrase after the brand, where the request puts it', () => {
    const plan = planTask('Add the Bookly store card 4000 1234 5678 9010 with PIN 2468 to my wallet and call it Birthday books.', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'Bookly' });
    const open = plan.goals[1];
    expect(open).toMatchObject({ kind: 'tap', via: ['Wallet', 'Cards'] });
    expect(open && open.kind === 'tap' && open.targets).toContain('Add store card');
    expect(open && open.kind === 'tap' && open.form?.map((v) => v.value)).toEqual(expect.arrayContaining(['4000 1234 5678 9010', '2468', 'Birthday books']));
  });
  it('a cancellation of a named thing opens that thing (near its date), then its Cancel: no form', () => {
    const goals = planTask('Cancel my Blue Planet tickets for Friday, May 9 in Bookly and take the refund as Store credit.', []).goals;
    expect(goals.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ targets: ['Blue Planet'] });
    expect(goals.some((g) => g.kind === 'tap' && g.form)).toBe(false);
  });
});

describe('a count of a kind on the way to the button (written after ReelPass; invented screens)', () => {
  it('taps the stepper on the kind\'s row to the count the request names, then goes on', () => {
    const req = 'Buy 3 student passes for Harbor Tour on Friday, May 9 at 2:15 PM in Sailly.';
    const plan = planTask(req, []);
    const g = plan.goals.find((x) => x.kind === 'tap' && x.values?.length);
    expect(g && g.kind === 'tap' && g.values).toEqual(expect.arrayContaining(['2:15 PM', '3 × student']));
    const n = plan.goals.length;
    const gi = plan.goals.indexOf(g!) + 1;
    const h = ['Opened the Sailly app. [goal 1/' + n + ' done]', `Tapped "Harbor Tour". [goal ${gi - 1}/${n} done]`, `Chose "2:15 PM". [goal ${gi}/${n}: pick 2:15 PM]`, `Chose "9". [goal ${gi}/${n}: pick Friday, May 9]`];
    const counts = (k: number) => [...title('Select passes'), line('Adult', 20, 200, 80), line('−', 240, 200, 20), line('0', 300, 200, 20), line('+', 360, 200, 20), line('Student', 20, 280, 90), line('−', 240, 280, 20), line(String(k), 300, 280, 20), line('+', 360, 280, 20), line('Continue', 160, 800, 90)];
    const up = step(req, h, counts(1));
    expect(up.action).toEqual({ action: 'click', coordinate: [370, 290] });
    const done = step(req, [...h, up.conclusion, up.conclusion], counts(3));
    expect(done.conclusion).toMatch(/Tapped "Continue"/);
  });
});

describe('reference policy: one name on several rows of a list', () => {
  it('opens the row whose card says the request\'s other name (the same title at another place is another thing)', () => {
    const lines = [
      line('Openings', 36, 98, 90, 23), line('Courier', 30, 160, 70, 20), line('Search', 326, 160, 59, 21),
      line('Courier', 83, 300, 64, 18), line('Blue Finch Books', 83, 322, 150, 18), line('Old Town · Part-time', 82, 342, 200, 17),
      line('Courier', 84, 400, 63, 18), line('Harbor Print Co', 84, 424, 140, 16),
    ];
    const instruction = 'Apply for the Courier job at Harbor Print Co in Gigly.';
    const goals = planTask(instruction, []).goals;
    const open = goals.findIndex((g) => g.kind === 'tap' && g.entity);
    const n = goals.length;
    const search = goals.findIndex((g) => g.kind === 'type' && g.submit);
    const history = [
      ...Array.from({ length: search }, (_, i) => `done. [goal ${i + 1}/${n} done]`),
      `Tapped the search field "Role or employer". [goal ${search + 1}/${n}: focused]`,
      `Typed "Courier" into the search field. [goal ${search + 1}/${n}: typed]`,
      `Tapped "Search" to search for "Courier". [goal ${search + 1}/${n} done]`,
    ];
    expect(open).toBe(search + 1);
    const d = decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });
    const [, y] = (d.action as { coordinate: [number, number] }).coordinate;
    expect(y).toBeGreaterThanOrEqual(400);
    expect(y).toBeLessThan(420);
  });
});
