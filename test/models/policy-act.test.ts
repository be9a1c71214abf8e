import { describe, expect, it } from 'vitest';
import { loadDags } from '../../environments/app-world.js';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { understandAction } from '../../models/reference/roles/policy-act.js';
import { fieldOf } from '../../models/reference/roles/policy-screen.js';
import { understandTask } from '../../models/reference/roles/policy-intent.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';
import { generateQueries } from '../../query-gen/sample.js';

const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };
const base = { guidance: [] as string[], screen, temperature: 0, random: mulberry32(1) };
const texts = (i: string): string[] => planTask(i, []).goals.map((g) => g.text);

describe('reference policy: the generic verb-and-thing reading (apps it was not written for)', () => {
  it('reads the verb, the thing (brackets kept), the values and the app from the request structure', () => {
    expect(texts('Borrow Dune Messiah from the library.')).toEqual(['open the app the request names', 'search for Dune Messiah', 'open Dune Messiah', 'tap Borrow', 'confirm']);
    const hold = understandAction('Place a hold on The Hobbit (Illustrated) for pickup at Hillcrest Branch.')!;
    expect(hold.goals.map((g) => g.kind)).toEqual(['open', 'type', 'tap', 'tap', 'fill', 'tap']);
    expect(hold.goals[2]).toMatchObject({ targets: ['The Hobbit (Illustrated)'], entity: true });
    // ("place" is a light verb: its noun is the action too.)
    expect(hold.goals[3]).toMatchObject({ targets: ['Place Hold', 'Place', 'Hold'] });
    // A light verb's noun phrase names the button in either order ("put in a refill request" → "Request refill").
    const refill = understandAction('Put in a refill request for my Zortex 10 mg prescription.')!;
    expect(refill.goals[3]).toMatchObject({ targets: expect.arrayContaining(['Refill Request', 'Request Refill', 'Request']), words: ['refill', 'request'] });
    expect(refill.result!.test('Refill requested')).toBe(true);
    // An owner before the thing ("Rex's Zyloxin 5 mg"): the thing is what is owned, the owner a way to reach it.
    const owned = understandAction("Renew Rex's Zyloxin 5 mg tablets for 30 days.")!;
    expect(owned.goals[2]).toMatchObject({ targets: ['Zyloxin 5 mg'], entity: true, via: expect.arrayContaining(['rex']) });
    expect(hold.goals[4]).toMatchObject({ kind: 'fill', value: 'Hillcrest Branch', hints: expect.arrayContaining(['pickup']) });
    // A named app is opened by name; otherwise the launcher label that is a word of the request.
    expect(planTask('Check out Circe for me in the Library app.', []).goals[0]).toMatchObject({ kind: 'open', target: 'Library' });
    const open = understandAction('Freeze my Everyday Visa card at the bank.')!.goals[0] as { topic: RegExp };
    expect(open.topic.test('Bank')).toBe(true);
    expect(open.topic.test('Notes')).toBe(false);
    // A common synonym of the verb is a button label too; "my X" opens a "My X" section first.
    expect((understandAction('Extend the due date of Piranesi in Library.')!.goals[3] as { targets: string[] }).targets).toContain('Renew');
    expect(texts('Renew my library loan of The Martian.').slice(1, 2)).toEqual(['open My loan']);
    expect(understandAction('Renew my loan of The Martian.')!.result.test('Renewed until Jun 20')).toBe(true);
  });

  it('leaves the readers it does not replace alone: no DAG template of the nine apps is read here', () => {
    const nine = ['food', 'notes', 'settings', 'mail', 'clock', 'shop', 'contacts', 'messages', 'calendar'];
    const qs = [1, 2, 3].flatMap((seed) => generateQueries({ dags: loadDags(), count: 150, seed, apps: nine }).queries);
    expect(qs.length).toBeGreaterThan(300);
    expect(qs.filter((q) => planTask(q.instruction, []).result !== undefined).map((q) => q.instruction)).toEqual([]);
    // Steps the explicit reader knows stay with it.
    expect(understandAction('Open Notes and tap New note.')).toBeUndefined();
    expect(understandAction('Tap Save.')).toBeUndefined();
  });

  it('finds a field by a label that shares a word with the request, and its current value under it', () => {
    const lines = [line('Place hold', 20, 50), line('Pickup branch', 24, 300), line('Central Library', 30, 340), line('Confirm hold', 120, 430)];
    const f = fieldOf(lines, ['hold', 'pickup', 'riverside', 'branch'], 'Riverside Branch', screen);
    expect(f?.label.text).toBe('Pickup branch');
    expect(f?.value?.text).toBe('Central Library');
    expect(fieldOf(lines, ['wallet'], 'Riverside Branch', screen)).toBeUndefined();
    // A card title that shares a word with the request is not the field when it is the thing itself.
    const card = [line('The Midnight Library', 24, 150), line('Pickup branch', 24, 300), line('Central Library', 30, 340)];
    expect(fieldOf(card, ['library', 'riverside', 'branch'], 'Riverside Branch', screen, ['The Midnight Library'])?.label.text).toBe('Pickup branch');
  });

  it('fills a value: opens the field under its label, then picks the option; a field already showing it is skipped', () => {
    const instruction = 'Place a hold on Becoming for pickup at Riverside Branch.';
    const form = [line('Place hold', 20, 50), line('Becoming', 24, 150), line('Pickup branch', 24, 300), line('Central Library', 30, 340), line('Confirm hold', 120, 430)];
    const done = ['Opened the Library app. [goal 1/6 done]', 'Tapped "Becoming". [goal 3/6 done]', 'Tapped "Place hold". [goal 4/6 done]'];
    const open = decide({ ...base, instruction, history: done, lines: form });
    expect(open.action).toEqual({ action: 'click', coordinate: [110, 350] });
    expect(open.conclusion).toMatch(/\[goal 5\/6: opened item\]$/);
    const picker = [...form, line('Pickup branch', 60, 280), line('Central Library', 60, 330), line('Riverside Branch', 60, 380), line('Hillcrest Branch', 60, 430)];
    const pick = decide({ ...base, instruction, history: [...done, open.conclusion], lines: picker });
    expect(pick.action).toEqual({ action: 'click', coordinate: [140, 390] });
    // The field shows the value: straight to the confirming button (not the page title "Place hold").
    const set = [line('Place hold', 20, 50), line('Pickup branch', 24, 300), line('Riverside Branch', 30, 340), line('Confirm hold', 120, 430)];
    const confirm = decide({ ...base, instruction, history: done, lines: set });
    expect(confirm.action).toEqual({ action: 'click', coordinate: [200, 440] });
  });

  it('reads verbless requests: a switch and its position, a possessive place', () => {
    expect(planTask('Dark mode off', []).goals[1]).toMatchObject({ kind: 'toggle', target: 'Dark mode', on: false });
    expect(planTask('Bluetooth on, please.', []).goals[1]).toMatchObject({ kind: 'toggle', target: 'Bluetooth', on: true });
    expect(understandTask("Sushi Zen's menu")).toMatchObject({ intent: 'view', place: 'Sushi Zen' });
    expect(understandTask('Burger Palace menu, please')).toMatchObject({ intent: 'view', place: 'Burger Palace' });
  });

  it('reads everyday wordings by structure: pronouns, verbless kinds, wishes for a state, "search X for Y"', () => {
    // A pronoun stands for the thing named earlier; "take X out of Y" is removing it.
    expect(texts("I don't need the Weekend alarm anymore, delete it.").slice(1, 2)).toEqual(['press and hold Weekend']);
    expect(texts('Team Sync is off, please take it out of my calendar.').slice(0, 2)).toEqual(['open Calendar', 'press and hold Team Sync']);
    // A chat is a conversation; the app named before it, and "in <App>" at the end, say where, not what.
    expect(texts('Remove my Messages conversation with Sam Tyler.').slice(0, 2)).toEqual(['open Messages', 'press and hold Sam Tyler']);
    expect(texts('Get rid of the Book club note in Notes.').slice(1, 2)).toEqual(['press and hold Book club']);
    expect(texts('Remove the alarm called Work late shift.').slice(1, 2)).toEqual(['press and hold Work late shift']);
    // A sentence that ends in "please" is the request, not context to drop.
    expect(texts('I have Budget Review on June 4, starting at 10:30. Add it to the calendar please.')).toContain('type the title Budget Review');
    expect(texts('New calendar entry: Call with Grandma, June 25, 09:00.')).toContain('type the title Call with Grandma');
    expect(texts('New contact: Priya Okafor. Their number is 555-610-4433.')).toEqual(['open Contacts', 'tap New contact', 'type Priya as first name', 'type Okafor as last name', 'type 555-610-4433 as phone', 'save the contact']);
    expect(planTask('I want Dark mode turned On.', []).goals[1]).toMatchObject({ kind: 'toggle', target: 'Dark mode', on: true });
    expect(texts('Search Foodie for Taco Fiesta and open the result.')).toEqual(['open Foodie', 'search for Taco Fiesta', 'open Taco Fiesta']);
    expect(texts('Create a 4:00 PM alarm named Dentist that repeats every Thu.')).toContain('type the label Dentist');
    expect(texts('Please order 2 x Rain Shell Jacket Lite (Teal, size L) from ShopMart.').slice(1, 3)).toEqual(['open Rain Shell Jacket Lite', 'choose the colour Teal']);
    expect(texts('Tell Carlos Mendes "Thanks for dinner" in Messages.').slice(0, 3)).toEqual(['open Messages', 'start a new chat', 'type Carlos Mendes in To']);
  });
});

