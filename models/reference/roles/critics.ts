/**
 * Reference critics of the built-in reference model server: CPU heuristics over OCR, not a VLM. Like any
 * served model they read only the request (information firewall): the instruction, step summaries, action
 * texts, captions and the screenshots decoded from the request's data URLs. They speak the request formats
 * of critics/step-critic.ts and critics/trajectory-critic.ts (section labels `Instruction:`, `Previous steps:`,
 * `Action:`, `Steps:`, `Screen captions:`, `Outcome:`; image labels `Final screen ...`) and reply with the JSON
 * those modules parse.
 *
 * Shared tools: the instruction's key ENTITIES (intent.ts) are its quoted strings, introduced names, runs of
 * capitalised words (a sentence-initial verb or courtesy word is dropped) and numbers. Matching (text-match.ts)
 * is on lowercase alphanumeric tokens with a light plural stem; "near-duplicate" = a window of the same token
 * count whose normalised Levenshtein similarity is ≥ 0.75 but which is not equal ("Burger Place" vs "Burger Palace").
 *
 * Step critic (`ref-step-critic`), in order:
 *  1. OCR the annotated before and the after screenshot. "No visible effect" = same OCR text and < 0.2% of
 *     pixels changed outside the annotation marks → NEUTRAL (for every action kind but terminate/answer).
 *  2. click/long_press: the target is the OCR line containing / nearest to the action's coordinate.
 *     target equals an entity → GOOD; near-duplicate of an entity → HARMFUL; a destructive/retreat control
 *     (Cancel, Delete, Remove, Back, Sign out, …) the instruction does not ask for → HARMFUL; ≥ 60% of the
 *     target's content words in the instruction → GOOD; a progress control (Add to cart, Checkout, Place
 *     order, Save, Send, Next, Search, …) that changed the screen → GOOD; the after screen newly shows an
 *     entity → GOOD; the before screen offered an entity in its body but the tap navigated elsewhere → HARMFUL
 *     (off-task); else NEUTRAL.
 *  3. type: the text is (a phrase of) the instruction → GOOD; near-duplicate of an instruction phrase →
 *     HARMFUL (typo); else NEUTRAL. swipe/scroll/key/open: GOOD when an entity newly appears, else NEUTRAL.
 *     Back: GOOD when it undoes a step summarised as a mistake or newly shows an entity; else HARMFUL.
 *     Home: HARMFUL unless asked. wait/terminate/answer: NEUTRAL (answer: GOOD if its text is on screen).
 *  The summary (≤ 30 words) says what was done and what the screen now shows; HARMFUL summaries use the words
 *  "instead of"/"off-task"/"undoing" so the trajectory critic can see them.
 *
 * Trajectory critics (`ref-trajectory-critic-text` over captions, `ref-trajectory-critic-multimodal` over
 * its own OCR of the screenshots in the request): Correct iff
 *  - completion: the final screen shows a completion signal consistent with the instruction's intent (order →
 *    "Order placed/confirmed"; add to cart → "Added to cart"/cart page; book → "Booked/Confirmed"; send →
 *    "Sent"; delete → "Deleted/Removed"; toggle/set → the entity with On/Off/Saved; create/save →
 *    "Saved/Created/Added"; navigation/other → every entity on the final screen; a question → an `answer`
 *    outcome whose text is on some screen),
 *  - coverage: every entity appears in the summaries or the screens after the first,
 *  - no step summary marks a mistake that no later summary reverts, and the outcome is not `failure`,
 *  - result screen (evidence.ts): an item the request names is not replaced on the final screen by a
 *    near-duplicate ("Classic Burger" in the cart for "Bacon Burger"), except for removals and switches,
 *  - pixels (multimodal only): a request for a change whose final screenshot differs from the first in < 0.5% of
 *    the app area changed nothing; switch positions are read from their colour beside the named row.
 *  The instruction is first reduced to its request (intent.ts: courtesy frames and context sentences dropped),
 *  so rewording a request does not change what is checked.
 *  Score s = ½·completion + ½·coverage − 0.3·harm (0 on failure). At temperature 0 the verdict is s = 1;
 *  at temperature T > 0 a vote is Correct with probability σ((s − 0.85) / (w·T)) (w = 0.04 text, 0.06
 *  multimodal), so clear cases rarely flip and borderline ones (partial coverage) split — voting matters.
 */
