/**
 * Reference policy — understanding of everyday phone tasks beyond ordering food (see policy.ts for the
 * whole picture). Everything here is GENERIC mobile-UI knowledge, read from the instruction text alone:
 * verbs (delete/remove/cancel, archive, pin, favourite, turn on/off, set/change, text/send/email, note,
 * add to the calendar, buy, save to the wishlist, verify), the usual labels of common phone apps ("New note",
 * "Compose", "Start chat", "Add alarm", "New event", "New contact", "Save", "Send", "Edit", "Delete",
 * "Add to cart", "Proceed to checkout", "Place order", "Confirm"), which app a topic belongs to (alarm →
 * Clock, contact → Contacts, email → Mail, text/conversation → Messages, note → Notes, calendar/event →
 * Calendar, font/brightness/Wi-Fi/… → Settings, product/size/wishlist → the shopping app on the launcher),
 * and where a phone keeps things (display options under Display, volume under Sound, Bluetooth under
 * Connected devices, alarm options in the Clock app's Settings behind the overflow menu). No app data:
 * no names of items, no coordinates, nothing from environments/.
 *
 * `understandAppTask` returns the goal list, or undefined when the instruction is none of these tasks (the
 * food-ordering understanding and the explicit step parser in policy.ts then take over).
 */
import { DICTATED_LAST, entityEnd, instructionEntities, isNumberEntity } from './intent.js';
import { contentWords, namedAppIn } from './policy-act.js';
import type { ExploreCue } from './policy-explore.js';
import type { FormValue } from './policy-form.js';
import { FOOD_APP, FOOD_TOPIC } from './policy-intent.js';

/** The step kinds of food orders and explicit step lists (what planGoals/parseGoals produce). */
export type BaseGoal =
  | {
      kind: 'open';
      target: string | undefined;
      text: string;
      topic?: RegExp;
      /** No launcher label fits: look inside the apps for the one whose first screen fits the request (policy-explore.ts). */
      explore?: ExploreCue;
    }
  | {
      kind: 'tap';
      targets: string[];
      text: string;
      nav?: string[];
      entity?: boolean;
      /** Section labels to open first when the target is not on screen (e.g. a settings section, a shop category). */
      via?: string[];
      /**
       * The request's action words: a flow's entry button that starts with one ("Refill a prescription", "Book a
       * visit") lists the things it acts on — opened when the thing is not on screen and no section fits.
       */
      entry?: string[];
      /** Minimum match score (default 0.6). */
      min?: number;
      /** Labels whose presence means this tap is already done ("Unpin" for Pin). */
      already?: string[];
      /** Months are paged with arrows next to a "Month YYYY" heading. */
      pager?: boolean;
      /** Among equally good matches, take the lowest one (a suggestion list below a text box that shows the same name). */
      lowest?: boolean;
      /** Skip this step when its target is not on screen (an optional confirmation). */
      optional?: boolean;
      /** Skip this step when a line matches (the result it would bring about is already reported). */
      doneWhen?: RegExp;
      /** A button, never the page title (which may carry the same word). */
      notTitle?: boolean;
      /** Only the target on this row (the title of a list row whose buttons repeat on every row: "Add" next to "Classic Burger"). */
      row?: string;
      /** A guidance label: also a line that starts with it and goes on with a count or price ("View cart · 1 item"). */
      stable?: boolean;
      /** Failing a target match, a short button label (≤ 3 words, no question) containing one of these words ("Request refill" for "refill"). */
      words?: string[];
      /** Also accept the first word of the label tapped just before (a dialog's button repeats it: "Request refill" → "Request"). */
      repeatLast?: boolean;
      /** The button that opens a form for these values: skipped when the form already shows (policy-form.ts). */
      form?: FormValue[];
      /**
       * An action's button with the request's values: when the thing's page does not show the button, the values
       * offered there as options are chosen and a forward button (Continue, Next, Review) is tapped on the way to it.
       */
      values?: string[];
      /** After a forward button: a final button carrying one of these words counts as the action's ("Start parking"). */
      after?: string[];
      /** Among equal matches, the one with one of these on its row or right under it (a day: "Wed, Jun 18"). */
      near?: string[];
      /** The request makes something new (book, buy, start …): never looked for in a "My …" section or tab. */
      notMine?: boolean;
      /**
       * A person the request acts with ("settle up with Sam"): when not in view while the next step's button is, that
       * button first — the person is then chosen on the page it opens (policy.ts).
       */
      counterpart?: boolean;
    }
  | { kind: 'add'; target: string; qty: number; text: string }
  | {
      kind: 'type';
      field: string | undefined;
      value: string;
      submit: boolean;
      text: string;
      /** Labels/placeholders of the input, preferred first. */
      words?: string[];
      /** Skip when no such input is on screen. */
      optional?: boolean;
      /** Skip when this text is already on screen (search only for what is not listed). */
      unlessVisible?: string;
      /** The field holds a value to replace (an edit form): its text is deleted before typing. */
      replace?: boolean;
    }
  ;
/** Every step kind the policy can carry out. */
export type Goal =
  | BaseGoal
  | { kind: 'press'; target: string; text: string; pager?: boolean }
  /** `viaFirst`: a row of that name without a switch is not the switch (a list elsewhere): open `via` first. */
  | {
      kind: 'toggle';
      target: string;
      on: boolean;
      text: string;
      via?: string[];
      viaFirst?: boolean;
      /** Words naming the switch itself when it sits on the thing's own page ("service alerts" of "Route 12"). */
      label?: string[];
      /** The switch is found by its label's words alone, on whichever screen of the app holds it (an app feature). */
      byLabel?: boolean;
    }
  | { kind: 'choose'; setting: string; value: string; text: string; via?: string[] }
  | { kind: 'read'; what: 'code' | 'address'; source: string; text: string }
  | { kind: 'menu'; text: string }
  /** A value for a form field whose label shares a word with `hints`: opens the field (or its picker) and picks the value. */
  /** `minShared`: how many of `hints` a label must carry (default 1). `via`: sections to look in when no such label shows. */
  | { kind: 'fill'; value: string; hints: string[]; text: string; avoid?: string[]; via?: string[]; minShared?: number }
  /** Value `index` of a form's `values` into the field whose label fits it: picked when offered, else typed (policy-form.ts). */
  | { kind: 'field'; index: number; values: FormValue[]; text: string; /** The field holds the old value: cleared before typing. */ replace?: boolean }
  /** The form's own submit button below its fields. */
  | { kind: 'submit'; verbs: string[]; text: string };

