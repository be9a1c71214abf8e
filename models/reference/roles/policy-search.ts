/**
 * Reference policy — search by screen relevance, the fallback when the plan is stuck.
 *
 * The planner (policy.ts) turns a request into goals with readers written for request structures it knows. On an
 * app whose flow it was not written for, a goal's target may never show ("Choose seat" where the app says "Seat
 * map") and the planner wanders until its step budget is spent. This module takes over then and explores the app by
 * what the screens say, as a person new to an app would:
 *
 *   1. a question the app asks (a confirmation dialog) is answered with its affirmative button;
 *   2. a result line that appeared after a committing tap ("Seat confirmed", "Reading submitted") ends the task;
 *   3. a field just tapped for a value of the request gets that value typed;
 *   4. a value of the request (a name, a date, a time, a code) offered on screen as an option is chosen; a field whose
 *      label fits a value not yet entered is tapped;
 *   5. otherwise the untried line that says most of the request is tapped: the request's names count most, its
 *      content words next, a word near in meaning to one of them (distributional word vectors) a little; once every
 *      value of the request is in, a committing button ("Confirm", "Save", "Book", the request's own verb) leads;
 *   6. nothing relevant: scroll the page (until it stops moving), then go Back, then give up.
 *
 * Generic: only the request's words, the OCR'd screen and the episode's conclusions. No app, family or label lists
 * beyond generic English (commit words, destructive words). Memory is the conclusions' `[search …]` tags: what was
 * tapped on which screen (`#sig`), scrolls and backs, the field a value is being typed into.
 */
import type { OcrLine } from '../types.js';
import type { StarRow, Stepper } from './policy-vision.js';
import type { MobileAction } from '../../../domain/action.js';
import { hasWordVector, wordSimilarity } from '../word-vectors.js';
import { isVerb } from '../wordnet.js';
import { contentWords } from './policy-act.js';
import { stemEq } from './policy-explore.js';
import { fieldScore, formFields, formValues, optionScore, RESULT, SUBMIT_WORDS, type FormValue } from './policy-form.js';
import { SUCCESS } from './policy-intent.js';
import { affirmative, wrappedLines, APP_RESULTS, dialogAnswer, confirmationOpen, screenSig, isHeader, looksLikeLauncher, matchScore, normText, pointIn, sameDate, tabRow } from './policy-screen.js';
import { instructionEntities, namesTheApp, requestCore } from './intent.js';

export interface SearchInput {
  instruction: string;
  history: readonly string[];
  lines: OcrLine[];
  screen: { width: number; height: number };
  temperature: number;
  random: () => number;
  /** − N + steppers read off the pixels (policy-vision.ts). */
  steppers?: readonly Stepper[];
  /** Rows of rating stars read off the pixels (policy-vision.ts). */
  starRows?: readonly StarRow[];
}

export interface SearchDecision {
  thought: string;
  conclusion: string;
  action: MobileAction;
  /** How sure the search is of this step: a line's relevance score, 3 for a value's option or field, 0 for a scroll. */
  strength?: number;
}

/** A search step's tag: `[search N: kind detail #sig]`. */
const TAG = /\[search (\d+): ([a-z]+)(?: ([^\]#]*?))?(?: #([0-9a-z]+))?\]\s*$/;

/** The search has begun in this episode. */
export const searching = (history: readonly string[]): boolean => history.some((c) => TAG.test(c));

/** Words that commit what a page set up (generic English). */
const COMMIT = new Set([...SUBMIT_WORDS, 'book', 'reserve', 'schedule', 'place', 'update', 'change', 'set', 'check', 'select', 'choose', 'buy', 'order', 'register', 'join', 'sign', 'finish', 'complete']);
/** Words of controls that undo or leave (never tapped unless the request asks for that). */
const LEAVE = /^(?:cancel|delete|remove|discard|close|back|log ?out|sign ?out|not now|no|dismiss|skip|clear|reset|undo|withdraw|retract|unsubscribe|deactivate)\b/i;
const WHERE = new Set(['destination', 'city', 'where', 'location', 'place', 'address', 'airport', 'station', 'venue', 'branch', 'store', 'origin', 'departure', 'arrival']);
/** A short code of digits and a letter: a seat, a gate, a room ("14C", "B12"). */
const CODE = /(?<![\w-])(?:\d{1,3}[A-Z]|[A-Z]\d{1,3})(?![\w-])/g;
const PLACEHOLDER = /^(?:enter|type|add|write|choose|select|pick|e\.?g\.?|[£$€]?\s?0+(?:[.,]0+)?$)/i;
const GREETING = /^(?:hi|hello|hey|welcome|good (?:morning|afternoon|evening))\b/i;
const REMOVAL = /^(?:cancel|delete|remove|drop|unbook|clear|unsubscribe|end|stop|close|withdraw|retract|pull(?!\s+up))\b/i;
/** A control drawn with a star, heart or bookmark glyph first: it bookmarks the thing, it commits nothing. */
const BOOKMARK = /^[☆★♡♥❤🔖]/u;
/** A request to keep, mark or like something: the one kind a bookmark's toggle carries out. */
const KEEP_ASKED = /\b(?:save|bookmark|favou?rite|like|star|shortlist|keep|follow|heart)\b/i;


interface SearchState {
  steps: number;
  /** `text@sig` of every line tapped by the search. */
  tapped: Set<string>;
  /** Texts tapped, chosen or typed anywhere in the episode (the planner's too). */
  used: string[];
  /** Scrolls since the last tap or back, and the signature each started from. */
  scrolls: number;
  scrollSigs: string[];
  backs: number;
  /** Tabs of the app's tab bar the search opened (normalised). */
  tabs: string[];
  /** The committing button the search tapped last, if its last step was one. */
  lastCommitText?: string;
  /** Where the field the last value was typed into sits (its y), -1 unknown. */
  typedAt?: number;
  /** Texts the search tapped since a value was last entered (chosen, typed, a grid cell). */
  recent: string[];
  /** A field tapped for a value, waiting for it to be typed (value, screen signature). */
  field?: { value: string; sig: string; lines: number; y: number };
  lastKind?: string;
  /** The last search step that was no scroll. */
  lastMove?: string;
  /** Texts typed anywhere in the episode. */
  typed?: string[];
  lastCommit: boolean;
}

function readState(history: readonly string[]): SearchState {
  const s: SearchState = { steps: 0, tapped: new Set(), used: [], scrolls: 0, scrollSigs: [], backs: 0, tabs: [], recent: [], lastCommit: false };
  const typed: string[] = [];
  for (const c of history) {
    for (const m of c.matchAll(/(?:Tapped|Chose|Typed|Opened)(?: the field)? "([^"]+)"(?: of "([^"]+)")?/g)) s.used.push(...[m[1]!, m[2]].filter((x): x is string => !!x));
    for (const m of c.matchAll(/Typed "([^"]+)"/g)) typed.push(m[1]!);
    const m = TAG.exec(c);
    if (!m) continue;
    s.steps = Math.max(s.steps, Number(m[1]));
    const [kind, detail, sig] = [m[2]!, m[3] ?? '', m[4] ?? ''];
    // (A way left — another tab, Back, the app reopened — takes back what was opened on it: the hotel tapped on the
    // Explore tab may be the stay to open on the Trips tab. What was typed stays typed.)
    if (kind === 'tab' || kind === 'back' || kind === 'reopen') s.used = s.used.filter((u) => typed.includes(u));
    s.lastKind = kind;
    if (kind !== 'scroll') s.lastMove = kind;
    const prevField = s.field;
    s.field = undefined;
    s.lastCommit = false;
    if (kind === 'tap' || kind === 'option' || kind === 'commit' || kind === 'confirm') {
      const t = /Tapped "([^"]+)"|Chose "([^"]+)"/.exec(c);
      if (t) s.tapped.add(`${normText(t[1] ?? t[2]!)}@${sig}`);
      if (t && kind === 'option') {
        s.recent = [];
        if (detail.trim()) s.used.push(detail.trim());
      }
      else if (t) s.recent.push(normText(t[1] ?? t[2]!));
      s.scrolls = 0;
      s.scrollSigs = [];
      s.lastCommit = kind === 'commit' || kind === 'confirm';
      s.lastCommitText = kind === 'commit' && t ? (t[1] ?? t[2]) : undefined;
    } else if (kind === 'tab') {
      s.tabs.push(detail.trim());
      s.scrolls = 0;
      s.scrollSigs = [];
    } else if (kind === 'grid') {
      s.tapped.add(`grid@${sig}`);
      s.recent = [];
      s.scrolls = 0;
      s.scrollSigs = [];
    } else if (kind === 'field') {
      const n = / ~(\d+)(?: @(\d+))?$/.exec(detail);
      s.field = { value: detail.replace(/ ~\d+(?: @\d+)?$/, ''), sig, lines: n ? Number(n[1]) : -1, y: n?.[2] ? Number(n[2]) : -1 };
      const t = /Tapped the field "([^"]+)"/.exec(c);
      if (t) s.tapped.add(`${normText(t[1]!)}@${sig}`);
    } else if (kind === 'scroll') {
      s.scrolls++;
      s.scrollSigs.push(sig);
    } else if (kind === 'back') {
      s.backs++;
      s.scrolls = 0;
      s.scrollSigs = [];
    } else if (kind === 'typed') {
      s.scrolls = 0;
      s.recent = [];
      s.typedAt = prevField?.y ?? -1;
    }
  }
  s.typed = typed;
  return s;
}

