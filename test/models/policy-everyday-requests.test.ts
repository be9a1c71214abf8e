import { describe, expect, it } from 'vitest';
import { requestCore, terseRequest } from '../../models/reference/roles/intent.js';
import { formValues } from '../../models/reference/roles/policy-form.js';
import { launcherApps, mentionsAlone } from '../../models/reference/roles/policy-explore.js';
import { searchBox } from '../../models/reference/roles/policy-screen.js';
import { decide, planTask, twoActions } from '../../models/reference/roles/policy.js';
import { mulberry32 } from '../../models/reference/server.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Everyday request shapes read off the independent v13 wording (issue 17, session of 2026-12-03), written here on
 * invented apps — a courier tracker "Shipwise", a gym "GymNova", a lock app "LockNest", an insurer "Coverly" — none a
 * built-in app's names, labels or data.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const screen = { width: 412, height: 915 };

describe('what a context sentence gives and where a purpose clause ends', () => {
  it('"… a booking code: QX77120. Add it to App so I can watch it, and name it X" adds the code under the name', () => {
    const core = requestCore('A courier just texted me a shipment code: QX77120. Add it to Shipwise so I can watch it, and name it Winter boots.');
    expect(core).toContain('shipment code QX77120 to Shipwise');
    expect(core).toContain('name it Winter boots');
    const plan = planTask('A courier just texted me a shipment code: QX77120. Add it to Shipwise so I can watch it, and name it Winter boots.', []);
    expect(plan.goals[0]).toMatchObject({ kind: 'open', target: 'Shipwise' });
    const form = plan.goals.find((g) => g.kind === 'tap' && g.form) as { form: { value: string }[] } | undefined;
    expect(form?.form.map((v) => v.value).sort()).toEqual(['QX77120', 'Winter boots']);
  });
  it('a purpose that runs to the end of its clause is still dropped ("so I can pick it up there")', () => {
    expect(requestCore('Move my parcel to the Elm St locker so I can pick it up there.')).toBe('Move my parcel to the Elm St locker.');
  });
  it('"the whole conversation" after a sentence about a thread with someone is the conversation with that person', () => {
    const plan = planTask('That thread with Dana Whitfield is just noise now. Remove the whole conversation in Messages.', []);
    expect(plan.goals.find((g) => g.kind === 'press')).toMatchObject({ target: 'Dana Whitfield' });
  });
});

describe('an app named inside the request', () => {
  it('a made-up compound brand before a name is the app the thing is in', () => {
    expect(requestCore('Drop my GymNova Power Yoga class on Friday, please.')).toBe('Drop my Power Yoga class in GymNova on Friday.');
    expect(requestCore('Could you set the LockNest auto-lock to 5 minutes?')).toBe('Set the auto-lock in LockNest to 5 minutes.');
    // (A word English knows is no brand: "the Power Yoga class" keeps its name.)
    expect(requestCore('Drop the Power Yoga class on Friday.')).toBe('Drop the Power Yoga class on Friday.');
    expect(mentionsAlone('Drop my GymNova Power Yoga class', 'GymNova')).toBe(true);
    // (A plain word still names no app inside a longer name.)
    expect(mentionsAlone('Pick it up at Elm Pharmacy Depot', 'Pharmacy')).toBe(false);
  });
  it('a verb with its person after it says what to do, not which app: "Book me into …" ranks no book app first', () => {
    const labels = ['Weather', 'GymNova', 'Library'].map((t, i) => line(t, 40 + i * 100, 400, 80, 16));
    expect(launcherApps(labels, screen, 'Find a book about cooking for me')[0]).toBe('Library');
    expect(launcherApps(labels, screen, 'Book me into the Power Yoga session on Saturday')[0]).not.toBe('Library');
  });
  it('a text to someone "through Messages" is to that person, not to "X through Messages"', () => {
    const plan = planTask('My hands are full. Send a text to Dana Whitfield through Messages: "Running late"', []);
    expect(plan.goals.find((g) => g.kind === 'type' && g.text.includes('To'))).toMatchObject({ value: 'Dana Whitfield' });
  });
});

