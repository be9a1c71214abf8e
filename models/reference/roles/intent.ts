/**
 * Request reading shared by the reference policy and critics: what is asked, independent of how it is worded.
 *
 * `requestCore` removes the *discourse* around a request — courtesy and indirect frames ("Could you please …?",
 * "I'd like you to …", "Go ahead and …", "…, please"), and sentences that carry nothing to act on (context such
 * as "I'm in a bit of a rush." or a closing "Thanks!") — leaving the request itself for the task readers. The
 * frames are English discourse markers, not any app's or task family's vocabulary; a sentence is dropped only
 * when it names nothing (no capitalised word after its first, no number, no quote, no address), was not
 * itself framed as a request ("Please fix it." stays) and another sentence is kept.
 *
 * `instructionEntities` reads the key entities (quoted strings, names introduced by "called/titled/saying",
 * "my <kind> X" / "the X <kind>", e-mail addresses, capitalised runs, numbers); moved here from the critics so
 * policy and critics share one reader.
 *
 * `entityEnd` is the boundary rule for entities read from free text: a name or value stops at a function word
 * ("Set Dark mode to Off in Settings" → value "Off", not "Off in Settings").
 */

import { isVerb, knowsWord, verbOfGerund } from '../wordnet.js';
import { everydayShorthand } from './shorthand.js';
import { cap1, IMPERATIVES, tokens } from './text-match.js';

