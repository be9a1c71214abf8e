import { describe, expect, it } from 'vitest';
import { buildTextChannelRequest, parseChannelVerdict } from '../../critics/trajectory-critic.js';
import { trajectoryTextCriticRole } from '../../models/reference/roles/critics.js';
import { closedOverlay, groundEntities, type Screen } from '../../models/reference/roles/critic-screen.js';
import { offeredAction } from '../../models/reference/roles/evidence.js';
import { pastForms, reportedResult, requestVerb } from '../../models/reference/roles/reported-result.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { roleModel } from './fake-model.js';

type StepLine = { summary: string; actionText: string };
/** The reference text channel's verdict on a trajectory given as step lines and screen captions (final last). */
async function textVerdict(instruction: string, steps: StepLine[], captions: string[]) {
  const request = buildTextChannelRequest({ instruction, steps, captions, outcome: 'success' });
  const { response } = await roleModel(trajectoryTextCriticRole, {} as OcrEngine).complete(request);
  const parsed = parseChannelVerdict(response.choices[0]!.message, 'text');
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.verdict;
}

describe('a result line in the app\'s own words (reported-result.ts)', () => {
  it('reads the request verb with its particle, through courtesy frames', () => {
    expect(requestVerb('Check out Dune Messiah for me.')).toBe('check out');
    expect(requestVerb('Could you please rent the Blue Kayak at Lakeside?')).toBe('rent');
    expect(requestVerb("I'm in a rush. Extend my loan of Circe, thanks!")).toBe('extend');
    expect(requestVerb('')).toBeUndefined();
  });

  it('forms the past tense by English morphology, irregular verbs included', () => {
    expect(pastForms('rent')).toEqual(['rented']);
    expect(pastForms('renew')).toEqual(['renewed']);
    expect(pastForms('reserve')).toEqual(['reserved']);
    expect(pastForms('cancel')).toEqual(expect.arrayContaining(['canceled', 'cancelled']));
    expect(pastForms('carry')).toEqual(['carried']);
    expect(pastForms('send')).toEqual(['sent']);
  });

  const base = { earlier: ['Boats | Blue Kayak | Red Canoe | Rent'], finalLines: ['My rentals', 'Blue Kayak', 'Pier 3', 'Kayak rented'] };

  it('accepts a new line reporting the verb (or a synonym) in the past tense with every named thing on the final screen', () => {
    expect(reportedResult({ instruction: 'Rent the Blue Kayak.', entities: ['Blue Kayak'], ...base })).toEqual({ line: 'Kayak rented', verb: 'rent' });
    // A synonym: the button that carries out "check out" is often "Borrow", its result "… borrowed".
    expect(
      reportedResult({ instruction: 'Check out Moby Dick.', entities: ['Moby Dick'], earlier: ['Moby Dick | Borrow'], finalLines: ['Moby Dick', 'Item borrowed'] }),
    ).toEqual({ line: 'Item borrowed', verb: 'borrow' });
    // A multi-word synonym needs all its words: "Hold placed" reports "place hold", "Order placed" does not.
    const hold = { instruction: 'Reserve Moby Dick for pickup at Dock Street.', entities: ['Moby Dick', 'Dock Street'], earlier: ['Moby Dick | Place hold'] };
    expect(reportedResult({ ...hold, finalLines: ['Moby Dick', 'Pickup at Dock Street', 'Hold placed'] })?.verb).toBe('place hold');
    expect(reportedResult({ ...hold, finalLines: ['Moby Dick', 'Pickup at Dock Street', 'Order placed'] })).toBeUndefined();
  });

  it('rejects a missing named thing, an old line, a pending, asked or negated change, another verb, and a request naming nothing', () => {
    // The value asked for is not on the final screen (another pickup place was kept).
    expect(reportedResult({ instruction: 'Rent the Blue Kayak at Pier 5.', entities: ['Blue Kayak', 'Pier 5'], ...base })).toBeUndefined();
    // The line was there before the episode did anything.
    expect(reportedResult({ instruction: 'Rent the Blue Kayak.', entities: ['Blue Kayak'], ...base, earlier: ['Kayak rented | Blue Kayak'] })).toBeUndefined();
    for (const line of ['Blue Kayak will be rented', 'Rent Blue Kayak?', 'Kayak not rented', 'Could not be rented']) {
      expect(reportedResult({ instruction: 'Rent the Blue Kayak.', entities: ['Blue Kayak'], earlier: [], finalLines: ['Blue Kayak', line] })).toBeUndefined();
    }
    expect(reportedResult({ instruction: 'Rent the Blue Kayak.', entities: ['Blue Kayak'], earlier: [], finalLines: ['Blue Kayak', 'Kayak returned'] })).toBeUndefined();
    expect(reportedResult({ instruction: 'Rent something.', entities: [], ...base })).toBeUndefined();
  });
});

