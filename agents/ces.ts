import type { ChatModel } from '../domain/ports.js';
import { roleSeed, runInstructedLoop, type MultiAgentInput, type MultiAgentResult } from './loop.js';
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
  let state = INITIAL_STATE;
  const q = input.instruction;
  const opts = (t: number, c: number, current: { width: number; height: number }) => ({
    blobs: input.blobs,
    temperature: input.temperature,
    seed: roleSeed(input.seed, t, c),
    screen: { width: current.width, height: current.height },
  });
  let screen = { width: 0, height: 0 };
  return runInstructedLoop(input, {
    instruct: async (t, current) => {
      screen = { width: current.width, height: current.height };
      const [c0, c1] = coordinatorPrompt(q, state);
      const r = await callRole('coordinator', input.models.coordinator, [{ role: 'user', parts: [c0, { image: current }, c1] }], parseCoordinatorReply, opts(t, 0, current));
      return { call: r.call, ...(r.value ? { value: { reasoning: r.value.think, instruction: r.value.instruction } } : {}), ...(r.error ? { error: r.error } : {}) };
    },
    act: (t, current, l) => {
      const [e0, e1] = executorPrompt(l);
      return callRole('executor', input.models.executor, [{ role: 'user', parts: [e0, { image: current }, e1] }], parseExecutorReply, opts(t, 1, current));
    },
    // State Tracker: text only (no screenshot), from the Executor's raw output u^t; an unusable reply keeps m^{t−1}.
    observe: async (t, executor) => {
      const tracker = await callRole('stateTracker', input.models.stateTracker, [{ role: 'user', parts: [stateTrackerPrompt(q, executor.reply, state)] }], parseStateTrackerReply, opts(t, 2, screen));
      if (tracker.value) state = tracker.value.state;
      return [tracker.call];
    },
  });
}
