import type { Action } from '../domain/action.js';
import type { ObservationRef } from '../domain/entities.js';
import { GuidanceReply, parseRoleJson, QcReply, StepDescriptionReply, type ReferenceSource } from '../domain/guidance.js';
import type { ContentPart } from '../domain/openai.js';
import type { BlobStore, ChatModel } from '../domain/ports.js';
import { circleInteraction, interactionPoints } from './annotate.js';

/**
 * Query-specific guidance generation (GUI-Owl §6.4), three roles through the model gateway:
 * 1. describer: the pre-action screenshot with the interaction point circled + the post-action screenshot + the
 *    action → what the action did;
 * 2. quality control: the step's stated intent vs the observed outcome → keep or drop (ineffective steps and
 *    steps that did something other than intended are dropped);
 * 3. synthesiser: the kept descriptions → the query's "essential steps".
 * Screens travel as data URLs inside the requests only; what is stored is blob keys and text.
 */

/** One step of a reference trajectory (model rollout, scripted demonstration or recorded person). */
export interface ReferenceStep {
  index: number;
  before: ObservationRef;
  after?: ObservationRef;
  action: Action;
  /** The model's stated rationale (reasoning + conclusion); absent for scripted and human demonstrations. */
  intent?: string;
}

export interface ReferenceTrajectory {
  /** The rollout id (model/scripted) or recording id (human) — lineage of the guidance. */
  id: string;
  source: ReferenceSource;
  instruction: string;
  steps: ReferenceStep[];
}

export interface DescribedStep {
  index: number;
  action: string;
  target: string;
  changed: boolean;
  description: string;
  /** Text the describer read on the after screen (empty when it gave none). */
  visible?: string[];
  /** The row's title when the touched label is repeated on the screen (which "Add" of the menu). */
  row?: string;
  kept: boolean;
  /** Why QC kept or dropped the step (recorded for every step). */
  reason: string;
}

export interface SynthesizedGuidance {
  /** The guidance text put into the policy prompt: "Essential steps:" and numbered lines. */
  text: string;
  steps: string[];
  described: DescribedStep[];
  referenceId: string;
  source: ReferenceSource;
  models: { describer: string; qc: string; synth: string };
}

export interface GuidanceModels {
  describer: ChatModel;
  qc: ChatModel;
  synth: ChatModel;
}

const DESCRIBER_SYSTEM = [
  'You describe what one action on a phone did. You get the action, the screenshot BEFORE it with the interaction point',
  '(if any) circled in magenta #FF00FF, the same BEFORE screenshot without the circle (to read what the circle covers),',
  'and the screenshot AFTER it.',
  'Reply with one JSON object: {"target": <the label or text the action touched or entered, as shown on screen>,',
  '"changed": <true if the screen visibly changed apart from the circle>, "description": <one sentence: what the action did>,',
  '"visible": [<the text lines of the AFTER screenshot>], "row": <only when the touched label appears several times on the',
  'screen (an "Add" button on every row): the title of the row it is on>}. A tap on a card or list row is named by the',
  'row\'s title (its most prominent text), not by a detail line under the point.',
].join('\n');

const QC_SYSTEM = [
  'You check one step of a reference trajectory. You get the step\'s stated intent (what the agent meant to do) and a',
  'description of what the action actually did. Keep the step only if it had a visible effect and the effect matches the intent.',
  'Reply with one JSON object: {"keep": true|false, "reason": <short reason>}.',
].join('\n');

const SYNTH_SYSTEM = [
  'You write query-specific guidance. You get a task and the descriptions of the effective steps of a trajectory that',
  'completed it. Summarise the essential steps needed to complete the task as short imperative lines',
  '(e.g. "open Foodie", "tap Burger Palace", "enter \\"42 Main St\\" into the address field", "long press Gym").',
  'Leave out scrolling, waiting and steps that only navigated back.',
  'A value that was typed after it had been shown on an earlier screen of ANOTHER app (a code, an address: its "visible"',
  'text) differs between episodes: never copy it. Say where to read it instead, where it was shown',
  '("read the code from <the item tapped to show it> in <app>") and where it goes ("enter the code from <app> into the <field> field").',
  'A tap on a label that is repeated on the screen names its row ("tap Add next to Classic Burger"); the same tap',
  'repeated, each with an effect, is one line ("tap Add to cart 3 times").',
  'Reply with one JSON object: {"steps": [<line>, ...]}.',
].join('\n');

/** How an action reads to the describer: coordinates are NOT given, the circle shows where. */
export function actionForDescriber(a: Action): string {
  switch (a.action) {
    case 'click':
      return 'tap at the circled point';
    case 'long_press':
      return 'long press at the circled point';
    case 'swipe':
      return 'swipe from the first circled point to the second';
    case 'type':
      return `type "${a.text}"`;
    case 'open':
      return `open the app "${a.text}"`;
    case 'system_button':
      return `press the ${a.button} button`;
    case 'key':
      return 'keys' in a ? `press ${a.keys.join('+')}` : `key ${a.text}`;
    case 'answer':
      return `answer "${a.text}"`;
    case 'terminate':
      return `terminate (${a.status})`;
    case 'wait':
      return `wait ${a.time}s`;
    default:
      return a.action;
  }
}

