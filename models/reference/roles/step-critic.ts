import sharp from 'sharp';
import { type Action } from '../../../domain/action.js';
import { messageImages, messageText } from '../../../domain/openai.js';
import type { ChatRequest } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { OcrLine, RoleContext, RoleHandler } from '../types.js';
import { instructionEntities, namesTheApp, requestCore } from './intent.js';
import { bestWindow, containsPhrase, contentTokens, IMPERATIVES, NEAR, tokens } from './text-match.js';
import { DESTRUCTIVE, MISTAKE, PROGRESS, REMOVAL_ASK, REMOVAL_WORD, REVERT, changedFraction, decodeDataUrl, eraseMarks, closedOverlay, gainedEntity, groundEntities, lastUser, marksOf, matchTarget, newLines, ocrScreen, parseAction, quote, reply, sections, targetLine, type EntityMatch, type Screen } from './critic-screen.js';

/** The reference step critic (`ref-step-critic`): see critics.ts for its rules. */

interface StepJudgement {
  annotation: 'GOOD' | 'NEUTRAL' | 'HARMFUL';
  did: string;
  why: string;
  /** The screen did not visibly change (the summary then says "nothing changed"). */
  noEffect?: boolean;
}

/** Whether (x, y) falls on (or within a few pixels of) a text line. */
/**
 * Did a tap on `target` open that control's own options over the same page: the page title (the top line below
 * the status bar) is unchanged, and the tapped text now also shows elsewhere (as the heading of what opened).
 */
export function opensOwnOptions(target: string, before: readonly OcrLine[], after: readonly OcrLine[], scale: number): boolean {
  const key = tokens(target).join(' ');
  if (!key) return false;
  const title = (ls: readonly OcrLine[]): string | undefined =>
    [...ls].filter((l) => l.box.y > 20 * scale && tokens(l.text).length > 0).sort((a, b) => a.box.y - b.box.y)[0]?.text;
  const t0 = title(before);
  if (!t0 || tokens(t0).join(' ') !== tokens(title(after) ?? '').join(' ')) return false;
  const same = (l: OcrLine): boolean => tokens(l.text).join(' ') === key;
  const was = before.filter(same);
  const moved = (l: OcrLine): boolean => was.every((b) => Math.hypot(b.box.x - l.box.x, b.box.y - l.box.y) > 8 * scale);
  return was.length > 0 && after.some((l) => same(l) && moved(l));
}

function onText(lines: readonly OcrLine[], [x, y]: readonly [number, number], scale: number): boolean {
  const pad = 6 * scale;
  return lines.some((l) => x >= l.box.x - pad && x <= l.box.x + l.box.w + pad && y >= l.box.y - pad && y <= l.box.y + l.box.h + pad);
}

/**
 * The item a tap on a non-text control (a switch, checkbox, star or icon at the end of a row) acts on: the
 * nearest line to the left on the same row that names an entity (exactly or as a near-duplicate).
 */
function rowSubject(
  lines: readonly OcrLine[],
  [x, y]: readonly [number, number],
  entities: readonly string[],
  scale: number,
): { line: OcrLine; match: EntityMatch } | undefined {
  const band = 30 * scale;
  const cy = (l: OcrLine): number => l.box.y + l.box.h / 2;
  const dist = (l: OcrLine): number =>
    Math.hypot(Math.max(l.box.x - x, 0, x - (l.box.x + l.box.w)), Math.max(l.box.y - y, 0, y - (l.box.y + l.box.h)));
  // The same row to the left (a switch at the end of a row), or the card around the point (name + preview lines).
  const row = lines
    .filter((l) => (l.box.x + l.box.w < x && Math.abs(cy(l) - y) <= band) || dist(l) <= 40 * scale)
    .sort((a, b) => Math.abs(cy(a) - y) - Math.abs(cy(b) - y));
  for (const line of row) {
    const match = matchTarget(line.text, entities, lines);
    if (match.kind !== 'none') return { line, match };
  }
  return undefined;
}

/**
 * The title of the card a tapped line belongs to: the nearest line just above it (within a line or two,
 * horizontally overlapping) that names an entity — a tap on "Burgers - American" under "Burger Palace" opens
 * Burger Palace; under "Burger Place" it opens the near-duplicate.
 */
