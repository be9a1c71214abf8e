import sharp from 'sharp';
import { parsePolicyPrompt } from '../../../agents/gui-owl.js';
import type { MobileAction } from '../../../domain/action.js';
import { RoleInputError } from '../errors.js';
import type { OcrLine, RoleHandler } from '../types.js';

/**
 * THE REFERENCE POLICY — a documented CPU heuristic standing in for a GUI VLM (it is not one).
 *
 * Information firewall: it reads ONLY the request — the instruction, the history of conclusions and any
 * guidance from the last user message (as written by `buildPolicyRequest`), and the latest screenshot
 * (the last image, a `data:` URL), which it reads with OCR. No environment state, no checker, no app data.
 *
 * 1. Sub-goals: the instruction (or the Guidance lines, when present) is split on `;`, `.`, `then`, commas
 *    and `and` (only where the next piece starts with a verb, so "Fish and Chips" survives) and each piece
 *    is typed: open X | tap X (tap/select/click/go to/choose/pick/view) | add [N] X | type T into field F
 *    ("enter the address T", "set the name to T", "type T in the note field") | search for X (focus the search
 *    field, type, press Enter) | pay with X | place the order / checkout (tap a confirm-like button).
 * 2. Progress lives in the conclusions: every conclusion the policy writes ends with a tag such as
 *    `[goal 2/5 done]`, `[goal 3/5: added 1/2]`, `[goal 4/5: focused]`, `[goal 2/5: scroll 2]`,
 *    `[goal 2/5: back 1]`, `[all goals done: wait]`. The next call re-reads the history: the current goal is the
 *    first one not tagged done, and its sub-state (adds so far, field focused, scrolls/backs since progress)
 *    comes from the latest conclusions tagged for it. A conclusion without a tag (another policy's) counts as a
 *    step but not as progress.
 * 3. Per screen: `open` goals → `open` with the app name (OCR spelling when the label is visible). Otherwise
 *    the OCR lines are scored against the goal's target (normalised: lower-case, alphanumerics only, spaces
 *    removed since OCR drops them; exact = 1, containment 0.5–0.9 by length ratio, else 1 − edit distance
 *    ratio capped at 0.9; near-duplicates therefore lose to the exact name) and the best box centre is clicked.
 *    Not visible → swipe up (≤ 3 times), then Back, again (≤ 2 Backs), then `terminate` failure.
 *    After the last goal: a success-looking text ("order placed", "added to cart", "thank you"...) →
 *    `terminate` success; otherwise wait once, then `terminate` success (optimistically — a source of
 *    false successes for the critics to catch). Step budget 4 × goals + 8, then `terminate` failure.
 * 4. Temperature (`request.temperature`, default 0): at T = 0 everything is argmax and click points are box
 *    centres. At T > 0 the target is sampled by softmax(10 · score / T) among matches (with a "scroll instead"
 *    option when no exact match is visible) and the click point is jittered inside the box, using ctx.random,
 *    so samples really differ.
 */

type Goal =
  | { kind: 'open'; target: string; text: string }
  | { kind: 'tap'; targets: string[]; text: string }
  | { kind: 'add'; target: string; qty: number; text: string }
  | { kind: 'type'; field: string | undefined; value: string; submit: boolean; text: string };

const VERB =
  /^(open|launch|start|tap|click|press|select|choose|pick|go to|navigate to|view|add|enter|type|input|fill|set|search|find|pay|place|checkout|check out|confirm|submit|order|buy|book|switch|turn|apply|use|in the|on the|using)\b/i;

