import sharp from 'sharp';
import { parsePolicyPrompt } from '../../../agents/gui-owl.js';
import type { MobileAction } from '../../../domain/action.js';
import { RoleInputError } from '../errors.js';
import type { OcrLine, RoleHandler } from '../types.js';
import { noteSource, understandAppTask, type BaseGoal, type Goal } from './policy-tasks.js';
import { requestCore } from './intent.js';
import { detectSwitches, type SwitchBox } from './policy-vision.js';
import { guidanceGoals } from './policy-guidance.js';

export type { BaseGoal, Goal } from './policy-tasks.js';

/**
 * THE REFERENCE POLICY — a documented CPU heuristic standing in for a GUI VLM (it is not one).
 *
 * Information firewall: it reads ONLY the request — the instruction, the history of conclusions and any
 * guidance from the last user message (as written by `buildPolicyRequest`), and the latest screenshot
 * (the last image, a `data:` URL), which it reads with OCR. No environment state, no checker, no app data,
 * nothing from environments/. What it knows about apps is generic: a launcher shows app names; an app's
 * page title sits in the top bar; "Add" buttons and "+" steppers sit on an item's row, right of its name;
 * "View cart"/"Cart", "Go to checkout"/"Checkout", "Place order", "Confirm" are common labels; an input's
 * placeholder or label names it; a cart bar counts its items ("View cart · 2 items").
 *
 * 1. Understanding (`understandTask`): a free-form instruction is read for an intent — order (order/buy/
 *    deliver/pay/an address, unless "do not order") > cart (cart/basket, or add/put an item) > search >
 *    view (menu/see/show/serves) — and named entities: the app ("in/on <App>", "Open <App>", "my <App>
 *    cart"), the place (after from/menu of/what … serves/find/tap/scroll to/type, else the first capitalised
 *    name), item and quantity (digits or number words before a name), address (after deliver(ed)/sent to/
 *    address, or number + words + Street/Road/Avenue/View/…) and payment (pay by/with X, choose X).
 *    `planGoals` turns that into the generic flow: open app → open place (or: search box, type, Enter, tap
 *    the result) → add N item → open the cart → checkout → address → payment → Place order → Confirm,
 *    cut after the step the intent needs. Instructions without an intent or a place, and Guidance lines,
 *    are read as explicit step lists by `parseGoals` (split on `;`, `.`, `then`, commas and `and` where the
 *    next piece starts with a verb; typed as open / tap / add [N] / type T into F / search / pay / place).
 * 2. Progress lives in the conclusions: every conclusion ends with a tag such as `[goal 2/5 done]`,
 *    `[goal 3/5: added 1/2 at 373,570]`, `[goal 4/5: focused]`, `[goal 2/5: scroll 2]`, `[goal 2/5: back 1]`,
 *    `[all goals done: wait]`. Goals are sequential: the current goal follows the highest one tagged done (or
 *    the highest one tagged at all); its sub-state comes from its own tags. Untagged conclusions (another
 *    policy's) count as steps, not progress.
 * 3. Screen state first: when the task's goal state is visible — the place's name as the page title
 *    (view/search), a cart title (cart), "Order placed"/"Order confirmed" (order) — it terminates with
 *    success. Goals the screen shows as done are skipped: a navigation goal whose destination title is up or
 *    whose later targets are visible, an add goal whose quantity the cart bar already counts, a field that
 *    already shows the value. Back on a launcher mid-task, it re-opens the app (twice at most).
 * 4. Per goal: `open` → the app label as OCR spells it (with no app named: a launcher icon named in the
 *    instruction, or one whose name fits the task's topic, e.g. food → "Foodie"). Taps score OCR lines
 *    against the target (normalised: lower-case, alphanumerics; exact 1, containment 0.5–0.9, else
 *    1 − edit ratio capped at 0.9), so a near-duplicate ("Burger Place" for "Burger Palace") loses to the
 *    exact name when both are visible — but is taken when only it is (a realistic trap; the title check
 *    then accepts it too, a false success for the critics to catch). Add: the row's "Add", then its "+" (or
 *    where the "+" replaced the Add button, remembered in the tag) until the count is reached. Type: tap the
 *    field (placeholder/label), type, Enter for searches. Not visible → swipe up (≤ 3), Back (≤ 2), then
 *    `terminate` failure. After the last goal with the goal state not visible: wait once, then failure
 *    (explicit step lists keep the old optimism: wait once, then success). Step budget 4 × goals + 8.
 * 6. Everyday app tasks (policy-tasks.ts, tried before the food-order reading): generic verbs and labels of
 *    phone apps. delete/remove/cancel X → open the app the topic names (alarm → Clock, contact → Contacts,
 *    event/calendar → Calendar, conversation → Messages, note → Notes, email → Mail) → press and hold X
 *    ("press" goal, exact names preferred: a near match is only taken after scrolling twice) → "Delete <noun>" /
 *    "Delete" → confirm "Delete"; archive → hold → "Archive"; pin → open → "Pin" (done if "Unpin" shows);
 *    favourite → hold → "Add to favourites"; turn X on/off → X's row (via the settings section that mentions
 *    X or where phones keep it: Display, Sound, Network, Connected devices, Security) → its switch, whose
 *    state is read from the pixels (policy-vision.ts: grey pill = off, coloured = on), so a switch already in
 *    the wanted state is left alone; set/change X to Y → X's row → its picker → Y, or its +/− stepper until it
 *    shows Y; snooze → Clock → overflow menu (Menu key) → Settings → Snooze length; new note/event/alarm/
 *    contact/message/mail → "+"/"New …"/"Compose"/"Start chat" → labelled fields (label or placeholder:
 *    Title, To, Subject, Compose email, Text message, First name, …; chips and grid cells are found inside
 *    OCR lines that merge a row, "XS S M L XL") → Save/Send; shop view/wishlist/buy → product (via a category
 *    tile its name suggests: tee → T-Shirts, hoodie → Hoodies) → colour, size, Add to cart × quantity → Cart →
 *    Proceed to checkout → address → shipping option → Place order → Confirm. Events in other months are found
 *    by paging with the arrows beside a "Month YYYY" heading; "Load more" is tapped in paged lists.
 *    Cross-app tasks read a value (a 6-digit code, a street address) off the screen of one app and keep it in
 *    the conclusion (`[noted code=482913]`), the only memory, and type it into the other app (`{code}`).
 *    Finishing: a result on screen ("… deleted", "Sent", "Order confirmed", a switch or value now as asked)
 *    ends with success; otherwise wait once, then success (optimistic, as for explicit step lists).
 *    Known gaps: an input that already holds text is appended to, not replaced (the mobile `type` action has
 *    no clear, so editing a phone number fails); 15 steps are tight for buying 3 items.
 * 5. Temperature (`request.temperature`, default 0): at T = 0 everything is argmax and click points are box
 *    centres. At T > 0 the target is sampled by softmax(10 · score / T) among matches (with a "scroll instead"
 *    option when no exact match is visible) and the click point is jittered inside the box, using ctx.random,
 *    so samples really differ (and a jittered "+" can miss: quantity mistakes).
 */

const VERB =
  /^(open|launch|start|tap|click|press|select|choose|pick|go to|navigate to|view|add|enter|type|input|fill|set|search|find|pay|place|checkout|check out|confirm|submit|order|buy|book|switch|turn|apply|use|in the|on the|using)\b/i;

const SUCCESS = [
  'order placed',
  'order confirmed',
  'added to cart',
  'thank you',
  'thanks for your order',
  'success',
  'successfully',
  'booking confirmed',
  'payment successful',
  'saved',
  'sent',
  'completed',
];

const PLACE_ORDER_TARGETS = ['Place order', 'Place your order', 'Checkout', 'Confirm order', 'Confirm', 'Submit', 'Pay now', 'Order now'];
const ADD_BUTTONS = ['add', '+', 'addtocart', 'addtobasket', 'addtobag', 'add item'];

export function parseGoals(instruction: string): BaseGoal[] {
  let text = instruction.replace(/[“”]/g, '"').trim();
  // "... in the Foodie app" anywhere → an `open` goal first.
  const pre: BaseGoal[] = [];
  const app = /,?\s*\b(?:in|on|using|with)\s+(?:the\s+)?([A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2})\s+app(?:lication)?\b,?/.exec(text);
  if (app && !/^(?:open|launch|start)\b/i.test(text)) {
    pre.push({ kind: 'open', target: app[1]!, text: app[0].replace(/^,?\s*|,$/g, '') });
    text = `${text.slice(0, app.index)} ${text.slice(app.index + app[0].length)}`.replace(/\s+/g, ' ').trim();
  }
  const pieces = text
    .split(/\s*(?:;|\.\s+|\.$|,?\s+(?:and\s+)?then\s+|,?\s+after that\s+|,?\s+(?:and\s+)?finally\s+)\s*/i)
    .flatMap((p) => p.split(/\s*,\s*/))
    .flatMap((p) => p.split(/\s+and\s+(?=(?:then\s+)?\S)/i).map((x, i) => (i === 0 ? x : `\u0000${x}`)))
    .map((p) => p.trim())
    .filter(Boolean);
  // Re-join pieces that do not start with a verb to the previous one (e.g. "Fish and Chips", "Main St, Springfield").
  const merged: string[] = [];
  for (const raw of pieces) {
    const joinedByAnd = raw.startsWith('\u0000');
    const p = raw.replace(/^\u0000/, '').replace(/^then\s+/i, '').trim();
    if (merged.length > 0 && !VERB.test(p)) merged[merged.length - 1] += joinedByAnd ? ` and ${p}` : `, ${p}`;
    else merged.push(p);
  }
  return [...pre, ...merged.flatMap(toGoals)];
}