function cardTitle(lines: readonly OcrLine[], target: OcrLine, entities: readonly string[], scale: number): { line: OcrLine; match: EntityMatch } | undefined {
  const above = lines
    .filter((l) => {
      const gap = target.box.y - (l.box.y + l.box.h);
      const overlap = Math.min(l.box.x + l.box.w, target.box.x + target.box.w) - Math.max(l.box.x, target.box.x);
      return l !== target && gap >= -2 * scale && gap <= 30 * scale && (overlap > 0 || Math.abs(l.box.x - target.box.x) <= 24 * scale);
    })
    .sort((a, b) => b.box.y - a.box.y);
  const line = above[0];
  if (!line) return undefined;
  const match = matchTarget(line.text, entities, lines);
  return match.kind === 'none' ? undefined : { line, match };
}

/** The instruction's action verbs ("delete", "archive", "pin", …), for recognising the control that does it. */
function instructionVerbs(instruction: string): Set<string> {
  return new Set(tokens(instruction).filter((t) => IMPERATIVES.has(t) && !/^(what|how|which|when|who|where|is|are|does|do|can|could|would|will|please|i|need|want|help|let|use|make|get|go|look|view|show|tell|open)$/.test(t)));
}

/** Case- and space-insensitive verbatim occurrence (no stemming: "partys" is not "party"). */
function verbatim(hay: string, needle: string): boolean {
  const norm = (x: string): string => ` ${x.toLowerCase().replace(/[^\p{L}\p{N}@.:%-]+/gu, ' ').replace(/[.:](\s|$)/g, '$1').trim()} `;
  return norm(hay).includes(norm(needle));
}

/** Desktop-only actions: a step that uses one is a desktop step whatever the request says. */
function isDesktopAction(a: Action): boolean {
  return ['double_click', 'right_click', 'middle_click', 'mouse_move', 'drag'].includes(a.action) || (a.action === 'key' && 'keys' in a) || (a.action === 'type' && ('clear' in a || 'enter' in a));
}

/** What the agent did, in the words of its platform: taps and swipes on a phone, clicks, keys and drags on a desktop. */
export function describeAction(a: Action, target: string | undefined, desktop = false): string {
  const on = (verb: string): string => (target ? `${verb} ${quote(target)}` : `${verb} a non-text element`);
  if (desktop) {
    switch (a.action) {
      case 'click':
        return on('Clicked');
      case 'double_click':
        return on('Double-clicked');
      case 'right_click':
        return on('Right-clicked');
      case 'middle_click':
        return on('Middle-clicked');
      case 'drag':
        return 'Dragged';
      case 'key':
        return `Pressed keys ${'keys' in a ? a.keys.join('+') : a.text}`;
      default:
        break;
    }
  }
  switch (a.action) {
    case 'click':
    case 'double_click':
    case 'right_click':
    case 'middle_click':
      return on('Tapped');
    case 'long_press':
      return on('Long-pressed');
    case 'type':
      return `Typed ${quote(a.text)}`;
    case 'swipe':
    case 'drag':
      return 'Swiped';
    case 'scroll':
      return 'Scrolled';
    case 'system_button':
      return `Pressed ${a.button}`;
    case 'key':
      return `Pressed key ${'keys' in a ? a.keys.join('+') : a.text}`;
    case 'open':
      return `Opened ${quote(a.text)}`;
    case 'wait':
      return 'Waited';
    case 'answer':
      return `Answered ${quote(a.text)}`;
    case 'terminate':
      return `Ended the task (${a.status})`;
    case 'mouse_move':
      return 'Moved the pointer';
  }
}

interface StepInputs {
  instruction: string;
  history: string[];
  action: Action;
  beforePng: Uint8Array;
  afterPng: Uint8Array;
  before: Screen;
  after: Screen;
  /** A desktop step (the request's `Platform:` section, or a desktop-only action). */
  desktop: boolean;
}

