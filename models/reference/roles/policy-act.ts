/**
 * Reference policy — the generic reading of a request no other reader understood: "<verb> <thing> [… <value>]"
 * ("Borrow Dune from the library", "Place a hold on X for pickup at Y", "Extend the due date of X in Z"). Written
 * after the Library app was added (issue 17) and kept free of any app's names, labels or data: it reads the
 * request's structure only — its first word is the verb (English imperatives start with one), the capitalised
 * names after it are the thing to act on and the values to fill in, the remaining content words are what the
 * buttons, tabs and field labels of an unknown app are matched against.
 *
 * Plan: open the app (named "in/on/using X", else the launcher icon whose label is a word of the request) → the
 * thing (typed into the screen's search box first when it is not on screen) → the button named by the verb
 * (or a common synonym of it) → each further value into the field whose label shares a word with the request
 * → a confirming button (the verb again in a dialog, Confirm, OK, Save, Done …) unless the screen already reports
 * the verb in the past tense ("… borrowed", "Renewed until …").
 */
import type { ExploreCue } from './policy-explore.js';
import type { Goal } from './policy-tasks.js';
import { instructionEntities, isDateEntity, isNumberEntity, MONTH, TIME_RANGE, withoutAbbreviationDots } from './intent.js';
import { baseForms, isVerb, knowsWord } from '../wordnet.js';

/** Words that carry no content for matching labels. */
const STOP = new Set(
  ('a an the my your our their his her its this that these those me i you it them of on in at to for from with by via into onto ' +
    'and or but then so please now for me up out off over back down some any all just also have has had be is are was get let ' +
    'app thing one ones').split(' '),
);

/** Verbs that record something done ("Log X as Watered"): the thing acted on, its values chosen on its page. */
export const RECORD_VERB = /^(?:log|record|track|note)$/;

/** Words of when, never the kind of a thing ("the Yoga class tomorrow"). */
const TIME_WORD = /^(?:today|tomorrow|tonight|yesterday|now|later|again|instead|anymore|morning|afternoon|evening|night|weekly|daily|monthly|yearly)$/;

/** Verbs the explicit step reader (policy-intent.ts) already handles: not read here. */
const STEP_VERBS = /^(open|launch|start|tap|click|press|select|choose|pick|go|navigate|view|add|enter|type|input|fill|set|search|find|pay|place order|checkout|confirm|submit|order|buy|turn|switch|apply|use|in|on|using|then)$/i;

/**
 * Common equivalences between a request's verb and an app's button (generic English, both directions):
 * the button that carries out "check out" is often "Borrow", "reserve" is often "Hold" or "Book".
 */
export const SYNONYMS: readonly (readonly string[])[] = [
  ['borrow', 'check out', 'loan'],
  ['reserve', 'hold', 'place hold', 'book'],
  ['extend', 'renew'],
  ['remove', 'delete'],
  ['clear out', 'delete', 'remove', 'clear'],
  ['cancel', 'cancel booking', 'remove'],
  ['drop', 'cancel', 'remove'],
  ['withdraw', 'cancel', 'remove'],
  ['pull', 'withdraw', 'cancel', 'remove'],
  ['retract', 'withdraw', 'cancel'],
  ['move', 'reschedule', 'change'],
  ['change', 'edit', 'update'],
  ['ship', 'send'],
  ['collect', 'pick up', 'pickup', 'schedule pickup', 'schedule'],
  ['redirect', 'reroute', 'change'],
  ['purchase', 'buy', 'get', 'grab'],
  ['grab', 'book', 'reserve', 'take'],
  ['share', 'send'],
  ['keep', 'save'],
  ['follow', 'subscribe'],
  ['return', 'check in'],
  ['transfer', 'send money', 'send'],
  ['freeze', 'lock'],
  ['unfreeze', 'unlock'],
  ['like', 'favourite', 'favorite'],
  ['square up', 'settle up', 'settle'],
];

const PARTICLE = /^(out|up|in|off|back|over|down)$/i;
/**
 * Light verbs: the action is the noun after them ("put in a refill request" → request a refill, "file a lost item
 * report" → report, "make a transfer" → transfer). Generic English.
 */
const LIGHT_VERB = /^(?:put in|make|place|submit|file|raise|lodge|log|send in|do|issue)$/i;
/** Verbs that make something new (a booking, a purchase, a session): generic English. */
const CREATES = /^(?:book|reserve|buy|purchase|order|start|rent|join|register|sign up|enrol|enroll|subscribe|schedule|get|grab)$/i;

/** Past tense of a verb for result messages ("renew" → "renewed", "place" → "placed"). */
/** English irregular past participles of verbs a request may start with. */
const IRREGULAR_PAST: Record<string, string> = { buy: 'bought', get: 'got', send: 'sent', pay: 'paid', make: 'made', do: 'done', set: 'set', put: 'put', keep: 'kept', hold: 'held', find: 'found', sell: 'sold', take: 'taken', give: 'given', show: 'shown', write: 'written', choose: 'chosen', freeze: 'frozen', spend: 'spent', tell: 'told', read: 'read', shut: 'shut', cut: 'cut', lock: 'locked', pick: 'picked' };

function past(verb: string): string {
  const w = verb.toLowerCase().split(/\s+/)[0] ?? verb;
  const irregular = IRREGULAR_PAST[w];
  if (irregular) return irregular;
  // A short verb ending consonant–vowel–consonant doubles it ("grab" → "grabbed", "stop" → "stopped").
  if (/^[^aeiou]*[aeiou][bdgmnpt]$/.test(w)) return `${w}${w.slice(-1)}ed`;
  if (w.endsWith('e')) return `${w}d`;
  if (/[^aeiou]y$/.test(w)) return `${w.slice(0, -1)}ied`;
  return `${w}ed`;
}

const cap = (s: string): string => s.replace(/\b\w/g, (c) => c.toUpperCase()).replace(/\b(Of|And|The|A|An)\b(?!$)/g, (w, _x, i: number) => (i === 0 ? w : w.toLowerCase()));

export interface ActPlan {
  goals: Goal[];
  /** A line saying the verb was carried out ("… borrowed", "Renewed until …"). */
  result: RegExp;
}

/** Content words of a text (lower-case, no stop words, plural "s" dropped). */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z'-]+/g) ?? []).filter((w) => !STOP.has(w) && w.length > 2).map((w) => w.replace(/(?<=[^s])s$/, ''));
}

/**
 * The app a request names: "in/on/using/inside [the|my] X" with X capitalised, before "app", a clause's end or the
 * request's end — never a month, a weekday or today/tomorrow ("on Friday"), nor a place after a participle
 * ("registered in California", "located in X").
 */
