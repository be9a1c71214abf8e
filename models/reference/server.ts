import { mulberry32 } from '../../domain/random.js';
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ChatRequest, type ChatResponse } from '../../domain/openai.js';
import { RoleInputError } from './errors.js';
import { drawLatencyMs, type LatencySpec } from './latency.js';
import type { OcrEngine, RoleHandler } from './types.js';

/**
 * The built-in reference model server: an OpenAI-compatible `/v1/chat/completions` in front of CPU
 * reference roles (heuristics over OCR), addressed by the request's `model` field. Used where no GPU
 * endpoint is configured, and by the tests. Non-streaming only.
 */
export interface ReferenceServerOptions {
  /** 0 / absent: an ephemeral port. */
  port?: number;
  host?: string;
  roles: Record<string, RoleHandler>;
  /**
   * Models not in `roles` (e.g. a registry version `ref-policy@0.1.3`): the handler for that name, or undefined
   * for an unknown model (404). Called per request; cache in the resolver.
   */
  resolve?: (model: string) => Promise<RoleHandler | undefined>;
  ocr: OcrEngine;
  /** Request body limit in bytes (default 64 MiB). */
  maxBodyBytes?: number;
  /**
   * Simulated GPU-endpoint latency: each chat completion is answered no sooner than a delay drawn from this
   * distribution after it arrived (timer sleep, no CPU). Absent: answer as soon as computed.
   */
  latency?: LatencySpec;
  /** Uniform [0, 1) source for the latency draws (tests pass a seeded one). Default Math.random. */
  latencyRandom?: () => number;
}

export interface ReferenceServer {
  /** `http://host:port/v1` */
  baseUrl: string;
  port: number;
  close(): Promise<void>;
}

/** Approximate image cost in tokens for `usage` (OpenAI's low-detail figure). */
const IMAGE_TOKENS = 85;

export async function startReferenceServer(opts: ReferenceServerOptions): Promise<ReferenceServer> {
  const host = opts.host ?? '127.0.0.1';
  const maxBody = opts.maxBodyBytes ?? 64 * 1024 * 1024;
  const created = Math.floor(Date.now() / 1000);

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) sendError(res, 500, `internal error: ${(e as Error).message}`, 'server_error', null);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = performance.now();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/health') {
      if (req.method !== 'GET') return sendError(res, 405, 'method not allowed', 'invalid_request_error', null);
      return sendJson(res, 200, { status: 'ok', roles: Object.keys(opts.roles) });
    }
    if (path === '/v1/models') {
      if (req.method !== 'GET') return sendError(res, 405, 'method not allowed', 'invalid_request_error', null);
      return sendJson(res, 200, {
        object: 'list',
        data: Object.keys(opts.roles).map((id) => ({ id, object: 'model', created, owned_by: 'trajforge-reference' })),
      });
    }
    if (path !== '/v1/chat/completions') return sendError(res, 404, `no route ${req.method} ${path}`, 'invalid_request_error', null);
    if (req.method !== 'POST') return sendError(res, 405, 'use POST', 'invalid_request_error', null);

    const body = await readBody(req, maxBody);
    if (body === undefined) return sendError(res, 413, `request body over ${maxBody} bytes`, 'invalid_request_error', null);
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch (e) {
      return sendError(res, 400, `request body is not valid JSON: ${(e as Error).message}`, 'invalid_request_error', null);
    }
    if (typeof json === 'object' && json !== null && (json as { stream?: unknown }).stream === true) {
      return sendError(res, 400, 'streaming not supported', 'invalid_request_error', 'stream');
    }
    const parsed = ChatRequest.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : null;
      return sendError(res, 400, `${param ?? 'body'}: ${issue?.message ?? 'invalid request'}`, 'invalid_request_error', param);
    }
    const request = parsed.data;
    let handler = Object.hasOwn(opts.roles, request.model) ? opts.roles[request.model] : undefined;
    if (!handler && opts.resolve) {
      try {
        handler = await opts.resolve(request.model);
      } catch (e) {
        return sendError(res, 500, `model ${request.model} could not be loaded: ${(e as Error).message}`, 'server_error', 'model');
      }
    }
    if (!handler) {
      return sendError(res, 404, `The model \`${request.model}\` does not exist.`, 'invalid_request_error', 'model', 'model_not_found');
    }

    const n = request.n ?? 1;
    const baseSeed = request.seed ?? seedFromMessages(request);
    const choices: ChatResponse['choices'] = [];
    try {
      for (let i = 0; i < n; i++) {
        const random = mulberry32(mix(baseSeed, i));
        const { finish_reason, ...message } = await handler(request, { ocr: opts.ocr, random });
        choices.push({ index: i, message: { ...message, role: 'assistant' }, finish_reason: finish_reason ?? 'stop' });
      }
    } catch (e) {
      if (e instanceof RoleInputError) return sendError(res, 400, e.message, 'invalid_request_error', e.param);
      throw e;
    }
    if (opts.latency) {
      // Hold the answer until the drawn latency has passed since arrival: compute time is part of it, as on a GPU.
      const remaining = drawLatencyMs(opts.latency, opts.latencyRandom) - (performance.now() - arrived);
      if (remaining > 0) await new Promise<void>((r) => setTimeout(r, remaining));
    }
    const promptTokens = estimatePromptTokens(request);
    const completionTokens = choices.reduce((s, c) => s + Math.ceil(messageChars(c.message) / 4), 0);
    const response: ChatResponse = {
      id: `chatcmpl-${randomUUID().replace(/-/g, '')}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices,
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    };
    return sendJson(res, 200, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://${host}:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(over ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, message: string, type: string, param: string | null, code: string | null = null): void {
  sendJson(res, status, { error: { message, type, param, code } });
}

function seedFromMessages(request: ChatRequest): number {
  const h = createHash('sha256').update(JSON.stringify(request.messages)).digest();
  return h.readUInt32LE(0);
}

function mix(seed: number, index: number): number {
  const h = createHash('sha256').update(`${seed}:${index}`).digest();
  return h.readUInt32LE(0);
}

export { mulberry32 };

function messageChars(m: ChatRequest['messages'][number]): number {
  let chars = m.reasoning_content?.length ?? 0;
  if (typeof m.content === 'string') chars += m.content.length;
  else if (Array.isArray(m.content)) for (const p of m.content) if (p.type === 'text') chars += p.text.length;
  for (const tc of m.tool_calls ?? []) chars += tc.function.name.length + tc.function.arguments.length;
  return chars;
}

/** chars/4 of all text (messages and tools) plus a flat cost per image. */
function estimatePromptTokens(request: ChatRequest): number {
  let chars = 0;
  let images = 0;
  for (const m of request.messages) {
    chars += messageChars(m);
    if (Array.isArray(m.content)) images += m.content.filter((p) => p.type === 'image_url').length;
  }
  if (request.tools) chars += JSON.stringify(request.tools).length;
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}
