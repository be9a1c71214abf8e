import { z } from 'zod';

/**
 * The subset of the OpenAI chat-completions protocol trajforge speaks. Every role (policy, critics,
 * synthesisers) goes through it, so a vLLM/SGLang/hosted endpoint and the built-in reference server
 * are interchangeable.
 */
export const TextPart = z.object({ type: z.literal('text'), text: z.string() });
export const ImagePart = z.object({
  type: z.literal('image_url'),
  /** `data:image/png;base64,...` or an http(s) URL. */
  image_url: z.object({ url: z.string(), detail: z.string().optional() }),
});
export const ContentPart = z.discriminatedUnion('type', [TextPart, ImagePart]);
export type ContentPart = z.infer<typeof ContentPart>;

export const ToolCall = z.object({
  id: z.string().optional(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});
export type ToolCall = z.infer<typeof ToolCall>;

export const ChatMessage = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
  tool_calls: z.array(ToolCall).optional(),
  tool_call_id: z.string().optional(),
  /** Reasoning models (vLLM `--reasoning-parser`, DeepSeek) put thinking here. */
  reasoning_content: z.string().nullish(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

export const ToolSpec = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string(),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()),
  }),
});
export type ToolSpec = z.infer<typeof ToolSpec>;

export const ChatRequest = z.object({
  model: z.string(),
  messages: z.array(ChatMessage).min(1),
  tools: z.array(ToolSpec).optional(),
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().gt(0).max(1).optional(),
  n: z.number().int().min(1).max(16).optional(),
  max_tokens: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
  stream: z.literal(false).optional(),
  /** Free-form extension fields (e.g. the role a request is for); ignored by servers that do not know them. */
  metadata: z.record(z.string(), z.string()).optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

export const ChatChoice = z.object({
  index: z.number().int(),
  message: ChatMessage,
  finish_reason: z.string().nullable(),
});
export type ChatChoice = z.infer<typeof ChatChoice>;

export const ChatResponse = z.object({
  id: z.string(),
  object: z.string().optional(),
  created: z.number().optional(),
  model: z.string(),
  choices: z.array(ChatChoice).min(1),
  usage: z
    .object({ prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number().optional() })
    .optional(),
});
export type ChatResponse = z.infer<typeof ChatResponse>;

/** Concatenated text of a message's content. */
export function messageText(m: Pick<ChatMessage, 'content'>): string {
  if (typeof m.content === 'string') return m.content;
  if (!m.content) return '';
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

/** Image URLs of a message's content, in order. */
export function messageImages(m: Pick<ChatMessage, 'content'>): string[] {
  if (!Array.isArray(m.content)) return [];
  return m.content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : []));
}