export function namedAppIn(text: string): string | undefined {
  return (
    /(?<!\b[a-z]+ed\s|\b(?:located|based|born|made|built|kept)\s)\b(?:in|on|using|inside)\s+(?:the\s+|my\s+)?(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Today|Tomorrow|Tonight)\b)([A-Z][\w&'-]*)(?=\s+app\b|\s*[,.;:!?]|\s*$|\s+(?:to|and|so|then)\s+(?!(?:the|a|an|of)\s+[A-Z])[a-z]|\s+(?:using|with|via|through)\s+(?:my|the|a|an|your|our)\b|\s+(?:before|after|when|while|because|since|until|once)\s+[a-z]|\s+(?:at|for)\s+\d|\s+(?:on|for|this|next)\s+(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|today|tomorrow|tonight)\b)/.exec(text)?.[1] ??
    // "Add my new pet Rocky to PawPoint: …" — the app a record is added to, right before the colon that lists its values.
    /\bto\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?=\s*:)/.exec(text)?.[1] ??
    // "through / via / from the Pharmacy app": the app the words "app" names.
    /\b(?:through|via|from|with)\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)\s+app\b/.exec(text)?.[1] ??
    // "Add a Jade plant called Juniper to Fernly.": what a new record is added to, at the clause's end.
    // ("… to Shipwise and name it X": the clause ends at the next verb.)
    /(?:^|[.!?]\s+)(?:[Aa]dd|[Ss]ave|[Rr]egister)\b[^.!?]*?\bto\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?=\s*[,.;!?]|\s*$|\s+(?:and|so|then)\s+[a-z])/.exec(text)?.[1] ??
    // "Delete the X recipe from Saffra.": what a thing is removed from, one capitalised word at the clause's end.
    (/^(?:please\s+)?(?:delete|remove|erase|get\s+rid\s+of|take)\b/i.test(text) ? /\bfrom\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?=\s*[,.;!?]|\s*$)/.exec(text)?.[1] : undefined) ??
    // "on Mendwick for Oven & range repair", "through Mendwick for a …": after in/on/using/through/via, a capitalised word
    // no dictionary knows (no month, place or word of English) is an app's name, whatever follows it.
    [...text.matchAll(/\b(?:in|on|using|inside|through|via)\s+(?:the\s+|my\s+)?([A-Z][a-z]{3,})\b(?!\s+[A-Z0-9&])(?!\s+(?:and|of|or)\s+(?:the|a|an)\s+[A-Z])(?!['’]s\b)/g)].map((m) => m[1]!).find((w) => !knowsWord(w)) ??
    // A brand-like word of its own, capitals inside ("my FreshFold order", "get PawPoint to …"): an app's name. (Checked
    // against the launcher later: a name no icon carries is looked for inside the apps instead.)
    /(?<![A-Z][\w'&-]*\s)\b([A-Z][a-z]+[A-Z][a-z]+)\b(?!['’]s\b|\s+[A-Z0-9])/.exec(text)?.[1] ??
    // "for my Readly books": a word no dictionary knows, between "my" and the user's things in it, is the app's name.
    // ("the Bookly store card": likewise before the thing of that app.)
    // ("my Hirewell application": one thing of it too.)
    [...text.matchAll(/\b(?:my\s+([A-Z][a-z]{2,})\s+[a-z]{3,}\b|(?:the|an?)\s+([A-Z][a-z]{2,})\s+[a-z]{3,}\b)/g)].map((m) => (m[1] ?? m[2])!).find((w) => !knowsWord(w))
  );
}

/** The app goal of a request that names no generic app: the one named ("in/on/using X"), else a launcher label that is a word of it, else look inside the apps. */
export function appGoal(named: string | undefined, cue: ExploreCue): Goal {
  if (named) return { kind: 'open', target: named, text: `open ${named}` };
  // (Not a word inside a longer name the request carries: "CVS Pharmacy – Oak Ave" is a place, not the Pharmacy app.)
  const inName = new Set(cue.names.filter((n) => n.trim().split(/\s+/).length >= 2).flatMap((n) => contentWords(n)));
  const appWords = contentWords(cue.request).filter((w) => w.length >= 4 && !inName.has(w));
  return {
    kind: 'open',
    target: undefined,
    text: 'open the app the request names',
    topic: new RegExp(`^(?:${appWords.join('|') || '(?!)'})s?$`, 'i'),
    // No launcher label is a word of the request: look inside the apps (policy-explore.ts).
    explore: cue,
  };
}

/** A noun's plural, as a tab says it ("lunch" → "lunches", "lunch order" → "lunch orders"). */
export const plural = (n: string): string => (/(?:s|x|ch|sh)$/.test(n) ? `${n}es` : /[^aeiou]y$/.test(n) ? `${n.slice(0, -1)}ies` : `${n}s`);

/**
 * "My <word>" sections that keep the user's own things, most specific word first ("my preferred pharmacy store" → My
 * store, My pharmacy, My preferred), then the kind's list by its plural ("my application" → Applications).
 */
const mineTabs = (words: string): string[] => {
  const kinds = contentWords(words).reverse();
  return [...kinds.map((w) => `My ${w}`), ...kinds.slice(0, 1).map((w) => cap(plural(w)))];
};

/**
 * A preference inside an app: "Set my pickup store to X", "Change the default branch to X", "Make X my preferred
 * store". The setting's words name the field ("Preferred store"); the value is picked in it (fieldOf).
 */
export function understandPreference(text: string): ActPlan | undefined {
  // (Also "Set auto-lock in HomeHub to 5 minutes": a hyphenated setting, the app named between it and its value.)
  const m =
    /^(?:[Ss]et|[Cc]hange|[Uu]pdate|[Ss]witch)\s+(?:my|the)\s+([a-z][a-z -]*?)\s+to\s+([A-Z0-9$€£].*)$/.exec(text) ??
    /^(?:[Ss]et|[Cc]hange|[Uu]pdate)\s+(?:my\s+|the\s+)?([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)\s+(in\s+(?:the\s+)?[A-Z][\w&'-]*(?:\s+app)?)\s+to\s+([A-Z0-9$€£].*)$/.exec(text)?.filter((_x, i) => i !== 2) ??
    null;
  const k = m ? undefined : /^[Mm]ake\s+([A-Z0-9].*?)\s+(?:my|the)\s+([a-z][a-z ]*)$/.exec(text);
  const setting = m?.[1] ?? k?.[2];
  const inApp = /^(?:[Ss]et|[Cc]hange|[Uu]pdate)\s+(?:my\s+|the\s+)?[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?\s+in\s+(?:the\s+)?([A-Z][\w&'-]*)/.exec(text)?.[1];
  const raw = m?.[2] ?? k?.[1];
  if (!setting || !raw || /,/.test(raw)) return undefined;
  const named = inApp ?? /(?<!\b[a-z]+ed\s|\b(?:located|based|born|made|built|kept)\s)\b(?:in|on|using|inside)\s+(?:the\s+|my\s+)?(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Today|Tomorrow|Tonight)\b)([A-Z][\w&'-]*)(?=\s+app\b|\s*$)/.exec(raw)?.[1];
  const value = raw.replace(/\s+(?:in|on|using|inside)\s+(?:the\s+|my\s+)?[A-Z][\w&'-]*(?:\s+app)?$/, '').trim();
  const hints = contentWords(setting);
  if (!value || hints.length === 0) return undefined;
  const goals: Goal[] = [
    // The cue leaves the verb out ("Set …" and "Change …" read alike).
    appGoal(named, { words: [...hints, ...contentWords(value)], verbs: [], names: [value], request: `${setting} ${value}` }),
    { kind: 'tap', targets: mineTabs(setting), text: `open ${mineTabs(setting)[0]}`, min: 0.8, optional: true, notTitle: true },
    { kind: 'fill', value, hints, text: `set ${setting} to ${value}`, via: PREFERENCE_PLACES, minShared: hints.length >= 3 ? 2 : 1 },
    { kind: 'tap', targets: ['Save', 'Done', 'OK', 'Apply', 'Confirm'], text: 'save', min: 0.9, optional: true, notTitle: true, lowest: true },
  ];
  return { goals, result: /\b(?:updated|saved|changed|set)\b/i };
}

/**
 * Several settings of one app in one request, or one said as a wish ("Use Oxi Brights detergent and Medium starch for
 * my X orders from now on", "From now on X should wash my clothes with Y detergent, and the starch on my shirts should
 * be Z", "Set the font to Serif and the theme to Sepia in X"): each setting's noun names its field, the capitalised
 * words with it are its value; the fields are filled one after another where the app keeps its preferences, then saved.
 * Generic English: a value before its noun after "use"/"with"/"and", or a noun "should be"/"set to" a value.
 */
export function settingPairs(text: string): { setting: string; value: string }[] {
  const t = text.replace(/\s+/g, ' ').trim();
  const VALUE = String.raw`[A-Z0-9][\w'’-]*(?:\s+(?:&\s+)?[A-Z0-9][\w'’-]*)*`;
  const NOUN = String.raw`[a-z][a-z-]+`;
  const out: { setting: string; value: string }[] = [];
  const add = (setting: string, value: string): void => {
    const words = contentWords(setting);
    if (words.length === 0 || !words.every((w) => knowsWord(w)) || out.some((p) => p.setting === setting)) return;
    out.push({ setting, value: value.trim() });
  };
  const setVerb = /\b(?:[Ss]et|[Cc]hange|[Uu]pdate|[Ss]witch)\b/.test(t);
  const said = new RegExp(String.raw`\b(?:the\s+|my\s+)?(${NOUN}(?:\s${NOUN})?)(?:\s+(?:on|for|of|in)\s+(?:my|the)\s+${NOUN})?\s+(should\s+be|to)\s+(${VALUE})`, 'g');
  for (const m of t.matchAll(said)) {
    if (m[2] === 'to' && !setVerb) continue;
    add(m[1]!.replace(/^(?:set|change|update|switch)\s+/i, ''), m[3]!);
  }
  for (const m of t.matchAll(new RegExp(String.raw`(?:\b[Uu]se|\bwith|\band|,)\s+(${VALUE})\s+(${NOUN})\b`, 'g'))) {
    if (FUNCTION_WORDS_RE.test(m[2]!)) continue;
    add(m[2]!, m[1]!);
  }
  return out;
}
const FUNCTION_WORDS_RE = /^(?:in|on|at|to|from|for|with|by|of|and|or|the|a|an|my|your|this|that|instead|too|please|now|again)$/;

export function understandSettings(text: string, raw = text): ActPlan | undefined {
  const pairs = settingPairs(text);
  const wish = /\bshould\s+be\b|\bfrom now on\b|\bgoing forward\b|\bby default\b/i.test(text);
  // (A request to do something else — send, order, book — with its options is no settings change.)
  const verb = (/^(?:please\s+)?([A-Za-z]+)/i.exec(text.trim())?.[1] ?? '').toLowerCase();
  if (!wish && !/^(?:set|change|update|use|switch|make|adjust)$/.test(verb)) return undefined;
  if (pairs.length < 2 && !(pairs.length === 1 && wish)) return undefined;
  const named = namedAppIn(text) ?? namedAppIn(raw);
  const hints = pairs.flatMap((p) => contentWords(p.setting));
  const goals: Goal[] = [
    appGoal(named, { words: [...hints, ...pairs.flatMap((p) => contentWords(p.value))], verbs: [], names: pairs.map((p) => p.value), request: pairs.map((p) => `${p.setting} ${p.value}`).join(' ') }),
    ...pairs.map((p): Goal => ({ kind: 'fill', value: p.value, hints: contentWords(p.setting), text: `set ${p.setting} to ${p.value}`, via: PREFERENCE_PLACES, minShared: 1 })),
    // The page's own save button, looked for below the fold too ("Save preferences" under the last section).
    { kind: 'submit', verbs: ['save', 'apply', 'update', 'done'], text: 'save the preferences' },
  ];
  return { goals, result: /\b(?:updated|saved|changed|set)\b/i };
}

/** Verbs whose automatic form apps name "Auto-<verb>" ("top up" → Auto-reload, "pay" → Autopay): generic English. */
const AUTO_SYNONYMS: readonly (readonly string[])[] = [
  ['top up', 'reload', 'recharge', 'refill'],
  ['pay', 'payment', 'autopay'],
  ['renew', 'renewal'],
  ['back up', 'backup'],
  ['save', 'saving'],
];

/**
 * An automatic feature of an app, switched on with its amount: "Turn on auto-reload for my X card with $50", "Top up my
 * X card automatically with $30 when it runs low", "Set up autopay for $40", "Auto-reload $20 on, please". The switch
 * is found by its label's words (the feature's words, "auto" for "automatically", and the verb's common synonyms), on
 * whichever screen of the app holds it; its amount goes into the field those words name ("Reload amount").
 */
export function understandFeature(text: string): ActPlan | undefined {
  const t = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '')
    // The condition of an automatic action ("when it runs low") says when, not what.
    .replace(/,?\s+(?:when|whenever|if|once)\s+(?:it|my|the|your|its|there)\b.*$/i, '')
    .replace(/,?\s+please$/i, '');
  const amount = /([$€£]\s?\d[\d,]*(?:\.\d{1,2})?)/.exec(t)?.[1];
  if (!amount) return undefined;
  let feature: string | undefined;
  let m: RegExpExecArray | null;
  const auto = /\bautomatic(?:ally)?\b/i.test(t);
  if ((m = /^(?:turn on|switch on|enable|activate|set up|start)\s+(?:the\s+|my\s+)?((?:auto[-\s]?)?[a-z][a-z-]*(?:\s+(?!(?:for|on|in|with|at|to|of|my|the)\b)[a-z][a-z-]*)?)\b/i.exec(t)) && (auto || /\bauto/i.test(m[1]!))) feature = m[1];
  else if ((m = /^((?:auto[-\s]?)[a-z][a-z-]*)\s+[$€£]/i.exec(t)) && /\bon$/i.test(t)) feature = m[1];
  else if (auto) {
    // "<verb> [my X] automatically …", "make the X <verb> … automatically": the verb the feature automates.
    // (A phrasal verb anywhere — "top up" — else the first word, else the word after "make the X".)
    const v = /\b([a-z]+\s+(?:up|in|out|over))\b/i.exec(t) ?? /^make\s+(?:the|my)\s+[a-z]+\s+([a-z]+)\b/i.exec(t) ?? /^([a-z]+)\b/i.exec(t);
    feature = v ? `auto ${v[1]!.toLowerCase()}` : undefined;
  }
  if (!feature) return undefined;
  const base = feature.toLowerCase().replace(/^auto[-\s]?/, '').trim();
  const syn = AUTO_SYNONYMS.filter((g) => g.includes(base)).flat();
  const label = [...new Set(['auto', ...contentWords(base), ...syn.flatMap((w) => contentWords(w)), ...(base.includes(' ') ? [] : [base])])].filter((w) => w.length >= 3);
  const named = namedAppIn(t);
  const words = contentWords(t.replace(amount, ' ')).filter((w) => !/^(?:turn|switch|enable|activate|automatically|automatic|make|set)$/.test(w));
  const goals: Goal[] = [
    appGoal(named, { words, verbs: [], names: [], request: t }),
    { kind: 'toggle', target: feature, on: true, text: `switch ${feature} on`, label, byLabel: true },
    { kind: 'fill', value: amount.replace(/\s/g, ''), hints: [...label, 'amount'], text: `set the ${feature} amount to ${amount}` },
    { kind: 'tap', targets: ['Save', 'Done', 'OK', 'Apply', 'Confirm'], text: 'save', min: 0.9, optional: true, notTitle: true, lowest: true },
  ];
  return { goals, result: /\b(?:updated|saved|changed|set|on)\b/i };
}

/** Where apps keep their own preferences and alerts (generic): looked into when the setting's field is not on screen. */
export const PREFERENCE_PLACES = ['Alerts', 'Notifications', 'Settings', 'Preferences', 'More', 'Profile', 'Menu'];

/**
 * A threshold alert: "Alert me when my checking drops below $50", "Let me know when my balance goes under $25", "I want
 * a warning if X falls below V". The app's low (or high) alert setting takes the amount: the field labelled with the
 * request's words (alert, low, balance …) in the app's alert or settings section.
 */
export function understandThreshold(text: string): ActPlan | undefined {
  if (!/\b(?:alert|notify|notification|warn|warning|let me know|tell me|remind|ping)\b/i.test(text)) return undefined;
  const m = /\b(drops?|dips?|falls?|goes|gets|is|sinks?|rises?|climbs?|exceeds?)?\s*(below|under|less than|lower than|above|over|more than|higher than)\s+([$€£]\s?\d[\d,]*(?:\.\d{1,2})?)/i.exec(text);
  if (!m) return undefined;
  const low = /below|under|less|lower/i.test(m[2]!);
  const value = m[3]!.replace(/\s/g, '');
  const named = namedAppIn(text);
  const words = contentWords(text.replace(m[0], ' ')).filter((w) => !/^(?:alert|notify|notification|warn|warning|know|tell|remind|ping|when|want|need|like)$/.test(w));
  const hints = [low ? 'low' : 'high', 'alert', ...words];
  const goals: Goal[] = [
    appGoal(named, { words, verbs: ['alert'], names: [], request: text }),
    { kind: 'fill', value, hints, text: `set the ${low ? 'low' : 'high'} alert to ${value}`, via: PREFERENCE_PLACES, minShared: 2 },
    { kind: 'tap', targets: ['Save', 'Done', 'OK', 'Apply', 'Confirm'], text: 'save', min: 0.9, optional: true, notTitle: true, lowest: true },
  ];
  return { goals, result: /\b(?:updated|saved|changed|set)\b/i };
}

/**
 * A statement of what the speaker just did, then a request with no names of its own ("I just parked the Honda CR-V in
 * Zone 4120. Start a 45 minutes session."): the request about what the statement names — the activity (the statement's
 * verb as a noun: "parking") qualifies the request's thing, the place keeps its preposition and the object is what it
 * is for ("Start a 45 minutes parking session in Zone 4120 for the Honda CR-V."). Generic English (WordNet for the verb).
 */
export function foldStatement(core: string): string | undefined {
  const parts = core.split(/(?<=[.!?])\s+(?=[A-Z])/);
  if (parts.length !== 2) return undefined;
  const st = /^I\s+(?:just\s+|already\s+|have\s+(?:just\s+)?|'ve\s+(?:just\s+)?)?([a-z]+ed)\s+(?:(?:the|my|our|a|an)\s+)?(.+?)\s+(in|at|on|near|by)\s+(.+?)[.!]?$/.exec(parts[0]!);
  const rq = /^([A-Z][a-z]+)\s+(an?|the|one)\s+(.+?)[.!]?$/.exec(parts[1]!);
  if (!st || !rq || instructionEntities(parts[1]!).some((e) => !/^\d/.test(e))) return undefined;
  const [, done, object, prep, place] = st;
  const base = baseForms(done!).find((b) => b !== done && isVerb(b));
  const gerund = base ? (/[^e]e$/.test(base) ? `${base.slice(0, -1)}ing` : `${base}ing`) : undefined;
  const words = rq[3]!.split(/\s+/);
  const noun = words.pop()!;
  const thing = [...words, ...(gerund && knowsWord(gerund) ? [gerund] : []), noun].join(' ');
  return `${rq[1]} ${rq[2]} ${thing} ${prep} ${place} for the ${object}.`;
}

/**
 * Something the speaker did with someone, then a request to record it ("Leo and I squared up our Climbing crew balance
 * by Zelle. Record the full amount in Splitto."): the plain request to do it in the app ("Square up with Leo in Climbing
 * crew via Zelle in Splitto."). Generic English: "<Name> and I <verb>ed [up|off|back] [our X balance] by/via <how>".
 */
export function foldSharedEvent(core: string): string | undefined {
  const parts = core.split(/(?<=[.!?])\s+(?=[A-Z])/);
  if (parts.length !== 2 || !/^(?:record|log|note|mark|add|enter)\b/i.test(parts[1]!)) return undefined;
  const ev = /^([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+and\s+I\s+(?:just\s+|already\s+|finally\s+)?([a-z]+ed)(?:\s+(up|off|back))?(?:\s+(?:our|my|the)\s+(.+?))?\s+(?:by|via|with|over|using|through)\s+(.+?)[.!]?$/.exec(parts[0]!);
  if (!ev) return undefined;
  const [, who, done, particle, what, how] = ev;
  const base = baseForms(done!).find((b) => b !== done && isVerb(b));
  if (!base) return undefined;
  // (The place the balance is kept: "our Climbing crew balance" → "Climbing crew".)
  const place = what ? /^([A-Z][\w'-]*(?:\s+[\w'-]+)*?)\s+(?:balance|bill|tab|debt|account|costs?|expenses?)$/.exec(what)?.[1] : undefined;
  const app = namedAppIn(parts[1]!);
  const verb = `${base.charAt(0).toUpperCase()}${base.slice(1)}${particle ? ` ${particle}` : ''}`;
  return `${verb} with ${who}${place ? ` in ${place}` : ''} via ${how}${app ? ` in ${app}` : ''}.`;
}

/**
 * A cost someone covered for a group, then a request to put it in the group ("Sam covered Coffee beans for everyone, it
 * came to $18.50. Put Coffee beans in our Climbing crew group on Splitto. File it under Groceries …"): the plain request to
 * add that cost there, paid by that person ("Add a shared cost of $18.50 for Coffee beans to Climbing crew in Splitto,
 * paid by Sam, under Groceries."). Generic English: "<Name> covered / paid for / picked up <thing> …, it came to <amount>".
 */
export function foldSharedCost(core: string): string | undefined {
  const m = /^([A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?:covered|paid\s+for|picked\s+up|bought|got)\s+(?:the\s+)?(.+?)(?:\s+for\s+(?:everyone|everybody|all of us|us all|us|the group|the team|the whole group))?,?\s+(?:and\s+)?(?:it|that|which|the total|the bill)\s+(?:came\s+to|was|cost|totall?ed)\s+([$€£]\s?\d[\d,]*(?:\.\d{1,2})?)[.!]?\s+(.+)$/.exec(core);
  if (!m) return undefined;
  const [, who, what, amount, rest] = m as unknown as [string, string, string, string, string];
  const place = /\b(?:[Pp]ut|[Aa]dd|[Ll]og|[Ee]nter|[Rr]ecord|[Ff]ile)\s+(?:it|this|that|.+?)\s+(?:in|into|to|under)\s+(?:our|my|the)\s+(.+?)(?:\s+(?:group|list))?(?=\s+(?:on|in|using)\s+[A-Z]|\s*[,.;!?]|$)/.exec(rest)?.[1];
  if (!place) return undefined;
  const app = namedAppIn(rest);
  const under = /\bunder\s+([A-Z][^,.;!?]*?)(?=\s+and\b|\s*[,.;!?]|$)/.exec(rest)?.[1];
  return `Add a shared cost of ${amount} for ${what} to ${place}${app ? ` in ${app}` : ''}, paid by ${who}${under ? `, under ${under}` : ''}.`;
}

/**
 * A request followed by sentences that only add its options ("… at 9 Mill Lane, ZIP 80302. It's the Medium box size.
 * Use Ground shipping."): one request with those options as further values ("…, ZIP 80302, Medium box size, Ground
 * shipping."). A need before the verb ("I need to send …") is the plain imperative. Generic English.
 */
export function mergeDetails(core: string): string | undefined {
  const parts = core.split(/(?<=[.!?])\s+(?=[A-Z"“])/);
  if (parts.length < 2) return undefined;
  const details: string[] = [];
  for (const p of parts.slice(1)) {
    const t = p.trim();
    const d = /^(?:It['’]s|It is|It['’]ll be|It will be|That['’]s)\s+(?:the\s+|a\s+|an\s+)?([A-Z0-9][^.!?]*?)[.!]?$/.exec(t) ?? /^(?:Use|Pick|Choose|Select|Go with|Make it)\s+(?:the\s+|a\s+|an\s+)?([A-Z0-9][^.!?]*?)[.!]?$/.exec(t);
    // An option named in a sentence of its own: "For the money back, choose X", "I'd like the money back as X",
    // "X is fine (for the refund)" — one option value ("as X"), read whole.
    const option =
      /^[A-Z][a-z]+(?:\s+[a-z]+){0,5},\s*(?:use|pick|choose|select|go with)\s+(?:the\s+|a\s+|an\s+)?([A-Z0-9][^.!?]*?)[.!]?$/.exec(t) ??
      /^I(?:['’]d| would)?\s+(?:like|want|prefer)\s+(?:(?:the|my|it|them)\b[a-z\s]{0,24}?\s+)?(?:as|in|via|by|with)\s+(?:the\s+|a\s+|an\s+)?([A-Z0-9][^.!?]*?)[.!]?$/.exec(t) ??
      /^([A-Z0-9][^.!?]*?)\s+(?:is|works|would be)\s+(?:fine|ok|okay|good|great|perfect)\b[^.!?]*[.!]?$/.exec(t);
    // "It lives in the Bedroom and gets Low light.": what a sentence about the thing says of it, its names as values.
    const about = !d && !option && /^(?:It|They)(?:['’]s|['’]re|['’]ll)?\s+(?!is\b|are\b)[a-z]+\b/.test(t) ? instructionEntities(t).filter((e) => !/^(?:It|They)\b/.test(e)) : [];
    if (about.length) {
      details.push(...about);
      continue;
    }
    // "The reason is Nail trim." → "reason Nail trim": a field's label and its value.
    const labelled = !d && !option ? /^The\s+([a-z]+(?:\s+[a-z]+){0,2})\s+(?:is|will be|should be)\s+([A-Z0-9"“$][^.!?]*?)[.!]?$/.exec(t) : undefined;
    if (labelled) {
      details.push(`${labelled[1]} ${labelled[2]}`);
      continue;
    }
    if (!d && !option) return undefined;
    details.push(d ? d[1]!.trim() : `as ${option![1]!.trim()}`);
  }
  const first = parts[0]!.trim().replace(/[.!]+$/, '');
  const head = plainImperative(first) ?? first;
  if (!/^[A-Z][a-z]+\b/.test(head) || /^I\b/.test(head)) return undefined;
  return `${head}, ${details.join(', ')}.`;
}

/**
 * A request followed by sentences of context that carry values ("Submit a transfer for X. The prescription number on
 * the label is 6648320. Greenleaf Pharmacy is out of my way now."): one request with the context's values as details —
 * a labelled value ("the prescription number … is 6648320" → "prescription number 6648320") or the names a sentence
 * gives. Undefined for a single sentence or context that names nothing. Generic English only.
 */
export function foldContext(core: string): string | undefined {
  const all = core.split(/(?<=[.!?;])\s+(?=[A-Za-z"“])/);
  if (all.length < 2) return undefined;
  // The request is the first sentence that starts with a verb; the others are its context.
  const at = all.findIndex((p) => { const w = /^([A-Z][a-z]+)\b/.exec(p.trim())?.[1]; return !!w && isVerb(w) && !/^(?:I|The|My|It|This|That|We|You|There)$/.test(w); });
  if (at < 0) return undefined;
  const first = all[at]!.trim().replace(/[.!?;]+$/, '');
  const parts = [all[at]!, ...all.filter((_, i) => i !== at)];
  const details: string[] = [];
  let place: string | undefined;
  for (const p of parts.slice(1)) {
    const t = p.trim().replace(/[.!?;]+$/, '');
    // The place the thing was put in ("X got added to our Lisbon trip group by mistake"): where the request acts on it.
    const kept = /\b(?:to|in|into|under)\s+(?:our|my|the)\s+([A-Z][\w'-]*(?:\s+[\w'-]+){0,3}?)\s+(?:group|list|folder|board|album|playlist|account)\b/.exec(t);
    if (kept && !place) {
      place = kept[1]!;
      details.push(...instructionEntities(t.replace(kept[0], ' ')).filter((e) => !first.includes(e)));
      continue;
    }
    const labelled = /^(?:the|my|its|their)\s+([a-z]+(?:\s+[a-z]+){0,2}?)(?:\s+(?:on|in|at|from|of|for)\s+(?:the|my|its)\s+[a-z]+)?\s+(?:is|are)\s+(?!not\b)([A-Z0-9$"“].*)$/i.exec(t);
    if (labelled) {
      details.push(`${labelled[1]} ${labelled[2]}`);
      continue;
    }
    const names = instructionEntities(t).filter((e) => !first.includes(e));
    details.push(...names);
  }
  // (Removing takes it "from" the place; other verbs act "in" it — before the app's name, if the request ends with one.)
  const placed = place ? first.replace(/(\s+(?:in|on|using)\s+(?:the\s+)?[A-Z][\w&'-]*(?:\s+app)?)?$/, (app) => ` ${/^(?:remove|delete|erase|drop|take)\b/i.test(first) ? 'from' : 'in'} ${place}${app}`) : first;
  if (!details.length) return place ? `${placed}.` : undefined;
  return `${placed}, ${details.join(', ')}.`;
}

/**
 * A request in the plain imperative, when its wording hides the verb: a need or wish ("I need to unfreeze X right now" →
 * "Unfreeze X"), a topic before a colon with a pronoun after it ("X: please unfreeze it" → "Unfreeze X"), a time
 * word at the end. Undefined when nothing changes. Generic English only.
 */
export function plainImperative(text: string): string | undefined {
  let t = text.replace(/\s+/g, ' ').trim().replace(/[.!]+$/, '');
  const topic = /^([A-Z][^:]{1,60}):\s*(?:please\s+|can you\s+|could you\s+)?([a-z]+(?:\s+(?:out|up|off|back|in))?)\s+(?:it|this|that|them)\b\s*(.*)$/i.exec(t);
  if (topic) t = `${topic[2]} ${topic[1]}${topic[3] ? ` ${topic[3]}` : ''}`;
  // "Have my X sent to Y" (a causative): "Send my X to Y".
  const causative = /^(?:please\s+)?(?:have|get)\s+((?:my|the|our)\s+.+?)\s+(sent|delivered|moved|shipped|redirected|rerouted|changed|cancel+ed|booked|held|returned|picked up)\s+(.+)$/i.exec(t);
  if (causative) {
    const base: Record<string, string> = { sent: 'send', held: 'hold', 'picked up': 'pick up' };
    const p = causative[2]!.toLowerCase();
    const v = base[p] ?? p.replace(/led$/, 'l').replace(/ied$/, 'y').replace(/(?<=[^aeiou][aeiou][^aeiou])ed$/, 'e').replace(/ed$/, '');
    t = `${v} ${causative[1]} ${causative[3]}`;
  }
  t = t
    .replace(/^(?:i\s+(?:really\s+)?(?:need|want|have|would like|'d like|got)\s+(?:you\s+)?to|i'd\s+like\s+(?:you\s+)?to|i\s+must|let's|please)\s+/i, '')
    .replace(/,?\s+(?:right now|right away|now|today|asap|immediately|for me|please)$/i, '')
    .trim();
  if (!t || t === text.replace(/\s+/g, ' ').trim().replace(/[.!]+$/, '')) return undefined;
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** The labels a day strip or tab may show for a date ("Thursday" → Thursday, Thu, Thurs). */
export function dayLabels(d: string): string[] {
  // A whole date ("Thursday, June 19"): its weekday's labels, then the date as written.
  const wd = /^([A-Z][a-z]+day),\s+\S+\s+\d{1,2}$/.exec(d)?.[1];
  if (wd) return [...dayLabels(wd), d];
  if (!/^[A-Z][a-z]+day$/.test(d)) return [d];
  const short = d.slice(0, 3);
  return [...new Set([d, short, ...(d.startsWith('Thu') ? ['Thurs'] : []), ...(d.startsWith('Tue') ? ['Tues'] : [])])];
}

/** The generic "<verb> <thing>" plan, or undefined when the request does not read as one. */
export function understandAction(request: string, opts: { stepVerbs?: boolean } = {}): ActPlan | undefined {
  const text = request
    .replace(/[“”]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '')
    // ("Get me a copy of X on loan": to have a thing on loan is to borrow it.)
    .replace(/^(?:get|grab|take)\s+(?:me\s+|us\s+)?(?:a\s+copy\s+of\s+)?(.+?)\s+on\s+loan\b/i, 'Borrow $1');
  if (!text || /[.;?]\s/.test(withoutAbbreviationDots(text))) return undefined;
  // "Have my X sent to Y": read as "Send my X to Y".
  if (/^(?:please\s+)?(?:have|get)\s+(?:my|the|our)\s/i.test(text)) {
    const plain = plainImperative(text);
    if (plain && !/^(?:have|get)\s/i.test(plain)) return understandAction(plain, { ...opts, stepVerbs: true });
  }
  const preference = understandPreference(text) ?? understandThreshold(text);
  if (preference) return preference;
  const words = text.split(' ');
  const first = words[0]!.replace(/[^A-Za-z'-]/g, '');
  // A verb the explicit step reader knows is read here only when that reader found no step in the request (opts).
  if (!first || (STEP_VERBS.test(first) && !opts.stepVerbs) || !/^[A-Z]?[a-z'-]+$/.test(first)) return undefined;
  const verb = PARTICLE.test(words[1] ?? '') ? `${first} ${words[1]}`.toLowerCase() : first.toLowerCase();
  const rest = words.slice(verb.split(' ').length).join(' ');
  // The app the request names ("in Library", "in the Library app", "using Wallet").
  const named = namedAppIn(text);
  // Names after the verb: the first is the thing to act on, the others are values to fill in.
  // A whole date ("Thursday, June 19"): one value, its words never names of their own.
  const fullDate = /\b(?:(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),?\s+)?((?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2})(?:st|nd|rd|th)?\b/.exec(rest);
  // (The half of a day is no name: "AM" of "from 10:00 AM" — the clock time is read below.)
  const all0 = instructionEntities(`then ${rest}`)
    .filter((e) => !isNumberEntity(e) && e !== named && !/^(?:AM|PM)$/i.test(e))
    .filter((e) => !fullDate || !(fullDate[0].includes(e) && (isDateEntity(e) || MONTH.test(e))))
    .concat(fullDate ? [fullDate[0].replace(/,\s*/, ', ')] : [])
    .filter((e, i, a) => a.indexOf(e) === i);
  // A date (a weekday, "June 12") is a value to choose, never the thing: the thing is the first other name.
  const isDay = (e: string): boolean => isDateEntity(e) || e === fullDate?.[0].replace(/,\s*/, ', ');
  const days = all0.filter(isDay);
  const listed = [...all0.filter((e) => !isDay(e)), ...days];
  // An owner before the thing ("Lulu's Methimazole 2.5 mg tablets", "Sam's Birthday Party"): the thing is what is owned;
  // the owner is a way to reach it (a section, a profile), never a value to fill in.
  const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // ("Cancel Leo's place at Multi-sports": the owner's place, spot or booking at the thing — the thing is what is held.)
  const owner = listed.length >= 2 && !isDay(listed[1]!) && new RegExp(`${esc(listed[0]!)}['’]s\\s+(?:(?:place|spot|seat|booking|reservation|slot|space|membership|enrol?ment|registration|sign-up)\\s+(?:at|in|on|for)\\s+(?:the\\s+)?)?${esc(listed[1]!.split(/\s+/)[0]!)}`).test(rest) ? listed[0] : undefined;
  const entities = owner ? listed.slice(1) : listed;
  const read = entities[0];
  if (!read) return undefined;
  // The name as written (instructionEntities drops brackets: "The Hobbit (Illustrated)").
  const ws = read.split(/\s+/);
  const span = new RegExp(`${ws[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*?${ws[ws.length - 1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)?`).exec(rest)?.[0];
  const written = span && /\(/.test(span) === /\)/.test(span) ? span : read;
  // A name with lower-case words before the kind of thing it is ("the Board games expense", "the Pizza night
  // expense"): the name runs to the kind word, the last lower-case word before a function word or the clause's end.
  const tail = new RegExp(`^${esc(written)}((?:\\s+[a-z][a-z'-]*)+?)\\s+([a-z]{3,})(?=\\s+(?:in|on|at|to|from|for|with|by|via|and|of)\\b|\\s*[,.;!?]|\\s*$)`).exec(rest.slice(rest.indexOf(written)));
  const article = /\b(?:the|my|our|this|that)\s+$/i.test(rest.slice(0, rest.indexOf(written)));
  const thing = article && tail && !STOP.has(tail[2]!) && !TIME_WORD.test(tail[2]!) && !tail[1]!.trim().split(/\s+/).some((w) => STOP.has(w)) ? `${written}${tail[1]}` : written;
  // A length of time the verb takes ("Extend X by 30 minutes", "Renew X for 2 weeks") is a value to choose too.
  const duration = /\b(?:by|for)\s+(\d+\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?)|an?\s+(?:hour|day|week|month))\b/i.exec(rest.slice(rest.indexOf(read) + read.length))?.[1];
  // (When something was done, for a record of it: "2 days ago" is a value as written, not a length of time.)
  const done = RECORD_VERB.test(verb);
  const ago = done ? /\b(\d+\s+(?:minutes?|hours?|days?|weeks?|months?)\s+ago)\b/i.exec(rest)?.[1] : undefined;
  // A name the thing is kept in ("the Gas expense from Cabin weekend", "settle up with Sam in Climbing crew"): a place
  // to open on the way to the thing, not a value to fill in.
  const containers = entities.slice(1).filter((e) => !isDay(e) && e !== named && new RegExp(`\\b(?:in|from|of|within|inside)\\s+(?:the\\s+|my\\s+|our\\s+)?${esc(e)}\\b`).test(rest));
  // (Its whole name as written, lower-case words included: "Cabin weekend", up to a function word or its kind.)
  const containerNames = containers.map((e) => new RegExp(`\\b${esc(e)}((?:\\s+[a-z][\\w-]*){0,2}?)(?=\\s+(?:in|on|at|to|from|for|with|by|via|and|group|list|folder)\\b|\\s*[,.;!?]|\\s*$)`).exec(rest)?.[0] ?? e);
  // How it was paid or sent, in lower-case words ("paid via bank transfer", "by bank transfer"): an option to choose.
  const method = /\b(?:via|paid\s+(?:by|with))\s+([a-z][a-z-]*(?:\s+[a-z][a-z-]*)?)(?=\s*[,.;!?]|\s*$|\s+(?:in|on|using)\s+[A-Z])/.exec(rest)?.[1];
  // A value after "for" that goes on in lower-case words ("for Oven & range repair on Friday"): the whole phrase, up to a
  // function word or the clause's end — one option's label.
  const phrase = (e: string): string =>
    new RegExp(`\\bfor\\s+(?:an?\\s+|the\\s+)?${esc(e)}((?:\\s+(?:&|[a-z][a-z'-]*)){1,4}?)(?=\\s+(?:on|at|in|to|from|for|with|by|via|and|arriving|starting|before|after)\\b|\\s*[,.;!?]|\\s*$)`).exec(rest)?.[0].replace(/^for\s+(?:an?\s+|the\s+)?/, '') ?? e;
  const windows = [...rest.matchAll(TIME_RANGE)].map((m) => m[0]);
  // (How long it is kept — "keeping it 2 hours", "hold it 3 days" — is a value to choose as well.)
  const kept = [...rest.matchAll(/\b(?:keep(?:ing)?|hold(?:ing)?|need(?:ing)?|hav(?:e|ing))\s+(?:it|them|the\s+[a-z]+)\s+(?:for\s+)?(\d+\s*(?:minutes?|hours?|days?|weeks?))\b/gi)].map((m) => m[1]!).filter((d) => d !== duration);
  // (A start time to choose — "from 10:00 AM" — is a value too, not for a record of something done.)
  const clock = RECORD_VERB.test(verb) ? [] : [...rest.replace(TIME_RANGE, ' ').matchAll(/\b(?:from|at|starting|for)\s+(\d{1,2}(?::\d{2})?\s?(?:AM|PM|am|pm))\b/g)].map((m) => m[1]!);
  // (Who made the thing, said right after it — "Slow Dance by Hazel & the Harbor" — tells it apart; no value to choose.)
  const maker = entities.slice(1).find((e) => new RegExp(`${esc(thing)}\\s+by\\s+${esc(e)}\\b`).test(rest));
  const values = [...entities.slice(1).filter((e) => !containers.includes(e) && e !== maker).map(phrase), ...windows, ...clock, ...(duration && !ago ? [duration] : []), ...(!done && !ago ? kept : []), ...(ago ? [ago] : []), ...(method && !STOP.has(method) ? [method] : [])];
  // Every length of time the request gives ("Pay for 30 minutes of parking in …"), wherever it stands.
  const durations = [...text.matchAll(/\b(\d+\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?)|an?\s+(?:hour|day|week|month))\b/gi)].map((m) => m[1]!.replace(/^an?\s+/i, '1 '));
  // (A span of times — "8–10 AM" — is one window to choose, as written; its ends are no times of their own.)
  const times = [...[...text.matchAll(TIME_RANGE)].map((m) => m[0]), ...[...text.replace(TIME_RANGE, ' ').matchAll(/\b(\d{1,2}(?::\d{2})?\s?(?:AM|PM|am|pm))\b/g)].map((m) => m[1]!)];
  const counts = [...text.matchAll(/\b(\d+)\s+([a-z]{3,})\s+(?:tickets?|seats?|passes|pass|places|spots)\b/g)].map((m) => `${m[1]} × ${m[2]}`);
  // "<label> every <n> <unit>" (two or more of them, or one after a change verb): a setting's value each.
  const recurrences = [...rest.matchAll(/\b([a-z]+)(?:\s+(?:it|them|him|her))?\s+(every\s+(?:\d+\s+)?(?:minutes?|hours?|days?|weeks?|months?|years?|other\s+(?:day|week|month)))\b/gi)]
    .map((m) => ({ value: m[2]!, label: contentWords(m[1]!) }))
    .filter((r) => r.label.length > 0);
  // (A container's words are no section for the action either: it was opened on the way to the thing.)
  const valueWords = new Set(contentWords([...values, ...durations, ...times, ...counts, ...recurrences.map((r) => r.value), ...containerNames].join(' ')));
  const at = rest.indexOf(thing.split(/\s+/)[0]!);
  const dayWords = new Set(days.flatMap((d) => contentWords(d)));
  // (Never the app's own name: "Pull my application in Hirewell, X" acts on X, not on "Hirewell".)
  const appWords = new Set(named ? contentWords(named) : []);
  const object = contentWords((at > 0 ? rest.slice(0, at) : '').replace(owner ? new RegExp(`${esc(owner)}['’]s`, 'g') : /$^/, ' ')).filter((w) => !dayWords.has(w) && !appWords.has(w));
  // (Removal verbs read as one — "Delete X", "Remove X", "Erase X" plan alike; the app's own word is among the targets.)
  const act = /^(?:delete|erase)$/.test(verb) ? 'remove' : verb;
  const all = contentWords(text.replace(thing, ' ')).filter((w) => !appWords.has(w)).map((w) => (w === verb ? act : w));
  const syn = SYNONYMS.filter((g) => g.includes(act)).flat().filter((w) => w !== act);
  const verbLabel = cap(act);
  // After a light verb the noun says the action: its button names the noun phrase in either order ("Refill request",
  // "Request refill") or one of its words.
  const nouns = LIGHT_VERB.test(verb) ? object.slice(0, 3) : [];
  const lightTargets = nouns.length ? [cap(nouns.join(' ')), ...(nouns.length >= 2 ? [cap([...nouns].reverse().join(' '))] : []), ...nouns.map(cap)] : [];
  const actionTargets = [...new Set([...(object.length ? [cap(`${act} ${object.slice(0, 2).join(' ')}`)] : []), verbLabel, ...syn.map(cap), ...lightTargets])];
  const actWords = [act, ...syn, ...nouns].filter((w) => !/\s/.test(w));
  const acted = [act, ...syn, ...nouns];
  // The kind of thing named right after it ("my Rewards Credit card", "the Metro Gas bill").
  const after = rest.slice(rest.indexOf(thing) + thing.length);
  const kindWord = /^\s+([a-z]{3,})\b/.exec(after)?.[1];
  const kinds = kindWord && !STOP.has(kindWord) && !/^(?:through|via|using|from|into|onto|with|without|within)$/.test(kindWord) ? contentWords(kindWord) : [];
  // (The kind's words end at a function word: "my application in Hirewell" is an application.)
  // (The app's name may stand before the kind: "my Hirewell application".)
  const myApp = named ? `(?:${esc(named)}\\s+)?` : '';
  const myKind = new RegExp(`\\bmy\\s+${myApp}((?:[a-z]+\\s+){0,2}?[a-z]+)(?=\\s+(?:in|on|at|for|from|with|to|via|using|and|or|of)\\b|\\s*[,.;!?]|\\s*$)`);
  // The day the thing itself is on ("Spin 45 on Thursday", "my Spin 45 class this Friday"), not a day to choose for it
  // ("Move X to Friday", "Book X for Y on Friday"): right after the thing, at most a few lower-case words between.
  // ("the Monday Sunrise Stretch class": the day right before the thing's name is its day too.)
  const dayWord = days[0]?.split(/[\s,]+/)[0] ?? '';
  const thingDay = days.length > 0 && (new RegExp(`${esc(dayWord)}\\s+${esc(thing)}`).test(rest) || new RegExp(`${esc(thing)}(?:['’]s)?(?:\\s+[a-z]+){0,3}\\s+(?:on|this|next)\\s+(?:the\\s+)?${esc(dayWord)}`).test(rest));
  // (And "my Rivera Plumbing visit": the user's own thing of that name, listed with the kind after it — Visits.)
  // ("the X visit" likewise for a verb that makes nothing new: "Change the X visit to Friday".)
  // (Not for a thing named with its own day — "my Pilates class on Saturday" —: the day's list shows it, one step less.)
  const ownedKind = LIGHT_VERB.test(verb) || thingDay ? undefined : new RegExp(`\\b${CREATES.test(verb) ? 'my' : '(?:my|the)'}\\s+${esc(thing)}\\s+([a-z]{3,})\\b`).exec(rest)?.[1];
  const mineWords = myKind.exec(rest)?.[1] ?? new RegExp(`\\bmy\\s+${myApp}((?:[a-z]+\\s+){0,2}[a-z]+)`).exec(rest)?.[1];
  const mine = mineTabs(mineWords ?? (ownedKind && !STOP.has(ownedKind) ? ownedKind : ''));
  const goals: Goal[] = [
    appGoal(named, { words: contentWords(rest), verbs: [verb, ...syn], names: [thing, ...values], request: text }),
    // Things that are the user's own ("my library loan of X") are listed in a "My …" section: open it when it shows.
    // (Found by the thing's kind — "my X visit" → Visits — it is not opened when the thing already shows.)
    ...(mine.length ? [{ kind: 'tap', targets: mine, text: `open ${mine[0]}`, min: 0.8, optional: true, notTitle: true, ...(mineWords ? {} : { already: [thing] }) } satisfies Goal] : []),
    // A day the thing is on ("Spin 45 on Thursday"): lists by day (a schedule's day strip) show it once that day is chosen.
    // (Not the day something was done, for a record of it: "Log X as Watered, Yesterday".)
    ...days.slice(0, done || !thingDay ? 0 : 1).map((d): Goal => ({ kind: 'tap', targets: dayLabels(d), text: `open ${d}`, min: 0.95, optional: true, notTitle: true })),
    // (Something new to book or buy is searched for even when its name already shows: a home screen's card may show the
    // user's own one — "Next trip: Toyota Corolla" — not the thing to book.)
    { kind: 'type', field: 'search', value: thing, submit: true, text: `search for ${thing}`, optional: true, ...(CREATES.test(verb) ? {} : { unlessVisible: thing }) },
    // Not on screen: a tab or section named by the kind of thing the request calls it ("my X card" → Cards).
    // (A container the request names, whole as written — "Flat 4B" — is the first place to look; a person the request
    // acts with — "settle up with Sam" — may be chosen after the action's button, on the page it opens.)
    { kind: 'tap', targets: [thing], text: `open ${thing}`, entity: true, min: 0.75, entry: actWords, ...(new RegExp(`\\bwith\\s+${esc(thing)}\\b`).test(rest) ? { counterpart: true } : {}), ...(kinds.length || owner || containers.length ? { via: [...containerNames, ...kinds, ...(owner ? contentWords(owner) : []), ...containerNames.flatMap((c) => contentWords(c))] } : {}), ...(days.length && !done && thingDay ? { near: dayLabels(days[0]!) } : maker ? { near: [maker] } : {}), ...(CREATES.test(verb) ? { notMine: true } : {}) },
    {
      kind: 'tap',
      targets: actionTargets,
      ...(CREATES.test(verb) ? { notMine: true } : {}),
      // (Playing a thing is often done by opening it: its page shows it playing, no "Play" button left to tap.)
      ...(/^(?:play|listen)$/.test(act) ? { optional: true } : {}),
      text: `tap ${actionTargets[0]}`,
      min: 0.8,
      // (Never a value's own word: "15 minutes" is an option, not a section.)
      via: all.filter((w) => w !== act && !valueWords.has(w)),
      notTitle: true,
      // A button that says more than the verb ("Request refill" for "refill").
      words: actWords,
      // The values chosen on the way when the thing's page has no such button (a duration, a vehicle, a day).
      // (And the time of day and the counts of a kind it names: "at 1:30 PM", "4 adult tickets".)
      values: [...new Set([...values, ...durations, ...times, ...counts])],
      after: all.filter((w) => w !== act && !valueWords.has(w) && !contentWords(thing).includes(w)),
      // (The owner's own button where each person has one: "Cancel booking" on Leo's row, not Maya's.)
      ...(owner ? { near: [owner] } : {}),
    },
    // (A value's field is found by the request's words, not by the words of its other values: "Pruned" is no "2 days ago".)
    // (Not the day the thing itself is on, for an action on something already there: "Cancel my X class on Wednesday"
    // finds Wednesday's X; nothing asks for the day again.)
    ...values.filter((v) => !(thingDay && !CREATES.test(verb) && v === days[0])).map((v): Goal => {
      const others = new Set(values.filter((o) => o !== v).flatMap((o) => contentWords(o)));
      return { kind: 'fill', value: v, hints: [...all.filter((w) => !others.has(w)), ...contentWords(v)], text: `fill in ${v}`, avoid: [thing] };
    }),
    // A recurrence the request sets for something done ("water every 14 days and fertilize every 4 weeks"): each is
    // the value of the setting named by the words before it, chosen as written ("Every 14 days").
    ...recurrences.map((r): Goal => ({ kind: 'fill', value: r.value, hints: r.label, text: `fill in ${r.value}`, avoid: [thing], minShared: 1 })),
    {
      kind: 'tap',
      // A dialog's button often says the verb and "now" ("Pay now", "Renew now").
      // (A bare "Cancel" in a dialog backs out of it: it confirms only a request whose own verb is cancel.)
      targets: ['Confirm', 'OK', 'Yes', 'Done', 'Save', 'Submit', ...actionTargets.filter((t) => act === 'cancel' || !/^cancel$/i.test(t)), `${verbLabel} now`],
      text: 'confirm',
      min: 0.7,
      optional: true,
      notTitle: true,
      // A dialog's button over a page that shows the same label: the dialog's sits lower.
      lowest: true,
      repeatLast: true,
      doneWhen: new RegExp(`\\b(?:${acted.map(past).join('|')})\\b`, 'i'),
      // A dialog's button that says more than the verb ("Pay and extend", "Confirm booking"); after settings chosen on
      // a form, the form's own "Save …" button.
      // (After options chosen on the way — "paid via Venmo" — a form's "Record …" button records the action.)
      // (A new time or other values chosen on a page are kept with its "Save …" button: "Save new time".)
      words: recurrences.length ? [...actWords, 'save'] : values.length ? [...actWords, 'record', 'save'] : actWords,
    },
  ];
  return { goals, result: new RegExp(`\\b(?:${acted.map(past).join('|')})\\b`, 'i') };
}