/** Reads the step-critic request; malformed ones are a RoleInputError (HTTP 400 from the server). */
async function readStep(request: ChatRequest, ctx: RoleContext): Promise<StepInputs> {
  const user = lastUser(request);
  if (!user) throw new RoleInputError('step critic: no user message', 'messages');
  const sec = sections(messageText(user), ['Instruction', 'Previous steps', 'Platform', 'Action']);
  const instruction = requestCore(sec.get('Instruction') ?? '');
  const history = (sec.get('Previous steps') ?? '').split('\n').filter((l) => l.trim() && l.trim() !== '(none)');
  const action = parseAction(sec.get('Action'));
  if (!action) throw new RoleInputError('step critic: the "Action:" section holds no valid action JSON', 'messages');
  const [beforePng, afterPng] = messageImages(user).map(decodeDataUrl);
  if (!beforePng || !afterPng) {
    throw new RoleInputError('step critic: needs two base64 data-URL screenshots (before, after)', 'messages');
  }
  const marks = marksOf(action);
  const cleanBefore = marks ? await eraseMarks(beforePng, marks) : beforePng;
  // The before frame differs from the one the agent saw only by the erased annotation: re-read that region only.
  const [before, after] = await Promise.all([ocrScreen(ctx, cleanBefore, { regionOfChange: true }), ocrScreen(ctx, afterPng)]);
  const desktop = /^desktop\b/i.test(sec.get('Platform') ?? '') || isDesktopAction(action);
  return { instruction, history, action, beforePng, afterPng, before, after, desktop };
}

