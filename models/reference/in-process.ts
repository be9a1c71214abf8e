import { createHash, randomUUID } from 'node:crypto';
import type { ChatRequest } from '../../domain/openai.js';
import type { ChatModel } from '../../domain/ports.js';
import { mulberry32 } from './server.js';
import type { OcrEngine, RoleHandler } from './types.js';

const noOcr: OcrEngine = {
  recognize: () => Promise.reject(new Error('this in-process reference model has no OCR engine')),
};

/**
 * A reference role as a `ChatModel` without HTTP: seeded exactly as the reference server seeds choice 0
 * (`seed`, or a hash of the messages), so it answers what `startReferenceServer` would. For fast batch jobs
 * and tests (e.g. generating 1,000 queries).
 */
export function inProcessModel(name: string, handler: RoleHandler, ocr: OcrEngine = noOcr): ChatModel {
  return {
    name,
    async complete(req) {
      const request: ChatRequest = { ...req, model: name };
      const base = request.seed ?? createHash('sha256').update(JSON.stringify(request.messages)).digest().readUInt32LE(0);
      const random = mulberry32(createHash('sha256').update(`${base}:0`).digest().readUInt32LE(0));
      const { finish_reason, ...message } = await handler(request, { ocr, random });
      return {
        response: {
          id: `chatcmpl-${randomUUID().replace(/-/g, '')}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: name,
          choices: [{ index: 0, message: { ...message, role: 'assistant' }, finish_reason: finish_reason ?? 'stop' }],
        },
      };
    },
  };
}
