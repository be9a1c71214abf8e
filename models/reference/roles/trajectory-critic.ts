import sharp from 'sharp';
import { type Action } from '../../../domain/action.js';
import { messageText } from '../../../domain/openai.js';
import type { ChatMessage } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { OcrLine, RoleHandler } from '../types.js';
import { DICTATED_LAST, entityEnd, instructionEntities, intentText, namesTheApp, requestCore } from './intent.js';
import { formRejected, namedItemsMissingFromResult, nearDuplicateOnResult, newResultLine, offeredAction, openConfirmation, quantityMismatch, resultNamesOther, screenChange, typedMergedValues, unitPriceForCount, unrequestedCartChange, unsubmittedForm } from './evidence.js';
import { reportedResult } from './reported-result.js';
import { containsPhrase, contentTokens, DATED_EARLIER, IMPERATIVES, tokens } from './text-match.js';
import { desktopCompletion, isDesktopSteps } from './desktop-evidence.js';
import { isVerb } from '../wordnet.js';
import { REVERT, decodeDataUrl, groundEntities, lastUser, ocrScreen, parseAction, quote, reply, sections } from './critic-screen.js';

/** The reference trajectory critics (text and multimodal): see critics.ts for their rules. */

interface Intent {
  name: string;
  when: RegExp;
  done: RegExp;
  kind: 'signal' | 'removal' | 'state' | 'create' | 'toggle';
}

const INTENTS: readonly Intent[] = [
  {
    name: 'add to cart',
    when: /\b(add|put)\b.*\b(cart|basket|bag)\b/i,
    done: /added to (your |the )?(cart|basket|bag)|\b(your (cart|basket|bag)|cart \(\d+\)|view cart|in (your|the) cart|shopping cart)\b/i,
    kind: 'signal',
  },
  {
    name: 'order',
    when: /\b(order|buy|purchase|check ?out|get me|pay(ing)? (with|by))\b/i,
    done: /\border (placed|confirmed|received|complete|completed|submitted|successful)\b|thank you for your order|purchase (complete|successful)|order #\s?\w+|payment (successful|complete)/i,
    kind: 'signal',
  },
  // ("Pay the X invoice … and add a 20% tip": the payment is the request, the tip a detail of it.)
  {
    name: 'pay',
    when: /^\s*(?:please\s+)?(?:pay|settle)\b/i,
    done: /\b(?:payment (?:sent|successful|complete|completed|received|confirmed)|paid successfully|you paid|thanks for your payment)\b/i,
    kind: 'signal',
  },
  { name: 'verify', when: /\bverify\b/i, done: /\b(verified|verification (complete|successful))\b/i, kind: 'signal' },
  { name: 'pin', when: /\bpin\b/i, done: /\b(pinned|unpin)\b/i, kind: 'state' },
  { name: 'favourite', when: /\bfavou?rites?\b/i, done: /\b(favou?rited|remove from favou?rites|added to favou?rites|unfavou?rite)\b/i, kind: 'state' },
  { name: 'archive', when: /\barchive\b/i, done: /\barchived\b/i, kind: 'removal' },
  // ("Pull my application" withdraws it; "pull up my statement" only shows it.)
  { name: 'delete', when: /\b(delete|remove|erase|clear|cancel|get rid of|withdraw|retract|pull(?!\s+(?:up|over|into|out|in)\b))\b/i, done: /\b(deleted|removed|cleared|cancell?ed|withdrawn|retracted)\b/i, kind: 'removal' },
  { name: 'book', when: /\b(book|reserve)\b/i, done: /\b(booked|reserved|scheduled|confirmed|reservation confirmed|booking confirmed)\b/i, kind: 'signal' },
  { name: 'send', when: /\b(send|reply|email|post|text|message)\b/i, done: /\b(sent|delivered|posted)\b/i, kind: 'signal' },
  {
    name: 'toggle',
    // (Also a verbless request that ends in a switch position: "Blue Line service alerts on".)
    when: /\b(turn|switch|enable|disable|toggle)\b|^[^.?!]*\s(?:on|off)(?:,?\s+please)?[.!]?\s*$/i,
    done: /\b(on|off|enabled|disabled)\b/i,
    kind: 'toggle',
  },
  { name: 'create', when: /\b(save|create|add|new|note|make|jot|write|schedule)\b/i, done: /\b(saved|created|added|scheduled)\b/i, kind: 'create' },
];

const QUESTION = /^\s*(what|how|which|when|who|where|is|are|does|do|can|tell me)\b|\?\s*$/i;
/**
 * A polite request phrased as a question ("Could you delete my note X?", "Can I ask you to …?") asks for an
 * action, not an answer — unless what it asks is to tell or find out something.
 */
const REQUEST_QUESTION = /(?:^|[.!?:]\s+)(?:could|can|would|will)\s+(?:you|i ask you to)\s+(?:please\s+)?(?!tell\b|say\b|let me know\b|find out\b|check (?:if|whether|what|how|when)\b)\w+/i;

