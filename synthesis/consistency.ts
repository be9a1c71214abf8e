import type { Action } from '../domain/action.js';
import { ConsistencyReply, parseRoleJson } from '../domain/guidance.js';
import type { BlobStore, ChatModel } from '../domain/ports.js';
import { circleInteraction } from './annotate.js';
import { tokenF1, type UiTreeLike } from './matchers.js';

/**
 * Thought–action consistency (GUI-Owl §2.2.3 (c) filter 2): does the step's reasoning support the action it took?
 * A rule checker per action type (this file), plus a model role (`consistency`) that sees the circled screenshot.
 */

export interface ConsistencyVerdict {
  consistent: boolean;
  /** Which check decided (`click`, `type`, `terminate`, …, or `model`). */
  check: string;
  reason: string;
}

const words = (s: string): string[] => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
const mentions = (text: string, re: RegExp): boolean => re.test(text.toLowerCase());
const quoted = (text: string): string[] => [...text.matchAll(/["“]([^"”]+)["”]/g)].map((m) => m[1]!.trim()).filter(Boolean);

/** Does `text` name `value` (token F1 > 0.5 against a quoted string, or most of its words present)? */
function names(text: string, value: string): boolean {
  if (quoted(text).some((q) => tokenF1(q, value) > 0.5)) return true;
  const v = words(value);
  const t = new Set(words(text));
  return v.length > 0 && v.filter((w) => t.has(w)).length / v.length >= 0.6;
}

/** The name of the smallest UI-tree node holding the point, if it has one. */
export function nodeNameAt(tree: UiTreeLike, [x, y]: [number, number]): string | undefined {
  let best: { name: string; area: number } | undefined;
  for (const n of tree.nodes) {
    const [x0, y0, x1, y1] = n.bounds;
    if (x0 === undefined || y0 === undefined || x1 === undefined || y1 === undefined || !n.name?.trim()) continue;
    if (x < x0 || x > x1 || y < y0 || y > y1) continue;
    const area = (x1 - x0) * (y1 - y0);
    if (!best || area < best.area) best = { name: n.name.trim(), area };
  }
  return best?.name;
}

const CLAIMS_DONE = /\b(done|complete[d]?|finished|succeeded|success(?:ful(?:ly)?)?|accomplished|task is (?:now )?(?:done|complete))\b/;
const CLAIMS_FAIL = /\b(cannot|can't|could not|couldn't|unable|impossible|give up|gave up|failed|not possible|does not exist|doesn't exist)\b/;

/**
 * The rule checker: one check per action type. `tree`: the pre-action UI tree, when stored (pointer actions are
 * then checked against the touched element's name).
 */
export function checkConsistency(step: { reasoning: string; conclusion: string; action: Action }, tree?: UiTreeLike): ConsistencyVerdict {
  const text = `${step.reasoning} ${step.conclusion}`;
  const a = step.action;
  const v = (consistent: boolean, reason: string): ConsistencyVerdict => ({ consistent, check: a.action, reason });
  switch (a.action) {
    case 'click':
    case 'long_press':
    case 'double_click': {
      if (a.action === 'click' && mentions(text, /\blong[- ]press|press and hold\b/)) return v(false, 'the thought asks for a long press but the action is a tap');
      if (a.action === 'click' && mentions(text, /\b(swipe|scroll)\b/) && !mentions(text, /\b(tap|click|select|open|press)\b/)) return v(false, 'the thought asks to scroll but the action is a tap');
      const targets = quoted(text);
      const touched = tree ? nodeNameAt(tree, a.coordinate) : undefined;
      if (!targets.length || !touched) return v(true, touched ? `touches "${touched}"; the thought names no target` : 'no element name to compare');
      // Every word of a named target in the touched name or vice versa: "Burger Place" is not "Burger Palace".
      const all = (a: string, b: string): boolean => words(a).length > 0 && words(a).every((w) => words(b).includes(w));
      return targets.some((t) => all(t, touched) || all(touched, t))
        ? v(true, `touches "${touched}", which the thought names`)
        : v(false, `the thought names ${targets.map((t) => `"${t}"`).join(', ')} but the action touches "${touched}"`);
    }
    case 'type':
      return names(text, a.text) ? v(true, `the thought names the typed text "${a.text}"`) : v(false, `the typed text "${a.text}" is not in the thought`);
    case 'open':
      return names(text, a.text) ? v(true, `the thought names the app ${a.text}`) : v(false, `the thought never names the app ${a.text}`);
    case 'answer':
      return names(text, a.text) ? v(true, 'the thought states the answer') : v(false, `the answer "${a.text}" is not supported by the thought`);
    case 'swipe':
      return mentions(text, /\b(swipe|scroll|reveal|more|below|above|further|down|up|left|right|next|previous|page)\b/)
        ? v(true, 'the thought asks to move the view')
        : v(false, 'a swipe without any reason to move the view in the thought');
    case 'system_button':
      return mentions(text, new RegExp(`\\b(${a.button.toLowerCase()}|return|go back|leave|exit|dismiss|close|submit|home screen|launcher)\\b`))
        ? v(true, `the thought asks for ${a.button}`)
        : v(false, `pressing ${a.button} is not motivated by the thought`);
    case 'terminate':
      if (a.status === 'success' && mentions(text, CLAIMS_FAIL) && !mentions(text, CLAIMS_DONE)) return v(false, 'terminates with success while the thought says it failed');
      if (a.status === 'failure' && mentions(text, CLAIMS_DONE) && !mentions(text, CLAIMS_FAIL)) return v(false, 'terminates with failure while the thought says it is done');
      return v(true, `terminate(${a.status}) agrees with the thought`);
    case 'wait':
      return mentions(text, /\b(wait|loading|load|spinner|progress|appear)\b/) ? v(true, 'the thought waits for the screen') : v(false, 'a wait without a reason in the thought');
    default:
      return v(true, `no rule for ${a.action}`);
  }
}

/** The model check: the `consistency` role sees the circled (and the unmarked) pre-action screenshot, the thought and the action. */
export async function modelConsistency(
  model: ChatModel,
  blobs: BlobStore,
  step: { reasoning: string; conclusion: string; action: Action; screenshotKey: string },
): Promise<ConsistencyVerdict> {
  const before = await blobs.get(step.screenshotKey);
  const marked = await circleInteraction(before, step.action);
  const res = await model.complete({
    messages: [
      { role: 'system', content: 'Does the reasoning support the action taken? The first screenshot has the interaction point circled in magenta, the second is the same screen unmarked. Reply JSON {"consistent": true|false, "reason": "..."}.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: JSON.stringify({ thought: step.reasoning, conclusion: step.conclusion, action: step.action }) },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(marked).toString('base64')}` } },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(before).toString('base64')}` } },
        ],
      },
    ],
    temperature: 0,
  });
  const c = res.response.choices[0]?.message.content;
  const r = parseRoleJson('consistency', ConsistencyReply, typeof c === 'string' ? c : '');
  return { consistent: r.consistent, check: 'model', reason: r.reason };
}
