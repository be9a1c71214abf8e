import { buildPolicyRequest, parsePolicyReply } from '../agents/gui-owl.js';
import type { Action } from '../domain/action.js';
import { HINT_STYLES, parseRoleJson, ReasonerReply, type HintStyle } from '../domain/guidance.js';
import type { ChatModel } from '../domain/ports.js';
import { matchAction, smallestEnclosingBox, type MatchResult, type UiTreeLike } from './matchers.js';

/**
 * Offline hint-guided rejection sampling (GUI-Owl §2.2.3 (a)): for a step whose action is known to be good, the
 * `reasoner` writes the step's reasoning from the preceding history under a hint style; the reasoning is then
 * separated from the context and the action is predicted from it alone (the policy gets the instruction, the
 * screen and the reasoning as its guidance, no history). The trace is kept iff the predicted action matches the
 * ground-truth action (synthesis/matchers.ts). Steps no style reproduces go to review as `needs_human`.
 */

export const HINTS: Record<HintStyle, string> = {
  'cot-template': 'Follow the fixed template: Observation, Goal, Plan, then "Next: <one imperative step>".',
  simplest: 'Produce the simplest possible reasoning: only "Next: <one imperative step>".',
  'screen-first': 'Describe what the screen shows first, then end with "Next: <one imperative step>".',
  'goal-first': 'Restate the goal first, then the progress, then end with "Next: <one imperative step>".',
};

export interface KnownGoodStep {
  id: string;
  instruction: string;
  history: string[];
  screenshot: { dataUrl: string };
  screen: { width: number; height: number };
  action: Action;
  tree?: UiTreeLike;
}

export interface HintAttempt {
  style: HintStyle;
  reasoning: string;
  predicted?: Action;
  match: MatchResult;
  kept: boolean;
}

export interface RejectionResult {
  stepId: string;
  attempts: HintAttempt[];
  /** Styles whose reasoning reproduced the action (the kept traces). */
  kept: HintAttempt[];
  /** No style reproduced the ground-truth action: queue for a person. */
  needsHuman: boolean;
}

export async function sampleReasoning(
  models: { reasoner: ChatModel; policy: ChatModel },
  step: KnownGoodStep,
  styles: readonly HintStyle[] = HINT_STYLES,
): Promise<RejectionResult> {
  const attempts: HintAttempt[] = [];
  const base = buildPolicyRequest({ instruction: step.instruction, history: step.history, screenshots: [step.screenshot], screen: step.screen });
  const point = (step.action as { coordinate?: [number, number] }).coordinate;
  const gtBox = step.tree && point ? smallestEnclosingBox(step.tree, point) : undefined;
  const ctx = { width: step.screen.width, height: step.screen.height, ...(gtBox ? { gtBox } : {}) };
  for (const style of styles) {
    const system = `${String(base.messages[0]?.content ?? '')}\n\nHint style: ${style}. ${HINTS[style]}\nReply JSON {"reasoning": "..."}.`;
    const r = await models.reasoner.complete({ ...base, messages: [{ role: 'system', content: system }, ...base.messages.slice(1)], temperature: 0 });
    const c = r.response.choices[0]?.message.content;
    const reasoning = parseRoleJson('reasoner', ReasonerReply, typeof c === 'string' ? c : '').reasoning;
    // The reasoning alone, out of its context: no history, the reasoning as the only guidance.
    const predictReq = buildPolicyRequest({ instruction: step.instruction, history: [], screenshots: [step.screenshot], screen: step.screen, guidance: reasoning });
    const p = await models.policy.complete({ ...predictReq, temperature: 0 });
    const parsed = parsePolicyReply(p.response.choices[0]!.message, 'mobile', step.screen);
    const predicted = parsed.result.ok ? parsed.result.action : undefined;
    const match: MatchResult = predicted ? matchAction(predicted, step.action, ctx) : { typeMatch: false, match: false, reason: 'no parsable action predicted' };
    attempts.push({ style, reasoning, ...(predicted ? { predicted } : {}), match, kept: match.match });
  }
  const kept = attempts.filter((a) => a.kept);
  return { stepId: step.id, attempts, kept, needsHuman: kept.length === 0 };
}
