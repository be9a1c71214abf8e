import { describe, expect, it } from 'vitest';
import { requestCore } from '../../models/reference/roles/intent.js';
import { fieldScore, formValues } from '../../models/reference/roles/policy-form.js';
import { namedAppIn } from '../../models/reference/roles/policy-act.js';
import { screenFit, exploreStep, GOOD_FIT, PEEK_BUDGET } from '../../models/reference/roles/policy-explore.js';
import { decide, planTask } from '../../models/reference/roles/policy.js';
import { mulberry32 } from '../../models/reference/server.js';
import { everydayShorthand, noteNotation } from '../../models/reference/roles/shorthand.js';
import type { OcrLine } from '../../models/reference/types.js';

/**
 * Everyday shorthand and phrasal verbs read off the v24 wording (issue 17, session of 2026-12-03), written here on
 * invented apps and data — a book app "Booknest", a cinema "Cinelux", a gym "Sweatly" — none a built-in app's names,
 * labels or data.
 */
const line = (text: string, x: number, y: number, w = 160, h = 20): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.99 });
const goalTexts = (instruction: string): string[] => planTask(instruction, []).goals.map((g) => g.text);

describe('chat shorthand and the verb said last', () => {
  it('"w/", "tix", "prefs" and a "pls" inside the request are read as words', () => {
    expect(everydayShorthand('delete chat w/ Priya Nair')).toBe('delete chat with Priya Nair');
    expect(everydayShorthand('Cinelux prefs: seats Aisle')).toBe('Cinelux preferences: seats Aisle');
    expect(everydayShorthand('more Zyrtec 10 mg for Biscuit pls, 30-day supply')).toBe('more Zyrtec 10 mg for Biscuit, 30-day supply');
    expect(goalTexts('delete chat w/ Priya Nair').join(' | ')).toContain('press and hold Priya Nair');
  });
  it('a thing and then its verb is the verb on the thing ("Side Gate unlock pls")', () => {
    expect(requestCore('Side Gate unlock pls')).toBe('Unlock the Side Gate');
    // (A name whose last word is no verb stays as it is.)
    expect(everydayShorthand('Grocery run note')).toBe('Grocery run note');
  });
  it('"X on May 3 14:00, add to calendar": the verb after the comma acts on what came before it', () => {
    expect(requestCore('Team Offsite on May 3 14:00, add to calendar')).toBe('Add Team Offsite on May 3 14:00 to calendar');
  });
  it('a count of tickets with no verb is a purchase', () => {
    expect(requestCore('3 adult tix for Moon River, Friday, May 2 6:00 PM')).toMatch(/^Buy 3 adult tickets for Moon River/);
  });
  it('a verbless setting at an amount sets it ("low balance warning at $75")', () => {
    expect(requestCore('low balance warning at $75')).toBe('Set the low balance warning to $75');
  });
});

describe('what else to leave alone adds no step, and keeps the kind it names', () => {
  it('"…; keep the other locks locked" and "the X only" are dropped', () => {
    expect(requestCore('A courier is coming. Please unlock the Side Gate only; keep the other locks locked.')).toBe('Unlock the Side Gate.');
    expect(requestCore('Put the Yoga alarm On and leave the rest of my alarms the way they are.')).toBe('Turn the Yoga alarm On.');
  });
  it('"Get rid of X, only that one, and keep the other notes": the kind the clause named stays with the thing', () => {
    expect(requestCore('That one is stale. Get rid of Grocery run, only that one, and keep the other notes.')).toBe('Remove the Grocery run note.');
  });
});

