import type { ChatRequest, ChatResponse } from '../../domain/openai.js';
import type { ChatModel } from '../../domain/ports.js';
import type { OcrEngine, RoleHandler } from '../../models/reference/types.js';

/** A ChatModel that replays canned assistant texts, at most `perCall` choices per call; records requests. */
export function cannedModel(replies: readonly string[], opts: { perCall?: number } = {}) {
  const requests: Omit<ChatRequest, 'model'>[] = [];
  let next = 0;
  const model: ChatModel & { requests: typeof requests } = {
    name: 'canned',
    requests,
    complete(request) {
      requests.push(request);
      const want = Math.min(request.n ?? 1, opts.perCall ?? Infinity);
      const choices: ChatResponse['choices'] = [];
      for (let i = 0; i < want; i++) {
        const content = replies[next % replies.length] ?? '';
        next++;
        choices.push({ index: i, message: { role: 'assistant', content }, finish_reason: 'stop' });
      }
      return Promise.resolve({ response: { id: `r${requests.length}`, model: 'canned', choices }, callKey: `sha256/call${requests.length}` });
    },
  };
  return model;
}

/** Small seedable PRNG for driving reference roles in-process. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A ChatModel that runs a reference role in-process (as the reference server would, one call per choice). */
export function roleModel(role: RoleHandler, ocr: OcrEngine, seed = 1): ChatModel {
  let call = 0;
  return {
    name: 'role',
    async complete(request) {
      call++;
      const choices: ChatResponse['choices'] = [];
      for (let i = 0; i < (request.n ?? 1); i++) {
        const { finish_reason, ...message } = await role(
          { model: 'ref', ...request },
          { ocr, random: mulberry32(seed * 1_000_003 + call * 1009 + i) },
        );
        choices.push({ index: i, message: { ...message, role: 'assistant' }, finish_reason: finish_reason ?? 'stop' });
      }
      return { response: { id: `role${call}`, model: 'ref', choices } };
    },
  };
}
