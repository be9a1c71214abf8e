import type { ChatResponse } from '../../domain/openai.js';
import type { ChatModel } from '../../domain/ports.js';

/** Polls an observable condition (no fixed sleeps as synchronisation); fails after `timeoutMs`. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A policy that replays GUI-Owl-format replies; `onCall(i)` runs before reply i is returned. */
export function scriptedPolicy(actions: readonly Record<string, unknown>[], onCall?: (i: number) => void | Promise<void>): ChatModel & { calls: number } {
  const model = {
    name: 'scripted-policy',
    calls: 0,
    async complete(): Promise<{ response: ChatResponse }> {
      const i = model.calls++;
      await onCall?.(i);
      const args = actions[Math.min(i, actions.length - 1)]!;
      const content = `Thought: step ${i}.\nConclusion: did step ${i}.\n<tool_call>\n${JSON.stringify({ name: 'mobile_use', arguments: args })}\n</tool_call>`;
      return {
        response: {
          id: `scripted-${i}`,
          model: 'scripted-policy',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        } as ChatResponse,
      };
    },
  };
  return model;
}