/** "order/buy/get [N] X from Y" expands to: tap Y, add N X, place the order. */
function toGoals(piece: string): BaseGoal[] {
  const m = /^(?:order|buy|get)\s+(?:(\d+|one|two|three|four|five|six|seven|eight|nine|ten|an?)\s+)?(.+?)\s+from\s+(.+)$/i.exec(piece.trim().replace(/[.!]+$/, ''));
  if (m) {
    const q = m[1] ? (/^\d+$/.test(m[1]) ? Number(m[1]) : (NUMBER_WORDS[m[1].toLowerCase()] ?? 1)) : 1;
    return [
      { kind: 'tap', targets: [cleanTarget(m[3]!)], text: `select ${m[3]}` },
      { kind: 'add', target: cleanTarget(m[2]!), qty: q, text: `add ${q} ${m[2]}` },
      { kind: 'tap', targets: PLACE_ORDER_TARGETS, text: 'place the order' },
    ];
  }
  const g = toGoal(piece);
  return g ? [g] : [];
}

function cleanTarget(s: string): string {
  return s
    .replace(/^["']|["']$/g, '')
    .replace(/^(the|a|an|my|your)\s+/i, '')
    .replace(/\s+(button|tab|page|screen|option|icon|link|app|application|item|restaurant|section|category)$/i, '')
    .replace(/["']/g, '')
    .replace(/[.!]+$/, '')
    .trim();
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, a: 1, an: 1 };

function toGoal(piece: string): BaseGoal | undefined {
  const p = piece.trim().replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  if ((m = /^(?:open|launch|start)\s+(?:the\s+)?(.+?)(?:\s+app(?:lication)?)?$/i.exec(p))) return { kind: 'open', target: cleanTarget(m[1]!), text: p };
  if ((m = /^(?:in|on|using)\s+(?:the\s+)?(.+?)\s+app(?:lication)?$/i.exec(p))) return { kind: 'open', target: cleanTarget(m[1]!), text: p };
  if ((m = /^(?:search|look)\s+(?:for\s+)?(.+)$/i.exec(p)))
    return { kind: 'type', field: 'search', value: stripQuotes(m[1]!), submit: true, text: p };
  if ((m = /^add\s+(\d+|one|two|three|four|five|six|seven|eight|nine|ten|an?)\s+(?:x\s+|×\s+)?(.+?)(?:\s+to\s+(?:the\s+|my\s+)?(?:cart|basket|bag|order))?$/i.exec(p))) {
    const n = /^\d+$/.test(m[1]!) ? Number(m[1]) : (NUMBER_WORDS[m[1]!.toLowerCase()] ?? 1);
    return { kind: 'add', target: cleanTarget(m[2]!), qty: Math.max(1, Math.min(n, 20)), text: p };
  }
  if ((m = /^add\s+(.+?)(?:\s+to\s+(?:the\s+|my\s+)?(?:cart|basket|bag|order))?$/i.exec(p))) return { kind: 'add', target: cleanTarget(m[1]!), qty: 1, text: p };
  if ((m = /^(?:set|change)\s+(?:the\s+|my\s+)?(.+?)\s+to\s+(.+)$/i.exec(p)))
    return { kind: 'type', field: fieldWord(m[1]!), value: stripQuotes(m[2]!), submit: false, text: p };
  if ((m = /^(?:enter|type|input|fill in|write)\s+(.+?)\s+(?:in|into)\s+(?:the\s+)?(.+?)(?:\s+field|\s+box)?$/i.exec(p)))
    return { kind: 'type', field: fieldWord(m[2]!), value: stripQuotes(m[1]!), submit: false, text: p };
  if ((m = /^(?:enter|type|input|fill in|write)\s+(.+?)\s+as\s+(?:the\s+|my\s+)?(.+)$/i.exec(p)))
    return { kind: 'type', field: fieldWord(m[2]!), value: stripQuotes(m[1]!), submit: false, text: p };
  if ((m = /^(?:enter|type|input|fill in|write)\s+(?:the\s+|my\s+|a\s+)?((?:delivery\s+|shipping\s+|billing\s+|email\s+|phone\s+|user\s*)?(?:address|name|note|notes|email|phone(?: number)?|comment|message|coupon|promo code|code|instructions|username|password|title|city|zip(?: code)?|postcode))\s*(?::|as|of)?\s+(.+)$/i.exec(p)))
    return { kind: 'type', field: fieldWord(m[1]!), value: stripQuotes(m[2]!), submit: false, text: p };
  if ((m = /^(?:enter|type|input|write)\s+(.+)$/i.exec(p))) return { kind: 'type', field: undefined, value: stripQuotes(m[1]!), submit: false, text: p };
  if (/^(?:place|submit|confirm|complete)\s+(?:the\s+|my\s+)?order$|^check\s*out$|^(?:place|confirm)\s+it$/i.test(p))
    return { kind: 'tap', targets: PLACE_ORDER_TARGETS, text: p };
  if ((m = /^(?:pay|checkout|check out)\s+(?:with|using|by)\s+(.+)$/i.exec(p))) return { kind: 'tap', targets: [cleanTarget(m[1]!)], text: p };
  if ((m = /^(?:choose|select|use|pick)\s+(.+?)\s+(?:as|for)\s+(?:the\s+)?(?:payment|payment method|delivery|shipping)(?:\s+method)?$/i.exec(p)))
    return { kind: 'tap', targets: [cleanTarget(m[1]!)], text: p };
  if ((m = /^(?:tap|click|press|select|choose|pick|go to|navigate to|view|open up|switch to|turn on|turn off|apply|use|book|order|buy|find)\s+(?:on\s+)?(.+)$/i.exec(p)))
    return { kind: 'tap', targets: [cleanTarget(m[1]!)], text: p };
  const bare = cleanTarget(p);
  return bare ? { kind: 'tap', targets: [bare], text: p } : undefined;
}

function stripQuotes(s: string): string {
  return s.trim().replace(/^["'](.*)["']$/s, '$1').replace(/[.]+$/, '').trim();
}

function fieldWord(s: string): string {
  const words = cleanTarget(s).toLowerCase().split(/\s+/);
  return words[words.length - 1] === 'number' && words.length > 1 ? words[words.length - 2]! : (words[words.length - 1] ?? s);
}

// ---------------------------------------------------------------------------------------------------
// Task understanding (free-form instructions)

export type Intent = 'view' | 'search' | 'cart' | 'order';

/** What the policy understood from a free-form instruction (all of it read from the text alone). */
export interface TaskSpec {
  intent: Intent;
  /** App named in the instruction ("in/on Foodie", "Open Foodie", "my Foodie cart"); absent: guessed on the launcher. */
  app?: string;
  /** The place/entity to open (a restaurant, a shop...). */
  place?: string;
  item?: string;
  qty: number;
  address?: string;
  payment?: string;
}

/** A capitalised multi-word name; "and"/"of"/"&" may join capitalised words ("Chicken and Waffles"). */
const NAME = "((?:The\\s+)?[A-Z][\\w'&-]*(?:\\s+(?:(?:and|of|&)\\s+)?[A-Z][\\w'&-]*)*)";
const QTY = '(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|an?)';
const STREET_WORDS =
  'Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place|Pl|Square|Sq|Terrace|View|Close|Crescent|Hill|Row|Parade|Walk|Gardens|Park';
/** "deliver(ed) to / sent to / address" + number + words, or number + words ending in a street word. */
const ADDRESS_AFTER = /\b(?:deliver(?:ed|y)?\s+(?:it\s+)?to|sent\s+to|send\s+(?:it\s+)?to|ship(?:ped)?\s+to|address(?:\s+is)?:?)\s+(\d+[A-Za-z]?\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})/;
const ADDRESS_STREET = new RegExp(`\\b(\\d+[A-Za-z]?\\s+(?:[A-Z][\\w'-]*\\s+){0,3}(?:${STREET_WORDS})\\b)`);
const PAYMENT_RE = /\b(?:pay(?:ing|ment)?(?:\s+method)?\s+(?:by|with|using|in|via|is)\s+(?:a\s+|my\s+|the\s+)?([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)|\b(?:choose|select)\s+([A-Z][\w-]*)(?=\s*(?:[,.;]|and\b|as\b|for\b|to pay\b|$)))/;
const APP_IN = /\b(?:in|on|using|via|inside)\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?=\s+(?:app|application|cart|basket|account)\b|\s*[,.;!?]|\s+(?:to|and|then)\b|\s*$)/;
const APP_OPEN = /(?:^\s*|[,.;]\s*)(?:[Oo]pen|[Ll]aunch|[Ss]tart)\s+(?:the\s+)?([A-Z][\w&'-]*)(?!\s+[A-Z])/;
const PLACE_RES = [
  new RegExp(`\\bfrom\\s+${NAME}`),
  new RegExp(`\\bmenu\\s+(?:of|at|for)\\s+${NAME}`),
  new RegExp(`\\bwhat\\s+${NAME}\\s+(?:serves|offers|has|sells)`),
  new RegExp(`\\b(?:search(?:\\s+for)?|look\\s+up|find|scroll\\s+to|type|tap|open|select|visit)\\s+${NAME}`),
];
/** Words that start a sentence but name nothing. */
const NOT_NAMES = new Set(['i', 'me', 'my', 'show', 'put', 'order', 'get', 'use', 'open', 'tap', 'please', 'find', 'search', 'add', 'go', 'enter', 'choose', 'then', 'buy', 'want', 'see']);
const NUM = (s: string): number => (/^\d+$/.test(s) ? Number(s) : (NUMBER_WORDS[s.toLowerCase()] ?? 1));

/**
 * Understands a free-form task: intent (order > cart > search > view), app, the place to open, item and
 * quantity, address, payment. Returns undefined when no intent word or no place is found (the instruction is
 * then read as an explicit list of steps by `parseGoals`).
 */
export function understandTask(instruction: string): TaskSpec | undefined {
  let text = ` ${instruction.replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim()} `;
  const take = (re: RegExp): string | undefined => {
    const m = re.exec(text);
    const v = m?.slice(1).find((g) => g !== undefined);
    if (!m || v === undefined) return undefined;
    const start = m.index + m[0].indexOf(v);
    text = `${text.slice(0, start)} ${'_'.repeat(3)} ${text.slice(start + v.length)}`;
    return v.replace(/[.,;]+$/, '').trim();
  };
  const address = take(ADDRESS_AFTER) ?? take(ADDRESS_STREET);
  const payment = take(PAYMENT_RE);
  const app = take(APP_IN) ?? take(APP_OPEN);
  const qm = new RegExp(`\\b${QTY}\\s+(?:x\\s+|×\\s+)?${NAME}`).exec(text);
  let item: string | undefined;
  let qty = 1;
  if (qm && !NOT_NAMES.has(qm[2]!.toLowerCase())) {
    qty = Math.max(1, Math.min(20, NUM(qm[1]!)));
    item = take(new RegExp(`\\b(?:${QTY.slice(1, -1)})\\s+(?:x\\s+|×\\s+)?${NAME}`));
  }
  let place: string | undefined;
  for (const re of PLACE_RES) {
    const m = re.exec(text);
    if (m?.[1] && !NOT_NAMES.has(m[1].toLowerCase()) && m[1] !== app) {
      place = m[1];
      break;
    }
  }
  if (!place) {
    // Fallback: the first remaining capitalised name that is not a sentence-starting verb or pronoun.
    for (const m of text.matchAll(new RegExp(NAME, 'g'))) {
      const words = m[1]!.split(/\s+/);
      while (words.length && NOT_NAMES.has(words[0]!.toLowerCase())) words.shift();
      if (words.length && words.join(' ') !== app) {
        place = words.join(' ');
        break;
      }
    }
  }
  const lower = instruction.toLowerCase();
  const notOrdering = /\b(?:do not|don't|dont|not|without|no)\s+(?:\w+\s+)?(?:order|ordering|check\s*out|checking\s*out|buy|pay)\b|\bnot\s+order\b/.test(lower);
  const ordering = !notOrdering && (/\b(?:order|buy|purchase|check\s*out|checkout|get me|deliver(?:ed)?|sent to|pay(?:ing)?)\b/.test(lower) || !!address || !!payment);
  const carting = /\b(?:cart|basket|bag)\b/.test(lower) || (!!item && /\b(?:add|put)\b/.test(lower));
  const intent: Intent | undefined = ordering && item
    ? 'order'
    : carting && item
      ? 'cart'
      : /\bsearch\b/.test(lower)
        ? 'search'
        : /\b(?:menu|see|show|serves|browse|look at)\b/.test(lower)
          ? 'view'
          : undefined;
  if (!intent || !place) return undefined;
  const spec: TaskSpec = { intent, place, qty };
  if (app) spec.app = app;
  if (item) spec.item = item;
  if (address) spec.address = address;
  if (payment) spec.payment = payment;
  return spec;
}

const CART_TARGETS = ['View cart', 'Cart', 'Basket', 'View basket', 'Bag'];
const CHECKOUT_TARGETS = ['Go to checkout', 'Checkout', 'Proceed to checkout', 'Check out'];
const CONFIRM_TARGETS = ['Confirm', 'OK', 'Yes', 'Confirm order'];
/** After checkout the button that places the order ("Checkout" is by then the page title, not a button). */
const PLACE_TARGETS = ['Place order', 'Place your order', 'Order now', 'Pay now', 'Submit order'];
/** Common food words: with no app named, a task about them goes to a food app on the launcher. */
const FOOD_TOPIC =
  /\b(menu|restaurants?|dish|food|eat|meal|serves|dinner|lunch|breakfast|pizzas?|burgers?|sushi|tacos?|curry|noodles?|fries|shakes?|waffles?|pancakes?|chocolate|tea|coffee|soup|salad|rolls?|bowl|bread|lemonade|chicken|beef|lamb|pork|fish|naan|lassi|pho|mochi|edamame|nigiri|burrito|nachos|churros|tiramisu|wrap|cheeseburger|rings|drinks?)\b/i;
const FOOD_APP = /food|eat|meal|dash|grub|menu|deliver|bite|dine/;

/** The goal list for an understood task (generic app knowledge: open → entity → add → cart → checkout → pay → confirm). */
export function planGoals(spec: TaskSpec): BaseGoal[] {
  const goals: BaseGoal[] = [{ kind: 'open', target: spec.app, text: spec.app ? `open ${spec.app}` : 'open the app for this task' }];
  const place = spec.place!;
  const tapPlace: BaseGoal = { kind: 'tap', targets: [place], text: `open ${place}`, entity: true };
  if (spec.intent === 'search') {
    goals.push({ kind: 'type', field: 'search', value: place, submit: true, text: `search for ${place}` }, tapPlace);
    return goals;
  }
  goals.push(tapPlace);
  if (spec.intent === 'view' || !spec.item) return goals;
  goals.push({ kind: 'add', target: spec.item, qty: spec.qty, text: `add ${spec.qty} ${spec.item}` });
  goals.push({ kind: 'tap', targets: CART_TARGETS, text: 'open the cart', nav: ['cart', 'basket', 'bag'] });
  if (spec.intent === 'cart') return goals;
  goals.push({ kind: 'tap', targets: CHECKOUT_TARGETS, text: 'go to checkout', nav: ['checkout'] });
  if (spec.address) goals.push({ kind: 'type', field: 'address', value: spec.address, submit: false, text: `enter the address ${spec.address}` });
  if (spec.payment) goals.push({ kind: 'tap', targets: [spec.payment], text: `pay with ${spec.payment}` });
  goals.push({ kind: 'tap', targets: PLACE_TARGETS, text: 'place the order' });
  goals.push({ kind: 'tap', targets: CONFIRM_TARGETS, text: 'confirm the order' });
  return goals;
}

// ---------------------------------------------------------------------------------------------------
// Progress (from conclusions)

interface Progress {
  /** The first goal not yet done: goals are sequential, so "goal k done" means every goal up to k is done. */
  current: number;
  waitedAfterAll: boolean;
}

interface SubState {
  added: number;
  /** Where the "+" of the item's stepper should be (remembered from the Add tap). */
  plus?: [number, number];
  focused: boolean;
  typed: boolean;
  opened: boolean;
  scrolls: number;
  backs: number;
  reopened: number;
  via: number;
  top: boolean;
  pages: number;
  steps: number;
  more: number;
}

const TAG = /\[goal (\d+)\/(\d+)(?: (done)|: ([^\]]*))?\]\s*$/;

function readProgress(history: string[]): Progress {
  let current = 0;
  let waitedAfterAll = false;
  for (const c of history) {
    if (/\[all goals done: wait\]\s*$/.test(c)) waitedAfterAll = true;
    const m = TAG.exec(c);
    if (m) current = Math.max(current, Number(m[1]) - 1 + (m[3] === 'done' ? 1 : 0));
  }
  return { current, waitedAfterAll };
}

function readSubState(history: string[], goal: number): SubState {
  const p: SubState = { added: 0, focused: false, typed: false, opened: false, scrolls: 0, backs: 0, reopened: 0, via: 0, top: false, pages: 0, steps: 0, more: 0 };
  for (const c of history) {
    const m = TAG.exec(c);
    if (!m || Number(m[1]) - 1 !== goal || m[3] === 'done') continue;
    const state = m[4] ?? '';
    let s: RegExpExecArray | null;
    if ((s = /^added (\d+)(?:\/\d+)?(?: at (\d+),(\d+))?/.exec(state))) {
      p.added = Number(s[1]);
      if (s[2] && s[3]) p.plus = [Number(s[2]), Number(s[3])];
      p.scrolls = 0;
    } else if (state === 'focused') {
      p.focused = true;
      p.scrolls = 0;
    } else if (state === 'typed') p.typed = true;
    else if (state === 'opened item') p.opened = true;
    else if ((s = /^scroll (\d+)/.exec(state))) p.scrolls = Number(s[1]);
    else if ((s = /^back (\d+)/.exec(state))) {
      p.backs = Number(s[1]);
      p.scrolls = 0;
    } else if ((s = /^via (\d+)/.exec(state))) {
      p.via = Number(s[1]);
      p.scrolls = 0;
    } else if ((s = /^page (\d+)/.exec(state))) {
      p.pages = Number(s[1]);
      p.scrolls = 0;
      p.top = false;
    } else if (state === 'top') {
      p.top = true;
    } else if ((s = /^step (\d+)/.exec(state))) p.steps = Number(s[1]);
    else if ((s = /^more (\d+)/.exec(state))) p.more = Number(s[1]);
    else if ((s = /^reopen (\d+)/.exec(state))) {
      p.reopened = Number(s[1]);
      p.scrolls = 0;
    }
  }
  return p;
}

// ---------------------------------------------------------------------------------------------------
// Matching

export function normText(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}+]/gu, '');
}

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Similarity of an OCR line to a target in [0, 1]: exact (after normalisation) 1; containment 0.5..0.9;
 * else 1 − edit ratio, capped at 0.9 so a near-duplicate ("Burger Place") never ties the exact name.
 */
export function matchScore(line: string, target: string): number {
  const l = normText(line);
  const t = normText(target);
  if (!l || !t) return 0;
  if (l === t) return 1;
  const edit = 1 - levenshtein(l, t) / Math.max(l.length, t.length);
  let contain = 0;
  if (l.includes(t)) contain = 0.5 + 0.4 * (t.length / l.length);
  else if (t.includes(l) && l.length >= 4) contain = 0.4 + 0.4 * (l.length / t.length);
  return Math.min(0.9, Math.max(edit, contain));
}

interface Candidate {
  line: OcrLine;
  score: number;
}

function candidates(lines: OcrLine[], targets: string[], min = 0.6): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    // Earlier targets are preferred alternatives ("Place order" over "Checkout").
    const score = Math.max(...targets.map((t, rank) => matchScore(line.text, t) - 0.03 * rank));
    if (score >= min) out.push({ line, score });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** argmax at T = 0; softmax(10·score/T) sample otherwise. `null` entries stand for "do something else". */
function pick<T extends { score: number }>(items: T[], temperature: number, random: () => number): T | undefined {
  if (items.length === 0) return undefined;
  if (temperature <= 0) return items.reduce((a, b) => (b.score > a.score ? b : a));
  const max = Math.max(...items.map((i) => i.score));
  const weights = items.map((i) => Math.exp((10 * (i.score - max)) / temperature));
  const total = weights.reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (const [i, w] of weights.entries()) {
    r -= w;
    if (r <= 0) return items[i];
  }
  return items[items.length - 1];
}

// ---------------------------------------------------------------------------------------------------
// The role

interface Decision {
  thought: string;
  conclusion: string;
  action: MobileAction;
}

/** Largest screenshot decoded (40 Mpx: far above any phone or desktop screen, far below sharp's memory risk). */
const MAX_SCREENSHOT_PIXELS = 40_000_000;

export const policyRole: RoleHandler = async (request, ctx) => {
  const prompt = parsePolicyPrompt(request);
  const last = prompt.screenshots[prompt.screenshots.length - 1];
  if (!last) throw new RoleInputError('the last user message has no screenshot (image_url)', 'messages');
  const bytes = decodeDataUrl(last);
  if (!bytes) throw new RoleInputError('the screenshot must be a base64 data: URL (the reference server fetches nothing)', 'messages');
  let raw: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    // A full decode, bounded in pixels, not only the header: a truncated, empty or oversized image is the
    // caller's error (400), not the server's (500).
    raw = await sharp(bytes, { limitInputPixels: MAX_SCREENSHOT_PIXELS }).raw().toBuffer({ resolveWithObject: true });
  } catch {
    throw new RoleInputError('the screenshot is not a decodable image (truncated, empty, of another type or over 40 Mpx)', 'messages');
  }
  const { width, height } = raw.info;
  if (!width || !height) throw new RoleInputError('the screenshot is not a decodable image', 'messages');
  const lines = await ctx.ocr.recognize(bytes);
  // The one visual cue besides text: on/off switches (policy-vision.ts).
  let switches: SwitchBox[] = [];
  try {
    switches = detectSwitches(raw.data, width, height, raw.info.channels);
  } catch {
    switches = [];
  }
  const temperature = request.temperature ?? 0;
  // Learned memory first (models/reference/memory.ts): a remembered accepted action for this instruction on this
  // screen, re-grounded on the current OCR. At T > 0 it is skipped with probability min(0.5, T/2) so sampling
  // still explores; on a miss the heuristic decides.
  const remembered = ctx.memory && !(temperature > 0 && ctx.random() < Math.min(0.5, temperature / 2))
    ? ctx.memory.lookup(prompt.instruction, lines, { width, height })
    : undefined;
  const d: Decision = remembered
    ? {
        thought: `${remembered.thought ? `${remembered.thought} ` : ''}(Remembered: accepted ${remembered.count}× for this task on this screen, ${remembered.match} match; memory ${ctx.memory!.version}.)`,
        conclusion: remembered.conclusion,
        action: remembered.action,
      }
    : decide({
    instruction: prompt.instruction,
    guidance: prompt.guidance,
    history: prompt.history,
    lines,
    screen: { width, height },
    temperature,
    random: ctx.random,
    switches,
  });
  const call = JSON.stringify({ name: 'mobile_use', arguments: d.action });
  return {
    role: 'assistant',
    content: `Thought: ${d.thought}\nConclusion: ${d.conclusion}\n<tool_call>\n${call}\n</tool_call>`,
    finish_reason: 'stop',
  };
};

function decodeDataUrl(url: string): Buffer | undefined {
  const m = /^data:[^;,]*;base64,(.*)$/s.exec(url);
  return m ? Buffer.from(m[1] ?? '', 'base64') : undefined;
}

export interface DecideInput {
  instruction: string;
  guidance: string[];
  history: string[];
  lines: OcrLine[];
  screen: { width: number; height: number };
  temperature: number;
  random: () => number;
  /** On/off switches seen in the screenshot (policy-vision.ts); absent: none seen. */
  switches?: SwitchBox[];
}

/** Values noted in earlier conclusions ("[noted code=482913]"): the policy's only memory across apps. */
function readNotes(history: string[]): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const c of history) for (const m of c.matchAll(/\[noted (\w+)=([^\]]+)\]/g)) notes[m[1]!] = m[2]!.trim();
  return notes;
}

