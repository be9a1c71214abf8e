import sharp from 'sharp';
import { parsePolicyPrompt } from '../../../agents/gui-owl.js';
import type { MobileAction } from '../../../domain/action.js';
import { RoleInputError } from '../errors.js';
import { isVerb } from '../wordnet.js';
import type { OcrLine, RoleHandler } from '../types.js';
import { noteSource, understandAppTask, type Goal } from './policy-tasks.js';
import { instructionEntities, isDateEntity, namesTheApp, requestCore } from './intent.js';
import { fieldStep, submitButton, understandForm } from './policy-form.js';
import { understandDayChoice, understandEdit, understandTimeWindow } from './policy-edit.js';
import { appGoal, namedAppIn, contentWords, dayLabels, foldContext, foldSharedCost, foldSharedEvent, foldStatement, mergeDetails, plainImperative, understandSettings, understandAction, understandFeature } from './policy-act.js';
import { exploreStep, labelParts, launcherApps, readExplore, stemEq, type ExploreCue } from './policy-explore.js';
import { detectStarRows, detectSwitches, detectSymbols, findSteppers, type StarRow, type Stepper, type SwitchBox } from './policy-vision.js';
import { SYMBOL_TAP, guidanceGoals } from './policy-guidance.js';
import { wordSimilarity } from '../word-vectors.js';
import { cap1, IMPERATIVES } from './text-match.js';
import { recallNotDone } from './policy-memory-use.js';
import { implausibleField, searchStep, searching } from './policy-search.js';
import { ADD_BUTTONS, SUCCESS, parseGoals, planGoals, readNotes, understandTask, type TaskSpec } from './policy-intent.js';
import { affirmative, rowStatus, wrappedLines, FRAGMENT, dialogAnswer, screenSig, searchBox, searchButtonOf, APP_RESULTS, FIELD_WORDS, fieldOf, MONTH_HEADING, candidates, cartCount, goalReached, headerLines, isHeader, labelledFields, launcherLabel, looksLikeLauncher, matchScore, normText, numberPoint, onPageOf, labelledSwitch, confirmationOpen, stemWords, pick, pointIn, prefixCandidates, readValue, rowCandidates, sameDate, satisfiedOnScreen, stepperOf, switchOf, tabRow, tapTargets, tokenCandidates, topicLabel, viaLine, type Candidate } from './policy-screen.js';

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
  /** The focused field's old text was deleted (a `replace` type goal). */
  cleared: boolean;
  typed: boolean;
  opened: boolean;
  scrolls: number;
  backs: number;
  reopened: number;
  via: number;
  /** How many tabs had been opened when a section was last opened for the goal (one section per tab). */
  viaTab: number;
  top: boolean;
  pages: number;
  steps: number;
  more: number;
  /** Tabs of the app's tab bar looked through for this goal. */
  tabs: string[];
  /** Swipes back up to a tab row that scrolled away (since the last tab opened). */
  ups: number;
  /** Request values chosen on the way to an action's button (`pick X`), and forward buttons tapped (`forward N`). */
  picks: string[];
  forwards: number;
  /** Tabs on which the thing was opened again to look for the action's button there (`thing TAB`). */
  things: string[];
  /** The screen signature the last scroll of this goal started from (`scroll N #sig`). */
  scrollSig?: string;
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
  const p: SubState = { added: 0, focused: false, cleared: false, typed: false, opened: false, scrolls: 0, backs: 0, reopened: 0, via: 0, viaTab: 0, top: false, pages: 0, steps: 0, more: 0, tabs: [], ups: 0, picks: [], forwards: 0, things: [] };
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
    } else if (state === 'cleared') {
      p.focused = true;
      p.cleared = true;
    } else if (state === 'typed') p.typed = true;
    else if (state === 'opened item') p.opened = true;
    else if ((s = /^scroll (\d+)(?: #([0-9a-z]+))?/.exec(state))) {
      p.scrolls = Number(s[1]);
      p.scrollSig = s[2];
    } else if ((s = /^pick (.+)$/.exec(state))) p.picks.push(s[1]!);
    else if ((s = /^forward (\d+)/.exec(state))) p.forwards = Number(s[1]);
    else if ((s = /^thing (.+)$/.exec(state))) p.things.push(s[1]!);
    else if ((s = /^back (\d+)/.exec(state))) {
      p.backs = Number(s[1]);
      p.scrolls = 0;
    } else if ((s = /^via (\d+)/.exec(state))) {
      p.via = Number(s[1]);
      p.viaTab = p.tabs.length;
      p.scrolls = 0;
    } else if ((s = /^page (\d+)/.exec(state))) {
      p.pages = Number(s[1]);
      p.scrolls = 0;
      p.top = false;
    } else if (state === 'top') {
      p.top = true;
    } else if ((s = /^step (\d+)/.exec(state))) p.steps = Number(s[1]);
    else if ((s = /^more (\d+)/.exec(state))) p.more = Number(s[1]);
    else if ((s = /^tab (.+)$/.exec(state))) {
      p.tabs.push(s[1]!);
      p.scrolls = 0;
      p.ups = 0;
    } else if ((s = /^up (\d+)/.exec(state))) p.ups = Number(s[1]);
    else if ((s = /^reopen (\d+)/.exec(state))) {
      p.reopened = Number(s[1]);
      p.scrolls = 0;
    }
  }
  return p;
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
  // Symbols the OCR does not read ("+", "−") are read off the pixels when the guidance names one to tap
  // ("tap + next to Spring Rolls"): the policy reads the guidance as text and looks for that glyph on the screen.
  const ocrLines = await ctx.ocr.recognize(bytes);
  let symbols: OcrLine[] = [];
  if (prompt.guidance.some((l) => SYMBOL_TAP.test(l))) {
    try {
      symbols = detectSymbols(raw.data, width, height, raw.info.channels);
    } catch {
      symbols = [];
    }
  }
  const lines = symbols.length ? [...ocrLines, ...symbols] : ocrLines;
  // Steppers ("−  2  +"): their glyphs off the pixels, their count read by the OCR — again, enlarged, when a lone digit
  // was below the detector's reach (a VLM reads it directly).
  // (Only a request with a count in digits sets one: the glyph scan, ~30 ms a frame, is skipped otherwise.)
  const steppers = /\d/.test(prompt.instruction) ? await readSteppers(bytes, raw, ocrLines, ctx.ocr) : [];
  // The one visual cue besides text: on/off switches (policy-vision.ts).
  let switches: SwitchBox[] = [];
  try {
    switches = detectSwitches(raw.data, width, height, raw.info.channels);
  } catch {
    switches = [];
  }
  // Rows of rating stars, only for a request that gives a rating (the scan is skipped otherwise).
  let starRows: StarRow[] = [];
  if (/\bstars?\b/i.test(prompt.instruction)) {
    try {
      starRows = detectStarRows(raw.data, width, height, raw.info.channels);
    } catch {
      starRows = [];
    }
  }
  const temperature = request.temperature ?? 0;
  // Learned memory first (models/reference/memory.ts): a remembered accepted action for this instruction on this
  // screen, re-grounded on the current OCR. At T > 0 it is skipped with probability min(0.5, T/2) so sampling
  // still explores; on a miss the heuristic decides.
  const recalled = ctx.memory && !(temperature > 0 && ctx.random() < Math.min(0.5, temperature / 2))
    ? recallNotDone(ctx.memory, prompt.instruction, prompt.history, lines, { width, height })
    : undefined;
  // A learned procedure (procedure.ts) for a request without guidance: the steps of accepted episodes of requests of
  // this kind, with this request's values filled in, followed like guidance. It replaces the per-step generalised
  // recall (a whole task transfers where single steps keyed by progress do not); this request's own remembered
  // steps still come first.
  const procedure = ctx.memory && prompt.guidance.length === 0 ? ctx.memory.recallProcedure(prompt.instruction) : undefined;
  const remembered = procedure && recalled?.match === 'general' ? undefined : recalled;
  const decided = (): Decision => {
    const d = decide({
      instruction: prompt.instruction,
      guidance: procedure ? procedure.steps : prompt.guidance,
      history: prompt.history,
      lines,
      screen: { width, height },
      temperature,
      random: ctx.random,
      switches,
      steppers,
      starRows,
    });
    return procedure
      ? { ...d, thought: `${d.thought} (Following a procedure learned from ${procedure.count} accepted task(s) of this kind, intent similarity ${procedure.similarity.toFixed(2)}; memory ${ctx.memory!.version}.)` }
      : d;
  };
  const d: Decision = remembered
    ? {
        thought: `${remembered.thought ? `${remembered.thought} ` : ''}(Remembered: accepted ${remembered.count}× ${remembered.match === 'general' ? `for a task of this kind (intent similarity ${remembered.similarity?.toFixed(2)})` : 'for this task'} on this screen, ${remembered.match} match; memory ${ctx.memory!.version}.)`,
        conclusion: remembered.conclusion,
        action: remembered.action,
      }
    : decided();
  const call = JSON.stringify({ name: 'mobile_use', arguments: d.action });
  return {
    role: 'assistant',
    content: `Thought: ${d.thought}\nConclusion: ${d.conclusion}\n<tool_call>\n${call}\n</tool_call>`,
    finish_reason: 'stop',
  };
};

/**
 * The steppers of a screenshot (policy-vision.ts), each with its count: the OCR line between its glyphs, else that gap
 * read again three times enlarged on a margin of the screen's own background. Never throws: a screen without steppers,
 * or one the glyph reader fails on, has none.
 */
async function readSteppers(bytes: Uint8Array, raw: { data: Buffer; info: { width: number; height: number; channels: number } }, lines: OcrLine[], ocr: { recognize(image: Uint8Array): Promise<OcrLine[]> }): Promise<Stepper[]> {
  let found: Stepper[];
  try {
    found = findSteppers(detectSymbols(raw.data, raw.info.width, raw.info.height, raw.info.channels), lines);
  } catch {
    return [];
  }
  for (const st of found.filter((s) => s.value === undefined).slice(0, 3)) {
    const left = Math.max(0, Math.round(st.gap.x));
    const top = Math.max(0, Math.round(st.gap.y));
    const width = Math.min(raw.info.width - left, Math.round(st.gap.w));
    const height = Math.min(raw.info.height - top, Math.round(st.gap.h));
    if (width < 8 || height < 8) continue;
    try {
      const at = (top * raw.info.width + left) * raw.info.channels;
      const background = { r: raw.data[at]!, g: raw.data[at + 1]!, b: raw.data[at + 2]! };
      const crop = await sharp(bytes).extract({ left, top, width, height }).resize({ width: width * 3, height: height * 3 }).extend({ top: 40, bottom: 40, left: 60, right: 60, background }).png().toBuffer();
      const read = (await ocr.recognize(new Uint8Array(crop))).map((l) => l.text.trim()).find((t) => /^\d{1,3}$/.test(t));
      if (read) st.value = Number(read);
    } catch {
      // Unread: the stepper is used only where its count is known.
    }
  }
  return found;
}

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
  /** − N + steppers seen in the screenshot (policy-vision.ts); absent: none seen. */
  steppers?: Stepper[];
  /** Rows of rating stars seen in the screenshot (policy-vision.ts); absent: none seen. */
  starRows?: StarRow[];
}

/** Values noted in earlier conclusions ("[noted code=482913]"): the policy's only memory across apps. */

/** The goal list for an instruction: guidance steps, else an everyday app task, else a food order, else explicit steps. */
/**
 * A request of two actions joined by "and" ("Follow X on App and download its episode Y"), each with a verb of its own
 * and a thing of its own: the two requests, the second told the first one's app and thing for its "it"/"its". Not a
 * value said as an action ("… and name it X", "… and pay with Cash", "… and leave it at the door").
 */