describe('terse requests led by their app', () => {
  it('a thing, its switch and a state turn the switch; a setting and a value set it', () => {
    expect(terseRequest('gymnova Power Yoga reminder Off')).toBe('Turn the reminder for Power Yoga Off in Gymnova.');
    expect(terseRequest('medly Lisinopril 10 mg reminder On')).toBe('Turn the reminder for Lisinopril 10 mg On in Medly.');
    expect(terseRequest('walletly low balance alert $40')).toBe('Set my low balance alert to $40 in Walletly.');
    expect(terseRequest('settings Ring volume 4')).toBe('Set Ring volume to 4 in Settings.');
    // (A verb after the app is still the request.)
    expect(terseRequest('walletly send $40 to Ana Ruiz')).toBe('Send $40 to Ana Ruiz in Walletly');
  });
  it('"favourite X" makes X a favourite', () => {
    const plan = planTask('favourite Dana Whitfield', []);
    expect(plan.goals.map((g) => g.text)).toEqual(expect.arrayContaining(['press and hold Dana Whitfield', 'add to favourites']));
  });
});

describe('form values said in passing', () => {
  it('a number said with "… is N" at a sentence end is a value, named by what it is', () => {
    const v = formValues('Submit a claim in Coverly for Water damage. the policy number on the card is 88123401.');
    expect(v.find((x) => x.value === '88123401')?.cues).toEqual(expect.arrayContaining(['policy', 'number']));
    // (The app it is done in names no field: "in Coverly for Water damage" gives Water damage no "coverly" cue.)
    expect(v.find((x) => x.value === 'Water damage')?.cues).not.toContain('coverly');
  });
  it('"use X as the payment" is paying with X', () => {
    expect(requestCore('Get 2 Pad Thai from Thai Orchid, delivered to 12 Elm Street, and use Venmo as the payment.')).toContain('pay with Venmo');
  });
  it('a "+" button with the request\'s stem is its add button ("+ Track a shipment" for adding a tracking code)', () => {
    const instruction = 'Add tracking code QX77120 to Shipwise and label it Winter boots.';
    const lines = [line('Shipwise', 16, 46, 100, 21), line('+ Track a shipment', 30, 114, 170, 22), line('On the way (3)', 50, 178, 120, 20), line('Home', 16, 886, 60, 20), line('Account', 300, 886, 70, 20)];
    const d = decide({ instruction, guidance: [], history: ['Opened the Shipwise app. [goal 1/6 done]'], lines, screen, temperature: 0, random: mulberry32(1) });
    expect(d.action).toMatchObject({ action: 'click' });
    expect(d.conclusion).toContain('+ Track a shipment');
  });
  it('the user\'s own thing whose kind no section names is looked for in their own list ("My classes" for "my X booking")', () => {
    const instruction = 'Could you cancel my Power Yoga booking on Friday in GymNova?';
    const lines = [line('GymNova', 16, 46, 100, 21), line('Good morning, Sam', 16, 100, 180, 20), line('My classes', 16, 160, 110, 20), line('Find a class', 16, 220, 120, 20), line('Home', 30, 886, 50, 20), line('Schedule', 160, 886, 80, 20), line('Profile', 320, 886, 60, 20)];
    const d = decide({ instruction, guidance: [], history: ['Opened the GymNova app. [goal 1/7 done]'], lines, screen, temperature: 0, random: mulberry32(1) });
    expect(d.conclusion).toContain('My classes');
  });
  it('the day a thing is on finds it, and is not asked for again when the action makes nothing new', () => {
    const cancel = planTask('Cancel my Power Yoga class on Friday.', []).goals.map((g) => g.text);
    expect(cancel).toContain('open Power Yoga');
    expect(cancel).not.toContain('fill in Friday');
    // (Something booked for a day takes the day as its value.)
    expect(planTask('Book the City Hatch on Friday.', []).goals.map((g) => g.text)).toContain('fill in Friday');
  });
  it('a dialog asking about the request\'s own verb is confirmed with its affirmative button, not its bare "Cancel"', () => {
    const instruction = 'Cancel my Power Yoga class on Friday.';
    const lines = [line('Booking', 65, 44, 90, 26), line('Power Yoga', 30, 115, 150, 23), line('Friday, June 20', 30, 146, 130, 17), line('Cancel this booking?', 64, 392, 210, 22), line('Your class credit will be returned.', 63, 425, 275, 17), line('Cancel', 145, 506, 57, 18), line('Yes, cancel', 241, 506, 92, 18)];
    const history = ['Opened the GymNova app. [goal 1/6 done]', 'Tapped "Power Yoga". [goal 4/6 done]', 'Tapped "Cancel booking". [goal 5/6 done]'];
    const d = decide({ instruction, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });
    expect(d.conclusion).toContain('Yes, cancel');
  });
});