const words = (t: string): string[] => t.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `text` says `name` as whole words (case-insensitive). */
const says = (text: string, name: string): boolean => new RegExp(`(?:^|[^\\p{L}\\p{N}])${escape(name.trim())}(?![\\p{L}\\p{N}])`, 'iu').test(text);

/** The names and values a request carries (not the app's name): what must show where the outcome lives. */
/** A box's placeholder naming the kind of thing it takes, a money box's after its currency sign: "Item name", "$ Estimated cost". */
const KIND_PLACEHOLDER = /^(?:[£$€]\s*)?(?:[A-Za-z]+\s+){0,2}(?:name|cost|value|amount|number|price|title|description|address|email|phone|code)$/i;

/** A means said in one plain word after "by" or "via" ("by post", "via email"): never a pronoun, a determiner or a number. */
const MEANS = /\b(?:by|via)\s+(?!(?:the|a|an|my|your|our|their|his|her|its|me|you|us|them|him|it|then|now|far|hand|myself|yourself|the way)\b)([a-z]{3,})\b(?=\s*(?:[.,;!?]|$|\s+(?:and|through|in|on|from|to|with|please|instead)\b))/gi;

function requestNames(instruction: string, core: string, app: string | undefined): string[] {
  const out: string[] = [];
  // (A short code of digits and a letter — a seat, a gate, a room: "14C", "B12" — is a name too.)
  // (And a day of the month said alone, "the 21st": the day to choose.)
  const codes = [...(instruction.match(CODE) ?? []), ...[...instruction.matchAll(/\bthe\s+(\d{1,2}(?:st|nd|rd|th))\b/gi)].map((m) => m[1]!)];
  const context = instruction === core ? [] : instructionEntities(instruction).filter((e) => !/^(?:I|I've|I'm|We|We've|My|The|It|This|That|Can|Could|Please)$/i.test(e));
  for (const e of [...instructionEntities(core), ...tidyValues(core, formValues(core)).map((v) => v.value), ...codes, ...context]) {
    let t = e.trim();
    // (A capitalised verb opening a sentence, before a determiner or the app — "Send the Certificate", "Ask Brellow" —
    // is the request's verb, not part of the name: the name is what follows.)
    const led = /^(\p{Lu}[a-z]+)\s+(?:(the|a|an|my|our|your)\s+)?(\S.*)$/u.exec(t);
    if (led && isVerb(led[1]!.toLowerCase()) && new RegExp(`(?:^|[.!?:]\\s+)${escape(led[1]!)}\\b`).test(`${core} ${instruction}`) && (led[2] || (app ? normText(led[3]!) === normText(app) : namesTheApp(instruction, led[3]!)))) t = led[3]!;
    // (The app is known by its label: "on the Lisbon stay" names no app. A name led by the request's verb — "Put
    // Priya", capitalised at the sentence's start — is the name without it.)
    // (Nor a verb that opens a sentence, capitalised only for that: "Please check me in" → "Check me in".)
    if (!/\s/.test(t) && isVerb(t.toLowerCase()) && new RegExp(`(?:^|[.!?:]\\s+)${escape(t)}\\b`).test(core)) continue;
    // (A lone lowercase word — "for parking" — is no name; nor "I'm", "I'd".)
    if (/^[a-z]+$/.test(t) || /^I['’]/.test(t)) continue;
    if (t.length < 2 || (app ? normText(t) === normText(app) : namesTheApp(instruction, t)) || (words(t)[0] ?? '') === (words(core)[0] ?? '')) continue;
    if (!out.some((o) => normText(o) === normText(t))) out.push(t);
  }
  // (A day said with its weekday — "Friday, June 6" — is one name; and a name that is only a piece of another — "June",
  // "PM" of "9:00 PM", "BGN" of "BGN 4471" — is no name of its own.)
  for (const m of instruction.matchAll(WEEKDAY_DATE)) if (!out.some((o) => normText(o) === normText(m[0]))) out.push(m[0].trim());
  // (A seat or gate code stays a name of its own: "12C" is chosen on a grid whatever words surround it.)
  return out.filter((n) => /^(?:\d{1,3}[A-Z]|[A-Z]\d{1,3})$/.test(n) || !out.some((o) => o !== n && o.length > n.length && says(o, n)));
}

const WEEKDAY = '(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day';
const MONTH_DAY = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?';
/** A weekday with its date: "Friday, June 6", "Fri Jun 6". */
const WEEKDAY_DATE = new RegExp(`\\b${WEEKDAY},?\\s+${MONTH_DAY}\\b`, 'gi');

/**
 * The request's values as one would say them: a weekday and the date after it are one date ("Friday" + "June 6"); a
 * time ending a sentence is read without the full stop ("9:00 PM."); a short code in capitals followed by a number is
 * one code ("BGN" + "4471": a licence plate, a booking reference).
 */
export function tidyValues(instruction: string, values: readonly FormValue[]): FormValue[] {
  let out = values.map((v) => (v.kind === 'time' && /\d\s*[ap]m\.$/i.test(v.value) ? { ...v, value: v.value.slice(0, -1), input: v.input.replace(/\.$/, '') } : v));
  for (const m of instruction.matchAll(WEEKDAY_DATE)) {
    const parts = out.filter((v) => v.kind === 'date' && says(m[0], v.value));
    if (parts.length < 2) continue;
    const first = out.indexOf(parts[0]!);
    out = out.filter((v) => !parts.includes(v));
    out.splice(first, 0, { value: m[0].trim(), input: m[0].trim(), kind: 'date', cues: parts[0]!.cues });
  }
  for (const m of instruction.matchAll(/(?<![\w-])([A-Z]{2,4})[ -](\d{2,5})(?![\w-])/g)) {
    const letters = out.find((v) => v.value === m[1]);
    const digits = out.find((v) => v.value === m[2] || v.value === m[0]);
    if (!letters || !digits || digits.value === m[0]) continue;
    const at = out.indexOf(digits);
    out = out.filter((v) => v !== letters && v !== digits);
    out.splice(at, 0, { value: m[0], input: m[0], kind: 'name', cues: digits.cues });
  }
  return out;
}

/** How near in meaning a line's words are to the request's (best pair), 0 without vectors. */
function nearness(lineWords: readonly string[], request: readonly string[]): number {
  let best = 0;
  for (const a of lineWords) {
    if (a.length < 3 || !hasWordVector(a)) continue;
    for (const b of request) {
      const s = wordSimilarity(a, b);
      if (s !== undefined && s > best) best = s;
    }
  }
  return best;
}

/**
 * One step of the search. `app` is the label of the app the episode works in (to reopen it from the home screen).
 */
/** A line that asks for a choice or an entry the form still lacks ("Choose how much you need", "Please select a time"). */
const ASKS_CHOICE = /^(?:please\s+)?(?:choose|select|pick|enter)\b[^.?!]{0,40}[.!]?$/i;

export function searchStep(input: SearchInput, app: string | undefined): SearchDecision {
  const { instruction, history, lines, screen, temperature, random } = input;
  const st = readState(history);
  const k = st.steps + 1;
  const sig = screenSig(lines, screen);
  // A commit that left its page up with a line asking for a choice ("Choose how much you need"): what was chosen before
  // it was not taken (chosen on a page before, or not registered) — the page's choices are made again; typed text stays.
  if (st.lastCommit && st.lastCommitText && lines.some((l) => normText(l.text) === normText(st.lastCommitText!)) && lines.some((l) => !isHeader(l, screen) && ASKS_CHOICE.test(l.text.trim()))) {
    st.used = st.used.filter((u) => st.typed?.includes(u));
  }
  const tag = (kind: string, detail = '', at = sig): string => `[search ${k}: ${kind}${detail ? ` ${detail.replace(/[\]#]/g, '')}` : ''} #${at}]`;
  const click = (l: OcrLine, thought: string, conclusion: string, strength = 3): SearchDecision => ({ thought, conclusion, strength, action: { action: 'click', coordinate: pointIn(l, screen, temperature, random) } });
  const fail = (thought: string, conclusion: string): SearchDecision => ({ thought, conclusion: `${conclusion} [failed]`, action: { action: 'terminate', status: 'failure' } });
  const core = requestCore(instruction);
  const removal = REMOVAL.test(core.trim());
  const verb = words(core)[0] ?? '';

  // Back on the home screen (a Back too many): the app again.
  if (looksLikeLauncher(lines, screen)) {
    if (app && st.backs <= 3) return { thought: `Searching for the way to "${core}": this is the home screen; opening ${app} again.`, conclusion: `Re-opened the ${app} app. ${tag('reopen')}`, action: { action: 'open', text: app } };
    return fail(`Searching for the way to "${core}" led back to the home screen.`, 'Gave up: the search found no way to do it.');
  }

  // 1. A question the app asks: its affirmative answer.
  const q = affirmative(lines);
  // (Its yes tapped just now and the question still open: the dialog wants an answer first — "Why are you cancelling?"
  // over its reasons —; the request names none, so its first.)
  const yesJustTapped = q && (history[history.length - 1] ?? '').includes(`"${q.yes.text}"`);
  if (q && yesJustTapped) {
    const a = dialogAnswer(lines, q.yes, screen, (l) => st.tapped.has(`${normText(l.text)}@${sig}`));
    if (a) return click(a.answer, `The app still asks after "${q.yes.text}": it wants an answer to "${a.ask.text}" first, and the request names none; choosing "${a.answer.text}".`, `Chose "${a.answer.text}" to answer "${a.ask.text}". ${tag('answer')}`);
  }
  if (q && (!st.tapped.has(`${normText(q.yes.text)}@${sig}`) || st.lastKind === 'answer')) {
    return click(q.yes, `The app asks "${q.asked.text}"; answering with "${q.yes.text}".`, `Tapped "${q.yes.text}" to confirm. ${tag('confirm')}`);
  }

  // 2. A result line after a committing tap: done.
  const body = lines.filter((l) => !isHeader(l, screen));
  if (st.lastCommit && !confirmationOpen(lines)) {
    // (Never the label of a key–value row — "Paid so far   £3.40" is a running total, not a report — and, after an
    // "Add", a count of items in a cart or list is the report: "View cart · 1 item".)
    const keyOfRow = (l: OcrLine): boolean => body.some((o) => o !== l && o.box.x > l.box.x + l.box.w && sameRow(o, l, 12));
    const added = /^(?:add|put)\b/i.test(st.lastCommitText ?? '');
    const result = body.find((l) => {
      const t = l.text.trim();
      const n = t.split(/\s+/).length;
      if (n > 10 || keyOfRow(l) || st.used.some((u) => normText(u) === normText(t))) return false;
      return RESULT.test(t) || [...SUCCESS, ...APP_RESULTS].some((s) => normText(t).includes(normText(s))) || (added && /\b\d+\s+items?\b/i.test(t));
    });
    if (result) return { thought: `After that, the screen says "${result.text}": the request "${core}" is carried out.`, conclusion: `Task complete: the screen shows "${result.text}". ${tag('done')}`, action: { action: 'terminate', status: 'success' } };
  }

  const verbWord = (words(core)[0] ?? '').toLowerCase();
  // (The values and names of the whole request: a sentence of context may carry them — "the Gas meter … says 04867".)
  // (A number that ends a sentence — "it says 04867." — is read without the full stop.)
  const fromAll = formValues(instruction.replace(/(\d)\.(?=\s|$)/g, '$1 .')).filter((v) => !formValues(core).some((c) => normText(c.value) === normText(v.value)) && v.kind !== 'text' && v.kind !== 'name');
  // (Nor a "name" led by a verb: "Grab Seat" in "Could you grab it … seat".)
  // (A lone lowercase word the request gives as a purpose — "… my plate, for parking" — is no value to enter.)
  const values: FormValue[] = tidyValues(instruction, [...formValues(core), ...fromAll]).filter((v) => !(v.kind === 'text' && /^[a-z]+$/.test(v.value) && !instruction.includes(`"${v.value}"`))).filter((v) => !(v.kind === 'name' && isVerb((words(v.value)[0] ?? '').toLowerCase()))).filter((v) => !(app ? normText(v.value) === normText(app) : namesTheApp(instruction, v.value)) && (words(v.value)[0] ?? '') !== verbWord);
  const names = requestNames(instruction, core, app);
  // The request without its names, and its common words (a label or a step is said in them: "Lisbon Old Town" is a
  // thing, no label).
  const unnamed = names.reduce((t, nm) => t.replace(new RegExp(escape(nm), 'gi'), ' '), core);
  const common = contentWords(unnamed);
  // How often each text was tapped by the search since a value was last entered: a control tapped before rarely leads
  // somewhere new (a value entered since may make it do so: "Confirm seat" once the seat is chosen).
  const taps = new Map<string, number>();
  for (const t of st.recent) taps.set(t, (taps.get(t) ?? 0) + 1);
  // (A rating the request gives — "2 stars", "a 3-star review" — once set on a row of stars is in, with every value or
  // name that says it.)
  const rating = /\b([1-5])(?:[- ]|\s+)?stars?\b/i.exec(instruction);
  const rated = history.some((c) => /\[search \d+: stars /.test(c));
  // (A date chosen as its day's number on a calendar — "3" for "Tuesday, June 3" — is chosen too.)
  const usedValue = (v: string): boolean => (rated && /\d[- ]?stars?\b/i.test(v)) || st.used.some((u) => matchScore(u, v) >= 0.95 || says(u, v) || (isDateLike(v) && (sameDate(u, v) || (/^\d{1,2}$/.test(u.trim()) && Number(u) === Number(DATE_DAY.exec(v)?.[2] ?? -1)))));

  // 3. A field tapped for a value: type it (the screen kept its lines: the field has the focus).
  // (Unless the tap opened a picker — the screen gained or lost lines —: its options are chosen, never typed into.)
  const bodyCount = lines.filter((l) => !isHeader(l, screen)).length;
  if (st.lastKind === 'field' && st.field && (st.field.lines < 0 || Math.abs(bodyCount - st.field.lines) < 3)) {
    const v = values.find((x) => normText(x.value) === normText(st.field!.value));
    if (v && !usedValue(v.input)) return { thought: `The field for "${v.value}" has the focus: typing it.`, conclusion: `Typed "${v.input}" into the field. ${tag('typed', v.value)}`, action: { action: 'type', text: v.input } };
  }

  // 3b. A value just typed, now offered as a suggestion under its field: choose it.
  const justTyped = st.lastKind === 'typed' ? /Typed "([^"]+)"/.exec(history[history.length - 1] ?? '')?.[1] : undefined;
  if (justTyped) {
    // (Not the field itself, which now shows the text typed.)
    const inField = (l: OcrLine): boolean => (st.typedAt ?? -1) >= 0 && Math.abs(l.box.y + l.box.h / 2 - st.typedAt!) < 16;
    const sugg = body.filter((l) => !inField(l) && !st.tapped.has(`${normText(l.text)}@${sig}`) && (optionScore(l.text, justTyped) >= 0.95 || (says(l.text, justTyped) && l.text.trim().split(/\s+/).length <= 6))).sort((a, b) => b.box.y - a.box.y)[0];
    if (sugg) return click(sugg, `"${sugg.text}" is offered for what I typed; choosing it.`, `Chose "${sugg.text}". ${tag('option', justTyped)}`);
  }

  const tabs = tabRow(lines, screen);
  const triedHere = (l: OcrLine): boolean => st.tapped.has(`${normText(l.text)}@${sig}`);
  // The line the last search tap opened, shown again as the new page's title ("Copenhagen → Lisbon"): no button.
  const lastTapped = st.lastKind === 'tap' ? /Tapped "([^"]+)"/.exec(history[history.length - 1] ?? '')?.[1] : undefined;
  // An action in the page's top bar, at its right, that is the request's own verb ("Archive" over an open e-mail for
  // "Archive the email …"): a button like any other (the bar's title, at its left, never is).
  const barAction = (l: OcrLine): boolean => {
    const ws = words(l.text);
    return isHeader(l, screen) && l.box.x > screen.width * 0.45 && ws.length >= 1 && ws.length <= 3 && !/\d/.test(l.text) && verb.length > 2 && stemEq(ws[0]!.toLowerCase(), verb.toLowerCase());
  };
  const tappable = (l: OcrLine): boolean => {
    const t = l.text.trim();
    const n = t.split(/\s+/).length;
    return (
      (!isHeader(l, screen) || barAction(l)) &&
      n <= 8 &&
      !/\?\s*$/.test(t) &&
      // (A sentence that ends with its full stop informs: "Check-in is from 3:00 PM.")
      !(/[a-z)]\.\s*$/i.test(t) && n >= 3) &&
      !triedHere(l) &&
      (removal || !LEAVE.test(t)) &&
      // (A greeting names the user, it does nothing: "Hi Freya".)
      !GREETING.test(t) &&
      // (A hint that tells the user what to do — "Tap a free seat first" — is no control.)
      !/^(?:tap|click|press|swipe|scroll|drag)\b/i.test(t) &&
      !(lastTapped && matchScore(t, lastTapped) >= 0.9 && l.box.y < screen.height * 0.2) &&
      /[\p{L}\p{N}]/u.test(t)
    );
  };

  // (A page opened by the last tap is about the thing whose name heads it — the stay opened from its dates shows its
  // hotel as the title —: that name is reached, no step any more.)
  const lastTag = TAG.exec(history[history.length - 1] ?? '');
  const opened = !!lastTag && ['tap', 'option'].includes(lastTag[2]!) && lastTag[4] !== sig;
  // (So is the name of the row whose tap opened the view being filled in — a sheet's heading "Statement of account" over
  // its choices —, while only options and fields were entered since: it is reached, not a row to open again.)
  const filling = ((): string | undefined => {
    for (let i = history.length - 1; i >= 0; i--) {
      const m = TAG.exec(history[i]!);
      if (!m) return undefined;
      if (m[2] === 'tap') return /Tapped "([^"]+)"/.exec(history[i]!)?.[1];
      if (!['option', 'field', 'typed', 'stepper'].includes(m[2]!)) return undefined;
    }
    return undefined;
  })();
  const subject = [
    ...(opened ? names.filter((nm) => body.some((l) => l.box.y < screen.height * 0.2 && !tabs.includes(l) && says(l.text, nm))) : []),
    ...(filling && lastTag?.[2] !== 'tap' ? names.filter((nm) => says(filling, nm) && body.some((l) => !tabs.includes(l) && says(l.text, nm))) : []),
  ];

  // A list row's own button — "Select", "Book", "Choose" at its right, within the row's block of lines —: tapped
  // rather than the row's title, which often does nothing.
  const buttonOfRow = (row: OcrLine): OcrLine | undefined => {
    const block = body.filter((c) => c !== row && Math.abs(c.box.x - row.box.x) <= 16 && c.box.y > row.box.y && c.box.y < row.box.y + 90);
    const bottom = Math.max(row.box.y + row.box.h, ...block.map((c) => c.box.y + c.box.h));
    return body.find((b) => {
      if (b === row || !tappable(b) || tabs.includes(b) || b.box.x < row.box.x + row.box.w) return false;
      const ws = words(b.text);
      return ws.length >= 1 && ws.length <= 2 && !/\d/.test(b.text) && (COMMIT.has(ws[0]!) || ws[0] === 'view') && !REMOVAL.test(b.text) && b.box.y >= row.box.y - 8 && b.box.y + b.box.h <= bottom + 8;
    });
  };

  // 4. A rating on a row of stars: the n-th star.
  const starRow = (input.starRows ?? [])[0];
  if (rating && starRow && !rated && starRow.stars.length >= Number(rating[1])) {
    const [x, y] = starRow.stars[Number(rating[1]) - 1]!;
    return { thought: `A row of ${starRow.stars.length} rating stars: the request gives ${rating[1]}; tapping star ${rating[1]}.`, conclusion: `Tapped star ${rating[1]} of ${starRow.stars.length}. ${tag('stars', rating[1])}`, strength: 3, action: { action: 'click', coordinate: [x, y] } };
  }

  // 4a. A count set with a − N + stepper whose row says what it counts ("Nights  − 1 +" for "3 nights"): + or − until
  // it shows the count; a stepper that shows it already has the value in.
  const cy = (b: { y: number; h: number }): number => b.y + b.h / 2;
  const stepperFor = (v: FormValue): { st: Stepper; want: number } | undefined => {
    if (v.kind !== 'number' || !/^\d{1,2}$/.test(v.input)) return undefined;
    const cues = v.cues.map((c) => c.toLowerCase()).filter((c) => c.length >= 3);
    const st = (input.steppers ?? []).find((x) => x.value !== undefined && body.some((l) => l.box.x + l.box.w < x.minus.box.x && Math.abs(cy(l.box) - cy(x.minus.box)) < 24 && words(l.text).some((w) => cues.some((c) => stemEq(c, w)))));
    return st ? { st, want: Number(v.input) } : undefined;
  };
  const stepped = values.filter((v) => { const f = stepperFor(v); return f !== undefined && f.st.value === f.want; });
  for (const v of values.filter((x) => !usedValue(x.input) && !stepped.includes(x))) {
    const f = stepperFor(v);
    if (!f) continue;
    const g = f.st.value! < f.want ? f.st.plus : f.st.minus;
    const x = Math.round(g.box.x + g.box.w / 2);
    const y = Math.round(g.box.y + g.box.h / 2);
    return { thought: `The stepper for "${v.value}" shows ${f.st.value}; tapping "${g.text}" towards ${f.want}.`, conclusion: `Tapped "${g.text}" on the stepper (${f.st.value} → ${f.want}). ${tag('stepper', v.value)}`, strength: 3, action: { action: 'click', coordinate: [x, y] } };
  }

  // 4b. A value of the request offered as an option; a field that takes one not yet entered.
  // (Nor a date the page shows at its head — the stay's dates over its check-in form —: the page is that date's.)
  const headDate = (v: FormValue): boolean => v.kind === 'date' && body.some((l) => l.box.y < screen.height * 0.2 && !tabs.includes(l) && sameDate(l.text, v.value));
  const open = values.filter((v) => !usedValue(v.input) && !usedValue(v.value) && !stepped.includes(v) && !headDate(v) && !subject.some((nm) => normText(nm) === normText(v.value)));
  // (A bare count — "3" — is that value's option only beside a word that says what it counts: "3 nights" is no "3" of
  // a calendar or a badge.)
  const countedHere = (l: OcrLine, v: FormValue): boolean => {
    if (v.kind !== 'number' || !/^\d{1,2}$/.test(l.text.trim())) return true;
    const cues = v.cues.map((c) => c.toLowerCase()).filter((c) => c.length >= 3);
    return body.some((o) => o !== l && sameRow(o, l, 40) && words(o.text).some((w) => cues.some((c) => stemEq(c, w))));
  };
  // (A calendar: a month's heading — "June 2025" — over its days' bare numbers; the request's day is the number under it.)
  const calendarDay = (l: OcrLine, date: string): boolean => {
    const m = DATE_DAY.exec(date);
    if (!m || l.text.trim() !== String(Number(m[2]))) return false;
    const heads = body.filter((h) => h.box.y < l.box.y && /^(?:january|february|march|april|may|june|july|august|september|october|november|december)(?:\s+\d{4})?$/i.test(h.text.trim()));
    const head = heads.sort((a, b) => b.box.y - a.box.y)[0];
    return !!head && head.text.trim().toLowerCase().startsWith(m[1]!.toLowerCase());
  };
  // (An option's label wrapped onto two lines is read whole: "Window" over "replacement".)
  const wrapped = wrappedLines(body);
  for (const v of open) {
    const opt = [...body, ...wrapped]
      .filter((l) => tappable(l) && !tabs.includes(l) && (optionScore(l.text, v.input) >= 0.95 || (v.kind === 'date' && (sameDate(l.text, v.value) || calendarDay(l, v.value)))) && countedHere(l, v))
      .sort((a, b) => b.box.y - a.box.y)[0];
    const own = opt && v.kind === 'name' ? buttonOfRow(opt) : undefined;
    // (Sure enough to override the plan only for a distinctive value — several words or a number: "Casa Solana", "9:00 PM" —,
    // never a single common word, "Standard".)
    const distinct = /\d/.test(v.value) || v.value.trim().split(/\s+/).length >= 2 ? 3 : 1;
    if (opt && own) return click(own, `"${opt.text}" is offered here: it is "${v.value}" of the request; tapping its "${own.text}".`, `Chose "${opt.text}" with its "${own.text}". ${tag('option', v.value)}`, distinct);
    if (opt) return click(opt, `"${opt.text}" is offered here: it is "${v.value}" of the request; choosing it.`, `Chose "${opt.text}". ${tag('option', v.value)}`, distinct);
  }
  // (A means the request says in a plain word — "by post", "via text" — is an option of that one word: "Post".)
  for (const means of [...core.matchAll(MEANS)].map((m) => m[1]!)) {
    if (usedValue(means)) continue;
    const opt = body.filter((l) => tappable(l) && !tabs.includes(l) && normText(l.text) === normText(means)).sort((a, b) => b.box.y - a.box.y)[0];
    if (opt) return click(opt, `"${opt.text}" is offered here: the request asks for it "by ${means}"; choosing it.`, `Chose "${opt.text}". ${tag('option', means)}`, 1);
  }
  if (open.length) {
    // (A field is one whose label names the value's kind or cue — "Amount" for £45, "Reading" for 01402 —, never a
    // section heading in capitals or a greeting: a value is not typed into whatever line heads another.)
    // (Nor a line that says one of the request's names: that is a thing to open, no field.)
    const fields = formFields(lines, screen).filter((f) => !names.some((nm) => says(f.label.text, nm)) && !triedHere(f.label) && !(f.input && triedHere(f.input)) && f.label.text !== f.label.text.toUpperCase() && !GREETING.test(f.label.text.trim()) && !COMMIT.has(words(f.label.text)[0] ?? '') && !/^search\b/i.test(f.label.text.trim()));
    // (Each value to the field that fits it best — its kind or cue named by the label, a place to a "where" field, a
    // word of the request in the label —, the best pair first.)
    const fit = (v: FormValue, f: (typeof fields)[number]): number => {
      if (f.input && matchScore(f.input.text, v.input) >= 0.95) return 0;
      // (Not a place of a thing the request speaks of as known — "the flight to Lisbon" —: that thing exists already.)
      const where = v.kind === 'name' && v.cues.some((c) => /^(?:in|to|at|from)$/.test(c)) && !v.cues.includes('the') && contentWords(`${f.label.text} ${f.input?.text ?? ''}`).some((w) => WHERE.has(w));
      const asked = contentWords(f.label.text).some((w) => common.some((x) => stemEq(x, w)));
      // (A cue that is a word of one of the request's names — "Priya" near "room 412" — names no field.)
      const cues = v.cues.filter((c) => !names.some((nm) => normText(nm).split(' ').includes(normText(c))));
      // (What the label itself says counts: a list row's second line — "Mon, Jun 16 · 1 passenger", "France" — makes no
      // field of it. A date or time goes only where the label asks for one: they are picked, rarely typed.)
      // (A question's box says what it asks for: "How much will it cost?" over "$ Estimated cost".)
      const own = fieldScore({ ...v, cues }, { label: f.label, words: /\?\s*$/.test(f.label.text) ? f.words : words(f.label.text) });
      if ((v.kind === 'date' || v.kind === 'time') && own < 0.8) return 0;
      // (A label that only shares a word of the request — "April bill" for a payment towards a bill — is a field when
      // what is under it reads as an input's placeholder: "Enter …", "e.g. …", "£0.00", "Choose …".)
      const placeholder = !f.input || PLACEHOLDER.test(f.input.text.trim()) || KIND_PLACEHOLDER.test(f.input.text.trim());
      // (A question heading a page — "Where to next, Maya?" — or a line that says something — "Online check-in is open"
      // — is a field only over an input that shows its placeholder.)
      const says = /\?\s*$/.test(f.label.text.trim()) || /\b(?:is|are|was|were|has|have)\b/i.test(f.label.text);
      // (A box's placeholder may also name the kind of thing it takes — "Item name", "$ Estimated cost".)
      if (says && !(f.input && (PLACEHOLDER.test(f.input.text.trim()) || KIND_PLACEHOLDER.test(f.input.text.trim())))) return 0;
      return own + (where ? 1.5 : 0) + (asked && (own > 0 || (!!f.input && placeholder)) ? 1 : 0) + (own > 0 && f.input && placeholder ? 0.5 : 0);
    };
    // An input box with no label line of its own, only its placeholder ("£ 0.00" under a choice of amounts, "Enter your
    // meter reading"): an empty money box takes the amount; another placeholder the value whose kind or the request's
    // words it names.
    const bare = body
      .filter((l) => PLACEHOLDER.test(l.text.trim()) && l.text.trim().split(/\s+/).length <= 5 && !(l.text === l.text.toUpperCase() && /[A-Z]{2}/.test(l.text)) && !fields.some((f) => f.input === l || f.label === l) && !triedHere(l) && !tabs.includes(l))
      .map((l) => ({ label: l, input: l, words: words(l.text) }));
    const bareFit = (v: FormValue, f: (typeof bare)[number]): number => {
      if (v.kind === 'amount') return /^[£$€]?\s?0+[.,]0+$/.test(f.label.text.trim()) ? 2 : 0;
      const ws = contentWords(f.label.text);
      if ((v.kind === 'date' || v.kind === 'time') && fieldScore(v, f) < 0.8) return 0;
      return ws.some((w) => common.some((x) => stemEq(x, w))) || fieldScore(v, f) >= 0.8 ? 1.5 : 0;
    };
    const pairs = [...open.flatMap((v) => fields.map((f) => ({ v, f, s: fit(v, f) }))), ...open.flatMap((v) => bare.map((f) => ({ v, f, s: bareFit(v, f) })))]
      .filter((p) => p.s >= 1)
      .sort((a, b) => b.s - a.s || a.f.label.box.y - b.f.label.box.y);
    const best = pairs[0];
    if (best) {
      const { v, f } = best;
      // (A sentence under the label — "What it would cost to replace it new today." — describes the box; the label line is
      // the box's placeholder then, and is tapped.)
      const target = f.input && !(/[.!]$/.test(f.input.text.trim()) && f.input.text.trim().split(/\s+/).length > 5) ? f.input : f.label;
      return click(target, `The field "${f.label.text}" takes "${v.value}"; tapping it.`, `Tapped the field "${f.label.text}" for "${v.value}". ${tag('field', `${v.value} ~${bodyCount} @${Math.round(target.box.y + target.box.h / 2)}`)}`, 1);
    }
  }

  // 4c. A day of the month the request names alone ("the 21st"): the option that says that day ("21", "21st", "Day 21").
  for (const day of names.filter((nm) => /^\d{1,2}(?:st|nd|rd|th)$/i.test(nm) && !usedValue(nm))) {
    const n = day.replace(/\D/g, '');
    const opt = body.filter((l) => !st.tapped.has(`${normText(l.text)}@${sig}`) && new RegExp(`^(?:(?:day|the)\\s+)?${n}(?:st|nd|rd|th)?(?:\\s+of\\s+(?:the|each|every)\\s+month)?$`, 'i').test(l.text.trim())).sort((a, b) => a.box.y - b.box.y)[0];
    if (opt) return click(opt, `"${opt.text}" is the ${day} the request asks for; choosing it.`, `Chose "${opt.text}" (${day}). ${tag('option', day)}`);
  }

  // 4d. A code of a row number and a column letter ("17A", "B12": a seat, a locker) on a grid whose cells carry no text:
  // the cell where the row's number label and the column's letter header cross.
  if (!st.tapped.has(`grid@${sig}`)) {
    for (const code of names.filter((nm) => !usedValue(nm))) {
      const m = /^(\d{1,3})([A-Z])$/.exec(code) ?? /^([A-Z])(\d{1,3})$/.exec(code);
      if (!m) continue;
      const [row, col] = /\d/.test(m[1]!) ? [m[1]!, m[2]!] : [m[2]!, m[1]!];
      const rowLabel = body.find((l) => l.text.trim() === row);
      const colHead = body.filter((l) => l.text.trim() === col).sort((a, b) => a.box.y - b.box.y)[0];
      if (rowLabel && colHead && colHead.box.y < rowLabel.box.y) {
        const x = Math.round(colHead.box.x + colHead.box.w / 2);
        const y = Math.round(rowLabel.box.y + rowLabel.box.h / 2);
        return { thought: `"${code}" is the cell of row ${row} and column ${col} on this grid; tapping it.`, conclusion: `Chose "${code}" on the grid. ${tag('grid', code)}`, action: { action: 'click', coordinate: [x, y] } };
      }
    }
  }

  // 5. The untried line that says most of the request.
  // (The request's own words, its names taken out: a name counts only whole — "Linden Park Inn" shares a word with "The
  // Linden House" and is another hotel, a near-duplicate, not a step towards it.)
  // (A compound of the request — "check-in" — is also said in its parts: a "Check in online" button.)
  const reqWords = [...new Set(contentWords(unnamed).filter((w) => !app || !stemEq(w, normText(app))).flatMap((w) => (w.includes('-') ? [w, ...w.split('-').filter((x) => x.length >= 3)] : [w])))];
  const lineWords = (t: string): string[] => contentWords(t).flatMap((w) => (w.includes('-') && !reqWords.some((x) => stemEq(x, w)) ? w.split('-').filter((x) => x.length >= 3) : [w]));
  const openNames = names.filter((nm) => !usedValue(nm) && !subject.includes(nm) && !stepped.some((v) => normText(v.value) === normText(nm)));
  // (Every value entered, and no untried line here names one of the request's names: time to commit.)
  // (Nor while a code or number of the request — a seat "17A", a meter reading — is still to be chosen somewhere.)
  // (A date the page already shows — the stay's dates heading its check-in form — is no value still to choose.)
  const shownDate = (nm: string): boolean => isDateLike(nm) && body.some((l) => sameDate(l.text, nm));
  const allIn = open.length === 0 && !openNames.some((nm) => /\d/.test(nm) && !shownDate(nm)) && !body.some((l) => tappable(l) && openNames.some((nm) => says(l.text, nm)));
  // The values still open are asked on a later page of the flow: this page, seen whole (short, or scrolled until it stopped
  // moving), offers none of them and has no field — its action button ("Request a refill") leads on to them, no
  // premature commit.
  // (The page's end: its lowest line above the tab bar's band.)
  const lowestHere = Math.max(0, ...body.filter((l) => !tabs.includes(l) && l.box.y < screen.height * 0.9).map((l) => l.box.y + l.box.h));
  const seenWhole = lowestHere < screen.height * 0.8 || st.scrollSigs.includes(sig);
  const askedLater =
    !allIn &&
    open.length > 0 &&
    seenWhole &&
    !formFields(lines, screen).some((f) => open.some((v) => fieldScore(v, f) >= 1)) &&
    !body.some((l) => open.some((v) => optionScore(l.text, v.value) >= 0.95 || says(l.text, v.value)));
  // (The label of a field that shows a value already entered — "Car licence plate" over "KZE 7812" — is done with.)
  const filled = new Set(formFields(lines, screen).filter((f) => f.input && usedValue(f.input.text.trim())).map((f) => f.label));
  // (A list row's card: the lines stacked under and over it at its left edge — "Copenhagen → Lisbon" over "Apr 11 ·
  // Freya" — say what the row is about together.)
  const card = (l: OcrLine): OcrLine[] => {
    const out = [l];
    let grown = true;
    while (grown) {
      grown = false;
      for (const x of body) {
        if (out.includes(x) || Math.abs(x.box.x - l.box.x) > 16) continue;
        if (out.some((o) => Math.max(o.box.y, x.box.y) - Math.min(o.box.y + o.box.h, x.box.y + x.box.h) <= 14)) {
          out.push(x);
          grown = true;
        }
      }
    }
    return out.slice(1, 4);
  };
  const coreWords = contentWords(core);
  const reqDigits: string[] = [...(core.match(/\d{3,}/g) ?? [])];
  const reqDates = names.filter((nm) => isDateLike(nm) && DAY_IN_LINE.test(nm));
  const reqCodes: string[] = [...(core.match(CODE) ?? [])];
  const scored = [...body, ...lines.filter(barAction)]
    .filter(tappable)
    .map((l) => {
      const t = l.text.trim();
      const lw = lineWords(t);
      const hits = new Set(lw.filter((w) => reqWords.some((x) => stemEq(x, w)))).size;
      const own = openNames.filter((nm) => says(t, nm));
      // (A name wrapped over two lines of the card — "…, Apex" / "ApplianceService" — is read from the card's lines joined.)
      const cardText = normText(card(l).map((c) => c.text).join(' '));
      const named = own.length + 0.75 * openNames.filter((nm) => !own.includes(nm) && (card(l).some((c) => says(c.text, nm)) || (normText(nm).length >= 8 && cardText.includes(normText(nm))))).length;
      const usedNamed = names.filter((nm) => (usedValue(nm) || subject.includes(nm)) && says(t, nm)).length;
      const near = hits === 0 ? nearness(lw, reqWords) : 0;
      const first = words(t)[0] ?? '';
      // (A removal request commits nothing but a removal: "Confirm booking" is no way to cancel one.)
      const commitWord = removal ? REMOVAL.test(t) || /^yes\b/i.test(t) : COMMIT.has(first);
      // (A button that adds a thing the request never speaks of — "+ Add a driver", "+ Add a new card" for a request to
      // send a document or switch to a saved card — creates something else: no way to carry the request out.)
      const strayAdd = /^\+?\s*(?:add|new|create)\b/i.test(t) && !coreWords.some((w) => stemEq(w, first)) && contentWords(t).filter((w) => !/^(?:add|new|create)$/.test(w)).some((w) => !coreWords.some((x) => stemEq(x, w)));
      // (While the request's values are still to enter, a button that adds the kind of thing the request adds — "+ Add a
      // valuable" for "add my camera …" or "list it as a valuable" — is the way into its form, not a commit: it beats a
      // row that only shows one of the values, "Cameras · $2,700".)
      const made = contentWords(t).filter((w) => !/^(?:add|new|create)$/.test(w));
      const entry = !strayAdd && open.length > 0 && !allIn && /^\+?\s*(?:add|new|create)\b/i.test(t) && words(t).length <= 5 && (coreWords.some((w) => stemEq(w, first)) || (made.length > 0 && made.every((w) => coreWords.some((x) => stemEq(x, w)))));
      const commit = !strayAdd && !entry && words(t).length <= 4 && !/\d/.test(t) && (commitWord || (verb.length > 2 && stemEq(first, verb)));
      if (removal && COMMIT.has(first) && !commit && /^(?:book|reserve|buy|order|place|pay|confirm|continue|next|submit|send)\b/i.test(t)) return { l, score: -1, commit };
      // (A committing button tapped already since the last value was entered is not tapped again: "Add" twice adds two.)
      if (commit && (taps.get(normText(t)) ?? 0) > 0) return { l, score: -1, commit };
      // (A label led by a star or a heart — "☆ Save job", "♡ Like" — is a bookmark's toggle: only for a request to keep one.)
      if (BOOKMARK.test(t) && !KEEP_ASKED.test(core)) return { l, score: -1, commit };
      // (A line with a number the request does not say, of the length of one it does — "Visa ending 4471" for 4417 —
      // is a near-duplicate of the thing asked for, not it.)
      // (So is a row of another day than the request's — "Tue, Jun 3 - Thu, Jun 5" for a stay on Friday, June 6.)
      const otherDay = reqDates.length > 0 && [l, ...card(l)].some((c) => DAY_IN_LINE.test(c.text) && !reqDates.some((d) => sameDate(c.text, d)));
      const clash =
        otherDay ||
        (t.match(/\d{3,}/g) ?? []).some((d) => !reqDigits.includes(d) && reqDigits.some((r) => r.length === d.length)) ||
        (reqCodes.length > 0 && (t.match(CODE) ?? []).some((c) => !reqCodes.includes(c)));
      // (The value of a key–value row — "Check-in   Friday, June 6, from 3:00 PM" — is read, not tapped.)
      // (And the key of such a row — "Check-in   from 3:00 PM" — is a label, unless it names the thing asked for.)
      // (Or of a figure set under it — "Stays this year" over "13" —: a statistic, no control.)
      const statLabel = named === 0 && body.some((o) => o !== l && Math.abs(o.box.x - l.box.x) <= 16 && o.box.y > l.box.y && o.box.y - (l.box.y + l.box.h) < 12 && /^[\d$£€.,\s%]+$/.test(o.text.trim()));
      const keyOfRow = statLabel || named === 0 && l.box.x < screen.width * 0.2 && body.some((o) => o !== l && o.box.x > screen.width * 0.55 && /\d/.test(o.text) && sameRow(o, l, 12));
      const valueOfRow = l.box.x > screen.width * 0.35 && body.some((o) => o !== l && o.box.x + o.box.w < l.box.x && sameRow(o, l, 12) && !/\d/.test(o.text));
      // (A request that brings a text to write — a review's title, a message — looks for where one writes: "Write a
      // review", "Add a note", "Leave feedback".)
      const composer = !commit && words(t).length <= 4 && /^(?:write|add|leave|post|compose|new|create)\b/i.test(t) && open.some((v) => v.kind === 'text');
      const score = (composer ? 1 : 0) + (entry ? 2.5 : 0) + (clash || filled.has(l) ? -2 : 0) + (valueOfRow && !commit ? -1 : 0) + (keyOfRow && !commit ? -1 : 0) + 2 * named + 0.4 * usedNamed + hits + (near >= 0.6 ? 0.5 : 0) + (commit ? (allIn ? 1.5 : askedLater && hits > 0 && !keyOfRow ? 0 : -0.5) : 0) - (tabs.includes(l) ? 0.25 : 0) - (t.split(/\s+/).length > 5 ? 0.25 : 0) - (l.box.y < screen.height * 0.16 && !tabs.includes(l) ? 0.5 : 0) - (t === t.toUpperCase() && /[A-Z]{3}/.test(t) ? 0.5 : 0) - 0.75 * (taps.get(normText(t)) ?? 0);
      return { l, score, commit };
    })
    .filter((c) => c.score >= 0.75)
    .sort((a, b) => b.score - a.score || a.l.box.y - b.l.box.y);
  const best = scored[0];
  // (A list row whose own button — "Select", "Book", "Choose" — sits at its right, within its card: that button, not the
  // row's title, which often does nothing.)
  const rowButton = best && !best.commit ? buttonOfRow(best.l) : undefined;
  // (A line is sure enough to override the plan only when it says one of the request's names of several words.)
  const sureness = best ? (openNames.some((nm) => nm.trim().split(/\s+/).length >= 2 && ([best.l, ...card(best.l)].some((c) => says(c.text, nm)) || normText(card(best.l).map((c) => c.text).join(' ')).includes(normText(nm)))) ? best.score : Math.min(best.score, 1.5)) : 0;
  // (A page whose options the search chose here — "Exterior painting" on step 1 of 3 — goes on with its forward button
  // when no other line here names a value still to choose: the rest are asked on the next page.)
  const pickedHere = history.some((c) => {
    const m = TAG.exec(c);
    return !!m && m[2] === 'option' && m[4] === sig;
  });
  const forward = pickedHere && !(best && !best.commit && best.score >= 2)
    ? body.filter((l) => tappable(l) && !triedHere(l) && !tabs.includes(l) && /^(?:next|continue|review)\b/i.test(l.text.trim()) && words(l.text).length <= 3 && l.text !== l.text.toUpperCase()).sort((a, b) => b.box.y - a.box.y)[0]
    : undefined;
  if (forward && !body.some((l) => tappable(l) && (openNames.some((nm) => says(l.text, nm)) || open.some((v) => optionScore(l.text, v.value) >= 0.95)))) {
    return click(forward, `The page's choices for "${core}" are made here; going on with "${forward.text}".`, `Tapped "${forward.text}". ${tag('tap')}`, 1);
  }
  if (best && rowButton) {
    return click(rowButton, `Searching the app for the way to "${core}": "${best.l.text}" says most of it here (score ${best.score.toFixed(2)}); tapping its row's "${rowButton.text}".`, `Tapped "${rowButton.text}" of "${best.l.text}". ${tag('tap')}`, sureness);
  }
  if (best) {
    const kind = best.commit && allIn ? 'commit' : 'tap';
    return click(best.l, `Searching the app for the way to "${core}": "${best.l.text}" says most of it here (score ${best.score.toFixed(2)}); tapping it.`, `Tapped "${best.l.text}". ${tag(kind)}`, sureness);
  }

  // 6. Nothing relevant in view: scroll (until the page stops moving); the app's other tabs, nearest in meaning to the
  // request first; then Back (never from a page with the app's tab bar: that leaves the app); then give up.
  const stuck = st.scrollSigs.includes(sig);
  const lowest = Math.max(0, ...body.filter((l) => !tabs.includes(l)).map((l) => l.box.y + l.box.h));
  const shortPage = lowest < screen.height * 0.8;
  const untriedTabs = tabs.filter((t) => !st.tabs.includes(normText(t.text)) && !taps.has(normText(t.text)));
  // (A page's segmented control — "Upcoming (7) | Past" under its title —: its other segments before another tab or a
  // scroll; the leftmost is the one shown first.)
  const segments = segmentRow(body, screen).slice(1).filter((g) => !st.tabs.includes(normText(g.text)) && !triedHere(g));
  // (Tried before scrolling: a segmented control scrolls away with its page.)
  if (segments.length > 0) {
    const g = segments[0]!;
    return click(g, `Nothing on this part of the page says more of "${core}"; looking under its "${g.text}" segment.`, `Opened the "${g.text}" segment. ${tag('tab', normText(g.text))}`, 0);
  }
  // (A page the search opened — a hotel's rooms under its facts — is read further down before another tab is tried.)
  const drilled = st.lastMove === 'tap' || st.lastMove === 'option';
  if (untriedTabs.length > 0 && (st.scrolls >= (drilled ? 2 : 1) || stuck || shortPage)) {
    // (By the request word it is most distinctly near: nearer to it than the app's tabs are on average — "debit" picks
    // Billing, where "change" is near every tab.)
    const sim = (t: OcrLine, w: string): number => Math.max(0, ...contentWords(t.text).map((x) => wordSimilarity(x, w) ?? 0));
    const distinct = (t: OcrLine): number => Math.max(0, ...reqWords.map((w) => sim(t, w) - tabs.reduce((a, o) => a + sim(o, w), 0) / tabs.length));
    const tab = untriedTabs.map((t) => ({ t, s: distinct(t) })).sort((a, b) => b.s - a.s)[0]!.t;
    return click(tab, `Nothing on this tab says more of "${core}"; looking in the "${tab.text}" tab.`, `Opened the "${tab.text}" tab. ${tag('tab', normText(tab.text))}`, 0);
  }
  if (st.scrolls < (tabs.length && !drilled ? 1 : 2) && !stuck && !shortPage) {
    const x = Math.round(screen.width / 2);
    return {
      thought: `Nothing on this screen says more of "${core}"; scrolling for more of the page.`,
      conclusion: `Swiped up to look for more of the page. ${tag('scroll')}`,
      action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.75)], coordinate2: [x, Math.round(screen.height * 0.3)] },
    };
  }
  if (st.backs < 3 && tabs.length === 0) return { thought: `This page holds nothing more for "${core}"; going back.`, conclusion: `Pressed Back. ${tag('back')}`, action: { action: 'system_button', button: 'Back' } };
  return fail(`Searched the app for the way to "${core}" without finding it.`, 'Gave up: the search found no way to do it.');
}