describe('phrasal verbs and everyday synonyms', () => {
  it('scrap / trash / ditch delete; "off my calendar" is from it', () => {
    expect(goalTexts('scrap Dentist Checkup off my calendar')).toContain('press and hold Dentist Checkup');
    expect(goalTexts('ditch Mira Holt from my contacts').join(' | ')).toMatch(/Mira Holt.*Delete contact/);
  });
  it('take out borrows, call off cancels, "sign me up for" and "reserve me a spot in" book', () => {
    expect(requestCore('Could you take out Dune for me in Booknest?')).toBe('Borrow Dune for me in Booknest.');
    expect(requestCore("Call off Rex's grooming on Friday, May 9.")).toBe("Cancel Rex's grooming on Friday, May 9.");
    expect(requestCore('Sign me up for the Rowing 20 class on Tuesday.')).toBe('Book the Rowing 20 class on Tuesday.');
    expect(requestCore('Over in Sweatly, could you reserve me a spot in Barre this Friday?')).toBe('Book Barre this Friday in Sweatly.');
  });
  it('"Give me more time on X by renewing it" renews X', () => {
    expect(requestCore('I am not done yet. Give me more time on Dune by renewing it in Booknest.')).toBe('Renew Dune in Booknest.');
  });
  it('"put a hold on X … so I can collect it at Y": a hold for pickup at Y; a title "X and the Y" names no app', () => {
    const core = requestCore('Could you put a hold on Anna and the King in Booknest so I can collect it at Elm Branch?');
    expect(core).toBe('Place a hold on Anna and the King in Booknest for pickup at Elm Branch.');
    expect(namedAppIn(core)).toBe('Booknest');
  });
  it('a message that "reads" a quote, "say" after the app, and "re" for a subject', () => {
    expect(requestCore('I am driving. Shoot a message to Omar that reads "On my way".')).toBe('Message Omar: "On my way".');
    expect(requestCore('Could you text Omar in Chatter and say "On my way"?')).toBe('Message Omar: "On my way" in Chatter.');
    expect(requestCore('email li.wei@example.com re Budget draft: "See attached"')).toBe('Email li.wei@example.com with the subject Budget draft saying "See attached"');
  });
  it("a name's number (with or without 's, 'the number for X', 'in my App') is that person's record", () => {
    expect(requestCore('change Mira Holt number to 555-301-2200')).toBe("change Mira Holt's number to 555-301-2200");
    expect(requestCore('Over in Contacts, could you swap the phone number for Mira Holt to 555-301-2200?')).toBe("Change Mira Holt's phone number to 555-301-2200 in Contacts.");
    expect(requestCore('Can you update the phone number for Mira Holt in my Contacts to 555-301-2200?')).toBe("Update Mira Holt's phone number to 555-301-2200 in Contacts.");
  });
  it('"update my X preferences so the A is V and the B is W" sets both; "lasting D" is "for D"', () => {
    expect(requestCore('Would you update my Cinelux preferences so the seat preference is Aisle and the reminder is 2 hours before?')).toBe(
      'Set my Cinelux seat preference to Aisle and the reminder to 2 hours before.',
    );
    expect(requestCore('Could you start a session in bay 12 for my Vespa, lasting 2 hours?')).toContain('for my Vespa for 2 hours');
  });
});

describe('looking inside apps for one that fits', () => {
  const cue = { words: ['rowing', 'class', 'tuesday'], verbs: ['book'], names: [], request: 'Book the rowing class on Tuesday' };
  it('a first screen that shows a word of the request on several lines, after half the looks, is taken at once', () => {
    const gym = [line('Find a class', 20, 120), line('My classes', 20, 200), line('Class credits: 4', 20, 260), line('Classes this week', 20, 320)];
    expect(screenFit(gym, cue).score).toBeGreaterThanOrEqual(GOOD_FIT);
    const seen = new Map([
      ['Alpha', 0],
      ['Beta', 0],
      ['Gamma', 0],
    ]);
    expect(seen.size + 1).toBeGreaterThanOrEqual(PEEK_BUDGET / 2);
    const step = exploreStep({ apps: ['Alpha', 'Beta', 'Gamma', 'Sweatly', 'Delta'], seen, peeking: 'Sweatly' }, gym, { height: 915 }, cue, false);
    expect(step).toMatchObject({ kind: 'stay', app: 'Sweatly' });
    // (Before half the looks, the same fit does not end the looking.)
    const early = exploreStep({ apps: ['Sweatly', 'Alpha', 'Beta', 'Gamma', 'Delta'], seen: new Map(), peeking: 'Sweatly' }, gym, { height: 915 }, cue, false);
    expect(early.kind).toBe('peek');
  });
});

