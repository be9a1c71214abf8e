import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { buildTextChannelRequest, parseChannelVerdict } from '../../critics/trajectory-critic.js';
import { trajectoryTextCriticRole } from '../../models/reference/roles/critics.js';
import { nearDuplicateOnResult, offeredAction, screenChange, unsubmittedForm } from '../../models/reference/roles/evidence.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { roleModel } from './fake-model.js';

describe('an action still offered on the final screen', () => {
  it("a button that starts with the request's own verb means the action was not taken; look-only verbs and questions do not count", () => {
    // An invented utility app: the detail page of the thing, with its action button untouched.
    expect(offeredAction('Settle my Harbor Gas invoice', ['Harbor Gas', 'Amount due', '$12.40', 'Settle $12.40'])).toBe('Settle $12.40');
    expect(offeredAction('Settle my Harbor Gas invoice', ['Harbor Gas', 'Settled on Jun 3', 'Amount due', '$0.00'])).toBeUndefined();
    // A request to look at a page is done when the page shows, whatever buttons it has.
    expect(offeredAction('Open the Harbor Gas invoice', ['Harbor Gas', 'Open in browser'])).toBeUndefined();
    // A question that repeats the verb is a dialog (another rule's evidence), and a long sentence is no button.
    expect(offeredAction('Settle my Harbor Gas invoice', ['Settle this invoice?', 'Cancel'])).toBeUndefined();
    // The page of submitted requests, titled like the list it shows, offers nothing; the same page with the button does.
    const listed = ['Settle requests', 'SETTLE REQUESTS (1)', 'Harbor Gas', 'Pending', 'Settle requested'];
    expect(offeredAction('Settle my Harbor Gas invoice', listed)).toBeUndefined();
    expect(offeredAction('Settle my Harbor Gas invoice', [...listed, 'Settle now'])).toBe('Settle now');
    expect(offeredAction('Settle my Harbor Gas invoice', ['Settle invoices on time to avoid a late fee'])).toBeUndefined();
  });
});

describe('a form left unsubmitted', () => {
  it("the typed text still in its field above a submit button no step tapped; a result page, a tapped button or a tab is not", () => {
    // An invented claims app: the form filled in, never sent.
    const form = ['File a claim', 'What happened?', 'Dented bumper', 'Photos', 'Add photo', 'Submit claim'];
    expect(unsubmittedForm(['Dented bumper'], ['File a claim'], form)).toBe('Submit claim');
    // Tapped (and refused or kept on screen): another rule's evidence, not this one.
    expect(unsubmittedForm(['Dented bumper'], ['File a claim', 'Submit claim'], form)).toBeUndefined();
    // The result page shows what was typed, and reports the result.
    expect(unsubmittedForm(['Dented bumper'], ['Submit claim'], ['Claim received', 'Dented bumper', 'Submit another claim'])).toBeUndefined();
    expect(unsubmittedForm(['Dented bumper'], [], ['Dented bumper', 'Claim filed', 'Claims', 'Send'])).toBeUndefined();
    // Nothing typed there any more: nothing left unsent.
    expect(unsubmittedForm(['Dented bumper'], [], ['File a claim', 'What happened?', 'Submit claim'])).toBeUndefined();
  });
});