/** Leading courtesy/indirect frames, longest first (each is removed repeatedly: "Kindly, please …"). */
const LEAD_FRAMES: readonly RegExp[] = [
  /^(?:could|can|would|will)\s+i\s+ask\s+you\s+to\s+/i,
  // "Would you be able to …", "Are you able to …".
  /^(?:(?:would|will|could)\s+you\s+be|are\s+you)\s+able\s+to\s+/i,
  // "Is it possible to …", "Would it be possible for you to …", "Any chance you could …", "Do you think you could …".
  /^(?:is|would)\s+it\s+(?:be\s+)?possible\s+(?:for\s+you\s+)?to\s+/i,
  /^(?:is\s+there\s+(?:any\s+)?(?:way|chance)\s+(?:you\s+(?:could|can)|to)|any\s+chance\s+you\s+(?:could|can)|do\s+you\s+think\s+you\s+(?:could|can))\s+/i,
  // "Would you mind removing X" — the gerund becomes the imperative (stripFrames).
  /^(?:would|do|could)\s+you\s+mind\s+(?=[a-z]+ing\b)/i,
  /^(?:could|can|would|will)\s+you\s+(?:please\s+|kindly\s+)?(?=\w)(?!tell\b|say\b|let me know\b|find out\b)/i,
  /^(?:i'd|i\s+would|i)\s+(?:like|need|want)\s+you\s+to\s+/i,
  /^(?:please|kindly|pls|plz)\s*,?\s+/i,
  /^go\s+ahead\s+and\s+/i,
  // A greeting before the request ("Hey, I'd like you to …", "Hi! Please …").
  /^(?:hey|hi|hello|ok|okay)(?:\s+there)?\s*[,!]\s*/i,
  /^(?:from\s+now\s+on|going\s+forward|from\s+today\s+on),?\s+/i,
  /^help\s+me\s+out\s+and\s+/i,
];
/** Trailing courtesy: ", please", " for me", " thanks". */
const TRAIL_FRAMES: readonly RegExp[] = [/,?\s+please\s*$/i, /,?\s+(?:thanks|thank you)\s*$/i, /,?\s+for\s+me\s*$/i];

/** A sentence that names something to act on: a capitalised word after its first, a number, a quote, an e-mail. */
function namesSomething(sentence: string): boolean {
  const words = sentence.trim().split(/\s+/).slice(1);
  return words.some((w) => /^["“'(]?[\p{Lu}\p{N}$€£]/u.test(w) && !/^I(?:'[a-z]+)?[,.!?:;]*$/.test(w)) || /["“”]|\d|@/.test(sentence);
}

/** A business or title abbreviation whose period ends no sentence ("Rivera Bros. Plumbing", "Dr. Lee", "Acme Co. Ltd"). */
export const ABBREVIATION = /\b(?:Bros|Inc|Co|Corp|Ltd|St|Dr|Mr|Mrs|Ms|Jr|Sr|Mt|Ft|Ave|Rd|Blvd|Dept|Intl|Assn|Bldg|Ste)\.$/;

/** The text with an abbreviation's period before a name's next word dropped, for tests of where sentences end. */
export function withoutAbbreviationDots(text: string): string {
  return text.replace(/\b(Bros|Inc|Co|Corp|Ltd|St|Dr|Mr|Mrs|Ms|Jr|Sr|Mt|Ft|Ave|Rd|Blvd|Dept|Intl|Assn|Bldg|Ste)\.(?=\s+[\p{Lu}&])/gu, '$1');
}

/** Splits into sentences at ". ", "! " and "? " followed by a capital (never inside quotes, nor after "Bros." and the like). */
function sentences(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    cur += ch;
    if (ch === '"' || ch === '“' || ch === '”') quoted = !quoted;
    if (!quoted && /[.!?]/.test(ch) && !ABBREVIATION.test(cur) && /\s/.test(text[i + 1] ?? '') && /[\p{Lu}"“]/u.test(text.slice(i + 1).trimStart()[0] ?? '')) {
      out.push(cur.trim());
      cur = '';
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function stripFrames(sentence: string): { text: string; framed: boolean } {
  let s = sentence.trim();
  const question = /\?\s*$/.test(s);
  let changed = true;
  let framed = false;
  while (changed) {
    changed = false;
    for (const re of LEAD_FRAMES) {
      const next = s.replace(re, '');
      if (next !== s) {
        s = next;
        changed = true;
        framed = true;
      }
    }
  }
  // "(Would you mind) removing X" → "remove X": the gerund a frame left at the start is the request's verb.
  if (framed) {
    const g = /^([a-z]+ing)\b/i.exec(s);
    const base = g ? verbOfGerund(g[1]!) : undefined;
    if (base) s = base + s.slice(g![1]!.length);
  }
  const end = /[.!?]+$/.exec(s)?.[0] ?? '';
  let body = s.slice(0, s.length - end.length);
  for (const re of TRAIL_FRAMES) {
    const next = body.replace(re, '');
    // A sentence that ends in "please" is a request ("Add it to the calendar please."), whatever it names.
    if (next !== body && /please\s*$/i.test(body)) framed = true;
    body = next;
  }
  // A framed question ("Could you X?") is a request: its "?" becomes a full stop.
  const stop = framed && question ? '.' : end;
  body = body.trim();
  return { text: framed && body ? body[0]!.toUpperCase() + body.slice(1) + stop : body + stop, framed };
}

/** A sentence piece: the main clause, a purpose clause ("so I don't forget X") or an aside ("it's in X"). */
interface Piece {
  text: string;
  role: 'main' | 'purpose' | 'aside';
  /** The clause after "…, so" / "…, please": a request whatever its verb. */
  request?: boolean;
}
type Part = { text: string; framed: boolean; role: Piece['role'] };

/** Quoted spans replaced by placeholders (so no clause rule looks inside a quote), and the way back. */
function shield(text: string): { text: string; back: (s: string) => string } {
  const quotes: string[] = [];
  const t = text.replace(/["“][^"“”]*["”]/g, (q) => `\u0001${quotes.push(q) - 1}\u0001`);
  return { text: t, back: (s) => s.replace(/\u0001(\d+)\u0001/g, (_a, i: string) => quotes[Number(i)]!) };
}


/** Words that open a subordinate clause's subject ("so I …", "so it …"). */
/** Words before a number that count or measure (units, times, amounts), not a numbered thing's kind. */
const NOT_NUMBERED = /^(?:the|my|your|our|their|his|her|its|about|around|over|under|than|least|most|only|just|all|every|each|some|and|or|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|seconds?|secs?|items?|times?|units?|pieces?|people|persons?|guests?|dollars?|euros?|pounds?|cents?|percent|points?|miles?|km|kg|mg|ml|steps?|pages?|copies|tickets?|rides?|trips?|stops?|floors?|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun|number|code|pin|phone|plate|amount|balance|total|price|cost)$/i;

/** A clause about the speaker before a comma ("I'm heading out later, …", "We're out of milk, …"). */
const CONTEXT_LEAD = /^((?:i|i'm|i am|i've|i'll|i'd|we|we're|we've|we'll|my|our|it's|there's|there is|tomorrow|tonight|today)\b[^,;]*?),\s+(?:(?:but|so|and)\s+)?(?:(?:can|could|would|will)\s+you\s+|please\s+|just\s+)?([a-z]+)\b/i;
/**
 * Any clause before a comma, then the request asked as a question ("A delivery is coming, can you unlock …", "The
 * sitter starts tomorrow, could you add …"): the question frame marks where the request starts, whatever came first
 * (unless the first clause is itself a request: it starts with a verb). Likewise a reason before a colon ("So I don't
 * forget: make a new note …").
 */
const ASKED_AFTER = /^([^,;:]*?[^,;:\s]),\s+(?:(?:but|so|and)\s+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?([a-z]+)\b/i;
const REASON_COLON = /^((?:so|because|since|just so|in case|before|while|as)\b[^,;:]*?):\s+(?:please\s+)?([a-z]+)\b/i;
/** A verb that can start a request (not a question word, a greeting or a subject). */
const ACTION_VERB = (w: string): boolean => (IMPERATIVES.has(w.toLowerCase()) && !NOT_ACTIONS.has(w.toLowerCase())) || /^(?:grab|get|buy|pay|renew|borrow|lock|unlock|reserve|refill|transfer|report|log|add|drop|cancel|book|extend|invite|send|start|stop|name|label|title)$/i.test(w);
const NOT_ACTIONS = new Set('what how which when who where is are does do can could would will please i thanks thank hi hey quick let need want kindly'.split(' '));
const SUBJECT_WORD = /^(?:i|it|we|they|you|he|she|there)\b/i;
/** A remark on where the thing is ("it's in X", "they're under X"): not part of the request. */
const ASIDE = /^(?:it's|it is|its|they're|they are|that's|that is)\s+(?:in|under|listed under|filed under|in the)\s+[^,;]+[.!?]?$/i;

/**
 * The clauses of a sentence that act as sentences of their own (English clause structure, no task vocabulary):
 * "<context>; <request>", "<context>, so <request>" ("so" + a verb: a consequence, the request follows), a purpose
 * clause "<request> so (that) I/it …" set apart, and an aside on where the thing is ("…, it's in X").
 */
function clauses(sentence: string): Piece[] {
  const { text, back } = shield(sentence);
  const out: Piece[] = [];
  const segs = text.split(/;\s+/);
  for (const [si, seg] of segs.entries()) {
    // A clause cut off at ";" ends like a sentence; the last keeps its own ending (a closing quote included).
    let rest = si === segs.length - 1 || /[.!?]$/.test(seg.trim()) ? seg.trim() : `${seg.trim()}.`;
    const end = /[.!?]+$/.exec(rest)?.[0] ?? '';
    // A topic before a colon, then the request ("Zone 4102: add 1 hour", "Joint Debit card: freeze it"): the request
    // about that topic — its pronoun stands for it, or the topic follows ("Add 1 hour for Zone 4102").
    const topic = /^((?:the\s+|my\s+)?[\p{Lu}\p{N}][^:;,]{0,40}?):\s+([a-z]+)\b(.*)$/u.exec(rest);
    if (topic && ACTION_VERB(topic[2]!) && namesSomething(`x ${topic[1]!}`) && !REASON_COLON.test(rest) && !/\b(?:I|we|you)\b/.test(topic[1]!)) {
      const body = `${topic[2]!}${topic[3]!}`.replace(/[.!?]+$/, '');
      const withIt = body.replace(/\b(?:it|them)\b/, topic[1]!);
      // (A verb with no object of its own takes the topic as its object: "Zone 4120: extend by 30 minutes" → "Extend
      // Zone 4120 by 30 minutes"; one that names its own object is done in the topic, a one-word name: "Contacts: get
      // rid of Jon Smith" → "Get rid of Jon Smith in Contacts".)
      const objectLess = /^\s+(?:by|for|until|till)\s+\d/.test(topic[3]!) && !/^add$/i.test(topic[2]!);
      // (Not a possessive object: "Choir: cancel Maya's booking" is Maya's booking of the Choir.)
      const ownObject = /^[A-Z][\w&-]*$/.test(topic[1]!) && namesSomething(`x ${topic[3]!}`) && !/['’]s\b/.test(topic[3]!) && !/^add$/i.test(topic[2]!);
      rest = `${cap1(withIt !== body ? withIt : objectLess ? `${topic[2]!} ${topic[1]!}${topic[3]!.replace(/[.!?]+$/, '')}` : ownObject ? `${body} in ${topic[1]!}` : `${body} ${/^add$/i.test(topic[2]!) ? 'to' : 'for'} ${topic[1]!}`)}${end}`;
    }
    // A purpose clause: "so (that) I / it / we …" up to the end of the clause.
    const purpose = /,?\s+so(?:\s+that)?\s+(?=(?:i|it|we|they|you|he|she)\b)/i.exec(rest);
    let purposeText: string | undefined;
    let consequence: string | undefined;
    if (purpose && purpose.index > 0) {
      const after = rest.slice(purpose.index + purpose[0].length);
      // ("…, so I'm doing X for Breakfast": a statement of what follows, not a purpose — a context clause of its own.)
      // (The purpose ends where the request goes on with a verb of its own: "… so I can follow it, and name it X".)
      const more = /,\s+(?:and\s+)?(?:then\s+)?(?=([a-z]+)\s)/.exec(after);
      const goesOn = more && ACTION_VERB(more[1]!) ? after.slice(more.index).replace(/[.!?]+$/, '') : '';
      const own = goesOn ? after.slice(0, more!.index) : after;
      if (/^(?:i|we|they|you|he|she|it)(?:['’](?:m|re|ve|s)|\s+(?:am|are|have|was|were))\b/i.test(own)) consequence = own[0]!.toUpperCase() + own.slice(1);
      else purposeText = own;
      rest = rest.slice(0, purpose.index) + goesOn + end;
    }
    // A consequence: "…, so delete that entry" — the part after "so" is the request; likewise "…, please remove it".
    const so = /,\s+(?:(?:and\s+)?so|please)\s+(?=(\w+))/i.exec(rest);
    const heads: string[] = [];
    let requestAt = -1;
    let ctx: RegExpExecArray | null;
    if (so && so.index > 0 && !SUBJECT_WORD.test(so[1]!) && !/^(?:that|much|many|far|long)$/i.test(so[1]!)) {
      const after = rest.slice(so.index + so[0].length);
      heads.push(rest.slice(0, so.index) + '.', after[0]!.toUpperCase() + after.slice(1));
      requestAt = 1;
    } else if (
      ((ctx = CONTEXT_LEAD.exec(rest)) && ACTION_VERB(ctx[2]!)) ||
      ((ctx = ASKED_AFTER.exec(rest)) && !NOT_ACTIONS.has(ctx[2]!.toLowerCase()) && !ACTION_VERB(ctx[1]!.split(/\s+/)[0]!)) ||
      ((ctx = REASON_COLON.exec(rest)) && ACTION_VERB(ctx[2]!))
    ) {
      // "I'm heading downtown later, grab me a pass": a context clause of the speaker, then the request.
      const after = rest.slice(ctx[1]!.length).replace(/^[,:]\s*(?:(?:but|so|and)\s+)?/i, '');
      heads.push(`${ctx[1]!}.`, after[0]!.toUpperCase() + after.slice(1));
      requestAt = 1;
    } else heads.push(rest);
    for (const [hi, h] of heads.entries()) {
      const request = hi === requestAt ? { request: true } : {};
      // "…, it's in Hoodies" at the end of a clause: an aside.
      const aside = /,\s+((?:it's|it is|they're|they are)\s+(?:in|under|listed under|filed under)\s+[^,;]+?)([.!?]*)$/i.exec(h);
      if (aside) {
        out.push({ text: back(h.slice(0, aside.index) + aside[2]), role: 'main', ...request }, { text: back(aside[1]!), role: 'aside' });
      } else out.push({ text: back(h), role: ASIDE.test(h.trim()) ? 'aside' : 'main', ...request });
    }
    if (purposeText) out.push({ text: back(purposeText), role: 'purpose' });
    if (consequence) out.push({ text: back(consequence), role: 'main' });
  }
  return out.filter((p) => /\w/.test(p.text));
}

/** Words after which a name read from context ends ("Shopping list every day", "The Martian yet"). */
const CONTEXT_STOP =
  /^(?:in|on|at|to|from|for|by|via|using|inside|under|and|or|but|then|so|please|now|a|an|my|your|this|that|every|each|all|today|tonight|tomorrow|yet|anymore|later|again|already|after|before|soon|too|also|is|are|was|were|got|has|have|had|will|would|should|can|could|coming|because|since|[a-z]+n['’]t)$/i;
/** Month and weekday names: a date after "on"/"in", never the rest of a name. */
const CALENDAR_WORD = /^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec|Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*[,.;:]?$/;
/** Weekday names (a day of its own: "Monday Vinyasa Flow" is a day and a name). */
export const WEEKDAY = /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/;
/** Capitalised words that are never the thing a pronoun stands for. */
const NOT_THING = /^(?:(?:I|It|They|We|You|He|She|There|That)(?:['’](?:m|ve|d|ll|re|s))?|This|All|Some|My|Our|The|A|An|Something|Someone|Somebody|Anything|Everything|Nothing|Everyone|Everybody)$/;

/**
 * What a pronoun of the request stands for, read from a context sentence: a text introduced by "this:" (quoted),
 * the sentence's subject ("Gym routine is out of date"), or its first name after the first word — capitalised
 * words, joined by "of/with/and/&" between capitals, and one lowercase word after a one-word name ("Shopping list").
 */
export function contextThing(sentence: string): string | undefined {
  const s = sentence.trim().replace(/[.!?]+$/, '');
  const colon = /\b(?:this|these|the following)\s*:\s*(.+)$/i.exec(s);
  if (colon) return `"${colon[1]!.replace(/^["“]|["”]$/g, '').trim()}"`;
  // "… emailed me a tracking number: PH4417092653": a thing of a kind, given as a code after a colon — kind and code.
  const coded = /\b(?:a|an|the|my|our|this|new)\s+((?:[a-z]+\s+){0,2}[a-z]{3,})\s*:\s*([\p{Lu}\p{N}][\p{Lu}\p{N}-]{3,})$/u.exec(s);
  if (coded && /\d/.test(coded[2]!) && /\p{Lu}/u.test(coded[2]!) && !/\bnew\b/.test(coded[1]!)) return `${coded[1]} ${coded[2]}`;
  // "the message titled Recipe you asked for": a title runs to the end of the sentence.
  const titled = /\b(?:titled|entitled|called|named)\s+(?!it\b|them\b)([\p{Lu}\p{N}"“].*)$/u.exec(s);
  if (titled) return `"${titled[1]!.replace(/^["“]|["”]$/g, '').trim()}"`;
  // "There's a verification code from X in my mail": the thing is what there is.
  const there = /^there(?:'s|’s| is| are)\s+(?:a|an|the|some)\s+(.+?)(?:\s+(?:in|on|at|inside)\s+(?:my|the|your)\s+\w+)?$/i.exec(s);
  if (there) return `the ${there[1]}`;
  // "X needs to see my file Lease Agreement.pdf": a thing named right after its kind — the thing, not who needs it.
  const after = /\b(?:the|my|our)\s+(?:file|document|doc|photo|picture|video|folder|album|spreadsheet|presentation)\s+([\p{Lu}\p{N}][^,;:"“”]*?)$/u.exec(s);
  if (after && after[1]!.split(/\s+/).length <= 6) return after[1];
  // "I don't need the Work late shift alarm any more": the name between "the/my" and a kind word, whole.
  const kinded = new RegExp(`\\b(?:the|my)\\s+([\\p{Lu}\\p{N}][^,;:"“”.]*?)\\s+(?:${CONTEXT_KINDS})\\b`, 'u').exec(s);
  if (kinded && kinded[1]!.split(/\s+/).length <= 5) return kinded[1];
  // "X is running low on / out of Y": what runs out is the thing, not who ("Lulu is running low on Methimazole").
  const low = /\b(?:low on|out of)\s+(?:my|the|his|her|its|their)?\s*([\p{Lu}].*)$/u.exec(s);
  if (low) {
    const t = contextThing(`It ${low[1]!}`);
    if (t) return t;
  }
  // (Any past tense after a name of two or more capitalised words: "Julia Novak changed phones".)
  const be = /^((?:the\s+|my\s+)?[\p{Lu}\p{N}][^,;:"“”]*?)\s+(?:is|are|was|were|got|has|have|had|needs|wants)(?:n['’]t)?\b/u.exec(s);
  const past = /^((?:[\p{Lu}][\p{L}'’.&-]+\s+){1,3}[\p{Lu}][\p{L}'’&-]+)\s+[a-z]{3,}ed\b/u.exec(s);
  // (A clause of its own before "and" is not the subject: "Plans changed and Dentist Follow-up isn't happening".)
  if (be) be[1] = be[1]!.replace(/^[\p{Lu}][\p{L}'’-]*(?:\s+[\p{L}'’-]+){0,3}?\s+[a-z]{3,}ed\s+(?:and|so|but)\s+(?=[\p{Lu}\p{N}])/u, '');
  const subject = past && (!be || be[1]!.length > past[1]!.length) ? past : be;
  if (subject && !NOT_THING.test(subject[1]!.split(/\s+/)[0]!) && subject[1]!.split(/\s+/).length <= 5) return subject[1]!.replace(/^(?:the|my)\s+/i, '');
  const quoted = /["“]([^"“”]+)["”]/.exec(s);
  if (quoted) return quoted[1];
  // "We're finally doing a deck repair", "We keep putting off the gutter cleaning": what the speaker is doing, at the
  // sentence's end after its article, when nothing in it is capitalised.
  const doing = /^(?:I|We)(?:['’](?:m|re|ve|d))?\s+(?:[a-z]+\s+){1,3}(?:a|an|the|our|my)\s+((?:[a-z]+\s+){0,2}[a-z]{3,})$/.exec(s);
  if (doing && !/[\p{Lu}\p{N}]/u.test(s.slice(2))) return doing[1];
  const words = s.split(/\s+/);
  const cap = (w: string | undefined): boolean => !!w && /^[\p{Lu}\p{N}]/u.test(w) && !NOT_THING.test(w.replace(/[,;:]$/, '')) && !/^\d/.test(w);
  for (let i = 1; i < words.length; i++) {
    // "The Martian": a capitalised article before a capitalised word belongs to the name.
    const article = words[i] === 'The' && cap(words[i + 1]);
    // (A weekday or month alone is when, not what: "We've got people over on Sunday, so …".)
    if ((!cap(words[i]) || (CALENDAR_WORD.test(words[i]!) && !cap(words[i + 1]))) && !article) continue;
    const run = [words[i]!];
    let j = i + 1;
    while (j < words.length && !/[,;:]$/.test(run[run.length - 1]!)) {
      const w = words[j]!;
      if (cap(w)) run.push(w);
      // A number that names, after a capitalised word ("Route 40"), not a date ("June 4").
      else if (/^\d+[A-Z]?[,;:]?$/.test(w) && !CALENDAR_WORD.test(run[run.length - 1]!) && (/[,;:]$/.test(w) || !words[j + 1] || cap(words[j + 1]) || CONTEXT_STOP.test(words[j + 1]!.replace(/[,.;:!?]+$/, '')))) run.push(w);
      // A strength or size after the name belongs to it ("Lisinopril 10 mg").
      else if (/^\d+(?:\.\d+)?$/.test(w) && UNIT.test((words[j + 1] ?? '').replace(/[,.;:!?]+$/, ''))) run.push(w, words[++j]!);
      else if (/^(?:of|with|and|&|de|the|to|in|on|at|for|from)$/i.test(w) && cap(words[j + 1]) && !CALENDAR_WORD.test(words[j + 1]!)) run.push(w, words[++j]!);
      else if (run.length === 1 && !CONTEXT_STOP.test(w) && !/(?:ing|ed|ly)$/i.test(w) && /^[a-z]/.test(w)) {
        // One lower-case word after a capitalised one ("Banana bread"); up to three when a function word or the
        // sentence's end closes them ("I'm doing Banana oat muffins for Breakfast").
        const tail = [w];
        while (tail.length < 3 && !/[,;:]$/.test(tail[tail.length - 1]!)) {
          const x = words[j + tail.length];
          if (!x || !/^[a-z][a-z'-]*[,;:]?$/.test(x) || CONTEXT_STOP.test(x.replace(/[,;:]$/, '')) || /(?:ing|ed|ly)$/i.test(x.replace(/[,;:]$/, ''))) break;
          tail.push(x);
        }
        const closer = words[j + tail.length];
        const closed = /[,;:]$/.test(tail[tail.length - 1]!) || !closer || CONTEXT_STOP.test(closer.replace(/[,.;:!?]+$/, ''));
        run.push(...(closed ? tail : [w]));
        j += closed ? tail.length : 1;
        break;
      } else break;
      j++;
    }
    // "The Martian" keeps its article; a sentence-internal "The" alone is no name.
    return run.join(' ').replace(/[,;:]+$/, '');
  }
  return undefined;
}

/** A request sentence: framed, or opening with an imperative, a wish ("I want/need/'d like <thing>") or "New <kind>". */
function isRequest(p: { text: string; framed: boolean }): boolean {
  if (p.framed) return true;
  const first = (p.text.split(/\s+/)[0] ?? '').toLowerCase().replace(/[,.:;!?]+$/, '');
  if (/^(?:i|is|are|what|how|which|when|who|where|does|do|can|could|would|will|thanks|thank|hi|hey|quick|need|want)$/.test(first)) {
    return /^I(?:'d| would)?\s+(?:like|want|need)\s+(?!to\b)/i.test(p.text);
  }
  // A verb the list does not know, its object a pronoun pointing back ("Report it to …", "Renew them"): a request.
  return IMPERATIVES.has(first) || first === 'new' || /^[a-z]+\s+(?:it|them)\b/i.test(p.text.trim());
}

/** Labelled parts of a request ("Title: X.", "Subject: Y.", "Text: Z."): the phrase each label stands for. */
function labelled(text: string): string | undefined {
  // "Call the note X." — a sentence that only names what the request makes.
  const naming = /^(?:call|name|title)\s+the\s+(?:note|event|file|list|entry)\s+(.+?)[.!]?$/i.exec(text.trim());
  if (naming) return ` titled ${naming[1]!.trim()}`;
  const m = /^(title|name|subject|text|message|body|note|content)\s*:\s*(.+?)[.!]?$/i.exec(text.trim());
  if (!m) return undefined;
  const v = m[2]!.trim();
  const label = m[1]!.toLowerCase();
  if (label === 'title' || label === 'name') return ` titled ${v}`;
  if (label === 'subject') return ` with the subject ${v}`;
  return ` that says ${/^["“]/.test(v) ? v : `"${v}"`}`;
}

/** Kinds of record a context sentence may give its thing ("I no longer need an alarm for Work"). */
const CONTEXT_KINDS = 'alarm|note|event|contact|conversation|chat|email|reminder|appointment';
/** Kinds a context sentence may give its thing further on ("X finished the job and sent the bill"). */
const LATER_KINDS = 'bill|invoice|visit|booking|reservation|application|interview|order|delivery';
/** Kinds a "that <kind>" pronoun may name ("delete that entry", "remove that note"). */
const KIND_WORDS = 'entry|one|note|event|alarm|contact|book|item|product|conversation|chat|thread|email|mail|message|reminder|appointment|setting|booking|reservation|session|order|ticket|pass|class|loan|hold|subscription|request|payment|trip|ride|rental|visit';

/** Rewrites of one request clause into the plain imperative the task readers know (English structure only). */
function plainRequest(text: string): { text: string; changed: boolean } {
  let t = text;
  const { text: sh, back } = shield(t);
  let s = sh;
  // "New alarm please: …" — a courtesy word before a colon or comma.
  s = s.replace(/\s+please(?=\s*[:,])/i, '');
  // "… on my phone": the device, not a place.
  s = s.replace(/\s+(?:on|in)\s+(?:my|the|this)\s+(?:phone|device)\b/i, '');
  // "X should be / needs to be V" → "Set X to V" ("Turn X On/Off" for a switch position).
  const m = /^((?:the\s+|my\s+)?.+?)\s+(?:should|needs? to|must|has to|ought to)\s+be\s+(?:set\s+to\s+|at\s+|turned\s+)?(.+?)([.!?]*)$/i.exec(s);
  if (m && !/^(?:i|it|this|that|they|we|you)\b/i.test(m[1]!)) {
    const subject = m[1]!.replace(/^My\b/, 'my').replace(/^The\b/, 'the');
    s = /^(?:on|off)$/i.test(m[2]!) ? `Turn ${subject} ${m[2]}${m[3] || '.'}` : `Set ${subject} to ${m[2]}${m[3] || '.'}`;
  }
  // "…, and leave the other cards alone": what not to touch adds no step.
  s = s.replace(/,?\s+(?:and\s+)?(?:leave|keep)\s+(?:the\s+|all\s+the\s+)?(?:other|rest)\b[^.!?]*?\s+(?:alone|as they are|untouched)(?=[.!?]*$)/i, '');
  // "Open Bank and freeze X" → "Freeze X in Bank": the app to open says where the request is done. (Not a step list:
  // "Open X, tap Y …" keeps its steps.)
  s = s.replace(/^(?:open|go\s+(?:in)?to|launch|use)\s+(?:the\s+|my\s+)?([A-Z][\w-]*)(?:\s+app)?\s*,?\s+(?:and|then)\s+(?:then\s+)?([a-z]+)\b(.*?)([.!?]*)$/i, (all, app: string, verb: string, rest: string, end: string) =>
    /^(?:tap|click|press|type|enter|swipe|scroll|go|select|choose|open|find|look|search|navigate|hit|long)$/i.test(verb) || !isVerb(verb) ? all : `${verb[0]!.toUpperCase()}${verb.slice(1)}${rest} in ${app}${end}`,
  );
  // "Post it on X so local pros can send quotes", "Put a request on X so contractors can bid on it": what is asked
  // for is the quotes — "Get quotes for it in X".
  s = s.replace(/^(?:post|put|list|submit|share|add)\s+(it|this|that|them|an?\s+(?:request|job|listing|post|project)|(?:my|the|our)\s+[^.;!?]+?)\s+(?:on|in|to|through)\s+(?:the\s+)?([A-Z][\w&-]*)(?:\s+app)?\s+so\s+(?:that\s+)?(?:[a-z]+\s+){0,3}(?:can|could|will|may)\s+(?:(?:send|give|make|submit|offer)\s+(?:me\s+|us\s+)?(quotes|bids|offers|estimates|prices)|(bid|quote)\s+on\s+(?:it|this|that|them))\b([^.!?]*?)([.!?]*)$/i,
    (_a, what: string, app: string, noun: string | undefined, verb: string | undefined, rest: string, end: string) =>
      `Get ${noun ?? `${verb!.toLowerCase()}s`} for ${/^an?\s/i.test(what) ? 'it' : what} in ${app}${rest}${end}`);
  // "Use Mendwick to book them for Friday" → "Book them for Friday in Mendwick": the app used says where it is done.
  s = s.replace(/^(?:use|with)\s+(?:the\s+|my\s+)?([A-Z][\w&-]*)(?:\s+app)?\s*,?\s+to\s+([a-z]+)\b(.*?)([.!?]*)$/i, (all, app: string, verb: string, rest: string, end: string) =>
    isVerb(verb) ? `${verb[0]!.toUpperCase()}${verb.slice(1)}${rest} in ${app}${end}` : all,
  );
  // "Make my doors lock themselves 5 minutes after they are unlocked" → "Set auto-lock to 5 minutes": something done
  // by itself a while after an event is the app's automatic feature of that verb.
  s = s.replace(/^(?:(?:[Hh]ave|[Gg]et|[Mm]ake|[Ll]et)\s+([A-Z][\w&-]*)\s+)?(?:[Mm]ake\s+(?:my|the|our)\s+[a-z]+\s+)?([A-Za-z]+)\s+(?:(?:the|my|our)\s+[a-z]+\s+)?(?:themselves|itself|(?:again\s+)?automatically(?:\s+again)?)\s+(\d+\s+(?:seconds?|minutes?|hours?))\s+after\s+[^.!?]*?(?:\s+in\s+([A-Z][\w&-]*))?(?=\s*[.!?]|\s*$)/,
    (all, app1: string | undefined, verb: string, delay: string, app2: string | undefined) => {
      const app = app1 ?? app2;
      return isVerb(verb.toLowerCase()) ? `Set ${app ? '' : 'the '}auto-${verb.toLowerCase()}${app ? ` in ${app}` : ''} to ${delay}` : all;
    });
  // "Set the amount of X to V" is "Change the amount of X to V": a value of a thing's attribute changes it.
  s = s.replace(/^set\s+(?=(?:the|my)\s+[a-z]+\s+of\s+)/i, 'Change ');
  // "the one called X" → "X".
  s = s.replace(/\bthe\s+one\s+(?:called|named|labell?ed)\s+(?=[A-Z])/g, '');
  // "Set up a visit / an appointment" → "Book a visit": arranging a time slot; "set up a X" otherwise creates one.
  s = s.replace(/^set\s+up\s+(?=(?:a|an|the|my)\s+(?:new\s+)?([a-z]+))/i, (_a, noun: string) =>
    /^(?:visit|appointment|meeting|call|session|class|consultation|checkup|check-up|reservation|booking|pickup|delivery|viewing|lesson|test)$/i.test(noun) ? 'Book ' : 'Create ',
  );
  // "… and write X in the note (so …)" → "… with the note X": the value, not a step.
  s = s.replace(/\s+and\s+(?:write|put|add|type)\s+(["“]?[A-Z0-9][^.!?]*?["”]?)\s+(?:in|into|as)\s+the\s+(note|memo|reference|message|comment|description)\b(?:\s+(?:field|box|line))?(?:\s+so\s+[^.!?]*)?/i, ' with the $2 $1');
  // "Log in Fernly that Zed was fertilized yesterday" → "Log Zed as Fertilized, Yesterday in Fernly": what was done to a
  // named thing, and when, are the values of the log entry.
  s = s.replace(/^([Ll]og|[Rr]ecord|[Nn]ote|[Tt]rack|[Mm]ark\s+down)\s+(?:in\s+(?:the\s+|my\s+)?([A-Z][\w-]*)(?:\s+app)?\s+)?that\s+((?:[A-Z][\w'-]*\s+){0,2}[A-Z][\w'-]*)\s+(?:was|were|got|has\s+been|have\s+been)\s+([a-z]+ed)\b\s*(today|yesterday|this\s+morning|last\s+night|\d+\s+days?\s+ago)?\s*(?:(?:in|on)\s+((?:the|my)\s+[a-z]+\s+app|(?:the\s+|my\s+)?[A-Z][\w-]*(?:\s+app)?))?([.!?]*)$/,
    (_a, _v: string, app1: string | undefined, thing: string, done: string, when: string | undefined, app2: string | undefined, end: string) => {
      const cap = (w: string): string => w[0]!.toUpperCase() + w.slice(1);
      const app = app1 ?? app2;
      return `Log ${thing} as ${cap(done)}${when ? `, ${cap(when)}` : ''}${app ? ` in ${app.replace(/^(?:the|my)\s+(?=[A-Z])/, '')}` : ''}${end || '.'}`;
    });
  // "… for me from the Library app": the beneficiary says nothing about the request.
  s = s.replace(/\s+for\s+me\b(?=\s+(?:from|through|via)\b)/i, '');
  // Everyday verbs of deleting ("scrap / trash / ditch X (off my calendar)") → "Delete X (from my calendar)"; "swap X to V" is
  // a change; "adjust / bring X to V", "adjust X so it's at V" set it.
  s = s.replace(/^(?:scrap|trash|ditch|bin|nuke|axe|toss|junk|dump)\s+/i, 'Delete ');
  s = s.replace(/^(delete|remove)\s+(.+?)\s+off\s+(?=(?:my|the|our)\s)/i, '$1 $2 from ');
  s = s.replace(/^swap\s+(?=.*\bto\s+\S)/i, 'Change ');
  s = s.replace(/^(?:adjust|bring)\s+((?:the\s+|my\s+)?[A-Za-z][^,;]*?)\s+(?:so\s+(?:that\s+)?(?:it['’]s|it\s+is|they['’]re|they\s+are)\s+(?:at|on)|(?:up\s+|down\s+)?to)\s+(\d[\d.,:]*\s*(?:%|[a-z]+)?)([.!?]*)$/i, 'Set $1 to $2$3');
  // A verbless setting with a number: "Media volume to 2" → "Set Media volume to 2".
  if (!IMPERATIVES.has((s.split(/\s+/)[0] ?? '').toLowerCase()) && !isVerb((s.split(/\s+/)[0] ?? '').toLowerCase())) {
    s = s.replace(/^((?:[A-Z][\w-]*\s+)?(?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*)\s+to\s+(\d[\d.,:]*)([.!?]*)$/, 'Set $1 to $2$3');
  }
  // "Put the X alarm On" → "Turn the X alarm On".
  s = s.replace(/^put\s+((?:the|my)\s+[^,;]+?\s+(?:on|off))([.!?]*)$/i, 'Turn $1$2');
  // "Give me more time on X by renewing it" → "Renew X": the verb of "by …ing it" is the request, its object the thing named.
  s = s.replace(/^[^.!?]*?\b((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)\s+by\s+([a-z]+ing)\s+(?:it|them)\b(.*)$/, (all, thing: string, g: string, rest: string) => {
    const base = verbOfGerund(g);
    return base && !/^(?:I|My)$/.test(thing) ? `${cap1(base)} ${thing}${rest}` : all;
  });
  // "Put a hold on X" → "Place a hold on X"; "book X in on Monday" → "book X on Monday".
  s = s.replace(/^put\s+(?:a\s+)?hold\s+on\s+/i, 'Place a hold on ');
  s = s.replace(/^(book|sign|check)\s+((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)\s+in\s+(?=(?:on|for|at|this|next)\b)/i, '$1 $2 ');
  // "… in my Clock settings" → "… in Clock": an app's own settings are in the app.
  s = s.replace(/\bin\s+(?:my\s+|the\s+)?(?!Settings\b|Phone\b)([A-Z][\w-]*)(?:\s+app)?\s+settings\b/g, 'in $1');
  // "change Anna Lee number to …" → "change Anna Lee's number to …": a name right before a record's field owns it.
  s = s.replace(/\bthe\s+((?:phone\s+|mobile\s+|cell\s+)?(?:number|email|e-mail|address))\s+(?:for|of)\s+((?:[A-Z][a-z-]*\s+){0,2}[A-Z][a-z-]*)\b(?!['’])/, "$2's $1");
  s = s.replace(/^(change|update|edit|fix|set|correct)\s+((?:[A-Z][a-z-]*\s+){0,2}[A-Z][a-z-]*)\s+((?:phone\s+|mobile\s+|cell\s+)?(?:number|email|e-mail|address))\b/i, "$1 $2's $3");
  // "Update X's number in my Contacts to V" → "Update X's number to V in Contacts": the user's app, said inside the
  // change of a person's field, goes after it.
  s = s.replace(/^(change|update|set|edit|fix|correct|swap|move)\s+([^,;]+?['’]s\s+[^,;]+?)\s+in\s+my\s+([A-Z][\w-]*)(?:\s+app)?\s+to\s+([^.!?]+?)([.!?]*)$/i, '$1 $2 to $4 in $3$5');
  // "Shoot a message to X that reads "…"" → "Message X: "…""; "Text X in App and say "…"" → "Message X: "…" in App".
  s = s.replace(/^(?:shoot|drop|fire\s+off|send|ping|write)\s+(?:a|an)\s+(?:(?:quick|short|brief)\s+)?(?:text(?:\s+message)?|message|line|dm)\s+(?:over\s+)?to\s+(.+?)\s+(?:that|which)\s+(?:reads|says)\s*:?\s*(?=\u0001)/i, 'Message $1: ');
  s = s.replace(/^(?:text|message)\s+(.+?)\s+((?:in|on|via|using)\s+(?:the\s+)?[A-Z][\w-]*(?:\s+app)?)\s+and\s+(?:say|tell\s+(?:him|her|them))\s*:?\s*(\u0001\d+\u0001)([.!?]*)$/i, 'Message $1: $3 $2$4');
  // Phrasal verbs of everyday English: "take out" a book is borrowing it, "call off" cancels, "sign me up for" and
  // "reserve me a spot in" book.
  s = s.replace(/^take\s+out\s+/i, 'Borrow ').replace(/^call\s+off\s+/i, 'Cancel ');
  s = s.replace(/^sign\s+(?:me|us|him|her|them)\s+up\s+(?:for|to)\s+/i, 'Book ');
  s = s.replace(/^(?:reserve|book|get|save|hold)\s+(?:me|us)\s+(?:a\s+)?(?:spot|place|seat|space)\s+(?:in|at|for|on)\s+/i, 'Book ');
  // "2 X from Y into cart" → "Add 2 X from Y to the cart".
  s = s.replace(/^(\d+)\s+(.+?)\s+(?:into|in|to|in\s+the|into\s+the|into\s+my)\s+(?:the\s+|my\s+)?cart\b/i, 'Add $1 $2 to the cart');
  // "email X re Subject: "…"" → "Email X with the subject Subject saying "…"": "re" names the subject.
  s = s.replace(/^(e-?mail|mail)\s+(\S+@\S+)\s+re:?\s+([^:\u0001]+?)\s*:\s*(?=\u0001)/i, 'Email $2 with the subject $3 saying ');
  // "Update my X preferences so the A is V and the B is W" → "Set my X A to V and the B to W": the state wished for
  // is the values to set.
  s = s.replace(/^(?:update|change|set|adjust|edit|fix)\s+(?:my|the)\s+(?:([A-Z][\w-]*)\s+)?(?:[a-z]+\s+)?(?:preferences|settings|options|profile)\s+so\s+(?:that\s+)?(?:the\s+|my\s+)?([^,;]+?)\s+(?:is|are)\s+([^,;]+?)(?:,?\s+and\s+(?:the\s+|my\s+)?([^,;]+?)\s+(?:is|are)\s+([^,;]+?))?([.!?]*)$/i,
    (_a, app: string | undefined, a: string, v: string, b: string | undefined, w: string | undefined, end: string) => `Set my ${app ? `${app} ` : ''}${a} to ${v}${b ? ` and the ${b} to ${w}` : ''}${end}`);
  // "…, lasting 3 hours" → "… for 3 hours".
  s = s.replace(/,?\s+(?:lasting|that\s+lasts|to\s+last|running)\s+(?=(?:\d|an?\s+(?:hour|day|week)|half\s+an?\s+hour))/i, ' for ');
  // "Give X Editor access to Y" → "Share Y with X as Editor": access given to a person is sharing with them.
  s = s.replace(/^(?:[Gg]ive|[Gg]rant)\s+((?:[A-Z][\w'’-]*\s+){0,3}[A-Z][\w'’-]*)\s+([A-Z][a-z]+(?:[\s-][a-z]+)?)\s+(?:access|rights|permissions?)\s+(?:to|on|for)\s+(.+?)([.!?]*)$/, 'Share $3 with $1 as $2$4');
  // "Put X in the Y folder" → "Move X to the Y folder"; "Set X to be available offline" → "Make X available offline".
  s = s.replace(/^put\s+(.+?)\s+(?:in|into)\s+((?:the|my)\s+[^,;.!?]+?\s+(?:folder|directory))\b/i, 'Move $1 to $2');
  s = s.replace(/^set\s+(.+?)\s+to\s+be\s+(?=(?:available|visible|private|public|shared|hidden)\b)/i, 'Make $1 ');
  // "Share X with them and make them Editor" → "Share X with them as Editor".
  s = s.replace(/^(share\s+.+?\s+with\s+.+?)\s+and\s+make\s+(?:them|him|her)\s+(?:an?\s+)?([A-Z][a-z]+)\b/i, '$1 as $2');
  // "Get rid of X" → "Remove X"; "take X off my list" → "Remove X from my list".
  s = s.replace(/^get\s+rid\s+of\s+/i, 'Remove ');
  s = s.replace(/^take\s+(.+?)\s+off\s+(?=(?:my|the|our)\s)/i, 'Remove $1 from ');
  // "Set X's care schedule to water every 5 days": "set" before a verb phrase changes the thing, as "Change" does.
  s = s.replace(/^set\s+(?=(?:my\s+|the\s+)?[A-Z][\w-]*['’]s\s+[a-z]+(?:\s+[a-z]+)?\s+(?:in\s+[A-Z][\w-]*\s+)?to\s+[a-z]+\s+every\b)/i, 'Change ');
  // "Pull up / bring up X" → "Show X" (a page to view).
  s = s.replace(/^(?:pull|bring)\s+up\s+/i, 'Show ').replace(/^(?:pull|bring)\s+(.+?)\s+up\b/i, 'Show $1');
  // "in zone 3318", "at gate 12": a numbered place or thing is a name ("Zone 3318"), not a count of a unit.
  s = s.replace(/\b(in|at|for|on|from|of|to|into)\s+(the\s+)?([a-z]{3,})\s+(\d{2,}[A-Z]?)\b(?!\s*(?:%|[ap]\.?m\b|:\d))/g, (all, prep: string, the: string | undefined, noun: string, num: string) =>
    NOT_NUMBERED.test(noun) ? all : `${prep} ${the ?? ''}${noun[0]!.toUpperCase()}${noun.slice(1)} ${num}`,
  );
  // "Add 30 minutes to my parking in Zone 12" / "Extend the meter in Zone 12 by 30 minutes" → "Extend Zone 12 by 30 minutes":
  // time added to a named thing extends it.
  const DURATION = String.raw`\d+\s*(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?)|an?\s+(?:hour|day|week|month)|half\s+an\s+hour`;
  s = s.replace(new RegExp(String.raw`^(?:[Aa]dd|[Pp]ut|[Bb]uy|[Gg]et|[Pp]ay\s+for)\s+(?:another\s+|an?\s+extra\s+)?(${DURATION})\s+(?:more\s+)?(?:to|onto|on|for)\s+(?:the\s+|my\s+)?(?:[a-z]+\s+){0,2}?(?:(?:in|at|for|of)\s+)?((?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z\d][\w-]*)*)(?:\s+(?:session|parking|meter|booking|spot|stay|rental))?([.!?]*)$`), 'Extend $2 by $1$3');
  // ("Add 1 hour to my Subaru Outback trip in Wheelnook" → "Extend my Subaru Outback trip by 1 hour in Wheelnook": the named
  // thing with its kind after it.)
  s = s.replace(new RegExp(String.raw`^(?:[Aa]dd|[Pp]ut)\s+(?:another\s+|an?\s+extra\s+)?(${DURATION})\s+(?:more\s+)?(?:to|onto|on)\s+(the|my)\s+((?:[A-Z][\w'’.&-]*\s+)*?[A-Z\d][\w'’&-]*)\s+([a-z]{3,})((?:\s+(?:in|on|using|through|via)\s+(?:the\s+)?[A-Z][\w&-]*(?:\s+app)?)?)([.!?]*)$`), 'Extend $2 $3 $4 by $1$5$6');
  s = s.replace(new RegExp(String.raw`^(extend|renew|top\s+up)\s+(?:the\s+|my\s+)?(?:[a-z]+\s+){1,2}?(?:in|at|for|of)\s+((?:the\s+)?[A-Z][\w-]*(?:\s+[A-Z\d][\w-]*)*)\s+(by|for)\s+(${DURATION})([.!?]*)$`, 'i'), (_a, v: string, name: string, by: string, d: string, e: string) => `${v[0]!.toUpperCase()}${v.slice(1)} ${name} ${by} ${d}${e}`);
  // Chat shorthand: "pls"/"plz" is "please" (dropped at the end), "msg" is "message".
  s = s.replace(/[,\s]+(?:pls|plz|thx|thanks|thank you)\s*([.!?]*)$/i, '$1').replace(/^msg\b/i, 'Message');
  // "Delete X (text|chat) thread / conversation" → "Delete the conversation with X".
  s = s.replace(/^([Dd]elete|[Rr]emove|[Cc]lear(?:\s+out)?)\s+(?:the\s+|my\s+)?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)\s+(?:(?:(?:text|chat|message|sms)\s+)?thread\b|(?:text\s+|chat\s+)?(?:conversation|chat)(?=\s*[.!?]?$))/, (_a, v: string, who: string) =>
    `${v[0]!.toUpperCase()}${v.slice(1).toLowerCase()} the conversation with ${who}`,
  );
  // "Create a Dentist alarm that …" → "Create an alarm called Dentist that …": a name before the kind word names it.
  // (Not when a name follows the kind: in "Add a Clock alarm called Laundry" the word before it is the app.)
  s = s.replace(/^((?:in\s+(?:the\s+)?[A-Z]\w*(?:\s+app)?,?\s+)?)(create|add|set\s+up|make|schedule)\s+(?:a|an|the)\s+([A-Z][\w'-]*(?:\s+[a-zA-Z][\w'-]*){0,3}?)\s+(alarm|event|reminder)\b(?!\s+(?:called|named|titled)\b)/i, (all, lead: string, v: string, name: string, kind: string) =>
    /^(?:new|daily|weekly|morning|evening)$/i.test(name) ? all : `${lead}${v} an ${kind} called ${name}`.replace(/\ban (?=[^aeiou])/i, 'a '),
  );
  // "Star X as a favourite (contact)" → "Star X".
  s = s.replace(/^(star|favou?rite)\s+(.+?)\s+as\s+(?:a\s+|my\s+)?favou?rite(?:\s+contact)?\b/i, '$1 $2');
  // "Open the X lock" → "Unlock X".
  s = s.replace(/^[Oo]pen\s+(?:the\s+|my\s+)?([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)\s+lock\b/, 'Unlock the $1');
  // "calendar event X, delete it" → "Delete calendar event X": a topic before a comma, the verb after it on a pronoun.
  s = s.replace(/^((?:the\s+|my\s+)?(?:[a-z]+\s+){0,2}[A-Z][^,;]*?),\s+(?:please\s+|just\s+)?([a-z]+)\s+(?:it|them|that)\b\s*(.*)$/, (all, topic: string, verb: string, rest: string) =>
    ACTION_VERB(verb) ? `${verb[0]!.toUpperCase()}${verb.slice(1)} ${topic}${rest ? ` ${rest}` : ''}` : all,
  );
  // "wish list" is one word in apps ("Wishlist").
  s = s.replace(/\bwish\s+list\b/gi, 'wishlist');
  // "Settle / clear the X bill" → "Pay the X bill".
  s = s.replace(/^(?:settle|clear)\s+(?=(?:the|my|this)\s+.*\bbill\b)/i, 'Pay ');
  // "Open the lock on / of X" → "Unlock X".
  s = s.replace(/^open\s+the\s+lock\s+(?:on|of)\s+/i, 'Unlock ');
  // "New note, Title: text" → "New note titled Title that says "text"".
  s = s.replace(/^(new\s+(?:note|memo))\s*[,:–-]\s*([^:,]{1,40}?)\s*:\s*(?!\u0001)(.+?)[.!]?$/i, '$1 titled $2 that says "$3"');
  // A verbless setting with its value: "Auto lock after 30 seconds" → "Set auto lock to 30 seconds".
  if (!IMPERATIVES.has((s.split(/\s+/)[0] ?? '').toLowerCase())) {
    s = s.replace(/^((?:[\w-]+\s+){0,3}[\w-]+)\s+(?:after|to|at)\s+(\d+\s*(?:seconds?|secs?|minutes?|mins?|hours?|%|percent)|[$€£]\s?\d[\d,]*(?:\.\d{1,2})?)([.!?]*)$/i, 'Set $1 to $2$3');
  }
  // "Write down / jot down "X"" (no note named) → "Create a note that says "X"".
  if (!/\bnote\b/i.test(s)) s = s.replace(/^(?:write|jot|note)\s+down\s+(?=\u0001)/i, 'Create a note that says ');
  // "Order / request a refill" → "Refill it": a nominalised action is its verb (the thing from the context).
  s = s.replace(/^(?:order|get|place)\s+(?:a|an)\s+(refill|renewal)\b(.*)$/i, (_a, noun: string, rest: string) => `${noun.toLowerCase() === 'refill' ? 'Refill' : 'Renew'} it${rest}`);
  s = s.replace(/^(?:request|put\s+in)\s+(?:a|an)\s+(refill|renewal)([.!?]*)$/i, (_a, noun: string, rest: string) => `${noun.toLowerCase() === 'refill' ? 'Refill' : 'Renew'} it${rest}`);
  // "Ask the vet / pharmacy for a 90-day supply refill, …" → "Refill it, 90-day supply, …": asking a third party for the
  // nominalised action is the action; its modifiers are values.
  s = s.replace(/^(?:request|put\s+in|ask\s+(?:the\s+|my\s+)?[\w-]+\s+for)\s+(?:a|an)\s+((?:[\w-]+\s+){0,3}?)(refill|renewal)\b(.*)$/i, (_a, mods: string, noun: string, rest: string) =>
    /^\s+(?:of|for)\s+/i.test(rest)
      ? `${noun.toLowerCase() === 'refill' ? 'Refill' : 'Renew'} ${rest.replace(/^\s+(?:of|for)\s+/i, '')}${mods.trim() ? `, ${mods.trim()}` : ''}`
      : `${noun.toLowerCase() === 'refill' ? 'Refill' : 'Renew'} it${mods.trim() ? `, ${mods.trim()}` : ''}${rest}`,
  );
  // "Make sure / ensure X is V" → "Turn X On/Off" or "Set X to V".
  const sure = /^(?:make sure|ensure|check that)\s+(?:that\s+)?((?:the\s+|my\s+)?.+?)\s+(?:is|are)\s+(?:set to\s+|turned\s+|switched\s+)?(.+?)([.!?]*)$/i.exec(s);
  if (sure && !/^(?:i|it|this|that|they|we|you)\b/i.test(sure[1]!)) {
    s = /^(?:on|off)$/i.test(sure[2]!) ? `Turn ${sure[1]} ${sure[2]}${sure[3] || '.'}` : `Set ${sure[1]} to ${sure[2]}${sure[3] || '.'}`;
  }
  // "… and need X switched Off" — a wish for a state after a clause saying why.
  s = s.replace(/^.*?\b(?:and|so|but)\s+(?:i\s+)?(?:need|want)\s+(?!to\b)(.+?)\s+(?:turned|switched|set|kept)\s+(on|off)\b(.*)$/i, 'Turn $1 $2$3');
  // "Get / have FreshFold collect …", "get X to collect …" → "Collect … in X": a causative's second verb is the action.
  s = s.replace(/^(?:[Gg]et|[Hh]ave|[Ll]et)\s+([A-Z][\w&'-]*)\s+(?:to\s+)?([a-z]+)\b(.*?)([.!?]*)$/, (all, app: string, verb: string, rest: string, end: string) =>
    IMPERATIVES.has(verb) || ACTION_VERB(verb) || isVerb(verb) ? `${verb.charAt(0).toUpperCase()}${verb.slice(1)}${rest} in ${app}${end || '.'}` : all,
  );
  // "Ask the pharmacy to refill X" → "Refill X": the request to a third party is the request.
  s = s.replace(/^ask\s+(?:the\s+|my\s+)?[\w-]+(?:\s+[\w-]+)?\s+to\s+([a-z]+\b.*)$/i, (_a, rest: string) => rest.charAt(0).toUpperCase() + rest.slice(1));
  // "the phone's X setting" → "X": the device and the word "setting" name no thing.
  s = s.replace(/\b(?:the|my|this)\s+(?:phone|device)['’]s\s+/i, '').replace(/(\b[A-Z][\w-]*(?:\s+[a-z][\w-]*)*)\s+setting\b(?=\s+to\b)/, '$1');
  // "Make the X last / be V" → "Set the X to V".
  s = s.replace(/^make\s+((?:the\s+|my\s+)?[^,;]+?)\s+(?:last|be)\s+(?!a\b|an\b)(.+?)([.!?]*)$/i, 'Set $1 to $2$3');
  // "Flip / toggle X On" → "Turn X On".
  s = s.replace(/^(?:flip|toggle)\s+(.+?\s+(?:on|off))([.!?]*)$/i, 'Turn $1$2');
  s = s.replace(/^(?:flip|toggle)\s+(on|off)\s+/i, 'Turn $1 ');
  // "Write "…" in a note (and call it X)" → "Create a note (titled X) that says "…"": a text written into a new record.
  s = s.replace(/^(?:write|put|jot(?:\s+down)?|type|save|add)\s+(\u0001\d+\u0001)\s+(?:in|into|on|to)\s+(?:a|an)\s+(?:new\s+)?(note|memo|document|doc|entry|reminder)\b(\s+and\s+(?:call|name|title)\s+it\s+.+|[.!?]*)$/i, 'Create a $2 that says $1$3');
  s = s.replace(/^(Create\s+an?\s+[a-z]+)\s+(that says\s+\u0001\d+\u0001)\s+and\s+(?:call|name|title)\s+it\s+(.+?)([.!?]*)$/i, '$1 titled $3 $2$4');
  // Shorthand "new note - title X, text: Y" → "Create a note titled X that says "Y"".
  s = s.replace(/^(?:new|add(?:\s+a)?)\s+([a-z]+)\s*[-–—:,]\s*(?:title|name|called)\s*:?\s+(.+?)\s*[,;]\s*(?:text|body|content|saying|says)\s*:?\s+(.+?)([.!?]*)$/i, (_a, kind: string, title: string, body: string, e: string) =>
    `Create a ${kind.toLowerCase()} titled ${title} that says ${/^\u0001\d+\u0001$/.test(body) ? body : `"${body}"`}${e}`,
  );
  // "I want / I'd like X (turned) On" → "Turn X On".
  s = s.replace(/^I(?:'d| would)?\s+(?:want|like|need)\s+(?!to\b)(.+?)\s+(?:(?:turned|switched|set|to be|kept)\s+)?(on|off)([.!?]*)$/i, 'Turn $1 $2$3');
  // "I want X gone / deleted" → "Delete X".
  s = s.replace(/^I(?:'d| would)?\s+(?:want|like|need)\s+(.+?)\s+(?:gone|deleted|removed|erased)\b(.*)$/i, 'Delete $1$2');
  // "Let X know "…" (by text message)" → "Text X: "…"" ("Email" by mail; "Tell" with no channel).
  s = s.replace(/^let\s+(.+?)\s+know\s+(\u0001\d+\u0001)(?:\s+(?:by|via|in an?|over)\s+(e-?mail|mail|text(?:\s+message)?|sms|message))?([.!?]*)$/i, (_a, who: string, q: string, ch: string | undefined, e: string) =>
    `${!ch ? 'Tell' : /mail/i.test(ch) ? 'Email' : 'Text'} ${who}: ${q}${e}`,
  );
  // "Send "…" to X (in App)" → "Message X: "…" (in App)" — a quoted body before its recipient.
  s = s.replace(/^send\s+(\u0001\d+\u0001)\s+to\s+(?!\S*@)(.+?)((?:\s+(?:in|on|via|using)\s+(?:the\s+)?[A-Z][\w-]*(?:\s+app)?)?[.!?]*)$/i, 'Message $2: $1$3');
  // "Shoot / drop / fire off X a (quick) text / line / email" → "Send X a text": a verb of sending with a dative.
  // (Not "write "…" in a note": a text written into a note, no recipient.)
  s = s.replace(/^(?:shoot|drop|fire\s+off|flick|ping|zap|write)\s+(.+?)\s+(?:a|an)\s+(?:(?:quick|short|brief|little)\s+)?(text(?:\s+message)?|message|line|note|e-?mail|mail|dm)\b/i, (all: string, who: string, kind: string) =>
    /\u0001|\s(?:in|into|on|onto|as|for)$/i.test(who) ? all : `Send ${who} ${/mail/i.test(kind) ? 'an email' : /^note$/i.test(kind) ? 'a message' : `a ${/^line$/i.test(kind) ? 'message' : kind.toLowerCase()}`}`,
  );
  // "Message X saying "…"" → "Message X: "…"".
  s = s.replace(/^((?:message|text|tell|sms)\s+.+?)\s+(?:saying|that says|which says)\s*:?\s*(?=\u0001)/i, '$1: ');
  t = back(s);
  return { text: t, changed: t !== text };
}

/** Replaces the request's pronoun object ("it", "them", "that entry") with the thing the context names. */
function resolvePronoun(text: string, thing: string, kind?: string): string {
  const { text: sh, back } = shield(text);
  let done = false;
  let s = sh.replace(new RegExp(`\\b(?:that|this|those|these)\\s+(${KIND_WORDS})s?\\b`, 'i'), (_a, kind: string) => {
    done = true;
    return /^["“]/.test(thing) || /^(?:one|item)$/i.test(kind) ? thing : `${/^the\s/i.test(thing) ? '' : 'the '}${thing} ${kind}`;
  });
  if (!done) {
    // "Borrow a copy (of it)" → the thing itself.
    s = s.replace(/\b(?:a|one)\s+copy(?:\s+of\s+(?:it|that|this))?\b/i, () => {
      done = true;
      return thing;
    });
  }
  if (!done && !/^["“]/.test(thing)) {
    // "Update their contact", "Change her number": a possessive pronoun before a word is the thing's.
    s = s.replace(/\b(?:their|his|her|its)\s+(?=[a-z])/, () => {
      done = true;
      return `${thing.replace(/^the\s+/i, '')}'s `;
    });
  }
  if (!done) {
    // "it"/"them" as an object: after a verb or preposition, not before a name ("name it Dentist" keeps "it").
    // (Never inside an option's label: "choose Hand it to me".)
    // ("Pay what I owe", "pay what's due": the amount owed on the thing the context names.)
    s = s.replace(/(?<!\b(?:choose|select|pick)\s+\p{Lu}[\p{L}'’]*\s+)\b(it|them|what\s+I\s+owe|what['’]s\s+due|what\s+is\s+due)\b(?!\s+[\p{Lu}\p{N}\u0001])(?!['’])/u, () => {
      done = true;
      // The kind the context gave the thing ("an alarm for Work" → "the Work alarm").
      return kind && !/^["“]|^the\s/i.test(thing) ? `the ${thing} ${kind}` : thing;
    });
  }
  if (!done && !/^["“]/.test(thing)) {
    // "Change the visit in X to Wednesday …" after a sentence about one thing: the thing's visit, when the request names
    // nothing of its own (only the app it is done in, days and times).
    const own = s.split(/\s+/).slice(1).filter((w, i, ws) => /^[\p{Lu}]/u.test(w) && !CALENDAR_WORD.test(w.replace(/[,.;:!?]+$/, '')) && !/^(?:AM|PM|I)\b/.test(w) && !/^(?:in|on|through|using|via|with)$/i.test(ws[i - 1] ?? ''));
    if (own.length === 0) {
      s = s.replace(new RegExp(`\\bthe\\s+(?:whole\\s+|entire\\s+)?(${KIND_WORDS}|bill|invoice|lesson|job|shift|stay|rental|delivery)\\b(?!\\s+(?:of|for|from|at|with)\\s)`, 'i'), (_a, k: string) => {
        done = true;
        return `the ${thing.replace(/^the\s+/i, '')} ${k}`;
      });
    }
  }
  return done ? back(s) : text;
}

/** A value a purpose clause may carry: a day of the month, a weekday or month date, a clock time, an amount. */
const PURPOSE_VALUE = /(?:\b(?:on|at|for|by)\s+)?(?:the\s+\d{1,2}(?:st|nd|rd|th)\b(?:\s+of\s+(?:the|each|every)\s+month)?|\b(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)(?:,?\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2})?\b|\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2}(?:st|nd|rd|th)?\b|\b\d{1,2}(?::\d{2})?\s*[AaPp]\.?[Mm]\.?|[$€£]\s?\d[\d,]*(?:\.\d{1,2})?)/;

/**
 * Sentence structure of a multi-clause request: labelled parts joined to their request, asides dropped, a purpose
 * clause's "forget/remember X" giving an unnamed request its name, plain imperatives for wishes and indirect
 * forms, the pronoun of a request replaced by the thing a context sentence names, and requests read before context.
 */
function restructure(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const p of parts) {
    if (p.role === 'aside') continue;
    if (p.role === 'purpose') {
      const owner = [...out].reverse().find((o) => o.role === 'main');
      const named = /\b(?:forget|remember|remind(?:\s+me)?(?:\s+(?:of|about))?)\s+(?:about\s+)?([\p{Lu}\p{N}"“].*?)[.!?]*$/u.exec(p.text)?.[1];
      if (owner && named && !namesSomethingBut(owner.text)) {
        owner.text = owner.text.replace(/\b((?:a|an|the|my)\s+(?:[a-z]+\s+){0,2}?[a-z]+)(?=\s+(?:at|on|for|in|to|from|with)\b|[,.!?]|$)/, `$1 called ${named}`);
      }
      // "Move my X so it comes out on the 21st instead": the value the purpose clause names is where the thing goes —
      // "Move my X to the 21st" (a day of the month, a date, a time or an amount; never dropped with the clause).
      const value = PURPOSE_VALUE.exec(p.text)?.[0];
      if (owner && value && !named && /^(?:move|change|switch|shift|push|bring|set|reschedule|update)\b/i.test(owner.text.trim()) && !/\bto\s+\S/.test(owner.text)) {
        owner.text = `${owner.text.replace(/[.!?]*$/, '')} to ${value.replace(/^(?:on|at|for|by)\s+/i, '')}`;
      }
      continue;
    }
    const label = labelled(p.text);
    const owner = [...out].reverse().find((o) => isRequest(o));
    if (label && owner) {
      owner.text = owner.text.replace(/[.!?]*$/, '') + label + '.';
      continue;
    }
    out.push({ ...p });
  }
  for (const p of out) {
    const plain = plainRequest(p.text);
    if (plain.changed) {
      // (A change of case only — "in zone 4102" → "in Zone 4102" — makes no statement a request.)
      if (plain.text.toLowerCase() !== p.text.toLowerCase()) p.framed = true;
      p.text = plain.text;
    }
  }
  // "The X alarm should be On. Please change it." — the second sentence only points back at the first.
  const kept = out.filter((p, i) => !(i > 0 && out[i - 1]!.framed && /^(?:change|adjust|update|fix|set|do|make)\s+(?:it|that|this)\b[^.]*?[.!?]*$/i.test(p.text) && /^(?:Turn|Set)\s/.test(out[i - 1]!.text)));
  const requests = kept.filter(isRequest);
  const context = kept.filter((p) => !isRequest(p));
  if (requests.length === 0 || context.length === 0) return kept;
  const thing = context.map((c) => contextThing(c.text)).find((t) => t !== undefined);
  if (!thing) return kept;
  let resolved = false;
  const gotThing: Part[] = [];
  for (const r of requests) {
    // (The kind of the thing: a kind word next to it — "an alarm for Work", "the Work alarm" — not any kind the
    // sentence mentions: "The appointment is running long and my meter in Zone 4102 …".)
    const kind = context
      .map((c) => {
        const at = c.text.indexOf(thing.replace(/^"|"$/g, ''));
        const near = at < 0 ? c.text : c.text.slice(Math.max(0, at - 16), at + thing.length + 16);
        // (Else the last kind its sentence gives after it: "X finished the job and sent the bill" — X's bill.)
        const later = at < 0 ? undefined : [...c.text.slice(at + thing.length).matchAll(new RegExp(`\\b(?:the|a|an|their|his|her|its|my)\\s+(${LATER_KINDS})\\b`, 'gi'))].pop()?.[1];
        return new RegExp(`\\b(${CONTEXT_KINDS})\\b`, 'i').exec(near)?.[1] ?? later;
      })
      .find((k) => k !== undefined);
    const next = resolvePronoun(r.text, thing, kind?.toLowerCase());
    if (next !== r.text) {
      resolved = true;
      gotThing.push(r);
    }
    r.text = next;
  }
  // "X got a new number: V. Update their contact." — the new value the context gives is what the request changes.
  for (const r of requests) {
    if (!/^(?:update|change|edit|fix|correct)\b/i.test(r.text) || /\d|\u0001/.test(r.text)) continue;
    const given = context
      .map((c) => /\b(?:got|has|have|gets|changed)\s+(?:a\s+|their\s+|his\s+|her\s+)?new\s+((?:phone\s+|mobile\s+|cell\s+)?number|e-?mail(?:\s+address)?|address|phone)\s*(?::|\bis\b|\bof\b|[-–—])?\s*(.+?)[.!]?$/i.exec(c.text) ?? /\b(?:their|his|her|the)\s+(?:new\s+)?((?:phone\s+|mobile\s+|cell\s+)?number|e-?mail(?:\s+address)?|address)\s+is\s+now\s+(.+?)[.!]?$/i.exec(c.text))
      .find((m) => m);
    if (!given) continue;
    r.text = `Change ${thing.replace(/^the\s+/i, '')}'s ${given[1]!.toLowerCase()} to ${given[2]!.trim()}.`;
    r.framed = true;
    return kept.filter((p) => requests.includes(p));
  }
  // A context sentence that named only the thing the pronoun stood for has said all it had to say.
  const bare = thing.replace(/^"|"$/g, '');
  // A question ("What's on the menu at X?") is kept: it says what the request is about.
  // A date it gave along with the thing ("I can't make X on Wednesday anymore") goes with the request ("… on Wednesday").
  if (resolved) {
    for (const c of context) {
      const left = c.text.split(bare).join(' ');
      const date = /\b(?:on|for|this|next)\s+((?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)(?:,?\s+(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2}\b)?|(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2})\b/.exec(left);
      if (!date || namesSomething(left.replace(date[0], ' ')) || /\?\s*$/.test(c.text)) continue;
      // (To the request the pronoun was in: "Put it on the plan. Make it 3 servings." dates the first only.)
      // (Right after the thing and its kind when a clause follows it: "Cancel the X ticket on D and take the money back as
      // V", not "… as V on D".)
      const dated = (t: string): string => {
        const at = t.indexOf(bare);
        const after = at < 0 ? undefined : /^(?:\s+[a-z]{3,})?(?=\s*(?:[,;]|\s+and\s|\s+then\s))/.exec(t.slice(at + bare.length));
        if (at >= 0 && after) return `${t.slice(0, at + bare.length + after[0].length)} on ${date[1]}${t.slice(at + bare.length + after[0].length)}`;
        return t.replace(/\s*([.!?]*)$/, ` on ${date[1]}$1`);
      };
      for (const r of gotThing.length > 0 ? gotThing : requests) if (!r.text.includes(date[1]!)) r.text = dated(r.text);
      c.text = left.replace(date[0], ' ');
    }
    // A name the context gave right after the thing ("I'm doing X for Breakfast") goes with the request too.
    for (const c of context) {
      const at = c.text.indexOf(bare);
      if (at < 0 || /\?\s*$/.test(c.text)) continue;
      const m = /^\s+(for|with|at)\s+((?:[A-Z][\w'-]*)(?:\s+[A-Z][\w'-]*)*)(?=[\s,.!?]|$)/.exec(c.text.slice(at + bare.length));
      if (!m || CALENDAR_WORD.test(m[2]!)) continue;
      for (const r of gotThing) if (!r.text.includes(m[2]!)) r.text = r.text.replace(/\s*([.!?]*)$/, ` ${m[1]} ${m[2]}$1`);
      c.text = c.text.slice(0, at + bare.length) + c.text.slice(at + bare.length + m[0].length);
    }
  }
  // (A code given after its kind — "a tracking number: PH44170" — is said once the request carries it.)
  const code = /^[a-z]+(?:\s+[a-z]+)*\s+([\p{Lu}\p{N}][\p{Lu}\p{N}-]{3,})$/u.exec(bare)?.[1];
  const without = (t: string): string => {
    const left = t.split(bare).join(' ');
    return code ? left.split(code).join(' ') : left;
  };
  const rest = resolved ? context.filter((c) => /\?\s*$/.test(c.text) || namesSomething(without(c.text).replace(/\bthis\s*:\s*/i, ''))) : context;
  return kept.filter((p) => requests.includes(p) || rest.includes(p));
}

/** Whether a clause names something after its first word other than numbers (a capitalised word or a quote). */
function namesSomethingBut(clause: string): boolean {
  return clause
    .trim()
    .split(/\s+/)
    .slice(1)
    .some((w) => /^["“(]?[\p{Lu}]/u.test(w) && !/^(?:January|February|March|April|May|June|July|August|September|October|November|December|AM|PM)[,.]?$/.test(w));
}

/**
 * A terse request that starts with its app's name in lower case ("bank send $25 to X", "homehub code 258046 for Y"):
 * the request with the app said where it is done ("Send $25 to X in Bank", "Add a code 258046 for Y in Homehub").
 * The first word is an app when a verb follows it (and it is no request verb itself), or when English does not know it
 * (a brand) — then a noun after it is a thing to add. Unchanged otherwise. Generic English only.
 */
export function terseRequest(text: string): string {
  const t = text.trim().replace(/[.!]+$/, '');
  const lead = /^([a-z][a-z0-9-]{2,})\s/.exec(t)?.[1];
  if (lead && !IMPERATIVES.has(lead) && !FUNCTION_WORDS.test(lead) && !/[.!?]\s/.test(t)) {
    const app = lead[0]!.toUpperCase() + lead.slice(1);
    // "pharmacy Omeprazole 20 mg reminder Off": an app, a thing, its switch and the state → turn the thing's switch so.
    const sw = /^\S+\s+([A-Z][^]*?)\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)\s+(on|off|On|Off|ON|OFF)$/.exec(t);
    if (sw) {
      // (A unit goes with the thing's strength: "Omeprazole 20 mg".)
      const unit = /^(\S+)\s+(.+)$/.exec(sw[2]!);
      const [thing, what] = unit && UNIT.test(unit[1]!) ? [`${sw[1]} ${unit[1]}`, unit[2]!] : [sw[1]!, sw[2]!];
      return `Turn the ${what} for ${thing} ${sw[3]![0]!.toUpperCase()}${sw[3]!.slice(1).toLowerCase()} in ${app}.`;
    }
    // "bank low balance alert $25", "settings Media volume 5": an app, a setting and its value → set it to the value.
    const set = /^\S+\s+((?:[A-Za-z][\w-]*\s+){0,3}[a-z][\w-]*)\s+([$€£]?\d[\d.,:]*\s*(?:%|[a-z]+)?)$/.exec(t);
    if (set && /^(?:[A-Z][\w-]*\s+)?(?:[a-z][\w-]*\s+){0,3}[a-z][\w-]*$/.test(set[1]!)) return `Set ${/^[A-Z]/.test(set[1]!) ? '' : 'my '}${set[1]} to ${set[2]} in ${app}.`;
  }
  const m = /^([a-z][a-z0-9-]{2,})\s+([a-z][\w-]*)(\s.*)?$/.exec(text.trim());
  if (!m || /[.!?]\s+[A-Z]/.test(text)) return text;
  const [, first, second, rest = ''] = m;
  if (IMPERATIVES.has(first!) || FUNCTION_WORDS.test(first!) || /^(?:my|your|our|new)$/.test(first!)) return text;
  const brand = !knowsWord(first!);
  const app = first![0]!.toUpperCase() + first!.slice(1);
  const end = /[.!?]+$/.exec(rest)?.[0] ?? '';
  const body = rest.slice(0, rest.length - end.length);
  const verb = (): string => `${second![0]!.toUpperCase()}${second!.slice(1)}${body} in ${app}${end}`;
  if (isVerb(second!) && IMPERATIVES.has(second!)) return verb();
  // (A verb with its object's name after it is the request: "homehub unlock Garage Side Door", "pawpoint refill Milo …".)
  if (brand && isVerb(second!) && /^\s+(?:[A-Z0-9]|my\s|the\s)/.test(body)) return verb();
  if (brand && knowsWord(second!) && !/^(?:and|or|the|a|an)$/.test(second!)) return `Add a ${second}${body} in ${app}${end}`;
  if (brand && isVerb(second!)) return verb();
  return text;
}

/**
 * The request without its discourse: courtesy frames removed from every sentence, content-free context and
 * closing sentences dropped. An instruction that is all request comes back unchanged (apart from frames).
 */
export function requestCore(instruction: string): string {
  const text = terseRequest(everydayShorthand(instruction.replace(/\s+/g, ' ').trim()))
    // "…, so get X to come out for Y. Use Z to book them for Friday …" → "Book X on Z for Y for Friday …": having someone
    // come to do a job is booking them for it; the next sentence's booking of "them" is that one.
    .replace(/(?<=^|[.!?]\s+)(?:[^.!?]*?,\s*(?:so|and)\s+)?(?:[Gg]et|[Hh]ave|[Aa]sk)\s+((?:[A-Z][\w'’&.-]*\s+)*?[A-Z][\w'’&-]*)\s+(?:to\s+)?(?:come|stop|swing|pop)\s+(?:out|over|by|round|around)\s+(?:for|to\s+(?:do|fix|handle|look\s+at))\s+([^.!?]+?)\s*[.!]\s+(?:(?:[Uu]se|[Tt]hrough|[Vv]ia)\s+(?:the\s+)?([A-Z][\w&-]*)(?:\s+app)?\s+to\s+)?([Bb]ook|[Ss]chedule|[Rr]eserve)\s+(?:them|him|her|it)\b/,
      (_a, who: string, what: string, app: string | undefined, verb: string) => `${verb[0]!.toUpperCase()}${verb.slice(1)} ${who}${app ? ` on ${app}` : ''} for ${what}`)
    // "… to Dana. Write Dinner in the note field and …" → "… to Dana with the note Dinner and …": the value, not an
    // instruction to type it, and part of the request it belongs to.
    .replace(/[.?!]?\s+(?:please\s+)?[Ww]rite\s+(.+?)\s+(?:in|into)\s+the\s+(note|memo|reference|message|comment|description)\s+(?:field|box|line)\b/, ' with the $2 $1')
    // "In HomeHub, add …" → "Add … in HomeHub": the app a sentence opens with says where its request is done.
    // (Not a date: "On Friday, …".)
    // (A closing "please" stays last: "In Brellow, switch …, please." → "Switch … in Brellow, please.")
    .replace(/(^|[.!?]\s+)(?:(?:Over\s+)?[Ii]n|(?:Over\s+)?[Oo]n|Using|Inside|Via)\s+(?:the\s+|my\s+)?([A-Z][\w-]*)(?:\s+app)?\s*,\s+([a-z][^.!?]*?)(,?\s+please)?([.!?]|$)/g, (all, pre: string, app: string, rest: string, please: string | undefined, end: string) =>
      WEEKDAY.test(app) || MONTH.test(app) || /^(?:Today|Tomorrow|Tonight|Monday|Morning|Evening)$/i.test(app) ? all : `${pre}${rest[0]!.toUpperCase()}${rest.slice(1)} in ${app}${please ?? ''}${end}`,
    )
    // "Drop my PulseFit Vinyasa Flow Express class" → "Drop my Vinyasa Flow Express class in PulseFit": a made-up
    // compound brand (a capital inside the word) before a name of its own is the app the thing is in, not part of it.
    .replace(/\b(my)\s+([A-Z][a-z]{2,}[A-Z][a-z]+)\s+((?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*)((?:\s+[a-z]{3,})?)(?=[\s,.;!?]|$)/g, (all, det: string, brand: string, name: string, kind: string) =>
      knowsWord(brand.toLowerCase()) ? all : `${det} ${name}${kind} in ${brand}`)
    // (Likewise before a thing of its own kind: "set the HomeHub auto-lock to 30 minutes" → "the auto-lock in HomeHub".)
    .replace(/\b(my|the|your|our|a|an)\s+([A-Z][a-z]{2,}[A-Z][a-z]+)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)(?=\s+(?:to|for|as)\s)/g, (all, det: string, brand: string, noun: string) =>
      knowsWord(brand.toLowerCase()) || /^(?:app|application)$/.test(noun) ? all : `${det} ${noun} in ${brand}`)
    // "I watered Rosie yesterday. Can you note that in my plant app?" → "Log that Rosie was watered yesterday in my plant app."
    .replace(/(?<=^|[.!?]\s+)I\s+(?:just\s+)?([a-z]+ed)\s+((?:[A-Z][\w'-]*\s+){0,2}[A-Z][\w'-]*)\s*(today|yesterday|this\s+morning|last\s+night|\d+\s+days?\s+ago)?\s*[.!]\s+(?:(?:[Cc]an|[Cc]ould|[Ww]ould|[Ww]ill)\s+you\s+|[Pp]lease\s+)?(?:[Ll]og|[Rr]ecord|[Nn]ote|[Tt]rack|[Mm]ark\s+down|[Ww]rite\s+down)\s+(?:that|it|this)\b\s*([^.!?]*?)(?:\s+so\s+[^.!?]*)?(?:[.!?]+|$)/,
      (_a, done: string, thing: string, when: string | undefined, rest: string) => `Log that ${thing} was ${done}${when ? ` ${when}` : ''}${rest ? ` ${rest.trim()}` : ''}.`)
    // "I just brought home a Jade plant and named it Juniper. Can you add it to Fernly?" → "Add a Jade plant called
    // Juniper to Fernly.": a new thing the speaker named, to be added as a record.
    .replace(/(?<=^|[.!?]\s+)I\s+(?:just\s+)?(?:brought\s+home|got|bought|adopted|picked\s+up|planted|rescued)\s+(a|an)\s+([^.!?]+?)\s+and\s+(?:named|called)\s+(?:it|him|her|them)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*)\s*[.!]+\s+(?:(?:[Cc]an|[Cc]ould|[Ww]ould|[Ww]ill)\s+you\s+|[Pp]lease\s+)?(?:add|register|save|put)\s+(?:it|him|her|them)\s+((?:to|in|into|on)\s+[^.!?]+?)(?:\s+for\s+me)?\s*[.!?]+/,
      (_a, art: string, kind: string, name: string, where: string) => `Add ${art} ${kind} called ${name} ${where.replace(/^(?:in|into|on)\s/, 'to ')}.`)
    // "Sam Lee got a new phone and sent me the number. Please replace the old one in Contacts with 555-0100." →
    // "Change Sam Lee's number to 555-0100 in Contacts.": "the old one" is the thing the context last named, of the
    // person the context is about — a change of that record, not a new one.
    .replace(/(?<=^|[.!?]\s+)((?:[A-Z][\w'-]*\s+){0,2}[A-Z][\w'-]*)\s+[^.!?]*?\b(?:the|a|an|her|his|their|its|my)\s+(?:new\s+)?([a-z]+)\s*[.!]\s+(?:(?:[Cc]an|[Cc]ould|[Ww]ould|[Ww]ill)\s+you\s+|[Pp]lease\s+)?[Rr]eplace\s+the\s+old\s+one\s+((?:in|on)\s+[^.!?]*?\s+)?with\s+([^.!?]+?)(?:,?\s+please)?\s*(?:[.!?]+(?=\s|$)|$)/,
      (_a, who: string, noun: string, where: string | undefined, value: string) => `Change ${who}'s ${noun} to ${value}${where ? ` ${where.trim()}` : ''}.`)
    // "Replace Sam Lee's number with 555-0100" → "Change Sam Lee's number to 555-0100".
    .replace(/(?<=^|[.!?]\s+)(?:[Pp]lease\s+)?[Rr]eplace\s+((?:[A-Z][\w'-]*\s+){0,2}[A-Z][\w'-]*['’]s\s+(?:[a-z]+\s+)?[a-z]+)\s+with\s+/, 'Change $1 to ')
    // "… When it asks why, pick I gave it away." → "… with the reason I gave it away.": the answer to a question the app
    // will ask is a value of the request.
    .replace(/[.!?;]\s+(?:[Ww]hen|[Ii]f)\s+(?:it|the\s+app)\s+asks\s+(?:me\s+|you\s+)?(?:why|for\s+(?:a|the)\s+reason)\s*,\s*(?:please\s+|just\s+)?(?:pick|choose|select|say|answer|tell\s+it|give|use)\s+([^.!?]+?)\s*([.!?]+(?=\s|$)|$)/, ', with the reason $1$2')
    // "Could you set Fernly to remind me to water it every 7 days and feed it every 8 weeks?" → "Change its schedule in
    // Fernly to water every 7 days and feed every 8 weeks.": reminders of things done every so often are a schedule.
    .replace(/(?<=^|[.!?]\s+)(?:(?:[Cc]an|[Cc]ould|[Ww]ould|[Ww]ill)\s+you\s+|[Pp]lease\s+)?(?:[Ss]et(?:\s+up)?|[Gg]et|[Hh]ave)\s+(?:the\s+|my\s+)?([A-Z][\w-]*)(?:\s+app)?\s+to\s+remind\s+me\s+to\s+((?:[a-z]+\s+(?:it|them|him|her)\s+every\s+[^.!?]+?)(?:\s+and\s+[a-z]+\s+(?:it|them|him|her)\s+every\s+[^.!?]+?)?)(?:,?\s+please)?\s*(?:[.!?]+(?=\s|$)|$)/,
      (_a, app: string, what: string) => `Change its schedule in ${app} to ${what.replace(/\s+(?:it|them|him|her)\s+(?=every\b)/g, ' ')}.`)
    // "Set up auto-reload on my card in Transit so it adds $30 when it's low" → "Turn on auto-reload with $30 on my card
    // in Transit": what the feature does each time is its amount.
    .replace(/\b(?:[Ss]et\s+up|[Tt]urn\s+on|[Ee]nable|[Ss]witch\s+on)\s+(auto-[a-z]+)\b([^.!?]*?)\s+so\s+(?:that\s+)?it\s+(?:adds|tops\s+(?:it\s+)?up(?:\s+with)?|loads|reloads|puts\s+in|charges)\s+([$€£]\s?\d[\d.,]*)[^.!?]*/, 'Turn on $1 with $3$2')
    // "Set auto-lock to 5 minutes in HomeHub" → "Set auto-lock in HomeHub to 5 minutes": an app's own setting, said
    // with its app first (never the phone's Settings, never a person's record: "Change Ana's number to … in Contacts").
    .replace(/(?<=^|[.!?]\s+)([Ss]et|[Cc]hange|[Pp]ut)\s+([A-Za-z][a-z]*-[a-z]+)\s+to\s+([^.!?]+?)\s+in\s+(?:the\s+|my\s+)?(?!Settings\b)([A-Z][\w&-]*)(?:\s+app)?(?=\s*[.!?]|\s*$)/, (all, verb: string, setting: string, value: string, app: string) =>
      /['’]s\b/.test(setting) ? all : `${verb} ${setting.charAt(0).toLowerCase()}${setting.slice(1)} in ${app} to ${value}`)
    // "Leo won't be at school on Thursday, March 12 (Family emergency). Can you let the school know through App?" →
    // "Report Leo absent on Thursday, March 12 in App, reason: Family emergency.": not being somewhere one is expected,
    // told to the people who expect one, is an absence to report; a reason in brackets is its reason.
    .replace(/(?<=^|[.!?]\s+)([A-Z][\w'-]*)\s+(?:won['’]t|will\s+not|can['’]t|cannot|isn['’]t\s+going\s+to)\s+(?:be\s+(?:at|in)|make\s+it\s+(?:to|in)(?:\s+to)?|come\s+(?:to|in)(?:\s+to)?|go\s+to)\s+(?:school|work|class|classes|practice|nursery|daycare|the\s+office)\s+((?:on|this|next|tomorrow|today)\b[^.(!?]*?)\s*(?:\(([^)]+)\))?\s*[.!]\s+(?:(?:[Cc]an|[Cc]ould|[Ww]ould|[Ww]ill)\s+you\s+|[Pp]lease\s+)?(?:let|tell)\s+(?:the\s+[a-z]+|them|her|him)\s+know(?:\s+(?:through|via|in|using|on)\s+(?:the\s+)?([A-Z][\w&'-]*)(?:\s+app)?)?\s*[.?!]*/,
      (_a, who: string, when: string, why: string | undefined, app: string | undefined) => `Report ${who} absent ${when.trim()}${app ? ` in ${app}` : ''}${why ? `, reason: ${why.trim()}` : ''}.`)
    // "… and use Cash as the payment" → "… and pay with Cash": the way to pay, said as a thing to use.
    .replace(/\b(?:use|choose|select|pick)\s+((?:[A-Z][\w'-]*\s+){0,3}?[A-Z][\w'-]*)\s+(?:as|for)\s+(?:the\s+|my\s+)?(?:payment|payment\s+method|way\s+to\s+pay)\b/g, 'pay with $1')
    // "… and confirm the payment": confirming is part of doing it, no value.
    .replace(/\s+and\s+(?:then\s+)?(?:confirm|submit|send|save)\s+(?:the\s+(?:payment|transfer|order|form|request)|it)(?=\s*[.!?]?$)/i, '');
  if (!text) return text;
  const parts = restructure(
    sentences(text)
      .flatMap((sentence) => {
        // Frames of the whole sentence first ("Could you X; Y?" is a request, its "?" a full stop), then each clause's.
        const whole = stripFrames(sentence);
        const lead = LEAD_FRAMES.some((re) => re.test(sentence.trim()));
        const trail = /\bplease\s*[.!?]*$/i.test(sentence.trim());
        const parts = clauses(whole.text);
        const last = parts.map((c) => c.role).lastIndexOf('main');
        return parts.map((c, i) => {
          const f = stripFrames(c.text);
          // A leading frame makes the first clause a request, a closing "please" the last one.
          // (A closing "please" does not make a statement a request: "Refund to card is fine for the money, please".)
          const statement = /\b(?:is|are)\s+(?:fine|ok|okay|good|great|perfect|all right)\b/i.test(f.text);
          const framed = !statement && (f.framed || c.request === true || (whole.framed && ((i === 0 && lead) || (i === last && trail) || parts.length === 1)));
          return { text: f.text, framed, role: c.role };
        });
      })
      .filter((s) => /\w/.test(s.text)),
  );
  // A sentence that was framed as a request ("Please fix it.") is kept even when it names nothing.
  const keep = (s: { text: string; framed: boolean }): boolean => s.framed || namesSomething(s.text);
  const kept = parts.some(keep) ? parts.filter(keep) : parts;
  return newCollectionFor(kept.map((s) => s.text).join(' ').trim());
}

/**
 * "Create a new playlist called Y and put X in it", "Start a list named Y with X on it" → "Add X to a new playlist
 * called Y": a new collection made for an item goes through the item's "Add to …" chooser, which offers a new one.
 * (Read once the courtesy frames are gone: "Please create …", "Could you start …?".)
 */
function newCollectionFor(text: string): string {
  return text.replace(
    /(?<=^|[.!?]\s+)(?:[Cc]reate|[Ss]tart|[Mm]ake|[Ss]et\s+up)\s+(?:a|an)\s+(?:new\s+)?(?:([A-Z][\w&-]*)\s+)?([a-z]{3,})\s+(?:called|named|titled)\s+((?:[A-Z\d][\w'’&-]*\s+)*?[A-Z\d][\w'’&-]*)(?:\s+(?:in|on)\s+([A-Z][\w&-]*))?\s+(?:and\s+(?:put|add|save)\s+|with\s+)((?:[A-Z\d"“][^.!?]*?))(?:\s+(?:in|on|to|into)\s+it)?\s*([.!?]|$)/,
    (all, app1: string | undefined, kind: string, name: string, app2: string | undefined, item: string) => {
      const app = app1 ?? app2;
      return /^(?:account|profile|reminder|alarm|event|note)$/.test(kind) ? all : `Add ${item} to a new ${kind} called ${name}${app ? ` in ${app}` : ''}.`;
    },
  );
}

/** Function words that end an entity read from free text ("Off in Settings" → "Off"). */
export const FUNCTION_WORDS = /^(?:in|on|at|to|from|for|with|by|of|via|using|inside|under|and|or|but|then|so|please|now|the|a|an|my|your|this|that)$/i;

/** Cuts a free-text entity at its first function word after the first word. */
export function entityEnd(value: string): string {
  const words = value.trim().split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && FUNCTION_WORDS.test(w.replace(/[,.;:!?]+$/, '')));
  return (cut > 0 ? words.slice(0, cut) : words).join(' ').replace(/[,.;:!?]+$/, '');
}

/** Whether the instruction uses `entity` as the app to work in ("in Foodie", "on ShopMart", "open Mail"). */
export function namesTheApp(instruction: string, entity: string): boolean {
  const e = entity.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // (Not a possessive: "open Green Bowl's menu" opens a page of Green Bowl, in an app.)
  return new RegExp(`\\b(?:in|on|open|using)\\s+(?:the\\s+)?${e}(?:\\s+app)?\\b(?!['’]s\\b)`, 'i').test(instruction);
}

/** A name the instruction introduces ("called X", "titled X", "the subject X"): up to the next clause word. */
const NAMED_PHRASE =
  /\b(?:called|titled|named|labell?ed|(?:label|name|call|title)\s+it|(?:the )?subject)\s+(?!a\b|an\b|the\b|it\b)([^,.;:!?"“”]+?)(?=\s+(?:that|which|and|then|saying|says|in|on|to|from|with|as|for|at|by|every|via|using|into|under)\b|[,;:!?]|\.(?:\s|$)|$)/gi;
/** An item named right after its kind: "my note Shopping list", "the contact Diana Hughes", "the email Q3 review". */
const KIND_NAMED =
  /\b(?:my|the)\s+(?:note|contact|event|alarm|email|mail|message|conversation|chat|thread|product|restaurant|setting)\s+(?:with\s+)?([\p{Lu}\p{N}][^,.;:!?"“”]*?)(?=\s+(?:to|that|which|and|then|in|on|from|with|as|for|at)\b|[,;:!?]|\.(?:\s|$)|$)/gu;
/** An item named right before its kind: "my Work late shift alarm", "the Team Meeting event". */
const NAMED_KIND =
  /\b(?:my|the)\s+([\p{Lu}\p{N}][^,.;:!?"“”]*?)\s+(?:alarm|note|event|contact|conversation|email|mail|setting|switch|toggle)\b/gu;
/** A text dictated last, unquoted ("…, that reads: See you at noon."): group 1 is the text, its end mark included. */
export const DICTATED_LAST = /\b(?:(?:that|which)\s+(?:reads|says)|saying|reading)\s*:?\s+(\S.*)$/i;
/** A request that switches something (its last "On"/"Off" is the position asked for). */
const SWITCHING = /\b(?:switch|turn|toggle|flip|set)\b/i;
/** A text the instruction dictates ("that says X", "saying X"): up to the end of the sentence. */
// (Never a quote's leftover — the quoted text is read on its own — nor a verb: "the message should say …".)
// (Nor a word that names the message rather than dictating it: "the message titled "X" in my inbox".)
const SAID_PHRASE = /\b(?:saying|says|reads|(?:with\s+)?the\s+(?:text|body|message))\s*:?\s+(?!a\b|an\b|the\b|it\b|should\b|must\b|will\b|would\b|can\b|could\b|is\b|to\b|says?\b|reads?\b|titled\b|called\b|named\b|labell?ed\b|headed\b|from\b|in\b|about\b|with\b)([^"“”\s,;][^"“”]*?)(?=[;!?]|\.(?:\s|$)|$)/gi;

/** Key entities of an instruction: quoted strings, capitalised runs, numbers. */
/** An entity that is a number, amount, time or number-led value ("2", "$40.50", "9:25 PM", "555-348-1290"), not a name ("3-Day Pass"). */
/** A date of the request (a weekday, "June 12", today/tomorrow): a value to choose, never the thing to act on. */
export function isDateEntity(e: string): boolean {
  return WEEKDAY.test(e) || /^(?:today|tomorrow|tonight)$/i.test(e) || (MONTH.test(e.split(/\s+/)[0] ?? '') && /^\S+\s+\d{1,2}(?:st|nd|rd|th)?$/.test(e));
}

export function isNumberEntity(e: string): boolean {
  return /^[$€£]?\d/.test(e) && !/^\d+-\p{L}/u.test(e);
}

/** A month's name (a number after it is a date, not part of a name). */
export const MONTH = /^(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?$/i;

/** Units of a strength or size written after a name (generic measurement abbreviations). */
const UNIT = /^(?:mg|mcg|µg|g|kg|ml|mL|iu|IU|oz|lb|lbs|mm|cm|GB|TB|MB)$/;

/** Street-type words of everyday English addresses. */
const STREET = /^(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Court|Ct|Drive|Dr|Boulevard|Blvd|Way|Place|Pl|Terrace|Circle|Parkway|Pkwy|Highway|Hwy|Square|Sq|Close|Crescent|Row|Alley)\.?$/;
/** Capitalised words from `from` on, within the clause, ending in a street-type word ("Mill Lane", "Old Oak Road"). */
function streetAhead(words: readonly string[], from: number): boolean {
  for (let i = from; i < Math.min(words.length, from + 4); i++) {
    const w = (words[i] ?? '').replace(/[.,;:!?)\]}]+$/, '');
    if (!/^\p{Lu}/u.test(w)) return false;
    if (i > from && STREET.test(w)) return true;
    if (w !== words[i]) return false;
  }
  return false;
}

/** A span of clock times: "8–10 AM", "10 AM–12 PM", "2-4pm", "9:30–11:00 AM". */
export const TIME_RANGE = /\b\d{1,2}(?::\d{2})?\s?(?:AM|PM|am|pm)?\s?[–—-]\s?\d{1,2}(?::\d{2})?\s?(?:AM|PM|am|pm)\b/g;

/** A file's name: capitalised words or numbers (a spaced dash between them), the last ending in a file extension. */
const FILE_NAME = /(?:[A-Z0-9][\w'’&()-]*\s+(?:[-–]\s+)?){0,6}[\w'’&()-]*\.(?:pdf|docx?|xlsx?|pptx?|jpe?g|png|gif|heic|webp|txt|csv|zip|mp3|m4a|wav|mp4|mov|key|pages|numbers|md|json|odt|ods|rtf|epub)\b/g;

export function instructionEntities(instruction: string): string[] {
  const out: string[] = [];
  const add = (s: string): void => {
    const v = s.trim().replace(/[.,;:!?]+$/, '');
    if (v.length > 0 && tokens(v).length > 0 && !out.some((o) => tokens(o).join(' ') === tokens(v).join(' '))) out.push(v);
  };
  let rest = instruction;
  for (const m of instruction.matchAll(/["“”]([^"“”]{1,80})["“”]|(?:^|\s)'([^']{1,80})'(?=[\s.,;:!?]|$)/g)) {
    add(m[1] ?? m[2] ?? '');
    rest = rest.replace(m[0], ' , ');
  }
  // An option named after "as"/"choose"/"select"/"pick", capitalised and running to the end of its clause ("take the
  // money back as Refund to card"): the option's whole label.
  // (Read last: an option is never the thing the request is about.)
  const options: string[] = [];
  // (Also a value after its field's label: "reason Nail trim", "memo Rent share".)
  for (const m of rest.matchAll(/\b(?:as|choose|select|pick|(?:reason|memo|reference|description|issue|problem|comment)\s*:?)\s+(\p{Lu}\p{Ll}+(?:\s+\p{Ll}+){1,4}|I(?:\s+\p{Ll}+){1,4})(?=\s*[.;,!?]|\s*$)/gu)) {
    options.push(m[1]!);
    rest = rest.replace(m[1]!, ' , ');
  }
  // Unquoted names and texts the instruction introduces: "a note called Birthday party that says Call back …".
  for (const m of [...rest.matchAll(NAMED_PHRASE), ...rest.matchAll(SAID_PHRASE), ...rest.matchAll(KIND_NAMED), ...rest.matchAll(NAMED_KIND)]) {
    // (A switch position said last is no word of the name: "the alarm labelled Medication Off".)
    const v = (m[1] ?? '').trim().replace(/(\S)\s+(?:On|Off)$/, (all, c: string) => (SWITCHING.test(instruction) ? c : all));
    if (tokens(v).length > 0 && tokens(v).length <= 12) {
      add(v);
      rest = rest.replace(m[1] ?? '', ' , ');
    }
  }
  // A span of clock times ("8–10 AM", "10 AM–12 PM", "2-4pm"): one value, a window to choose as written.
  for (const m of rest.matchAll(TIME_RANGE)) {
    add(m[0]);
    rest = rest.replace(m[0], ' , ');
  }
  for (const m of rest.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)) {
    add(m[0]);
    rest = rest.replace(m[0], ' , ');
  }
  // A file's name with its extension ("Budget 2025.xlsx", "Scan 2025-05-14.pdf", "Resume - Jordan Avery.pdf"): one name,
  // its numbers and dashes included (a verb that starts the sentence is no part of it).
  for (const m of rest.matchAll(FILE_NAME)) {
    const words = m[0].trim().split(/\s+/);
    while (words.length > 1 && (IMPERATIVES.has(words[0]!.toLowerCase()) || /^(?:give|keep|let|have|please|download|upload|star|pin|send|open|then|and|file|document)$/i.test(words[0]!))) words.shift();
    const name = words.join(' ');
    add(name);
    rest = rest.replace(name, ' , ');
  }
  const words = rest.split(/\s+/).filter(Boolean);
  let run: string[] = [];
  let sentenceStart = true;
  let unitNext = false;
  const flush = (): void => {
    while (run.length > 0 && /^(of|the|and|&|de|[–—-])$/i.test(run[run.length - 1] ?? '')) run.pop();
    if (run.length > 0) add(run.join(' '));
    run = [];
  };
  for (const [wi, raw] of words.entries()) {
    const w = raw.replace(/^[([{]+/, '');
    // ("Bros." before the name's next word is a word of the name, its period no clause end.)
    const abbreviated = ABBREVIATION.test(w) && /^[\p{Lu}&]/u.test(words[wi + 1] ?? '');
    const core = abbreviated ? w : w.replace(/[.,;:!?)\]}]+$/, '');
    const endsClause = core !== w;
    // A sentence's capitalised first word is read as a name only when a capitalised word follows in the same
    // clause ("Sam Taylor has …"); alone ("Erase my …", "Pull up …", "Thanks!") it is the sentence's verb or
    // a courtesy word, whatever the word is — no verb list needed.
    const next = endsClause ? '' : (words[wi + 1] ?? '').replace(/^[([{"“]+/, '');
    const lonelyStart = sentenceStart && !/^[\p{Lu}\p{N}$]/u.test(next);
    // "On"/"Off" are switch positions, never part of a name ("switch Bluetooth On").
    const capital = /^[\p{Lu}\p{N}$]/u.test(core) && !/^(On|Off)$/.test(core);
    // (A dash between capitalised words joins a place's parts: "CVS Pharmacy – Oak Ave".)
    const connector = run.length > 0 && (/^(of|the|and|&|de)$/i.test(core) || (/^[–—-]$/.test(core) && /^\p{Lu}/u.test(next)));
    const unit = (words[wi + 1] ?? '').replace(/[.,;:!?)\]}]+$/, '');
    if (/^\d/.test(core) && run.length > 0 && /^(?:ZIP|Zip|Postcode|Code|PIN|No\.?|Nr\.?)$/.test(run[run.length - 1] ?? '')) {
      // "ZIP 80302", "Postcode 10115": the number is the value, its label no name.
      run.pop();
      flush();
      add(core);
    } else if (run.length > 0 && !endsClause && /^\d+(?:\.\d+)?$/.test(core) && UNIT.test(unit)) {
      // A strength or size after a name belongs to it ("Sertraline 50 mg", "Vitamin D3 1000 IU"): the unit follows.
      run.push(core);
      unitNext = true;
    } else if (unitNext) {
      run.push(core);
      unitNext = false;
    } else if (/^\d+-\p{L}/u.test(core) && (run.length > 0 || /^\p{Lu}/u.test(next))) {
      // A number joined to a word by a hyphen is a word of a name ("3-Day Pass", "24-Hour Gym"), not a quantity.
      run.push(core);
    } else if (
      run.length > 0 &&
      /^\d+[A-Z]?$/.test(core) &&
      !MONTH.test(run[run.length - 1] ?? '') &&
      (endsClause ||
        /^\p{Lu}/u.test(next) ||
        FUNCTION_WORDS.test(next.replace(/[.,;:!?]+$/, '')) ||
        next === '' ||
        // (Or a singular kind noun after it that ends the clause: "my Spin 45 class on Thursday", "the Route 9 bus.")
        (/^[a-z]{3,}$/.test(next) && !/[^su]s$/.test(next) && (/[.,;:!?]$/.test(words[wi + 1] ?? '') || FUNCTION_WORDS.test((words[wi + 2] ?? '').replace(/[.,;:!?]+$/, '')) || words[wi + 2] === undefined)))
    ) {
      // A bare number right after a capitalised name, before the clause ends, another capitalised word or a
      // function word, numbers that name ("Route 12", "Route 40 Night", "Gate 7 Lounge") — not a date ("June 25").
      run.push(core);
    } else if (!endsClause && /^\d{1,5}[A-Za-z]?$/.test(core) && streetAhead(words, wi + 1)) {
      // A house number starts the street address it heads ("9 Mill Lane", "221B Baker Street"): one value.
      flush();
      run.push(core);
    } else if (/^[$€£]?\d/.test(core)) {
      // Numbers (quantities, times, prices) are entities of their own, never part of a name.
      flush();
      add(core);
    } else if (sentenceStart && capital && (IMPERATIVES.has(core.toLowerCase()) || lonelyStart || (/^[\p{N}$€£]/u.test(next) && isVerb(core.toLowerCase())))) {
      // "Order a ...": an imperative at the start of a sentence is not a name; nor is an English verb before an
      // amount ("Transfer $120 to …", "Withdraw 40 …").
    } else if (capital && WEEKDAY.test(core)) {
      // A weekday is a date of its own, never a word of the name next to it ("the Monday Vinyasa Flow class").
      flush();
      add(core);
    } else if (capital && core !== 'I' && /^[^'’]+['’]s$/.test(core) && run.length >= 1 && /^\p{Lu}/u.test(next) && !WEEKDAY.test(next) && !MONTH.test(next.replace(/[.,;:!?]+$/, ''))) {
      // A possessive inside a business's name of several words, capitalised words going on ("Handy Hank's Home Repair"):
      // a word of the name. (One word before it is an owner: "Sam's Birthday Party".)
      run.push(core);
    } else if (capital && core !== 'I' && /^[^'’]+['’]s$/.test(core)) {
      // A possessive ends the name it follows ("… is Ana Lind's number" → "Ana Lind").
      run.push(core.replace(/['’]s$/, ''));
      flush();
    } else if ((capital && core !== 'I') || connector) run.push(core);
    else flush();
    sentenceStart = false;
    if (endsClause) {
      flush();
      if (/[.!?]$/.test(w)) sentenceStart = true;
    }
  }
  flush();
  for (const o of options) add(o);
  // A switch position ("Turn Wi-Fi On") is the state asked for, not a name to find on screen.
  return out.filter((e) => !/^(on|off)$/i.test(e));
}

/**
 * Words that are verbs at a clause start but nouns after a determiner ("Text Sam" vs "with the text Buy milk",
 * "Email Bob" vs "the email"): removed with their determiner before reading the intent verb.
 */
const DETERMINED_NOUN = /\b(?:the|a|an|my|your|this|that|its|his|her|their|some)\s+(?:text|message|email|mail|post|reply|note|call)\b/gi;

/** The text an intent verb is read from: the request without entities, quoted texts and determined nouns. */
export function intentText(instruction: string, entities: readonly string[]): string {
  let t = instruction;
  for (const e of entities) t = t.split(e).join(' ');
  // (A mail or message written to someone is sent: "Write an email to a@b.c with …" asks to send it.)
  t = t.replace(/\b(?:write|compose)\s+(?:a|an)\s+(?:(?:quick|short|brief|new)\s+)?(?:e-?mail|mail|message|reply|text(?:\s+message)?)\s+to\b/gi, 'send to');
  return t.replace(/["“”][^"“”]*["“”]/g, ' ').replace(DETERMINED_NOUN, ' ');
}