/** Whether the instruction asks a question (to be answered) rather than for an action. */
export function asksQuestion(instruction: string): boolean {
  // Quoted texts are dictated, not asked ('body "Are you free?"'); a question followed by a request ("What's on
  // the menu at X? Open it.") asks for the request: the last sentence decides.
  // (So is a text said last after "that reads:" / "saying": "…, that reads: Are you free on Saturday?".)
  const unquoted = instruction.replace(/["“”][^"“”]*["“”]/g, '""').replace(DICTATED_LAST, '""').trim();
  const last = unquoted.split(/(?<=[.!?])\s+(?=[\p{Lu}"“])/u).pop() ?? unquoted;
  return QUESTION.test(last) && !REQUEST_QUESTION.test(last);
}

/**
 * What the critics read from an instruction, independent of the screens: the entities to find, the intent
 * (one of `INTENTS`, read from the text without the entities and quoted texts), whether it is a question, a
 * setting/value request and a requested switch state. Exported so that a test can prove that rewording a
 * request (frames, politeness, context sentences) leaves this reading unchanged.
 */
export function readRequest(raw: string): {
  entities: string[];
  intent: string | undefined;
  question: boolean;
  setting: { setting: string; value: string } | undefined;
  state: SwitchState | undefined;
} {
  const instruction = requestCore(raw);
  const entities = instructionEntities(instruction).filter((e) => tokens(e).length > 0);
  const said = intentText(instruction, entities);
  return {
    entities,
    intent: INTENTS.find((i) => i.when.test(said))?.name,
    question: asksQuestion(instruction),
    setting: settingRequest(instruction),
    state: requestedState(instruction),
  };
}
/** Verbs of looking: a request with one is done by showing the page. */
const LOOK_VERBS = /^(?:open|show|view|see|find|check|look|go|browse|search|display|read|get|pull|bring|navigate|take)$/;
/** Controls that commit a form. */
const COMMIT = /^(save|create|add|done|submit|post|send|ok|confirm|apply|verify)\b/i;
/** Controls that carry out a removal. */
const REMOVE_CONTROL = /^(delete|remove|archive|clear|discard|yes|ok|confirm|cancel event|withdraw|retract)\b/i;
/** Step-summary words that mark a harmful step (the step critic's HARMFUL summaries use them). */
const HARM_MARK = /\b(instead of|off-task|wrong|by mistake|mistaken|undoing|not requested)\b/i;

type SwitchState = 'on' | 'off';

interface TrajectoryEvidence {
  instruction: string;
  summaries: string[];
  /** Each step's action where it could be read from the request. */
  actions: (Action | undefined)[];
  /** Text of every screen in order (screen 0 = initial), the final one last. */
  screens: string[];
  /** The final screen's text lines, top to bottom. */
  finalLines: string[];
  outcome: string | undefined;
  /** Multimodal channel: the switch position drawn on the final screen beside a line (undefined: none seen). */
  switchBeside?: (lineText: string) => SwitchState | undefined;
  /** Multimodal channel: share of the app area that differs between the first and the final screenshot. */
  pixelChange?: number;
  /** A desktop trajectory (its steps speak the desktop action space): completion from desktop evidence. */
  desktop?: boolean;
  /** Multimodal channel: OCR lines with boxes of the first and final screenshots (desktop grid reading). */
  firstOcr?: OcrLine[];
  finalOcr?: OcrLine[];
}

/** Below this share of changed app area, the final screenshot shows nothing the first did not. */
const UNCHANGED = 0.005;

interface TrajectoryDecision {
  correct: boolean;
  score: number;
  reasoning: string;
}

/** The quoted object of a step summary's action part: 'Tapped "X"', 'Tapped the row of "X"', 'Typed "X"', 'Clicked "X"' (desktop). */
function summaryAction(summary: string): { verb: string; object: string; changed: boolean } | undefined {
  const did = summary.split(';')[0] ?? '';
  const m = /^(Tapped|Clicked|Double-clicked|Long-pressed|Right-clicked|Typed|Opened|Answered)(?: the row of)? "([^"]*)"/.exec(did.trim());
  if (!m) return undefined;
  // A desktop click of any button acts on its target as a tap does (as summaries said before they spoke desktop).
  const verb = m[1] === 'Clicked' || m[1] === 'Double-clicked' || m[1] === 'Right-clicked' ? 'Tapped' : (m[1] ?? '');
  return { verb, object: (m[2] ?? '').replace(/…$/, ''), changed: !/;\s*nothing changed\b/.test(summary) };
}

/**
 * Removes the names of the apps the agent opened from an entity ("ShopMart Hoodies" → "Hoodies") — unless a screen
 * shows the entity whole as a line: then the app's name is part of the thing's own name ("Meeting notes" in a notes app).
 */
function withoutApps(entity: string, apps: readonly string[], screenLines: readonly string[] = []): string {
  const whole = tokens(entity).join(' ');
  // (Not the app's name itself, which every screen of the app shows as its title.)
  if (!apps.some((a) => tokens(a).join(' ') === whole) && screenLines.some((l) => tokens(l).join(' ') === whole)) return entity;
  let t = entity.split(/\s+/);
  for (const app of apps) {
    const a = tokens(app).join(' ');
    if (a === '') continue;
    if (tokens(t[0] ?? '').join(' ') === a) t = t.slice(1);
    if (tokens(t[t.length - 1] ?? '').join(' ') === a) t = t.slice(0, -1);
  }
  return t.join(' ');
}

/** "Change my Font size to Large" → { setting: "Font size", value: "Large" }. */
function settingRequest(instruction: string): { setting: string; value: string } | undefined {
  const t = instruction.trim();
  // "Make X my preferred store": X is the value the setting named after it takes.
  // (Case-sensitive: the value is a run of capitalised words, "Make Ana Lind one of my favourites" is no setting.)
  const mk = /^[Mm]ake\s+([A-Z0-9][\w'’&-]*(?:\s+[A-Z0-9][\w'’&-]*)*)\s+(?:my|the)\s+([a-z][a-z ]*?)\s*[.!]?$/.exec(t);
  if (mk) return { setting: mk[2]!, value: mk[1]! };
  // (Within one sentence; the value ends at a comma: "Set Bluetooth to On, nothing else" sets it On.)
  const m = /\b(?:set|change|make|update|adjust|switch|turn)\s+(?:my\s+|the\s+|your\s+)?([^.!?]+?)\s+(?:to|for)\s+([^.!?]+?)\s*(?:,?\s*please)?[.!]?\s*$/i.exec(t);
  if (!m) return undefined;
  m[2] = (m[2] ?? '').split(/\s*,\s*/)[0]!;
  // "Turn on X for Y", "Switch off X for Y": a switch of Y, not a setting X taking the value Y.
  if (/^(?:on|off)\b/i.test((m[1] ?? '').trim())) return undefined;
  // "Turn the reminder for X On": a request that ends in a switch position is a switch, whatever it is for.
  if (/\b(?:on|off)$/i.test((m[2] ?? '').trim())) return undefined;
  // ("Set the reminder for X to Off in my app": a switch too, its position before the app it is in.)
  if (/\bto\s+(?:on|off)\b/i.test(m[2] ?? '')) return undefined;
  // The value ends at a function word ("Large in Settings" → "Large"), as in the policy.
  const value = entityEnd(m[2] ?? '');
  if (tokens(value).length === 0 || tokens(value).length > 4 || /^(on|off)$/i.test(value)) return undefined;
  return { setting: (m[1] ?? '').trim(), value };
}

/** The final-screen line showing a setting at a value (the rows naming the setting best, the value on it or below it); −1: none. */
function settingShown(lines: readonly string[], settingName: string, settingValue: string): number {
  const wanted = new Set(contentTokens(settingName).filter((t) => !IMPERATIVES.has(t)));
  const value = tokens(settingValue).join(' ');
  // The rows naming the setting best ("Font size", not "Display size", for "Font size").
  const share = (l: string): number => new Set(contentTokens(l).filter((t) => wanted.has(t))).size;
  const best = Math.max(0, ...lines.map(share));
  return lines.findIndex((l, i) => {
    if (best === 0 || share(l) < best) return false;
    const next = tokens(lines[i + 1] ?? '').join(' ');
    // OCR clips the last glyph of a value drawn against a control's edge ("Riverside Mal"): one letter short of a
    // value of ≥ 8 characters still names it.
    const clipped = next.length >= 8 && next.length === value.length - 1 && value.startsWith(next);
    return next === value || clipped || tokens(l).join(' ').endsWith(` ${value}`);
  });
}

/**
 * Settings a request names after its first, joined by "and" in the same sentence ("Set my seat preference to Front rows
 * and the showtime reminder to 1 day before" → the showtime reminder, "1 day before"). Switch positions are left to
 * the switch rules.
 */
export function furtherSettings(instruction: string): { setting: string; value: string }[] {
  const first = settingRequest(instruction);
  if (!first) return [];
  const sentence = /^[^.!?]*/.exec(instruction.trim())?.[0] ?? '';
  const out: { setting: string; value: string }[] = [];
  for (const m of sentence.matchAll(/\band\s+(?:the\s+|my\s+|its\s+)?([a-z][a-z -]{2,40}?)\s+to\s+([^,;]+?)\s*(?=,|;|\band\b|$)/gi)) {
    const value = entityEnd(m[2] ?? '');
    if (tokens(value).length === 0 || tokens(value).length > 4 || /^(?:on|off)$/i.test(value)) continue;
    // (A second action, not a setting: "… and send it to Tom".)
    const setting = (m[1] ?? '').trim();
    if (IMPERATIVES.has(tokens(setting)[0] ?? '') || /\b(?:it|them|me|him|her)\b/i.test(setting)) continue;
    out.push({ setting, value });
  }
  return out;
}

function requestedState(instruction: string): SwitchState | undefined {
  const m = [...instruction.matchAll(/\b(on|off|enable|disable)\b/gi)].pop();
  if (!m) return undefined;
  return /^(on|enable)$/i.test(m[1] ?? '') ? 'on' : 'off';
}

/** The line is exactly the entity (content words equal, or equal once OCR-dropped spaces are ignored). */
function isExactLine(line: string, entity: string): boolean {
  const a = contentTokens(line);
  const b = contentTokens(entity);
  return a.join(' ') === b.join(' ') || (b.length > 0 && tokens(line).join('') === tokens(entity).join(''));
}

/** The line lists the entity: exactly, or with only initials/noise (≤ 2 characters) around it ("BC Ben Carter"). */
function listsEntity(line: string, entity: string): boolean {
  if (!containsPhrase(line, entity)) return false;
  const e = new Set(tokens(entity));
  return tokens(line).every((t) => e.has(t) || t.length <= 2) || isExactLine(line, entity);
}

interface Completion {
  complete: boolean;
  reason: string;
}

/**
 * Completion as the intent's own rule reads it; failing that — for a request that is no removal, switch,
 * setting or state change — a line that appeared only on the final screen and reports the request's verb (or a
 * common synonym) in the past tense, with every named thing there ("Book borrowed" for "Check out X"; see
 * reported-result.ts). The app's own words for the result count whatever intent the request's verb was read as.
 */
function completionOf(ev: TrajectoryEvidence, entities: readonly string[], intentText: string): Completion {
  // The last step opened a chooser titled with the control's own label ("Add to playlist" over the playlists): the
  // choice it asks for was never made, whatever status its rows show ("Added" beside another list).
  const last = [...ev.summaries.map(summaryAction)].reverse().find((a) => a !== undefined);
  const chooser = last && last.verb === 'Tapped' && last.changed && tokens(last.object).length >= 2 && IMPERATIVES.has(tokens(last.object)[0]!) && ev.finalLines.slice(0, 4).some((l) => tokens(l).join(' ') === tokens(last.object).join(' '));
  if (chooser) return { complete: false, reason: `the final screen is the chooser ${quote(last.object)} the last step opened: nothing was chosen in it` };
  const c = intentCompletion(ev, entities, intentText);
  if (c.complete || settingRequest(ev.instruction)) return c;
  const kind = INTENTS.find((i) => i.when.test(intentText))?.kind;
  if (kind === 'removal' || kind === 'toggle' || kind === 'state') return c;
  const r = reportedResult({
    instruction: ev.instruction,
    entities: entities.filter((e) => !namesTheApp(ev.instruction, e)),
    earlier: ev.screens.slice(0, -1),
    finalLines: ev.finalLines,
  });
  if (!r) return c;
  // The page still offers the request's own action ("Unlock" on the lock's page under "Unlocked by Alex · Today"): the
  // line reports an earlier time, not this request.
  const offered = offeredAction(requestCore(ev.instruction), ev.finalLines, entities);
  // (Unless a step tapped that very control and the page changed: a thing that can be done again still offers it —
  // "Renew" under "Renewed until Jun 18", "Change delivery" under "Delivery day changed" after a date was chosen
  // behind it — and no confirmation is left asking. The report is new on the final screen, so it followed that tap.)
  const tappedIt =
    !!offered &&
    ev.summaries.map(summaryAction).some((a) => a?.verb === 'Tapped' && a.changed && tokens(a.object).join(' ') === tokens(offered).join(' ')) &&
    !openConfirmation(ev.finalLines);
  if (offered && !tappedIt) return { complete: false, reason: `the final screen reports ${quote(r.line)} but still offers ${quote(offered)}: the request's action was not taken` };
  return { complete: true, reason: `the final screen newly reports ${quote(r.line)} ("${r.verb}" done) and lists every named thing` };
}

function intentCompletion(ev: TrajectoryEvidence, entities: readonly string[], intentText: string): Completion {
  const final = ev.screens[ev.screens.length - 1] ?? '';
  const lines = ev.finalLines;
  const acted = ev.summaries.map(summaryAction);
  const onFinal = (e: string): boolean => containsPhrase(final, e);

  const setting = settingRequest(ev.instruction);
  if (setting) {
    const hit = settingShown(lines, setting.setting, setting.value);
    const value = tokens(setting.value).join(' ');
    // An owner's detail ("Rachel Adams's number"): the owner's own record — a line that is the owner's name, with the
    // value on a line of its own below it — once no form is left open (no save button on the page). The app may label
    // the detail in its own words ("Mobile" for "number").
    const owned = /^(.+?)['’]s\s+(.+)$/.exec(setting.setting);
    if (hit < 0 && owned) {
      const owner = owned[1] ?? '';
      const at = lines.findIndex((l) => isExactLine(l, owner) || listsEntity(l, owner));
      const valueAt = lines.findIndex((l, i) => i > at && tokens(l).join(' ') === value);
      const formOpen = lines.some((l) => /^(?:save|done|update|submit|apply|ok)$/i.test(l.trim()));
      if (at >= 0 && valueAt > at && !formOpen)
        return { complete: true, reason: `the final screen shows ${quote(lines[at] ?? owner)}'s record with ${quote(lines[valueAt] ?? setting.value)}` };
    }
    if (hit < 0) return { complete: false, reason: `the final screen does not show ${quote(setting.setting)} set to ${quote(setting.value)}` };
    // Every further setting the request names ("… and the reminder to 1 day before") is shown at its value too.
    const unset = furtherSettings(ev.instruction).find((f) => settingShown(lines, f.setting, f.value) < 0);
    if (unset) return { complete: false, reason: `the final screen shows ${quote(lines[hit] ?? '')} set, but not ${quote(unset.setting)} set to ${quote(unset.value)}` };
    return { complete: true, reason: `the final screen shows ${quote(lines[hit] ?? '')} set to ${quote(setting.value)}` };
  }

  const intent = INTENTS.find((i) => i.when.test(intentText));
  if (!intent) {
    // Navigation or another task: the requested page shows every name, and the agent got there by acting on one.
    const pageEntities = entities.filter((e) => !namesTheApp(ev.instruction, e));
    const missing = pageEntities.filter((e) => !onFinal(e));
    const reached = pageEntities.some((e) => acted.some((a) => a && a.verb !== 'Opened' && containsPhrase(a.object, e)));
    if (pageEntities.length === 0) {
      const ok = /\b(success|done|complete|completed|saved)\b/i.test(final);
      return { complete: ok, reason: ok ? 'the final screen reports completion' : 'the final screen shows no sign of completion' };
    }
    if (missing.length > 0) return { complete: false, reason: `the final screen lacks ${missing.map((e) => quote(e)).join(', ')}` };
    // A confirmation still open on the final screen (a question with a way out) asks for the action; it was not taken.
    const asking = openConfirmation(lines);
    if (asking)
      return { complete: false, reason: `the final screen still asks ${quote(asking)}: the request awaits confirmation` };
    // The page still offers the request's own action ("Pay $38.75" for "Pay my X bill"): it was not taken.
    const offered = offeredAction(requestCore(ev.instruction), lines, pageEntities);
    if (offered) return { complete: false, reason: `the final screen still offers ${quote(offered)}: the request's action was not taken` };
    // A form that refused its submission ("Choose what you lost" under its fields, "Send report" still there).
    const lastTap = [...acted].reverse().find((a) => a?.verb === 'Tapped')?.object;
    const refused = formRejected(ev.screens.slice(0, -1), lines, lastTap);
    if (refused) return { complete: false, reason: `the final screen asks ${quote(refused)}: the form was not accepted` };
    // An action the request asks for (no verb of looking), in an episode the agent never ended (its steps ran out): a page
    // that shows the names is not the action done ("Extend the meter in zone X" left on a review page).
    const verb = (/^[A-Za-z]+/.exec(requestCore(ev.instruction))?.[0] ?? '').toLowerCase();
    // (Any verb of English, not only the common ones — "Top the session up with 30 minutes more" — unless the final
    // screen newly reports a thing done: "Added to your packages".)
    if (ev.outcome === undefined && (IMPERATIVES.has(verb) || (isVerb(verb) && !newResultLine(ev.screens.slice(0, -1), lines))) && !LOOK_VERBS.test(verb))
      return { complete: false, reason: `the agent never ended the episode, and the request asks it to ${verb}: a page that shows the names is not that done` };
    return reached
      ? { complete: true, reason: 'the final screen shows the requested page, reached by acting on it' }
      : { complete: false, reason: 'the names are on the final screen but no step acted on them (the start page lists them)' };
  }

  // A pending or asked change ("Book Club will be removed.", "Delete this event?") is not a completion signal, nor is
  // a line dated a day or more back ("Posted yesterday", "Sent 3 days ago"): it reports an earlier event.
  const sig = intent.done.exec(lines.filter((l) => !/\bwill\b|\?/.test(l) && !DATED_EARLIER.test(l)).join('\n'));
  const did = (re: RegExp): boolean => acted.some((a) => a && (a.verb === 'Tapped' || a.verb === 'Long-pressed') && a.changed && re.test(a.object));
  switch (intent.kind) {
    case 'signal':
      return sig
        ? { complete: true, reason: `the final screen shows ${quote(sig[0])}, a completion signal for "${intent.name}"` }
        : { complete: false, reason: `the final screen shows no completion signal for "${intent.name}"` };
    case 'state': {
      const verbs = new RegExp(`^(${intent.when.source.replace(/\\b/g, '')})`, 'i');
      // The item itself, not a longer-named neighbour ("Shopping list (old)" for "Shopping list").
      const missing = entities.filter((e) => !lines.some((l) => listsEntity(l, e)));
      if (!sig) {
        // No written state (a star drawn as an icon): the item's own menu action, taken on that item, with the
        // menu gone afterwards and nothing undone later.
        const k = acted.findIndex(
          (a) => a?.verb === 'Tapped' && a.changed && intent.when.test(a.object) && !/\b(remove|un\w+|cancel)\b/i.test(a.object),
        );
        const control = k >= 0 ? (acted[k]?.object ?? '') : '';
        const on = k > 0 ? acted.slice(0, k).reverse().find((a) => a && (a.verb === 'Long-pressed' || a.verb === 'Tapped')) : undefined;
        const onItem = on !== undefined && entities.length > 0 && entities.every((e) => containsPhrase(on.object, e));
        const undone = acted.slice(k + 1).some((a) => a?.verb === 'Tapped' && /\b(remove|un\w+)\b/i.test(a.object));
        const menuGone = !lines.some((l) => tokens(l).join(' ') === tokens(control).join(' '));
        if (k > 0 && onItem && missing.length === 0 && menuGone && !undone)
          return { complete: true, reason: `${quote(control)} was tapped on ${entities.map((e) => quote(e)).join(', ')}'s menu, which then closed, and the item is listed` };
        return { complete: false, reason: `the final screen shows no completion signal for "${intent.name}"` };
      }
      // The item's own page need not repeat its name: opened by a tap on the item, then only the intent's control.
      const opened = acted.map((a) => a !== undefined && (a.verb === 'Tapped' || a.verb === 'Long-pressed') && entities.length > 0 && entities.every((e) => containsPhrase(a.object, e))).lastIndexOf(true);
      const stayed =
        opened >= 0 &&
        acted.slice(opened + 1).every((a, i) => {
          const action = ev.actions[opened + 1 + i];
          if (action?.action === 'terminate' || action?.action === 'wait' || action?.action === 'answer') return true;
          return a?.verb === 'Tapped' && intent.when.test(a.object) && !/\b(remove|un\w+)\b/i.test(a.object);
        }) &&
        acted.slice(opened + 1).some((a) => a?.verb === 'Tapped') &&
        // A page titled with a longer name ("Shopping list (old)") is that other item's page.
        !lines.some((l) => entities.some((e) => containsPhrase(l, e)));
      if (missing.length > 0 && !stayed) return { complete: false, reason: `the final screen shows ${quote(sig[0])} but not ${missing.map((e) => quote(e)).join(', ')}` };
      // The control itself ("Pin"), or a tap whose effect was the completion signal ("★ Add to" → "Added to favourites").
      const caused = ev.summaries.some((t) => /^(Tapped|Long-pressed)\b/.test(t) && intent.done.test(t.split(';').slice(1).join(';')));
      if (!did(verbs) && !caused) return { complete: false, reason: `the final screen shows ${quote(sig[0])} but no step tapped a "${intent.name}" control` };
      return { complete: true, reason: `the final screen shows ${quote(sig[0])} for ${entities.map((e) => quote(e)).join(', ')} after a "${intent.name}" control was tapped` };
    }
    case 'removal': {
      // The removed item is no longer listed (a toast naming it does not count), after a removing control.
      // A line that names the item with a pending change ("Book Club will be removed.") still shows it.
      const listed = entities.filter((e) =>
        lines.some((l) => (listsEntity(l, e) && !intent.done.test(l)) || (containsPhrase(l, e) && /\bwill\b|\?/.test(l))),
      );
      const seenBefore = entities.every((e) => ev.screens.slice(0, -1).some((s) => containsPhrase(s, e)));
      const removed = did(new RegExp(`${REMOVE_CONTROL.source}|^${intent.name}`, 'i'));
      if (!removed) return { complete: false, reason: `no step tapped a control that would ${intent.name} anything` };
      if (listed.length > 0) return { complete: false, reason: `the final screen still lists ${listed.map((e) => quote(e)).join(', ')}` };
      if (sig) return { complete: true, reason: `the final screen shows ${quote(sig[0])} and no longer lists ${entities.map((e) => quote(e)).join(', ')}` };
      return seenBefore && entities.length > 0
        ? { complete: true, reason: `${entities.map((e) => quote(e)).join(', ')} was listed before and is gone from the final screen` }
        : { complete: false, reason: `the final screen shows no completion signal for "${intent.name}"` };
    }
    case 'toggle': {
      const state = requestedState(ev.instruction);
      const subjects = entities.filter((e) => !namesTheApp(ev.instruction, e));
      const missing = subjects.filter((e) => !onFinal(e));
      if (!state || subjects.length === 0) return { complete: false, reason: 'the instruction names no switch position to check' };
      if (missing.length > 0) return { complete: false, reason: `the final screen does not show ${missing.map((e) => quote(e)).join(', ')}` };
      const named = subjects[0] ?? '';
      // The row named exactly; failing that, the one row that starts with the name ("Dark" → "Dark mode" when no
      // row is called just "Dark" — a row "Gym" beside "Gym class" is always taken exactly).
      const exact = lines.findIndex((l) => containsPhrase(l, named) && contentTokens(l).join(' ') === contentTokens(named).join(' '));
      const starts = lines.flatMap((l, i) => (contentTokens(l).join(' ').startsWith(`${contentTokens(named).join(' ')} `) ? [i] : []));
      const at = exact >= 0 ? exact : starts.length === 1 ? (starts[0] ?? -1) : -1;
      const subject = exact < 0 && at >= 0 ? (lines[at] ?? named) : named;
      const label = lines[at] ?? '';
      // 1. A written state next to the subject ("Wi-Fi  On").
      const written = [lines[at + 1], lines[at + 2]].map((l) => (l ?? '').trim().toLowerCase()).find((l) => /^(on|off)$/.test(l));
      if (at >= 0 && written) {
        return written === state
          ? { complete: true, reason: `the final screen shows ${quote(subject)} ${written}` }
          : { complete: false, reason: `the final screen shows ${quote(subject)} ${written}, not ${state}` };
      }
      // 2b. On the subject's own page, the switch its request words name ("Service alerts" of "Red Line"): its written
      // state ("Service alerts off", a toast) or its drawn switch.
      const own = new Set(contentTokens(named));
      const other = contentTokens(requestCore(ev.instruction)).filter((t) => !own.has(t) && !/^(?:turn|switch|set|enable|disable|on|off|app|please)$/.test(t) && !namesTheApp(ev.instruction, t));
      const labelAt = other.length === 0 ? -1 : lines.findIndex((l, i) => i !== at && tokens(l).length <= 4 && contentTokens(l).some((t) => other.includes(t) || other.includes(t.replace(/s$/, '')) || other.includes(`${t}s`)));
      // (Only on the subject's own page: its name heads the screen, the switch's label comes after it.)
      const headed = lines.slice(0, 5).some((l) => contentTokens(l).join(' ') === contentTokens(named).join(' '));
      if (at >= 0 && labelAt > at && headed) {
        const labelText = lines[labelAt]!;
        const base = contentTokens(labelText).filter((t) => !/^(?:on|off)$/.test(t)).join(' ');
        const toast = lines.map((l) => tokens(l)).find((t) => t.length >= 2 && /^(on|off)$/.test(t[t.length - 1]!) && contentTokens(t.slice(0, -1).join(' ')).join(' ') === base);
        if (toast) {
          const shown = toast[toast.length - 1]!;
          return shown === state
            ? { complete: true, reason: `the final screen shows ${quote(toast.join(' '))} on the page of ${quote(subject)}` }
            : { complete: false, reason: `the final screen shows ${quote(toast.join(' '))} on the page of ${quote(subject)}, not ${state}` };
        }
        const beside = ev.switchBeside?.(labelText);
        if (beside) {
          return beside === state
            ? { complete: true, reason: `the ${quote(labelText)} switch on the page of ${quote(subject)} is ${beside}` }
            : { complete: false, reason: `the ${quote(labelText)} switch on the page of ${quote(subject)} is ${beside}, not ${state}` };
        }
      }
      // 2. The switch drawn beside it (multimodal channel).
      const drawn = at >= 0 ? ev.switchBeside?.(label) : undefined;
      if (drawn) {
        return drawn === state
          ? { complete: true, reason: `the switch beside ${quote(subject)} on the final screen is ${drawn}` }
          : { complete: false, reason: `the switch beside ${quote(subject)} on the final screen is ${drawn}, not ${state}` };
      }
      // 3. The steps: the subject's switch was flipped an odd number of times (each flip changed the screen).
      const flips = acted.filter((a) => a && a.verb === 'Tapped' && a.changed && contentTokens(a.object).join(' ') === contentTokens(subject).join(' ')).length;
      return flips % 2 === 1
        ? { complete: true, reason: `the switch of ${quote(subject)} was flipped ${flips === 1 ? 'once' : `${flips} times`}` }
        : { complete: false, reason: flips === 0 ? `no step flipped the switch of ${quote(subject)}` : `the switch of ${quote(subject)} was flipped back (${flips} times)` };
    }
    case 'create': {
      if (sig) return { complete: true, reason: `the final screen shows ${quote(sig[0])}, a completion signal for "${intent.name}"` };
      // The saved item shown: every name on the final screen, a commit control tapped after the last typing,
      // and the form gone (its commit control no longer on screen).
      const lastTyped = acted.map((a) => a?.verb === 'Typed').lastIndexOf(true);
      const commit = acted.findIndex((a, i) => i > lastTyped && a !== undefined && a.verb === 'Tapped' && a.changed && COMMIT.test(a.object));
      const missing = entities.filter((e) => !onFinal(e));
      const commitText = commit >= 0 ? (acted[commit]?.object ?? '') : '';
      const formOpen = commit >= 0 && lines.some((l) => tokens(l).join(' ') === tokens(commitText).join(' '));
      if (lastTyped >= 0 && commit >= 0 && missing.length === 0 && !formOpen && entities.length > 0)
        return { complete: true, reason: `after ${quote(commitText)} the final screen shows the new item with ${entities.map((e) => quote(e)).join(', ')}` };
      return { complete: false, reason: `the final screen shows no completion signal for "${intent.name}"` };
    }
  }
}

/** A screen's text as lines (screens are kept as OCR lines joined by " | " or newlines). */
const linesOf = (screen: string): string[] => screen.split(/\s+\|\s+|\n/);

function decideTrajectory(ev: TrajectoryEvidence): { score: number; reasons: string[]; failure: boolean } {
  const reasons: string[] = [];
  const apps = ev.actions.flatMap((a) => (a?.action === 'open' ? [a.text] : []));
  const screenLines = ev.screens.flatMap(linesOf);
  const entities = groundEntities(ev.instruction, instructionEntities(ev.instruction), screenLines)
    .map((e) => withoutApps(e, apps, screenLines))
    .filter((e) => tokens(e).length > 0);
  const said = intentText(ev.instruction, entities);
  const outcome = ev.outcome?.trim();
  const failure = outcome !== undefined && /^(failure|fail|failed)$/i.test(outcome);
  const answered = outcome !== undefined && outcome !== '' && !/^(success|failure|fail|failed)$/i.test(outcome) && !outcome.startsWith('(');
  if (failure) reasons.push('the agent itself reported failure');

  // Completion.
  let completion = false;
  if (asksQuestion(ev.instruction)) {
    const grounded = answered && ev.screens.some((s) => containsPhrase(s, outcome ?? ''));
    completion = grounded;
    reasons.push(
      !answered
        ? 'the instruction is a question but the agent gave no answer'
        : grounded
          ? `the answer ${quote(outcome ?? '')} is visible on a screen`
          : `the answer ${quote(outcome ?? '')} is not visible on any screen`,
    );
  } else if (ev.desktop) {
    // Desktop (desktop-evidence.ts): the request's own evidence on the final screen — a value in a grid cell, a
    // number on a display, a name listed or gone, a clean (saved) title, no dialog left open.
    const c = desktopCompletion({
      instruction: ev.instruction,
      screens: ev.screens,
      finalLines: ev.finalLines,
      ...(ev.firstOcr ? { firstOcr: ev.firstOcr } : {}),
      ...(ev.finalOcr ? { finalOcr: ev.finalOcr } : {}),
    });
    completion = c.complete;
    reasons.push(c.reason);
    // No pixel rule here: a desktop change is a few glyphs on a large screen (a renamed file in a listing), below
    // what the phone's first-vs-final comparison resolves; the final screen's text decides.
  } else {
    const c = completionOf(ev, entities, said);
    completion = c.complete;
    reasons.push(c.reason);
    const kind = INTENTS.find((i) => i.when.test(said))?.kind;
    // The named item must be where the outcome lives: a near-duplicate there instead is a failure, whatever
    // earlier screens or the agent's words said (removals and switches leave other items on screen by design).
    if (kind !== 'removal' && kind !== 'toggle') {
      const nd = nearDuplicateOnResult(entities.filter((e) => !namesTheApp(ev.instruction, e)), ev.finalLines);
      if (nd) {
        completion = false;
        reasons.push(`the result screen shows ${quote(nd.seen)} where ${quote(nd.entity)} was asked (a near-duplicate, not the item)`);
      }
    }
    // A result message naming another thing ("Created "Untitled folder"" for a folder named Old Projects): that one was made.
    const other = kind !== 'removal' && kind !== 'toggle' ? resultNamesOther(ev.instruction, entities, ev.finalLines) : undefined;
    if (other) {
      completion = false;
      reasons.push(`the result message ${quote(other.line)} names ${quote(other.quoted)}, not ${quote(other.entity)}`);
    }
    // The count asked for must be the count the result lists ("1 x Falafel Wrap" for "Order 3 Falafel Wrap").
    const qm = kind !== 'removal' && kind !== 'toggle' ? quantityMismatch(ev.instruction, ev.finalLines) : undefined;
    if (qm) {
      completion = false;
      reasons.push(`the result screen lists ${quote(qm.seen)} where ${qm.asked} × ${quote(qm.entity)} was asked`);
    }
    // A confirmation dialog still open at the end: the change it asks about was never confirmed.
    const open = openConfirmation(ev.finalLines);
    if (open) {
      completion = false;
      reasons.push(`the final screen still asks ${quote(open)}: the change was not confirmed`);
      }
    // A form filled in but never sent: the typed text still in its field under a submit button no step tapped.
    const acts = ev.summaries.map(summaryAction);
    const unsent = unsubmittedForm(
      acts.flatMap((a) => (a?.verb === 'Typed' ? [a.object] : [])),
      acts.flatMap((a) => (a?.verb === 'Tapped' ? [a.object] : [])),
      ev.finalLines,
    );
    if (unsent) {
      completion = false;
      reasons.push(`the final screen still holds the typed text under ${quote(unsent)}, which no step tapped: the form was never sent`);
    }
    // A counted request whose result line costs the item's unit price holds one item ("2 Beef Burrito", cart line
    // at the menu's $10.49).
    const up = kind !== 'removal' && kind !== 'toggle' ? unitPriceForCount(ev.instruction, ev.screens.slice(0, -1).map(linesOf), ev.finalLines) : undefined;
    if (up) {
      completion = false;
      reasons.push(`the result screen shows ${quote(up.seen)} where ${up.asked} × ${quote(up.entity)} was asked`);
    }
    // An item added to a cart is listed on the result screen; one an earlier screen showed but the result does not
    // was not added (another item was).
    if (INTENTS.find((i) => i.when.test(said))?.name === 'add to cart') {
      const gone = namedItemsMissingFromResult(entities.filter((e) => !namesTheApp(ev.instruction, e)), ev.screens.slice(0, -1), ev.finalLines.join('\n'));
      if (gone.length > 0) {
        completion = false;
        reasons.push(`the result screen does not list ${gone.map((e) => quote(e)).join(', ')}, which an earlier screen showed`);
      }
    }
    // A result that lists counted item lines ("1 x Margherita Pizza") lists what was ordered or added: when none of
    // them names a thing of the request, another item was (the request's dish appears nowhere in the order).
    const counted = ev.finalLines.filter((l) => /^\s*\d+\s*[x×]\s+\S/i.test(l));
    const things = entities.filter((e) => !namesTheApp(ev.instruction, e) && !/^\d/.test(e) && tokens(e).join('').length >= 4);
    if (kind !== 'removal' && kind !== 'toggle' && counted.length > 0 && things.length > 0 && !counted.some((l) => things.some((e) => containsPhrase(l, e)))) {
      completion = false;
      reasons.push(`the result lists ${counted.map((l) => quote(l.trim())).join(', ')}, none of the requested items`);
    }
    // A cart filled on the way that the request never asked for: a change left behind, whatever else was reached.
    const cart = unrequestedCartChange(ev.instruction, [...ev.screens.slice(0, -1).map(linesOf), ev.finalLines]);
    if (cart) {
      completion = false;
      reasons.push(`the cart went from ${cart.before} to ${cart.after} items though the request asked for nothing to be added: an unrequested change`);
    }
    // One field typed with two of the request's values at once: that field holds neither as asked. (From the actions:
    // a summary's quoted text ends at a quote inside the typed value.)
    const merged = typedMergedValues(ev.actions.flatMap((a) => (a?.action === 'type' ? [a.text] : [])), entities.filter((e) => !namesTheApp(ev.instruction, e)));
    if (merged) {
      completion = false;
      reasons.push(`one field was typed ${quote(merged.typed)}, which holds both ${quote(merged.a)} and ${quote(merged.b)}: a value with another run into it`);
    }
    // Pixels (multimodal only): a request for a change whose final screenshot equals the first changed nothing.
    if (kind !== undefined && ev.pixelChange !== undefined && ev.pixelChange < UNCHANGED) {
      completion = false;
      reasons.push(`the final screenshot differs from the first in ${(100 * ev.pixelChange).toFixed(1)}% of the app area: nothing visibly changed`);
    }
  }

  // Coverage: entities in summaries or screens after the first.
  const evidence = [...ev.summaries, ...ev.screens.slice(1)].join('\n');
  const found = entities.filter((e) => containsPhrase(evidence, e));
  // Desktop requests are checked on the final screen itself (a deleted file is rightly absent from later screens).
  const coverage = entities.length === 0 || ev.desktop ? 1 : found.length / entities.length;
  if (entities.length > 0 && !ev.desktop) {
    reasons.push(
      found.length === entities.length
        ? `all ${entities.length} key entities (${entities.map((e) => quote(e)).join(', ')}) were handled`
        : `only ${found.length}/${entities.length} key entities were handled; missing ${entities.filter((e) => !found.includes(e)).map((e) => quote(e)).join(', ')}`,
    );
  }

  // Unreverted mistakes: a step whose action part is marked harmful, with no later step going back.
  let harm = false;
  const acted = ev.summaries.map(summaryAction);
  ev.summaries.forEach((s, i) => {
    const did = s.split(';')[0] ?? '';
    // (A step that undoes an earlier mistake — "Pressed Back, undoing the previous mistake" — is no mistake itself.)
    if (!HARM_MARK.test(did) || REVERT.test(did)) return;
    if (ev.summaries.slice(i + 1).some((t) => REVERT.test(t))) return;
    // A detour (a tap that went elsewhere instead of an offered item) is over once a later step acts on that item.
    const passed = /instead of "([^"]+)", going off-task/.exec(did)?.[1];
    if (passed && acted.slice(i + 1).some((a) => a !== undefined && a.changed && a.verb !== 'Typed' && containsPhrase(a.object, passed))) return;
    harm = true;
  });
  if (harm) reasons.push('a step was summarised as a mistake and never undone');

  // Cubed coverage: one missing entity of four already makes a Correct vote unlikely (precision first).
  const score = failure ? 0 : Math.max(0, 0.5 * (completion ? 1 : 0) + 0.5 * coverage ** 3 - (harm ? 0.3 : 0));
  return { score, reasons, failure };
}

function vote(score: number, temperature: number, width: number, random: () => number): boolean {
  if (temperature <= 0) return score >= 0.999;
  const p = 1 / (1 + Math.exp(-(score - 0.85) / (width * temperature)));
  return random() < p;
}

function trajectoryReply(d: TrajectoryDecision): ChatMessage & { finish_reason?: string } {
  return reply(JSON.stringify({ reasoning: d.reasoning, verdict: d.correct ? 'Correct' : 'Incorrect' }));
}

function parseSteps(block: string | undefined): string[] {
  if (!block) return [];
  return [...block.matchAll(/^\s*summary:[ \t]*(.*)$/gm)].map((m) => (m[1] ?? '').trim());
}

function parseStepActions(block: string | undefined): (Action | undefined)[] {
  if (!block) return [];
  return [...block.matchAll(/^Step \d+: action:[ \t]*(.*)$/gm)].map((m) => parseAction(m[1]));
}

/**
 * The position of a switch drawn at the end of the row of `line` (the right quarter of the screen, within a
 * row's height): a saturated track is On, a grey one Off, by the common toggle convention; undefined when
 * neither dominates (no switch there).
 */
async function switchStates(png: Uint8Array, lines: readonly OcrLine[]): Promise<(text: string) => SwitchState | undefined> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const scale = Math.max(width, height) / 640;
  return (text: string) => {
    const line = lines.find((l) => l.text === text);
    if (!line) return undefined;
    const cy = line.box.y + line.box.h / 2;
    const y0 = Math.max(0, Math.floor(cy - 30 * scale));
    const y1 = Math.min(height - 1, Math.ceil(cy + 30 * scale));
    const x0 = Math.max(Math.floor(line.box.x + line.box.w + 4), Math.floor(width * 0.72));
    let accent = 0;
    let grey = 0;
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x < width; x++) {
        const i = (y * width + x) * channels;
        const r = data[i] ?? 0;
        const g = data[i + 1] ?? 0;
        const b = data[i + 2] ?? 0;
        const hi = Math.max(r, g, b);
        const sat = hi - Math.min(r, g, b);
        if (sat >= 80 && hi >= 90) accent++;
        else if (sat <= 30 && hi >= 140 && hi <= 215) grey++;
      }
    }
    const min = 200 * scale * scale;
    if (accent >= min && accent > 2 * grey) return 'on';
    if (grey >= min && grey > 2 * accent) return 'off';
    return undefined;
  };
}