async function dataUrl(png: Uint8Array): Promise<string> {
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}

/**
 * Builds the describer's request: the circled pre-action screenshot, the same screenshot unmarked (so the label under
 * the ring stays readable), then the post-action one. Coordinates are never in the text: only the circle says where.
 */
export async function describerRequest(blobs: BlobStore, step: ReferenceStep): Promise<{ messages: { role: 'system' | 'user'; content: string | ContentPart[] }[] }> {
  const before = await blobs.get(step.before.screenshotKey);
  const marked = interactionPoints(step.action).length > 0 ? await circleInteraction(before, step.action) : before;
  const after = step.after ? await blobs.get(step.after.screenshotKey) : before;
  return {
    messages: [
      { role: 'system', content: DESCRIBER_SYSTEM },
      {
        role: 'user',
        content: [
          { type: 'text', text: `Action: ${actionForDescriber(step.action)}\nBefore (interaction circled), before (unmarked), after:` },
          { type: 'image_url', image_url: { url: await dataUrl(marked) } },
          { type: 'image_url', image_url: { url: await dataUrl(before) } },
          { type: 'image_url', image_url: { url: await dataUrl(after) } },
        ],
      },
    ],
  };
}

const textOf = (r: { response: { choices: { message: { content?: unknown } }[] } }): string => {
  const c = r.response.choices[0]?.message.content;
  return typeof c === 'string' ? c : '';
};

/** Terminal and idle steps carry no navigation content for guidance. */
const NON_ESSENTIAL = new Set(['terminate', 'answer', 'wait']);

/**
 * Describes every step, quality-controls it, and synthesises the guidance. QC runs on every step: for model
 * references it compares the intent with the outcome (the paper's QC); for scripted and human demonstrations,
 * which state no intent, it checks the step had an effect. Throws when no step survives (nothing to guide with).
 */
export async function synthesizeGuidance(
  models: GuidanceModels,
  blobs: BlobStore,
  reference: ReferenceTrajectory,
  opts: { seed?: number } = {},
): Promise<SynthesizedGuidance> {
  const described: DescribedStep[] = [];
  for (const step of reference.steps) {
    const action = actionForDescriber(step.action);
    if (NON_ESSENTIAL.has(step.action.action)) {
      described.push({ index: step.index, action, target: '', changed: false, description: action, kept: false, reason: `${step.action.action}: no navigation content` });
      continue;
    }
    const d = parseRoleJson(
      'guideDescriber',
      StepDescriptionReply,
      textOf(await models.describer.complete({ ...(await describerRequest(blobs, step)), temperature: 0, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) })),
    );
    const qcInput = {
      action,
      intent: reference.source === 'model' ? (step.intent ?? '') : '',
      target: d.target,
      changed: d.changed,
      description: d.description,
    };
    const qc = parseRoleJson(
      'guideQc',
      QcReply,
      textOf(await models.qc.complete({ messages: [{ role: 'system', content: QC_SYSTEM }, { role: 'user', content: JSON.stringify(qcInput) }], temperature: 0 })),
    );
    described.push({ index: step.index, action, target: d.target, changed: d.changed, description: d.description, ...(d.visible.length ? { visible: d.visible } : {}), ...(d.row ? { row: d.row } : {}), kept: qc.keep, reason: qc.reason });
  }
  const kept = described.filter((d) => d.kept);
  if (kept.length === 0) throw new Error(`guidance: no effective step in reference ${reference.id} (${described.length} described)`);
  const synthInput = {
    task: reference.instruction,
    steps: kept.map((d) => ({ action: d.action, target: d.target, description: d.description, ...(d.visible ? { visible: d.visible } : {}), ...(d.row ? { row: d.row } : {}) })),
  };
  const g = parseRoleJson(
    'guideSynth',
    GuidanceReply,
    textOf(await models.synth.complete({ messages: [{ role: 'system', content: SYNTH_SYSTEM }, { role: 'user', content: JSON.stringify(synthInput) }], temperature: 0 })),
  );
  return {
    text: formatGuidance(g.steps),
    steps: g.steps,
    described,
    referenceId: reference.id,
    source: reference.source,
    models: { describer: models.describer.name, qc: models.qc.name, synth: models.synth.name },
  };
}

/** The guidance section's text as the policy prompt carries it. */
export function formatGuidance(steps: readonly string[]): string {
  return ['Essential steps (from a reference demonstration; check each against the screen):', ...steps.map((s, i) => `${i + 1}. ${s}`)].join('\n');
}