/** The goal list for an instruction: guidance steps, else an everyday app task, else a food order, else explicit steps. */
export function planTask(raw: string, guidance: string[]): { goals: Goal[]; spec?: TaskSpec; app: boolean } {
  // Guidance hook (issue 18): guidance is read as text by policy-guidance.ts; only imperative lines become goals.
  const guided = guidanceGoals(guidance, parseGoals);
  if (guided.length > 0) return { goals: guided, app: false };
  // The request without courtesy frames and context sentences (intent.ts), so the wording does not change the plan.
  const instruction = requestCore(raw);
  const viaNote = noteSource(instruction);
  if (viaNote) {
    const spec = understandTask(viaNote.rest);
    if (spec && spec.item) {
      spec.intent = 'order';
      spec.address = '{address}';
      const read: Goal[] = [
        { kind: 'open', target: 'Notes', text: 'open Notes' },
        { kind: 'read', what: 'address', source: viaNote.note, text: `read the address in the note ${viaNote.note}` },
      ];
      return { goals: [...read, ...planGoals(spec)], spec, app: false };
    }
  }
  const appGoals = understandAppTask(instruction);
  if (appGoals) return { goals: appGoals, app: true };
  const spec = understandTask(instruction);
  if (spec) return { goals: planGoals(spec), spec, app: false };
  return { goals: parseGoals(instruction), app: false };
}