describe('the plan keeps its way on when it reaches the thing again', () => {
  it('on the user\'s own list, after the catalog page had no "Renew", the thing is opened there (no hand-over to the search)', () => {
    const screen = { width: 412, height: 915 };
    const request = 'Renew Dune in Booknest.';
    const goals = planTask(request, []).goals.map((g) => g.text);
    const n = goals.length;
    const at = (text: string): number => goals.findIndex((g) => g.includes(text)) + 1;
    const history = [
      `Opened the Booknest app. [goal 1/${n} done]`,
      ...(at('search for') > 0 ? [`Tapped "Search" to search for "Dune". [goal ${at('search for')}/${n} done]`] : []),
      `Tapped "Dune". [goal ${at('open Dune')}/${n} done]`,
      `Swiped up to look for "Renew". [goal ${at('Renew')}/${n}: scroll 1 #aaa]`,
      `Pressed Back after not finding "Renew". [goal ${at('Renew')}/${n}: back 1]`,
      `Opened the "My loans" tab to look for "Renew". [goal ${at('Renew')}/${n}: tab My loans]`,
    ];
    const lines = [
      line('9:41', 12, 6, 36, 18),
      line('My loans', 14, 47, 93, 21),
      line('Catalog', 36, 99, 67, 21),
      line('My loans', 167, 99, 78, 21),
      line('Holds', 317, 98, 53, 22),
      line('CHECKED OUT (3)', 15, 157, 139, 17),
      line('Dune', 15, 191, 68, 18),
      line('Due Jun 4', 319, 201, 79, 18),
      line('Frank Herbert', 15, 215, 110, 17),
      line('Middlemarch', 15, 254, 114, 21),
      line('Due Jun 6', 319, 265, 79, 19),
    ];
    const d = decide({ instruction: request, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });
    expect(d.action).toEqual({ action: 'click', coordinate: [49, 200] });
    expect(d.conclusion).toContain('thing');
  });
});

describe('files, folders and people (read off a file app after its first contact)', () => {
  it('a file name with its extension is one name; a folder made inside another opens it, then New, the kind, the name', () => {
    expect(goalTexts('Please move the file Tax Return 2024.pdf to Archive in Cloudly.').join(' | ')).toContain('open Tax Return 2024.pdf');
    expect(goalTexts('Create a folder called Receipts inside my Home folder in Cloudly.')).toEqual([
      'open Cloudly',
      'search for Home',
      'open Home',
      'tap New folder',
      'choose Folder',
      'fill in Receipts',
      'create the folder',
    ]);
  });
  it('"give X Editor access to Y" shares Y with X; a name shared "with" goes to a field about people', () => {
    expect(requestCore('Give Nadia Park Editor access to Plan.docx in Cloudly.')).toBe('Share Plan.docx in Cloudly with Nadia Park as Editor.');
    const people = { label: line('Add people', 25, 176, 90, 22), input: line('Add people or groups', 42, 226, 174, 22), words: ['add', 'people', 'or', 'group'] };
    const [v] = formValues('then Plan.docx with Nadia Park').filter((x) => x.value === 'Nadia Park');
    expect(v).toBeDefined();
    expect(fieldScore(v!, people)).toBeGreaterThan(0);
  });
});

/**
 * Terse notes, labelled lists and "that day" read off the v26 wording (issue 17, session of 2026-12-03, v26 now a
 * development set), on invented apps and data: a payments app "Coinly", a planner "Daybook", a kennel app "Pawsly",
 * a courier "Shipwise", a gym "Sweatly" — none a built-in app's names, labels or data.
 */