describe('result-screen entities', () => {
  it('a near-duplicate where the named item should be is failure evidence; the item itself, a truncation or a removal-free screen are not', () => {
    expect(nearDuplicateOnResult(['Bacon Burger', 'Burger Place'], ['Your cart', 'Burger Place', '1 × Classic Burger', '$9.99'])).toEqual({
      entity: 'Bacon Burger',
      seen: '1 × Classic Burger',
    });
    expect(nearDuplicateOnResult(['Burger Place'], ['Burger Palace', 'Order placed'])).toEqual({ entity: 'Burger Place', seen: 'Burger Palace' });
    // The item is there (a menu listing its neighbours too): no evidence against it.
    expect(nearDuplicateOnResult(['Bacon Burger'], ['Classic Burger', 'Bacon Burger', 'Add'])).toBeUndefined();
    // A list line cut short is the item, not another one.
    expect(nearDuplicateOnResult(['Call with Grandma'], ['Call with Gra'])).toBeUndefined();
    // Nothing like the item: no evidence either way (a confirmation screen).
    expect(nearDuplicateOnResult(['Bacon Burger'], ['Order placed', 'Thank you'])).toBeUndefined();
    // A sentence sharing the head word is not a near-duplicate of a name (a mail preview line).
    expect(nearDuplicateOnResult(['Project update'], ['Can you update the budget sheet…', 'Sent'])).toBeUndefined();
    // Numbers and very short names are not checked this way.
    expect(nearDuplicateOnResult(['2', 'Mon'], ['3', 'Tue'])).toBeUndefined();
    // A record saved with the sentence's possessive ("… is Ana Lind's number") is not the name; "Ana Lind's menu" is.
    expect(nearDuplicateOnResult(['Ana Lind'], ['Contacts', "Ana Lind's", '555-010-2233'])).toEqual({ entity: 'Ana Lind', seen: "Ana Lind's" });
    expect(nearDuplicateOnResult(['Ana Lind'], ['Contacts', 'Ana Lind', '555-010-2233'])).toBeUndefined();
    expect(nearDuplicateOnResult(['Ana Lind'], ["Ana Lind's notes", 'Saved'])).toBeUndefined();
  });
});

async function png(draw: 'plain' | 'switch'): Promise<Uint8Array> {
  const w = 412;
  const h = 915;
  const rect = draw === 'switch' ? `<rect x="330" y="300" width="52" height="30" rx="15" fill="#1a73e8"/>` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#ffffff"/><rect x="0" y="0" width="${w}" height="40" fill="${draw === 'switch' ? '#000' : '#888'}"/>${rect}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('pixel evidence (multimodal channel)', () => {
  it('first-vs-final comparison sees a change drawn without text, and ignores the status bar', async () => {
    const [a, b] = await Promise.all([png('plain'), png('switch')]);
    const same = await screenChange(a, a);
    const moved = await screenChange(a, b);
    expect(same).toBe(0);
    expect(moved).toBeGreaterThan(0.001);
    expect(moved).toBeLessThan(0.05);
    expect(await screenChange(a, new Uint8Array([1, 2, 3]))).toBeUndefined();
  });
});