/** Launcher names of common apps (generic), and the topic words that point to them. */
const APPS: { name: string; topic: RegExp }[] = [
  { name: 'Clock', topic: /\b(alarms?|snooze|wake me|timer|stopwatch)\b/i },
  { name: 'Calendar', topic: /\b(calendar|event|appointment|schedule)\b/i },
  { name: 'Contacts', topic: /\b(contacts?|phone number|new number|favou?rite contacts?|address book)\b/i },
  { name: 'Mail', topic: /\b(e-?mail(?:ed)?|mail|inbox|subject)\b/i },
  { name: 'Messages', topic: /\b(text|sms|conversation|message)\b/i },
  { name: 'Notes', topic: /\b(notes?|jot)\b/i },
  { name: 'Settings', topic: /\b(settings|wi-?fi|bluetooth|dark mode|do not disturb|brightness|volume|font size|screen timeout|airplane)\b/i },
];
/** A shopping app: its launcher label looks like a shop. */
export const SHOP_LABEL = /shop|store|mart|market|buy/i;
const SHOP_TOPIC = /\b(wishlist|size\s+[A-Z0-9]|shipping|ship it|(?:express|standard)\s+(?:delivery|shipping)|products?|sneakers?|hoodies?|tees?|t-shirts?|jackets?|shop\w*)\b/i;

/** Common colour words (generic English), for a colour named right before a product. */
const COLOURS = 'Black|White|Grey|Gray|Red|Blue|Navy|Green|Yellow|Orange|Pink|Purple|Brown|Beige|Teal|Burgundy|Olive|Cream|Charcoal|Khaki';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Where phone settings live (generic Android knowledge): setting words → section labels. */
const SETTING_SECTIONS: [RegExp, string[]][] = [
  // Whole words (word starts): "String lights" is no ringtone, "auto-lock" no screen lock.
  [/\b(?:wi-?fi|mobile data|airplane|hotspot|network|vpn)/i, ['Network', 'Wi-Fi']],
  [/\b(?:bluetooth|pair)/i, ['Bluetooth', 'Connected devices']],
  [/\b(?:dark|bright|font|display|timeout|screen|rotate|night mode|night light|colou?rs|wallpaper)/i, ['Display']],
  [/\b(?:volume|sound|ring|vibrat|disturb|silent)/i, ['Sound', 'Volume']],
  [/\b(?:screen lock|lock screen|verif|account|security|password|pin\b)/i, ['Security']],
];
function sectionsFor(setting: string): string[] {
  const out = [setting];
  for (const [re, labels] of SETTING_SECTIONS) if (re.test(setting)) out.push(...labels);
  return out;
}

/** The shop category a product name suggests (generic clothing words, singular/plural). */
function categoriesFor(product: string): string[] {
  const out: string[] = [];
  const words = product.split(/\s+/).filter((w) => w.length > 2);
  const last = words[words.length - 1] ?? product;
  out.push(last, `${last}s`, last.replace(/s$/i, ''));
  if (/\b(tee|t-?shirt|shirt|top)s?\b/i.test(product)) out.push('T-Shirts', 'Shirts', 'Tops');
  if (/\b(sneaker|shoe|trainer|boot)s?\b/i.test(product)) out.push('Sneakers', 'Shoes');
  if (/\b(jacket|coat|shell|parka)s?\b/i.test(product)) out.push('Jackets', 'Coats', 'Outerwear');
  if (/\b(hoodie|sweatshirt)s?\b/i.test(product)) out.push('Hoodies', 'Sweatshirts');
  return out;
}