import sharp from 'sharp';
import { Action } from '../../../domain/action.js';
import { messageImages, messageText } from '../../../domain/openai.js';
import type { ChatMessage, ChatRequest } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { OcrLine, RoleContext, RoleHandler } from '../types.js';
import { entityEnd, instructionEntities, intentText, namesTheApp, requestCore } from './intent.js';
import { nearDuplicateOnResult, screenChange } from './evidence.js';
import { bestWindow, containsPhrase, contentTokens, IMPERATIVES, NEAR, tokens } from './text-match.js';
export { instructionEntities } from './intent.js';

type EntityMatch = { kind: 'exact'; entity: string } | { kind: 'near'; entity: string; window: string } | { kind: 'none' };

/** "Jun" for "June", "Wed" for "Wednesday": a single-word prefix of ≥ 3 letters is an abbreviation, not another item. */
function isAbbreviation(window: string, entity: string): boolean {
  const w = tokens(window);
  const e = tokens(entity);
  return w.length === 1 && e.length === 1 && (w[0] ?? '').length >= 3 && (e[0] ?? '').startsWith(w[0] ?? '\0');
}

function matchEntities(text: string, entities: readonly string[]): EntityMatch {
  for (const e of entities) if (containsPhrase(text, e) || isAbbreviation(text, e)) return { kind: 'exact', entity: e };
  let best: { entity: string; window: string; sim: number } | undefined;
  for (const e of entities) {
    if (tokens(e).join('').length < 4) continue; // numbers and short words are too ambiguous to call near-duplicates
    const w = bestWindow(text, e);
    if (w.sim >= NEAR && !isAbbreviation(w.window, e) && (!best || w.sim > best.sim)) best = { entity: e, window: w.window, sim: w.sim };
  }
  return best ? { kind: 'near', entity: best.entity, window: best.window } : { kind: 'none' };
}

/**
 * Matches a tapped line against the entities, knowing the rest of the screen: a line that contains an entity
 * plus more words ("Gym class" for "Gym", "Work late shift" for "Work") is a different, longer-named item
 * when another line of the same screen is exactly the entity.
 */
function matchTarget(target: string, entities: readonly string[], screen: readonly OcrLine[]): EntityMatch {
  const m = matchEntities(target, entities);
  // Numbers are not names: "3 items" is no rival of the quantity "3".
  if (m.kind !== 'exact' || /^[$€£]?\d[\d.,:]*$/.test(m.entity.trim())) return m;
  const t = contentTokens(target).join(' ');
  const e = contentTokens(m.entity).join(' ');
  if (t === e) return m;
  const exactElsewhere = screen.some((l) => l.text !== target && contentTokens(l.text).join(' ') === e);
  return exactElsewhere ? { kind: 'near', entity: m.entity, window: target } : m;
}

function quote(s: string, maxWords = 6): string {
  const w = s.trim().split(/\s+/);
  return `"${w.length > maxWords ? `${w.slice(0, maxWords).join(' ')}…` : w.join(' ')}"`;
}

// ---------------------------------------------------------------- request reading

function lastUser(request: ChatRequest): ChatMessage | undefined {
  return [...request.messages].reverse().find((m) => m.role === 'user');
}

/** Labelled sections (`Label:` on its own line, or `Label: value`), by label. */
function sections(text: string, labels: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const re = new RegExp(`^(${labels.map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}):[ \\t]*(.*)$`, 'gm');
  const hits = [...text.matchAll(re)];
  hits.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length - (m[2] ?? '').length;
    const end = hits[i + 1]?.index ?? text.length;
    if (!out.has(m[1] ?? '')) out.set(m[1] ?? '', text.slice(start, end).trim());
  });
  return out;
}