const SUCCESS = [
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
const ADD_BUTTONS = ['add', '+', 'addtocart', 'addtobasket', 'addtobag', 'add item'];

export function parseGoals(instruction: string): Goal[] {
  let text = instruction.replace(/[“”]/g, '"').trim();
  // "... in the Foodie app" anywhere → an `open` goal first.
  const pre: Goal[] = [];
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
function toGoals(piece: string): Goal[] {
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

function toGoal(piece: string): Goal | undefined {
  const p = piece.trim().replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  if ((m = /^(?:open|launch|start)\s+(?:the\s+)?(.+?)(?:\s+app(?:lication)?)?$/i.exec(p))) return { kind: 'open', target: cleanTarget(m[1]!), text: p };
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
// Progress (from conclusions)

interface Progress {
  done: Set<number>;
  /** Sub-state of the current goal. */
  added: number;
  focused: boolean;
  typed: boolean;
  opened: boolean;
  scrolls: number;
  backs: number;
  waitedAfterAll: boolean;
}

const TAG = /\[goal (\d+)\/(\d+)(?: (done)|: ([^\]]*))?\]\s*$/;

function readProgress(history: string[], current: (done: Set<number>) => number): Progress {
  const done = new Set<number>();
  for (const c of history) {
    const m = TAG.exec(c);
    if (m && m[3] === 'done') done.add(Number(m[1]) - 1);
  }
  const goal = current(done);
  const p: Progress = { done, added: 0, focused: false, typed: false, opened: false, scrolls: 0, backs: 0, waitedAfterAll: false };
  for (const c of history) {
    if (/\[all goals done: wait\]\s*$/.test(c)) p.waitedAfterAll = true;
    const m = TAG.exec(c);
    if (!m || Number(m[1]) - 1 !== goal || m[3] === 'done') continue;
    const state = m[4] ?? '';
    let s: RegExpExecArray | null;
    if ((s = /^added (\d+)/.exec(state))) {
      p.added = Number(s[1]);
      p.scrolls = 0;
    } else if (state === 'focused') {
      p.focused = true;
      p.scrolls = 0;
    } else if (state === 'typed') p.typed = true;
    else if (state === 'opened item') p.opened = true;
    else if ((s = /^scroll (\d+)/.exec(state))) p.scrolls = Number(s[1]);
    else if ((s = /^back (\d+)/.exec(state))) {
      p.backs = Number(s[1]);
      p.scrolls = 0;
    }
  }
  return p;
}

// ---------------------------------------------------------------------------------------------------
// Matching

export function normText(s: string): string {
  return s.toLowerCase().replace(/[^\p{L}\p{N}+]/gu, '');
}

function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * Similarity of an OCR line to a target in [0, 1]: exact (after normalisation) 1; containment 0.5..0.9;
 * else 1 − edit ratio, capped at 0.9 so a near-duplicate ("Burger Place") never ties the exact name.
 */
export function matchScore(line: string, target: string): number {
  const l = normText(line);
  const t = normText(target);
  if (!l || !t) return 0;
  if (l === t) return 1;
  const edit = 1 - levenshtein(l, t) / Math.max(l.length, t.length);
  let contain = 0;
  if (l.includes(t)) contain = 0.5 + 0.4 * (t.length / l.length);
  else if (t.includes(l) && l.length >= 4) contain = 0.4 + 0.4 * (l.length / t.length);
  return Math.min(0.9, Math.max(edit, contain));
}

interface Candidate {
  line: OcrLine;
  score: number;
}

function candidates(lines: OcrLine[], targets: string[], min = 0.6): Candidate[] {
  const out: Candidate[] = [];
  for (const line of lines) {
    // Earlier targets are preferred alternatives ("Place order" over "Checkout").
    const score = Math.max(...targets.map((t, rank) => matchScore(line.text, t) - 0.03 * rank));
    if (score >= min) out.push({ line, score });
  }
  return out.sort((a, b) => b.score - a.score);
}

/** argmax at T = 0; softmax(10·score/T) sample otherwise. `null` entries stand for "do something else". */
function pick<T extends { score: number }>(items: T[], temperature: number, random: () => number): T | undefined {
  if (items.length === 0) return undefined;
  if (temperature <= 0) return items.reduce((a, b) => (b.score > a.score ? b : a));
  const max = Math.max(...items.map((i) => i.score));
  const weights = items.map((i) => Math.exp((10 * (i.score - max)) / temperature));
  const total = weights.reduce((a, b) => a + b, 0);
  let r = random() * total;
  for (const [i, w] of weights.entries()) {
    r -= w;
    if (r <= 0) return items[i];
  }
  return items[items.length - 1];
}

// ---------------------------------------------------------------------------------------------------
// The role

interface Decision {
  thought: string;
  conclusion: string;
  action: MobileAction;
}

export const policyRole: RoleHandler = async (request, ctx) => {
  const prompt = parsePolicyPrompt(request);
  const last = prompt.screenshots[prompt.screenshots.length - 1];
  if (!last) throw new RoleInputError('the last user message has no screenshot (image_url)', 'messages');
  const bytes = decodeDataUrl(last);
  if (!bytes) throw new RoleInputError('the screenshot must be a base64 data: URL (the reference server fetches nothing)', 'messages');
  let width: number;
  let height: number;
  try {
    const meta = await sharp(bytes).metadata();
    width = meta.width ?? 0;
    height = meta.height ?? 0;
  } catch {
    throw new RoleInputError('the screenshot is not a decodable image', 'messages');
  }
  if (!width || !height) throw new RoleInputError('the screenshot is not a decodable image', 'messages');
  const lines = await ctx.ocr.recognize(bytes);
  const temperature = request.temperature ?? 0;
  const d = decide({
    instruction: prompt.instruction,
    guidance: prompt.guidance,
    history: prompt.history,
    lines,
    screen: { width, height },
    temperature,
    random: ctx.random,
  });
  const call = JSON.stringify({ name: 'mobile_use', arguments: d.action });
  return {
    role: 'assistant',
    content: `Thought: ${d.thought}\nConclusion: ${d.conclusion}\n<tool_call>\n${call}\n</tool_call>`,
    finish_reason: 'stop',
  };
};

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
}

/** The pure decision procedure (exported for unit tests). */
export function decide(input: DecideInput): Decision {
  const { lines, screen, temperature, random, history } = input;
  const goals = input.guidance.length > 0 ? input.guidance.flatMap((g) => parseGoals(g)) : parseGoals(input.instruction);
  const n = goals.length;
  const firstOpen = (done: Set<number>): number => {
    for (let i = 0; i < n; i++) if (!done.has(i)) return i;
    return n;
  };
  const progress = readProgress(history, firstOpen);
  const gi = firstOpen(progress.done);
  const tag = (state: string): string => `[goal ${gi + 1}/${n}${state === 'done' ? ' done' : `: ${state}`}]`;
  const seen = lines.map((l) => l.text).slice(0, 6).join(' | ');

  if (n === 0) {
    return { thought: `I could not work out any step from the task "${input.instruction}".`, conclusion: 'Gave up: the task has no recognisable step. [failed]', action: { action: 'terminate', status: 'failure' } };
  }
  if (history.length >= 4 * n + 8) {
    return { thought: `I have used ${history.length} steps on a ${n}-step task without finishing.`, conclusion: 'Gave up after too many steps without finishing. [failed]', action: { action: 'terminate', status: 'failure' } };
  }

  if (gi >= n) {
    const success = lines.find((l) => SUCCESS.some((s) => normText(l.text).includes(normText(s))));
    if (success) {
      return { thought: `All ${n} steps are done and the screen says "${success.text}".`, conclusion: `Task complete: the screen shows "${success.text}". [all goals done]`, action: { action: 'terminate', status: 'success' } };
    }
    if (!progress.waitedAfterAll) {
      return { thought: `All ${n} steps are done but I see no confirmation yet (screen: ${seen}); waiting for it.`, conclusion: 'Waited for a confirmation after the last step. [all goals done: wait]', action: { action: 'wait', time: 1 } };
    }
    return { thought: `All ${n} steps are done; no explicit confirmation appeared, assuming the task is complete.`, conclusion: 'Finished all steps; assuming success. [all goals done]', action: { action: 'terminate', status: 'success' } };
  }

  const goal = goals[gi]!;
  const notFound = (what: string): Decision => {
    if (progress.backs >= 2) {
      return { thought: `Step ${gi + 1} of ${n}: ${what} is nowhere to be found, even after going back twice.`, conclusion: `Gave up: could not find ${what}. [failed]`, action: { action: 'terminate', status: 'failure' } };
    }
    if (progress.scrolls < 3) {
      const x = Math.round(screen.width / 2);
      return {
        thought: `Step ${gi + 1} of ${n} ("${goal.text}"): I cannot see ${what} on this screen (${seen}). Scrolling down to look for it.`,
        conclusion: `Swiped up to look for ${what}. ${tag(`scroll ${progress.scrolls + 1}`)}`,
        action: { action: 'swipe', coordinate: [x, Math.round(screen.height * 0.75)], coordinate2: [x, Math.round(screen.height * 0.3)] },
      };
    }
    return {
      thought: `Step ${gi + 1} of ${n}: scrolled ${progress.scrolls} times without finding ${what}; going back.`,
      conclusion: `Pressed Back after not finding ${what}. ${tag(`back ${progress.backs + 1}`)}`,
      action: { action: 'system_button', button: 'Back' },
    };
  };
  const clickOn = (line: OcrLine, thought: string, conclusion: string): Decision => ({
    thought,
    conclusion,
    action: { action: 'click', coordinate: pointIn(line, screen, temperature, random) },
  });

  switch (goal.kind) {
    case 'open': {
      const label = pick(candidates(lines, [goal.target], 0.8), temperature, random);
      const name = label && label.score >= 0.9 ? label.line.text : goal.target;
      return {
        thought: `Step ${gi + 1} of ${n}: open the ${goal.target} app${label ? ` (its label "${label.line.text}" is visible)` : ''}.`,
        conclusion: `Opened the ${name} app. ${tag('done')}`,
        action: { action: 'open', text: name },
      };
    }
    case 'tap': {
      const cands: (Candidate & { scroll?: true })[] = candidates(lines, goal.targets);
      const best = cands[0];
      if (best && best.score < 0.95 && temperature > 0) cands.push({ line: best.line, score: 0.5, scroll: true });
      const chosen = pick(cands, temperature, random);
      if (!chosen || chosen.scroll) return notFound(`"${goal.targets[0]}"`);
      return clickOn(
        chosen.line,
        `Step ${gi + 1} of ${n} ("${goal.text}"): "${chosen.line.text}" best matches "${goal.targets.join('" / "')}" (score ${chosen.score.toFixed(2)}); tapping it.`,
        `Tapped "${chosen.line.text}". ${tag('done')}`,
      );
    }
    case 'add': {
      const buttons = lines.filter((l) => ADD_BUTTONS.some((b) => normText(l.text) === normText(b)) || /^add( to (cart|basket|bag))?$/i.test(l.text.trim()));
      const items = candidates(lines, [goal.target]).filter((c) => !buttons.includes(c.line));
      const item = pick(items, temperature, random);
      const counted = (k: number): string => (k >= goal.qty ? tag('done') : tag(`added ${k}/${goal.qty}`));
      if (item) {
        const cy = item.line.box.y + item.line.box.h / 2;
        const button = buttons
          .map((b) => ({ b, dy: b.box.y + b.box.h / 2 - cy }))
          .filter(({ b, dy }) => (Math.abs(dy) <= Math.max(30, item.line.box.h * 1.5) && b.box.x >= item.line.box.x) || (dy > 0 && dy <= 140))
          .sort((a, b) => Math.abs(a.dy) - Math.abs(b.dy))[0]?.b;
        if (button) {
          return clickOn(
            button,
            `Step ${gi + 1} of ${n} ("${goal.text}"): "${item.line.text}" is listed with an "${button.text}" button; tapping it (${progress.added + 1} of ${goal.qty}).`,
            `Tapped "${button.text}" for "${item.line.text}" (${progress.added + 1} of ${goal.qty}). ${counted(progress.added + 1)}`,
          );
        }
        if (!progress.opened) {
          return clickOn(
            item.line,
            `Step ${gi + 1} of ${n}: "${item.line.text}" has no add button next to it; opening it.`,
            `Opened "${item.line.text}" to add it. ${tag('opened item')}`,
          );
        }
      }
      if (progress.opened || progress.added > 0) {
        const b = buttons[0] ?? pick(candidates(lines, ['Add to cart', 'Add'], 0.7), temperature, random)?.line;
        if (b) {
          return clickOn(
            b,
            `Step ${gi + 1} of ${n}: on the item, tapping "${b.text}" (${progress.added + 1} of ${goal.qty}).`,
            `Tapped "${b.text}" for "${goal.target}" (${progress.added + 1} of ${goal.qty}). ${counted(progress.added + 1)}`,
          );
        }
      }
      return notFound(`"${goal.target}"`);
    }
    case 'type': {
      if (progress.typed && goal.submit) {
        return { thought: `Step ${gi + 1} of ${n}: typed "${goal.value}"; submitting it.`, conclusion: `Pressed Enter to search for "${goal.value}". ${tag('done')}`, action: { action: 'system_button', button: 'Enter' } };
      }
      if (progress.focused || goal.field === undefined) {
        return {
          thought: `Step ${gi + 1} of ${n}: the ${goal.field ?? 'input'} field is focused; typing "${goal.value}".`,
          conclusion: `Typed "${goal.value}" into the ${goal.field ?? 'focused'} field. ${goal.submit ? tag('typed') : tag('done')}`,
          action: { action: 'type', text: goal.value },
        };
      }
      const field = goal.field;
      const fieldCands = lines
        .map((line) => {
          const t = normText(line.text);
          const f = normText(field);
          let score = matchScore(line.text, field);
          if (t.includes(f)) score = Math.max(score, 0.8 + (/^(enter|type|search|your|add)/.test(t) ? 0.15 : 0));
          return { line, score };
        })
        .filter((c) => c.score >= 0.7);
      const chosen = pick(fieldCands, temperature, random);
      if (!chosen) return notFound(`the ${field} field`);
      return clickOn(
        chosen.line,
        `Step ${gi + 1} of ${n} ("${goal.text}"): the ${field} field is labelled "${chosen.line.text}"; tapping it to focus before typing.`,
        `Tapped the ${field} field "${chosen.line.text}". ${tag('focused')}`,
      );
    }
  }
}

/** Box centre at T = 0; at T > 0 a point jittered inside the central part of the box. Clamped to the screen. */
function pointIn(line: OcrLine, screen: { width: number; height: number }, temperature: number, random: () => number): [number, number] {
  const { x, y, w, h } = line.box;
  let px = x + w / 2;
  let py = y + h / 2;
  if (temperature > 0) {
    const spread = Math.min(1, temperature) * 0.6;
    px += (random() - 0.5) * w * spread;
    py += (random() - 0.5) * h * spread;
  }
  return [Math.max(0, Math.min(screen.width - 1, Math.round(px))), Math.max(0, Math.min(screen.height - 1, Math.round(py)))];
}
