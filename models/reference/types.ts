import type { ChatRequest, ChatResponse } from '../../domain/openai.js';
import type { PolicyMemory } from './memory.js';

export type { OcrEngine, OcrLine, RecognizeOptions } from '../../domain/ports.js';
import type { OcrEngine } from '../../domain/ports.js';

/** What every reference role gets besides the request: perception and a seeded sampler. */
export interface RoleContext {
  ocr: OcrEngine;
  /** Uniform [0,1) generator seeded from the request (`seed`, or a hash of the messages) and the choice index. */
  random: () => number;
  /** The reference policy's learned memory (models/reference/memory.ts), when one is loaded; other roles ignore it. */
  memory?: PolicyMemory;
}

/**
 * A role of the built-in reference model server, addressed by the request's `model` name
 * (e.g. `ref-policy`, `ref-step-critic`). It reads only the request — the information firewall.
 * Returns the assistant message of one choice; the server fans out `n` choices with distinct seeds.
 */
export type RoleHandler = (
  request: ChatRequest,
  ctx: RoleContext,
) => Promise<ChatResponse['choices'][number]['message'] & { finish_reason?: string }>;
