import type { ObservationRef, RoleCall, Step } from '../domain/entities.js';
import type { ChatModel } from '../domain/ports.js';
import { endFor, execute, MAX_CONSECUTIVE_ROLE_ERRORS, resetEnv, roleSeed, type MultiAgentInput, type MultiAgentResult } from './loop.js';
import {
  callRole,
  numbered,
  parseManagerReply,
  parseNotetakerReply,
  parseReflectorReply,
  parseWorkerReply,
  section,
  type ReflectorOutput,
  type WorkerOutput,
} from './roles.js';

/**
 * Mobile-Agent-v3 (seeds DIGEST §1.10, Algorithm 1): RAG (optional hook) → Manager init (SS_0, CS_0 = ∅) →
 * while t < T_max and SS ≠ ∅: Worker (τ, α, σ) → execute → Reflector (SUCCESS/FAILURE, φ) → Notetaker (on
 * SUCCESS) → Manager update. Ends with success when SS is empty, on a Worker terminate/answer, at T_max
 * (`max_steps`), or on an execution stalemate (`terminated`/`failure`, stopReason `stalemate`):
 * `maxConsecutiveFailures` FAILUREs in a row, or `maxStepsWithoutProgress` steps without a new completed subgoal.
 *
 * Every step records each role's input and output in `step.roles` (call order: manager init on step 0, worker,
 * reflector, notetaker, manager update). The step's action/reasoning/conclusion are the Worker's α/τ/σ.
 */
export interface MobileAgentV3Models {
  manager: ChatModel;
  worker: ChatModel;
  reflector: ChatModel;
  notetaker: ChatModel;
}

export interface MobileAgentV3Input extends MultiAgentInput {
  models: MobileAgentV3Models;
  /** RAG hook: K_RAG = rag(I), invoked once at task start. Default: no knowledge. */
  rag?: (instruction: string) => Promise<string>;
  stalemate?: { maxConsecutiveFailures?: number; maxStepsWithoutProgress?: number };
}

export const MANAGER_SYSTEM = [
  'You are the Manager of a mobile GUI agent team. Decompose the user instruction into an ordered list of subgoals and keep the plan up to date.',
  'On the first call, plan from the instruction, the knowledge and the current screenshot. On later calls you also get the last action, the Reflector verdict and the notes:',
  'on SUCCESS move finished subgoals to the completed list; on FAILURE use the feedback to reorder, modify or insert corrective subgoals.',
  'Reply with one JSON object: {"thought": "...", "completed_subgoals": ["..."], "pending_subgoals": ["..."]}. An empty pending list means the task is complete.',
].join('\n');

export const WORKER_SYSTEM = [
  'You are the Worker of a mobile GUI agent team. Look at the top pending subgoals and the current screenshot, pick the most relevant actionable subgoal and perform exactly one action.',
  'Use the last reflection to avoid repeating errors and the notes for stored information.',
  'Reply exactly as:',
  'Thought: <reasoning>',
  'Summary: <one sentence: the intended effect of the action>',
  '<tool_call>',
  '{"name": "mobile_use", "arguments": {"action": "click", "coordinate": [x, y]}}',
  '</tool_call>',
].join('\n');

export const REFLECTOR_SYSTEM = [
  'You are the Reflector of a mobile GUI agent team. Compare the screenshots before and after the action with the Worker\'s thought and summary.',
  'SUCCESS if the transition matches the intended effect; FAILURE if an error appears, the screen is unexpectedly unchanged, or it moved to an irrelevant state.',
  'Reply with one JSON object: {"outcome": "SUCCESS" | "FAILURE", "feedback": "..."}.',
].join('\n');

export const NOTETAKER_SYSTEM = [
  'You are the Notetaker of a mobile GUI agent team. Record important information visible on the screen that later steps may need: codes, credentials, reservation or order numbers, addresses, totals, user-generated content.',
  'Reply with one JSON object: {"notes": ["..."]} (an empty list when there is nothing new).',
].join('\n');

function describeWorkerAction(a: WorkerOutput): string[] {
  return [`Thought: ${a.thought}`, `Action: ${JSON.stringify({ name: 'mobile_use', arguments: a.action })}`, `Summary: ${a.summary}`];
}