/**
 * Read off the twenty-third blind app's first contact (a media app), written here on invented apps — a recipe app
 * "Cookly" with boards, a podcast app "Castwell" — none a built-in app's.
 */
describe('items put into the user\'s named collections, and two actions in one request', () => {
  it('"Add X by Y to my Z board" opens X (told apart by Y), its "Add to board", then Z', () => {
    const texts = planTask('Add Lemon Tart by Ana Ruiz to my Weekend Bakes board on Cookly.', []).goals.map((g) => g.text);
    expect(texts).toEqual(['open Cookly', 'search for Lemon Tart', 'open Lemon Tart', 'tap Add to board', 'fill in Weekend Bakes', 'confirm']);
    const open = planTask('Add Lemon Tart by Ana Ruiz to my Weekend Bakes board on Cookly.', []).goals[2];
    expect(open).toMatchObject({ near: ['Ana Ruiz'] });
    // (Said in context: "I tried X by Y … Save it to my Z board".)
    const ctx = planTask('I tried Lemon Tart by Ana Ruiz at a friend\'s place. Save it to my Weekend Bakes board in Cookly.', []).goals;
    expect(ctx.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ targets: ['Lemon Tart'], near: ['Ana Ruiz'] });
    // (A wishlist keeps its own reader.)
    expect(planTask('Save the Trail Runner Sneakers to my ShopMart wishlist.', []).goals.map((g) => g.text)).toContain('save it to the wishlist');
  });
  it('"Create a new board called Z and put X in it" adds X to a new board named Z', () => {
    expect(requestCore('Create a new Cookly board called Party Food and put Lemon Tart in it.')).toBe('Add Lemon Tart to a new board called Party Food in Cookly.');
    const texts = planTask('Create a new Cookly board called Party Food and put Lemon Tart in it.', []).goals.map((g) => g.text);
    expect(texts).toEqual(expect.arrayContaining(['tap Add to board', 'tap New board', 'fill in Party Food', 'create the board']));
  });
  it('two actions joined by "and" are planned one after the other, the second in the first one\'s app', () => {
    expect(twoActions('Follow the Night Owls podcast on Castwell and download its episode "Pilot".')).toEqual(['Follow the Night Owls podcast on Castwell', 'Download the episode "Pilot" in Castwell.']);
    // (A value said as an action is no second action.)
    expect(twoActions('Add tracking code QX77120 to Shipwise and name it Winter boots.')).toBeUndefined();
    expect(twoActions('Get 2 Pad Thai from Thai Orchid and pay with Cash.')).toBeUndefined();
    const texts = planTask('Follow the Night Owls podcast on Castwell and download its episode "Pilot".', []).goals.map((g) => g.text);
    expect(texts.filter((t) => t.startsWith('open Castwell'))).toHaveLength(1);
    expect(texts).toEqual(expect.arrayContaining(['open Night Owls', 'tap Follow', 'open Pilot']));
    // Who made the thing tells it apart; it is no value to choose.
    const play = planTask('Play Harbor Lights by The Tide Band on Castwell.', []).goals;
    expect(play.find((g) => g.kind === 'tap' && g.entity)).toMatchObject({ near: ['The Tide Band'] });
    expect(play.some((g) => g.kind === 'fill')).toBe(false);
  });
});

describe('an app whose search is a tab of its own', () => {
  it('the tab bar is no search field; the search tab is opened, and a long placeholder beside "Search" is the field', () => {
    const home = [line('Castwell', 16, 46, 100, 21), line('Good morning', 16, 100, 160, 20), line('Home', 48, 888, 42, 18), line('Search', 183, 890, 47, 15), line('Library', 304, 888, 78, 18)];
    expect(searchBox(home, screen)).toBeUndefined();
    const d = decide({ instruction: 'Play Harbor Lights by The Tide Band on Castwell.', guidance: [], history: ['Opened the Castwell app. [goal 1/6 done]'], lines: home, screen, temperature: 0, random: mulberry32(1) });
    expect(d.conclusion).toContain('"Search" tab');
    const page = [line('Search', 65, 47, 73, 21), line('What do you want to listen to?', 29, 115, 227, 17), line('Search', 325, 115, 57, 18), ...home.slice(2)];
    expect(searchBox(page, screen)?.text).toBe('What do you want to listen to?');
  });
});
