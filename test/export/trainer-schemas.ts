import { z } from 'zod';
import { Action } from '../../domain/action.js';

/**
 * Readers for the JSONL formats, written from the trainers' documentation, not from export/ (which must satisfy
 * them): ms-swift's standard `messages` dataset keys (messages required; images paths/URLs; tools a JSON string of
 * tool specs) — also LLaMA-Factory's OpenAI-style multimodal layout — and LLaMA-Factory's ShareGPT layout
 * (`conversations` of `from`/`value`, human/observation at odd positions, gpt/function_call at even ones; `system`,
 * `tools`, `images` columns mapped in dataset_info.json).
 */
const ToolSpecs = z.string().refine((s) => {
  try {
    const v = JSON.parse(s) as unknown;
    return z.array(z.object({ type: z.literal('function'), function: z.object({ name: z.string(), parameters: z.object({}).passthrough() }).passthrough() })).min(1).safeParse(v).success;
  } catch {
    return false;
  }
}, 'tools must be a JSON string of function specs');

export const SwiftMessages = z
  .object({
    messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant', 'tool_call', 'tool_response', 'tool']), content: z.string() })).min(2),
    images: z.array(z.string().min(1)),
    tools: ToolSpecs,
    meta: z.object({ rollout_id: z.string(), step: z.number().int(), query_id: z.string(), acceptance_source: z.enum(['human', 'critics']) }).passthrough(),
  })
  .passthrough()
  .refine((r) => r.messages.at(-1)?.role === 'assistant', 'the last message is the target (assistant)');

export const LlamaFactoryShareGpt = z
  .object({
    system: z.string(),
    tools: ToolSpecs,
    images: z.array(z.string().min(1)),
    conversations: z.array(z.object({ from: z.enum(['human', 'gpt', 'function_call', 'observation']), value: z.string() })).min(2),
  })
  .passthrough()
  .refine(
    (r) => r.conversations.every((c, i) => (i % 2 === 0 ? c.from === 'human' || c.from === 'observation' : c.from === 'gpt' || c.from === 'function_call')),
    'turns must alternate human/observation then gpt/function_call',
  )
  .refine((r) => r.conversations.length % 2 === 0, 'a conversation ends with the model turn');

export const ActionSchema = Action;

export const countImageTags = (text: string): number => (text.match(/<image>/g) ?? []).length;