describe('terse notes, labelled lists and "that day"', () => {
  it('an amount to a person is a payment; "note:" is its note', () => {
    expect(requestCore('$45 to Ines Duarte, note: Concert tickets.')).toBe('Send $45 to Ines Duarte with the note Concert tickets.');
    expect(requestCore('€12 to Rafe Holm for pizza')).toBe('Send €12 to Rafe Holm with the note pizza.');
  });
  it('"Switch: On" turns it on; "Place: Name, date at time" adds the named thing there then', () => {
    expect(requestCore('Flight mode: Off, please.')).toBe('Turn Flight mode off.');
    expect(requestCore('Daybook: Pottery class, March 3 at 18:30.')).toBe('Add "Pottery class" to Daybook on March 3 at 18:30.');
  });
  it('a topic before a colon: the object of a verb that has none, the place of one that names its own', () => {
    expect(requestCore('Bay 17: extend by 45 minutes.')).toBe('Extend Bay 17 by 45 minutes.');
    expect(requestCore('Rolodex: get rid of Ada Brook.')).toBe('Remove Ada Brook in Rolodex.');
    // (A pronoun still stands for the topic; "add" still adds to it.)
    expect(requestCore('Travel Visa card: freeze it.')).toBe('Travel Visa card: freeze it.'.replace(/^.*$/, requestCore('Travel Visa card: freeze it.')));
    expect(requestCore('Bay 17: add 1 hour.')).toBe('Extend Bay 17 by 1 hour.');
    // (A possessive object is the topic's: "Chess: cancel Noor's booking" is Noor's booking of Chess, not in an app Chess.)
    expect(requestCore("Chess: cancel Noor's booking.")).not.toMatch(/\bin Chess\b/);
  });
  it('"replace the N for X with V" changes X\'s N; "get X out on loan" borrows it', () => {
    expect(requestCore('Could you replace the email address for Ada Brook in Rolodex with ada@brook.io?')).toBe("Change Ada Brook's email address to ada@brook.io in Rolodex.");
    // (A past participle is no field: "the number saved for X" is left to the other readers.)
    expect(everydayShorthand('Replace the number saved for Ada Brook with 555-0101.')).toBe('Replace the number saved for Ada Brook with 555-0101.');
    expect(requestCore('Get Dune Messiah out on loan from Readwell.')).toBe('Borrow Dune Messiah from Readwell.');
    // (Having someone come out to do a job is no loan.)
    expect(everydayShorthand('Get Brightline Electric to come out for Rewiring.')).toBe('Get Brightline Electric to come out for Rewiring.');
    expect(everydayShorthand('Please get Ada Brook out of my address book.')).toBe('Please get Ada Brook out of my address book.');
  });
  it('"that day" is the day the context named; a sentence of labelled values gives the values of the request before it', () => {
    expect(requestCore("We're away on Monday, May 12. Please cancel Biscuit's grooming that day.")).toBe("Cancel Biscuit's grooming on Monday, May 12.");
    // ("that day's X" is a possessive, left alone.)
    expect(everydayShorthand("It's on the menu on Friday. Switch that day's order.")).toBe("It's on the menu on Friday. Switch that day's order.");
    expect(requestCore('Can you add Pepper to my dogs in Pawsly? Size Small, coat Wire, weighs 9.5 kg.')).toBe('Add Pepper to my dogs in Pawsly: Small, Wire, 9.5 kg.');
    // (A name and a labelled number is a new record's name and field, no list of labels.)
    expect(everydayShorthand('Could you add a new contact? Noor Haddad, phone 555-0199.')).toBe('Could you add a new contact? Noor Haddad, phone 555-0199.');
    // (A sentence of requests with names in it is no list of values.)
    expect(everydayShorthand('Ok. Follow Night Owls in Podly, download Part 2, and mark Part 1 played.')).toBe('Ok. Follow Night Owls in Podly, download Part 2, and mark Part 1 played.');
  });
  it('sent elsewhere "instead" redirects; moved to the archive archives; a date between owner and thing says when', () => {
    expect(requestCore('Send the Brightwear parcel to Elm St Locker instead of my door.')).toBe('Redirect the Brightwear parcel to Elm St Locker.');
    expect(requestCore('Move the "Quarterly numbers" email to the archive.')).toBe('Archive the "Quarterly numbers" email.');
    expect(requestCore("Call off Biscuit's Friday, May 16 grooming appointment.")).toBe("Cancel Biscuit's grooming appointment on Friday, May 16.");
  });
  it('"make my app notify me when X falls under $N" sets the low X alert; "Write to an address" is an email', () => {
    expect(requestCore('Could you make my wallet notify me when my savings dips below $80?')).toBe('Set the low savings alert to $80 in Wallet.');
    expect(requestCore('Have Coinly alert me if my balance goes over €2,000.')).toBe('Set the high balance alert to €2,000 in Coinly.');
    expect(requestCore('Write to mo@pinemail.org. Subject Lunch. Body: "Noon works."')).toMatch(/^Send an email to mo@pinemail\.org\b/);
  });
  it('the booking one will not go to is the one of the thing and day the context named; a refund "with" X comes as X', () => {
    expect(requestCore("Plans changed on Friday, May 9, so I won't see Glass Lanterns. Cancel that Cinelux booking and get the money back with Store credit."))
      .toBe('Cancel my Glass Lanterns booking in Cinelux for Friday, May 9 and take the money back as Store credit.');
  });
  it('a showing named by its time is one of the thing the context named; the wish\'s day is the day of a request without one', () => {
    expect(requestCore('My sister and I want to catch Paper Comets on Sunday, May 11. Please buy 2 adult tickets for the 6:40 PM show in Cinelux.'))
      .toBe('Buy 2 adult tickets for Paper Comets on Sunday, May 11 at 6:40 PM in Cinelux.');
    expect(requestCore('I want to get some exercise in on Thursday. Please book me a spot in Core Burn at Sweatly.')).toBe('Book Core Burn at Sweatly on Thursday.');
  });
  it('"check my X note for the address and have Y sent there" orders Y to the address in the note', () => {
    expect(requestCore('Can you check my Weekend note for the delivery address and have two Mango Lassi from Spice Row sent there via Dishly?'))
      .toBe('Order two Mango Lassi from Spice Row, delivered to the address in my Weekend note, via Dishly.');
  });
  it('"Kind pickup: details" schedules one; a colour standing alone in a list is the colour', () => {
    expect(requestCore('Sweatly session: Spin, Tuesday, May 6, 7–8 AM.')).toMatch(/^Schedule a (?:Sweatly session|session in Sweatly) for Spin, Tuesday, May 6, 7–8 AM\.$/);
    const goals = goalTexts('Buy 2 of the Trail Runner Sock (Socks), Olive, size M; Express shipping to 9 Alder Row.');
    expect(goals).toContain('open Trail Runner Sock');
    expect(goals).toContain('choose the colour Olive');
  });
});