/** A month and its day in a request's date ("June 3", "Tuesday, June 3"): the month's first letters and the day. */
const DATE_DAY = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})\b/i;

/** A line that says a day of a month ("Jun 3", "3 June"). */
const DAY_IN_LINE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
/** A segmented control near a page's top: 2–4 short labels (a count in brackets allowed) side by side on one row. */
export function segmentRow(body: readonly OcrLine[], screen: { width: number; height: number }): OcrLine[] {
  const seg = body.filter((l) => l.box.y < screen.height * 0.3 && /^[A-Z][A-Za-z'-]+(?: [A-Za-z'-]+)?(?: \(\d+\))?$/.test(l.text.trim()));
  for (const l of seg) {
    const row = seg.filter((o) => sameRow(o, l, 8)).sort((a, b) => a.box.x - b.box.x);
    // (Not a key–value row — "Room … King Room" from the left margin to the right edge.)
    if (row.length >= 2 && row.length <= 4 && row[0]!.box.x >= 24 && row[row.length - 1]!.box.x + row[row.length - 1]!.box.w < screen.width * 0.95 && row[row.length - 1]!.box.x - row[0]!.box.x > screen.width * 0.3 && !body.some((o) => !row.includes(o) && sameRow(o, l, 8))) return row;
  }
  return [];
}