const clean = (s: string): string =>
  s
    .trim()
    .replace(/^["'‘’]+|["'‘’]+$/g, '')
    .replace(/^(?:the|my|a|an)\s+/i, '')
    // "the one called X", "an event called X", "the note titled X": the name itself.
    .replace(/^(?:(?:one|[a-z]+)\s+)?(?:called|named|titled|labell?ed)\s+(?=\S)/i, '')
    .replace(/[.,;!?]+$/, '')
    .replace(/^["'‘’]+|["'‘’]+$/g, '')
    .trim();

const tap = (targets: string[], text: string, extra: Partial<Extract<Goal, { kind: 'tap' }>> = {}): Goal => ({ kind: 'tap', targets, text, ...extra });
const type = (words: string[], value: string, text: string, extra: Partial<Extract<Goal, { kind: 'type' }>> = {}): Goal => ({
  kind: 'type',
  field: words[0]!.toLowerCase(),
  words,
  value,
  submit: false,
  text,
  ...extra,
});

/** The app goal: a named app (as written) or the generic app of the task's topic. */
function openGoal(instruction: string, fallback: string | undefined): Goal {
  const named = /\b(?:in|on|from|using|via)\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?=\s+(?:app|application|cart|wishlist|section)\b|\s*[,.;!?:(]|\s+(?:to|and|then|with|for|in)\b|\s*$)/.exec(instruction)?.[1];
  const generic = new Set(APPS.map((a) => a.name.toLowerCase()));
  if (named && (generic.has(named.toLowerCase()) || SHOP_LABEL.test(named))) return { kind: 'open', target: named, text: `open ${named}` };
  if (fallback) return { kind: 'open', target: fallback, text: `open ${fallback}` };
  return { kind: 'open', target: undefined, text: 'open the shopping app', topic: SHOP_LABEL };
}

/**
 * Whether a launcher label is an app the everyday-task readers know by topic (a clock app for alarms, a mail app
 * for e-mail, a shop or food app by its label) and the request mentions none of that topic: such apps are looked
 * into last when the policy searches the launcher for the app a request implies (policy-explore.ts).
 */
export function knownOffTopic(label: string, request: string): boolean {
  const app = APPS.find((a) => a.name.toLowerCase() === label.trim().toLowerCase());
  if (app) return !app.topic.test(request);
  if (SHOP_LABEL.test(label)) return !SHOP_TOPIC.test(request);
  if (new RegExp(`^(?:${FOOD_APP.source})`, 'i').test(label.trim())) return !FOOD_TOPIC.test(request);
  return false;
}

function topicApp(instruction: string): string | undefined {
  return APPS.find((a) => a.topic.test(instruction))?.name;
}

const QUOTED = /["“]([^"”]+)["”]/;

/** A pronoun standing for the thing ("delete it", "remove them", "add it to the calendar"). */
const PRONOUN = /^(?:it|them|this|that|this one|that one|him|her)$/i;

/**
 * What a pronoun stands for: the first name the request carries that is not a date, a time or a number
 * ("I have Parent Teacher Meeting on June 4 … Add it …" → "Parent Teacher Meeting"; "I don't need the Weekend alarm
 * anymore, delete it" → "Weekend").
 */
function antecedent(text: string): string | undefined {
  const kinds = /^(?:the|my)\s+(.+?)\s+(?:alarm|note|event|contact|conversation|chat|email|message)\b/i;
  const lead = text.split(/,|\.\s|;/)[0] ?? text;
  const own = kinds.exec(lead.replace(/^.*?\b(?=(?:the|my)\s)/i, ''))?.[1];
  if (own && /^[A-Z0-9]/.test(own)) return own;
  return instructionEntities(text).find((e) => !isNumberEntity(e) && !new RegExp(`^(?:${MONTHS.join('|')}|I)\b`).test(e) && !/^(?:Add|Delete|Remove|Please)$/i.test(e));
}

/** Understands an everyday phone task (not food ordering); undefined when none fits. */
export function understandAppTask(raw: string): Goal[] | undefined {
  const text = raw.replace(/[“”]/g, '"').replace(/[‘’]/g, "'").replace(/\s+/g, ' ').trim();
  const unq = text.replace(/"[^"]*"/g, '""');
  let m: RegExpExecArray | null;

  // Cross-app: a code from an email entered to verify an account.
  if (/\bverif(?:y|ying|ication)\b/i.test(text) && /\bcode\b/i.test(text)) {
    const sender =
      /\bcode (?:that |which )?([A-Z][\w]*(?: [A-Z][\w]*)*) (?:e-?mailed|sent)/.exec(text)?.[1] ??
      /\bfrom ([A-Z][\w]*(?: [A-Z][\w]*)*)/.exec(text)?.[1] ??
      // The passive's agent: "The code was emailed to me by X".
      /\b(?:e-?mailed|sent|mailed)(?: to me)? by ([A-Z][\w]*(?: [A-Z][\w]*)*)/.exec(text)?.[1];
    return [
      { kind: 'open', target: 'Mail', text: 'open Mail' },
      { kind: 'read', what: 'code', source: sender ?? 'code', text: `read the code${sender ? ` from ${sender}` : ''}` },
      { kind: 'open', target: 'Settings', text: 'open Settings' },
      tap(['Verify account', 'Verify your account'], 'open Verify account', { via: sectionsFor('verify account') }),
      type(['000000', 'Verification code', 'Enter verification code', 'code'], '{code}', 'enter the code'),
      tap(['Verify'], 'tap Verify', { min: 0.95 }),
    ];
  }

  // Alarms.
  if ((m = /\b(\d{1,2}):(\d{2})\s*([AaPp][Mm])\b/.exec(text)) && /\b(alarm|wake me)\b/i.test(text)) {
    const [, hour, minute, ampm] = m;
    const day = /\b(?:every|each|on|repeat(?:ing)?(?:\s+on)?)\s+(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\b/.exec(text)?.[1];
    const label =
      /\b(?:called|named|call it|name it|label(?:led)? it|labelled|label)\s+(.+?)\s*(?=[.;,]|\s+(?:that|which|and|on|every|for|at)\b|$)/i.exec(text)?.[1] ??
      // "New alarm: Dentist, 2:55 PM": a kind, a colon, then the name.
      /\bnew\s+alarm\s*:\s*([^,.;\d]+?)\s*,/i.exec(text)?.[1];
    const goals: Goal[] = [
      { kind: 'open', target: 'Clock', text: 'open Clock' },
      tap(['Add alarm', 'New alarm', '+'], 'tap Add alarm', { min: 0.8 }),
      { kind: 'choose', setting: 'Hour', value: String(Number(hour)), text: `set the hour ${Number(hour)}` },
      { kind: 'choose', setting: 'Minute', value: minute!, text: `set the minute ${minute}` },
      tap([ampm!.toUpperCase()], `choose ${ampm!.toUpperCase()}`, { min: 0.95 }),
    ];
    if (label) goals.push(type(['Alarm name', 'Label', 'Name'], clean(label), `type the label ${clean(label)}`));
    if (day) goals.push(tap([day], `repeat on ${day}`, { min: 0.95 }));
    goals.push(tap(['Save', 'Save alarm', 'Done'], 'save the alarm', { min: 0.95 }));
    return goals;
  }
  if ((m = /\bsnooze (?:(?:length|time|duration|interval) )?(?:in (?:the )?[A-Z]\w* (?:app )?)?(?:for |to |of |at )?(\d+ (?:minutes?|min))/i.exec(text))) {
    return [
      { kind: 'open', target: 'Clock', text: 'open Clock' },
      { kind: 'menu', text: 'open the menu' },
      tap(['Settings'], 'open Settings', { min: 0.95 }),
      { kind: 'choose', setting: 'Snooze length', value: m[1]!.replace(/\bmin$/, 'minutes'), text: `set the snooze length to ${m[1]}` },
    ];
  }

  // Shopping.
  const app = topicApp(text);
  const shop = SHOP_TOPIC.test(text) && !/\b(restaurant|menu|dish|foodie)\b/i.test(text);
  if (shop && /\b(buy|order|purchase|i want|i'd like|i need|get me)\b/i.test(text) && /\bsize\b/i.test(text)) {
    const size = /\bsize\s+([A-Z0-9]{1,4})\b/.exec(text)?.[1];
    const qtyM = /\b(?:buy|order(?: me)?|purchase|want|like|need|get me)\s+(\d+|one|two|three|four|five)\b/i.exec(text);
    const qty = qtyM ? (/^\d+$/.test(qtyM[1]!) ? Number(qtyM[1]) : ['one', 'two', 'three', 'four', 'five'].indexOf(qtyM[1]!.toLowerCase()) + 1) : 1;
    const colour =
      /\bin\s+([A-Z][a-z]+)\s*,/.exec(text)?.[1] ??
      // ("the Fleece Zip Hoodie (Hoodies), Navy, size XL": a colour word standing alone in the list is the colour.)
      new RegExp(`(?:,|\\()\\s*(${COLOURS})\\s*(?=[,)])`).exec(text)?.[1] ??
      /\bof the ([A-Z][a-z]+) /.exec(text)?.[1] ??
      // "(Teal, size L)", "2 Yellow Rain Shell Jacket": a colour word in brackets before the size, or right after the quantity.
      /\(([A-Z][a-z]+),\s*size\b/.exec(text)?.[1] ??
      /\bcolou?r\s*:?\s+([A-Z][a-z]+)\b/.exec(text)?.[1] ??
      new RegExp(`\\b(?:\\d+|one|two|three|four|five)\\s+(${COLOURS})\\s+[A-Z]`).exec(text)?.[1];
    const ship = /\b(Express|Standard|Next[- ]day|Overnight)\b/.exec(text)?.[1];
    const address = /\bto\s+(\d+[A-Za-z]?\s+[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,3})/.exec(text)?.[1];
    let product = /\b(?:buy|purchase|order|get|want|like|need)(?:\s+me)?\s+(?:\d+|one|two|three|four|five)?\s*(?:x\s+|×\s+)?(?:of\s+)?(?:the\s+)?(.+?)(?=\s+in\s+(?:size\s+)?[A-Z][a-z]*\s*,?|\s*\(|,|\s+from\b|\s+on\b)/i.exec(text)?.[1] ?? '';
    if (colour) product = product.replace(new RegExp(`^${colour}\\s+`), '');
    product = clean(product);
    if (!product) return undefined;
    const goals: Goal[] = [openGoal(text, undefined), tap([product], `open ${product}`, { entity: true, via: categoriesFor(product), min: 0.75 })];
    if (colour) goals.push(tap([colour], `choose the colour ${colour}`, { min: 0.95 }));
    if (size) goals.push(tap([size], `choose size ${size}`, { min: 0.95 }));
    for (let i = 0; i < Math.max(1, Math.min(qty, 5)); i++) goals.push(tap(['Add to cart', 'Add to bag'], `add to cart (${i + 1} of ${qty})`, { min: 0.9 }));
    goals.push(tap(['Cart', 'View cart', 'Bag'], 'open the cart', { min: 0.8 }));
    goals.push(tap(['Proceed to checkout', 'Checkout', 'Go to checkout'], 'go to checkout', { min: 0.8, nav: ['checkout'] }));
    if (address) goals.push(type(['Street and number', 'Shipping address', 'Address'], address, `enter the address ${address}`));
    if (ship) goals.push(tap([ship], `choose ${ship} shipping`, { min: 0.95 }));
    goals.push(tap(['Place order', 'Place your order'], 'place the order', { min: 0.9 }));
    goals.push(tap(['Confirm', 'Confirm order', 'OK'], 'confirm the order', { min: 0.95 }));
    return goals;
  }
  if (shop && /\bwishlist\b/i.test(text)) {
    let product = clean(/\b(?:save|add|put)\s+(.+?)\s+(?:to|in|on)\s+(?:my\s+)?(?:[A-Z]\w*\s+)?wishlist/i.exec(text)?.[1] ?? '');
    // "X from Hoodies": the section it is in, not part of its name.
    product = product.replace(/\s+(?:from|in|under)\s+(?:the\s+)?[A-Z][\w-]*(?:\s+(?:section|category))?$/, '');
    if (!product) return undefined;
    return [
      openGoal(text, undefined),
      tap([product], `open ${product}`, { entity: true, via: categoriesFor(product), min: 0.75 }),
      tap(['Save to wishlist', 'Add to wishlist', 'Wishlist'], 'save it to the wishlist', { min: 0.8, already: ['Saved'] }),
    ];
  }
  if (shop && /\b(show|see|look at|view|open|pull up|bring up|display)\b/i.test(text)) {
    const product = clean(/\b(?:show me|show|look at|see|view|open|pull up|bring up|display)\s+(?:the\s+)?(.+?)(?=\s+(?:on|in|from)\s+(?:the\s+)?[A-Z]|[.!?]?$)/i.exec(text)?.[1] ?? '')
      .replace(/\s+(?:page|product page|listing)$/i, '')
      .replace(/^(?:product\s+)?(?:page|listing)\s+(?:for|of)\s+(?:the\s+)?/i, '');
    const section = /\b([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)\s+(?:section|category)\b/.exec(text)?.[1];
    if (!product) return undefined;
    const sectionName = section?.split(/\s+/).pop();
    return [openGoal(text, undefined), tap([product], `open ${product}`, { entity: true, via: [...(sectionName ? [sectionName] : []), ...categoriesFor(product)], min: 0.75 })];
  }

  // Calendar.
  if (app === 'Calendar' && /\b(add|put|schedule|create|new)\b/i.test(text)) {
    // "New calendar entry: X, June 25, 09:00" (a kind, a colon, then the thing); "I have X on June 4 … Add it to the calendar" (a pronoun for it).
    const titled =
      QUOTED.exec(text)?.[1] ??
      /\b(?:add|put|schedule|create)\s+(.+?)\s+(?:in|to|on)\s+(?:my|the)\s+calendar/i.exec(text)?.[1] ??
      /\bnew\s+(?:calendar\s+)?(?:entry|event|appointment)\s*:\s*([^,.;]+)/i.exec(text)?.[1] ??
      // "an event called X at 09:00", "Schedule X on July 27": the name before the time or date.
      /\b(?:called|titled|named)\s+(.+?)(?=\s+(?:at|on|for)\s+(?:\d|[A-Z][a-z]+\s+\d)|[,.;]|$)/.exec(text)?.[1] ??
      new RegExp(`\\bschedule\\s+(.+?)\\s+(?:on|for|at)\\s+(?:\\d|${MONTHS.join('|')})`, 'i').exec(text)?.[1] ??
      '';
    // ("… create an event with that title": the thing named earlier is the title, as for a pronoun.)
    const refers = PRONOUN.test(clean(titled)) || /^(?:an?\s+|the\s+)?(?:event|entry|appointment)(?:\s+(?:with|under|using|for)\s+(?:that|this|the same|it)(?:\s+(?:title|name))?)?$/i.test(clean(titled));
    // (Named whole where the request first says it: "I just booked Call with Grandma for June 19" — a name up to its date.)
    const said = new RegExp(`\\b(?:booked|have|got|scheduled|arranged|planned)\\s+([A-Z][^.,;!?]*?)\\s+(?:for|on)\\s+(?:${MONTHS.join('|')})\\b`).exec(text)?.[1];
    const title = clean(refers ? (said ?? antecedent(text) ?? '') : titled);
    // "July 27" or "27 July" (a day before its month).
    const dm = new RegExp(`\\b(\\d{1,2})\\s+(${MONTHS.join('|')})\\b`).exec(text);
    const date = new RegExp(`\\b(${MONTHS.join('|')})\\s+(\\d{1,2})\\b`).exec(text) ?? (dm ? ([dm[0], dm[2]!, dm[1]!] as unknown as RegExpExecArray) : null);
    const time = /\b(\d{1,2}:\d{2})\b/.exec(text)?.[1];
    if (!title) return undefined;
    const goals: Goal[] = [{ kind: 'open', target: 'Calendar', text: 'open Calendar' }, tap(['New event', 'Add event', '+'], 'tap New event', { min: 0.8 })];
    goals.push(type(['Add title', 'Title', 'Event name'], title, `type the title ${title}`));
    if (date) {
      goals.push(tap([date[1]!, date[1]!.slice(0, 3)], `choose ${date[1]}`, { min: 0.95 }));
      goals.push(tap([String(Number(date[2]))], `choose day ${Number(date[2])}`, { min: 0.95 }));
    }
    if (time) goals.push(tap([time.padStart(5, '0')], `choose ${time}`, { min: 0.95 }));
    goals.push(tap(['Save', 'Save event', 'Done'], 'save the event', { min: 0.95 }));
    return goals;
  }

  // Messages and mail.
  if (
    (m = /^(?:text|message|sms|tell)\s+(.+?)\s*[:,]?\s*"([^"]+)"/i.exec(text)) ??
    (m = /\bsend\s+(.+?)\s+a (?:text|message)(?: saying| that says)?\s*:?\s*"([^"]+)"/i.exec(text)) ??
    (m = /\bsend\s+an?\s+(?:text|message|sms)\s+to\s+(.+?)\s*(?:that says|saying|which says|:)?\s*"([^"]+)"/i.exec(text))
  ) {
    // (Not the app it goes through: "to Building Manager through Messages".)
    const who = clean(m[1]!.replace(/\s+(?:through|via|in|on|using|with)\s+(?:the\s+|my\s+)?[A-Z][\w&-]*(?:\s+app)?$/, ''));
    return [
      { kind: 'open', target: 'Messages', text: 'open Messages' },
      tap(['Start chat', 'New message', 'New conversation', 'Compose'], 'start a new chat', { min: 0.8 }),
      type(['Type a name', 'To', 'Recipient'], who, `type ${who} in To`),
      tap([who], `choose ${who}`, { min: 0.95, lowest: true }),
      type(['Text message', 'Message', 'Type a message'], m[2]!, `type the message`),
      tap(['Send'], 'send it', { min: 0.95 }),
    ];
  }
  // (Not "send a guest pass / an invite / a ticket to X (x@y)": a thing other than a message sent by another app.)
  const sendsThing = /\b(?:send|share|forward|transfer)\s+(?:a|an|the|my)\s+(?!(?:e-?mail|mail|message|note|line|quick|short|reply)\b)[a-z]+/i.test(text) && !/\b(?:e-?mail|mail)\b/i.test(text.replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, ''));
  // (Not an address given as a value of a request done in another app: "Add X as a driver on my Wheelnook account, email
  // x@…", "Send a Wheelnook driver invite to x@…".)
  const elsewhere = namedAppIn(text);
  const inOtherApp = !!elsewhere && !/^(?:mail|gmail|outlook|inbox|e-?mail)$/i.test(elsewhere);
  if ((m = /\b([\w.+-]+@[\w-]+(?:\.[\w-]+)+)/.exec(text)) && /\b(e-?mail|mail|send|write)\b/i.test(text) && !sendsThing && !inOtherApp) {
    const to = m[1]!;
    // The subject: "the subject X", or the title of the mail ("an email titled X", "about "X"").
    const subject =
      // "Put X in the subject (line)": the subject before the phrase that names it.
      /\b(?:put|use|write|add)\s+"?(.+?)"?\s+(?:in|as)\s+the\s+subject(?:\s+line)?\b/i.exec(text)?.[1] ??
      // (A quoted subject ends at its closing quote: "the subject "X" to a@b.c" is X.)
      /\bsubject(?: line)?\s*:?\s*"([^"]+)"/i.exec(text)?.[1] ??
      /\bsubject(?: line)?\s*:?\s*"?(.+?)"?\s*(?:,|\bsaying\b|\btext\b|\band\b|\bthat\b|\bwhich\b|$)/i.exec(text)?.[1] ??
      /\b(?:titled|called|headed|about)\s+("[^"]+"|[A-Z][^":,]*?)(?=\s*:|,|\s+(?:that|which|saying)\b|$)/.exec(text)?.[1]?.replace(/"/g, '');
    const quotes = [...text.matchAll(/"([^"]+)"/g)].map((q) => q[1]!).filter((q) => q !== subject);
    const body =
      /\b(?:saying|text|message|body|says|reads)\s*:?\s*"([^"]+)"/i.exec(text)?.[1] ??
      quotes[quotes.length - 1] ??
      // (Unquoted, said last: "…, that reads: See you at noon." — the rest of the request, its end mark included.)
      DICTATED_LAST.exec(text)?.[1];
    const goals: Goal[] = [{ kind: 'open', target: 'Mail', text: 'open Mail' }, tap(['Compose', 'New message', 'New email', '+'], 'tap Compose', { min: 0.8 })];
    goals.push(type(['Recipient email', 'To'], to, `type ${to} in To`));
    if (subject) goals.push(type(['Subject'], clean(subject), `type the subject ${clean(subject)}`));
    if (body) goals.push(type(['Compose email', 'Message', 'Body'], body, 'type the message'));
    goals.push(tap(['Send'], 'send it', { min: 0.95 }));
    return goals;
  }
  if (/\barchive\b/i.test(text)) {
    const what = clean(QUOTED.exec(text)?.[1] ?? /\barchive\s+(?:the\s+)?(?:e-?mail|message)\s+(.+?)(?:\s+in\b|[.]|$)/i.exec(text)?.[1] ?? '');
    if (!what) return undefined;
    return [{ kind: 'open', target: app === 'Messages' ? 'Messages' : 'Mail', text: 'open Mail' }, { kind: 'press', target: what, text: `press and hold ${what}` }, tap(['Archive'], 'tap Archive', { min: 0.95 })];
  }

  // Notes.
  if (app === 'Notes' || /\bnote\b/i.test(text)) {
    const title = /\b(?:called|titled|named)\s+"?(.+?)"?(?=\s+(?:that|which|saying|with)\b|[.;:]|$)/i.exec(text)?.[1];
    const body =
      /\b(?:that says|saying|which says|with the text)\s+"([^"]+)"/i.exec(text)?.[1] ??
      /\b(?:that says|saying|which says|with the text)\s+"?(.+?)"?\s*$/i.exec(text)?.[1] ??
      /\b(?:jot down|write(?: down)?|save|store|keep)\s+"([^"]+)"/i.exec(text)?.[1] ??
      // "New note titled X: Y" — the text after the title's colon.
      /\b(?:called|titled|named)\s+[^:]+:\s*"?(.+?)"?\s*$/i.exec(text)?.[1];
    if (title && body && /\b(make|create|new|jot|write|add|take|save|store|keep)\b/i.test(text)) {
      const b = body.replace(/[.]$/, '');
      return [
        { kind: 'open', target: 'Notes', text: 'open Notes' },
        tap(['New note', 'Add note', '+'], 'tap New note', { min: 0.8 }),
        type(['Title'], clean(title), `type the title ${clean(title)}`),
        type(['Start typing', 'Note', 'Text'], b, 'type the text'),
        tap(['Save', 'Save note', 'Done'], 'save the note', { min: 0.95 }),
      ];
    }
  }
  // (Not a PIN code: "with PIN 8127" is a value, no note to pin.)
  if ((m = /\bpin\s+(?!\d)(?:my\s+|the\s+)?(?:note\s+)?(.+?)(?:\s+note)?(?:\s+to the top)?(?:\s+(?:in|on)\s+(?:my\s+|the\s+)?notes(?:\s+app)?)?(?:\s+to the top)?[.!]?$/i.exec(text)) ?? (m = /\bkeep\s+(?:my\s+|the\s+)?(?:note\s+)?(.+?)(?:\s+note)?\s+pinned\b/i.exec(text))) {
    const what = clean(m[1]!.replace(/^note\s+/i, ''));
    return [{ kind: 'open', target: 'Notes', text: 'open Notes' }, tap([what], `open ${what}`, { entity: true, min: 0.75 }), tap(['Pin'], 'tap Pin', { min: 0.95, already: ['Unpin', 'Pinned'] })];
  }

  // Contacts.
  if ((m = /\b(?:add|save)\s+(?:a new contact:?\s+)?([A-Z][a-z]+)\s+([A-Z][a-z]+)(?:\s+to my contacts)?,?\s+(?:with the number|phone|number)\s+([+\d][\d\s()-]+\d)/i.exec(text))) {
    return [
      { kind: 'open', target: 'Contacts', text: 'open Contacts' },
      tap(['New contact', 'Add contact', 'Create contact', '+'], 'tap New contact', { min: 0.8 }),
      type(['First name'], m[1]!, `type ${m[1]} as first name`),
      type(['Last name'], m[2]!, `type ${m[2]} as last name`),
      type(['Phone number', 'Phone'], m[3]!, `type ${m[3]} as phone`),
      tap(['Save', 'Save contact', 'Done'], 'save the contact', { min: 0.95 }),
    ];
  }
  // Any wording of a new contact: the contact kind, a verb of making (or "New contact:"), a first and last name, a phone number.
  const phone = /(?<![\w-])(\+?\d[\d\s()-]{5,}\d)(?![\w-])/.exec(text)?.[1];
  if (phone && /\b(?:contacts?|address book)\b/i.test(text) && /\b(?:new|add|save|create|store)\b/i.test(text) && !/\b(?:is now|has a new|update|change|edit)\b/i.test(text)) {
    // Overlapping pairs ("Save Grace Bennett": "Save Grace", then "Grace Bennett").
    const person = [...text.matchAll(/\b(?=([A-Z][a-z'-]+)\s+([A-Z][a-z'-]+)\b)/g)].find((x) => !/^(?:New|Create|Please|Save|Add|Their|His|Her|Contact|Contacts|Store)$/.test(x[1]!) && !/^(?:Contact|Contacts)$/.test(x[2]!));
    if (person) {
      // A possessive belongs to the sentence, not the name ("… is Priya Nowak's number").
      person[2] = person[2]!.replace(/['’]s$/, '');
      return [
        { kind: 'open', target: 'Contacts', text: 'open Contacts' },
        tap(['New contact', 'Add contact', 'Create contact', '+'], 'tap New contact', { min: 0.8 }),
        type(['First name'], person[1]!, `type ${person[1]} as first name`),
        type(['Last name'], person[2]!, `type ${person[2]} as last name`),
        type(['Phone number', 'Phone'], phone, `type ${phone} as phone`),
        tap(['Save', 'Save contact', 'Done'], 'save the contact', { min: 0.95 }),
      ];
    }
  }
  if (
    (m = /([A-Z][a-z]+(?: [A-Z][a-z]+)+)'s? (?:phone )?number (?:to|is now)\s+([+\d][\d\s()-]+\d)/.exec(text)) ??
    (m = /([A-Z][a-z]+(?: [A-Z][a-z]+)+) has a new (?:phone )?number:?\s+([+\d][\d\s()-]+\d)/.exec(text)) ??
    // "The phone number for X is now …".
    (m = /\b(?:phone )?number (?:for|of) ([A-Z][a-z]+(?: [A-Z][a-z]+)+) is now:?\s+([+\d][\d\s()-]+\d)/.exec(text)) ??
    // "Replace the number saved for X with …", "Update the phone number of X to …".
    (m = /\b(?:replace|update|change|overwrite)\s+the\s+(?:phone\s+)?number\s+(?:(?:saved|stored|listed|kept)\s+)?(?:for|of|under|on)\s+([A-Z][a-z]+(?: [A-Z][a-z]+)+)\s+(?:with|to|by)\s+([+\d][\d\s()-]+\d)/i.exec(text))
  ) {
    const who = m[1]!.replace(/^(?:Update|Change|Set|Fix|Edit|Make)\s+/, '');
    return [
      { kind: 'open', target: 'Contacts', text: 'open Contacts' },
      type(['Search contacts', 'Search'], who, `search for ${who}`, { submit: true, optional: true, field: 'search' }),
      tap([who], `open ${who}`, { entity: true, min: 0.95 }),
      tap(['Edit'], 'tap Edit', { min: 0.95 }),
      type(['Phone number', 'Phone'], m[2]!, `replace the phone with ${m[2]}`, { replace: true }),
      tap(['Save', 'Save contact', 'Done'], 'save the contact', { min: 0.95 }),
    ];
  }
  if ((m = /\b(?:make|mark|add|set)\s+(.+?)\s+(?:one of my |as (?:a |my )?|to (?:my )?|a |an |my )?favou?rites?\b/i.exec(text)) ?? (m = /^(?:star|favou?rite)\s+(?:the\s+contact\s+|my\s+contact\s+)?(.+?)[.!]?$/i.exec(text))) {
    // (The app the request names after the person is no part of the name: "star Ana Lind in Contacts".)
    const who = clean(m[1]!).replace(/\s+(?:in|on)\s+(?:my\s+|the\s+)?[A-Z]\w*(?:\s+app)?$/, '');
    return [
      { kind: 'open', target: 'Contacts', text: 'open Contacts' },
      type(['Search contacts', 'Search'], who, `search for ${who}`, { submit: true, optional: true, field: 'search' }),
      { kind: 'press', target: who, text: `press and hold ${who}` },
      tap(['Add to favourites', 'Add to favorites', 'Favourite', 'Favorite'], 'add to favourites', { min: 0.8 }),
    ];
  }

  // Delete / remove / cancel an item.
  // "take X out of Y" is "remove X from Y".
  const delText = text
    .replace(/"([^"]*)"/g, (q: string) => q.replace(/[.,;!]/g, ' '))
    .replace(/\btake\s+(.+?)\s+out\s+of\s+/i, 'remove $1 from ')
    .replace(/\bclear\s+(.+?)\s+off\s+/i, 'remove $1 from ');
  if ((m = /\b(?:delete|remove|cancel|get rid of|erase|throw away|throw out)\s+(.+?)\s*(?:[;.,!]|$)/i.exec(delText))) {
    // "the Book club note in Notes": the app named at the end says where, not what.
    // "alarm: Weekend" — a kind, a colon, then the name.
    let what = m[1]!.replace(/\s+(?:in|from)\s+(?:the\s+|my\s+)?[A-Z]\w*(?:\s+app)?$/, '').replace(/^((?:my |the )?[a-z]+(?: [a-z]+)?)\s*:\s*/i, '$1 ');
    let where = app;
    let noun = '';
    const withM = /^(?:my |the )?(?:whole |entire )?(?:[A-Z]\w+\s+)?(?:conversation|chat|thread|message history|messages|texts)\s+(?:(?:that\s+|which\s+)?I\s+have\s+)?(?:with\s+)?(.+?)(?:\s+(?:in|from)\s+\w+)?$/i.exec(what);
    // ("the Ruth Bell conversation": the person before the kind.)
    const beforeM = withM ? undefined : /^(?:my |the )?(?:whole |entire )?([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)\s+(?:conversation|chat|thread)$/.exec(what);
    if (withM ?? beforeM) {
      what = (withM ?? beforeM)![1]!;
      where = 'Messages';
      noun = 'conversation';
    }
    // ("… from my clock app": the app said with its kind word is the place, as "from my clock".)
    what = what.replace(/(\s+(?:from|in|on)\s+(?:my|the)\s+[a-z]+)\s+app$/i, '$1');
    const kinds: [RegExp, string, string][] = [
      // A bare "entry" is a calendar's (first: any other kind named below wins).
      [/\s+entry$/i, 'Calendar', 'event'],
      [/\s+alarm(?:\s+from (?:my |the )?clock)?$|^(?:my |the )?alarm\s+/i, 'Clock', 'alarm'],
      [/^(?:my |the )?contact\s+|\s+from (?:my )?(?:contacts|address book)$/i, 'Contacts', 'contact'],
      [/^(?:my |the )?note\s+|\s+note$/i, 'Notes', 'note'],
      [/\s+(?:from|in) (?:my |the )?(?:calendar|schedule)$|^(?:my |the )?(?:calendar\s+)?(?:event|appointment)\s+|\s+(?:event|appointment)$/i, 'Calendar', 'event'],
      [/^(?:my |the )?(?:e-?mail|message)\s+|\s+(?:from|in) (?:my )?inbox$/i, 'Mail', 'message'],
    ];
    for (const [re, a, n] of kinds) {
      if (re.test(what)) {
        what = what.replace(re, '');
        where = a;
        noun = n;
      }
    }
    // (… "labelled Work from my clock": the place it is kept in, after its name, is no part of it.)
    what = clean(QUOTED.exec(what)?.[1] ?? what.replace(/\s+in\s+(?:my\s+)?\w+$/i, '').replace(/\s+(?:from|on)\s+(?:my|the)\s+[a-z]+(?:\s+app)?$/i, '').replace(/^(?:called|named|titled|label(?:l)?ed)\s+/i, ''));
    // "delete it", "remove them": the thing named earlier in the request.
    if (PRONOUN.test(what)) what = clean(antecedent(text) ?? '');
    if (!where || !what) return undefined;
    if (!noun) noun = where === 'Clock' ? 'alarm' : where === 'Contacts' ? 'contact' : where === 'Notes' ? 'note' : where === 'Calendar' ? 'event' : where === 'Messages' ? 'conversation' : 'message';
    const goals: Goal[] = [{ kind: 'open', target: where, text: `open ${where}` }];
    if (where === 'Contacts') goals.push(type(['Search contacts', 'Search'], what, `search for ${what}`, { submit: true, optional: true, field: 'search' }));
    goals.push({ kind: 'press', target: what, text: `press and hold ${what}`, pager: where === 'Calendar' });
    goals.push(tap([`Delete ${noun}`, 'Delete', 'Remove', `Remove ${noun}`], `tap Delete ${noun}`, { min: 0.8 }));
    goals.push(tap(['Delete', 'Remove', 'OK', 'Yes'], 'confirm with Delete', { min: 0.95, optional: true }));
    return goals;
  }

  // Switches: "turn/switch X on/off", "turn on X".
  // A verbless request names the switch and its position: "Dark mode off", "Bluetooth on, please".
  if ((m = /^(?:my\s+|the\s+)?([A-Z][\w-]*(?:\s+[\w-]+){0,3}?)\s+(on|off|On|Off)(?:,?\s+please)?[.!]?$/.exec(unq)) && !/^(?:turn|switch|set|put|keep)\b/i.test(unq)) {
    const pos = m[2]!.toLowerCase();
    // "X Line service alerts on": a thing of an app (a name of two capitalised words that is no phone setting) first.
    const own = /^[A-Z][\w-]*\s+[A-Z0-9]/.test(m[1]!) ? appSwitch(text, m[1]!, pos === 'on') : undefined;
    if (own) return own;
    return [
      { kind: 'open', target: 'Settings', text: 'open Settings' },
      { kind: 'toggle', target: m[1]!, on: pos === 'on', text: `switch ${m[1]} ${pos}`, via: sectionsFor(m[1]!) },
    ];
  }
  if (
    // (Not "on" as a preposition: "set the snooze length on my alarms to 15 minutes".)
    (m = /\b(?:turn|switch|set)\s+(?:my\s+|the\s+)?(.+?)\s+(?:to\s+)?(on|off)\b(?!\s+(?:my|the|a|an|your|this|that|all|every)\b)/i.exec(unq)) ??
    (m = /\b(?:turn|switch)\s+(on|off)\s+(?:my\s+|the\s+)?(.+?)(?:\s+on my phone)?[.!]?$/i.exec(unq)) ??
    // A wish for a state: "I want Dark mode turned on", "I'd like the Weekend alarm switched off".
    (m = /^i(?:'d| would)?\s+(?:want|like|need)\s+(?:my\s+|the\s+)?(.+?)\s+(?:turned|switched|set|to be|kept)\s+(on|off)[.!]?$/i.exec(unq))
  ) {
    const onoff = /^(on|off)$/i.test(m[2]!) ? m[2]! : m[1]!;
    let target = clean(/^(on|off)$/i.test(m[2]!) ? m[1]! : m[2]!);
    const calledName = (t: string): string => t.replace(/^(?:(?:the\s+)?(?:one\s+)?(?:called|named|labell?ed|titled))\s+/i, '');
    const alarm = /^(.+?)\s+alarm$/i.exec(target);
    if (alarm || /\balarm\b/i.test(text)) {
      // "the alarm named Work" is the alarm "Work".
      target = calledName(clean(alarm?.[1] ?? target.replace(/\s*alarm\b/i, '')));
      return [{ kind: 'open', target: 'Clock', text: 'open Clock' }, { kind: 'toggle', target, on: /on/i.test(onoff), text: `switch ${target} ${onoff}` }];
    }
    const own = appSwitch(text, target, /on/i.test(onoff));
    if (own) return own;
    return [
      { kind: 'open', target: 'Settings', text: 'open Settings' },
      { kind: 'toggle', target, on: /on/i.test(onoff), text: `switch ${target} ${onoff}`, via: sectionsFor(target) },
    ];
  }

  // Settings values: "set/change X to Y".
  if (
    (m = /\b(?:set|change|make|put)\s+(?:the\s+|my\s+)?(.+?)\s+(?:to|at)\s+(.+?)(?:,?\s+please)?[.!]?$/i.exec(unq)) ??
    // A wish for a value: "I'd like the Font size at Large".
    (m = /^i(?:'d| would)?\s+(?:want|like|need)\s+(?:the|my)\s+(.+?)\s+(?:at|to be|set to)\s+(.+?)[.!]?$/i.exec(unq))
  ) {
    // A setting "in X" of an app other than the phone's Settings is that app's preference (policy-act.ts).
    // (Also said after the value: "Set auto-lock to 5 minutes in HomeHub".)
    const inApp = /\s+in\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?:\s+app)?$/.exec(m[1]!)?.[1] ?? /\s+in\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?:\s+app)?$/.exec(m[2]!)?.[1];
    if (inApp && !/^settings$/i.test(inApp) && !APPS.some((a) => a.name.toLowerCase() === inApp.toLowerCase())) return undefined;
    // ("auto-lock", "auto-reload": an app's automatic feature, not a phone setting, unless the phone's Settings is named.)
    if (!inApp && /^(?:the\s+|my\s+)?auto-[a-z]+$/i.test(m[1]!.trim())) return undefined;
    // "the snooze length on my alarms": what the setting is of says where it lives, not its name.
    const setting = clean(m[1]!.replace(/\s+(?:on|for|of|in)\s+(?:my|the|all)\s+(?:my\s+)?[a-z]+$/i, ''));
    // A value ends at a function word: "Set Font size to Large in Settings" asks for "Large".
    const value = clean(entityEnd(m[2]!));
    if (sectionsFor(setting).length < 2 && !/\d|%|small|large|default|normal|high|low/i.test(value)) return undefined;
    // A money amount is no phone setting: a value inside an app ("Set my low balance alert to $50", policy-act.ts).
    if (sectionsFor(setting).length < 2 && /^[$€£]\s?\d/.test(value)) return undefined;
    return [
      { kind: 'open', target: topicApp(text) === 'Clock' ? 'Clock' : 'Settings', text: 'open Settings' },
      { kind: 'choose', setting, value, text: `set ${setting} to ${value}`, via: sectionsFor(setting) },
    ];
  }
  return undefined;
}

/** An app the request names as "in/on/using (the) X app" (any app, not only the generic ones). */
export function namedApp(text: string): string | undefined {
  // "in the X app", or a one-word name ending the request's clause ("Switch the Porch Light off in HomeHub.").
  return (
    /(?<!\b[a-z]+ed\s|\b(?:located|based|born|made|built|kept)\s)\b(?:in|on|using|inside)\s+(?:the\s+|my\s+)?(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Today|Tomorrow|Tonight)\b)([A-Z][\w&'-]*)\s+app\b/.exec(text)?.[1] ??
    /(?<!\b[a-z]+ed\s|\b(?:located|based|born|made|built|kept)\s)\b(?:in|using|inside)\s+(?:the\s+|my\s+)?(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b)([A-Z][a-z]+[A-Z]?[\w&'-]*)(?=\s*[,.;!?]|\s*$|\s+to\s|\s+(?:before|after|when|while|because|since|until|once)\s+[a-z])/.exec(text)?.[1]
  );
}

/**
 * A switch of a thing inside an app rather than a phone setting: "Switch my X 20 mg reminder On in the Y app",
 * "Turn the dose reminder for X On". The switch's row is the name the target carries; the target's other words
 * ("dose reminder") name the screen that lists such switches, opened first when the name shows without a switch
 * (a list of the things themselves). The app is the one named, else found by looking inside the apps.
 * Undefined for phone settings (a known settings word, or a bare switch name with no app named).
 */
function appSwitch(text: string, target: string, on: boolean): Goal[] | undefined {
  const named = namedApp(text);
  if (named && (/^settings$/i.test(named) || APPS.some((a) => a.name.toLowerCase() === named.toLowerCase()))) return undefined;
  // "in my transit app": an app named in lower case is still an app, not a phone setting.
  const loose = named ?? /\b(?:in|on|using|inside)\s+(?:the\s+|my\s+)?([a-z][\w&'-]*)\s+app\b/.exec(text)?.[1];
  if (loose && !named && (/^(?:settings|phone|clock|mail|messages|contacts|calendar|notes)$/i.test(loose))) return undefined;
  const name = instructionEntities(`then ${target}`).find((e) => !isNumberEntity(e) && e !== named);
  // A bare name is a phone setting ("Wi-Fi") unless it is a name of two words or more that no settings section knows
  // ("Ceiling Fan", "Living Room Lights"): a thing of some app, found by looking inside the apps.
  const thing = sectionsFor(target).length === 1 && /^[A-Z][\w-]*(?:\s+[A-Z0-9][\w-]*)+$/.test(name ?? '');
  if (!name || (sectionsFor(target).length > 1 && !loose) || (!named && name === target && !thing)) return undefined;
  const kinds = contentWords(target.replace(name, ' ').replace(/\b(?:in|on|using|inside)\s+(?:the\s+|my\s+)?\S+\s+app\b/i, ' '));
  const words = contentWords(text).filter((w) => w.length >= 4 && !/^(?:turn|switch)$/.test(w));
  const open: Goal = named
    ? { kind: 'open', target: named, text: `open ${named}` }
    : {
        kind: 'open',
        target: undefined,
        text: 'open the app the request names',
        topic: new RegExp(`^(?:${words.join('|') || '(?!)'})s?$`, 'i'),
        explore: { words: contentWords(text).filter((w) => !/^(?:turn|switch)$/.test(w)), verbs: ['switch', 'turn'], names: [name], request: target },
      };
  return [open, { kind: 'toggle', target: name, on, text: `switch ${name} ${on ? 'on' : 'off'}`, via: kinds, viaFirst: kinds.length > 0, ...(kinds.length ? { label: kinds } : {}) }];
}

/** Cross-app: "... the address in my note 'X' ..." → the note to read first (the rest is a food order). */
export function noteSource(instruction: string): { note: string; rest: string } | undefined {
  const t = instruction.replace(/[“”]/g, '"').replace(/[‘’]/g, "'");
  const m =
    /\b(?:address|location)\b[^.;]*?\b(?:in|from) (?:my |the )?(?:note\s+["']([^"']+)["']|["']?([A-Z][\w ]+?)["']?\s+note)/.exec(t) ??
    // "The delivery address is in my note called X", "Check my X note for where to deliver".
    /\b(?:address|location|deliver)\w*\b[^.;]*?\bnote\s+(?:called|named|titled)\s+["']?([A-Z][\w ]*?)["']?(?=[.,;]|\s+(?:and|then|for)\b|$)/.exec(t) ??
    /\bmy\s+["']?([A-Z][\w ]*?)["']?\s+note\s+for\s+(?:the\s+)?(?:address|where\s+to\s+deliver)/.exec(t);
  if (!m) return undefined;
  const note = (m[1] ?? m[2])!.trim();
  const rest = t
    .replace(/\bread the (?:delivery )?address in my note ["'][^"']+["'] and /i, '')
    .replace(/,?\s*delivered to the address in my [\w ]+ note/i, '')
    .replace(/\s*to that address\b/i, '')
    .replace(/\s+(?:sent|delivered)\s+there\b/i, '')
    // The sentence that only says where the address is, and "get" for what is delivered (an order).
    .replace(/\s*[^.;]*\bnote\s+(?:called|named|titled)\s+[^.;]*[.;]?/i, '')
    .trim()
    .replace(/^get\b/i, 'Order')
    .replace(/\ba single\b/i, '1')
    .replace(/\b(order|get|buy)\s+(?!\d|one\b|two\b|three\b|an?\b)/i, '$1 1 ');
  return { note, rest };
}
