import { describeAction } from './gui-owl.js';
import type { ObservationRef, RoleCall, Step } from '../domain/entities.js';
import type { ChatModel } from '../domain/ports.js';
import { endFor, execute, MAX_CONSECUTIVE_ROLE_ERRORS, resetEnv, roleSeed, type MultiAgentInput, type MultiAgentResult } from './loop.js';
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
  const steps: Step[] = [];
  const push = (step: Step): void => {
    steps.push(step);
    input.onStep?.(step);
  };
  const reset = await resetEnv(input);
  if (!reset.ok) return reset.result;
  let current: ObservationRef = reset.obs;
  const history: string[] = [];
  let roleErrors = 0;
  const opts = (t: number, c: number, tools = false) => ({
    blobs: input.blobs,
    temperature: input.temperature,
    seed: roleSeed(input.seed, t, c),
    screen: { width: current.width, height: current.height },
    tools,
  });

  for (let t = 0; t < input.maxSteps; t++) {
    const started = performance.now();
    const roles: RoleCall[] = [];
    const nav = await callRole(
      'navigator',
      input.models.navigator,
      [
        { role: 'system', parts: [NAVIGATOR_SYSTEM] },
        { role: 'user', parts: [[section('Instruction', input.instruction), section('Action History', numbered(history))].join('\n\n'), '### Current Screenshot ###', { image: current }] },
      ],
      parseNavigatorReply,
      opts(t, 0),
    );
    roles.push(nav.call);
    if (!nav.value) {
      push({ index: t, before: current, error: nav.error!, reasoning: '', conclusion: '', latencyMs: performance.now() - started, roles });
      if (nav.error!.kind === 'model_error') return endFor('error', steps, 'model_error');
      history.push(`action: none (invalid navigator reply); instruction: none`);
      if (++roleErrors >= MAX_CONSECUTIVE_ROLE_ERRORS) return endFor('error', steps, 'role_errors');
      continue;
    }
    const lli = nav.value.instruction;
    const inter = await callRole(
      'interactor',
      input.models.interactor,
      [
        { role: 'system', parts: [INTERACTOR_SYSTEM] },
        { role: 'user', parts: [section('Low-level Instruction', lli), `### Current Screenshot (${current.width}x${current.height}) ###`, { image: current }] },
      ],
      parseInteractorReply,
      opts(t, 1, true),
    );
    roles.push(inter.call);
    const base = { index: t, before: current, reasoning: nav.value.reasoning, conclusion: lli, ...(inter.call.callKey ? { modelCallKey: inter.call.callKey } : {}) };
    if (!inter.value) {
      push({ ...base, error: inter.error!, latencyMs: performance.now() - started, roles });
      if (inter.error!.kind === 'model_error') return endFor('error', steps, 'model_error');
      history.push(`action: none (invalid interactor reply); instruction: ${lli}`);
      if (++roleErrors >= MAX_CONSECUTIVE_ROLE_ERRORS) return endFor('error', steps, 'role_errors');
      continue;
    }
    roleErrors = 0;
    const action = inter.value.action;
    if (action.action === 'terminate' || action.action === 'answer') {
      push({ ...base, action, latencyMs: performance.now() - started, roles });
      return action.action === 'terminate' ? endFor('terminated', steps, 'terminate', action.status) : endFor('answered', steps, 'answer', action.text);
    }
    const exec = await execute(input.env, action);
    if (!exec.ok && exec.fatal) {
      push({ ...base, action, error: exec.error, latencyMs: performance.now() - started, roles });
      return endFor('degraded', steps, 'environment', undefined, exec.error.message);
    }
    push({ ...base, action, ...(exec.ok ? { after: exec.after, ...(exec.metrics ? { metrics: exec.metrics } : {}) } : { error: exec.error }), latencyMs: performance.now() - started, roles });
    if (exec.ok) current = exec.after;
    history.push(`action: ${describeAction(action)}${exec.ok ? '' : ' (failed)'}; instruction: ${lli}`);
  }
  return endFor('max_steps', steps, 'max_steps');
}