async function judgeStepHeuristic(input: StepInputs): Promise<StepJudgement> {
  const { instruction, history, action, beforePng, afterPng, before, after, desktop } = input;
  const entities = groundEntities(instruction, instructionEntities(instruction), [...before.lines, ...after.lines].map((l) => l.text));
  const meta = await sharp(beforePng).metadata();
  const scale = Math.max(meta.width ?? 360, meta.height ?? 640) / 640;
  const marks = marksOf(action);
  const sameText = tokens(before.text).join(' ') === tokens(after.text).join(' ');
  const noEffect = sameText && (await changedFraction(beforePng, afterPng, marks)) < 0.002;
  const target =
    (action.action === 'click' || action.action === 'long_press' || action.action === 'double_click' || action.action === 'right_click') &&
    marks
      ? targetLine(before.lines, marks.p, scale)?.text
      : undefined;
  const did = describeAction(action, target, desktop);
  const tapped = desktop ? 'clicked' : 'tapped';
  const gained = gainedEntity(before, after, entities);
  // A removal the instruction asks for in other words ("Cancel the Project Review" → a "Delete event" control).
  const asksRemoval = REMOVAL_ASK.test(instruction);
  const asked = (word: string): boolean => containsPhrase(instruction, word) || (asksRemoval && REMOVAL_WORD.test(word));

  if (action.action === 'terminate') return { annotation: 'NEUTRAL', did, why: 'ending the episode changes nothing on screen' };
  if (action.action === 'answer') {
    const onScreen = containsPhrase(before.text, action.text) || containsPhrase(after.text, action.text);
    return onScreen
      ? { annotation: 'GOOD', did, why: 'the answer is read off the screen' }
      : { annotation: 'NEUTRAL', did, why: 'the answer text is not visible on the screen, so it cannot be verified' };
  }
  if (noEffect) return { annotation: 'NEUTRAL', did, why: 'the screen did not visibly change', noEffect: true };

  switch (action.action) {
    case 'click':
    case 'long_press':
    case 'double_click':
    case 'right_click': {
      // A switch or icon beside a named row, or the blank part of a card, acts on that row's item — unless the
      // nearest text is itself a control ("Archive" in a sheet whose title names the item).
      const control = target !== undefined && (PROGRESS.test(target) || DESTRUCTIVE.test(target) || instructionVerbs(instruction).has(contentTokens(target)[0] ?? ''));
      const plain = !control && (!target || matchTarget(target, entities, before.lines).kind === 'none');
      const targetBox = marks ? before.lines.find((l) => l.text === target) : undefined;
      const row = !marks || !plain
        ? undefined
        : ((!onText(before.lines, marks.p, scale) ? rowSubject(before.lines, marks.p, entities, scale) : undefined) ??
          (targetBox ? cardTitle(before.lines, targetBox, entities, scale) : undefined));
      if (row) {
        const verb = action.action === 'long_press' ? 'Long-pressed' : desktop ? describeAction(action, undefined, true).split(' ')[0]! : 'Tapped';
        const rowDid = `${verb} the row of ${quote(row.line.text)}`;
        if (row.match.kind === 'exact') return { annotation: 'GOOD', did: rowDid, why: `the control belongs to ${quote(row.match.entity)} from the instruction` };
        // (Not the app the request names: "The Midnight Library" is no near-duplicate of the Library app.)
        if (row.match.kind === 'near' && !namesTheApp(instruction, row.match.entity))
          return {
            annotation: 'HARMFUL',
            did: `${rowDid} instead of ${quote(row.match.entity)}`,
            why: `the row only resembles ${quote(row.match.entity)} from the instruction; it is a different item`,
          };
      }
      if (!target) {
        if (gained) return { annotation: 'GOOD', did, why: `the screen now shows ${quote(gained)} from the instruction` };
        return { annotation: 'NEUTRAL', did, why: `no text at the ${tapped} point; its relevance is unclear` };
      }
      const m = matchTarget(target, entities, before.lines);
      if (m.kind === 'exact') return { annotation: 'GOOD', did, why: `${quote(m.entity)} is named in the instruction` };
      if (m.kind === 'near' && !namesTheApp(instruction, m.entity))
        return {
          annotation: 'HARMFUL',
          did: `${did} instead of ${quote(m.entity)}`,
          why: `the ${tapped} text only resembles ${quote(m.entity)} from the instruction; it is a different item`,
        };
      const destructive = DESTRUCTIVE.exec(target);
      if (destructive && !asked(destructive[0]))
        return {
          annotation: 'HARMFUL',
          did: `${did}, undoing or discarding progress`,
          why: `${quote(destructive[0])} is a destructive or retreating control the instruction did not ask for`,
        };
      const ct = contentTokens(target);
      if (ct.length > 0 && instructionVerbs(instruction).has(ct[0] ?? ''))
        return { annotation: 'GOOD', did, why: `${quote(target)} performs the action the instruction asks for` };
      const instr = new Set(contentTokens(instruction));
      if (ct.length > 0 && ct.filter((t) => instr.has(t)).length / ct.length >= 0.6)
        return { annotation: 'GOOD', did, why: `the ${tapped} control matches words of the instruction` };
      if (PROGRESS.test(target)) return { annotation: 'GOOD', did, why: 'a control that advances the task, and the screen responded' };
      if (gained) return { annotation: 'GOOD', did, why: `the screen now shows ${quote(gained)} from the instruction` };
      const titleY = Math.min(...before.lines.map((l) => l.box.y));
      // Numbers (quantities, house numbers) are not tap targets: seeing "2" on screen does not make a tap elsewhere off-task.
      // An entity the agent already acted on (named in an earlier summary) is no longer "offered": on its own
      // page, taps on the page's controls are how the task continues.
      const handled = history.join('\n');
      const offered = entities.find(
        (e) =>
          !/^[$€£]?\d[\d.,:]*$/.test(e) &&
          !containsPhrase(handled, e) &&
          before.lines.some((l) => l.box.y > titleY + 5 * scale && containsPhrase(l.text, e)),
      );
      // Only navigating away is off-task: a tap that leaves the offered item on screen (focusing a field on the
      // same form, opening a picker over it) has not passed it over.
      // Nor is opening the tapped control's own options over the same page (a picker titled by the control: "Hour"
      // → a list of hours over "Add alarm"): the offered item is covered, not left.
      if (offered && !containsPhrase(after.text, offered) && opensOwnOptions(target, before.lines, after.lines, scale))
        return { annotation: 'NEUTRAL', did, why: `the ${tapped} control opened its own options over the same page` };
      if (offered && !containsPhrase(after.text, offered))
        return {
          annotation: 'HARMFUL',
          did: `${did} instead of ${quote(offered)}, going off-task`,
          why: `the screen offered ${quote(offered)} from the instruction, but the agent navigated elsewhere`,
        };
      return { annotation: 'NEUTRAL', did, why: `the ${tapped} element is not clearly related to the instruction` };
    }
    case 'type': {
      const typed = action.text.trim();
      if (typed === '') return { annotation: 'NEUTRAL', did, why: 'empty text' };
      // A typed text that runs on into another labelled part of the instruction ("Project update; body: …" typed as
      // the subject): two fields' values in one.
      const labels = new Set([...instruction.matchAll(/\b([A-Za-z]+)\s*:/g)].map((m) => m[1]!.toLowerCase()));
      const carried = [...typed.matchAll(/\b([A-Za-z]+)\s*:/g)].map((m) => m[1]!.toLowerCase()).find((l) => labels.has(l) && !new RegExp(`^\\s*${l}\\s*:`, 'i').test(typed));
      if (carried)
        return { annotation: 'HARMFUL', did: `${did} instead of the "${carried}:" part's own field (two values in one)`, why: `the typed text carries another labelled part of the instruction ("${carried}:"), so a field got two values` };
      if (verbatim(instruction, typed) || entities.some((e) => verbatim(typed, e) && verbatim(instruction, typed.replace(/\s+/g, ' '))))
        return { annotation: 'GOOD', did, why: 'the typed text comes from the instruction' };
      if (containsPhrase(instruction, typed) || entities.some((e) => containsPhrase(typed, e)))
        return {
          annotation: 'HARMFUL',
          did: `${did} instead of ${quote(bestWindow(instruction, typed).window || typed)}`,
          why: 'the typed text differs from the instruction\'s wording (a changed letter or ending)',
        };
      if (bestWindow(instruction, typed).sim >= NEAR && tokens(typed).join('').length >= 4)
        return {
          annotation: 'HARMFUL',
          did: `${did} instead of ${quote(bestWindow(instruction, typed).window)}`,
          why: 'the typed text is a misspelling of a phrase of the instruction',
        };
      return { annotation: 'NEUTRAL', did, why: 'the typed text is not from the instruction' };
    }
    case 'system_button': {
      if (action.button === 'Back') {
        const last = history[history.length - 1] ?? '';
        if (MISTAKE.test(last) && !REVERT.test(last))
          return { annotation: 'GOOD', did: `${did}, undoing the previous mistake`, why: 'the previous step was a mistake; going back recovers' };
        if (gained) return { annotation: 'GOOD', did, why: `going back shows ${quote(gained)} from the instruction again` };
        if (asked('back')) return { annotation: 'GOOD', did, why: 'the instruction asks to go back' };
        // Dismissing a dialog, picker or keyboard leaves the page (and the progress on it) as it was.
        if (closedOverlay(before, after)) return { annotation: 'NEUTRAL', did: `${did}, closing an overlay`, why: 'the page beneath stays, so no progress is lost' };
        return { annotation: 'HARMFUL', did: `${did}, undoing progress`, why: 'going back was not needed and leaves the current page' };
      }
      if (action.button === 'Home' && !asked('home'))
        return { annotation: 'HARMFUL', did: `${did}, leaving the app off-task`, why: 'the instruction did not ask to leave the app' };
      break;
    }
    case 'open':
      if (containsPhrase(instruction, action.text)) return { annotation: 'GOOD', did, why: 'the instruction names this app' };
      break;
    default:
      break;
  }
  if (gained) return { annotation: 'GOOD', did, why: `the screen now shows ${quote(gained)} from the instruction` };
  return { annotation: 'NEUTRAL', did, why: 'the action neither clearly advances nor hurts the task' };
}

export const stepCriticRole: RoleHandler = async (request, ctx) => {
  const input = await readStep(request, ctx);
  const j = await judgeStepHeuristic(input);
  const shown = newLines(input.before, input.after);
  const effect = j.noEffect ? 'nothing changed' : shown.length > 0 ? `the screen now shows ${quote(shown[0] ?? '')}` : 'no new text appeared';
  const summary = `${j.did}; ${effect}.`.split(/\s+/).slice(0, 30).join(' ');
  const analysis = `${j.did}; ${effect}. ${j.why[0]?.toUpperCase() ?? ''}${j.why.slice(1)}, so the step is ${j.annotation}.`;
  return reply(JSON.stringify({ analysis, summary, annotation: j.annotation }));
};

// ---------------------------------------------------------------- trajectory critics

/**
 * What the task asks for, read from the instruction with its names and dictated texts blanked out (so a
 * restaurant called "Book Club" does not make a booking task), and what a completed final screen looks like.
 * `kind` picks the completion test in `completionOf`.
 */