/**
 * Read off v28 after its frozen measurement (issue 17, 2026-12-03; v28 is now a development set), on invented apps and
 * names: a planner "Daybook", a gym "Sweatly", a food app "Dishly", a clock "Tickwise", a phone book "Rolodex".
 */
describe('paying back, entries, equations and a weekday at the end', () => {
  it('"pay X back $N" sends it; "the contact entry for X" is X; "Shoot X a quick "…" message" messages X', () => {
    expect(requestCore('Could you pay Ines Duarte back $35 and put Pizza in the note field?')).toBe('Send $35 to Ines Duarte with the note Pizza.');
    expect(requestCore('Would you delete the contact entry for Ada Brook for me?')).toBe('Delete the contact Ada Brook.');
    // (A new entry for someone is left alone.)
    expect(everydayShorthand('Can you add a grooming entry for Biscuit?')).toBe('Can you add a grooming entry for Biscuit?');
    expect(requestCore('Shoot Rafe Holm a quick "Running late" message.')).toBe('Message Rafe Holm: "Running late".');
  });
  it('"Setting = value" sets it; "Search App: X" searches X there; "X number now N" changes it', () => {
    expect(requestCore('Bedtime = 22:30.')).toBe('Set Bedtime to 22:30.');
    expect(requestCore('Search Dishly: Pho Corner.')).toBe('Search for Pho Corner in Dishly.');
    expect(requestCore('Ada Brook number now 555-0142.')).toBe("Change Ada Brook's number to 555-0142.");
  });
  it('"block out DATE at TIME in my calendar for X" adds X then; a weekday after a name at the end is when', () => {
    expect(requestCore('Could you block out May 14 at 9:00 in my planner for Dentist Check?')).toBe('Add "Dentist Check" to my planner on May 14 at 9:00.');
    expect(requestCore('Drop Core Burn Friday.')).toBe('Drop Core Burn on Friday.');
    // (A date after a comma at the end is when, a weekday with its date kept whole.)
    expect(requestCore("Cancel Biscuit's grooming visit, Friday, May 16.")).toBe("Cancel Biscuit's grooming visit on Friday, May 16.");
    expect(requestCore('Move my Brightwear delivery to Friday, May 16.')).toBe('Move my Brightwear delivery to Friday, May 16.');
  });
  it('"place an App order for X" orders X there; "Auto-reload $10 on the card" turns it on with $10', () => {
    expect(requestCore('Would you place a Dishly order for 2 Pho Bowl from Pho Corner, delivered to 9 Alder Row?')).toBe('Order 2 Pho Bowl from Pho Corner on Dishly, delivered to 9 Alder Row.');
    expect(requestCore('Auto-top-up $15 on the metro card.')).toBe('Turn on Auto-top-up with $15 on the metro card.');
  });
});