/** The first-vs-final pixel comparison, when both screenshots exist and differ as files. */
async function firstToFinal(first: Uint8Array | undefined, last: Uint8Array | undefined): Promise<{ pixelChange?: number }> {
  if (!first || !last) return {};
  const change = await screenChange(first, last);
  return change === undefined ? {} : { pixelChange: change };
}

function decisionOf(ev: TrajectoryEvidence, temperature: number, width: number, random: () => number, channel: string): TrajectoryDecision {
  const { score, reasons } = decideTrajectory(ev);
  const correct = vote(score, temperature, width, random);
  return { correct, score, reasoning: `[${channel}] ${reasons.join('; ')}. Evidence score ${score.toFixed(2)}.` };
}

const TRAJ_LABELS = ['Instruction', 'Steps', 'Screen captions', 'Outcome'] as const;

function readOutcome(s: string | undefined): string | undefined {
  const v = s?.trim();
  return !v || v.startsWith('(') ? undefined : v;
}

export const trajectoryTextCriticRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  const text = user ? messageText(user) : '';
  const sec = sections(text, TRAJ_LABELS);
  const captionsBlock = sec.get('Screen captions') ?? '';
  const screens = captionsBlock
    .split(/^(?:Screen \d+ \([^)]*\)|Final screen(?: \([^)]*\))?):[ \t]*$/m)
    .slice(1)
    .map((s) => s.trim());
  const ev: TrajectoryEvidence = {
    instruction: requestCore(sec.get('Instruction') ?? ''),
    summaries: parseSteps(sec.get('Steps')),
    actions: parseStepActions(sec.get('Steps')),
    screens,
    // Captions join a screen's OCR lines with " | " (critics/judge-rollout.ts); one per line otherwise.
    finalLines: (screens[screens.length - 1] ?? '').split(/\s+\|\s+|\n/).map((l) => l.trim()).filter(Boolean),
    outcome: readOutcome(sec.get('Outcome')),
    ...(isDesktopSteps(sec.get('Steps')) ? { desktop: true } : {}),
  };
  return trajectoryReply(decisionOf(ev, request.temperature ?? 0, 0.04, ctx.random, 'text'));
};