describe('trajectory text channel: the item is verified on the result screen', () => {
  const instruction = 'Please put 1 Bacon Burger from Burger Place in my Foodie cart, but do not order yet';
  const steps = [
    { summary: 'Opened "Foodie"; the screen now shows "Restaurants".', actionText: '{"action":"open","text":"Foodie"}' },
    { summary: 'Tapped "Burger Place"; the screen now shows "Menu".', actionText: '{"action":"click","coordinate":[80,167]}' },
    { summary: 'Tapped "Add", a control that advances the task.', actionText: '{"action":"click","coordinate":[360,300]}' },
    { summary: 'Tapped "View cart"; the screen now shows "Your cart".', actionText: '{"action":"click","coordinate":[200,860]}' },
    { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' },
  ];
  const verdict = async (finalCaption: string) => {
    const request = buildTextChannelRequest({
      instruction,
      steps,
      captions: ['Foodie | Burger Place | Burger Palace', 'Burger Place | Menu | Classic Burger | Add | Bacon Burger | Add', 'Burger Place | Menu | Added to cart', 'Burger Place | Menu | View cart (1)', finalCaption, finalCaption],
      outcome: 'success',
    });
    const { response } = await roleModel(trajectoryTextCriticRole, {} as OcrEngine).complete(request);
    const parsed = parseChannelVerdict(response.choices[0]!.message, 'text');
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.verdict;
  };

  it('rejects a cart that holds the near-duplicate, accepts the one that holds the item', async () => {
    const wrong = await verdict('Your cart | Burger Place | 1 × Classic Burger | $9.99 | Go to checkout');
    expect(wrong.correct).toBe(false);
    expect(wrong.reason).toMatch(/Classic Burger.*Bacon Burger.*near-duplicate/);
    const right = await verdict('Your cart | Burger Place | 1 × Bacon Burger | $10.99 | Go to checkout');
    expect(right.reason).not.toMatch(/near-duplicate/);
    expect(right.correct).toBe(true);
  });
});

describe('trajectory text channel: dated lines and withdrawals (an invented app)', () => {
  const judge = async (instruction: string, steps: { summary: string; actionText: string }[], captions: string[]) => {
    const request = buildTextChannelRequest({ instruction, steps, captions, outcome: 'success' });
    const { response } = await roleModel(trajectoryTextCriticRole, {} as OcrEngine).complete(request);
    const parsed = parseChannelVerdict(response.choices[0]!.message, 'text');
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.verdict;
  };
  const done = { summary: 'Terminated with success.', actionText: '{"action":"terminate","status":"success"}' };

  it('a line dated a day or more back ("Posted 3 days ago") is no completion signal; one posted now is', async () => {
    const instruction = 'Post my review of Copperline Tea in Brewly.';
    const steps = [
      { summary: 'Opened "Brewly"; the screen now shows "Reviews".', actionText: '{"action":"open","text":"Brewly"}' },
      { summary: 'Tapped "Copperline Tea"; the screen now shows "Copperline Tea".', actionText: '{"action":"click","coordinate":[120,300]}' },
      done,
    ];
    const old = await judge(instruction, steps, ['Brewly | Reviews | Copperline Tea', 'Copperline Tea | Draft review', 'Copperline Tea | Your review | Posted 3 days ago', 'Copperline Tea | Your review | Posted 3 days ago']);
    expect(old.correct).toBe(false);
    const now = await judge(instruction, steps, ['Brewly | Reviews | Copperline Tea', 'Copperline Tea | Draft review', 'Copperline Tea | Review posted', 'Copperline Tea | Review posted']);
    expect(now.correct).toBe(true);
  });

  it('"pull my membership" asks for a removal: reaching the thing\'s page is not it, the withdrawal is', async () => {
    const instruction = "I'm moving away. Please pull my membership at Harbor Rowing Club in Clubbly.";
    const opened = [
      { summary: 'Opened "Clubbly"; the screen now shows "Clubs".', actionText: '{"action":"open","text":"Clubbly"}' },
      { summary: 'Tapped "Harbor Rowing Club"; the screen now shows "Harbor Rowing Club".', actionText: '{"action":"click","coordinate":[120,300]}' },
    ];
    const page = 'Harbor Rowing Club | Member since 2023 | Withdraw membership';
    const reached = await judge(instruction, [...opened, done], ['Clubbly | Clubs | Harbor Rowing Club', page, page]);
    expect(reached.correct).toBe(false);
    const withdrawn = await judge(
      instruction,
      [...opened, { summary: 'Tapped "Withdraw membership"; the screen now shows "Your clubs".', actionText: '{"action":"click","coordinate":[200,700]}' }, done],
      ['Clubbly | Clubs | Harbor Rowing Club', page, 'Your clubs | Lakeside Tennis', 'Your clubs | Lakeside Tennis'],
    );
    expect(withdrawn.correct).toBe(true);
  });

  it('a request that starts with "Pay" is a payment, whatever detail follows ("… and add a 15% tip"): "Payment sent" completes it', async () => {
    const instruction = 'Pay the Brightwater Plumbing invoice in Fixly with my card ending in 4411 and add a 15% tip.';
    const steps = [
      { summary: 'Opened "Fixly"; the screen now shows "Invoices".', actionText: '{"action":"open","text":"Fixly"}' },
      { summary: 'Tapped "Pay $80.00"; the screen now shows "Invoice payment".', actionText: '{"action":"click","coordinate":[200,700]}' },
      { summary: 'Tapped "Pay now"; the screen now shows "Payment sent".', actionText: '{"action":"click","coordinate":[200,760]}' },
      done,
    ];
    const paid = 'Payment sent | $92.00 to Brightwater Plumbing | Tip $12.00 (15%) | Visa **** 4411';
    const ok = await judge(instruction, steps, ['Fixly | Invoices | Brightwater Plumbing', 'Invoice payment | Brightwater Plumbing | Tip 15% | Visa **** 4411', paid, paid, paid]);
    expect(ok.correct).toBe(true);
    const unpaid = 'Invoice payment | Brightwater Plumbing | Tip $12.00 (15%) | Visa **** 4411 | Pay $92.00';
    const no = await judge(instruction, steps, ['Fixly | Invoices | Brightwater Plumbing', unpaid, unpaid, unpaid, unpaid]);
    expect(no.correct).toBe(false);
  });
});