function decodeDataUrl(url: string): Uint8Array | undefined {
  const m = /^data:[^;,]+(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return m ? new Uint8Array(Buffer.from(m[1] ?? '', 'base64')) : undefined;
}

function parseAction(text: string | undefined): Action | undefined {
  if (!text) return undefined;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    const r = Action.safeParse(JSON.parse(text.slice(start, end + 1)));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

function reply(content: string): ChatMessage & { finish_reason?: string } {
  return { role: 'assistant', content, finish_reason: 'stop' };
}

// ---------------------------------------------------------------- step critic

const DESTRUCTIVE =
  /\b(cancel|remove|delete|discard|clear|sign out|log ?out|uninstall|reset|erase|unsubscribe|block|decline|reject|dismiss|back|close|no thanks|undo)\b/i;
const PROGRESS =
  /\b(add to (cart|basket|bag)|add|checkout|check out|place order|order now|buy|pay|confirm|save|submit|send|next|continue|done|ok|search|apply|book|reserve|cart|proceed|create|post|yes|allow|set|select|choose)\b/i;
/** Instructions asking to remove something, and the control words that carry a removal out. */
const REMOVAL_ASK = /\b(delete|remove|cancel|clear|erase|discard|get rid of|no longer need)\b/i;
const REMOVAL_WORD = /^(cancel|remove|delete|discard|clear|erase)$/i;
const MISTAKE = /\b(instead of|off-task|wrong|by mistake|mistaken|undoing|not requested|deleted|removed|cancell?ed)\b/i;
const REVERT = /\b(went back|back to|undid|undo|undoing the|returned|restored|recovered|reverted)\b/i;

interface Screen {
  lines: OcrLine[];
  text: string;
}

async function ocrScreen(ctx: RoleContext, png: Uint8Array, opts?: { regionOfChange?: boolean }): Promise<Screen> {
  const lines = await ctx.ocr.recognize(png, opts);
  return { lines, text: lines.map((l) => l.text).join('\n') };
}

type Marks = { p: readonly [number, number]; p2?: readonly [number, number] };

function marksOf(action: Action): Marks | undefined {
  if (!('coordinate' in action) || !action.coordinate) return undefined;
  return { p: action.coordinate, ...('coordinate2' in action ? { p2: action.coordinate2 } : {}) };
}

const MARK_RADIUS = 34;

/** Squared distance from (x, y) to the marked point or segment. */
function markDistance2(m: Marks, x: number, y: number): number {
  const [x1, y1] = m.p;
  const [x2, y2] = m.p2 ?? m.p;
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / len2));
  const ex = x - (x1 + t * dx);
  const ey = y - (y1 + t * dy);
  return ex * ex + ey * ey;
}

/** The step-critic request protocol draws marks in pure red at this opacity (critics/step-critic.ts MARK). */
const MARK_ALPHA = 0.6;

/**
 * Removes the red interaction marks near the action's point so OCR reads the text under them, as a VLM
 * sees through them: reddish pixels within the mark radius are un-blended, U = (P − α·red) / (1 − α).
 */
async function eraseMarks(png: Uint8Array, m: Marks): Promise<Uint8Array> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const r2 = MARK_RADIUS * MARK_RADIUS;
  const q = m.p2 ?? m.p;
  const x0 = Math.max(0, Math.floor(Math.min(m.p[0], q[0]) - MARK_RADIUS));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(m.p[0], q[0]) + MARK_RADIUS));
  const y0 = Math.max(0, Math.floor(Math.min(m.p[1], q[1]) - MARK_RADIUS));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(m.p[1], q[1]) + MARK_RADIUS));
  const clamp = (v: number): number => Math.max(0, Math.min(255, Math.round(v)));
  let touched = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (markDistance2(m, x, y) > r2) continue;
      const i = (y * width + x) * channels;
      const r = data[i] ?? 0;
      const g = data[i + 1] ?? 0;
      const b = data[i + 2] ?? 0;
      if (r - Math.max(g, b) <= 40) continue;
      data[i] = clamp((r - MARK_ALPHA * 255) / (1 - MARK_ALPHA));
      data[i + 1] = clamp(g / (1 - MARK_ALPHA));
      data[i + 2] = clamp(b / (1 - MARK_ALPHA));
      touched++;
    }
  }
  if (touched === 0) return png;
  return new Uint8Array(await sharp(data, { raw: { width, height, channels } }).png().toBuffer());
}