/** The pure decision procedure (exported for unit tests). */
export function decide(input: DecideInput): Decision {
  const { lines, screen, temperature, random, history } = input;
  const plan = planTask(input.instruction, input.guidance);
  const spec = plan.spec;
  const notes = readNotes(history);
  const fill = (v: string): string => v.replace(/\{(\w+)\}/g, (all, k: string) => notes[k] ?? all);
  const goals = plan.goals.map((g) => (g.kind === 'type' ? { ...g, value: fill(g.value) } : g));
  const switches = input.switches ?? [];
  const n = goals.length;
  const progress = readProgress(history);
  const seen = lines.map((l) => l.text).slice(0, 6).join(' | ');
  const fail = (thought: string, conclusion: string): Decision => ({ thought, conclusion: `${conclusion} [failed]`, action: { action: 'terminate', status: 'failure' } });

  if (n === 0) return fail(`I could not work out any step from the task "${input.instruction}".`, 'Gave up: the task has no recognisable step.');
  if (history.length >= 4 * n + 8) return fail(`I have used ${history.length} steps on a ${n}-step task without finishing.`, 'Gave up after too many steps without finishing.');

  // Screen-state: the goal state of the whole task is visible → done (checked once the last steps are under way).
  const header = headerLines(lines, screen);
  const reached = spec ? goalReached(spec, lines, header) : undefined;
  if (reached && (progress.current >= n - 1 || spec?.intent === 'order')) {
    return { thought: `The screen shows ${reached}: the task "${input.instruction}" is done.`, conclusion: `Task complete: the screen shows ${reached}. [all goals done]`, action: { action: 'terminate', status: 'success' } };
  }

  // Skip goals the screen shows as already done (a later screen is open, the cart already holds the quantity...).
  // The app of the current stretch of goals (a cross-app task opens a second app later).
  const openAt = (i: number): Extract<Goal, { kind: 'open' }> | undefined => {
    let found: Extract<Goal, { kind: 'open' }> | undefined;
    for (const [k, g] of goals.entries()) if (g.kind === 'open' && (k <= i || !found)) found = g;
    return found;
  };
  const labelOf = (g: Extract<Goal, { kind: 'open' }> | undefined): string | undefined =>
    g ? (g.topic ? topicLabel(g.topic, lines) : launcherLabel(g.target, input.instruction, lines, temperature, random)) : undefined;
  let appLabel = labelOf(openAt(progress.current));
  let gi = progress.current;
  // An unnamed app with no fitting launcher icon: assume the right app is already open.
  while (gi < n && (satisfiedOnScreen(goals, gi, lines, header, switches, history, screen) || (goals[gi]!.kind === 'open' && !labelOf(goals[gi] as Extract<Goal, { kind: 'open' }>) && !(goals[gi] as { target?: string }).target))) gi++;
  appLabel = labelOf(openAt(gi)) ?? appLabel;

  if (gi >= n) {
    if (spec) {
      if (!progress.waitedAfterAll) {
        return { thought: `All ${n} steps are done but the screen (${seen}) does not show the expected result yet; waiting.`, conclusion: 'Waited for the result after the last step. [all goals done: wait]', action: { action: 'wait', time: 1 } };
      }
      return fail(`All ${n} steps are done but the screen (${seen}) does not show the result of "${input.instruction}".`, 'Gave up: the expected result never appeared.');
    }
    const last = goals[n - 1]!;
    if (plan.app && (last.kind === 'toggle' || last.kind === 'choose') && satisfiedOnScreen(goals, n - 1, lines, header, switches, history, screen)) {
      return { thought: `The screen shows that "${last.text}" is in effect: the task is done.`, conclusion: `Task complete: ${last.text}. [all goals done]`, action: { action: 'terminate', status: 'success' } };
    }
    const success = lines.find((l) => (plan.app ? [...SUCCESS, ...APP_RESULTS] : SUCCESS).some((s) => normText(l.text).includes(normText(s))));
    if (success) {
      return { thought: `All ${n} steps are done and the screen says "${success.text}".`, conclusion: `Task complete: the screen shows "${success.text}". [all goals done]`, action: { action: 'terminate', status: 'success' } };
    }
    if (!progress.waitedAfterAll) {
      return { thought: `All ${n} steps are done but I see no confirmation yet (screen: ${seen}); waiting for it.`, conclusion: 'Waited for a confirmation after the last step. [all goals done: wait]', action: { action: 'wait', time: 1 } };
    }
    return { thought: `All ${n} steps are done; no explicit confirmation appeared, assuming the task is complete.`, conclusion: 'Finished all steps; assuming success. [all goals done]', action: { action: 'terminate', status: 'success' } };
  }

  const goal = goals[gi]!;
  const sub = readSubState(history, gi);
  const tag = (state: string): string => `[goal ${gi + 1}/${n}${state === 'done' ? ' done' : `: ${state}`}]`;

  const notFound = (what: string): Decision => {
    // Back on the launcher (e.g. after Back from the app's first screen): open the app again, once or twice.
    if (appLabel && goal.kind !== 'open' && sub.reopened < 2 && looksLikeLauncher(lines, screen)) {
      return { thought: `Step ${gi + 1} of ${n}: this is the home screen, not the app; opening ${appLabel} again to look for ${what}.`, conclusion: `Re-opened the ${appLabel} app. ${tag(`reopen ${sub.reopened + 1}`)}`, action: { action: 'open', text: appLabel } };
    }
    // A section that should hold it (a settings section, a shop category): open it first (once).
    const via = 'via' in goal ? goal.via : undefined;
    if (via && sub.via < 1 && sub.scrolls === 0) {
      const v = viaLine(lines, via, screen);
      if (v) {
        return clickOn(v, `Step ${gi + 1} of ${n} ("${goal.text}"): ${what} is not on this screen, but "${v.text}" is the section that should hold it; opening it.`, `Opened "${v.text}" to look for ${what}. ${tag(`via ${sub.via + 1}`)}`);
      }
    }
    // Months page with the arrows beside a "Month YYYY" heading: forward three months, then backwards.
    if ('pager' in goal && goal.pager && sub.pages < 7) {
      const head = lines.find((l) => MONTH_HEADING.test(l.text.trim()));
      // The month's list may run below the fold: look there first, then come back up to the arrows.
      const listEnd = Math.max(0, ...lines.filter((l) => !isHeader(l, screen) && l.box.y < screen.height * 0.88).map((l) => l.box.y + l.box.h));
      const fullyShown = listEnd < screen.height * 0.8;
      if (!head && sub.scrolls >= 1 && !sub.top) {
        const x = Math.round(screen.width / 2);
        return {
          thought: `Step ${gi + 1} of ${n}: ${what} is not in this month's list; scrolling back up to the month arrows.`,
          conclusion: `Swiped down to the top of the month. ${tag('top')}`,
          action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.3)], coordinate2: [x, Math.round(screen.height * 0.85)] },
        };
      }
      if (head && (sub.top || fullyShown || sub.scrolls >= 1)) {
        const forward = sub.pages < 3;
        const arrow = lines.find((l) => Math.abs(l.box.y + l.box.h / 2 - (head.box.y + head.box.h / 2)) < 20 && (forward ? /^[>›»]$/.test(l.text.trim()) : /^[<‹«]$/.test(l.text.trim())));
        const y = Math.round(head.box.y + head.box.h / 2);
        const x = arrow ? Math.round(arrow.box.x + arrow.box.w / 2) : forward ? Math.round(screen.width - 36) : 36;
        return {
          thought: `Step ${gi + 1} of ${n}: ${what} is not listed under "${head.text}"; paging to the ${forward ? 'next' : 'previous'} month.`,
          conclusion: `Tapped the ${forward ? 'next' : 'previous'}-month arrow. ${tag(`page ${sub.pages + 1}`)}`,
          action: { action: 'click', coordinate: [x, y] },
        };
      }
    }
    // A list that loads more on demand.
    const more = lines.find((l) => /^(load|show|see) more$/i.test(l.text.trim()));
    if (more && sub.scrolls >= 1 && sub.more < 3) {
      return clickOn(more, `Step ${gi + 1} of ${n}: ${what} is not listed yet; tapping "${more.text}".`, `Tapped "${more.text}" to look for ${what}. ${tag(`more ${sub.more + 1}`)}`);
    }
    if (sub.backs >= 2) return fail(`Step ${gi + 1} of ${n}: ${what} is nowhere to be found, even after going back twice.`, `Gave up: could not find ${what}.`);
    if (sub.scrolls < 3) {
      const x = Math.round(screen.width / 2);
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): I cannot see ${what} on this screen (${seen}). Scrolling down to look for it.`,
        conclusion: `Swiped up to look for ${what}. ${tag(`scroll ${sub.scrolls + 1}`)}`,
        action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.75)], coordinate2: [x, Math.round(screen.height * 0.3)] },
      };
    }
    return {
      thought: `Step ${gi + 1} of ${n}: scrolled ${sub.scrolls} times without finding ${what}; going back.`,
      conclusion: `Pressed Back after not finding ${what}. ${tag(`back ${sub.backs + 1}`)}`,
      action: { action: 'system_button', button: 'Back' },
    };
  };
  const clickOn = (line: OcrLine, thought: string, conclusion: string): Decision => ({
    thought,
    conclusion,
    action: { action: 'click', coordinate: pointIn(line, screen, temperature, random) },
  });

  switch (goal.kind) {
    case 'open': {
      const name = appLabel ?? goal.target;
      if (!name) {
        // No app named and none on screen fits the task: assume the right app is already open.
        return { thought: `Step ${gi + 1} of ${n}: the task names no app and no launcher icon fits it (screen: ${seen}); assuming the app is already open.`, conclusion: `No app to open; continuing on this screen. ${tag('done')}`, action: { action: 'wait', time: 1 } };
      }
      return {
        thought: `Step ${gi + 1} of ${n}: open the ${name} app${appLabel ? ` (its label "${appLabel}" is visible)` : ''}.`,
        conclusion: `Opened the ${name} app. ${tag('done')}`,
        action: { action: 'open', text: name },
      };
    }
    case 'tap': {
      // Not the page title (in planned tasks: a title names the page, it is no button), and not the query still standing in a search box (the row with a "Search" button).
      const searchRow = lines.filter((l) => /^search$/i.test(l.text.trim()));
      const inSearchBox = (l: OcrLine): boolean => searchRow.some((b) => Math.abs(b.box.y + b.box.h / 2 - (l.box.y + l.box.h / 2)) < 20 && b !== l);
      const min = goal.min ?? 0.6;
      const cands: (Candidate & { scroll?: true })[] = [...candidates(lines, goal.targets, min), ...(min >= 0.95 ? tokenCandidates(lines, goal.targets) : [])]
        .filter((c) => !((goal.nav || spec || goal.entity) && isHeader(c.line, screen)) && !(goal.entity && inSearchBox(c.line)))
        .sort((a, b) => b.score - a.score);
      if (goal.lowest && cands.length > 1) {
        const top = cands[0]!.score;
        const tied = cands.filter((c) => c.score >= top - 0.001).sort((a, b) => b.line.box.y - a.line.box.y);
        cands.splice(0, cands.length, ...tied);
      }
      const best = cands[0];
      if (best && best.score < 0.95 && temperature > 0) cands.push({ line: best.line, score: 0.5, scroll: true });
      const chosen = pick(cands, temperature, random);
      if (!chosen || chosen.scroll) return notFound(`"${goal.targets[0]}"`);
      if (plan.app && goal.entity && chosen.score < 0.95 && sub.scrolls < 2 && sub.backs === 0) return notFound(`"${goal.targets[0]}" (only a near match, "${chosen.line.text}", is visible)`);
      return clickOn(
        chosen.line,
        `Step ${gi + 1} of ${n} ("${goal.text}"): "${chosen.line.text}" best matches "${goal.targets.join('" / "')}" (score ${chosen.score.toFixed(2)}); tapping it.`,
        `Tapped "${chosen.line.text}". ${tag('done')}`,
      );
    }
    case 'add': {
      const isAdd = (l: OcrLine): boolean => ADD_BUTTONS.some((b) => normText(l.text) === normText(b)) || /^add( to (cart|basket|bag))?$/i.test(l.text.trim());
      const buttons = lines.filter(isAdd);
      const pluses = lines.filter((l) => /^\s*\+\s*$/.test(l.text));
      const items = candidates(lines, [goal.target]).filter((c) => !buttons.includes(c.line));
      const item = pick(items, temperature, random);
      const inCart = cartCount(lines);
      const done = Math.max(inCart ?? 0, inCart === undefined ? sub.added : 0);
      const counted = (k: number, at?: [number, number]): string => (k >= goal.qty ? tag('done') : tag(`added ${k}/${goal.qty}${at ? ` at ${at[0]},${at[1]}` : ''}`));
      if (item) {
        // Controls of a list row sit on the same row, right of the name (a little below it: name / description / price).
        const inRow = (b: OcrLine): boolean => {
          const dy = b.box.y + b.box.h / 2 - (item.line.box.y + item.line.box.h / 2);
          return dy >= -15 && dy <= 50 && b.box.x > item.line.box.x + item.line.box.w * 0.5;
        };
        const add = buttons.filter(inRow).sort((a, b) => a.box.y - b.box.y)[0];
        const plus = pluses.filter(inRow)[0];
        if (add && (done === 0 || !plus)) {
          const at: [number, number] = [Math.min(screen.width - 24, Math.round(add.box.x + add.box.w + 2)), Math.round(add.box.y + add.box.h / 2)];
          return clickOn(
            add,
            `Step ${gi + 1} of ${n} ("${goal.text}"): "${item.line.text}" is listed with an "${add.text}" button; tapping it (${done + 1} of ${goal.qty}).`,
            `Tapped "${add.text}" for "${item.line.text}" (${done + 1} of ${goal.qty}). ${counted(done + 1, at)}`,
          );
        }
        const plusLine = plus ?? (sub.plus ? { text: '+', box: { x: sub.plus[0] - 8, y: sub.plus[1] - 10, w: 16, h: 20 }, confidence: 1 } : undefined);
        if (plusLine && done > 0) {
          return clickOn(
            plusLine,
            `Step ${gi + 1} of ${n} ("${goal.text}"): "${item.line.text}" is in the cart ${done} time(s); tapping its "+" stepper (${done + 1} of ${goal.qty}).`,
            `Tapped "+" for "${item.line.text}" (${done + 1} of ${goal.qty}). ${counted(done + 1, sub.plus)}`,
          );
        }
        if (!sub.opened && !add) {
          return clickOn(item.line, `Step ${gi + 1} of ${n}: "${item.line.text}" has no add button next to it; opening it.`, `Opened "${item.line.text}" to add it. ${tag('opened item')}`);
        }
      }
      if (sub.opened) {
        const b = buttons[0] ?? pick(candidates(lines, ['Add to cart', 'Add'], 0.7), temperature, random)?.line;
        if (b) {
          return clickOn(
            b,
            `Step ${gi + 1} of ${n}: on the item, tapping "${b.text}" (${done + 1} of ${goal.qty}).`,
            `Tapped "${b.text}" for "${goal.target}" (${done + 1} of ${goal.qty}). ${counted(done + 1)}`,
          );
        }
      }
      return notFound(`"${goal.target}"`);
    }
    case 'type': {
      if (sub.typed && goal.submit) {
        return { thought: `Step ${gi + 1} of ${n}: typed "${goal.value}"; submitting it.`, conclusion: `Pressed Enter to search for "${goal.value}". ${tag('done')}`, action: { action: 'system_button', button: 'Enter' } };
      }
      if (sub.focused || goal.field === undefined) {
        return {
          thought: `Step ${gi + 1} of ${n}: the ${goal.field ?? 'input'} field is focused; typing "${goal.value}".`,
          conclusion: `Typed "${goal.value}" into the ${goal.field ?? 'focused'} field. ${goal.submit ? tag('typed') : tag('done')}`,
          action: { action: 'type', text: goal.value },
        };
      }
      const field = goal.field;
      const words = goal.words ?? FIELD_WORDS[field] ?? [field];
      const fieldCands = (goal.words ? labelledFields(lines, goal.words, screen) : lines
        .map((line) => {
          const t = normText(line.text);
          let score = Math.max(...words.map((w) => matchScore(line.text, w))) * 0.85;
          // An input's placeholder/label names it ("Search restaurants", "Enter delivery address"); a bare "Search" is the button.
          if (words.some((w) => t.includes(normText(w)) && t.length > normText(w).length)) score = Math.max(score, 0.9 + (/^(enter|type|search|your|add)/.test(t) ? 0.05 : 0));
          return { line, score };
        })
        .filter((c) => c.score >= 0.7 && !isHeader(c.line, screen)));
      const chosen = pick(fieldCands, temperature, random);
      if (!chosen) return notFound(`the ${field} field`);
      return clickOn(
        chosen.line,
        `Step ${gi + 1} of ${n} ("${goal.text}"): the ${field} field is labelled "${chosen.line.text}"; tapping it to focus before typing.`,
        `Tapped the ${field} field "${chosen.line.text}". ${tag('focused')}`,
      );
    }
    case 'menu':
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): app options usually sit in the overflow menu; opening it.`,
        conclusion: `Opened the overflow menu. ${tag('done')}`,
        action: { action: 'system_button', button: 'Menu' },
      };
    case 'read': {
      if (!sub.opened && !header.some((h) => matchScore(h.text, goal.source) >= 0.85)) {
        const src = pick(candidates(lines, [goal.source], 0.75).filter((c) => !isHeader(c.line, screen)), temperature, random);
        if (!src) return notFound(`"${goal.source}"`);
        return clickOn(src.line, `Step ${gi + 1} of ${n} ("${goal.text}"): opening "${src.line.text}" to read the ${goal.what}.`, `Opened "${src.line.text}" to read the ${goal.what}. ${tag('opened item')}`);
      }
      const value = readValue(lines, goal.what);
      if (!value) return notFound(`the ${goal.what}`);
      // History is the only memory: the value is kept in the conclusion. The next goal (another app) is started at once.
      const next = goals[gi + 1];
      const nextApp = next?.kind === 'open' ? next.target : undefined;
      return {
        thought: `Step ${gi + 1} of ${n}: the ${goal.what} on screen is "${value}"; noting it${nextApp ? ` and opening ${nextApp}` : ''}.`,
        conclusion: `Read the ${goal.what} "${value}". [noted ${goal.what}=${value}] ${nextApp ? `[goal ${gi + 2}/${n} done]` : tag('done')}`,
        // No app named for the next part: go to the home screen, where its launcher icon can be found.
        action: nextApp ? { action: 'open', text: nextApp } : { action: 'system_button', button: 'Home' },
      };
    }
    case 'press': {
      const searchRow = lines.filter((l) => /^search$/i.test(l.text.trim()));
      const inSearchBox = (l: OcrLine): boolean => searchRow.some((b) => Math.abs(b.box.y + b.box.h / 2 - (l.box.y + l.box.h / 2)) < 20 && b !== l);
      const cands = candidates(lines, [goal.target], 0.75).filter((c) => !isHeader(c.line, screen) && !inSearchBox(c.line) && !/^results? for/i.test(c.line.text));
      const chosen = pick(cands, temperature, random);
      if (!chosen) return notFound(`"${goal.target}"`);
      if (chosen.score < 0.95 && sub.scrolls < 2 && sub.backs === 0) return notFound(`"${goal.target}" (only a near match, "${chosen.line.text}", is visible)`);
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): "${chosen.line.text}" matches "${goal.target}" (score ${chosen.score.toFixed(2)}); pressing and holding it for its options.`,
        conclusion: `Long-pressed "${chosen.line.text}". ${tag('done')}`,
        action: { action: 'long_press', coordinate: pointIn(chosen.line, screen, temperature, random), time: 1 },
      };
    }
    case 'toggle': {
      const row = pick(rowCandidates(lines, goal.target, screen), temperature, random);
      if (!row) return notFound(`the "${goal.target}" switch`);
      const sw = switchOf(row.line, switches);
      const want = goal.on ? 'on' : 'off';
      const at: [number, number] = sw
        ? [Math.round(sw.x + sw.w / 2), Math.round(sw.y + sw.h / 2)]
        : [Math.round(screen.width - 44), Math.round(row.line.box.y + row.line.box.h / 2)];
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): the row "${row.line.text}" ${sw ? `has a switch that is ${sw.on ? 'on' : 'off'}` : 'has its switch at the right edge'}; tapping it to turn it ${want}.`,
        conclusion: `Tapped the switch of "${row.line.text}" to turn it ${want}. ${tag('done')}`,
        action: { action: 'click', coordinate: at },
      };
    }
    case 'choose': {
      if (sub.opened) {
        const opts = [...candidates(lines, [goal.value], 0.95), ...tokenCandidates(lines, [goal.value])].filter((c) => !isHeader(c.line, screen)).sort((a, b) => b.score - a.score);
        const opt = pick(opts, temperature, random);
        if (opt) return clickOn(opt.line, `Step ${gi + 1} of ${n} ("${goal.text}"): the options are open; choosing "${opt.line.text}".`, `Chose "${opt.line.text}" for ${goal.setting}. ${tag('done')}`);
        if (sub.scrolls < 2) return notFound(`the option "${goal.value}"`);
      }
      const row = pick(rowCandidates(lines, goal.setting, screen), temperature, random);
      if (!row) return notFound(`the "${goal.setting}" setting`);
      const stepper = stepperOf(row.line, lines);
      if (stepper) {
        const want = Number(/\d+/.exec(goal.value)?.[0]);
        const cur = stepper.value;
        if (sub.steps >= 12 || !Number.isFinite(want)) return fail(`Step ${gi + 1} of ${n}: the ${goal.setting} stepper does not reach ${goal.value}.`, `Gave up: could not set ${goal.setting}.`);
        const up = cur === undefined || want > cur;
        const btn = up ? stepper.plus : stepper.minus;
        const at: [number, number] = btn
          ? [Math.round(btn.box.x + btn.box.w / 2), Math.round(btn.box.y + btn.box.h / 2)]
          : stepper.plus && stepper.valueLine
            ? [Math.round(2 * (stepper.valueLine.box.x + stepper.valueLine.box.w / 2) - (stepper.plus.box.x + stepper.plus.box.w / 2)), Math.round(stepper.plus.box.y + stepper.plus.box.h / 2)]
            : [Math.round(screen.width - 40), Math.round(row.line.box.y + row.line.box.h / 2)];
        return {
          thought: `Step ${gi + 1} of ${n} ("${goal.text}"): ${goal.setting} shows ${cur ?? 'no value'}; tapping ${up ? '+' : '−'} towards ${goal.value}.`,
          conclusion: `Tapped ${up ? '+' : '−'} on ${goal.setting}. ${tag(`step ${sub.steps + 1}`)}`,
          action: { action: 'click', coordinate: at },
        };
      }
      return clickOn(row.line, `Step ${gi + 1} of ${n} ("${goal.text}"): "${row.line.text}" is the setting; opening its options.`, `Opened "${row.line.text}". ${tag('opened item')}`);
    }
  }
}

