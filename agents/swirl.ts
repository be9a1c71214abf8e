import { describeAction } from './gui-owl.js';
import type { ObservationRef } from '../domain/entities.js';
import type { ChatModel } from '../domain/ports.js';
import { roleSeed, runInstructedLoop, type MultiAgentInput, type MultiAgentResult } from './loop.js';
import { callRole, numbered, parseInteractorReply, parseNavigatorReply, section } from './roles.js';

/**
 * SWIRL dual-agent loop (seeds DIGEST §2.1): Navigator (I, action history H_t, X_t) → reasoning + low-level
 * instruction (LLI); Interactor (LLI, X_t) → one atomic mobile_use action; execute. Default history: past
 * actions only (δ_s = 0), each written with the LLI that produced it ("Step k: action: …; instruction: …").
 * Ends on terminate/answer, T_max, or 3 consecutive unusable role replies.
 */
export interface SwirlModels {
  navigator: ChatModel;
  interactor: ChatModel;
}

export interface SwirlInput extends MultiAgentInput {
  models: SwirlModels;
}

export const NAVIGATOR_SYSTEM = [
  'You are the Navigator of a GUI agent. Given the high-level instruction, the history of past actions and the current screenshot, reason about the next step and give ONE low-level instruction for the Interactor (e.g. Tap "Burger Palace", Type "sushi", Swipe up to see more, Press Back, Open the Foodie app, Finish the task (success)).',
  'Reply as: <think>your reasoning</think>\n<instruction>the low-level instruction</instruction>',
].join('\n');

export const INTERACTOR_SYSTEM = [
  'You are the Interactor of a GUI agent. Execute the low-level instruction on the current screenshot with exactly one atomic action.',
  'Reply as: Thought: <short reasoning>\n<tool_call>\n{"name": "mobile_use", "arguments": {...}}\n</tool_call>',
].join('\n');

export async function runSwirl(input: SwirlInput): Promise<MultiAgentResult> {
  const history: string[] = [];
  const opts = (t: number, c: number, current: ObservationRef, tools = false) => ({
    blobs: input.blobs,
    temperature: input.temperature,
    seed: roleSeed(input.seed, t, c),
    screen: { width: current.width, height: current.height },
    tools,
  });
  return runInstructedLoop(input, {
    instruct: (t, current) =>
      callRole(
        'navigator',
        input.models.navigator,
        [
          { role: 'system', parts: [NAVIGATOR_SYSTEM] },
          { role: 'user', parts: [[section('Instruction', input.instruction), section('Action History', numbered(history))].join('\n\n'), '### Current Screenshot ###', { image: current }] },
        ],
        parseNavigatorReply,
        opts(t, 0, current),
      ),
    act: (t, current, lli) =>
      callRole(
        'interactor',
        input.models.interactor,
        [
          { role: 'system', parts: [INTERACTOR_SYSTEM] },
          { role: 'user', parts: [section('Low-level Instruction', lli), `### Current Screenshot (${current.width}x${current.height}) ###`, { image: current }] },
        ],
        parseInteractorReply,
        opts(t, 1, current, true),
      ),
    onRoleError: (stage, lli) => history.push(stage === 'instruct' ? 'action: none (invalid navigator reply); instruction: none' : `action: none (invalid interactor reply); instruction: ${lli}`),
    onExecuted: (action, ok, lli) => history.push(`action: ${describeAction(action)}${ok ? '' : ' (failed)'}; instruction: ${lli}`),
  });
}
