/**
 * Reference policy — filling a form field by field (issue 17). A request that carries several values, at least one of
 * them a typed value (a money amount, a reference number, a date or time, a quoted or labelled text), is not a thing
 * to look for in a list: the button its verb names opens a form ("Send money", "Transfer a prescription"), and each
 * value goes into the field whose label fits it.
 *
 * Generic only — no app's names, labels or data. What it knows is how English requests name values and how phone
 * forms label fields:
 * - values and their kinds: a money amount ("$25", "40 dollars") → Amount/Total/Sum; a number or code of four digits
 *   or more → …number/ID/code/reference; a date or a time → Date/Time; a quoted or labelled text ("note: X",
 *   "with the note X", "as the memo") and a purpose ("for concert tickets") → Note/Memo/Message/What's it for;
 *   a name → the field named by the word before it ("to X" → To/Recipient/Payee, "from X" → From/Current/Source)
 *   or by the kind word after it ("my X prescription"), or the picker whose options contain it;
 * - fields on screen: a short label line with the field's placeholder, value or picker right under it;
 * - matching: each value's cue words against the field's label and placeholder words (and a value shaped like the
 *   placeholder's example: "e.g. Losartan 50 mg" takes "Lisinopril 10 mg"); what is left pairs up in screen order;
 * - filling: tap the field; if the screen changed and offers the value as an option (a picker), tap it, otherwise
 *   type it (a text input) — so one step kind serves pickers, dropdowns and text inputs alike;
 * - submitting: the form's own button below its fields (Review, Continue, Next, Submit …, or the verb's), then any
 *   confirmation that follows (Confirm, the verb again, OK …) until the screen reports the verb done.
 */
import { relatedness } from '../wordnet.js';
import type { OcrLine } from '../types.js';
import { contentWords, SYNONYMS, RECORD_VERB, appGoal, namedAppIn, plural, type ActPlan } from './policy-act.js';
import type { Goal } from './policy-tasks.js';
import { instructionEntities, isDateEntity, isNumberEntity } from './intent.js';
import { isHeader, levenshtein, matchScore, normText, sameDate, tabRow } from './policy-screen.js';
import type { Stepper } from './policy-vision.js';

export type ValueKind = 'amount' | 'number' | 'date' | 'time' | 'text' | 'name';

/** One value of a request and what the request says about it. */
export interface FormValue {
  /** As written in the request. */
  value: string;
  /** What goes into the field (a money amount without its currency sign: the field shows it). */
  input: string;
  kind: ValueKind;
  /** Words of the request around the value that may name its field ("to", "note", "prescription number"). */
  cues: string[];
}

/** Field label words that usually take a value of each kind (generic form vocabulary). */
const KIND_WORDS: Record<ValueKind, string[]> = {
  amount: ['amount', 'total', 'sum', 'price', 'much', 'value', 'pay', 'payment'],
  number: ['number', 'no', 'id', 'code', 'reference', 'ref', 'digit', 'account', 'card'],
  date: ['date', 'day', 'when', 'on'],
  time: ['time', 'at', 'hour', 'when'],
  text: ['note', 'memo', 'message', 'description', 'comment', 'reason', 'details', 'reference', 'purpose', 'what'],
  name: ['name'],
};

/** What a preposition (or a verb of paying) before a name says about its field. */
const CUE_WORDS: Record<string, string[]> = {
  to: ['to', 'recipient', 'payee', 'beneficiary', 'contact', 'who', 'name'],
  instead: ['from', 'current', 'previous', 'old', 'source', 'origin', 'existing'],
  from: ['from', 'current', 'previous', 'old', 'source', 'origin', 'existing'],
  for: ['for', 'note', 'memo', 'reason', 'purpose', 'what'],
  at: ['at', 'location', 'place', 'store', 'branch', 'where'],
  // (A name one shares or meets "with" is a person: "Add people", "Invite", "Recipient".)
  with: ['with', 'people', 'person', 'recipient', 'member', 'invite', 'who'],
  by: ['by'],
  // A name the request gives ("a Jade plant called Kiwi") goes where the form asks for one.
  called: ['name', 'nickname', 'title', 'label'],
  named: ['name', 'nickname', 'title', 'label'],
  titled: ['title', 'name'],
};

/** Verbs of moving money: their object or "back"-person is the recipient ("Pay X back $12", "I owe X $12"). */
const MONEY_VERBS = /^(?:pay|send|transfer|give|owe|reimburse|refund|tip|wire|lend|repay)$/i;

/** Verbs whose form is usually opened by another verb's button (generic English). */
const FORM_SYNONYMS: readonly (readonly string[])[] = [['put', 'add'], ['move', 'transfer'], ['pay', 'send money', 'send'], ['owe', 'send money', 'pay'], ['settle', 'pay']];

/** Words after a verb that are no object of it. */
const STOP_OBJECT = /^(?:always|perhaps|thanks|afterwards|towards|sometimes|besides|nevertheless|unless|whereas|was|has|is|its|this|thus|plus|yes|us|as)$/;