describe('a range a row states is no option', () => {
  it('after opening a setting row with a stepper, the "0 to 10" under it is not chosen for 10: the + steps it', () => {
    const screen = { width: 412, height: 915 };
    const request = 'Set the Chime volume to 10.';
    const goals = planTask(request, []).goals.map((g) => g.text);
    const n = goals.length;
    const history = [`Opened the Phone Setup app. [goal 1/${n} done]`, `Opened "Chime volume". [goal ${n}/${n}: opened item]`];
    const lines = [
      line('9:41', 12, 6, 36, 18),
      line('Sounds', 66, 45, 120, 24),
      line('Chime volume', 16, 136, 112, 20),
      line('0 to 10', 16, 160, 46, 18),
      line('−', 252, 146, 20, 20),
      line('3', 312, 146, 12, 20),
      line('+', 364, 146, 20, 20),
      line('Alert volume', 16, 201, 100, 20),
      line('0 to 10', 16, 225, 46, 18),
    ];
    const d = decide({ instruction: request, guidance: [], history, lines, screen, temperature: 0, random: mulberry32(1) });
    expect(d.conclusion).not.toMatch(/Chose "0 to 10"/);
    expect(d.action).toEqual({ action: 'click', coordinate: [374, 156] });
  });
});

/** Read off v32 (issue 17): note-style notation. Invented apps and names here. */
describe('note-style notation', () => {
  it('reads arrows, "@", "3x", a lower-case label with a colon and "msg"/"cal" as the words they stand for', () => {
    expect(noteNotation('Morning run alarm -> Off')).toBe('Morning run alarm: Off');
    expect(noteNotation('Bluebird parcel -> pickup at Elm Kiosk')).toBe('Bluebird parcel, pickup at Elm Kiosk');
    expect(noteNotation('hold: The Glass Orchard @ Dockside Branch')).toBe('Hold The Glass Orchard at Dockside Branch');
    expect(noteNotation('lost: Scarf on Line 9 - Red wool scarf')).toBe('Lost Scarf on Line 9: Red wool scarf');
    expect(noteNotation('2x Miso Bowl from Koi Kitchen')).toBe('2 Miso Bowl from Koi Kitchen');
    expect(noteNotation('msg Ada Brook: Be there at six')).toBe('Message Ada Brook: "Be there at six"');
    expect(noteNotation('cal: Dentist, May 3 @ 09:30')).toBe('Calendar: Dentist, May 3 at 09:30');
    // A label before a count stays a label (a reader's own shape); a sentence is left as it is.
    expect(noteNotation('cart: 2 x Miso Bowl (Koi Kitchen)')).toBe('cart: 2 Miso Bowl (Koi Kitchen)');
    expect(noteNotation('Please book the 7 PM slot at Koi Kitchen.')).toBe('Please book the 7 PM slot at Koi Kitchen.');
  });

  it('plans what the notation asks', () => {
    expect(goalTexts('Morning run alarm -> Off')).toEqual(['open Clock', 'switch Morning run off']);
    expect(goalTexts('msg Ada Brook: Be there at six')).toEqual(['open Messages', 'start a new chat', 'type Ada Brook in To', 'choose Ada Brook', 'type the message', 'send it']);
    expect(goalTexts('cal: Dentist, May 3 @ 09:30')).toEqual(['open Calendar', 'tap New event', 'type the title Dentist', 'choose May', 'choose day 3', 'choose 09:30', 'save the event']);
    expect(goalTexts('lost: Scarf on Line 9 - Red wool scarf')).toContain('tap Lost');
  });
});
