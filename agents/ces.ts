import type { ObservationRef, RoleCall, Step } from '../domain/entities.js';
import type { ChatModel } from '../domain/ports.js';
import { endFor, execute, MAX_CONSECUTIVE_ROLE_ERRORS, resetEnv, roleSeed, type MultiAgentInput, type MultiAgentResult } from './loop.js';
import { callRole, parseCoordinatorReply, parseExecutorReply, parseStateTrackerReply } from './roles.js';

/**
 * CES (seeds DIGEST §3.2): Coordinator l^t = π_c(q, m^{t−1}, s^t) → Executor u^t = π_e(l^t, s^t) (CES action
 * enum, mapped onto mobile_use) → execute → State Tracker m^t = π_s(q, m^{t−1}, u^t), text only. The state m^t
 * REPLACES history: the Coordinator never sees earlier instructions, actions or screenshots, only m^{t−1}.
 * Prompts are the paper's App. C prompts verbatim (placeholders filled). An unusable State Tracker reply keeps
 * m^{t−1}. Ends on complete/close (terminate), T_max, or 3 consecutive unusable Coordinator/Executor replies.
 */
export interface CesModels {
  coordinator: ChatModel;
  executor: ChatModel;
  stateTracker: ChatModel;
}

export interface CesInput extends MultiAgentInput {
  models: CesModels;
}

export const INITIAL_STATE = 'The task has just started; no action has been taken yet.';

export function coordinatorPrompt(task: string, state: string): [string, string] {
  return [
    'You are a GUI task coordinator Agent. Your role is to actively collaborate with the Executor Agent to complete complex GUI navigation tasks. Given a high-level task description and the current state of the task, your goal is to provide a clear and precise fine-grained instruction for the Executor Agent to help accomplish the task.\nScreenshot:',
    `High-level task: ${task}\nCurrent_state: ${state}\nFirst, think step-by-step. Put your reasoning within <think> tags. After your reasoning, provide the instruction within <answer> tags.`,
  ];
}

export function executorPrompt(instruction: string): [string, string] {
  return [
    'You are GUI executor Agent, a reasoning GUI Agent Assistant. In this UI screenshot',
    `, I want you to execute the command '${instruction}'. Please provide the action to perform (enumerate from [complete, close, press home, click, press back, type, select, scroll, enter]), the point where the cursor is moved to (integer) if a click is performed, and any input text required to complete the action.\nOutput the thinking process in <think> </think> tags, and the final answer in <answer> </answer> tags as follows: <think>...</think> <answer>['action': enum[complete, close, press home, click, press back, type, select, scroll, enter], 'point': [x, y], 'input_text': 'no input text [default]']</answer>`,
  ];
}

export function stateTrackerPrompt(task: string, executorOutput: string, state: string): string {
  return [
    "You are a GUI task State Tracker Agent. Your core function is dynamic context compression and state updating. You will receive the high-level user instruction, the previous task state (a summary of progress up to the last step), and the latest output of executor agent. Your task is to generate the new task state. This should be a high-semantic natural language summary that updates the previous state based on the latest action, maintaining a coherent record of the task's progress.",
    'Reply with the new task state within <state> </state> tags.',
    `High-level user instruction: ${task}`,
    `Latest output of executor agent: ${executorOutput.replace(/\s*\n\s*/g, ' ')}`,
    `Previous Task State: ${state}`,
  ].join('\n');
}

export async function runCes(input: CesInput): Promise<MultiAgentResult> {
  const steps: Step[] = [];
  const push = (step: Step): void => {
    steps.push(step);
    input.onStep?.(step);
  };
  const reset = await resetEnv(input);
  if (!reset.ok) return reset.result;
  let current: ObservationRef = reset.obs;
  let state = INITIAL_STATE;
  let roleErrors = 0;
  const opts = (t: number, c: number) => ({
    blobs: input.blobs,
    temperature: input.temperature,
    seed: roleSeed(input.seed, t, c),
    screen: { width: current.width, height: current.height },
  });
  const q = input.instruction;

  for (let t = 0; t < input.maxSteps; t++) {
    const started = performance.now();
    const roles: RoleCall[] = [];
    const [c0, c1] = coordinatorPrompt(q, state);
    const coord = await callRole('coordinator', input.models.coordinator, [{ role: 'user', parts: [c0, { image: current }, c1] }], parseCoordinatorReply, opts(t, 0));
    roles.push(coord.call);
    if (!coord.value) {
      push({ index: t, before: current, error: coord.error!, reasoning: '', conclusion: '', latencyMs: performance.now() - started, roles });
      if (coord.error!.kind === 'model_error') return endFor('error', steps, 'model_error');
      if (++roleErrors >= MAX_CONSECUTIVE_ROLE_ERRORS) return endFor('error', steps, 'role_errors');
      continue;
    }
    const l = coord.value.instruction;
    const [e0, e1] = executorPrompt(l);
    const exe = await callRole('executor', input.models.executor, [{ role: 'user', parts: [e0, { image: current }, e1] }], parseExecutorReply, opts(t, 1));
    roles.push(exe.call);
    const base = { index: t, before: current, reasoning: coord.value.think, conclusion: l, ...(exe.call.callKey ? { modelCallKey: exe.call.callKey } : {}) };
    if (!exe.value) {
      push({ ...base, error: exe.error!, latencyMs: performance.now() - started, roles });
      if (exe.error!.kind === 'model_error') return endFor('error', steps, 'model_error');
      if (++roleErrors >= MAX_CONSECUTIVE_ROLE_ERRORS) return endFor('error', steps, 'role_errors');
      continue;
    }
    roleErrors = 0;
    const action = exe.value.action;
    if (action.action === 'terminate' || action.action === 'answer') {
      push({ ...base, action, latencyMs: performance.now() - started, roles });
      return action.action === 'terminate' ? endFor('terminated', steps, 'terminate', action.status) : endFor('answered', steps, 'answer', action.text);
    }
    const exec = await execute(input.env, action);
    if (!exec.ok && exec.fatal) {
      push({ ...base, action, error: exec.error, latencyMs: performance.now() - started, roles });
      return endFor('degraded', steps, 'environment', undefined, exec.error.message);
    }
    // State Tracker: text only (no screenshot), from the Executor's raw output u^t.
    const tracker = await callRole(
      'stateTracker',
      input.models.stateTracker,
      [{ role: 'user', parts: [stateTrackerPrompt(q, exe.call.reply, state)] }],
      parseStateTrackerReply,
      opts(t, 2),
    );
    roles.push(tracker.call);
    if (tracker.value) state = tracker.value.state;
    push({ ...base, action, ...(exec.ok ? { after: exec.after, ...(exec.metrics ? { metrics: exec.metrics } : {}) } : { error: exec.error }), latencyMs: performance.now() - started, roles });
    if (exec.ok) current = exec.after;
  }
  return endFor('max_steps', steps, 'max_steps');
}