describe('reference policy: a withdrawal in everyday words (an invented club app, "Clubbly")', () => {
  it('"pull" and "withdraw" remove; the app named is no part of the button looked for; the user\'s own things are looked for under their plural', () => {
    const goals = planTask("I'm moving away. Please pull my membership at Harbor Rowing Club in Clubbly.", []).goals;
    const mine = goals.find((g) => g.kind === 'tap' && g.optional && g.targets.includes('Memberships'));
    expect(mine).toBeDefined();
    const action = goals.find((g) => g.kind === 'tap' && g.words?.includes('pull'));
    expect(action?.kind === 'tap' && action.targets).toEqual(expect.arrayContaining(['Withdraw', 'Cancel']));
    expect(action?.kind === 'tap' && action.targets.some((t) => /clubbly/i.test(t))).toBe(false);
    // "my Clubbly membership": the app's name before the kind is the app, not the thing to open.
    const own = planTask('Withdraw my Clubbly membership at Harbor Rowing Club.', []).goals;
    expect(own[0]).toMatchObject({ kind: 'open', target: 'Clubbly' });
    expect(own.some((g) => g.kind === 'tap' && g.entity && g.targets[0] === 'Harbor Rowing Club')).toBe(true);
    // The confirming step never backs out of the dialog with a bare "Cancel".
    const confirm = own[own.length - 1]!;
    expect(confirm.kind === 'tap' && confirm.targets.includes('Cancel')).toBe(false);
  });
});