/** Two lines on one row: their middles within `tolerance` pixels. */
const sameRow = (a: OcrLine, b: OcrLine, tolerance: number): boolean => Math.abs(a.box.y + a.box.h / 2 - (b.box.y + b.box.h / 2)) < tolerance;

const isDateLike = (v: string): boolean => /\d/.test(v) && /[a-z]{3}/i.test(v);

/**
 * A field the planner chose for a value by elimination only — its label names neither the value's kind nor its cue
 * nor any word of the request ("Hi Daniel" for £45.00, a heading in capitals for a city) — is no field for it: the
 * plan has lost its way on this screen.
 */
export function implausibleField(conclusion: string, instruction: string, lines: readonly OcrLine[], screen: { width: number; height: number }): boolean {
  const m = /Tapped the field "([^"]+)" for "([^"]+)"/.exec(conclusion);
  if (!m) return false;
  const [label, value] = [m[1]!, m[2]!];
  if (label === label.toUpperCase() && /[A-Z]{2}/.test(label)) return true;
  const core = requestCore(instruction);
  if (contentWords(label).some((w) => contentWords(core).some((x) => stemEq(x, w)))) return false;
  const v = formValues(core).find((x) => normText(x.value) === normText(value) || normText(x.input) === normText(value));
  const f = formFields(lines, screen).find((x) => normText(x.label.text) === normText(label));
  if (!v || !f) return false;
  return fieldScore(v, f) < 1;
}