/** Fraction of pixels that differ, ignoring the annotation marks' own pixels. */
async function changedFraction(
  a: Uint8Array,
  b: Uint8Array,
  marks: Marks | undefined,
): Promise<number> {
  const [ra, rb] = await Promise.all([
    sharp(a).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
    sharp(b).removeAlpha().raw().toBuffer({ resolveWithObject: true }),
  ]);
  if (ra.info.width !== rb.info.width || ra.info.height !== rb.info.height) return 1;
  const { width, height, channels } = ra.info;
  // Only the drawn marks are ignored (reddish pixels of the annotated before-screen near the action's point),
  // not the whole disk around it: a switch flipped under the ring is a visible effect.
  const masked = (x: number, y: number): boolean => {
    if (marks === undefined || markDistance2(marks, x, y) > MARK_RADIUS * MARK_RADIUS) return false;
    const i = (y * width + x) * channels;
    const r = ra.data[i] ?? 0;
    return r - Math.max(ra.data[i + 1] ?? 0, ra.data[i + 2] ?? 0) > 16;
  };
  let changed = 0;
  let counted = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (masked(x, y)) continue;
      counted++;
      const i = (y * width + x) * channels;
      for (let c = 0; c < channels; c++) {
        if (Math.abs((ra.data[i + c] ?? 0) - (rb.data[i + c] ?? 0)) > 24) {
          changed++;
          break;
        }
      }
    }
  }
  return counted === 0 ? 0 : changed / counted;
}

function targetLine(lines: readonly OcrLine[], [x, y]: readonly [number, number], scale: number): OcrLine | undefined {
  const dist = (l: OcrLine): number => {
    const dx = Math.max(l.box.x - x, 0, x - (l.box.x + l.box.w));
    const dy = Math.max(l.box.y - y, 0, y - (l.box.y + l.box.h));
    return Math.hypot(dx, dy);
  };
  const ranked = [...lines].sort((a, b) => dist(a) - dist(b));
  const near = ranked[0];
  if (near && dist(near) <= 6 * scale) return near;
  // A tap on the empty part of a row (a menu item, a list row): the text on the same row.
  const row = lines.filter((l) => y >= l.box.y - 8 * scale && y <= l.box.y + l.box.h + 8 * scale).sort((a, b) => dist(a) - dist(b));
  if (row[0]) return row[0];
  if (near && dist(near) <= 40 * scale) return near;
  return undefined;
}

function newLines(before: Screen, after: Screen): string[] {
  const seen = new Set(before.lines.map((l) => tokens(l.text).join(' ')));
  return after.lines.map((l) => l.text).filter((t) => tokens(t).length > 0 && !seen.has(tokens(t).join(' ')));
}

function gainedEntity(before: Screen, after: Screen, entities: readonly string[]): string | undefined {
  return entities.find((e) => containsPhrase(after.text, e) && !containsPhrase(before.text, e));
}

interface StepJudgement {
  annotation: 'GOOD' | 'NEUTRAL' | 'HARMFUL';
  did: string;
  why: string;
  /** The screen did not visibly change (the summary then says "nothing changed"). */
  noEffect?: boolean;
}

/** Whether (x, y) falls on (or within a few pixels of) a text line. */
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