export async function runMobileAgentV3(input: MobileAgentV3Input): Promise<MultiAgentResult> {
  const maxFailures = input.stalemate?.maxConsecutiveFailures ?? 3;
  const maxNoProgress = input.stalemate?.maxStepsWithoutProgress ?? 6;
  const steps: Step[] = [];
  const push = (step: Step): void => {
    steps.push(step);
    input.onStep?.(step);
  };
  const reset = await resetEnv(input);
  if (!reset.ok) return reset.result;
  let current: ObservationRef = reset.obs;
  const I = input.instruction;
  const screenOf = (o: ObservationRef) => ({ width: o.width, height: o.height });
  const opts = (step: number, call: number, tools = false) => ({
    blobs: input.blobs,
    temperature: input.temperature,
    seed: roleSeed(input.seed, step, call),
    screen: screenOf(current),
    tools,
  });

  // RAG + Manager init.
  const pending: RoleCall[] = [];
  const started0 = performance.now();
  let knowledge = '';
  if (input.rag) {
    try {
      knowledge = await input.rag(I);
    } catch (err) {
      knowledge = '';
      pending.push({ role: 'rag', request: { messages: [{ role: 'user', text: I, images: [] }] }, reply: '', error: { kind: 'model_error', message: String(err), field: 'rag' } });
    }
    if (!pending.length) pending.push({ role: 'rag', request: { messages: [{ role: 'user', text: I, images: [] }] }, reply: knowledge, parsed: { knowledge } });
  }
  const init = await callRole(
    'manager',
    input.models.manager,
    [
      { role: 'system', parts: [MANAGER_SYSTEM] },
      { role: 'user', parts: [[section('Mode', 'init'), section('User Instruction', I), section('Knowledge', knowledge)].join('\n\n'), '### Current Screenshot ###', { image: current }] },
    ],
    parseManagerReply,
    opts(0, 0),
  );
  pending.push(init.call);
  if (!init.value) {
    push({ index: 0, before: current, error: init.error!, reasoning: '', conclusion: '', latencyMs: performance.now() - started0, roles: pending });
    return endFor('error', steps, init.error!.kind === 'model_error' ? 'model_error' : 'role_errors');
  }
  let SS = init.value.pending_subgoals;
  let CS = init.value.completed_subgoals;
  const notes: string[] = [];
  let lastAction: WorkerOutput | undefined;
  let lastF: ReflectorOutput | undefined;
  let failures = 0;
  let noProgress = 0;
  let roleErrors = 0;

  for (let t = 0; t < input.maxSteps && SS.length > 0; t++) {
    const started = t === 0 ? started0 : performance.now();
    const roles: RoleCall[] = t === 0 ? pending : [];
    const common = (): string[] => [section('User Instruction', I), section('Pending Subgoals', numbered(SS)), section('Completed Subgoals', numbered(CS))];
    const worker = await callRole(
      'worker',
      input.models.worker,
      [
        { role: 'system', parts: [WORKER_SYSTEM] },
        {
          role: 'user',
          parts: [
            [
              ...common(),
              section('Last Action', lastAction ? describeWorkerAction(lastAction) : []),
              section('Last Reflection', lastF ? `${lastF.outcome}: ${lastF.feedback}` : []),
              section('Notes', notes),
            ].join('\n\n'),
            `### Current Screenshot (${current.width}x${current.height}) ###`,
            { image: current },
          ],
        },
      ],
      parseWorkerReply,
      opts(t, 1, true),
    );
    roles.push(worker.call);
    if (!worker.value) {
      push({ index: t, before: current, error: worker.error!, reasoning: '', conclusion: '', latencyMs: performance.now() - started, roles });
      if (worker.error!.kind === 'model_error') return endFor('error', steps, 'model_error');
      lastAction = undefined;
      lastF = { outcome: 'FAILURE', feedback: `The previous reply was invalid (${worker.error!.kind}): ${worker.error!.message}` };
      failures++;
      noProgress++;
      if (++roleErrors >= MAX_CONSECUTIVE_ROLE_ERRORS) return endFor('error', steps, 'role_errors');
      if (failures >= maxFailures || noProgress >= maxNoProgress) return endFor('terminated', steps, 'stalemate', 'failure');
      continue;
    }
    roleErrors = 0;
    const A = worker.value;
    const base = { index: t, before: current, action: A.action, reasoning: A.thought, conclusion: A.summary, ...(worker.call.callKey ? { modelCallKey: worker.call.callKey } : {}) };
    if (A.action.action === 'terminate' || A.action.action === 'answer') {
      push({ ...base, latencyMs: performance.now() - started, roles });
      return A.action.action === 'terminate' ? endFor('terminated', steps, 'terminate', A.action.status) : endFor('answered', steps, 'answer', A.action.text);
    }
    const exec = await execute(input.env, A.action);
    if (!exec.ok && exec.fatal) {
      push({ ...base, error: exec.error, latencyMs: performance.now() - started, roles });
      return endFor('degraded', steps, 'environment', undefined, exec.error.message);
    }
    const after = exec.ok ? exec.after : current;

    // Reflector: (I, S_t, S_t+1, A_t) → F_t. An unusable reflection counts as FAILURE (recorded on its role entry).
    const refl = await callRole(
      'reflector',
      input.models.reflector,
      [
        { role: 'system', parts: [REFLECTOR_SYSTEM] },
        {
          role: 'user',
          parts: [
            [section('User Instruction', I), section('Action', describeWorkerAction(A)), ...(exec.ok ? [] : [section('Execution Error', exec.error.message)])].join('\n\n'),
            '### Screenshot Before The Action ###',
            { image: current },
            '### Screenshot After The Action ###',
            { image: after },
          ],
        },
      ],
      parseReflectorReply,
      opts(t, 2),
    );
    roles.push(refl.call);
    const F: ReflectorOutput = refl.value ?? { outcome: 'FAILURE', feedback: `No valid reflection (${refl.error?.message ?? 'unknown'}).` };

    // Notetaker on SUCCESS: N_t from S_t+1; 𝒩 ∪= N_t.
    if (F.outcome === 'SUCCESS') {
      const note = await callRole(
        'notetaker',
        input.models.notetaker,
        [
          { role: 'system', parts: [NOTETAKER_SYSTEM] },
          { role: 'user', parts: [[section('User Instruction', I), section('Existing Notes', notes)].join('\n\n'), '### Current Screenshot ###', { image: after }] },
        ],
        parseNotetakerReply,
        { ...opts(t, 3), screen: screenOf(after) },
      );
      roles.push(note.call);
      for (const n of note.value?.notes ?? []) if (!notes.includes(n)) notes.push(n);
    }

    // Manager update: (I, S, SS, CS, A, F, 𝒩) → (SS, CS). An unusable update keeps the previous plan.
    const upd = await callRole(
      'manager',
      input.models.manager,
      [
        { role: 'system', parts: [MANAGER_SYSTEM] },
        {
          role: 'user',
          parts: [
            [
              section('Mode', 'update'),
              ...common(),
              section('Knowledge', knowledge),
              section('Last Action', describeWorkerAction(A)),
              section('Last Reflection', `${F.outcome}: ${F.feedback}`),
              section('Notes', notes),
            ].join('\n\n'),
            '### Current Screenshot ###',
            { image: after },
          ],
        },
      ],
      parseManagerReply,
      { ...opts(t, 4), screen: screenOf(after) },
    );
    roles.push(upd.call);
    const progressed = upd.value !== undefined && upd.value.completed_subgoals.length > CS.length;
    if (upd.value) {
      SS = upd.value.pending_subgoals;
      CS = upd.value.completed_subgoals;
    }
    push({
      ...base,
      ...(exec.ok ? { after: exec.after, ...(exec.metrics ? { metrics: exec.metrics } : {}) } : { error: exec.error }),
      latencyMs: performance.now() - started,
      roles,
    });
    current = after;
    lastAction = A;
    lastF = F;
    failures = F.outcome === 'FAILURE' ? failures + 1 : 0;
    noProgress = progressed ? 0 : noProgress + 1;
    if (SS.length === 0) return endFor('terminated', steps, 'completed', 'success');
    if (failures >= maxFailures || noProgress >= maxNoProgress) return endFor('terminated', steps, 'stalemate', 'failure');
  }
  if (SS.length === 0) return endFor('terminated', steps, 'completed', 'success');
  return endFor('max_steps', steps, 'max_steps');
}