export function twoActions(request: string): [string, string] | undefined {
  if (/[.!?;]\s+[A-Za-z]/.test(request.trim().replace(/[.!?]+$/, ''))) return undefined;
  const m = /^([A-Z][a-z]+\s.+?),?\s+and\s+(?:then\s+)?([a-z]+)(\s.+)$/.exec(request.trim());
  if (!m || !isVerb(m[2]!) || (!IMPERATIVES.has(m[2]!) && !/^(?:follow|download|subscribe|like|rate|play|queue)$/.test(m[2]!))) return undefined;
  if (/^(?:name|label|call|title|pay|ship|deliver|leave|keep|confirm|submit|save|send|use|choose|select|pick|make|tell|let|say|write|mark|put|set)$/.test(m[2]!) && !/^set\s+(?:a|the)\s+[a-z]/.test(`${m[2]}${m[3]}`)) return undefined;
  if (!/\b[A-Z][a-z]+|["“]/.test(m[1]!.slice(1)) || !/\b[A-Z]|["“]|\d/.test(m[3]!)) return undefined;
  const app = /\b(?:on|in|using|through)\s+([A-Z][\w&-]*)\s*$/.exec(m[1]!)?.[1] ?? /\b(?:on|in|using|through)\s+([A-Z][\w&-]*)\b/.exec(m[1]!)?.[1];
  const thing = /^[A-Za-z]+\s+(?:the\s+|my\s+)?((?:[A-Z][\w'’&-]*\s+)*[A-Z][\w'’&-]*)/.exec(m[1]!)?.[1];
  let second = `${m[2]![0]!.toUpperCase()}${m[2]!.slice(1)}${m[3]!}`.replace(/[.!]+$/, '');
  // ("its episode X": the episode X, found on the page the first action left open.)
  if (thing) second = second.replace(/\bits\s+/, 'the ');
  if (app && !second.includes(app)) second = `${second} in ${app}`;
  return [m[1]!.replace(/[.!]+$/, ''), `${second}.`];
}

/**
 * The way to an item's "Add to <collection>" chooser: the app, the item searched for and opened (told apart by who
 * made it), then its "Add to …" button (choosing the request's values on the way, when given).
 */
function addToCollection(instruction: string, o: { item: string; by?: string; kind: string; app?: string; words: string; verbs: string[]; names: string[]; values?: string[] }): Goal[] {
  const { item, by, kind } = o;
  return [
    appGoal(o.app ?? namedAppIn(instruction), { words: contentWords(o.words), verbs: o.verbs, names: [item, ...(by ? [by] : []), ...o.names], request: instruction }),
    { kind: 'type', field: 'search', value: item, submit: true, text: `search for ${item}`, optional: true, unlessVisible: item },
    { kind: 'tap', targets: [item], text: `open ${item}`, entity: true, min: 0.75, ...(by ? { near: [by] } : {}) },
    { kind: 'tap', targets: [`Add to ${kind}`, `Save to ${kind}`, `Add to a ${kind}`, 'Add to'], text: `tap Add to ${kind}`, min: 0.8, notTitle: true, words: ['add', 'save', kind], ...(o.values ? { values: o.values } : {}) },
  ];
}

/**
 * A new thing made with its name only ("Create a folder called N inside my P folder in App", "Make a new album named N",
 * "Add a new folder N to the P folder"): its kind, its name, the thing of the same kind it goes in, and the app. Kinds
 * with readers of their own (notes, events, alarms, contacts, reminders, lists of items) are left to them.
 */
export function newNamed(instruction: string): { kind: string; name: string; parent?: string; app?: string } | undefined {
  const m =
    /(?:^|[.!?]\s+)(?:[Cc]reate|[Mm]ake|[Aa]dd|[Ss]tart|[Ss]et\s+up)\s+(?:a|an)\s+(?:new\s+)?([a-z]{3,})\s+(?:(?:called|named|titled)\s+)?((?:[A-Z\d"“][\w'’&.-]*)(?:\s+(?:[A-Z\d][\w'’&.-]*|of|and|the|&))*)(?:\s+(?:inside|in|within|under|to|into)\s+(?:(?:my|the|our)\s+)?((?:[A-Z\d][\w'’&.-]*)(?:\s+(?:[A-Z\d][\w'’&.-]*|of|and|&))*)(?:\s+([a-z]{3,}))?)?(?:\s+(?:in|on|using)\s+(?:the\s+)?([A-Z][\w&-]*)(?:\s+app)?)?\s*[.!]?$/.exec(
      instruction,
    );
  if (!m) return undefined;
  const [, kind, rawName, said, parentKind, appSaid] = m;
  // (One place only, with no kind after it, is the app: "Create a folder called Pets in Nimbrel".)
  const place = said?.replace(/\.+$/, '');
  const [parent, app] = place && !parentKind && !appSaid ? [undefined, place] : [place, appSaid];
  if (/^(?:notes?|events?|alarms?|contacts?|reminders?|appointments?|messages?|emails?|items?|orders?|accounts?|profiles?|plants?|pets?|vehicles?|cars?|addresses|address|cards?|codes?|payments?)$/.test(kind!)) return undefined;
  // (The parent is a thing of the same kind: "inside my Family folder".)
  if (parent && parentKind && parentKind !== kind) return undefined;
  const name = rawName!.replace(/^["“]|["”]$/g, '').replace(/\.+$/, '');
  return { kind: kind!, name, ...(parent ? { parent } : {}), ...(app ? { app } : {}) };
}

export function planTask(raw: string, guidance: string[], contextRead = false): { goals: Goal[]; spec?: TaskSpec; app: boolean; result?: RegExp } {
  // Guidance hook (issue 18): guidance is read as text by policy-guidance.ts; only imperative lines become goals.
  const guided = guidanceGoals(guidance, parseGoals);
  if (guided.length > 0) return { goals: guided, app: false };
  // The request without courtesy frames and context sentences (intent.ts), so the wording does not change the plan.
  const core = requestCore(raw);
  // A statement of what the speaker did, then a request about it (policy-act.ts): the request with the statement's names.
  // A request with its options in sentences of their own ("It's the Medium size. Use Ground shipping."): one request.
  const instruction = foldSharedEvent(core) ?? foldSharedCost(core) ?? foldStatement(core) ?? mergeDetails(core) ?? core;
  // Two actions on two things, one after the other ("Follow the X podcast on App and download its episode Y", "Play X
  // and set the sleep timer to 45 minutes"): each planned alone, the second in the first one's app and on its thing.
  const both = contextRead ? undefined : twoActions(instruction);
  if (both) {
    const first = planTask(both[0], guidance, true);
    const second = planTask(both[1], guidance, true);
    if (first.app && second.app && first.goals.length > 1 && second.goals.length > 1) return { goals: [...first.goals, ...second.goals.filter((g) => g.kind !== 'open')], app: true };
  }
  // Context first, then the request ("Greenleaf Pharmacy is out of my way now. Please submit a transfer …"): when the
  // reading takes the context's first word for the verb, or finds no task, the request with the context's values as
  // details is read instead.
  if (!contextRead && /[.!?;]\s+[A-Za-z]/.test(instruction)) {
    const lead = /^([A-Za-z']+)\b/.exec(instruction)?.[1] ?? '';
    const folded = !isVerb(lead) || /^(?:I|I'm|We|We're|The|My|It|This|That|You|There)$/.test(lead) ? foldContext(instruction) : undefined;
    if (folded) {
      const plain = planTask(raw, guidance, true);
      const wrongVerb = plain.goals.some((g) => g.kind === 'tap' && (g.words ?? []).includes(lead.toLowerCase()));
      if (wrongVerb || (!plain.app && !plain.spec)) {
        const again = planTask(folded, guidance, true);
        if (again.app || again.spec) return again;
      }
      return plain;
    }
  }
  // A topic before a colon with a pronoun after it ("X: please unfreeze it"): the plain imperative ("Unfreeze X").
  if (/^[A-Z][^:]{1,60}:\s*(?:please\s+|can you\s+|could you\s+)?[a-z]+\s+(?:it|this|that|them)\b/i.test(instruction)) {
    const plain = plainImperative(instruction);
    if (plain) return planTask(plain, guidance);
  }
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
  // A reminder of the user's wanted at a time ("Turn on the X reminder at 9:00 AM"): its page's time, before the switch
  // readers (policy-edit.ts).
  const timed = /\b(?:reminder|alarm|notification|alert)s?\b[^.;!?]*?\bat\s+\d/i.test(instruction) ? understandEdit(instruction) : undefined;
  if (timed) return { goals: timed.goals, app: true, result: timed.result };
  // A feature on for a window of time ("Turn on quiet hours … from 9:30 PM to 7:30 AM"): its switch, then its two times.
  const window = understandTimeWindow(instruction);
  if (window) return { goals: window.goals, app: true, result: window.result };
  // A choice kept per day for someone, changed ("Change Leo's school lunch on Thursday to X"; "Leo has been asking for X
  // … on Thursday. Switch that day's lunch order").
  const daily = understandDayChoice(instruction);
  if (daily) return { goals: daily.goals, app: true, result: daily.result };
  // An app's automatic feature with its amount ("Turn on auto-reload … with $50"), before the switch readers.
  const feature = understandFeature(instruction);
  if (feature) return { goals: feature.goals, app: true, result: feature.result };
  // Several settings of one app, or one said as a wish ("… should be Medium", "Use X detergent … from now on").
  // (Read from the request without its courtesy frames, so "Could you set …" plans as "Set …" does.)
  const settings = understandSettings(instruction, raw);
  if (settings) return { goals: settings.goals, app: true, result: settings.result };
  // "Add a Chinese money plant called Kiwi to my plants": a new record named by the request, in a collection of the
  // user's things — its form, never a cart's item.
  // ("… to Fernly": the kind is the thing's own noun, "a Jade plant" → plant.)
  const nm = /^[Aa]dd\s+(?:a|an|my|our)\s+(?:new\s+)?(.+?)\s+(?:called|named)\s+.+?\s+to\s+(?:(?:my|the|our)\s+(?:[A-Z][\w&'-]*\s+)?([a-z]+s)\b|([A-Z][\w&'-]*)(?=\s*[,.!?]|\s*$))/.exec(instruction);
  const namedNew = nm ? (nm[2] ?? `${(/([A-Za-z]+)$/.exec(nm[1]!)?.[1] ?? '').toLowerCase()}s`) : undefined;
  if (namedNew && namedNew.length > 1 && !/^(?:carts?|baskets?|bags?|orders?|favou?rites|wishlists?|contacts|notes|events|alarms)$/i.test(namedNew)) {
    const record = understandForm(instruction, { numberAfterVerb: true, kind: namedNew.toLowerCase().replace(/(?<=(?:ss|x|ch|sh))es$|s$/, '') });
    if (record) return { goals: record.goals, app: true, result: record.result };
  }
  // "Add X (by Y) to my Z playlist", "Put X on my Z list": an item the app already has, put into a collection of the
  // user's with a name of its own — the item (told apart by who made it), its "Add to …" button, then the collection.
  // (Not a cart, a wishlist or favourites: those have readers of their own; nor a collection named by the app's name.)
  const into = /(?:^|[.!?]\s+)(?:[Aa]dd|[Pp]ut|[Ss]ave|[Pp]in)\s+(?:the\s+)?([A-Z\d"“][^.!?]*?)(?:\s+by\s+([A-Z][^.!?]*?))?\s+(?:to|on|in|into|onto)\s+(?:my|our|the)\s+((?:[A-Z][\w'&-]*\s+)*[A-Z][\w'&-]*)\s+([a-z]{3,})(?:\s+(?:on|in|using)\s+(?:the\s+)?([A-Z][\w&-]*)(?:\s+app)?)?\s*[.!]?$/.exec(instruction);
  if (into && !/^(?:carts?|baskets?|bags?|orders?|favou?rites|wishlists?|calendar|contacts)$/.test(into[4]!) && !/[a-z][A-Z]/.test(into[3]!)) {
    const [, rawItem, said, coll, kind, app] = into;
    const item = rawItem!.replace(/^["“]|["”]$/g, '');
    // (Who made it may be said where the item was first named: "I heard X by Y … Save it to …".)
    const by = said ?? new RegExp(`${item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+by\\s+((?:[A-Z][\\w'’&-]*|&|and|the)(?:\\s+(?:[A-Z][\\w'’&-]*|&|and|the))*)`).exec(instruction)?.[1];
    const goals: Goal[] = [
      ...addToCollection(instruction, { item, by, kind: kind!, app, words: `${item} ${coll} ${kind}`, verbs: ['add', 'put', 'save'], names: [coll!], values: [coll!] }),
      { kind: 'fill', value: coll!, hints: [kind!, ...contentWords(coll!)], text: `fill in ${coll}`, avoid: [item] },
      { kind: 'tap', targets: ['Done', 'Save', 'OK', 'Confirm', 'Add'], text: 'confirm', min: 0.8, optional: true, notTitle: true, lowest: true, repeatLast: true },
    ];
    return { goals, app: true };
  }
  // "Add X (by Y) to a new playlist called Z": the item's "Add to …" chooser, its "New …" entry, the name, then create.
  const fresh = /(?:^|[.!?]\s+)[Aa]dd\s+(?:the\s+)?([A-Z\d"“][^.!?]*?)(?:\s+by\s+([A-Z][^.!?]*?))?\s+to\s+a\s+new\s+([a-z]{3,})\s+called\s+([^.!?]+?)(?:\s+in\s+([A-Z][\w&-]*))?\s*[.!]?$/.exec(instruction);
  if (fresh) {
    const [, rawItem, by, kind, name, app] = fresh;
    const item = rawItem!.replace(/^["“]|["”]$/g, '');
    const goals: Goal[] = [
      ...addToCollection(instruction, { item, by, kind: kind!, app, words: `${item} ${kind}`, verbs: ['add', 'create'], names: [name!] }),
      { kind: 'tap', targets: [`New ${kind}`, `+ New ${kind}`, `Create ${kind}`, `Create a ${kind}`, `New`], text: `tap New ${kind}`, min: 0.8, notTitle: true, words: ['new', 'create'] },
      { kind: 'fill', value: name!, hints: ['name', 'title', kind!], text: `fill in ${name}` },
      { kind: 'tap', targets: ['Create', 'Save', 'Done', 'OK', `Create ${kind}`], text: `create the ${kind}`, min: 0.8, notTitle: true, lowest: true, repeatLast: true },
    ];
    return { goals, app: true };
  }
  // "Create a folder called N (inside my P folder) (in App)", "Add a new folder N to the P folder": a new thing of a kind
  // made with a name only — its parent opened first when one is named, then the kind's "New …" (or "+"), the name, and
  // create.
  const made = newNamed(instruction);
  if (made) {
    const { kind, name, parent, app } = made;
    const goals: Goal[] = [
      appGoal(app ?? namedAppIn(instruction), { words: contentWords(`${kind} ${parent ?? ''}`), verbs: ['create', 'new', 'add'], names: [name, ...(parent ? [parent] : [])], request: instruction }),
      ...(parent
        ? ([
            { kind: 'type', field: 'search', value: parent, submit: true, text: `search for ${parent}`, optional: true, unlessVisible: parent },
            { kind: 'tap', targets: [parent], text: `open ${parent}`, entity: true, min: 0.8 },
          ] satisfies Goal[])
        : []),
      { kind: 'tap', targets: [`New ${kind}`, `+ New ${kind}`, `Create ${kind}`, `Create a ${kind}`, `Add ${kind}`, `+ ${cap1(kind)}`, 'New', '+ New', 'Create', '+'], text: `tap New ${kind}`, min: 0.8, notTitle: true, words: ['new', 'create', kind] },
      // (A generic "+ New" opens a list of the kinds it makes — "Folder", "Upload", "Document": the request's kind.)
      { kind: 'tap', targets: [cap1(kind), `New ${kind}`, `Create ${kind}`], text: `choose ${cap1(kind)}`, min: 0.9, optional: true, notTitle: true },
      { kind: 'fill', value: name, hints: ['name', 'title', kind], text: `fill in ${name}` },
      { kind: 'tap', targets: ['Create', 'Save', 'Done', 'OK', `Create ${kind}`, 'Add'], text: `create the ${kind}`, min: 0.8, notTitle: true, lowest: true, repeatLast: true },
    ];
    return { goals, app: true };
  }
  const appGoals = understandAppTask(instruction);
  if (appGoals) return { goals: appGoals, app: true };
  // One value of a thing the user has, changed ("Change the amount of X in G to $V", "I entered X wrong … fix it").
  const edit = understandEdit(instruction);
  if (edit) return { goals: edit.goals, app: true, result: edit.result };
  // "Add my new pet X …", "Add a new vehicle …": a new record with its values, never a cart's item.
  // ("Add 88 King St to my FreshFold addresses": a collection of the user's records, not a cart.)
  const collection = /^add\s+.+?\s+to\s+(?:my|the)\s+(?:[A-Z][\w&'-]*\s+)?([a-z]+s)\b/i.exec(instruction)?.[1];
  if (/^add\s+(?:my\s+|a\s+|an\s+)?new\s+[a-z]/i.test(instruction) || (collection && !/^(?:carts?|baskets?|bags?|orders?|favou?rites|wishlists?)$/i.test(collection))) {
    // (The kind of record is the collection's noun, singular: "addresses" → "Add address".)
    const kind = collection ? collection.toLowerCase().replace(/(?<=(?:ss|x|ch|sh))es$|s$/, '') : undefined;
    const record = understandForm(instruction, { numberAfterVerb: true, ...(kind ? { kind } : {}) });
    if (record) return { goals: record.goals, app: true, result: record.result };
  }
  const spec = understandTask(instruction);
  if (spec) return { goals: planGoals(spec), spec, app: false };
  // Several values, one of them typed (an amount, a number, a note): a form the verb's button opens (policy-form.ts).
  const form = understandForm(instruction);
  if (form) return { goals: form.goals, app: true, result: form.result };
  // A request that is one clause with a verb the step reader does not know ("Borrow X", "Place a hold on X …"):
  // the generic verb-and-thing reading (policy-act.ts).
  const act = understandAction(instruction);
  if (act) return { goals: act.goals, app: true, result: act.result };
  // A request with sentences of context carrying its values: one request with those values as details.
  const folded = foldContext(instruction);
  if (folded) {
    const again = planTask(folded, guidance, true);
    if (again.app || again.spec) return again;
  }
  const explicit = parseGoals(instruction);
  // The step reader found no step, only the whole request as one label to tap ("Pay my X bill"): read it by its
  // structure instead, even when its verb is one the step reader knows.
  const only = explicit.length === 1 ? explicit[0] : undefined;
  // (Also a three-word request the step reader kept whole: "Pay City Water".)
  const whole = only?.kind === 'tap' && only.targets.length === 1 && normText(only.targets[0]!) === normText(instruction);
  if (only?.kind === 'tap' && only.targets.length === 1 && (only.targets[0]!.split(/\s+/).length >= 4 || whole)) {
    const loose = understandAction(instruction, { stepVerbs: true });
    if (loose) return { goals: loose.goals, app: true, result: loose.result };
    // A need or a topic hiding the verb ("I need to unfreeze X right now", "X: please unfreeze it"): read its plain imperative.
    const plain = plainImperative(instruction);
    if (plain && plain !== raw) {
      const again = planTask(plain, guidance);
      if (again.app || again.spec) return again;
    }
  }
  return { goals: explicit, app: false };
}

/** Minutes after midnight of a clock time ("9:30 PM" → 1290), or undefined for a text that is not one time alone. */
function clockMinutes(t: string): number | undefined {
  const m = /^\s*(\d{1,2})(?::(\d{2}))?\s*([AaPp])\.?[Mm]\.?\s*$/.exec(t);
  if (!m) return undefined;
  const h = Number(m[1]) % 12 + (/p/i.test(m[3]!) ? 12 : 0);
  return h * 60 + Number(m[2] ?? 0);
}

/**
 * A day strip's cell for the date `v`: its day number under a weekday's short name ("Thu" over "5"); or a month
 * calendar's cell — the day number in a row of day numbers, under the heading of the date's month ("June 2025").
 */
function dayCell(l: OcrLine, v: string, lines: readonly OcrLine[]): boolean {
  const day = /\b(\d{1,2})(?:st|nd|rd|th)?\b/.exec(v)?.[1];
  // (Only for a date: "3 hours" is no day 3.)
  if (!day || l.text.trim() !== day || /[ap]m/i.test(v) || !/\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\d(?:st|nd|rd|th)\b/i.test(v)) return false;
  if (lines.some((w) => w !== l && /^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?$/i.test(w.text.trim()) && Math.abs(w.box.x + w.box.w / 2 - (l.box.x + l.box.w / 2)) < 25 && l.box.y > w.box.y && l.box.y - w.box.y < 50)) return true;
  const month = /\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/i.exec(v)?.[1];
  const heading = lines.some((w) => w.box.y < l.box.y && l.box.y - w.box.y < 260 && new RegExp(`^${month ?? '[A-Za-z]+'}\\s+\\d{4}$`, 'i').test(w.text.trim()));
  const row = lines.filter((w) => w !== l && /^\d{1,2}$/.test(w.text.trim()) && Math.abs(w.box.y + w.box.h / 2 - (l.box.y + l.box.h / 2)) < 10).length;
  return heading && row >= 3;
}

/**
 * Is `l` on the row titled `row`: a line that reads as the row's title lies to its left, its centre at most 60 px above
 * and 30 px below `l`'s (a list row's title sits a little above the centre of its buttons).
 */
function onRowOf(l: OcrLine, lines: OcrLine[], row: string): boolean {
  const cy = l.box.y + l.box.h / 2;
  return lines.some((t) => {
    if (t === l || t.box.x + t.box.w > l.box.x + 4 || matchScore(t.text, row) < 0.9) return false;
    const dy = t.box.y + t.box.h / 2 - cy;
    return dy >= -60 && dy <= 30;
  });
}

/** The tab row this goal saw earlier, as its conclusions wrote it ("Swiped up … (tabs: Lines|Tickets|Card)"). */
function tabsSeen(history: readonly string[], goal: number): string[] {
  for (const c of [...history].reverse()) {
    const m = TAG.exec(c);
    if (!m || Number(m[1]) - 1 !== goal) continue;
    const t = /\(tabs: ([^)]+)\)/.exec(c);
    if (t) return t[1]!.split('|');
  }
  return [];
}

/** A home screen with several app labels (not a blank or loading launcher). */
function launcherShowsApps(lines: OcrLine[], screen: { width: number; height: number }): boolean {
  return looksLikeLauncher(lines, screen) && launcherApps(lines, screen, '').length >= 3;
}

/** What a request offers to recognise its app by, when the app it seemed to name is not on the launcher. */
export function exploreCue(instruction: string, wrongName: string): ExploreCue {
  const core = requestCore(instruction);
  const words = contentWords(core).filter((w) => normText(w) !== normText(wrongName));
  const verb = (/^([A-Za-z]+)\b/.exec(core)?.[1] ?? '').toLowerCase();
  return { words, verbs: verb ? [verb] : [], names: instructionEntities(core).filter((e) => normText(e) !== normText(wrongName)), request: core };
}

/** What a request says not to do, to the end of its clause ("do not order yet", "without paying"). */
const NOT_TO_DO = /\b(?:do not|don't|dont|never|without)\b[^,.;:!?]*/gi;

/** Tabs where apps keep their actions, forms and preferences rather than content (generic app convention). */
const ACTION_TABS = /^(?:more|menu|account|profile|settings|help|services|me)$/i;

/**
 * The next tab to look through: one not tried yet, those whose label shares a word with the request first; for an
 * action's button (not a thing of a list), the app's catch-all tab ("More", "Account", …) next.
 */
function nextTab(tabs: OcrLine[], tried: readonly string[], words: readonly string[], action = false, sought: readonly string[] = []): OcrLine | undefined {
  const left = tabs.filter((t) => !tried.includes(t.text.trim()));
  // (Then by what the tab is about: the one whose label is nearest in meaning to the thing sought — "Clubs" for
  // "Multi-sports", "Trips" for a flight — before the others; shared words still first.)
  // (For an action's button the catch-all tab comes before a tab near in meaning only: a form to file is kept with the
  // app's actions, not on a tab whose label is loosely related to a name of the request — "Card" for a lost phone.)
  const fits = (t: OcrLine): number => contentWords(t.text).filter((w) => words.some((x) => stemEq(x, w))).length + (action && ACTION_TABS.test(t.text.trim()) ? 0.95 : 0) + 0.9 * tabAbout(t.text, sought);
  return left.sort((a, b) => fits(b) - fits(a))[0];
}

/** Tab labels that say nothing of a topic (every app has them): no meaning to compare. */
const GENERIC_TABS = /^(?:home|more|menu|account|profile|settings|help|me|you|today|main|start|overview|dashboard)$/i;

/**
 * How much a tab's label is about the thing sought, by distributional word knowledge (word-vectors.ts): the best
 * similarity of a label word to a word of the thing (hyphenated and camel-case words split), counted from 0.4 (below
 * it, words are only loosely associated) — 0 for generic tabs ("Home", "More") and for words the vectors do not know.
 */
export function tabAbout(label: string, sought: readonly string[]): number {
  if (GENERIC_TABS.test(label.trim())) return 0;
  const own = labelParts(label);
  let best = 0;
  for (const w of sought.flatMap(labelParts)) for (const l of own) best = Math.max(best, w === l ? 1 : (wordSimilarity(l, w) ?? 0));
  return best >= 0.4 ? best : 0;
}

/** The words of what a goal looks for (its targets, switch, setting or value), for judging where it may be kept. */
function soughtWords(goal: Goal): string[] {
  const texts = goal.kind === 'tap' ? goal.targets : goal.kind === 'toggle' || goal.kind === 'press' ? [goal.target] : goal.kind === 'choose' ? [goal.setting] : goal.kind === 'fill' ? [...goal.hints, goal.value] : [];
  return texts.flatMap((t) => contentWords(t));
}

/** A section or tab of the user's own things ("My classes", "My loans"). */
const MINE = /^my\s/i;

/** Buttons that lead on to the next page of a flow (generic app convention). */
const FORWARD = /^(?:continue|next|review|review order|review and pay|proceed|go to review|go to checkout)$/i;

/** Values an advance step found already chosen ("[kept X]"). */
function keptValues(history: readonly string[]): string[] {
  return history.flatMap((c) => [...c.matchAll(/\[kept ([^\]]+)\]/g)].map((m) => m[1]!));
}

/** Values this episode chose or tapped, or found already chosen: a later fill of the same value is done. */
function chosenValues(history: readonly string[]): string[] {
  // Only since the flow was last left (a Back, another tab, the thing opened again elsewhere): a choice on a page left
  // behind does not carry over.
  let from = 0;
  history.forEach((c, i) => {
    if (/\[goal \d+\/\d+: (?:back|tab|thing|reopen) /.test(c)) from = i + 1;
  });
  const since = history.slice(from);
  return [...keptValues(since), ...since.flatMap((c) => [...c.matchAll(/(?:Chose|Tapped) "([^"]+)"/g)].map((m) => m[1]!))];
}

/** Deletes a text field's content from the caret's field end: MOVE_END, then DEL as often as a field's text runs long. */
export const CLEAR_FIELD_KEYS = ['KEYCODE_MOVE_END', ...Array.from({ length: 40 }, () => 'KEYCODE_DEL')].join(' ');

/** Short button labels (≤ 3 words, not a question, not the title) that contain one of `words` as a whole word. */
function wordButtons(lines: OcrLine[], words: string[], screen: { width: number; height: number }): OcrLine[] {
  const wanted = new Set(words.map((w) => w.toLowerCase()));
  return lines.filter((l) => {
    const ws = l.text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
    // Not a status line that counts something ("1 refill left").
    // A button may carry the amount it acts on when it starts with the word ("Pay $38.75"); a field label ends in a
    // preposition ("Pay from").
    const lead = wanted.has(ws[0] ?? '') && /^[a-z]/i.test(l.text.trim());
    // (A "+" button says "add" with its own word for the thing, of the request's stem: "+ Track a package" for adding a
    // tracking number.)
    const plus = /^\+\s*[A-Za-z]/.test(l.text.trim()) && wanted.has('add') && ws.some((w) => w.length >= 4 && [...wanted].some((x) => x !== 'add' && x.length >= 4 && (stemEq(w, x) || x.startsWith(w))));
    return ws.length > 0 && ws.length <= 3 && !FRAGMENT.test(l.text.trim()) && (!/\d/.test(l.text) || lead) && !/\?\s*$/.test(l.text) && !/\s(?:from|to|for|with|at|on|by|via|into)$/i.test(l.text.trim()) && !isHeader(l, screen) && (plus || ws.some((w) => wanted.has(w)));
  });
}

/** The texts this episode typed that come from the request (the name or values of what it created). */
function typedFromRequest(instruction: string, history: readonly string[]): string[] {
  const req = normText(instruction);
  return [...new Set(history.flatMap((c) => [...c.matchAll(/Typed "([^"]+)"/g)].map((m) => m[1]!.trim())))].filter((t) => normText(t).length >= 2 && req.includes(normText(t)));
}
const shownTyped = (typed: readonly string[], lines: readonly OcrLine[], screen: { width: number; height: number }): string | undefined =>
  typed.find((t) => lines.some((l) => !isHeader(l, screen) && (matchScore(l.text, t) >= 0.9 || normText(l.text).includes(normText(t)))));

/** After an outcome-reading scroll: the typed item the screen now shows (the task's result, found), else undefined. */
export function revealedItem(instruction: string, history: readonly string[], lines: readonly OcrLine[], screen: { width: number; height: number }): string | undefined {
  if (!history.some((c) => REVEAL.test(c))) return undefined;
  return shownTyped(typedFromRequest(instruction, history), lines, screen);
}

const REVEAL = /\[all goals done: reveal (\d+) #([0-9a-z]+)\]\s*$/;
/** How many outcome-reading scrolls an episode takes at most. */
export const MAX_REVEAL_SCROLLS = 3;


/**
 * The outcome-reading step, taken after the last goal and before terminating: the texts this episode typed that come
 * from the request ("Typed "Yoga" into …", the name of an item it created) should be visible on the result screen. When
 * none is (a list appended the new item below the fold), swipe up to bring it into view — at most MAX_REVEAL_SCROLLS
 * times, and no more once a scroll left the screen unchanged (the end of the list). Generic: only the history's typed
 * texts, the instruction's words and the OCR'd screen; undefined when there is nothing to reveal.
 */
export function revealOutcome(instruction: string, history: readonly string[], lines: readonly OcrLine[], screen: { width: number; height: number }): Decision | undefined {
  const typed = typedFromRequest(instruction, history);
  if (typed.length === 0 || shownTyped(typed, lines, screen)) return undefined;
  const last = [...history].reverse().map((c) => REVEAL.exec(c)).find((m) => m);
  const done = last ? Number(last[1]) : 0;
  const sig = screenSig(lines, screen);
  if (done >= MAX_REVEAL_SCROLLS || (last && last[2] === sig)) return undefined;
  const x = Math.round(screen.width / 2);
  return {
    thought: `All steps are done, but the screen does not show "${typed[0]}", which I entered; scrolling to bring the result into view before finishing.`,
    conclusion: `Swiped up to read the outcome. [all goals done: reveal ${done + 1} #${sig}]`,
    action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.75)], coordinate2: [x, Math.round(screen.height * 0.3)] },
  };
}

/** A range a row states as its hint ("0 to 10", "1–5"): never an option to choose. */
const RANGE_HINT = /^\d+(?:[.,]\d+)?\s*(?:to|–|—|-)\s*\d+(?:[.,]\d+)?(?:\s*%)?$/i;

/** Steps the planner may spend looking for one goal's target (scrolls, tabs, Backs, sections) before the search takes over. */
export const SEARCH_AFTER = 3;
const LOOKING = /^(?:scroll|back|tab|via|up|reopen|more|thing|page|top)\b/;
/** A search step this sure (a line that says one of the request's names, a value's option or field) overrides a plan that is about to look elsewhere. */
export const SEARCH_SURE = 2;
const REMOVAL_REQUEST = /^(?:cancel|delete|remove|drop|unbook|unsubscribe|withdraw|retract|pull(?!\s+up))\b/i;

/**
 * The pure decision procedure (exported for unit tests): the planner's step, or the search by screen relevance
 * (policy-search.ts) once the planner is stuck inside an app — it gave up on a target, or spent SEARCH_AFTER steps
 * looking for one — and from then on for the rest of the episode.
 */
export function decide(input: DecideInput): Decision {
  const { history, lines, screen } = input;
  // (Guided episodes follow their guidance: the search is the unguided policy's own way.)
  // (TRAJFORGE_POLICY_SEARCH=off: the planner alone — the ablation the benchmark compares against.)
  const guided = input.guidance.length > 0 || process.env.TRAJFORGE_POLICY_SEARCH === 'off';
  if (!guided && searching(history)) return searchStep(input, appOpened(history));
  const d = planStep(input);
  // (The app this step settles on counts: "Lodgerra is the app for this request. … Opened the Account tab to look for …")
  const app = appOpened([...history, d.conclusion]);
  if (guided || !app || looksLikeLauncher(lines, screen)) return d;
  const gaveUp = d.action.action === 'terminate' && d.action.status === 'failure' && !/too many steps/.test(d.conclusion);
  // (Or it looks for the app's own name as a value of the request: "… through Norvale" read as a field's value.)
  const lost = implausibleField(d.conclusion, input.instruction, lines, screen) || d.conclusion.toLowerCase().includes(`for "${app.toLowerCase()}"`);
  // (Or it would call the task done while the app still asks its question, or take a step that books, buys or goes on
  // for a request to remove something.)
  const unanswered = d.action.action === 'terminate' && /assuming success/.test(d.conclusion) && !!affirmative(lines);
  const wrongWay = REMOVAL_REQUEST.test(requestCore(input.instruction).trim()) && d.action.action === 'click' && /(?:Tapped|Opened|Chose) "(?:select|continue|next|book|reserve|buy|order|pay|confirm)\b/i.test(d.conclusion);
  // (Or it would look for a target it made up rather than read — "Do check", "Reserve through", "Now stay".)
  const planKind = TAG.exec(d.conclusion)?.[4] ?? '';
  const lookingAway = LOOKING.test(planKind);
  const madeUp = lookingAway && guessedTarget(d.conclusion, input.instruction);
  // (Opening the request's own thing again where the plan now looks — a loan on "My loans" after its catalog page had no
  // "Renew" — is the way on, not more looking: the plan keeps the step.)
  const stuck = !/^thing\b/.test(planKind) && lookingSteps(history) >= SEARCH_AFTER;
  const must = gaveUp || lost || madeUp || unanswered || wrongWay || stuck;
  if (!must && !lookingAway) return d;
  const s = searchStep(input, app);
  // (A plan about to switch tabs or scroll while this screen plainly shows the request's own names or values gives way to
  // a sure search step; a section it opens by its meaning — "Reminders" for a medicine's reminder switch — is a reading
  // of the request and is kept.)
  const sure = (s.strength ?? 0) >= SEARCH_SURE && s.action.action === 'click' && /^(?:tab|scroll)\b/.test(planKind);
  if (!must && !sure) return d;
  // (The app this step settled on stays said in the conclusion: later steps read it from there.)
  const chosen = /^(.+?) is the app for this request\./.exec(d.conclusion)?.[0];
  if (chosen && !s.conclusion.includes(chosen)) s.conclusion = `${chosen} ${s.conclusion}`;
  if (s.action.action === 'terminate' && s.action.status !== 'success') return d;
  const why = gaveUp
    ? 'My plan found no way on'
    : lost
      ? 'My plan would type a value into a line that is no field for it'
      : stuck
        ? 'My plan has been looking for its next target for several steps'
        : madeUp
          ? 'My plan would look for a label it made up from the request'
          : 'My plan would look elsewhere for its target, but this screen shows what the request names';
  return { ...s, thought: `${why}; searching the app by what its screens say instead. ${s.thought}` };
}

const AUXILIARY = new Set(['do', 'does', 'make', 'get', 'have', 'be', 'let', 'go']);
const FUNCTION_END = new Set(['through', 'with', 'for', 'from', 'to', 'in', 'on', 'at', 'by', 'of', 'via', 'into', 'about', 'and', 'or', 'the', 'a', 'an', 'my']);
/**
 * The plan looks for a target it composed from the request's words ("look for "Do check"") that is no label an app
 * would show: not said as such in the request, and led by a word that is no verb ("Now stay") or by an auxiliary ("Do
 * check"), or ending in a function word ("Reserve through").
 */
export function guessedTarget(conclusion: string, instruction: string): boolean {
  const t = /to look for "([^"]+)"/.exec(conclusion)?.[1];
  if (!t || instruction.toLowerCase().includes(t.toLowerCase())) return false;
  const ws = t.toLowerCase().split(/\s+/);
  return ws.length >= 2 && (!isVerb(ws[0]!) || AUXILIARY.has(ws[0]!) || FUNCTION_END.has(ws[ws.length - 1]!));
}

/** The app the episode opened last (its launcher label), from the conclusions. */
function appOpened(history: readonly string[]): string | undefined {
  let app: string | undefined;
  for (const c of history) {
    const m = /(?:^|\s)(?:Re-opened|Opened) the (.+?) app\b/.exec(c) ?? /^(.+?) is the app for this request\./.exec(c);
    if (m) app = m[1];
  }
  return app;
}

/** Steps spent looking for the current goal's target (its tags of scrolling, tabs, Backs, sections) without reaching it. */
function lookingSteps(history: readonly string[]): number {
  const current = readProgress([...history]).current;
  let n = 0;
  for (const c of history) {
    const m = TAG.exec(c);
    if (m && Number(m[1]) - 1 === current && !m[3] && LOOKING.test(m[4] ?? '')) n++;
  }
  return n;
}

function planStep(input: DecideInput): Decision {
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
  const onLauncher = looksLikeLauncher(lines, screen);
  const explored = readExplore(history);
  const labelOf = (g: Extract<Goal, { kind: 'open' }> | undefined): string | undefined =>
    !g
      ? undefined
      : g.explore || explored.apps
        ? // The app found by looking inside the apps, else a launcher label that is a word of the request.
          (explored.chosen ?? (onLauncher && g.topic ? topicLabel(g.topic, lines) : undefined))
        : g.topic
          ? topicLabel(g.topic, lines)
          : launcherLabel(g.target, input.instruction, lines, temperature, random);
  let appLabel = labelOf(openAt(progress.current));
  let gi = progress.current;
  // An unnamed app with no fitting launcher icon: assume the right app is already open.
  const unnamedOpen = (g: Goal): boolean => g.kind === 'open' && !labelOf(g) && !g.target && !g.explore;
  const chosenBefore = chosenValues(history);
  const chosenAlready = (g: Goal): boolean => g.kind === 'fill' && chosenBefore.some((c) => matchScore(c, g.value) >= 0.95 || dayLabels(g.value).some((d) => normText(c) === normText(d)));
  while (gi < n && (satisfiedOnScreen(goals, gi, lines, header, switches, history, screen) || unnamedOpen(goals[gi]!) || chosenAlready(goals[gi]!))) gi++;
  appLabel = labelOf(openAt(gi)) ?? appLabel;

  const clickOn = (line: OcrLine, thought: string, conclusion: string): Decision => ({
    thought,
    conclusion,
    action: { action: 'click', coordinate: pointIn(line, screen, temperature, random) },
  });

  if (gi >= n) {
    // A confirmation the last step opened ("Change delivery day?" — Cancel / Change day): answer it with its own
    // affirmative button (below the question, not Cancel/No), at most twice.
    const answered = history.filter((c) => /\[all goals done: confirm \d+\]/.test(c)).length;
    const dialog = answered < 2 ? affirmative(lines) : undefined;
    if (dialog) {
      const { asked, yes } = dialog;
      // (Its button tapped just now and the dialog still open: it wants an answer first — "Why are you withdrawing?".)
      const again = answered > 0 && (history[history.length - 1] ?? '').includes(`"${yes.text}"`);
      const a = again ? dialogAnswer(lines, yes, screen, (l) => history.some((c) => c.includes(`"${l.text}" to answer`))) : undefined;
      if (a) {
        return {
          thought: `All ${n} steps are done; the app still asks after "${yes.text}": it wants an answer to "${a.ask.text}" first, and the request names none; choosing "${a.answer.text}".`,
          conclusion: `Chose "${a.answer.text}" to answer "${a.ask.text}". [all goals done: answer]`,
          action: { action: 'click', coordinate: pointIn(a.answer, screen, temperature, random) },
        };
      }
      return {
        thought: `All ${n} steps are done and the app asks "${asked.text}"; answering with "${yes.text}".`,
        conclusion: `Tapped "${yes.text}" to confirm. [all goals done: confirm ${answered + 1}]`,
        action: { action: 'click', coordinate: pointIn(yes, screen, temperature, random) },
      };
    }
    // Dates and times a form's first page had no field for: chosen where a later page offers them ("Thu, Jun 5",
    // "11 AM – 1 PM"), then the page's forward or submit button — a few times at most.
    const deferred = history.flatMap((c) => [...c.matchAll(/\[deferred ([^\]]+)\]/g)].map((m) => m[1]!));
    if (deferred.length > 0) {
      const picked = history.flatMap((c) => [...c.matchAll(/\[picked ([^\]]+)\]/g)].map((m) => m[1]!));
      const rounds = history.filter((c) => /\[all goals done: (?:later|onward) \d+\]/.test(c)).length;
      const timeIn = (text: string, v: string): boolean => new RegExp(`(?:^|[^\\d:])${v.replace(/\s+/g, '\\s*').replace(/[.]/g, '\\.')}(?![\\d:])`, 'i').test(text.replace(/\u2013|\u2014/g, '-'));
      for (const v of deferred.filter((d) => !picked.includes(d))) {
        // (A date as an option of its own — a short line or a day strip's cell, "Thu" over "5" — never a sentence that
        // mentions it: "Back Thu, Jun 5, 5–7 PM" describes another choice.)
        const cell = (l: OcrLine): boolean => dayCell(l, v, lines);
        const short = (l: OcrLine): boolean => l.text.trim().split(/\s+/).length <= 4;
        const opt = rounds < 6 ? lines.filter((l) => !isHeader(l, screen) && ((short(l) && sameDate(l.text, v)) || cell(l) || (short(l) && /\d/.test(v) && /[ap]m/i.test(v) && timeIn(l.text, v)))).sort((a, b) => a.box.y - b.box.y)[0] : undefined;
        if (opt) {
          // (Every deferred value this line also shows is picked with it: "11 AM – 1 PM" for 11 AM and 1 PM.)
          const also = deferred.filter((d) => !picked.includes(d) && (d === v || sameDate(opt.text, d) || timeIn(opt.text, d)));
          return clickOn(opt, `The form's later page offers "${opt.text}" for ${also.map((d) => `"${d}"`).join(', ')}; choosing it.`, `Chose "${opt.text}". ${also.map((d) => `[picked ${d}]`).join(' ')} [all goals done: later ${rounds + 1}]`);
        }
      }
      const onward = rounds < 6 && !confirmationOpen(lines) ? lines.filter((l) => !isHeader(l, screen) && (FORWARD.test(l.text.trim()) || /^(?:confirm|book|schedule|submit|place|save)\b/i.test(l.text.trim())) && l.text.trim().split(/\s+/).length <= 4).sort((a, b) => b.box.y - a.box.y)[0] : undefined;
      if (onward && !history.some((c) => c.includes(`Tapped "${onward.text}". [all goals done: onward`))) {
        return clickOn(onward, `The deferred values are chosen; "${onward.text}" goes on.`, `Tapped "${onward.text}". [all goals done: onward ${rounds + 1}]`);
      }
    }
    // The values chosen, the page still goes on ("Continue" under "Step 2 of 3", then "Book visit"): its forward button,
    // then the one that commits, before any result is looked for (a few pages at most).
    if (deferred.length === 0 && !confirmationOpen(lines)) {
      const rounds = history.filter((c) => /\[all goals done: onward \d+\]/.test(c)).length;
      const lastStep = history[history.length - 1] ?? '';
      const justSet = /^Chose "/.test(lastStep) || /\[all goals done: onward \d+\]/.test(lastStep);
      const onward = justSet && rounds < 4 ? lines.filter((l) => !isHeader(l, screen) && (FORWARD.test(l.text.trim()) || (rounds > 0 && /^(?:confirm|book|schedule|submit|place|save|send|pay)\b/i.test(l.text.trim()))) && l.text.trim().split(/\s+/).length <= 4 && !/\d/.test(l.text)).sort((a, b) => b.box.y - a.box.y)[0] : undefined;
      if (onward && !history.some((c) => c.includes(`Tapped "${onward.text}". [all goals done: onward`))) {
        return clickOn(onward, `The values are chosen on this page; "${onward.text}" goes on.`, `Tapped "${onward.text}". [all goals done: onward ${rounds + 1}]`);
      }
    }
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
    // Read the outcome before terminating: an item this episode created from the request's own words must be visible
    // where the outcome lives (a list may append it below the fold, under a "saved" toast). Scroll towards it, bounded.
    // (Not when the screen reports that the thing left the app — "Message sent", "Request submitted": it is not listed
    // here, and scrolling would only hide the report.)
    const gone = confirmationOpen(lines) ? undefined : lines.find((l) => !isHeader(l, screen) && !rowStatus(l, lines) && /\b(?:sent|delivered|posted|submitted)\b/i.test(l.text) && l.text.trim().split(/\s+/).length <= 6);
    if (gone) {
      return { thought: `All ${n} steps are done and the screen says "${gone.text}".`, conclusion: `Task complete: the screen shows "${gone.text}". [all goals done]`, action: { action: 'terminate', status: 'success' } };
    }
    const reveal = revealOutcome(input.instruction, history, lines, screen);
    if (reveal) return reveal;
    const shown = revealedItem(input.instruction, history, lines, screen);
    if (shown) {
      return { thought: `All ${n} steps are done and, scrolled into view, the screen shows "${shown}".`, conclusion: `Task complete: the screen shows "${shown}". [all goals done]`, action: { action: 'terminate', status: 'success' } };
    }
    const success = confirmationOpen(lines)
      ? undefined
      : lines.find((l) => !rowStatus(l, lines) && ((plan.app ? [...SUCCESS, ...APP_RESULTS] : SUCCESS).some((s) => normText(l.text).includes(normText(s))) || (plan.result?.test(l.text) ?? false)));
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

  const notMine = 'notMine' in goal && goal.notMine === true;
  const notFound = (what: string): Decision => {
    // Pages reached by forward buttons on the way to an action's button that never showed: back to where the flow
    // started (no scrolling through them), then the app's other tabs.
    if (sub.forwards > 0 && sub.backs < sub.forwards + 1 && !looksLikeLauncher(lines, screen)) {
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): ${what} did not show on the pages this flow led to; going back to look elsewhere.`,
        conclusion: `Pressed Back after not finding ${what}. ${tag(`back ${sub.backs + 1}`)}`,
        action: { action: 'system_button', button: 'Back' },
      };
    }
    // Back on the launcher (e.g. after Back from the app's first screen): open the app again, once or twice.
    if (appLabel && goal.kind !== 'open' && sub.reopened < 2 && looksLikeLauncher(lines, screen)) {
      return { thought: `Step ${gi + 1} of ${n}: this is the home screen, not the app; opening ${appLabel} again to look for ${what}.`, conclusion: `Re-opened the ${appLabel} app. ${tag(`reopen ${sub.reopened + 1}`)}`, action: { action: 'open', text: appLabel } };
    }
    // A flow's entry button that starts with the request's action ("Refill a prescription" for "Request a refill of
    // X"): it lists the things the action applies to (once, and only a "<verb> a/an/new/my <noun>" button).
    const entry = 'entry' in goal ? goal.entry : undefined;
    if (entry?.length && sub.via < 1 && sub.scrolls === 0) {
      const e = lines.find((l) => {
        const ws = l.text.trim().toLowerCase().split(/\s+/);
        return !isHeader(l, screen) && !/\d/.test(l.text) && ws.length >= 3 && ws.length <= 5 && /^(?:a|an|new|my)$/.test(ws[1]!) && ws.some((x) => entry.some((w) => stemEq(x.replace(/[^a-z]/g, ''), w)));
      });
      if (e) {
        return clickOn(e, `Step ${gi + 1} of ${n} ("${goal.text}"): ${what} is not on this screen; "${e.text}" starts the request's action and should list it; opening it.`, `Opened "${e.text}" to look for ${what}. ${tag(`via ${sub.via + 1}`)}`);
      }
    }
    // A row that sums up the setting among others ("Classic Fresh detergent - light starch" for the starch): the page
    // that holds it, before any generic place for settings.
    if (goal.kind === 'fill' && sub.via < 1 && sub.scrolls === 0) {
      const tabs = tabRow(lines, screen);
      const row = lines.find((l) => {
        const ws = l.text.trim().split(/\s+/);
        // (A sentence that ends with its full stop informs — "Refills are sent to your preferred store." —: no row.)
        return !isHeader(l, screen) && !tabs.includes(l) && ws.length >= 3 && ws.length <= 10 && !/[?:]\s*$/.test(l.text) && !/[a-z)]\.\s*$/i.test(l.text.trim()) && contentWords(l.text).some((w) => goal.hints.some((h) => stemEq(w, h)));
      });
      if (row) return clickOn(row, `Step ${gi + 1} of ${n} ("${goal.text}"): ${what} is not on this screen, but "${row.text}" names the setting; opening it.`, `Opened "${row.text}" to look for ${what}. ${tag(`via ${sub.via + 1}`)}`);
    }
    // On the page of the thing the request named, just opened: its own actions often sit at its bottom, below the fold
    // ("Remove plant", "Delete contact") — scroll this page first (twice at most, not once it stops moving), before any
    // section or tab.
    const prev = gi > 0 ? goals[gi - 1] : undefined;
    // (A section on the page itself that should hold it comes first; a tab of the app's bar does not.)
    // (The thing just opened, shown on its own page, is no section for the action on it: "Pastry breakfast".)
    const opened = goal.kind === 'tap' && !goal.entity ? goals.slice(0, gi).reverse().find((g): g is Extract<Goal, { kind: 'tap' }> => g.kind === 'tap' && !!g.entity) : undefined;
    const itself = (l: OcrLine): boolean => !!opened && normText(l.text).startsWith(normText(opened.targets[0]!));
    const ownVia = 'via' in goal && goal.via ? viaLine(lines.filter((l) => !itself(l)), goal.via, screen) : undefined;
    if (goal.kind === 'tap' && prev?.kind === 'tap' && prev.entity && !(ownVia && !tabRow(lines, screen).includes(ownVia)) && sub.via === 0 && sub.tabs.length === 0 && sub.backs === 0 && sub.scrolls < 2 && !(sub.scrolls > 0 && sub.scrollSig === screenSig(lines, screen)) && !looksLikeLauncher(lines, screen)) {
      const x = Math.round(screen.width / 2);
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): ${what} is not in view on the page of "${prev.targets[0]}"; its actions may be further down, so scrolling it first.`,
        conclusion: `Swiped up to look for ${what}. ${tag(`scroll ${sub.scrolls + 1} #${screenSig(lines, screen)}`)}`,
        action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.75)], coordinate2: [x, Math.round(screen.height * 0.3)] },
      };
    }
    // A section that should hold it (a settings section, a shop category): open it first (once).
    const via = 'via' in goal ? goal.via : undefined;
    // (Once per tab: the catch-all tab opened since may list the section — "Vehicles" under "Account". Not twice on one
    // tab: the section's own page shows its name as a title, which is no second way in.)
    if (via && (sub.via === 0 || sub.viaTab < sub.tabs.length) && sub.scrolls === 0) {
      // (A request for something new is not among the user's own things: no "My …" section for it.)
      // (Nor the thing just opened, shown on its own page: "Pastry breakfast" is no section for the action on it.)
      // (The user's own thing, when no section says its kind: their own list of things — "My classes" for "my X booking".)
      const ownList = (): OcrLine | undefined =>
        !notMine && /\bmy\b/i.test(input.instruction) && goal.kind === 'tap' && goal.entity
          ? lines.find((l) => /^my\s+[a-z]+s$/i.test(l.text.trim()) && !isHeader(l, screen) && !itself(l) && !tabRow(lines, screen).includes(l))
          : undefined;
      // (Nor a tab already opened for it: tapping "My tickets" in the tab row again shows the same page.)
      const openedTab = (l: OcrLine): boolean => sub.tabs.some((t) => normText(t) === normText(l.text)) && tabRow(lines, screen).includes(l);
      const v = viaLine(lines.filter((l) => !(notMine && MINE.test(l.text.trim())) && !itself(l) && !openedTab(l)), via, screen) ?? ownList();
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
    // An app with a tab bar: look through its other tabs before going back — at once a tab that shares a word with the
    // request, the others after scrolling this one. A tab row that scrolls with the page is remembered from the
    // conclusions ("(tabs: A|B|C)") and brought back into view by scrolling up to it.
    // An action's button that the thing's page did not show: the thing may be listed on another tab too (a running
    // session beside the list it was started from), whose page has the button. On each tab looked into for the
    // button, the thing itself, shown by its exact name, is opened again (once per tab).
    const thingGoal = goal.kind === 'tap' && goal.words ? goals.slice(0, gi).reverse().find((g): g is Extract<Goal, { kind: 'tap' }> => g.kind === 'tap' && !!g.entity) : undefined;
    const lastTab = sub.tabs[sub.tabs.length - 1];
    if (thingGoal && lastTab && !sub.things.includes(lastTab)) {
      const again = candidates(lines, thingGoal.targets, 0.95).filter((c) => !isHeader(c.line, screen)).sort((a, b) => a.line.box.y - b.line.box.y)[0];
      if (again) {
        return clickOn(again.line, `Step ${gi + 1} of ${n} ("${goal.text}"): the "${lastTab}" tab lists "${again.line.text}" too; its page there may have the button.`, `Opened "${again.line.text}" from the "${lastTab}" tab. ${tag(`thing ${lastTab}`)}`);
      }
    }
    const row = tabRow(lines, screen);
    const known = row.length ? row.map((t) => t.text.trim()) : tabsSeen(history, gi);
    // An app opens on its first tab: until another was opened, that one is the tab on screen.
    const tried = [...known.slice(0, 1), ...sub.tabs];
    const untried = known.filter((t) => !tried.includes(t));
    // (A switch of the app's own is a preference: kept where actions and settings are, "More", "Account", … first.)
    const action = (goal.kind === 'tap' && !goal.entity && (goal.form !== undefined || goal.words !== undefined)) || (goal.kind === 'toggle' && !!goal.label?.length);
    // (What the goal looks for, and the request's own words: "Harbour Lights" is looked for, "cruise" says what it is.)
    const sought = [...new Set([...soughtWords(goal), ...contentWords(requestCore(input.instruction))])].filter((w) => !appLabel || normText(w) !== normText(appLabel));
    // (A word that names where a later goal goes — "cart" in "… in my cart", whose goal opens the cart — says where the
    // thing ends up, not where it is found: a tab of that word is no place to look for this goal's target.)
    const away = goals.slice(gi + 1).flatMap((g) => (g.kind === 'tap' ? g.nav ?? [] : []));
    // (Nor is a word of what the request says not to do: "… but do not order yet" is no reason to open "Orders".)
    const requestWords = contentWords(input.instruction.replace(NOT_TO_DO, ' ')).filter((x) => !away.some((w) => stemEq(x, w)));
    const tab = nextTab(notMine ? row.filter((t) => !MINE.test(t.text.trim())) : row, tried, requestWords, action, sought);
    // (Meaning orders the tabs, it does not make one fit before this page is scrolled: taken at once, a tab near in
    // meaning to a word of the request — "Orders" for a dish to order — left a menu whose dish was below the fold.)
    const fitting = tab && contentWords(tab.text).some((w) => requestWords.some((x) => stemEq(x, w)));
    // A page whose last line ends well above the bottom edge has nothing below the fold: no need to scroll it.
    const body = lines.filter((l) => !isHeader(l, screen) && !row.includes(l));
    const shortPage = body.length > 0 && Math.max(...body.map((l) => l.box.y + l.box.h)) < screen.height * 0.8;
    // (A scroll that left the screen as it was reached the page's end: no more scrolling here.)
    // (Unless "Load more" was tapped since: what it loaded may sit below the fold of a screen that looks the same.)
    const loadedMore = /: more \d+\]/.test(history[history.length - 1] ?? '');
    const stuck = sub.scrolls > 0 && sub.scrollSig === screenSig(lines, screen) && !loadedMore;
    const scrolled = sub.scrolls >= (sub.tabs.length ? 1 : 2) || shortPage || stuck;
    // (An action's button is not in a content list: the app's catch-all tab is looked into before scrolling one.)
    if (tab && (fitting || scrolled || sub.backs > 0 || (action && ACTION_TABS.test(tab.text.trim())))) {
      return clickOn(tab, `Step ${gi + 1} of ${n} ("${goal.text}"): ${what} is not on this tab; looking in the "${tab.text}" tab.`, `Opened the "${tab.text}" tab to look for ${what}. ${tag(`tab ${tab.text.trim()}`)}`);
    }
    const rowNote = row.length ? ` (tabs: ${known.join('|')})` : '';
    if (!row.length && untried.length > 0 && scrolled && sub.ups < 2) {
      const x = Math.round(screen.width / 2);
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): ${what} is not on this tab; scrolling back up to the tab row (${untried.join(', ')} not looked through yet).`,
        conclusion: `Swiped down to the tab row. ${tag(`up ${sub.ups + 1}`)}`,
        action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.25)], coordinate2: [x, Math.round(screen.height * 0.9)] },
      };
    }
    if ((sub.tabs.length > 0 || known.length > 0) && !scrolled) {
      const x = Math.round(screen.width / 2);
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): ${what} is not in view on the "${sub.tabs[sub.tabs.length - 1] ?? known[0]}" tab; scrolling it.`,
        conclusion: `Swiped up to look for ${what}${rowNote}. ${tag(`scroll ${sub.scrolls + 1} #${screenSig(lines, screen)}`)}`,
        action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.75)], coordinate2: [x, Math.round(screen.height * 0.3)] },
      };
    }
    if (sub.backs >= 2) return fail(`Step ${gi + 1} of ${n}: ${what} is nowhere to be found, even after going back twice.`, `Gave up: could not find ${what}.`);
    if (sub.scrolls < 3 + sub.more && !stuck) {
      const x = Math.round(screen.width / 2);
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): I cannot see ${what} on this screen (${seen}). Scrolling down to look for it.`,
        conclusion: `Swiped up to look for ${what}. ${tag(`scroll ${sub.scrolls + 1} #${screenSig(lines, screen)}`)}`,
        action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.75)], coordinate2: [x, Math.round(screen.height * 0.3)] },
      };
    }
    return {
      thought: `Step ${gi + 1} of ${n}: scrolled ${sub.scrolls} times without finding ${what}; going back.`,
      conclusion: `Pressed Back after not finding ${what}. ${tag(`back ${sub.backs + 1}`)}`,
      action: { action: 'system_button', button: 'Back' },
    };
  };
  const requestStems = new Set(stemWords(input.instruction));

  /**
   * On the way to an action's button the thing's page does not show: choose the request's values offered there as
   * options (a value shown beside "Change" is the current choice already; a missing one is looked for behind "Change"),
   * then a forward button. Only on the pages reached from the thing (no scroll, tab or Back taken for this goal yet).
   */
  const pickedValue = (v: string): boolean => sub.picks.some((p) => matchScore(p, v) >= 0.9) || keptValues(history).some((p) => matchScore(p, v) >= 0.9);
  const advance = (g: Extract<Goal, { kind: 'tap' }>): Decision | undefined => {
    if (!g.values?.length || sub.scrolls > 0 || sub.backs > 0 || sub.tabs.length > 0) return undefined;
    const body = lines.filter((l) => !isHeader(l, screen));
    // (A dialog that asks a question and lists one of the request's values — "Which vehicle?" over the vehicles — is a
    // picker opened for that value, not a confirmation.)
    if (confirmationOpen(lines) && !body.some((l) => g.values!.some((v) => !pickedValue(v) && matchScore(l.text, v) >= 0.95))) return undefined;
    const change = body.find((l) => /^(?:change|edit|select|choose)$/i.test(l.text.trim()));
    const beside = (l: OcrLine): boolean => !!change && Math.abs(change.box.y + change.box.h / 2 - (l.box.y + l.box.h / 2)) < 30 && change.box.x > l.box.x + l.box.w;
    let missing = false;
    for (const v of g.values) {
      if (pickedValue(v)) continue;
      // A count of a kind ("4 × adult" for "4 adult tickets"): the stepper on the kind's row, tapped to that count.
      const counted = /^(\d+) × ([a-z]+)$/.exec(v);
      if (counted) {
        const row = body.find((l) => matchScore(l.text, counted[2]!) >= 0.9);
        const st = row ? stepperOf(row, lines) : undefined;
        const want = Number(counted[1]);
        if (st && st.value !== undefined && st.value !== want && sub.steps < 12) {
          const btn = st.value < want ? st.plus : st.minus;
          if (btn) return clickOn(btn, `Step ${gi + 1} of ${n} ("${g.text}"): "${row!.text}" is at ${st.value}; the request wants ${want}.`, `Tapped ${st.value < want ? '+' : '−'} on "${row!.text}". ${tag(`step ${sub.steps + 1}`)}`);
        }
        continue;
      }
      const opt = body.filter((l) => matchScore(l.text, v) >= 0.95 || sameDate(l.text, v) || dayCell(l, v, lines)).sort((a, b) => b.box.y - a.box.y)[0];
      if (opt && beside(opt)) {
        // Nothing to do for it: go on with this screen at once.
        const kept = `"${opt.text}" is already chosen. [kept ${opt.text.trim()}] ${tag(`pick ${opt.text.trim()}`)}`;
        const next = planStep({ ...input, history: [...history, kept] });
        return { thought: `"${opt.text}" is already the choice here (beside "${change!.text}"). ${next.thought}`, conclusion: `[kept ${opt.text.trim()}] ${next.conclusion}`, action: next.action };
      }
      if (opt) return clickOn(opt, `Step ${gi + 1} of ${n} ("${g.text}"): the button is not here, but "${opt.text}" — a value of the request — is offered; choosing it on the way.`, `Chose "${opt.text}". ${tag(`pick ${opt.text.trim()}`)}`);
      missing = true;
    }
    if (missing && change && !sub.picks.includes('change')) {
      return clickOn(change, `Step ${gi + 1} of ${n} ("${g.text}"): a value of the request is not the current choice; opening "${change.text}" to choose it.`, `Opened "${change.text}". ${tag('pick change')}`);
    }
    const fwd = sub.forwards < 2 ? body.filter((l) => FORWARD.test(l.text.trim())).sort((a, b) => b.box.y - a.box.y)[0] : undefined;
    if (fwd) return clickOn(fwd, `Step ${gi + 1} of ${n} ("${g.text}"): the values are chosen and "${fwd.text}" leads on towards the button.`, `Tapped "${fwd.text}". ${tag(`forward ${sub.forwards + 1}`)}`);
    return undefined;
  };

  switch (goal.kind) {
    case 'open': {
      // An app the request seems to name ("on Friday", "in California") that the launcher does not show: look inside
      // the apps instead, as for a request that names none.
      const absent = !goal.explore && !!goal.target && ((onLauncher && launcherShowsApps(lines, screen) && !lines.some((l) => matchScore(l.text, goal.target!) >= 0.9)) || !!explored.apps);
      const cue = goal.explore ?? (absent ? exploreCue(input.instruction, goal.target!) : undefined);
      if (cue && (!appLabel || absent) && !explored.chosen) {
        const context = contentWords(input.instruction).filter((w) => !cue.words.includes(w));
        const found = exploreStep(explored, lines, screen, { ...cue, context, text: input.instruction }, onLauncher);
        if (found.kind === 'peek') {
          const list = found.apps ? `[apps ${found.apps.join('|')}] ` : '';
          return {
            thought: `Step ${gi + 1} of ${n}: the request names no app and no launcher label is one of its words; opening ${found.app} to see whether its first screen fits the request.`,
            conclusion: `Opened ${found.app} to look inside. ${list}${found.note} ${tag('explore')}`,
            action: { action: 'open', text: found.app },
          };
        }
        if (found.kind === 'open') {
          return {
            thought: `Step ${gi + 1} of ${n}: of the apps I looked into, ${found.app} fits the request best; opening it.`,
            conclusion: `Opened the ${found.app} app. ${found.note} ${tag('done')}`,
            action: { action: 'open', text: found.app },
          };
        }
        if (found.kind === 'stay') {
          // This is the app: go on with the next step on this very screen.
          const next = planStep({ ...input, history: [...history, `${found.note} ${tag('done')}`] });
          return {
            thought: `Step ${gi + 1} of ${n}: ${found.app}'s first screen fits the request, so this is the app. ${next.thought}`,
            conclusion: `${found.app} is the app for this request. ${found.note} ${next.conclusion}`,
            action: next.action,
          };
        }
        if (explored.apps) return fail(`Step ${gi + 1} of ${n}: I looked inside the apps, and ${found.note}.`, 'Gave up: no app fits the request.');
      }
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
      const targets = tapTargets(goal, history);
      // A confirmation is not the button just tapped, still showing behind its dialog.
      const justTapped = goal.repeatLast ? /Tapped "([^"]+)"/.exec(history[history.length - 1] ?? '')?.[1] : undefined;
      // (Nor the action's own button tapped earlier, still showing behind the sheet of options it opened.)
      const openedBy = goal.repeatLast ? history.flatMap((c) => (/\[goal \d+\/\d+ done\]/.test(c) ? [...c.matchAll(/Tapped "([^"]+)"/g)].map((m) => m[1]!) : [])) : [];
      // A label tapped before (the last one, or the action's own button behind the sheet it opened).
      const again = (l: OcrLine): boolean => (!!justTapped && normText(l.text) === normText(justTapped)) || openedBy.some((t) => normText(t) === normText(l.text));
      const question = confirmationOpen(lines) ? lines.find((l) => /\?\s*$/.test(l.text.trim())) : undefined;
      const belowQuestion = (l: OcrLine): boolean => !!question && l.box.y > question.box.y + question.box.h && l.box.y - question.box.y < 260;
      // (Nor when the button opened a page titled with its label, whose own button at the foot says it again: "Extend
      // trip" over the choices, "Extend trip" under them — that one submits the page.)
      const pageOwn = (l: OcrLine): boolean => !isHeader(l, screen) && lines.some((h) => h !== l && isHeader(h, screen) && normText(h.text) === normText(l.text));
      const cands: (Candidate & { scroll?: true })[] = [...candidates(lines, targets, min), ...(min >= 0.95 ? tokenCandidates(lines, targets) : []), ...(goal.stable ? prefixCandidates(lines, targets) : [])]
        .filter((c) => !((goal.nav || spec || goal.entity || goal.notTitle) && isHeader(c.line, screen)) && !(goal.entity && inSearchBox(c.line)))
        .filter((c) => !goal.row || onRowOf(c.line, lines, goal.row))
        // A verb's button, not a field label that starts with the verb ("Pay from", "Send to": a preposition ends it).
        .filter((c) => !(goal.words && /\s(?:from|to|for|with|at|on|by|via|into)$/i.test(c.line.text.trim())))
        // (Unless a confirmation now asks and this button is below its question: that is the dialog's, "Unlock X?" → "Unlock".)
        .filter((c) => !again(c.line) || belowQuestion(c.line) || pageOwn(c.line))
        .sort((a, b) => b.score - a.score);
      if (cands.length === 0 && goal.words?.length) {
        cands.push(...wordButtons(lines, goal.words, screen).filter((l) => !again(l) || belowQuestion(l) || pageOwn(l)).map((line) => ({ line, score: min })));
        // A sheet's button at the foot of the screen that echoes the choice ("Pay and extend by 1 hour"): up to six words.
        if (cands.length === 0 && goal.lowest) {
          const foot = lines
            .filter((l) => l.box.y > screen.height * 0.75 && !isHeader(l, screen) && !again(l) && !/\?\s*$/.test(l.text))
            .filter((l) => {
              const ws = l.text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? [];
              return ws.length >= 2 && ws.length <= 6 && ws.some((w) => goal.words!.includes(w)) && !/\s(?:from|to|for|with|at|on|by|via|into)$/i.test(l.text.trim());
            })
            .sort((a, b) => b.box.y - a.box.y)[0];
          if (foot) cands.push({ line: foot, score: min });
        }
      }
      if (goal.lowest && cands.length > 1) {
        const top = cands[0]!.score;
        const tied = cands.filter((c) => c.score >= top - 0.001).sort((a, b) => b.line.box.y - a.line.box.y);
        cands.splice(0, cands.length, ...tied);
      }
      // A numbered option OCR did not read (a single digit beside a radio circle): its place in the column of the
      // numbers that were read.
      const numbered = cands.length === 0 && goal.targets.length === 1 ? numberPoint(lines, goal.targets[0]!, screen) : undefined;
      if (numbered) {
        return {
          thought: `Step ${gi + 1} of ${n} ("${goal.text}"): "${goal.targets[0]}" is not legible, but it belongs in the column of numbered options that are; tapping its place.`,
          conclusion: `Tapped "${goal.targets[0]}". ${tag('done')}`,
          action: { action: 'click', coordinate: numbered },
        };
      }
      // Equal matches told apart by a day beside them ("Spin 45" on Tuesday's row and on Thursday's).
      if (goal.near?.length && cands.length > 1) {
        const top = cands[0]!.score;
        const nearOf = (c: Candidate): boolean =>
          lines.some(
            (l) =>
              l !== c.line &&
              // (Under it, or on its row to its left: a person's name beside that person's button.)
              ((l.box.y >= c.line.box.y - 10 && l.box.y - (c.line.box.y + c.line.box.h) < 40) || (Math.abs(l.box.y + l.box.h / 2 - (c.line.box.y + c.line.box.h / 2)) < 25 && l.box.x + l.box.w < c.line.box.x)) &&
              goal.near!.some((d) => new RegExp(`\\b${d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(l.text)),
          );
        const dated = cands.find((c) => c.score >= top - 0.001 && nearOf(c));
        if (dated) {
          cands.splice(cands.indexOf(dated), 1);
          cands.unshift(dated);
        }
      } else if (cands.length > 1 && cands.filter((c) => c.score >= cands[0]!.score - 0.001).length > 1) {
        // The same button on several rows ("Reading due" beside Electricity, Gas and Water): the one on the row of a
        // thing the request names — a line on its row, left of it, that says the thing ("Gas").
        const top = cands[0]!.score;
        const things = instructionEntities(requestCore(input.instruction)).filter((e) => !namesTheApp(input.instruction, e) && !goal.targets.some((t) => normText(t) === normText(e)) && !/^\d{1,2}$/.test(e.trim()));
        const said = (l: OcrLine): boolean => things.some((e) => new RegExp(`\\b${e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(l.text));
        const onItsRow = (c: Candidate): boolean => lines.some((l) => l !== c.line && Math.abs(l.box.y + l.box.h / 2 - (c.line.box.y + c.line.box.h / 2)) < 25 && l.box.x + l.box.w < c.line.box.x && said(l));
        // (A list of things of one name — the same job title at several employers —: the one whose card, the lines right
        // under it in its column, says another name of the request.)
        const inItsCard = (c: Candidate): boolean =>
          !!goal.entity && lines.some((l) => l !== c.line && l.box.y > c.line.box.y && l.box.y - (c.line.box.y + c.line.box.h) < 45 && Math.abs(l.box.x - c.line.box.x) < 24 && said(l));
        const tied = cands.filter((c) => c.score >= top - 0.001);
        const owned = tied.filter((c) => onItsRow(c) || inItsCard(c));
        if (owned.length === 1) {
          cands.splice(cands.indexOf(owned[0]!), 1);
          cands.unshift(owned[0]!);
        }
      }
      // A thing the request names by the start of its name ("Climbing" for the "Climbing crew" group, "Hannah" for
      // "Hannah Kim"): the one line here that starts with it and says at most two words more (no number) is the thing.
      if (goal.entity && !cands.some((c) => c.score >= 0.95)) {
        const tw = goal.targets[0]!.trim().split(/\s+/);
        const tabs = tabRow(lines, screen);
        const ext = lines.filter((l) => {
          const lw = l.text.trim().split(/\s+/);
          return tw.length <= 2 && lw.length > tw.length && lw.length <= tw.length + 2 && normText(lw.slice(0, tw.length).join(' ')) === normText(tw.join(' ')) && !/\d/.test(lw.slice(tw.length).join(' ')) && !/[?:]$/.test(l.text.trim()) && !isHeader(l, screen) && !inSearchBox(l) && !tabs.includes(l);
        });
        // (A name of two words or more goes on only with a capitalised word — "Airport taxi back" is another thing than
        // "Airport taxi"; among several lines, the one that goes on with a capitalised name: "Hannah Kim", not "Hannah
        // owes you".)
        const named = (l: OcrLine): boolean => l.text.trim().split(/\s+/).slice(tw.length).every((w) => /^[A-Z]/.test(w));
        const fits = tw.length >= 2 ? ext.filter(named) : ext.length > 1 ? ext.filter(named) : ext;
        if (fits.length === 1) cands.unshift({ line: fits[0]!, score: 0.95 });
      }
      // The name just typed into a search box shows there and among the results: the box (the topmost) is no result.
      // (Not when the box was told apart already, by the "Search" button on its row.)
      const boxSeen = lines.some((l) => inSearchBox(l) && matchScore(l.text, goal.targets[0]!) >= 0.95);
      if (goal.entity && !boxSeen && history.some((c) => c.includes(`Typed "${goal.targets[0]}" into the search`))) {
        const exact = cands.filter((c) => c.score >= 0.95);
        const top = exact.length ? exact.reduce((a, b) => (a.line.box.y <= b.line.box.y ? a : b)) : undefined;
        // (Alone, it is still the box when it is the page's first line under the title: the search found nothing.)
        const first = lines.filter((l) => !isHeader(l, screen) && l.box.y > screen.height * 0.05).sort((a, b) => a.box.y - b.box.y)[0];
        if (top && (exact.length >= 2 || (top.line === first && top.line.box.y < screen.height * 0.2))) cands.splice(cands.indexOf(top), 1);
      }
      // A person the request acts with ("Settle up with Sam in Climbing crew"), not in view, while the next step's own
      // button is ("Settle up" on the group's page): that button first; the person is chosen on the page it opens, and
      // the next step counts as done ([action first]).
      const nextGoal = goals[gi + 1];
      if (goal.entity && goal.counterpart && !cands.some((c) => c.score >= 0.95) && nextGoal?.kind === 'tap' && nextGoal.words && !history.some((c) => c.includes(`[action first ${gi + 2}]`))) {
        const tabs = tabRow(lines, screen);
        const button = candidates(lines, nextGoal.targets, 0.95)
          .map((c) => c.line)
          .find((l) => !isHeader(l, screen) && !tabs.includes(l) && l.text.trim().split(/\s+/).length <= 3 && !/\d/.test(l.text));
        if (button) {
          return clickOn(
            button,
            `Step ${gi + 1} of ${n} ("${goal.text}"): "${goal.targets[0]}" is not in view, but "${button.text}" — the next step's button — is; tapping it first, then choosing "${goal.targets[0]}" on the page it opens.`,
            `Tapped "${button.text}" first, to choose "${goal.targets[0]}" there. [action first ${gi + 2}] ${tag('action first')}`,
          );
        }
      }
      // A dialog that asks about the request's own verb ("Cancel this booking?" — "Cancel" / "Yes, cancel"): its bare
      // "Cancel" backs out; the affirmative button confirms.
      if (goal.repeatLast && cands.length > 0 && /^(?:cancel|no|not now|keep(?: \w+){0,2}|go back|never ?mind|dismiss)$/i.test(cands[0]!.line.text.trim())) {
        const aff = affirmative(lines);
        if (aff && aff.yes !== cands[0]!.line) cands.unshift({ line: aff.yes, score: cands[0]!.score });
      }
      const best = cands[0];
      if (best && best.score < 0.95 && temperature > 0) cands.push({ line: best.line, score: 0.5, scroll: true });
      // After a forward button, the last page's button may name the task's thing rather than its verb ("Start parking").
      // (A button of two or three words, the lowest such: "Start parking", not the "Parking" line of a price list.)
      if (cands.length === 0 && goal.after?.length && sub.forwards > 0) {
        const final = wordButtons(lines, goal.after, screen)
          .filter((l) => !FORWARD.test(l.text.trim()) && l.text.trim().split(/\s+/).length >= 2)
          .sort((a, b) => b.box.y - a.box.y)[0];
        if (final) cands.push({ line: final, score: min });
      }
      const chosen = pick(cands, temperature, random);
      if (!chosen || chosen.scroll) return advance(goal) ?? notFound(`"${goal.targets[0]}"`);
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
        // The bar's own "Search" button where it has one (the text typed shows in its input); else the keyboard's Enter.
        const typedIn = lines.find((l) => !isHeader(l, screen) && matchScore(l.text, goal.value) >= 0.9);
        const button = goal.field === 'search' && typedIn ? searchButtonOf(typedIn, lines) : undefined;
        if (button) return clickOn(button, `Step ${gi + 1} of ${n}: typed "${goal.value}"; running the search with "${button.text}".`, `Tapped "${button.text}" to search for "${goal.value}". ${tag('done')}`);
        return { thought: `Step ${gi + 1} of ${n}: typed "${goal.value}"; submitting it.`, conclusion: `Pressed Enter to search for "${goal.value}". ${tag('done')}`, action: { action: 'system_button', button: 'Enter' } };
      }
      if (sub.focused && goal.replace && !sub.cleared) {
        // `type` appends: delete what the field holds first (caret to the end, then backspaces; adb keyevent syntax).
        return {
          thought: `Step ${gi + 1} of ${n}: the ${goal.field ?? 'input'} field is focused and may hold old text; deleting it before typing "${goal.value}".`,
          conclusion: `Cleared the ${goal.field ?? 'focused'} field. ${tag('cleared')}`,
          action: { action: 'key', text: CLEAR_FIELD_KEYS },
        };
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
      // A search bar whose placeholder names what it finds ("Job title or company") beside its "Search" button.
      const bar = field === 'search' && !goal.words ? searchBox(lines, screen) : undefined;
      if (bar && !fieldCands.some((c) => c.line === bar)) fieldCands.push({ line: bar, score: 0.95 });
      // (A bare "Search" in the app's tab bar is no field: it opens the page that has one — once.)
      const searchTab = field === 'search' ? tabRow(lines, screen).find((l) => /^search$/i.test(l.text.trim())) : undefined;
      const tabTried = sub.tabs.includes('search tab');
      const chosen = pick(fieldCands.filter((c) => !(field === 'search' && /^(?:search|go|find)$/i.test(c.line.text.trim()) && (bar || c.line === searchTab))), temperature, random);
      if (!chosen && searchTab && !tabTried) {
        return clickOn(searchTab, `Step ${gi + 1} of ${n} ("${goal.text}"): no search field here, but the app's "${searchTab.text}" tab has one; opening it.`, `Opened the "${searchTab.text}" tab to search. ${tag('tab search tab')}`);
      }
      if (!chosen) return notFound(`the ${field} field`);
      return clickOn(
        chosen.line,
        `Step ${gi + 1} of ${n} ("${goal.text}"): the ${field} field is labelled "${chosen.line.text}"; tapping it to focus before typing.`,
        `Tapped the ${field} field "${chosen.line.text}". ${tag('focused')}`,
      );
    }
    case 'field': {
      // A form's value into the field that fits it (policy-form.ts): tap it, then pick the value or type it.
      const lm = TAG.exec(history[history.length - 1] ?? '');
      const st = fieldStep(goal.values, goal.index, lines, screen, lm && Number(lm[1]) - 1 === gi ? lm[4] : undefined, input.steppers);
      const head = `Step ${gi + 1} of ${n} ("${goal.text}"): `;
      if (st.do === 'notFound') return notFound(st.what);
      if (st.do === 'kept') {
        const kept = `${st.thought} [kept ${st.value}] ${tag('done')}`;
        const next = planStep({ ...input, history: [...history, kept] });
        return { thought: `${head}${st.thought} ${next.thought}`, conclusion: `[kept ${st.value}] ${next.conclusion}`, action: next.action };
      }
      if (st.do === 'defer') {
        // Nothing to do for it on this page: go on with the next step on this very screen.
        const left = `Left "${st.value}" for a later page of the form. [deferred ${st.value}] ${tag('done')}`;
        const next = planStep({ ...input, history: [...history, left] });
        return { thought: `${head}no field on this page takes "${st.value}"; it is chosen on a later page. ${next.thought}`, conclusion: `[deferred ${st.value}] ${next.conclusion}`, action: next.action };
      }
      // (A field that holds the old value — an edit — is cleared first: `type` appends.)
      const state = lm && Number(lm[1]) - 1 === gi ? lm[4] : undefined;
      if (st.do === 'type' && goal.replace && state && !/ cleared$/.test(state)) {
        return { thought: `${head}the field holds the old value; deleting it before typing "${st.text}".`, conclusion: `Cleared the field. ${tag(`${state.replace(/ pick \d+$/, '')} cleared`)}`, action: { action: 'key', text: CLEAR_FIELD_KEYS } };
      }
      if (st.do === 'type') return { thought: head + st.thought, conclusion: `${st.conclusion} ${tag('done')}`, action: { action: 'type', text: st.text } };
      if (st.do === 'swipe') {
        const x = Math.round(screen.width / 2);
        return { thought: head + st.thought, conclusion: `${st.conclusion} ${tag(st.state)}`, action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.7)], coordinate2: [x, Math.round(screen.height * 0.4)] } };
      }
      const at = st.line ? pointIn(st.line, screen, temperature, random) : st.point!;
      return { thought: head + st.thought, conclusion: `${st.conclusion} ${tag(st.state)}`, action: { action: 'click', coordinate: at } };
    }
    case 'submit': {
      const b = submitButton(lines, screen, goal.verbs, contentWords(requestCore(input.instruction)));
      if (!b) return notFound("the form's submit button");
      return clickOn(b, `Step ${gi + 1} of ${n}: every value is in its field; submitting the form with "${b.text}".`, `Tapped "${b.text}". ${tag('done')}`);
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
      const want = goal.on ? 'on' : 'off';
      if (goal.byLabel && goal.label) {
        // An app feature: the switch whose label its words name, wherever it is (the tab walk finds its screen).
        const own = labelledSwitch(lines, switches, goal.label, screen);
        if (!own) return notFound(`the "${goal.target}" switch`);
        return {
          thought: `Step ${gi + 1} of ${n} ("${goal.text}"): the "${own.label.text}" switch is ${own.sw.on ? 'on' : 'off'}; tapping it to turn it ${want}.`,
          conclusion: `Tapped the "${own.label.text}" switch to turn it ${want}. ${tag('done')}`,
          action: { action: 'click', coordinate: [Math.round(own.sw.x + own.sw.w / 2), Math.round(own.sw.y + own.sw.h / 2)] },
        };
      }
      const row = pick(rowCandidates(lines, goal.target, screen), temperature, random);
      const sw = row ? switchOf(row.line, switches) : undefined;
      // On the thing's own page (opened from its row, or titled with its name): the switch its label words name, or the
      // page's only switch when the request names none.
      const onPage = sub.opened || onPageOf(lines, goal.target, screen);
      if (!sw && onPage && !goal.label?.length && switches.length === 1) {
        const only = switches[0]!;
        return {
          thought: `Step ${gi + 1} of ${n} ("${goal.text}"): this is the page of "${goal.target}"; its one switch is ${only.on ? 'on' : 'off'}; tapping it to turn it ${want}.`,
          conclusion: `Tapped the switch of "${goal.target}" to turn it ${want}. ${tag('done')}`,
          action: { action: 'click', coordinate: [Math.round(only.x + only.w / 2), Math.round(only.y + only.h / 2)] },
        };
      }
      if (!sw && goal.label?.length && onPage) {
        const own = labelledSwitch(lines, switches, goal.label, screen);
        if (own) {
          return {
            thought: `Step ${gi + 1} of ${n} ("${goal.text}"): this is the page of "${goal.target}"; its "${own.label.text}" switch is ${own.sw.on ? 'on' : 'off'}; tapping it to turn it ${want}.`,
            conclusion: `Tapped the "${own.label.text}" switch of "${goal.target}" to turn it ${want}. ${tag('done')}`,
            action: { action: 'click', coordinate: [Math.round(own.sw.x + own.sw.w / 2), Math.round(own.sw.y + own.sw.h / 2)] },
          };
        }
      }
      if (!row) return notFound(`the "${goal.target}" switch`);
      // The name shows without a switch (the things' own list): the screen of their switches is elsewhere — a section
      // whose label says only what the request says ("Reminders"; not a badge like "Good service") — or, for a switch
      // named by its own words, the thing's own page, opened by tapping its row.
      const sectionOnly = (l: OcrLine): boolean => stemWords(l.text).every((w) => requestStems.has(w));
      const elsewhere = !sw && goal.viaFirst && goal.via && sub.via < 1 && !sub.opened ? viaLine(lines, goal.via, screen) : undefined;
      if (elsewhere && elsewhere !== row.line && (!goal.label || sectionOnly(elsewhere))) {
        return clickOn(elsewhere, `Step ${gi + 1} of ${n} ("${goal.text}"): "${row.line.text}" shows here without a switch; "${elsewhere.text}" should list its switch.`, `Opened "${elsewhere.text}" to look for the "${goal.target}" switch. ${tag(`via ${sub.via + 1}`)}`);
      }
      // A list of things without switches (no switch on screen at all): each thing's own page holds its switch.
      if (!sw && !sub.opened && (goal.label?.length || (switches.length === 0 && !goal.via?.length))) {
        return clickOn(row.line, `Step ${gi + 1} of ${n} ("${goal.text}"): "${row.line.text}" shows here without a switch; its own page should hold its ${goal.label?.join(' ') ?? ''} switch; opening it.`.replace(/ {2}/g, ' '), `Opened "${row.line.text}" to find its switch. ${tag('opened item')}`);
      }
      const at: [number, number] = sw
        ? [Math.round(sw.x + sw.w / 2), Math.round(sw.y + sw.h / 2)]
        : [Math.round(screen.width - 44), Math.round(row.line.box.y + row.line.box.h / 2)];
      // Other rows show their switches but this one's right edge is under another control (a floating "+ Add" button
      // over the list's last row): tapping there would press that control. The list is scrolled up once to clear it.
      const covering = !sw && switches.length > 0 ? lines.find((l) => l !== row.line && l.box.x <= at[0] + 8 && l.box.x + l.box.w >= at[0] - 8 && Math.abs(l.box.y + l.box.h / 2 - at[1]) < 36) : undefined;
      if (covering && sub.scrolls < 1) {
        const x = Math.round(screen.width / 2);
        return {
          thought: `Step ${gi + 1} of ${n} ("${goal.text}"): the switch of "${row.line.text}" is hidden under "${covering.text}"; scrolling the list up to bring it clear.`,
          conclusion: `Swiped up to uncover the switch of "${row.line.text}". ${tag(`scroll ${sub.scrolls + 1} #${screenSig(lines, screen)}`)}`,
          action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.6)], coordinate2: [x, Math.round(screen.height * 0.35)] },
        };
      }
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): the row "${row.line.text}" ${sw ? `has a switch that is ${sw.on ? 'on' : 'off'}` : 'has its switch at the right edge'}; tapping it to turn it ${want}.`,
        conclusion: `Tapped the switch of "${row.line.text}" to turn it ${want}. ${tag('done')}`,
        action: { action: 'click', coordinate: at },
      };
    }
    case 'fill': {
      // A picker's dialog still open over the form after the last value was chosen in it ("OK" beside "Cancel"): its
      // choice is confirmed before the next field is looked for.
      if (!sub.opened && /^(?:\[[^\]]*\]\s*)*Chose "/.test(history[history.length - 1] ?? '') && lines.some((l) => /^cancel$/i.test(l.text.trim()))) {
        const ok = lines.find((l) => !isHeader(l, screen) && /^(?:ok|done|set|apply)$/i.test(l.text.trim()));
        if (ok) return clickOn(ok, `Step ${gi + 1} of ${n} ("${goal.text}"): the picker of the last value is still open; confirming its choice with "${ok.text}".`, `Tapped "${ok.text}" to close the picker. ${tag('via 0')}`);
      }
      const f = fieldOf(lines, goal.hints, goal.value, screen, goal.avoid, goal.minShared);
      // (Never a tab of the app's bar: "Today" the tab is no answer to "When?".)
      const tabs = tabRow(lines, screen);
      const options = [...lines, ...wrappedLines(lines)].filter((l) => !isHeader(l, screen) && l !== f?.value && !tabs.includes(l) && (matchScore(l.text, goal.value) >= 0.95 || sameDate(l.text, goal.value) || dayCell(l, goal.value, lines)));
      // Once the picker is open, OCR may drop a letter of the option ("Riverside Mal"): the one clearly best near match.
      const near = sub.opened && options.length === 0 ? candidates(lines, [goal.value], 0.85).filter((c) => !isHeader(c.line, screen) && c.line !== f?.value).sort((a, b) => b.score - a.score) : [];
      if (near[0] && (near.length === 1 || near[0].score - near[1]!.score >= 0.05)) options.push(near[0].line);
      // The field's own options shown under its label (chips, a segmented control: "Starch" over "None  Light  Medium"):
      // the one under this label, not a same-named option of another field ("Medium" under "Dryer heat").
      const under = f ? options.filter((o) => o.box.y > f.label.box.y && o.box.y - (f.label.box.y + f.label.box.h) < 70).sort((a, b) => a.box.y - b.box.y)[0] : undefined;
      if (under && !sub.opened) return clickOn(under, `Step ${gi + 1} of ${n} ("${goal.text}"): "${under.text}" is offered under "${f!.label.text}"; choosing it.`, `Chose "${under.text}". ${tag('done')}`);
      const opt = options.sort((a, b) => b.box.y - a.box.y)[0];
      // The value offered among the answers to a question the screen asks ("When?" over "Today  Yesterday  2 days
      // ago"): chosen there, whatever field the request's words point at.
      const asked = opt && lines.find((l) => l !== opt && /\?\s*$/.test(l.text) && l.text.trim().split(/\s+/).length <= 6 && l.box.y < opt.box.y && opt.box.y - (l.box.y + l.box.h) < 70);
      if (opt && asked && !sub.opened && asked !== f?.label) return clickOn(opt, `Step ${gi + 1} of ${n} ("${goal.text}"): "${opt.text}" is offered under "${asked.text}"; choosing it.`, `Chose "${opt.text}". ${tag('done')}`);
      // (Also when the field's own button was just tapped: its options are open in front of it.)
      const fieldJustTapped = !!f && new RegExp(`Tapped "${f.label.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`).test(history[history.length - 1] ?? '');
      // (And a date offered in a list of dates: the options are the page itself.)
      if (opt && (sub.opened || !f || fieldJustTapped || ((sameDate(opt.text, goal.value) || dayCell(opt, goal.value, lines)) && f.value !== opt))) return clickOn(opt, `Step ${gi + 1} of ${n} ("${goal.text}"): "${opt.text}" is offered; choosing it.`, `Chose "${opt.text}". ${tag('done')}`);
      // A recurrence no label names in the request's words ("feed it every 6 weeks" beside "Fertilize"): the field that
      // now shows a value of the same shape ("Every 4 weeks") takes it.
      const shape = /^every\s+(?:\d+\s+)?([a-z]+?)s?$/i.exec(goal.value.trim());
      if (!f && !opt && shape && !sub.opened && sub.via === 0 && sub.scrolls === 0 && sub.backs === 0) {
        const like = lines.filter((l) => !isHeader(l, screen) && new RegExp(`^every\\s*\\d+\\s*${shape[1]}s?\\b`, 'i').test(l.text.trim()) && !chosenBefore.some((c) => normText(c) === normText(l.text)));
        if (like.length === 1) return clickOn(like[0]!, `Step ${gi + 1} of ${n} ("${goal.text}"): no label says the request's words, but "${like[0]!.text}" is the one value of this shape here; opening it.`, `Opened the field "${like[0]!.text}". ${tag('opened item')}`);
      }
      // A list of times open (a picker's dialog) without the value: scrolled toward it, the list being in order.
      const want = clockMinutes(goal.value);
      if (sub.opened && !opt && want !== undefined && sub.steps < 10) {
        const times = lines.filter((l) => !isHeader(l, screen) && clockMinutes(l.text) !== undefined);
        const mins = times.map((l) => clockMinutes(l.text)!);
        if (times.length >= 3 && (want > Math.max(...mins) || want < Math.min(...mins))) {
          const later = want > Math.max(...mins);
          const x = Math.round(times.reduce((a, l) => a + l.box.x + l.box.w / 2, 0) / times.length);
          const top = Math.min(...times.map((l) => l.box.y));
          const bottom = Math.max(...times.map((l) => l.box.y + l.box.h));
          // (As far as the value lies: rows to pass = minutes to go ÷ the list's step, times the row height — one long
          // drag from the list's far edge, at most the screen's height.)
          const sorted = [...times].sort((a, b) => a.box.y - b.box.y);
          const gaps = sorted.slice(1).map((l, i) => ({ dy: l.box.y - sorted[i]!.box.y, dm: clockMinutes(l.text)! - clockMinutes(sorted[i]!.text)! })).filter((g) => g.dy > 0 && g.dm > 0);
          const row = gaps.length ? gaps.map((g) => g.dy).sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 49;
          const step = gaps.length ? gaps.map((g) => g.dm).sort((a, b) => a - b)[Math.floor(gaps.length / 2)]! : 30;
          const rows = (later ? want - Math.max(...mins) : Math.min(...mins) - want) / step;
          const px = Math.max(bottom - top, rows * row + (bottom - top) / 2);
          const [from, to] = later ? [bottom - 4, Math.max(12, bottom - 4 - px)] : [top + 4, Math.min(screen.height - 12, top + 4 + px)];
          return {
            thought: `Step ${gi + 1} of ${n} ("${goal.text}"): the list of times shows ${times[0]!.text} to ${times[times.length - 1]!.text}; "${goal.value}" is ${later ? 'further down' : 'further up'}: scrolling the list.`,
            conclusion: `Scrolled the times ${later ? 'down' : 'up'} for "${goal.value}". ${tag(`step ${sub.steps + 1}`)}`,
            action: { action: 'swipe', coordinate: [x, Math.round(from)], coordinate2: [x, Math.round(to)] },
          };
        }
      }
      if (f && !sub.opened) {
        const target = f.value ?? f.label;
        return clickOn(target, `Step ${gi + 1} of ${n} ("${goal.text}"): the field "${f.label.text}" takes this value${f.value ? ` (now "${f.value.text}")` : ''}; opening it.`, `Opened the field "${f.label.text}". ${tag('opened item')}`);
      }
      // No field and no option for it here, just after the last value was chosen on this page, and the page goes on with a
      // forward button ("Continue" under "Step 1 of 3"): the value is asked on the next page.
      const justChose = gi > 0 && new RegExp(`^Chose "[^"]*"\\.\\s.*\\[goal ${gi}/${n} done\\]`).test(history[history.length - 1] ?? '');
      if (!f && !opt && justChose && sub.forwards < 2 && !sub.opened) {
        const fwd = lines.filter((l) => !isHeader(l, screen) && FORWARD.test(l.text.trim())).sort((a, b) => b.box.y - a.box.y)[0];
        if (fwd) return clickOn(fwd, `Step ${gi + 1} of ${n} ("${goal.text}"): "${goal.value}" is not asked on this page; the last value was chosen here and "${fwd.text}" goes on to the next page.`, `Tapped "${fwd.text}". ${tag(`forward ${sub.forwards + 1}`)}`);
      }
      // No field and no option for it here, but a menu of what to do next: the row that says most of the request
      // ("Deliver on another day" for "Move my X delivery to Tuesday", "Pick up at a … Point" for "… pickup point").
      const removal = REMOVAL_REQUEST.test(requestCore(input.instruction));
      if (!f && !opt && !goal.via && sub.via === 0 && sub.scrolls === 0 && sub.backs === 0 && !(removal && isDateEntity(goal.value))) {
        const own = new Set([...contentWords(goal.value), ...(goal.avoid ?? []).flatMap((a) => contentWords(a))]);
        const want = contentWords(requestCore(input.instruction)).filter((w) => !own.has(w));
        const fit = (l: OcrLine): number => new Set(contentWords(l.text).filter((w) => want.some((x) => stemEq(x, w)))).size;
        const rows = lines
          .filter((l) => !isHeader(l, screen) && !/\d/.test(l.text) && (l.text.match(/[A-Za-z]+/g) ?? []).length <= 6 && !/[?]\s*$/.test(l.text) && !tabRow(lines, screen).includes(l))
          .map((l) => ({ l, k: fit(l) }))
          .filter((r) => r.k > 0)
          .sort((a, b) => b.k - a.k || a.l.box.y - b.l.box.y);
        if (rows[0]) return clickOn(rows[0].l, `Step ${gi + 1} of ${n} ("${goal.text}"): no field takes "${goal.value}" here; "${rows[0].l.text}" is the choice that fits the request.`, `Opened "${rows[0].l.text}" to set "${goal.value}". ${tag('via 1')}`);
      }
      // A date that only told which thing was meant ("cancel X on Wednesday"): no field here takes it, nothing to fill.
      if (!f && !opt && (isDateEntity(goal.value) || clockMinutes(goal.value) !== undefined)) {
        const next = planStep({ ...input, history: [...history, `No field takes "${goal.value}" here: it named the thing. ${tag('done')}`] });
        return { thought: `"${goal.value}" told which thing was meant; no field takes it. ${next.thought}`, conclusion: `No field takes "${goal.value}". ${next.conclusion}`, action: next.action };
      }
      return notFound(`the value "${goal.value}"`);
    }
    case 'choose': {
      if (sub.opened) {
        // (A range a row states — "0 to 10" under "Media volume" — is a hint, never an option: its end is no value.)
        const ranges = lines.filter((l) => RANGE_HINT.test(l.text.trim()));
        const inRange = (c: OcrLine): boolean => ranges.some((r) => { const x = c.box.x + c.box.w / 2, y = c.box.y + c.box.h / 2; return x >= r.box.x && x <= r.box.x + r.box.w && y >= r.box.y && y <= r.box.y + r.box.h; });
        const opts = [...candidates(lines, [goal.value], 0.95), ...tokenCandidates(lines, [goal.value])].filter((c) => !isHeader(c.line, screen) && !inRange(c.line)).sort((a, b) => b.score - a.score);
        const opt = pick(opts, temperature, random);
        if (opt) return clickOn(opt.line, `Step ${gi + 1} of ${n} ("${goal.text}"): the options are open; choosing "${opt.line.text}".`, `Chose "${opt.line.text}" for ${goal.setting}. ${tag('done')}`);
        // (What opened was the setting's own row with a stepper: no list of options, the stepper below sets it.)
        const own = rowCandidates(lines, goal.setting, screen)[0];
        if (sub.scrolls < 2 && !(own && stepperOf(own.line, lines))) return notFound(`the option "${goal.value}"`);
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