function describeAction(a: Action, target: string | undefined): string {
  switch (a.action) {
    case 'click':
    case 'double_click':
    case 'right_click':
    case 'middle_click':
      return target ? `Tapped ${quote(target)}` : 'Tapped a non-text element';
    case 'long_press':
      return target ? `Long-pressed ${quote(target)}` : 'Long-pressed a non-text element';
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
}

/** Reads the step-critic request; malformed ones are a RoleInputError (HTTP 400 from the server). */
async function readStep(request: ChatRequest, ctx: RoleContext): Promise<StepInputs> {
  const user = lastUser(request);
  if (!user) throw new RoleInputError('step critic: no user message', 'messages');
  const sec = sections(messageText(user), ['Instruction', 'Previous steps', 'Action']);
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
  return { instruction, history, action, beforePng, afterPng, before, after };
}

async function judgeStepHeuristic(input: StepInputs): Promise<StepJudgement> {
  const { instruction, history, action, beforePng, afterPng, before, after } = input;
  const entities = instructionEntities(instruction);
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
  const did = describeAction(action, target);
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
        const verb = action.action === 'long_press' ? 'Long-pressed' : 'Tapped';
        const rowDid = `${verb} the row of ${quote(row.line.text)}`;
        if (row.match.kind === 'exact') return { annotation: 'GOOD', did: rowDid, why: `the control belongs to ${quote(row.match.entity)} from the instruction` };
        if (row.match.kind === 'near')
          return {
            annotation: 'HARMFUL',
            did: `${rowDid} instead of ${quote(row.match.entity)}`,
            why: `the row only resembles ${quote(row.match.entity)} from the instruction; it is a different item`,
          };
      }
      if (!target) {
        if (gained) return { annotation: 'GOOD', did, why: `the screen now shows ${quote(gained)} from the instruction` };
        return { annotation: 'NEUTRAL', did, why: 'no text at the tapped point; its relevance is unclear' };
      }
      const m = matchTarget(target, entities, before.lines);
      if (m.kind === 'exact') return { annotation: 'GOOD', did, why: `${quote(m.entity)} is named in the instruction` };
      if (m.kind === 'near')
        return {
          annotation: 'HARMFUL',
          did: `${did} instead of ${quote(m.entity)}`,
          why: `the tapped text only resembles ${quote(m.entity)} from the instruction; it is a different item`,
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
        return { annotation: 'GOOD', did, why: 'the tapped control matches words of the instruction' };
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
      if (offered && !containsPhrase(after.text, offered))
        return {
          annotation: 'HARMFUL',
          did: `${did} instead of ${quote(offered)}, going off-task`,
          why: `the screen offered ${quote(offered)} from the instruction, but the agent navigated elsewhere`,
        };
      return { annotation: 'NEUTRAL', did, why: 'the tapped element is not clearly related to the instruction' };
    }
    case 'type': {
      const typed = action.text.trim();
      if (typed === '') return { annotation: 'NEUTRAL', did, why: 'empty text' };
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
  { name: 'verify', when: /\bverify\b/i, done: /\b(verified|verification (complete|successful))\b/i, kind: 'signal' },
  { name: 'pin', when: /\bpin\b/i, done: /\b(pinned|unpin)\b/i, kind: 'state' },
  { name: 'favourite', when: /\bfavou?rites?\b/i, done: /\b(favou?rited|remove from favou?rites|added to favou?rites|unfavou?rite)\b/i, kind: 'state' },
  { name: 'archive', when: /\barchive\b/i, done: /\barchived\b/i, kind: 'removal' },
  { name: 'delete', when: /\b(delete|remove|erase|clear|cancel|get rid of)\b/i, done: /\b(deleted|removed|cleared|cancell?ed)\b/i, kind: 'removal' },
  { name: 'book', when: /\b(book|reserve)\b/i, done: /\b(booked|reserved|scheduled|confirmed|reservation confirmed|booking confirmed)\b/i, kind: 'signal' },
  { name: 'send', when: /\b(send|reply|email|post|text|message)\b/i, done: /\b(sent|delivered|posted)\b/i, kind: 'signal' },
  {
    name: 'toggle',
    when: /\b(turn|switch|enable|disable|toggle)\b/i,
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
  const unquoted = instruction.replace(/["“”][^"“”]*["“”]/g, '""').trim();
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
/** Controls that commit a form. */
const COMMIT = /^(save|create|add|done|submit|post|send|ok|confirm|apply|verify)\b/i;
/** Controls that carry out a removal. */
const REMOVE_CONTROL = /^(delete|remove|archive|clear|discard|yes|ok|confirm|cancel event)\b/i;
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
}

/** Below this share of changed app area, the final screenshot shows nothing the first did not. */
const UNCHANGED = 0.005;

interface TrajectoryDecision {
  correct: boolean;
  score: number;
  reasoning: string;
}

/** The quoted object of a step summary's action part: 'Tapped "X"', 'Tapped the row of "X"', 'Typed "X"'. */
function summaryAction(summary: string): { verb: string; object: string; changed: boolean } | undefined {
  const did = summary.split(';')[0] ?? '';
  const m = /^(Tapped|Long-pressed|Typed|Opened|Answered)(?: the row of)? "([^"]*)"/.exec(did.trim());
  if (!m) return undefined;
  return { verb: m[1] ?? '', object: (m[2] ?? '').replace(/…$/, ''), changed: !/;\s*nothing changed\b/.test(summary) };
}

/** Removes the names of the apps the agent opened from an entity ("ShopMart Hoodies" → "Hoodies"). */
function withoutApps(entity: string, apps: readonly string[]): string {
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
  const m = /\b(?:set|change|make|update|adjust|switch|turn)\s+(?:my\s+|the\s+|your\s+)?(.+?)\s+(?:to|for)\s+(.+?)\s*(?:,?\s*please)?[.!]?\s*$/i.exec(instruction.trim());
  if (!m) return undefined;
  // The value ends at a function word ("Large in Settings" → "Large"), as in the policy.
  const value = entityEnd(m[2] ?? '');
  if (tokens(value).length === 0 || tokens(value).length > 4 || /^(on|off)$/i.test(value)) return undefined;
  return { setting: (m[1] ?? '').trim(), value };
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

function completionOf(ev: TrajectoryEvidence, entities: readonly string[], intentText: string): Completion {
  const final = ev.screens[ev.screens.length - 1] ?? '';
  const lines = ev.finalLines;
  const acted = ev.summaries.map(summaryAction);
  const onFinal = (e: string): boolean => containsPhrase(final, e);

  const setting = settingRequest(ev.instruction);
  if (setting) {
    const wanted = new Set(contentTokens(setting.setting).filter((t) => !IMPERATIVES.has(t)));
    const value = tokens(setting.value).join(' ');
    // The rows naming the setting best ("Font size", not "Display size", for "Font size").
    const share = (l: string): number => new Set(contentTokens(l).filter((t) => wanted.has(t))).size;
    const best = Math.max(0, ...lines.map(share));
    const hit = lines.findIndex((l, i) => {
      if (best === 0 || share(l) < best) return false;
      const next = tokens(lines[i + 1] ?? '').join(' ');
      return next === value || tokens(l).join(' ').endsWith(` ${value}`);
    });
    return hit >= 0
      ? { complete: true, reason: `the final screen shows ${quote(lines[hit] ?? '')} set to ${quote(setting.value)}` }
      : { complete: false, reason: `the final screen does not show ${quote(setting.setting)} set to ${quote(setting.value)}` };
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
    return reached
      ? { complete: true, reason: 'the final screen shows the requested page, reached by acting on it' }
      : { complete: false, reason: 'the names are on the final screen but no step acted on them (the start page lists them)' };
  }

  // A pending or asked change ("Book Club will be removed.", "Delete this event?") is not a completion signal.
  const sig = intent.done.exec(lines.filter((l) => !/\bwill\b|\?/.test(l)).join('\n'));
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

function decideTrajectory(ev: TrajectoryEvidence): { score: number; reasons: string[]; failure: boolean } {
  const reasons: string[] = [];
  const apps = ev.actions.flatMap((a) => (a?.action === 'open' ? [a.text] : []));
  const entities = instructionEntities(ev.instruction)
    .map((e) => withoutApps(e, apps))
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
    // Pixels (multimodal only): a request for a change whose final screenshot equals the first changed nothing.
    if (kind !== undefined && ev.pixelChange !== undefined && ev.pixelChange < UNCHANGED) {
      completion = false;
      reasons.push(`the final screenshot differs from the first in ${(100 * ev.pixelChange).toFixed(1)}% of the app area: nothing visibly changed`);
    }
  }

  // Coverage: entities in summaries or screens after the first.
  const evidence = [...ev.summaries, ...ev.screens.slice(1)].join('\n');
  const found = entities.filter((e) => containsPhrase(evidence, e));
  const coverage = entities.length === 0 ? 1 : found.length / entities.length;
  if (entities.length > 0) {
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
    if (!HARM_MARK.test(did)) return;
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
  };
  return trajectoryReply(decisionOf(ev, request.temperature ?? 0, 0.06, ctx.random, 'multimodal'));
};
