import { TOOL_NAME } from '../domain/action.js';
import type { Step } from '../domain/entities.js';
import { DistillReply, parseRoleJson } from '../domain/guidance.js';
import type { ChatModel } from '../domain/ports.js';

/**
 * Multi-agent → end-to-end distillation (GUI-Owl §2.2.3 (b)): the outputs of a Mobile-Agent-v3 / CES / SWIRL
 * step's roles are merged by the `distiller` role into one reasoning + conclusion in GUI-Owl format, paired with
 * the action that was EXECUTED (copied, never regenerated: the distiller's reply has no action field).
 */
export interface DistilledStep {
  index: number;
  thought: string;
  conclusion: string;
  action: NonNullable<Step['action']>;
  /** The GUI-Owl assistant turn: Thought, Conclusion, one mobile_use tool call. */
  assistant: string;
  /** Lineage: which roles were merged, and by which model. */
  distillation: { roles: string[]; model: string };
}

/** Steps with an executed action and role outputs can be distilled; others are skipped (returned as undefined). */
export async function distillStep(model: ChatModel, instruction: string, step: Step): Promise<DistilledStep | undefined> {
  if (!step.action || step.error || !step.roles?.length) return undefined;
  const roles = step.roles.filter((r) => r.parsed !== undefined).map((r) => ({ role: r.role, output: r.parsed }));
  if (roles.length === 0) return undefined;
  const res = await model.complete({
    messages: [
      {
        role: 'system',
        content:
          'Merge the outputs of a multi-agent GUI system for one step into a single first-person reasoning of an end-to-end agent, and a one-sentence conclusion. Do not change or mention coordinates. Reply JSON {"thought": "...", "conclusion": "..."}.',
      },
      { role: 'user', content: JSON.stringify({ instruction, roles }) },
    ],
    temperature: 0,
  });
  const c = res.response.choices[0]?.message.content;
  const r = parseRoleJson('distiller', DistillReply, typeof c === 'string' ? c : '');
  const action = step.action;
  const call = JSON.stringify({ name: TOOL_NAME.mobile, arguments: action });
  return {
    index: step.index,
    thought: r.thought,
    conclusion: r.conclusion,
    action,
    assistant: `Thought: ${r.thought.trim()}\nConclusion: ${r.conclusion.trim()}\n<tool_call>\n${call}\n</tool_call>`,
    distillation: { roles: roles.map((x) => x.role), model: model.name },
  };
}