describe('trajectory text channel: the app reports the result in its own words', () => {
  const steps = [
    { summary: 'Opened "Boats"; the screen now shows "Blue Kayak".', actionText: '{"action":"open","text":"Boats"}' },
    { summary: 'Tapped "Blue Kayak"; the screen now shows "Rent".', actionText: '{"action":"click","coordinate":[80,167]}' },
    { summary: 'Tapped "Rent", a control that advances the task.', actionText: '{"action":"click","coordinate":[200,600]}' },
    { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
  ];
  const verdict = (instruction: string, finalCaption: string) =>
    textVerdict(instruction, steps, ['Home | Boats | Weather', 'Boats | Blue Kayak | Red Canoe', 'Blue Kayak | Rent', finalCaption]);

  it(`accepts the app's result line when the verb was read as another intent ("reserve" as a booking, "check out" as an order)`, async () => {
    // "Reserve" reads as a booking (no "Booked"/"Confirmed" here): the app's "… placed" hold line decides.
    const held = await verdict('Reserve the Blue Kayak in Boats.', 'My holds | Blue Kayak | Hold placed');
    expect(held.reason).toMatch(/newly reports "Hold placed"/);
    expect(held.correct).toBe(true);
    // "Check out" reads as an order (no "Order placed" here): the app's "… borrowed" line decides.
    const borrowed = await verdict('Check out the Blue Kayak in Boats.', 'My rentals | Blue Kayak | Kayak borrowed');
    expect(borrowed.reason).toMatch(/newly reports "Kayak borrowed"/);
    expect(borrowed.correct).toBe(true);
  });

  it('still rejects a final screen without the item, or without a result line', async () => {
    expect((await verdict('Reserve the Blue Kayak in Boats.', 'My holds | Red Canoe | Hold placed')).correct).toBe(false);
    expect((await verdict('Reserve the Blue Kayak in Boats.', 'My holds | Blue Kayak | Order placed')).correct).toBe(false);
    expect((await verdict('Check out the Blue Kayak in Boats.', 'Blue Kayak | Rent')).correct).toBe(false);
  });
});

describe('screen grounding of what the request names', () => {
  it('drops a leading verb the entity reader took for part of a name, only when the screens show the rest and never the whole', () => {
    expect(groundEntities('Rent Blue Kayak at Pier 3.', ['Rent Blue Kayak', 'Pier 3'], ['Boats', 'Blue Kayak', 'Pier 3'])).toEqual(['Blue Kayak', 'Pier 3']);
    // A name the screens show whole stays whole ("Sushi Zen's menu" is a place, not a verb and a thing).
    expect(groundEntities("Sushi Zen's menu.", ['Sushi Zen'], ['Sushi Zen', 'Zen Garden'])).toEqual(['Sushi Zen']);
    // Nothing shows the rest either: no evidence, the reading stands.
    expect(groundEntities('Rent Blue Kayak.', ['Rent Blue Kayak'], ['Boats', 'Red Canoe'])).toEqual(['Rent Blue Kayak']);
  });

  const screen = (...texts: string[]): Screen => ({
    lines: texts.map((text, i) => ({ text, confidence: 1, box: { x: 10, y: 40 * i, w: 100, h: 20 } })),
    text: texts.join('\n'),
  });
  it('tells a closed dialog (the page beneath stays) from leaving the page', () => {
    const page = ['Place hold', 'Moby Dick', 'Pickup place', 'Dock Street'];
    const withPicker = screen(...page, 'Pickup place', 'Dock Street', 'Harbour Road', 'Cancel');
    expect(closedOverlay(withPicker, screen(...page, 'Confirm hold'))).toBe(true);
    // Back to another page: mostly new lines.
    expect(closedOverlay(screen(...page, 'Confirm hold'), screen('Catalog', 'Search', 'Moby Dick', 'Available', 'Ulysses', 'Available'))).toBe(false);
    // Nothing closed.
    expect(closedOverlay(screen(...page), screen(...page))).toBe(false);
  });
});

describe('the count on the result screen', () => {
  it('a counted line of the named item with another count than asked is failure evidence', async () => {
    const { quantityMismatch } = await import('../../models/reference/roles/evidence.js');
    const lines = ['Order placed', '1 x Caesar Salad', '1 x Falafel Wrap', 'Total'];
    expect(quantityMismatch('Order 3 Falafel Wrap from Green Bowl.', lines)).toEqual({ entity: 'Falafel Wrap', asked: 3, seen: '1 x Falafel Wrap' });
    expect(quantityMismatch('Order 1 Falafel Wrap from Green Bowl.', lines)).toBeUndefined();
    expect(quantityMismatch('Order me 2 of the Blue Kayak Lite.', ['2 × Blue Kayak Lite'])).toBeUndefined();
    // Other numbers (an address, a time) are not counts of a listed item.
    expect(quantityMismatch('Deliver to 12 Baker Street.', ['1 x Falafel Wrap', 'Baker Street'])).toBeUndefined();
  });
});

describe('a counted or added item on the result screen (evidence.ts), on an invented seed shop', () => {
  const menu = ['Seed Barn', 'Tomato Seeds', 'Heirloom mix', '$3.25', 'Add', 'Basil Seeds', 'Sweet Genovese', '$2.10', 'Add'];
  it('a result line priced at the unit price holds one item, whatever was asked', async () => {
    const { unitPriceForCount } = await import('../../models/reference/roles/evidence.js');
    const basketOne = ['Basket', 'Tomato Seeds', 'Seed Barn', '$3.25', 'Basil Seeds', 'Seed Barn', '$2.10', 'Total'];
    expect(unitPriceForCount('Put 2 Basil Seeds from Seed Barn in my basket.', [menu], basketOne)).toEqual({
      entity: 'Basil Seeds',
      asked: 2,
      seen: 'Basil Seeds at 2.10, its unit price',
    });
    // Two of them: the line costs twice the unit price.
    expect(unitPriceForCount('Put 2 Basil Seeds from Seed Barn in my basket.', [menu], ['Basket', 'Basil Seeds', 'Seed Barn', '$4.20'])).toBeUndefined();
    // One asked, or no earlier price to compare with: no evidence either way.
    expect(unitPriceForCount('Put 1 Basil Seeds from Seed Barn in my basket.', [menu], basketOne)).toBeUndefined();
    expect(unitPriceForCount('Put 2 Basil Seeds from Seed Barn in my basket.', [['Seed Barn']], basketOne)).toBeUndefined();
  });

  it('an item an earlier screen showed but the result screen does not list was not added', async () => {
    const { namedItemsMissingFromResult } = await import('../../models/reference/roles/evidence.js');
    const earlier = [menu.join(' | ')];
    expect(namedItemsMissingFromResult(['3', 'Basil Seeds', 'Seed Barn'], earlier, 'Basket\nTomato Seeds\nSeed Barn\n$3.25')).toEqual(['Basil Seeds']);
    expect(namedItemsMissingFromResult(['3', 'Basil Seeds', 'Seed Barn'], earlier, 'Basket\nBasil Seeds\nSeed Barn\n$6.30')).toEqual([]);
    // Never seen anywhere: not evidence of another item taken (the reading may simply be off).
    expect(namedItemsMissingFromResult(['Mint Seeds'], earlier, 'Basket\nTomato Seeds')).toEqual([]);
  });

  it('the text channel rejects a basket holding another item, or the named one at its unit price', async () => {
    const steps = [
      { summary: 'Opened "Seed Barn"; the screen now shows "Tomato Seeds".', actionText: '{"action":"open","text":"Seed Barn"}' },
      { summary: 'Tapped "Add"; the screen now shows "View basket · 2 items".', actionText: '{"action":"click","coordinate":[380,200]}' },
      { summary: 'Tapped "View basket · 2 items"; the screen now shows "Your basket".', actionText: '{"action":"click","coordinate":[200,800]}' },
      { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
    ];
    const verdict = (instruction: string, finalCaption: string) =>
      textVerdict(instruction, steps, ['Home | Seed Barn', menu.join(' | '), `${menu.join(' | ')} | View basket · 2 items`, finalCaption]);
    const ask = 'Put 2 Basil Seeds from Seed Barn in my basket, but do not check out yet.';
    const other = await verdict(ask, 'Your basket | Tomato Seeds | Seed Barn | $3.25 | Tomato Seeds | Seed Barn | $3.25 | Total');
    expect(other.reason).toMatch(/does not list "Basil Seeds"/);
    expect(other.correct).toBe(false);
    const one = await verdict(ask, 'Your basket | Tomato Seeds | Seed Barn | $3.25 | Basil Seeds | Seed Barn | $2.10 | Total');
    expect(one.reason).toMatch(/Basil Seeds at 2\.10, its unit/);
    expect(one.correct).toBe(false);
    // The asked count, at twice the unit price: accepted.
    const two = await verdict(ask, 'Your basket | Basil Seeds | Seed Barn | $4.20 | Total');
    expect(two.correct).toBe(true);
  });
});

describe('a confirmation left open on the final screen', () => {
  it('is not a completed request, though the page names the item and was reached by acting on it', async () => {
    const steps = [
      { summary: 'Opened "Boats"; the screen now shows "Catalog".', actionText: '{"action":"open","text":"Boats"}' },
      { summary: 'Tapped "Blue Kayak"; the screen now shows "Hire".', actionText: '{"action":"click","coordinate":[80,167]}' },
      { summary: 'Tapped "Hire"; the screen now shows "Hire this boat?".', actionText: '{"action":"click","coordinate":[200,600]}' },
      { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
    ];
    const verdict = (finalCaption: string) =>
      textVerdict('Hire Blue Kayak from the boat shed.', steps, ['Home | Boats', 'Catalog | Blue Kayak', 'Blue Kayak | Hire', finalCaption]);
    const open = await verdict('Blue Kayak | Hire | Hire this boat? | Cancel | Hire');
    expect(open.reason).toMatch(/awaits confirmation/);
    expect(open.correct).toBe(false);
    // The same page without the dialog, its "Hire" button still offered: the hire was not made.
    const offered = await verdict('Blue Kayak | Hire | Available');
    expect(offered.reason).toMatch(/still offers "Hire"/);
    expect(offered.correct).toBe(false);
    // The page reached once the action is taken reads as done.
    expect((await verdict('Blue Kayak | Return | On hire until Jun 9')).correct).toBe(true);
  });
});

describe('trajectory text channel: a preference and a switch named "for" a thing (issue 17, invented app)', () => {
  const steps = [
    { summary: 'Opened "Depot"; the screen now shows "My depot".', actionText: '{"action":"open","text":"Depot"}' },
    { summary: 'Tapped "Harbor Point", a control that advances the task.', actionText: '{"action":"click","coordinate":[120,400]}' },
    { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
  ];
  it('"Make X my preferred <setting>" is the setting taking the value X, not a new record', async () => {
    const ok = await textVerdict('Make Harbor Point my preferred pickup depot.', steps, ['Home | Depot', 'My depot | Preferred pickup depot | Elm Yard', 'My depot | Preferred pickup depot | Harbor Point | Preferred depot updated']);
    expect(ok.reason).toMatch(/set to "Harbor Point"/);
    expect(ok.correct).toBe(true);
    const other = await textVerdict('Make Harbor Point my preferred pickup depot.', steps, ['Home | Depot', 'My depot | Preferred pickup depot | Elm Yard', 'My depot | Preferred pickup depot | Elm Yard']);
    expect(other.correct).toBe(false);
  });

  it('a request ending in a switch position is a switch, not the setting "for" it set to a value', async () => {
    const v = await textVerdict('Turn the nightly alert for Vitamin D3 1000 IU On.', steps, ['Home | Depot', 'Alerts | Vitamin D3 1000 IU', 'Alerts | Vitamin D3 1000 IU']);
    expect(v.reason).not.toMatch(/set to/);
    // (Also with the app after the position: "… to Off in my depot app?")
    const w = await textVerdict('Can you set the nightly alert for Vitamin D3 1000 IU to Off in my depot app?', steps, ['Home | Depot', 'Alerts | Vitamin D3 1000 IU', 'Alerts | Vitamin D3 1000 IU']);
    expect(w.reason).not.toMatch(/set to/);
  });
});

describe('trajectory text channel: "Make X one of my favourites" stays a favourite request', () => {
  it('is not read as a preference taking the value X', async () => {
    const steps = [{ summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' }];
    const v = await textVerdict('Make Ana Lind one of my favourite contacts.', steps, ['Contacts | Ana Lind', 'Ana Lind | Remove from favourites']);
    expect(v.reason).not.toMatch(/set to/);
  });
});

describe('results that are not this request\'s (issue 17, after the HomeHub and Transit first contacts)', () => {
  it('a past-tense line under a page that still offers the verb reports an earlier time, not this request', async () => {
    const steps = [
      { summary: 'Opened "Keyper"; the screen now shows "Doors".', actionText: 'open Keyper' },
      { summary: 'Tapped "Shed Door"; the screen now shows "Shed Door".', actionText: 'click' },
    ];
    const captions = ['Doors | Shed Door | Locked | Back Gate | Locked', 'Shed Door | Locked | Unlock | HISTORY | Unlocked by Sam | Today, 8:09 AM'];
    const v = await textVerdict('Unlock the Shed Door.', steps, captions);
    expect(v.correct).toBe(false);
    expect(v.reason).toMatch(/still offers "Unlock"/);
  });

  it('a thing that can be done again still offers the verb: the report right after tapping that very control is this request\'s', async () => {
    const steps = [
      { summary: 'Opened "Shelfie"; the screen now shows "Shelf".', actionText: 'open Shelfie' },
      { summary: 'Tapped "The Long Walk"; the screen now shows "Loan".', actionText: 'click' },
      { summary: 'Tapped "Extend"; the screen now shows "Extended until May 3".', actionText: 'click' },
    ];
    const captions = ['Shelf | The Long Walk | Due Apr 19', 'Loan | The Long Walk | Due Apr 19 | Extend | Return', 'Loan | The Long Walk | Due May 3 · extended 1x | Extend | Return | Extended until May 3'];
    const v = await textVerdict('Extend my loan of The Long Walk.', steps, captions);
    expect(v.correct).toBe(true);
    // The same screens without the step that tapped it: an earlier time's report.
    const w = await textVerdict('Extend my loan of The Long Walk.', steps.slice(0, 2), [captions[0]!, captions[2]!]);
    expect(w.correct).toBe(false);
  });

  it('the control tapped earlier in the flow (a value chosen behind it, then confirmed) still offered after the report is this request\'s', async () => {
    const steps = [
      { summary: 'Opened "Shelfie"; the screen now shows "Shelf".', actionText: 'open Shelfie' },
      { summary: 'Tapped "The Long Walk"; the screen now shows "Loan".', actionText: 'click' },
      { summary: 'Tapped "Extend"; the screen now shows "How long?".', actionText: 'click' },
      { summary: 'Tapped "2 weeks"; the screen now shows "2 weeks".', actionText: 'click' },
      { summary: 'Tapped "Confirm"; the screen now shows "Extended until May 3".', actionText: 'click' },
    ];
    const captions = [
      'Shelf | The Long Walk | Due Apr 19',
      'Loan | The Long Walk | Due Apr 19 | Extend | Return',
      'How long? | 1 week | 2 weeks | Confirm',
      'How long? | 1 week | 2 weeks | Confirm',
      'Loan | The Long Walk | Due May 3 · extended by 2 weeks | Extend | Return | Extended until May 3',
    ];
    const ok = await textVerdict('Extend my loan of The Long Walk by 2 weeks.', steps, captions);
    expect(ok).toMatchObject({ correct: true });
    // Never tapped: an earlier time's report.
    const never = steps.filter((s) => !/"Extend"/.test(s.summary));
    expect(await textVerdict('Extend my loan of The Long Walk by 2 weeks.', never, [captions[0]!, captions[1]!, captions[3]!, captions[4]!])).toMatchObject({ correct: false });
  });

  it('a form that asks for a value after its button was tapped refused the submission', async () => {
    const steps = [
      { summary: 'Tapped "Report a station fault"; the screen now shows "Report a station fault".', actionText: 'click' },
      { summary: 'Typed "Cracked screen"; the screen now shows "Cracked screen".', actionText: 'type' },
      { summary: 'Tapped "North Gate"; the screen now shows "North Gate".', actionText: 'click' },
      { summary: 'Tapped "Send"; the screen now shows "Enter a phone number".', actionText: 'click' },
    ];
    const captions = [
      'Help | Report a station fault | Opening hours',
      'Report a station fault | Where did it happen? | Choose a station | Details | Send',
      'Report a station fault | Where did it happen? | North Gate | Details | Cracked screen | Enter a phone number | Send',
    ];
    const v = await textVerdict('Report a fault at North Gate: Cracked screen', steps, captions);
    expect(v.correct).toBe(false);
    expect(v.reason).toMatch(/asks "Enter a phone number": the form was not accepted/);
    // Without the refusal line the same trajectory is accepted (so the rule above is what decides).
    const ok = await textVerdict('Report a fault at North Gate: Cracked screen', steps, [...captions.slice(0, 2), 'Report a station fault | Where did it happen? | North Gate | Details | Cracked screen | Send']);
    expect(ok.correct).toBe(true);
  });
});

describe("a switch on its thing's own page, and irregular reports", () => {
  it('reads the switch the request\'s own words name on the page of the thing ("Service alerts" of a line), by its written state', async () => {
    const steps = [
      { summary: 'Tapped "Harbor Ferry"; the screen now shows "Harbor Ferry".', actionText: 'click' },
      { summary: 'Tapped "Delay alerts"; the screen now shows "Delay alerts off".', actionText: 'click' },
    ];
    const page = 'Harbor Ferry | Harbor Ferry | Pier 1 - Island | NOTIFICATIONS | Delay alerts | Delays and cancellations on this route';
    const off = await textVerdict('Switch the Harbor Ferry delay alerts off.', steps, ['Ferries | Harbor Ferry | Island Ferry', page, `${page} | Delay alerts off`]);
    expect(off.correct).toBe(true);
    expect(off.reason).toMatch(/shows "delay alerts? off" on the page of "Harbor Ferry"/);
    const on = await textVerdict('Switch the Harbor Ferry delay alerts off.', steps, ['Ferries | Harbor Ferry | Island Ferry', page, `${page} | Delay alerts on`]);
    expect(on.correct).toBe(false);
  });

  it('a line ending in an irregular participle ("Claim sent") reports, it offers nothing', async () => {
    const steps = [
      { summary: 'Tapped "File a claim"; the screen now shows "File a claim".', actionText: 'click' },
      { summary: 'Typed "Dented bumper"; the screen now shows "Dented bumper".', actionText: 'type' },
      { summary: 'Tapped "Submit claim"; the screen now shows "Claim sent".', actionText: 'click' },
    ];
    const v = await textVerdict('File a claim for Car 2: Dented bumper', steps, ['Home | File a claim', 'File a claim | Vehicle | Car 2 | Details | Submit claim', 'Claim sent | Case 4411 | Car 2 | Dented bumper | Done']);
    expect(v.reason).not.toMatch(/still offers "Claim sent"/);
  });
});

describe('an order that lists another item', () => {
  it('a result whose counted item lines name none of the requested things ordered something else', async () => {
    const steps = [
      { summary: 'Tapped "Luigi\'s"; the screen now shows "Luigi\'s".', actionText: 'click' },
      { summary: 'Tapped "Add"; the screen now shows "View cart · 1 item".', actionText: 'click' },
      { summary: 'Tapped "Place order"; the screen now shows "Order placed".', actionText: 'click' },
    ];
    const menu = "Luigi's | Lasagne | Add | $12.00 | Panna Cotta | Add | $6.50";
    const wrong = await textVerdict("Order 1 Panna Cotta from Luigi's.", steps, ['Home | Luigi\'s', menu, `${menu} | View cart · 1 item`, 'Order placed | Order #12 | 1 x Lasagne | Total $12.00']);
    expect(wrong.correct).toBe(false);
    expect(wrong.reason).toMatch(/lists "1 x Lasagne", none of the requested items/);
    const right = await textVerdict("Order 1 Panna Cotta from Luigi's.", steps, ['Home | Luigi\'s', menu, `${menu} | View cart · 1 item`, 'Order placed | Order #12 | 1 x Panna Cotta | Total $6.50']);
    expect(right.correct).toBe(true);
  });
});

describe('a result reported after a context sentence, in other words (reported-result.ts, evidence.ts)', () => {
  it('reads the verb of the request sentence, not the first word of the context before it', () => {
    expect(requestVerb("Ava has been asking for the Deep end session, and it's on on Wednesday. Could you switch that day's swim lesson in Kidsport?")).toBe('switch');
  });

  it('"Swim lesson updated" reports a switch; a line with another verb does not', () => {
    const base = { instruction: "Ava has been asking for the Deep end session. Could you switch Wednesday's swim lesson in Kidsport?", entities: ['Deep end session'], earlier: ['Swim lessons | Wednesday | Pool B'] };
    expect(reportedResult({ ...base, finalLines: ['Swim lessons', 'Swim lesson updated', "Ava's Wednesday lesson: Deep end session"] })?.line).toBe('Swim lesson updated');
    expect(reportedResult({ ...base, finalLines: ['Swim lessons', 'Swim lesson viewed', 'Deep end session'] })).toBeUndefined();
  });

  it('a "+ Report" button beside the list of reports offers nothing pending; a plain "Report" button still does', () => {
    expect(offeredAction('Report Ava absent on Wednesday', ['Absences', 'Absence reported', 'Ava Reyes · Wednesday', '+ Report'])).toBeUndefined();
    expect(offeredAction('Report Ava absent on Wednesday', ['Who is off?', 'Ava Reyes', 'Report'])).toBe('Report');
  });
});

describe('a chooser the last step opened, left on the final screen', () => {
  it('is no completed request, whatever status its rows show ("Added" beside another board)', async () => {
    const steps = [
      { summary: 'Opened "Cookly"; the screen now shows "Recipes".', actionText: '{"action":"open","text":"Cookly"}' },
      { summary: 'Tapped "Lemon Tart"; the screen now shows "Ana Ruiz".', actionText: '{"action":"click","coordinate":[80,167]}' },
      { summary: 'Tapped "Add to board"; the screen now shows "+ New board".', actionText: '{"action":"click","coordinate":[200,600]}' },
      { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
    ];
    const chooser = await textVerdict('Add Lemon Tart by Ana Ruiz to my Weekend Bakes board in Cookly.', steps, [
      'Home | Cookly',
      'Recipes | Lemon Tart | Ana Ruiz',
      'Lemon Tart | Ana Ruiz | Add to board',
      '9:41 | Add to board | Lemon Tart | Ana Ruiz | + New board | YOUR BOARDS | Party Food | Added | Weekend Bakes | 4 recipes',
    ]);
    expect(chooser.correct).toBe(false);
    expect(chooser.reason).toMatch(/chooser/);
  });
});