export const trajectoryMultimodalCriticRole: RoleHandler = async (request, ctx) => {
  const user = lastUser(request);
  if (!user) throw new RoleInputError('multimodal trajectory critic: no user message', 'messages');
  const first = Array.isArray(user.content) ? user.content.find((p) => p.type === 'text') : undefined;
  const sec = sections(first?.type === 'text' ? first.text : messageText(user), ['Instruction', 'Steps', 'Outcome']);
  // Screenshots in order, with whether each is the final one (by its label, else the last image).
  const shots: { png: Uint8Array; final: boolean }[] = [];
  let label = '';
  for (const part of Array.isArray(user.content) ? user.content : []) {
    if (part.type === 'text') label = part.text;
    else {
      const png = decodeDataUrl(part.image_url.url);
      if (png) shots.push({ png, final: /^Final screen/i.test(label.trim()) });
      label = '';
    }
  }
  if (shots.length === 0) throw new RoleInputError('multimodal trajectory critic: no base64 data-URL screenshots', 'messages');
  const finalIdx = Math.max(0, shots.findIndex((s) => s.final) >= 0 ? shots.findIndex((s) => s.final) : shots.length - 1);
  const ocr = await Promise.all(shots.map(async (s) => ocrScreen(ctx, s.png)));
  const screens = [...ocr.filter((_, i) => i !== finalIdx), ocr[finalIdx]].map((o) => o?.text ?? '');
  const finalShot = ocr[finalIdx];
  const finalPng = shots[finalIdx]?.png;
  const ev: TrajectoryEvidence = {
    instruction: requestCore(sec.get('Instruction') ?? ''),
    summaries: parseSteps(sec.get('Steps')),
    actions: parseStepActions(sec.get('Steps')),
    screens,
    finalLines: finalShot?.lines.map((l) => l.text) ?? [],
    outcome: readOutcome(sec.get('Outcome')),
    ...(finalShot && finalPng ? { switchBeside: await switchStates(finalPng, finalShot.lines) } : {}),
    ...(await firstToFinal(shots[0]?.png, finalIdx > 0 ? finalPng : undefined)),
    ...(isDesktopSteps(sec.get('Steps')) ? { desktop: true, ...(finalShot ? { finalOcr: finalShot.lines } : {}), ...(ocr[0] && finalIdx > 0 ? { firstOcr: ocr[0].lines } : {}) } : {}),
  };
  return trajectoryReply(decisionOf(ev, request.temperature ?? 0, 0.06, ctx.random, 'multimodal'));
};
