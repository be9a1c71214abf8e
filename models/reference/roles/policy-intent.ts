import type { BaseGoal } from './policy-tasks.js';

/**
 * Reading a free-form request into a task: the intent (view / search / cart / order), the entities it names
 * (app, place, item, quantity, address, payment) and the generic goal flow that fulfils it; explicit step lists
 * (`parseGoals`). Text only: nothing here looks at a screen. The policy (`policy.ts`) is described there.
 */

const VERB =
  /^(open|launch|start|tap|click|press|select|choose|pick|go to|navigate to|view|add|enter|type|input|fill|set|search|find|pay|place|checkout|check out|confirm|submit|order|buy|book|switch|turn|apply|use|in the|on the|using)\b/i;

export const SUCCESS = [
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
export const ADD_BUTTONS = ['add', '+', 'addtocart', 'addtobasket', 'addtobag', 'add item'];

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
  // ("Start a 45 minutes session", "Start 2 timers": a thing to start, no app — apps take no article or count.)
  if ((m = /^(?:open|launch|start)\s+(?:the\s+)?(.+?)(?:\s+app(?:lication)?)?$/i.exec(p)) && !/^start\s+(?:an?|\d+|one|two|three|my|new|the|[a-z]+ing|paid|free)\s/i.test(p) && !/^start\s+[a-z]+\s+[a-z]+\b.*\b(?:in|on|for|at)\b/i.test(p))
    return { kind: 'open', target: cleanTarget(m[1]!), text: p };
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
  // "confirm with Delete", "confirm by tapping Borrow": the confirming button is named.
  if ((m = /^confirm\s+(?:with|by tapping|by pressing|using)\s+(.+)$/i.exec(p))) return { kind: 'tap', targets: [cleanTarget(m[1]!)], text: p };
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
export const NAME = "((?:The\\s+)?[A-Z][\\w'&-]*(?:\\s+(?:(?:and|of|&)\\s+)?[A-Z][\\w'&-]*)*)";
const QTY = '(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|an?)';
export const STREET_WORDS =
  'Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place|Pl|Square|Sq|Terrace|View|Close|Crescent|Hill|Row|Parade|Walk|Gardens|Park';
/** "deliver(ed) to / sent to / address" + number + words, or number + words ending in a street word. */
const ADDRESS_AFTER = /\b(?:deliver(?:ed|y)?\s+(?:it\s+)?to|sent\s+to|send\s+(?:it\s+)?to|ship(?:ped)?\s+to|address(?:\s+is)?:?)\s+(\d+[A-Za-z]?\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})/;
const ADDRESS_STREET = new RegExp(`\\b(\\d+[A-Za-z]?\\s+(?:[A-Z][\\w'-]*\\s+){0,3}(?:${STREET_WORDS})\\b)`);
const PAYMENT_RE = /\b(?:pay(?:ing|ment)?(?:\s+method)?\s+(?:by|with|using|in|via|is)\s+(?:a\s+|my\s+|the\s+)?([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)|\b([A-Z][\w-]*)\s+payment\b|\b(?:choose|select)\s+([A-Z][\w-]*)(?=\s*(?:[,.;]|and\b|as\b|for\b|to pay\b|$)))/;
const APP_IN = /\b(?:in|on|using|via|inside)\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?=\s+(?:app|application|cart|basket|account)\b|\s*[,.;!?]|\s+(?:to|and|then|before|after|when|while|because|since|until|once)\b|\s*$)/;
const APP_OPEN = /(?:^\s*|[,.;]\s*)(?:[Oo]pen|[Ll]aunch|[Ss]tart)\s+(?:the\s+)?([A-Z][\w&'-]*)(?!\s+[A-Z])/;
const PLACE_RES = [
  new RegExp(`\\bfrom\\s+${NAME}`),
  new RegExp(`\\bmenu\\s+(?:of|at|for)\\s+${NAME}`),
  new RegExp(`\\bwhat\\s+${NAME}\\s+(?:serves|offers|has|sells)`),
  new RegExp(`\\b(?:search(?:\\s+for)?|look\\s+up|find|scroll\\s+to|type|tap|open|select|visit)\\s+${NAME}`),
];
/** Words that start a sentence but name nothing. */
export const NOT_NAMES = new Set(['i', "i'm", "i've", "i'd", "i'll", 'me', 'my', 'show', 'put', 'order', 'get', 'use', 'open', 'tap', 'please', 'find', 'search', 'add', 'go', 'enter', 'choose', 'then', 'buy', 'want', 'see', 'have', 'look']);
const NUM = (s: string): number => (/^\d+$/.test(s) ? Number(s) : (NUMBER_WORDS[s.toLowerCase()] ?? 1));

/**
 * Understands a free-form task: intent (order > cart > search > view), app, the place to open, item and
 * quantity, address, payment. Returns undefined when no intent word or no place is found (the instruction is
 * then read as an explicit list of steps by `parseGoals`).
 */
export function understandTask(instruction: string): TaskSpec | undefined {
  // "Search <App> for X": the app is searched, X is what is sought.
  let searched: string | undefined;
  instruction = instruction.replace(/\b([Ss]earch)\s+([A-Z][\w&'-]*)\s+for\s+/, (_all, verb: string, app: string) => {
    searched = app;
    return `${verb} for `;
  });
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
  const app = take(APP_IN) ?? take(APP_OPEN) ?? searched;
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
      : /\b(?:search|look up|look for|find)\b/.test(lower)
        ? 'search'
        : /\b(?:menu|see|show|serves|browse|look at)\b/.test(lower)
          ? 'view'
          : undefined;
  if (!intent || !place) return undefined;
  // (A time's half of the day — "1:30 PM" — is no item, a weekday or a month no app: a booking, no food order.)
  if ((item && /^(?:AM|PM)$/i.test(item.trim())) || (app && /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)$/.test(app))) return undefined;
  // A possessive names the place ("Sushi Zen's menu" → "Sushi Zen").
  place = place.replace(/['’]s$/, '');
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
export const FOOD_TOPIC =
  /\b(menu|restaurants?|dish|food|eat|meal|serves|dinner|lunch|breakfast|pizzas?|burgers?|sushi|tacos?|curry|noodles?|fries|shakes?|waffles?|pancakes?|chocolate|tea|coffee|soup|salad|rolls?|bowl|bread|lemonade|chicken|beef|lamb|pork|fish|naan|lassi|pho|mochi|edamame|nigiri|burrito|nachos|churros|tiramisu|wrap|cheeseburger|rings|drinks?)\b/i;
export const FOOD_APP = /food|eat|meal|dash|grub|menu|deliver|bite|dine/;

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

export function readNotes(history: string[]): Record<string, string> {
  const notes: Record<string, string> = {};
  for (const c of history) for (const m of c.matchAll(/\[noted (\w+)=([^\]]+)\]/g)) notes[m[1]!] = m[2]!.trim();
  return notes;
}