/** Buttons that submit a form (generic). */
export const SUBMIT_WORDS = ['review', 'continue', 'next', 'submit', 'send', 'save', 'done', 'confirm', 'pay', 'transfer', 'request', 'apply', 'create', 'add', 'finish', 'ok'];

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';
const AMOUNT = /(?:[$€£]\s?\d(?:[\d,]*\d)?(?:\.\d{1,2})?|\b\d(?:[\d,]*\d)?(?:\.\d{1,2})?\s?(?:dollars|euros|pounds|bucks|usd|eur|gbp)\b)/gi;
/** A number with a unit of weight, length or volume (generic measurement abbreviations). */
const MEASURE = /(?<![\w$€£.,-])(\d+(?:\.\d+)?)\s?(lbs?|kg|g|oz|cm|mm|ft|km|mi|ml)\b(?![\w-])/gi;
const NUMBER = /(?<![\w$€£.,-])(?:#\s?)?(?=[A-Za-z-]*\d)(?:[A-Za-z]{1,4}-?)?\d[\d -]{2,}\d(?![\w-]|\.\w)/g;
const DATE = new RegExp(`\\b(?:(?:${MONTHS})\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?|\\d{1,2}(?:st|nd|rd|th)?\\s+(?:${MONTHS})(?:\\s+\\d{4})?|\\d{4}-\\d{2}-\\d{2}|today|tomorrow|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day)\\b`, 'gi');
const TIME = /\b\d{1,2}(?::\d{2})\s*(?:[ap]\.?m\.?)?(?!\w)|\b\d{1,2}\s*[ap]\.?m\.?(?!\w)/gi;
/** A labelled text: "note: X", "with the note X", "memo X", "the message is X". */
const LABELLED = /\b(?:with\s+(?:the\s+|a\s+)?(note|memo|message|comment|description|reason|reference)\s+(?:saying\s+|that says\s+)?|(note|memo|message|comment|description|reason|reference)\s*(?:[:\-–]|\s(?:is|says|reads|saying)\b:?))\s*([^.;!?]+?)\s*(?=[.;!?]|$)/i;
/** "Put X as the note", "X as the memo". */
const AS_LABEL = /\b(?:put|use|write|add)?\s*([^.;!?]+?)\s+as\s+(?:the|a|my)\s+(note|memo|message|comment|description|reason|reference)\b/i;

const stem = (w: string): string => w.toLowerCase().replace(/['’]s$/, '').replace(/(?<=[^s])s$/, '');
const words = (t: string): string[] => (t.toLowerCase().match(/[a-z][a-z'’]*|\$/g) ?? []).map(stem);

/** Content words just before `at` in `text` (up to `n`), nearest first, with the last function word kept. */
function before(text: string, at: number, n = 3): string[] {
  // (Not the app the request is done in: "a transfer in Pharmacy for X" gives X no "pharmacy" field — its words are
  // left out of the nearest ones, not replaced by words further back.)
  const clause = text.slice(0, at).split(/[.;!?]/).pop()!.replace(/\b(?:in|on|through|via|using)\s+(?:the\s+)?[A-Z][\w&-]*(?:\s+app)?(?=\s+(?:for|to|with)\b)/g, (m) => m.replace(/[A-Za-z]+/g, '\u0001'));
  const ws = clause.toLowerCase().match(/[a-z\u0001][a-z'’-]*/g) ?? [];
  return ws.slice(-n).reverse().filter((w) => w !== '\u0001');
}
function after(text: string, end: number, n = 2): string[] {
  const ws = text.slice(end).split(/[.;!?,]/)[0]!.toLowerCase().match(/[a-z][a-z'’-]*/g) ?? [];
  return ws.slice(0, n);
}

const STREET_ADDRESS = /\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][\w'-]*\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Lane|Ln|Court|Ct|Drive|Dr|Boulevard|Blvd|Way|Place|Pl|Terrace|Circle|Parkway|Pkwy|Highway|Hwy|Square|Sq|Close|Crescent|Row|Alley)\b\.?/g;

/** The values of a request, each with its kind and the words that may name its field. */
export function formValues(request: string, exclude: readonly string[] = []): FormValue[] {
  let text = request.replace(/[“”]/g, '"').replace(/[‘’]/g, "'").replace(/\s+/g, ' ').trim();
  const out: FormValue[] = [];
  const blank = (s: string): void => {
    text = text.replace(s, ' '.repeat(s.length));
  };
  // Quoted texts.
  for (const m of [...text.matchAll(/"([^"]{1,120})"/g)]) {
    const at = m.index!;
    out.push({ value: m[1]!.trim(), input: m[1]!.trim(), kind: 'text', cues: [...before(text, at), ...after(text, at + m[0].length, 3)] });
    blank(m[0]);
  }
  // A budget ("budget under $500", "our budget is $2,000–$10,000", "a budget of $500"): the range or bound as written,
  // one option of a budget picker or the text of a budget field.
  for (const m of [...text.matchAll(/\bbudget\s*(?:is|of|at|around|:)?\s*((?:(?:under|over|below|above|up\s+to|around|about|less\s+than|more\s+than)\s+)?[$€£]\s?\d(?:[\d,]*\d)?(?:\.\d{1,2})?(?:\s*(?:[–—-]|to)\s*[$€£]?\s?\d(?:[\d,]*\d)?(?:\.\d{1,2})?)?)/gi)]) {
    out.push({ value: m[1]!.trim(), input: m[1]!.trim(), kind: 'text', cues: ['budget', 'price', 'cost', 'spend'] });
    blank(m[0]);
  }
  // When the work is wanted ("I want it done within a month", "we'd like it finished as soon as possible"): the time as
  // written, an option of a "When …?" picker.
  for (const m of [...text.matchAll(/\b(?:(?:I|we)(?:['’]d)?\s+)?(?:want|like|need)\s+(?:it|this|them|(?:the\s+|our\s+|my\s+)?[a-z]+(?:\s+[a-z]+)?)\s+(?:to\s+be\s+)?(done|finished|completed|ready|fixed|started)\s+((?:within|in|by|before|after|as|next|this|asap|right|over)\b[^.;,!?]*?)\s*(?=[.;,!?]|$)/gi)]) {
    out.push({ value: m[2]!.trim(), input: m[2]!.trim(), kind: 'text', cues: ['when', 'timing', 'time', m[1]!.toLowerCase()] });
    blank(m[0]);
  }
  // "under the name X", "with the name X" (to the end of the clause): the name the thing is kept under.
  const nameLab = /\b(?:under|with|by)\s+the\s+name\s+(?!a\b|an\b|the\b|it\b)([^.;!?"]+?)\s*(?=[.;!?]|$)/i.exec(text);
  if (nameLab && /\w/.test(nameLab[1]!)) {
    out.push({ value: nameLab[1]!.trim(), input: nameLab[1]!.trim(), kind: 'text', cues: ['name', 'nickname', 'label'] });
    blank(nameLab[0]);
  }
  // "… and call it Gift from Grandma": a name given at the end of its sentence keeps a "from", "of", "for", "with" or
  // "and" between its capitalised words — unless what follows is a day or a time ("… name it Lunch for Friday": when,
  // no part of the name). ("in", "on", "at", "to" say where or when: "name it Dog Walker in HomeHub".)
  const given = /\b(?:call|name|title|label)\s+it\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*\s+(?:from|of|for|with|and)\s+([A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)*))\s*(?=[.!?]?\s*$)/.exec(text);
  if (given && !/^(?:mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|today|tomorrow|tonight|noon|midnight)/i.test(given[2]!)) {
    out.push({ value: given[1]!, input: given[1]!, kind: 'name', cues: ['name', 'call', 'label'] });
    blank(given[1]!);
  }
  // "X as the note".
  const asl = AS_LABEL.exec(text);
  if (asl && /\w/.test(asl[1]!) && !/[$\d]/.test(asl[1]!)) {
    const v = asl[1]!.replace(/^(?:put|use|write|add)\s+/i, '').trim();
    out.push({ value: v, input: v, kind: 'text', cues: [asl[2]!.toLowerCase()] });
    blank(asl[0]);
  }
  // "note: X", "with the note X".
  const lab = LABELLED.exec(text);
  if (lab && /\w/.test(lab[3]!)) {
    const v = lab[3]!.replace(/^["']|["']$/g, '').trim();
    out.push({ value: v, input: v, kind: 'text', cues: [(lab[1] ?? lab[2])!.toLowerCase()] });
    blank(lab[0]);
  }
  // A text after a colon that ends the request ("Report it to lost and found: Green folding umbrella"): the words
  // before the colon say what it is.
  const colon = /:\s*([A-Za-z][^.;:!?"]*?(?:\s+[^.;:!?"\s]+){1,})\s*$/.exec(text);
  // (A list of short items after the colon — "Road, Trek, 2021" — is several values, read one by one below.)
  const items = colon ? colon[1]!.trim().split(/\s*,\s*/) : [];
  // (Lower-case items of such a list — "front bumper" — are options to choose, as written.)
  if (colon && items.length >= 2 && items.every((p) => p.split(/\s+/).length <= 4)) {
    for (const it of items.map((p) => p.trim()).filter((p) => /^[a-z][a-z -]*[a-z]$/.test(p) && p.split(/\s+/).length <= 3)) {
      out.push({ value: it, input: it, kind: 'name', cues: [] });
      blank(it);
    }
  }
  if (colon && !lab && !(items.length >= 2 && items.every((p) => p.split(/\s+/).length <= 4))) {
    const v = colon[1]!.trim();
    out.push({ value: v, input: v, kind: 'text', cues: before(text, colon.index, 3) });
    blank(colon[0]);
  }
  // A measurement ("15.2 lb", "2.5 kg", "30 cm"): a number typed without its unit (the field says the unit).
  // Its cues are the unit and the quantity it measures ("lb" → weight), and a word right before it that is no value
  // of a list ("weight 15.2 lb" — not "Maine Coon, 15.2 lb").
  for (const m of [...text.matchAll(MEASURE)]) {
    const unit = m[2]!.toLowerCase();
    const quantity = /^(?:lbs?|kg|g|oz)$/.test(unit) ? ['weight', 'weighs'] : /^(?:l|ml)$/.test(unit) ? ['volume', 'amount'] : ['length', 'height', 'size', 'distance'];
    const lead = /,\s*$/.test(text.slice(0, m.index!)) ? [] : before(text, m.index!, 1);
    out.push({ value: m[0].trim(), input: m[1]!, kind: 'number', cues: [unit, ...quantity, ...lead] });
    blank(m[0]);
  }
  // A percentage ("a 20% tip", "15 percent off"): chosen or typed as written, the noun after it names its field.
  for (const m of [...text.matchAll(/(?<![\w.$€£])(\d{1,3}(?:\.\d+)?)\s?(?:%|percent\b)/g)]) {
    out.push({ value: `${m[1]}%`, input: `${m[1]}%`, kind: 'number', cues: [...after(text, m.index! + m[0].length, 1), 'percent', ...before(text, m.index!, 1)] });
    blank(m[0]);
  }
  // E-mail addresses: typed as they are (a person's name beside one is a name of its own, not part of it).
  for (const m of [...text.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)]) {
    out.push({ value: m[0], input: m[0], kind: 'text', cues: ['email', ...before(text, m.index!, 2)] });
    blank(m[0]);
  }
  // An option named after "choose"/"select"/"pick", to the end of its clause ("for handoff choose Leave at my door"): one
  // value, however many words, the option's own label.
  // ("for handoff choose …": the words after "for" name the option's field, no purpose of their own.)
  for (const m of [...text.matchAll(/(?:\bfor\s+(?:the\s+)?([a-z][a-z -]*?)\s*,?\s+)?\b(?:choose|select|pick)\s+([A-Z][^.;,!?"]*?)\s*(?=[.;,!?]|$)/g)]) {
    const v = m[2]!.trim();
    if (v.split(/\s+/).length < 2 || v.split(/\s+/).length > 7) continue;
    out.push({ value: v, input: v, kind: 'name', cues: [...(m[1] ? m[1].split(/\s+/) : []), ...before(text, m.index!, 3)] });
    blank(m[0]);
  }
  // A street address ("9 Mill Lane", "88 King St"): typed whole, where the form asks for a street or an address.
  for (const m of [...text.matchAll(STREET_ADDRESS)]) {
    out.push({ value: m[0].trim(), input: m[0].trim(), kind: 'text', cues: ['street', 'address', ...before(text, m.index!, 2)] });
    blank(m[0]);
  }
  for (const m of [...text.matchAll(AMOUNT)]) {
    const v = m[0].trim();
    out.push({ value: v, input: v.replace(/[$€£,]|\s?(?:dollars|euros|pounds|bucks|usd|eur|gbp)$/gi, '').trim(), kind: 'amount', cues: before(text, m.index!, 2) });
    blank(m[0]);
  }
  for (const m of [...text.matchAll(DATE)]) {
    out.push({ value: m[0], input: m[0], kind: 'date', cues: before(text, m.index!, 2) });
    blank(m[0]);
  }
  for (const m of [...text.matchAll(TIME)]) {
    out.push({ value: m[0].trim(), input: m[0].trim(), kind: 'time', cues: before(text, m.index!, 2) });
    blank(m[0]);
  }
  for (const m of [...text.matchAll(NUMBER)]) {
    const v = m[0].replace(/^#\s?/, '').trim();
    // ("the prescription number on the label is 5190736": what it is, said before "is".)
    const near = before(text, m.index!, 3);
    out.push({ value: v, input: v, kind: 'number', cues: near[0] === 'is' ? [...new Set([...near, ...before(text, m.index!, 8)])] : near });
    blank(m[0]);
  }
  // A code of capitals and digits mixed ("9AUV165", "2WDN846": a licence plate, a voucher): typed as written.
  for (const m of [...text.matchAll(/(?<![\w$€£.,#-])(?=[A-Z\d]*\d)(?=[A-Z\d]*[A-Z])(?=\d*[A-Z]+\d)[A-Z\d]{5,12}(?![\w-])/g)]) {
    out.push({ value: m[0], input: m[0], kind: 'number', cues: before(text, m.index!, 3) });
    blank(m[0]);
  }
  // A count of things ("Make it 3 servings", "for 4 guests", "2 tickets"): the number, its noun the field's cue.
  for (const m of [...text.matchAll(/(?<![\w$€£.,:-])(\d{1,3})\s+([a-z]{3,}s|people|children)\b(?!\s+(?:ago|later|from|before|after)\b)/g)]) {
    if (/^(?:minutes|mins|hours|hrs|seconds|secs|days|weeks|months|years|times)$/.test(m[2]!)) continue;
    out.push({ value: m[0], input: m[1]!, kind: 'number', cues: [m[2]!, m[2]!.replace(/s$/, ''), ...(/^(?:people|persons|guests|adults|children|kids)$/.test(m[2]!) ? ['people', 'guest', 'party', 'size', 'many'] : []), ...before(text, m.index!, 2)] });
    blank(m[0]);
  }
  // A purpose: "for concert tickets" (not a name's "for", which is read below as a name with the cue "for").
  // (At the clause's end any words; before a preposition only lower-case ones: "for Anna Berg at 7" is no purpose.)
  const atEnd = /\bfor\s+(?:an?\s+)?(?!(?:me|my|him|her|them|it|us|the)\b)([A-Za-z][A-Za-z' -]*?)\s*(?=[.;,:!?]|$)/.exec(text);
  const purpose =
    (atEnd && !/\b(?:from|to|at|in|on|by|with|instead)\b/.test(atEnd[1]!) ? atEnd : null) ??
    // (A capitalised name with lower-case words before a preposition: "for Coffee beans to Climbing crew" — what it was for.)
    /\bfor\s+([A-Z][\w'-]*(?:\s+(?!(?:from|to|at|on|in|by|with)\b)[a-z][\w'-]*){1,3})(?=\s+(?:from|to|at|on|in|by|with)\b)/.exec(text) ??
    /\bfor\s+(?:an?\s+)?(?!(?:me|my|him|her|them|it|us|the)\b)([a-z][a-z' -]*?)(?=\s+(?:from|to|at|on|in|by|with)\b)/.exec(text);
  if (purpose && purpose[1]!.trim() && !/\b(?:from|to|at|in|on|by|with|instead)\b/.test(purpose[1]!)) {
    out.push({ value: purpose[1]!.trim(), input: purpose[1]!.trim(), kind: 'text', cues: ['for'] });
    blank(purpose[0]);
  }
  // Names: capitalised runs the request carries (each sentence read as if it followed a verb).
  const sentences = text.split(/(?<=[.;!?])\s+/);
  let offset = 0;
  const names: FormValue[] = [];
  for (const s of sentences) {
    for (const e of instructionEntities(`then ${s}`)) {
      if (isNumberEntity(e) || normText(e.replace(/^(?:the|my)\s+/i, '')).length < 3 || exclude.some((x) => normText(x) === normText(e)) || /^(?:I|I'm|I'd|I've|The|My|Please|Can|Could|Would)$/.test(e)) continue;
      const at = text.indexOf(e, offset);
      if (at < 0) continue;
      // A single capitalised word that opens a sentence is its first word ("Put "X" as the note."), not a name.
      if (!/\s/.test(e) && (at === 0 || /[.;!?]\s*$/.test(text.slice(0, at)))) continue;
      // "my X prescription": the kind word after a name is a cue too; "for X" with a capital is a name.
      const pre = before(text, at, 2);
      const cues = [...pre, ...after(text, at + e.length, 1)];
      let value = e.replace(/^(?:the|my)\s+/i, '');
      // The thing right after the verb runs on through its lower-case words to a preposition ("Put Banana oat muffins
      // on the plan": one name, not "Banana").
      // (Not after an article: "my Escitalopram 10 mg prescription", "the Work alarm" — the word after the name is its kind.)
      if (pre[0] === 'then' && !/\d/.test(e)) {
        const tail = /^((?:\s+(?!(?:on|onto|to|in|into|for|at|with|from|by|and|or|then|please|now|the|a|an|my|our|it)\b)[a-z][a-z'-]*){1,3})(?=\s+(?:on|onto|to|in|into|for|at|with|from|by)\b|\s*[.;,!?]|\s*$)/.exec(text.slice(at + e.length));
        if (tail && !/[A-Z]/.test(e.split(/\s+/).pop()!.slice(1)) && !/(?:ing|ly)$/.test(tail[1]!.trim().split(/\s+/).pop()!)) value = `${value}${tail[1]}`;
      }
      // ("Report Leo absent": what is said of the person is no part of the name.)
      value = value.replace(/\s+(?:absent|sick|ill|late|missing|present|away|unwell|off)$/, '');
      // The same name again, or a part of a longer name; a word of a text the request dictates is still a name of its
      // own (that text's span was blanked before names are read: "a Backpack …, described as "Red kids backpack"").
      if ([...out, ...names].some((o) => normText(o.value) === normText(value) || (o.kind === 'name' && normText(o.value).includes(normText(value))))) continue;
      names.push({ value, input: value, kind: 'name', cues: MONEY_VERBS.test(pre[0] ?? '') ? ['to', ...cues] : cues });
    }
    offset += s.length + 1;
  }
  // A name inside a longer one ("Lisinopril" in "Lisinopril 10 mg") is the same name.
  out.push(...names.filter((n) => !names.some((o) => o !== n && normText(o.value).includes(normText(n.value)))));
  // "Pay X back", "I owe X $12": already cued by the verb; a name after "back"/"owe" likewise.
  return out.filter((v) => v.input.length > 0);
}

/** A form field on screen: its label line and the line right under it (placeholder, value or picker), if any. */
export interface FormField {
  label: OcrLine;
  input?: OcrLine;
  /** The text of label and input (for matching). */
  words: string[];
}

const SUBMITTISH = new RegExp(`^(?:${SUBMIT_WORDS.join('|')}|cancel|back|edit|delete)\\b`, 'i');

/**
 * The form fields a screen shows: short label lines (≤ 4 words, no digits, not the title bar, not a button) with a
 * line right under them, left-aligned with them, that is not itself a label of a field (a placeholder, the field's
 * value, a picker's current choice). Key–value rows (label and value on one row) are not fields.
 */
export function formFields(lines: readonly OcrLine[], screen: { width: number; height: number }): FormField[] {
  const body = lines.filter((l) => !isHeader(l, screen) && l.box.y > screen.height * 0.035).sort((a, b) => a.box.y - b.box.y || a.box.x - b.box.x);
  const used = new Set<OcrLine>();
  const out: FormField[] = [];
  for (const l of body) {
    if (used.has(l)) continue;
    const t = l.text.trim();
    const ws = t.match(/[A-Za-z][A-Za-z'’-]*/g) ?? [];
    // A label may be a question that asks for the value ("What did you lose?"), never a dialog's ("Freeze this card?").
    const asks = /^(?:what|which|where|when|who|whom|how)\b[^?]*\?$/i.test(t);
    // (A question asks in a few more words: "How much will it cost?".)
    if (ws.length === 0 || ws.length > (asks ? 6 : 4) || /\d/.test(t) || (/[?!.]$/.test(t) && !asks) || SUBMITTISH.test(t) || l.box.x > screen.width * 0.45) continue;
    // (A word centred on the screen, away from the left margin, is a button's — "Track" on a full-width button under the
    // form —: labels start at the form's left edge.)
    if (l.box.x > 64 && Math.abs(l.box.x + l.box.w / 2 - screen.width / 2) < 16) continue;
    // The end of a sentence wrapped onto a line of its own ("… from $8.95 per" over "item") is no label: the line right
    // above it starts where it starts, runs on to the right edge and ends without a stop.
    // (Only a line that starts lower-case or with a price is looked at: the scan runs for every line of every screen.)
    const wrapped = /^[a-z$(]/.test(t) && body.some((x) => x !== l && Math.abs(x.box.x - l.box.x) <= 8 && l.box.y - (x.box.y + x.box.h) <= 6 && l.box.y > x.box.y && x.box.x + x.box.w >= screen.width * 0.75 && x.text.trim().split(/\s+/).length > 5 && !/[.:!?]$/.test(x.text.trim()));
    if (wrapped) continue;
    // A chip wrapped onto a row of its own under a row of chips ("Breakfast  Lunch  Dinner" over "Snack") is a choice,
    // no label.
    // (Three or more short words on that row: two are a two-column form's inputs, "Jane  Doe".)
    const rowAbove = body.filter((x) => x !== l && l.box.y - x.box.y >= 25 && l.box.y - x.box.y <= 60 && /[A-Za-z]{2,}/.test(x.text) && x.text.trim().split(/\s+/).length <= 3);
    const chipAbove = rowAbove.find((x) => Math.abs(x.box.x - l.box.x) < 12);
    // (Two on that row are chips too when a label alone on its row heads them — "How long?" over "All day  Morning only".)
    const chipRow = chipAbove ? rowAbove.filter((y) => Math.abs(y.box.y - chipAbove.box.y) < 10) : [];
    const headAbove = chipAbove ? body.filter((x) => x !== l && !chipRow.includes(x) && chipAbove.box.y - x.box.y >= 20 && chipAbove.box.y - x.box.y <= 50 && Math.abs(x.box.x - chipAbove.box.x) < 24) : [];
    const headAlone = headAbove.length === 1 && !body.some((x) => x !== headAbove[0] && Math.abs(x.box.y - headAbove[0]!.box.y) < 10);
    if (chipAbove && (chipRow.length >= 3 || (chipRow.length === 2 && headAlone))) continue;
    // The row below: lines starting within 48 px under the label's bottom, overlapping its left edge region.
    const bottom = l.box.y + l.box.h;
    const row = body.filter((x) => x !== l && x.box.y >= bottom - 4 && x.box.y - bottom <= 48 && x.box.x < l.box.x + 140 && !SUBMITTISH.test(x.text.trim()));
    const firstY = Math.min(...row.map((x) => x.box.y));
    const under = row.filter((x) => x.box.y - firstY < 12);
    // A key–value row ("From   Everyday Checking"): a value on the label's own row, right of it.
    const sameRow = body.some((x) => x !== l && Math.abs(x.box.y + x.box.h / 2 - (l.box.y + l.box.h / 2)) < 10 && x.box.x > l.box.x + l.box.w + 20);
    if (sameRow) continue;
    // The input: the widest text on that row (a "$" prefix beside "0.00" is not the input).
    const input = under.sort((a, b) => normText(b.text).length - normText(a.text).length || b.box.w - a.box.w)[0];
    if (input) used.add(input);
    // (A sentence under the label — "A notification at the time you choose" — describes the field; its words name none.)
    const described = !!input && input.text.trim().split(/\s+/).length > 5;
    out.push({ label: l, ...(input ? { input } : {}), words: [...words(t), ...(input && !described ? words(input.text) : [])] });
  }
  // Only lines that head something: a label with nothing under it is kept only when another field on screen has an input.
  return out.filter((f) => f.input || out.some((o) => o.input));
}

/** The letters/digits shape of a text ("Lisinopril 10 mg" → "a9a"), for an example placeholder ("e.g. Losartan 50 mg"). */
const shape = (t: string): string => t.replace(/^e\.?g\.?\s*/i, '').replace(/[A-Za-z]+/g, 'a').replace(/\d+(?:[.,]\d+)?/g, '9').replace(/[^a9]/g, '');

/** How well a field fits a value: shared cue/kind words, plus a placeholder of the value's shape. */
export function fieldScore(v: FormValue, f: FormField): number {
  const fw = new Set(f.words);
  const cueWords = v.cues.flatMap((c) => [stem(c), ...(CUE_WORDS[c.toLowerCase()] ?? []).map(stem)]);
  let score = 0;
  // A cue of the field's stem ("described as" → Description; six letters in common).
  const sameStem = (a: string, b: string): boolean => a === b || (a.length >= 6 && b.length >= 6 && a.slice(0, 6) === b.slice(0, 6));
  for (const w of new Set(cueWords)) if (w.length > 1 && [...fw].some((x) => sameStem(w, x))) score += 1;
  // A name that carries the field's word ("Red Line" for "Line or route").
  if (v.kind === 'name') {
    const ws = words(v.value);
    // (Its head — last — word, and only for a name of two words or more: a lone "Phone" names no "Phone number" field.)
    if (ws.length >= 2 && ws[ws.length - 1]!.length >= 4 && fw.has(ws[ws.length - 1]!)) score += 1;
  }
  for (const w of new Set(KIND_WORDS[v.kind].map(stem))) if (fw.has(w)) score += 0.8;
  // A name of a thing of the field's kind in everyday English (WordNet: "Arizona" is a state → "State").
  if (v.kind === 'name' && score === 0 && words(v.value).length <= 2) {
    const name = words(v.value).join('_');
    if ([...fw].some((x) => x.length >= 4 && relatedness(name, x, 2, true) >= 0.5)) score += 1;
  }
  const ph = f.input?.text ?? '';
  // (Or a label led by a currency sign: "$ Replacement value".)
  if (v.kind === 'amount' && (/^[$€£]?\s?0[.,]00$/.test(ph.trim()) || fw.has('$') || /^[$€£]\s*\p{L}/u.test(f.label.text.trim()))) score += 1;
  if (ph && /^e\.?g\.?/i.test(ph.trim()) && shape(ph) === shape(v.value) && shape(v.value).length > 1) score += 1.5;
  // The field already shows this value; or another of its kind (a day for a day: "Day · Monday (today)" takes "Sunday").
  if (f.input && matchScore(f.input.text, v.input) >= 0.95) score += 2;
  else if (f.input && (v.kind === 'date' || v.kind === 'time') && new RegExp((v.kind === 'date' ? DATE : TIME).source, 'i').test(f.input.text)) score += 0.5;
  // A picker ("Choose a line", "Select …") takes one of its options, a name, never a free text.
  if (f.input && /^(?:choose|select|pick)\b/i.test(f.input.text.trim())) score += v.kind === 'text' ? -1 : v.kind === 'name' ? 0.5 : 0;
  return score;
}

/** Which field takes which value (by index): best pairs first, then what is left in screen order. */
export function assignFields(values: readonly FormValue[], fields: readonly FormField[]): Map<number, FormField> {
  const pairs: { v: number; f: number; s: number }[] = [];
  values.forEach((v, vi) => fields.forEach((f, fi) => pairs.push({ v: vi, f: fi, s: fieldScore(v, f) })));
  pairs.sort((a, b) => b.s - a.s || a.f - b.f);
  const out = new Map<number, FormField>();
  const taken = new Set<number>();
  for (const p of pairs) {
    if (p.s <= 0 || out.has(p.v) || taken.has(p.f)) continue;
    out.set(p.v, fields[p.f]!);
    taken.add(p.f);
  }
  // Elimination: values no label named, into the fields no value took, in order — only fields that look empty.
  const freeFields = fields.filter((f, fi) => !taken.has(fi) && f.input !== undefined);
  const freeValues = values.map((_, vi) => vi).filter((vi) => !out.has(vi));
  if (freeValues.length > 0 && freeValues.length <= freeFields.length) freeValues.forEach((vi, k) => out.set(vi, freeFields[k]!));
  return out;
}

/** The values of this form the screen shows filled in (each field's line under its label reads as the value). */
export function filledOnScreen(values: readonly FormValue[], index: number, lines: readonly OcrLine[], screen: { width: number; height: number }): boolean {
  if (dialogOpen(lines)) return false;
  const all = formFields(lines, screen);
  // A value offered as an option of its own (a radio row with its description under it) is not filled in by being
  // shown: it is chosen by tapping it (fieldStep).
  const isValue = (l: OcrLine): boolean => values.some((x) => matchScore(l.text, x.input) >= 0.95);
  const f = assignFields(values, all.filter((x) => !isValue(x.label))).get(index);
  // A name the form has no field for ("… to Pharmacy": the app itself) is nothing to fill once the form shows.
  if (!f && values[index]!.kind === 'name' && formVisible(values, lines, screen) && !lines.some((l) => !isHeader(l, screen) && optionScore(l.text, values[index]!.input) >= 0.95)) return true;
  // (A chip in a row of three or more — "Breakfast  Lunch  Dinner" — is shown whether chosen or not: not filled by being seen.)
  const chipRow = !!f?.input && lines.filter((l) => l !== f.input && Math.abs(l.box.y - f.input!.box.y) < 12 && /[A-Za-z]{2,}/.test(l.text) && l.text.trim().split(/\s+/).length <= 3).length >= 2;
  return !!f?.input && !chipRow && matchScore(f.input.text, values[index]!.input) >= 0.95 && !all.some((x) => x.label === f.input);
}

/** Enough of the form is visible: at least two of its values have a field whose label names them. */
export function formVisible(values: readonly FormValue[], lines: readonly OcrLine[], screen: { width: number; height: number }): boolean {
  const fields = formFields(lines, screen).filter((f) => f.input);
  const fits = (v: FormValue): boolean => fields.some((f) => fieldScore(v, f) >= 1);
  // A typed value (amount, number, date, time) with its field is the form's signature; a list of notes is no form.
  const typed = values.filter((v) => v.kind !== 'name' && v.kind !== 'text');
  // A form ends in its button (a list of items with descriptions under their names is no form).
  return values.filter(fits).length >= Math.min(2, values.length) && (typed.length === 0 || typed.some(fits)) && submitButton(lines, screen, []) !== undefined;
}

/** The form's submit button: a short line below the lowest field, led by a submit word or the request's verb. */
export function submitButton(lines: readonly OcrLine[], screen: { width: number; height: number }, verbs: readonly string[], words: readonly string[] = []): OcrLine | undefined {
  // (A "field" with nothing under it is no field to fill: likely the button itself, "Track" under the last input.)
  const fields = formFields(lines, screen).filter((f) => f.input);
  const floor = Math.max(0, ...fields.map((f) => (f.input ?? f.label).box.y));
  const lead = new Set([...SUBMIT_WORDS, ...verbs.map((v) => v.toLowerCase().split(/\s+/)[0]!)]);
  // (Never the app's tab bar: "Profile" under a profile page's rows is a tab, not the page's button.)
  const tabs = tabRow(lines, screen);
  const below = lines.filter((l) => !isHeader(l, screen) && l.box.y > floor && !/[?]/.test(l.text) && !tabs.includes(l));
  const wordsOf = (l: OcrLine): string[] => l.text.trim().toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
  const cands = below.filter((l) => {
    const ws = wordsOf(l);
    return ws.length > 0 && ws.length <= 3 && lead.has(ws[0]!);
  });
  if (cands.length > 0) return cands.sort((a, b) => a.box.y - b.box.y)[0];
  // A one- or two-word button below the fields that starts with a word of the request or of the page's title
  // ("Track" under "Tracking number" for "Add tracking number …" on "Track a package").
  const title = lines.filter((l) => isHeader(l, screen) && !/\d/.test(l.text)).flatMap((l) => contentWords(l.text)).slice(0, 1);
  const cue = [...words, ...title];
  const own = below
    .filter((l) => {
      const ws = wordsOf(l);
      return ws.length > 0 && ws.length <= 2 && !/\d/.test(l.text) && cue.some((w) => w.length >= 4 && ws[0]!.length >= 4 && (w.startsWith(ws[0]!) || ws[0]!.startsWith(w)));
    })
    .sort((a, b) => a.box.y - b.box.y)[0];
  // Failing one below the fields, the top bar's own button at its right end ("Save", "Done"), as phone forms often have —
  // before a line that only shares a word with the request (the label "Servings" of a stepper is no button).
  const top = lines.find((l) => isHeader(l, screen) && l.box.x > screen.width * 0.55 && /^(?:save|done|submit|create|post)$/i.test(l.text.trim()));
  return top ?? own;
}

/**
 * The form plan, or undefined when the request is not one: at least two values, one of them a typed value
 * (amount, number, date, time or a quoted/labelled text), and a verb.
 */
export function understandForm(request: string, opts: { numberAfterVerb?: boolean; kind?: string } = {}): ActPlan | undefined {
  const text = request.replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim().replace(/[.!]+$/, '');
  if (!text) return undefined;
  // The verb: the first word of the first clause that starts with one (not "I …", "My …", a name).
  const clauses = text.split(/(?<=[.;!?])\s+|,\s+(?=[a-z])/);
  let verb: string | undefined;
  let clause = '';
  for (const raw of clauses) {
    const c = raw.trim().replace(/^(?:i(?:'d| would)? (?:like|want|need) (?:you )?to|i'd love to|let's|help me)\s+/i, '');
    // (A number right after the verb is a quantity — "Add 2 Classic Burger" — unless the caller knows it starts a value:
    // "Add 88 King St to my addresses".)
    const w = (opts.numberAfterVerb ? /^([A-Za-z]+)\b/ : /^([A-Za-z]+)\b(?!\s+\d)/).exec(c)?.[1];
    if (!w || /^(?:i|my|the|a|an|it|this|that|there|please|can|could|would|will|and|then)$/i.test(w)) continue;
    if (/^[A-Z][a-z]+$/.test(w) || /^[a-z]+$/.test(w)) {
      verb = w.toLowerCase();
      clause = c;
      break;
    }
  }
  // (A removal of a named thing — "Cancel my X tickets for June 7 … as Wallet credit" — opens that thing, no form.)
  if (verb && /^(?:cancel|delete|remove|drop|unbook|erase)$/.test(verb) && instructionEntities(clause).some((e) => !isNumberEntity(e) && !isDateEntity(e) && (/\s/.test(e) || new RegExp(`^[A-Za-z]+\\s+(?:my\\s+|the\\s+|our\\s+)?${e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(clause)))) return undefined;
  const owe = /\bi\s+owe\b/i.test(text);
  if (!verb && owe) verb = 'pay';
  if (!verb) return undefined;
  const named = namedAppIn(text);
  // The verb is no name: replaced by a function word where it starts a sentence ("Send Sam Patel." after a pronoun was
  // resolved), so that the name after it does not open the sentence.
  const verbAt = new RegExp(`(?<=^|[.;!?]\\s+)(?:${verb})\\b`, 'gi');
  const read = formValues(text.replace(verbAt, 'then'), named ? [named] : [])
    .filter((v) => !(v.kind === 'name' && normText(v.value) === normText(verb!)))
    // ("ZIP 80302": the label of the number after it — a cue of that number — no name of its own.)
    .filter((v) => !(v.kind === 'name' && /^(?:ZIP|Zip|Postcode|Code|PIN)$/.test(v.value)))
    .map((v) => ({ ...v, cues: v.cues.filter((c) => c !== 'then') }));
  // A name and the number right after it are one name ("Zone 4120", "Gate 12"): a numbered thing, not two values.
  const numbered = read.filter((v) => v.kind === 'name' && read.some((n) => n.kind === 'number' && text.includes(`${v.value} ${n.value}`)));
  const values = read
    .filter((n) => !(n.kind === 'number' && numbered.some((v) => text.includes(`${v.value} ${n.value}`))))
    .map((v) => {
      const n = numbered.includes(v) ? read.find((x) => x.kind === 'number' && text.includes(`${v.value} ${x.value}`)) : undefined;
      return n ? { ...v, value: `${v.value} ${n.value}`, input: `${v.value} ${n.value}` } : v;
    });
  // A weekday and the date right after it are one date ("Thursday, June 19").
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i]!;
    if (v.kind !== 'date' || !/day$/i.test(v.value)) continue;
    if (values.some((o) => o !== v && o.kind === 'date' && new RegExp(`${v.value},?\\s+${o.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(text))) values.splice(i, 1);
  }
  const typed = values.filter((v) => v.kind !== 'name' && !(v.kind === 'text' && v.cues.join(' ') === 'for'));
  // (A new record of a kind the caller knows, named by the request — "a X called Kiwi" — is a form: its name is typed.)
  const namedRecord = !!opts.kind && values.length >= 2 && values.some((v) => v.kind === 'name' && v.cues.some((c) => /^(?:called|named)$/.test(c)));
  if (values.length < 2 || (typed.length === 0 && !namedRecord)) return undefined;
  // Not a single-thing action with a date (e.g. "Move X to June 4"): a form needs a typed value that is not only a date.
  if (typed.every((v) => v.kind === 'date' || v.kind === 'time') && values.length < 3) return undefined;
  // Nor an action on a thing named right after the verb, with only a day or time typed ("Log Pearl as Fertilized, Today",
  // "Book X for Y on Friday, June 6, arriving 8–10 AM", "Move my X visit to …"): its values are chosen on its page.
  const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // (For any verb when the thing is named bare — "Book X …" — or is the user's thing of a kind: "Move my X visit …"; "Polish
  // my Oak Table on Friday with Deluxe finish" stays a form: the thing is one of its values.)
  const onThing = (v: FormValue): boolean =>
    v.kind === 'name' &&
    (RECORD_VERB.test(verb!)
      ? new RegExp(`^\\S+\\s+(?:my\\s+|the\\s+|our\\s+)?${esc(v.value)}\\b`).test(clause)
      : new RegExp(`^\\S+\\s+(?:the\\s+)?${esc(v.value)}\\b`).test(clause) || new RegExp(`^\\S+\\s+(?:my|the|our)\\s+${esc(v.value)}\\s+[a-z]{3,}\\b`).test(clause));
  if (!opts.kind && typed.every((v) => v.kind === 'date' || v.kind === 'time') && values.some(onThing)) return undefined;
  const money = values.some((v) => v.kind === 'amount') && MONEY_VERBS.test(owe ? 'owe' : verb);
  // The person money goes to: a name no preposition introduces ("Pay X back $12", "I owe X $12") is the recipient.
  const payee = money ? values.find((v) => v.kind === 'name' && !v.cues.some((c) => /^(?:to|from|for|at|instead|of|with|in|on)$/.test(c))) : undefined;
  if (payee) payee.cues.unshift('to');
  // The button that opens the form: the verb with its object's kind ("Transfer a prescription"), "<Verb> money" for an
  // amount, and the verb's common synonyms.
  let rest = clause.replace(/^\s*\S+/, '');
  for (const v of values) rest = rest.replace(v.value, ' ');
  if (named) rest = rest.replace(new RegExp(`\\b(?:in|on|using|inside|through|via)\\s+(?:the\\s+|my\\s+)?${esc(named)}\\b`), ' ');
  // The kind of thing the form makes: the head (last) noun of the first noun phrase after an article ("a door code" →
  // code), else the first content word.
  const np = /\b(?:a|an|the|my|new)\s+(?:[A-Z][\w'-]*\s+)?((?:(?!(?:under|over|with|from|into|onto|for|and|the|called|named|through|via|using|charged|ending)\b)[a-z]{3,}\s+)?(?!(?:under|over|with|from|into|onto|for|and|the|called|named|through|via|using|charged|ending)\b)[a-z]{3,})\b(?!\s+(?:and|or)\b)/.exec(rest.replace(/[^A-Za-z' ]+/g, ' ').replace(/\s+/g, ' '));
  const head = np ? contentWords(np[1]!.split(' ').pop()!)[0] : undefined;
  // Where the request puts the thing ("to my wallet"; "Put X on the plan": the plan holds X, it is not X's kind).
  // ("Add X to my Saffra meal plan": the head noun of the place, after the app's name.)
  const onDest = /^(?:put|add|place)$/.test(verb) ? /\b(?:on|onto|in|into|to)\s+(?:my|the|our)\s+(?:[A-Z][\w&'-]*\s+)?(?:[a-z]{3,}\s+)?([a-z]{3,})\b/.exec(clause)?.[1] : undefined;
  // (Not the app itself: "to my parking app" names where the request is done, no place in it.)
  const dest = /\bto\s+(?:my|the|our)\s+([a-z]{3,})\b(?!\s+app(?:lication)?\b)/.exec(text)?.[1] ?? (onDest && !/^app(?:lication)?$/.test(onDest) ? onDest : undefined);
  // (A plural noun right after the verb is what the form asks for: "Get quotes through X for …" → Get quotes.)
  // (So is a bare noun right after the verb before a preposition: "Report damage on my last X trip" → Report damage.)
  const direct = /^\s*([a-z]{2,}[^s\W]s)\b/.exec(rest)?.[1] ?? /^\s*(?!(?:a|an|the|my|our|your|their|this|that|some|any|all|it|them|me|us|up|out|in|on|off|back|down|over)\b)([a-z]{4,})\s+(?:on|for|about|with|through|from|to)\s+(?:my|the|our|a|an)\b/.exec(rest)?.[1];
  const kind = opts.kind ?? (direct && !STOP_OBJECT.test(direct) ? contentWords(direct)[0] : undefined) ?? (head && head.length >= 3 && !/^(?:note|memo|message|over|back|number)$/.test(head) && head !== onDest ? head : undefined) ?? contentWords(rest).find((w) => w.length > 3 && !/^(?:note|memo|message|over|back|number)$/.test(w) && w !== onDest && !new RegExp(`^(?:${MONTHS})$|^(?:mon|tues|wednes|thurs|fri|satur|sun)day$`, 'i').test(w));
  // A noun phrase of two words joined by "and" names a section or button whole ("lost and found", "terms and conditions").
  const phrase = /\b([a-z]{3,} and [a-z]{3,})\b/.exec(rest.replace(/\band\s+(?:call|name|title)\s+it\b/g, ' '))?.[1];
  const syn = [...SYNONYMS, ...FORM_SYNONYMS].filter((g) => g.includes(verb!)).flat().filter((w) => w !== verb);
  const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
  const opens = [
    ...(money ? [`${cap(verb)} money`, 'Send money', 'Transfer money', 'Pay someone'] : []),
    ...(kind ? [`${cap(verb)} ${kind}`, `${cap(verb)} a ${kind}`] : []),
    // (The whole noun phrase too: "Add gift card" for "Add the X gift card …".)
    ...(np && kind && np[1]!.includes(' ') && np[1]!.endsWith(kind) ? [`${cap(verb)} ${np[1]}`] : []),
    ...(phrase ? [cap(phrase)] : []),
    cap(verb),
    ...syn.map(cap),
    ...(money ? ['Send', 'Transfer', 'Pay'] : []),
  ].filter((x, i, a) => a.indexOf(x) === i);
  const verbs = [verb, ...syn, ...(money ? ['send', 'transfer', 'pay'] : [])];
  // Not the values, nor the words that name their fields ("note", "memo"): those name no app.
  const label = new Set(Object.values(KIND_WORDS).flat());
  const cueWords = contentWords(text).filter((w) => !label.has(w) && !values.some((v) => normText(v.value).includes(normText(w))));
  // (The request without its field words, so that an app known by such a word — notes for "note" — is not looked into first.)
  const open = appGoal(named, { words: [...cueWords, ...values.filter((v) => v.kind === 'name').flatMap((v) => contentWords(v.value))], verbs, names: values.filter((v) => v.kind === 'name').map((v) => v.value), request: [verb, ...cueWords].join(' ') });
  // A launcher label that is one of the request's own words (not a field's: "note" is no Notes app here).
  if (open.kind === 'open' && open.topic) open.topic = new RegExp(`^(?:${cueWords.filter((w) => w.length >= 4).join('|') || '(?!)'})s?$`, 'i');
  // A name the request puts the new thing in ("… to Cabin weekend", "in our Flat 4B group"), whole as written: the place
  // that holds the form's button when the first screen lacks it.
  const places = values
    .filter((v) => v.kind === 'name' && v.value !== named)
    .map((v) => new RegExp(`\\b(?:to|in|into|from)\\s+(?:the\\s+|my\\s+|our\\s+)?(${esc(v.value)}(?:\\s+[a-z][\\w-]*){0,2}?)(?=\\s+(?:in|on|at|to|from|for|with|by|via|and|group|list|folder)\\b|\\s*[,.;!?]|\\s*$)`).exec(text)?.[1])
    .filter((p): p is string => !!p);
  // The values that go in fields: not the place it goes in (opened on the way). A place is told from a person by its
  // name — lower-case words or a number in it: "Lisbon trip", "Flat 4B" — and money is never sent to a place.
  const fieldValues = values.filter((v) => money || !places.some((p) => p.startsWith(v.value) && /\s(?:[a-z]|\S*\d)/.test(p)));
  // The user's own thing the form is about ("Report damage on my last Mazda3 trip: …"): its page holds the form's button —
  // its kind's list first (Trips), then the thing; the values it names are the form's, not the thing's.
  const owned = /\bmy\s+(?:last|latest|recent|current|next|upcoming)?\s*((?:[A-Z][\w'’.&-]*\s+)*?[A-Z\d][\w'’&-]*)\s+([a-z]{3,})\b/.exec(clause);
  const ownThing = owned && values.some((v) => v.kind === 'name' && normText(v.value) === normText(owned[1]!)) && !MONEY_VERBS.test(verb) ? owned : undefined;
  const toThing: Goal[] = ownThing
    ? [
        { kind: 'tap', targets: [cap(plural(ownThing[2]!)), `My ${plural(ownThing[2]!)}`], text: `open ${plural(ownThing[2]!)}`, min: 0.8, optional: true, notTitle: true, already: [ownThing[1]!] },
        // ("my last / previous / recent X trip": a thing of the past, listed under Past or History.)
        ...(/\bmy\s+(?:last|previous|recent)\s/.test(ownThing[0]) ? [{ kind: 'tap', targets: ['Past', 'History', 'Previous', 'Completed'], text: 'open Past', min: 0.95, optional: true, notTitle: true, already: [ownThing[1]!] } satisfies Goal] : []),
        { kind: 'tap', targets: [ownThing[1]!], text: `open ${ownThing[1]}`, entity: true, min: 0.75, optional: true, notTitle: true },
      ]
    : [];
  const goals: Goal[] = [
    open,
    ...toThing,
    // (The button that creates a thing of that kind is often "Add <kind>" / "New <kind>", after the verb's own.)
    // (And it lives on the list of the user's things of that kind — "Addresses" — when the first screen lacks it.)
    {
      kind: 'tap',
      targets: kind ? [...opens.slice(0, opens.indexOf(cap(verb))), `Add ${kind}`, `New ${kind}`, ...opens.slice(opens.indexOf(cap(verb)))] : opens,
      text: `tap ${opens[0]}`,
      min: 0.8,
      notTitle: true,
      words: [...verbs.filter((w) => !/\s/.test(w)), ...(kind ? [kind] : [])],
      form: formFieldValues(fieldValues, ownThing?.[1]),
      // (Or where the request puts it: "to my wallet" → "Wallet".)
      ...(kind || places.length || onDest ? { via: [...places, ...(dest && (kind || onDest) ? [cap(dest)] : []), ...(kind ? [cap(/(?:s|x|ch|sh)$/.test(kind) ? `${kind}es` : `${kind}s`)] : [])] } : {}),
    },
    ...formFieldValues(fieldValues, ownThing?.[1]).map((v, i, all): Goal => ({ kind: 'field', index: i, values: all, text: `fill in ${v.value}` })),
    { kind: 'submit', verbs, text: 'submit the form' },
    {
      kind: 'tap',
      targets: ['Confirm', 'Send', 'Pay now', 'Submit', 'OK', 'Yes', ...opens],
      text: 'confirm',
      min: 0.8,
      optional: true,
      notTitle: true,
      lowest: true,
      repeatLast: true,
      doneWhen: RESULT,
    },
  ];
  return { goals, result: RESULT };
}

/** The values that go in a form's fields: all but the thing whose page holds the form, when there is one. */
function formFieldValues(values: FormValue[], thing: string | undefined): FormValue[] {
  return thing ? values.filter((v) => normText(v.value) !== normText(thing)) : values;
}

/** A screen line that reports a form's request carried out. */
export const RESULT = /\b(?:sent|transferred|submitted|requested|paid|scheduled|received|completed?|success(?:ful(?:ly)?)?|confirmed|created|saved)\b/i;

/** What to do for a `field` goal on this screen (policy.ts turns it into an action with the goal's tag). */
export type FieldStep =
  | { do: 'tap'; line?: OcrLine; point?: [number, number]; thought: string; conclusion: string; state: string }
  | { do: 'type'; text: string; thought: string; conclusion: string }
  | { do: 'swipe'; thought: string; conclusion: string; state: string }
  | { do: 'notFound'; what: string }
  /** A date or time no field on this page takes: chosen on a later page of the flow (after Continue). */
  | { do: 'defer'; value: string }
  /** The field already shows the value (a stepper at the count): nothing to do. */
  | { do: 'kept'; value: string; thought: string };

/** A short signature of what the screen shows outside its title bar (did a tap change the screen?). */
export function bodySig(lines: readonly OcrLine[], screen: { height: number }): string {
  // The number of lines outside the title bar: focusing an input leaves it (nearly) as it was, a picker or a
  // suggestion list adds lines. A count, not a hash: focus styling may make OCR drop or merge one line.
  return String(lines.filter((l) => !isHeader(l, screen)).length);
}

/** A dialog or sheet is open: a "Cancel" button shows (pickers, confirmations). */
const dialogOpen = (lines: readonly OcrLine[]): boolean => lines.some((l) => /^cancel$/i.test(l.text.trim()));

/**
 * How well an option reads as a value: `matchScore`, or 0.95 for the value's words followed by one or two lower-case
 * words that describe it ("Jade plant" for "Jade", "Low light" for "Low", "Living room" for "Living"): a request
 * writes the capitalised name, the option its whole label.
 */
/** Nouns that name a kind of datum a field asks for (generic English): a label ending in one is a field's, no option. */
const DATUM_WORDS = /^(?:number|name|address|email|code|date|time|details|info|id)$/;

export function optionScore(option: string, value: string): number {
  const s = matchScore(option, value);
  if (s >= 0.95) return s;
  const vw = value.trim().split(/\s+/);
  const ow = option.trim().split(/\s+/);
  // (Not when the words after it name a kind of datum: "Phone number", "Card name" label a field for one, no option.)
  // (A value led by a number joined to a word — "30-day" — is a name too: "30-day supply".)
  // (One letter the OCR dropped or misread in a long name — "Riverside Mal" — is still that option; never a digit — "Room
  // 412" is no "Room 413" — nor a plural's ending.)
  const a = normText(option);
  const b = normText(value);
  if (Math.min(a.length, b.length) >= 10 && levenshtein(a, b) === 1 && a.replace(/\D/g, '') === b.replace(/\D/g, '') && a !== `${b}s` && b !== `${a}s`) return 0.95;
  const described = /^(?:\p{Lu}|\d+-\p{L})/u.test(value.trim()) && ow.length > vw.length && ow.length - vw.length <= 2 && normText(ow.slice(0, vw.length).join(' ')) === normText(value) && ow.slice(vw.length).every((w) => /^[a-z][a-z-]{2,}$/.test(w) && !DATUM_WORDS.test(w));
  return described ? 0.95 : s;
}

/**
 * One step of filling value `index`: `state` is this goal's last tag state in the history ("field #sig" after the
 * field was tapped on a screen with signature sig, "field #sig pick k" after k swipes through its options).
 */
export function fieldStep(values: readonly FormValue[], index: number, lines: readonly OcrLine[], screen: { width: number; height: number }, state: string | undefined, steppers: readonly Stepper[] = []): FieldStep {
  const v = values[index]!;
  // A count set with a stepper ("Servings  − 2 +"): "+" or "−" until it shows the count (at most 12 taps).
  const taps = Number(/^stepper (\d+)$/.exec(state ?? '')?.[1] ?? 0);
  const counted = v.kind === 'number' && /^\d{1,3}$/.test(v.input) ? stepperFor(v, values, lines, screen, steppers) : undefined;
  if (counted) {
    const { label, st } = counted;
    const want = Number(v.input);
    if (st.value === want) return { do: 'kept', value: v.value, thought: `"${label.text}" already shows ${want}.` };
    if (st.value !== undefined && taps < 12) {
      const up = st.value < want;
      const g = up ? st.plus : st.minus;
      return {
        do: 'tap',
        point: [Math.round(g.box.x + g.box.w / 2), Math.round(g.box.y + g.box.h / 2)],
        thought: `"${label.text}" is a stepper at ${st.value}; tapping its "${g.text}" towards ${want}.`,
        conclusion: `Tapped "${g.text}" on "${label.text}" (${st.value} → ${want}).`,
        state: `stepper ${taps + 1}`,
      };
    }
  }
  const opened = state ? /^field #(\d+)(?: pick (\d+))?( cleared)?$/.exec(state) : null;
  // (Cleared of its old value just now: typed at once.)
  if (opened?.[3]) return { do: 'type', text: v.input, thought: `The field for "${v.value}" is cleared: typing it.`, conclusion: `Typed "${v.input}" into the field.` };
  if (opened) {
    const picks = Number(opened[2] ?? 0);
    const changed = Math.abs(Number(bodySig(lines, screen)) - Number(opened[1])) >= 2 || dialogOpen(lines) || picks > 0;
    if (!changed) {
      return { do: 'type', text: v.input, thought: `The field for "${v.value}" is focused (the screen did not change): typing it.`, conclusion: `Typed "${v.input}" into the field.` };
    }
    // A picker or list opened: the value as one of its options (exact names first: a near-duplicate is not it).
    // (A sheet that asks — "Who paid?" over its options and Cancel — holds the options: not the same name on the form
    // behind it.)
    const asks = lines.find((l) => /\?\s*$/.test(l.text.trim()) && l.text.trim().split(/\s+/).length <= 6);
    const cancel = asks ? lines.find((l) => /^cancel$/i.test(l.text.trim()) && l.box.y > asks.box.y) : undefined;
    const inSheet = (l: OcrLine): number => (asks && cancel && l.box.y > asks.box.y && l.box.y < cancel.box.y ? 1 : 0);
    const opts = lines
      .filter((l) => !isHeader(l, screen))
      // (A date in any common form: "Thursday, March 19" for "March 19".)
      .map((l) => ({ l, s: Math.max(optionScore(l.text, v.input), v.kind === 'date' && sameDate(l.text, v.value) ? 0.96 : 0) }))
      .filter((c) => c.s >= 0.95)
      .sort((a, b) => inSheet(b.l) - inSheet(a.l) || b.s - a.s || b.l.box.y - a.l.box.y);
    if (opts[0]) {
      return { do: 'tap', line: opts[0].l, thought: `The field's options are open; "${opts[0].l.text}" is "${v.value}": choosing it.`, conclusion: `Chose "${opts[0].l.text}".`, state: 'done' };
    }
    // (A long list — a recipe box A–Z — takes a few swipes.)
    if (picks < 4) return { do: 'swipe', thought: `The field's options are open but "${v.value}" is not among those shown; scrolling them.`, conclusion: `Scrolled the options for "${v.value}".`, state: `field #${opened[1]} pick ${picks + 1}` };
    return { do: 'type', text: v.input, thought: `No option reads "${v.value}"; typing it into the field.`, conclusion: `Typed "${v.input}" into the field.` };
  }
  // The value offered as an option of its own (a radio row, a chip, a day in a list: "Dry Cleaning", "Sat, Jun 7"): chosen
  // by tapping it — it is no field's label.
  const isValue = (l: OcrLine): boolean => values.some((x) => matchScore(l.text, x.input) >= 0.95);
  const f = assignFields(values, formFields(lines, screen).filter((x) => !isValue(x.label))).get(index);
  const shown = v.kind !== 'number' && v.kind !== 'amount' ? lines.filter((l) => !isHeader(l, screen) && (optionScore(l.text, v.input) >= 0.95 || (v.kind === 'date' && sameDate(l.text, v.value)))).sort((a, b) => b.box.y - a.box.y) : [];
  // A person named by the first name ("Leo") offered as a card with the full name ("Leo Okafor"): that card, when it is
  // the only one.
  if (shown.length === 0 && v.kind === 'name' && /^\p{Lu}[\p{L}'-]+$/u.test(v.input)) {
    const people = lines.filter((l) => !isHeader(l, screen) && new RegExp(`^${v.input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+\\p{Lu}[\\p{L}'-]+$`, 'u').test(l.text.trim()));
    if (people.length === 1) shown.push(people[0]!);
  }
  // (Not when the request's own words name a picker field that shows another short value — "paid by Maya" beside "Paid
  // by · You" —, unless the value is offered right under that field's label: the same name further down belongs to
  // another part of the form, a list of who shares it. Longer options — "Leave at the front desk" among radio rows —
  // are chosen where they show.)
  const short = (t: string): boolean => t.trim().split(/\s+/).length <= 2;
  const cued = !!f?.input && short(f.input.text) && short(v.value) && fieldScore(v, f) >= 1 && optionScore(f.input.text, v.input) < 0.95 && !shown.some((o) => o.box.y > f.label.box.y && o.box.y - (f.label.box.y + f.label.box.h) < 70);
  const offered = cued ? undefined : shown[0];
  if (offered) return { do: 'tap', line: offered, thought: `"${offered.text}" is offered as an option: choosing it for "${v.value}".`, conclusion: `Chose "${offered.text}".`, state: 'done' };
  // A date or time no field here is labelled for ("When", "Date", "Time"): a later page of the flow asks for it.
  if ((v.kind === 'date' || v.kind === 'time') && (!f || fieldScore(v, f) < 1)) return { do: 'defer', value: v.value };
  if (!f) return { do: 'notFound', what: `the field for "${v.value}"` };
  const sig = bodySig(lines, screen);
  const label = f.label.text.trim();
  // A row of choices under the label (chips: "General  Food & drink  Groceries"), the value not among those shown: the
  // rest of them further down — a chip is never typed into.
  const chips = f.input ? lines.filter((l) => l !== f.input && !isHeader(l, screen) && Math.abs(l.box.y - f.input!.box.y) < 12 && l.text.trim().split(/\s+/).length <= 3) : [];
  if (v.kind === 'name' && chips.length >= 2) {
    return { do: 'swipe', thought: `The field "${label}" offers its choices in a row; "${v.value}" is not among those shown: scrolling to the rest.`, conclusion: `Scrolled the choices for "${v.value}".`, state: `field #${sig} pick 1` };
  }
  if (f.input) {
    return { do: 'tap', line: f.input, thought: `The field "${label}" takes "${v.value}" (${v.kind}); tapping it ("${f.input.text}").`, conclusion: `Tapped the field "${label}" for "${v.value}".`, state: `field #${sig}` };
  }
  // An empty input under its label: its box starts right below the label.
  const point: [number, number] = [Math.round(f.label.box.x + Math.min(80, screen.width / 4)), Math.round(f.label.box.y + f.label.box.h + 22)];
  return { do: 'tap', point, thought: `The field "${label}" takes "${v.value}" (${v.kind}); tapping its box under the label.`, conclusion: `Tapped the field "${label}" for "${v.value}".`, state: `field #${sig}` };
}

/** The stepper of the field that takes a count: under its label or on its row, right of it. */
function stepperFor(v: FormValue, values: readonly FormValue[], lines: readonly OcrLine[], screen: { width: number; height: number }, steppers: readonly Stepper[]): { label: OcrLine; st: Stepper } | undefined {
  if (steppers.length === 0) return undefined;
  const f = assignFields(values, formFields(lines, screen)).get(values.indexOf(v));
  const labels = f ? [f.label] : lines.filter((l) => fieldScore(v, { label: l, words: words(l.text) }) >= 1);
  for (const label of labels) {
    const bottom = label.box.y + label.box.h;
    const st = steppers.find(
      (s) =>
        (s.minus.box.y >= bottom - 6 && s.minus.box.y - bottom <= 70 && Math.abs(s.minus.box.x - label.box.x) < 80) ||
        (Math.abs(s.minus.box.y + s.minus.box.h / 2 - (label.box.y + label.box.h / 2)) < 25 && s.minus.box.x > label.box.x + label.box.w),
    );
    if (st) return { label, st };
  }
  return undefined;
}