const MONTH_HEADING = /^(January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{4}$/i;
/** What a finished everyday task shows (a toast or a result page). */
const APP_RESULTS = ['deleted', 'archived', 'added to favourites', 'added to wishlist', 'verified', 'order confirmed', 'removed', 'pinned'];

/** Lines that name a row: exact 1, "starts with the name" 0.85, else the usual similarity; at least 0.8. */
function rowCandidates(lines: OcrLine[], target: string, screen: { height: number }): Candidate[] {
  const t = normText(target);
  const out: Candidate[] = [];
  for (const line of lines) {
    if (isHeader(line, screen)) continue;
    const l = normText(line.text);
    // A comma-separated line ("Bluetooth, pairing") is a summary of a section, not a row's name.
    if (line.text.includes(',') && l !== t) continue;
    const score = l === t ? 1 : l.startsWith(t) && t.length >= 3 ? 0.85 : matchScore(line.text, target);
    if (score >= 0.8) out.push({ line, score });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** Whole-word matches inside a longer OCR line (chips and grids are often read as one line: "XS S M L XL"). */
function tokenCandidates(lines: OcrLine[], targets: string[]): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    const text = line.text;
    const tokens = [...text.matchAll(/\S+/g)];
    if (tokens.length < 2) continue;
    const short = tokens.filter((t) => normText(t[0]).length <= 3).length / tokens.length;
    for (const [rank, target] of targets.entries()) {
      const tok = tokens.find((t) => normText(t[0]) === normText(target) && normText(target).length > 0);
      if (!tok) continue;
      const x = line.box.x + (line.box.w * (tok.index ?? 0)) / text.length;
      const w = (line.box.w * tok[0].length) / text.length;
      out.push({ line: { text: tok[0], box: { x, y: line.box.y, w, h: line.box.h }, confidence: line.confidence }, score: 0.95 + 0.04 * short - 0.01 * rank });
      break;
    }
  }
  return out;
}

/** Inputs named by a label or placeholder; exact names first (earlier words preferred), never a Save/Send button. */
function labelledFields(lines: OcrLine[], words: string[], screen: { height: number }): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    if (isHeader(line, screen) || /^(save|send|done|cancel|delete)\b/i.test(line.text.trim())) continue;
    const score = Math.max(...words.map((w, rank) => (normText(line.text) === normText(w) ? 1 : matchScore(line.text, w) * 0.9) - 0.02 * rank));
    if (score >= 0.78) out.push({ line, score });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** A section line that should lead to the target (contains one of the hints); shorter lines (titles) first. */
function viaLine(lines: OcrLine[], hints: string[], screen: { height: number }): OcrLine | undefined {
  let best: { line: OcrLine; score: number } | undefined;
  for (const line of lines) {
    if (isHeader(line, screen)) continue;
    const l = normText(line.text);
    for (const [rank, h] of hints.entries()) {
      const t = normText(h);
      if (t.length < 3 || !l.includes(t)) continue;
      const score = 1 - 0.05 * rank + 0.3 * (t.length / l.length);
      if (!best || score > best.score) best = { line, score };
    }
  }
  return best?.line;
}

/** The switch on a row: the nearest one vertically, right of the row's label. */
function switchOf(label: OcrLine, switches: SwitchBox[]): SwitchBox | undefined {
  const cy = label.box.y + label.box.h / 2;
  return switches
    .filter((s) => s.x > label.box.x + label.box.w * 0.5 && Math.abs(s.y + s.h / 2 - cy) < 45)
    .sort((a, b) => Math.abs(a.y + a.h / 2 - cy) - Math.abs(b.y + b.h / 2 - cy))[0];
}

/** "−  60%  +" on the row of a label. */
function stepperOf(label: OcrLine, lines: OcrLine[]): { plus?: OcrLine; minus?: OcrLine; valueLine?: OcrLine; value?: number } | undefined {
  const cy = label.box.y + label.box.h / 2;
  const row = lines.filter((l) => l !== label && l.box.x > label.box.x + label.box.w && Math.abs(l.box.y + l.box.h / 2 - cy) < 44);
  const plus = row.find((l) => /^\+$/.test(l.text.trim()));
  const minus = row.find((l) => /^[-−–—_]$/.test(l.text.trim()));
  if (!plus && !minus) {
    // Read as one line: "− 60% +".
    const one = row.find((l) => /^[-−–—_=~]?\s*\d+\s*%?\s*[+tf4]?$/.test(l.text.trim()) && /\d/.test(l.text));
    if (!one) return undefined;
    const v = Number(/\d+/.exec(one.text)![0]);
    if (/^\d+\s*%?$/.test(one.text.trim())) {
      // Only the value was read: the − and + buttons flank it.
      const b = one.box;
      return {
        minus: { text: '−', box: { x: b.x - 40, y: b.y, w: 20, h: b.h }, confidence: one.confidence },
        plus: { text: '+', box: { x: b.x + b.w + 20, y: b.y, w: 20, h: b.h }, confidence: one.confidence },
        valueLine: one,
        value: v,
      };
    }
    const third = one.box.w / 3;
    return {
      minus: { text: '−', box: { x: one.box.x, y: one.box.y, w: third * 0.6, h: one.box.h }, confidence: one.confidence },
      plus: { text: '+', box: { x: one.box.x + one.box.w - third * 0.6, y: one.box.y, w: third * 0.6, h: one.box.h }, confidence: one.confidence },
      value: v,
    };
  }
  const valueLine = row.find((l) => /^\d+\s*%?$/.test(l.text.trim()));
  const out: { plus?: OcrLine; minus?: OcrLine; valueLine?: OcrLine; value?: number } = {};
  if (plus) out.plus = plus;
  if (minus) out.minus = minus;
  if (valueLine) {
    out.valueLine = valueLine;
    out.value = Number(/\d+/.exec(valueLine.text)![0]);
  }
  return out;
}

/** The value a row shows: a stepper's number, or the line right under the label. */
function rowValue(label: OcrLine, lines: OcrLine[]): string | undefined {
  const st = stepperOf(label, lines);
  if (st?.value !== undefined) return st.valueLine?.text ?? String(st.value);
  const below = lines
    .filter((l) => l !== label && l.box.y > label.box.y + label.box.h * 0.5 && l.box.y - (label.box.y + label.box.h) < 30 && Math.abs(l.box.x - label.box.x) < 40)
    .sort((a, b) => a.box.y - b.box.y)[0];
  return below?.text;
}

/** A value to remember from the screen: a 6-digit code (preferring a line that says "code"), or a street address. */
function readValue(lines: OcrLine[], what: 'code' | 'address'): string | undefined {
  if (what === 'code') {
    const withCode = lines.filter((l) => /\bcode\b/i.test(l.text));
    for (const l of [...withCode, ...lines]) {
      const m = /\b(\d{6})\b/.exec(l.text.replace(/(\d)\s(?=\d)/g, '$1'));
      if (m) return m[1];
    }
    return undefined;
  }
  const joined = lines.map((l) => l.text).join(' ');
  const m = new RegExp(`\\b(\\d+[A-Za-z]?\\s+(?:[A-Z][\\w'-]*\\s+){0,3}(?:${STREET_WORDS}))\\b`).exec(joined);
  return m?.[1];
}

/** Words an input for this field is labelled with (placeholder or label). */
const FIELD_WORDS: Record<string, string[]> = { search: ['search'], address: ['address', 'street'] };

/** Lines in the title bar (top ~9% of the screen, below the status bar): the page's name. */
function headerLines(lines: OcrLine[], screen: { width: number; height: number }): OcrLine[] {
  return lines.filter((l) => isHeader(l, screen));
}
function isHeader(l: OcrLine, screen: { height: number }): boolean {
  const cy = l.box.y + l.box.h / 2;
  return cy > screen.height * 0.035 && cy < screen.height * 0.09;
}

/** "View cart · 2 items", "Cart (2)", "3 items in your bag" → the count. */
function cartCount(lines: OcrLine[]): number | undefined {
  for (const l of lines) {
    const m = /(\d+)\s*items?\b/i.exec(l.text) ?? /\b(?:cart|basket|bag)\s*\((\d+)\)/i.exec(l.text);
    if (m && !/^items?\s*\(/i.test(l.text.trim())) return Number(m[1]);
  }
  return undefined;
}

/** What on screen shows the task's goal state, if anything. */
function goalReached(spec: TaskSpec, lines: OcrLine[], header: OcrLine[]): string | undefined {
  if (spec.intent === 'order') {
    const s = lines.find((l) => /order (placed|confirmed|received)|thank(s| you) for your order/i.test(l.text));
    return s ? `"${s.text}"` : undefined;
  }
  if (spec.intent === 'cart') {
    const h = header.find((l) => /cart|basket|bag/i.test(l.text));
    return h ? `the cart ("${h.text}")` : undefined;
  }
  // view / search: the entity's own page is open — its name is the page title. (A near-duplicate title fools this check.)
  const h = header.find((l) => matchScore(l.text, spec.place!) >= 0.85);
  return h ? `the page of "${h.text}"` : undefined;
}

/** Is goal `i` visibly done already (its screen is past)? Only navigation-like goals are skipped. */
function satisfiedOnScreen(goals: Goal[], i: number, lines: OcrLine[], header: OcrLine[], switches: SwitchBox[] = [], history: string[] = [], screen = { width: 412, height: 915 }): boolean {
  const g = goals[i]!;
  const later = goals.slice(i + 1);
  const laterVisible = (): boolean =>
    later.some((l) =>
      l.kind === 'tap' && l.nav
        ? candidates(lines, l.targets, 0.9).some((c) => !header.includes(c.line))
        : l.kind === 'type' && l.field !== undefined
          ? lines.some((x) => (FIELD_WORDS[l.field!] ?? [l.field!]).some((w) => normText(x.text).includes(normText(w)) && !header.includes(x)))
          : false,
    );
  switch (g.kind) {
    case 'open':
      return false;
    case 'menu':
    case 'press':
      return false;
    case 'read':
      return readNotes(history)[g.what] !== undefined;
    case 'toggle': {
      const row = rowCandidates(lines, g.target, screen)[0];
      const sw = row && switchOf(row.line, switches);
      return !!sw && sw.on === g.on;
    }
    case 'choose': {
      const row = rowCandidates(lines, g.setting, screen)[0];
      if (!row) return false;
      const v = rowValue(row.line, lines);
      return v !== undefined && normText(v) === normText(g.value);
    }
    case 'tap':
      if (g.already && lines.some((l) => g.already!.some((a) => normText(l.text) === normText(a)))) return true;
      if (g.optional && candidates(lines, g.targets, g.min ?? 0.6).length === 0) return true;
      if (g.nav) return header.some((h) => g.nav!.some((k) => normText(h.text).includes(k))) || laterVisible();
      if (g.entity) return header.some((h) => matchScore(h.text, g.targets[0]!) >= 0.85) && later.length > 0;
      return false;
    case 'add': {
      const count = cartCount(lines);
      return (count !== undefined && count >= g.qty) || header.some((h) => /cart|basket|checkout/i.test(h.text));
    }
    case 'type':
      if (g.optional && g.words && !lines.some((l) => g.words!.some((w) => normText(l.text) === normText(w)))) return true;
      return !g.submit && lines.some((l) => matchScore(l.text, g.value) >= 0.9);
  }
}

/** A launcher label that fits a topic (a shopping app looks like "…Shop", "…Mart", "…Store"). */
function topicLabel(topic: RegExp, lines: OcrLine[]): string | undefined {
  const l = lines.find((x) => topic.test(x.text) && /^[A-Z][\w&' -]{1,20}$/.test(x.text.trim()) && !/\s/.test(x.text.trim()));
  return l?.text.trim();
}

/** A launcher: several short one-word labels on one row (app icons), no title bar. */
function looksLikeLauncher(lines: OcrLine[], screen: { width: number; height: number }): boolean {
  const labels = lines.filter((l) => /^[A-Z][a-z]+$/.test(l.text.trim()) && l.box.y > screen.height * 0.2);
  const rows = new Map<number, number>();
  for (const l of labels) rows.set(Math.round(l.box.y / 20), (rows.get(Math.round(l.box.y / 20)) ?? 0) + 1);
  return [...rows.values()].some((c) => c >= 3) && headerLines(lines, screen).length === 0;
}

/** The launcher label to open: the named app as spelled on screen, else an icon whose name fits the task's topic. */
function launcherLabel(target: string | undefined, instruction: string, lines: OcrLine[], temperature: number, random: () => number): string | undefined {
  if (target) {
    const label = pick(candidates(lines, [target], 0.8), temperature, random);
    return label && label.score >= 0.9 ? label.line.text.trim() : target;
  }
  // Any capitalised word of the instruction that is a label on screen.
  const words = new Set((instruction.match(/\b[A-Z][\w&'-]+/g) ?? []).map(normText));
  const named = lines.find((l) => /^[A-Z][\w&' -]{1,20}$/.test(l.text.trim()) && words.has(normText(l.text)) && l.box.h < 30);
  if (named && !NOT_NAMES.has(normText(named.text))) return named.text.trim();
  if (FOOD_TOPIC.test(instruction)) {
    const food = lines.find((l) => FOOD_APP.test(normText(l.text)) && l.text.trim().length <= 20);
    if (food) return food.text.trim();
  }
  return undefined;
}

/** Box centre at T = 0; at T > 0 a point jittered inside the central part of the box. Clamped to the screen. */
function pointIn(line: OcrLine, screen: { width: number; height: number }, temperature: number, random: () => number): [number, number] {
  const { x, y, w, h } = line.box;
  let px = x + w / 2;
  let py = y + h / 2;
  if (temperature > 0) {
    const spread = Math.min(1, temperature) * 0.6;
    px += (random() - 0.5) * w * spread;
    py += (random() - 0.5) * h * spread;
  }
  return [Math.max(0, Math.min(screen.width - 1, Math.round(px))), Math.max(0, Math.min(screen.height - 1, Math.round(py)))];
}
