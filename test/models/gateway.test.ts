import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parsePolicyReply } from '../../agents/gui-owl.js';
import type { ChatRequest } from '../../domain/openai.js';
import type { BlobStore } from '../../domain/ports.js';
import { ModelError, UsageMeter, createChatModel, createResponseCache, withUsageScope, type RoleEndpoint } from '../../models/gateway.js';
import { createLocalBlobStore } from '../../storage/blob.js';
import { startFixture, textResponse, vllmToolCallResponse, type Fixture } from './fixtures/openai-fixture.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.close();
});
beforeEach(() => fx.reset());

const ask = (text = 'hello'): Omit<ChatRequest, 'model'> => ({ messages: [{ role: 'user', content: text }] });
const cfg = (over: Partial<RoleEndpoint> = {}): RoleEndpoint => ({
  baseUrl: fx.baseUrl,
  model: 'gui-owl-7b',
  retryBaseMs: 5,
  retryMaxMs: 20,
  ...over,
});

async function rejection(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ModelError);
    return e as ModelError;
  }
  throw new Error('expected a rejection');
}

describe('gateway: responses', () => {
  it('sends an OpenAI request and returns a validated vLLM tool-call response with reasoning_content', async () => {
    fx.script({ body: vllmToolCallResponse() });
    const usage = new UsageMeter();
    const model = createChatModel(cfg({ apiKey: 'sk-test', temperature: 0.3, maxTokens: 512, topP: 0.9 }), { role: 'policy', usage });
    expect(model.name).toBe('policy');
    const { response, callKey } = await model.complete({ ...ask(), tools: [] });
    expect(callKey).toBeUndefined();
    const sent = fx.requests[0]!;
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.body).toMatchObject({ model: 'gui-owl-7b', temperature: 0.3, max_tokens: 512, top_p: 0.9, messages: [{ role: 'user', content: 'hello' }] });
    expect(response.choices[0]!.finish_reason).toBe('tool_calls');
    const parsed = parsePolicyReply(response.choices[0]!.message, 'mobile', { width: 412, height: 915 });
    expect(parsed.result).toEqual({ ok: true, action: { action: 'click', coordinate: [100, 200] } });
    expect(parsed.reasoning).toBe('The Burger Palace entry is at the top of the list.');
    expect(usage.get('policy')).toMatchObject({ calls: 1, promptTokens: 1234, completionTokens: 56, totalTokens: 1290 });
  });

  it('request-level values override the role defaults', async () => {
    const model = createChatModel(cfg({ temperature: 0.3, n: 2 }));
    await model.complete({ ...ask(), temperature: 1, n: 4 });
    expect(fx.requests[0]!.body).toMatchObject({ temperature: 1, n: 4 });
  });

  it("passes finish_reason 'length' through (the truncated call then fails to parse)", async () => {
    fx.script({ body: textResponse('Thought: x\n<tool_call>\n{"name": "mobile_use", "argu', 'length') });
    const { response } = await createChatModel(cfg()).complete(ask());
    expect(response.choices[0]!.finish_reason).toBe('length');
    const parsed = parsePolicyReply(response.choices[0]!.message, 'mobile', { width: 412, height: 915 });
    expect(parsed.result.ok).toBe(false);
  });
});

describe('gateway: retries', () => {
  it('retries a 429 after the Retry-After it was given', async () => {
    fx.script({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'Rate limit reached', type: 'rate_limit_error' } } }, { body: textResponse('ok') });
    const t0 = performance.now();
    const { response } = await createChatModel(cfg({ retryBaseMs: 0 })).complete(ask());
    const elapsed = performance.now() - t0;
    expect(fx.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(response.choices[0]!.message.content).toBe('ok');
  });

  it('honours retry-after-ms too', async () => {
    fx.script({ status: 429, headers: { 'retry-after-ms': '120' }, body: {} }, { body: textResponse('ok') });
    const t0 = performance.now();
    await createChatModel(cfg({ retryBaseMs: 0 })).complete(ask());
    expect(performance.now() - t0).toBeGreaterThanOrEqual(110);
    expect(fx.requests).toHaveLength(2);
  });

  it('retries 500, 502, 503 and then succeeds', async () => {
    fx.script({ status: 500, body: 'Internal Server Error' }, { status: 502, body: '<html>bad gateway</html>' }, { status: 503, body: {} }, { body: textResponse('ok') });
    const { response } = await createChatModel(cfg()).complete(ask());
    expect(fx.requests).toHaveLength(4);
    expect(response.choices[0]!.message.content).toBe('ok');
  });

  it('gives up after maxRetries with a retryable ModelError', async () => {
    fx.setDefault({ status: 503, body: { error: { message: 'overloaded' } } });
    const usage = new UsageMeter();
    const err = await rejection(createChatModel(cfg({ maxRetries: 2 }), { usage, role: 'critic' }).complete(ask()));
    expect(fx.requests).toHaveLength(3);
    expect(err).toMatchObject({ kind: 'http', status: 503, retryable: true, attempts: 3 });
    expect(err.message).toContain('overloaded');
    expect(usage.get('critic')?.failedCalls).toBe(1);
  });

  for (const status of [400, 401, 404, 422]) {
    it(`does not retry ${status}`, async () => {
      fx.script({ status, body: { error: { message: `bad ${status}`, type: 'invalid_request_error', param: 'messages' } } });
      const err = await rejection(createChatModel(cfg()).complete(ask()));
      expect(fx.requests).toHaveLength(1);
      expect(err).toMatchObject({ kind: 'http', status, retryable: false, attempts: 1 });
      expect(err.message).toContain(`bad ${status}`);
    });
  }

  it('times out (AbortSignal), retries, then throws a transport ModelError', async () => {
    fx.setDefault({ hang: true });
    const err = await rejection(createChatModel(cfg({ timeoutMs: 150, maxRetries: 2 })).complete(ask()));
    expect(fx.requests).toHaveLength(3);
    expect(err).toMatchObject({ kind: 'transport', retryable: true, attempts: 3 });
    expect(err.message).toMatch(/timed out/);
  });

  it('a timeout followed by success is retried transparently', async () => {
    fx.script({ hang: true }, { body: textResponse('late but ok') });
    const { response } = await createChatModel(cfg({ timeoutMs: 150 })).complete(ask());
    expect(response.choices[0]!.message.content).toBe('late but ok');
    expect(fx.requests).toHaveLength(2);
  });

  it('network errors (connection refused) are transport errors, retried', async () => {
    const dead = await startFixture();
    const url = dead.baseUrl;
    await dead.close();
    const err = await rejection(createChatModel(cfg({ baseUrl: url, maxRetries: 1 })).complete(ask()));
    expect(err).toMatchObject({ kind: 'transport', retryable: true, attempts: 2 });
  });
});

describe('gateway: invalid responses', () => {
  it('a body that is not JSON (cut short) is retried like a transport fault; invalid_response once retries run out', async () => {
    fx.script({ body: '{"id": "x", "choices": [' }, { body: '{"id": "x", "choices": [' }, { body: '{"id": "x", "choices": [' });
    const err = await rejection(createChatModel(cfg({ maxRetries: 2 })).complete(ask()));
    expect(err).toMatchObject({ kind: 'invalid_response', retryable: true, status: 200, attempts: 3 });
    expect(fx.requests).toHaveLength(3);
  });

  it('a truncated body followed by a whole one succeeds', async () => {
    fx.script({ body: '{"id": "x", "choices": [' }, { body: textResponse('ok') });
    const res = await createChatModel(cfg()).complete(ask());
    expect(res.response.choices[0]!.message.content).toBe('ok');
    expect(fx.requests).toHaveLength(2);
  });

  it('JSON that is not a chat response → invalid_response naming the field', async () => {
    fx.script({ body: { id: 'x', model: 'm', choices: [] } });
    const err = await rejection(createChatModel(cfg()).complete(ask()));
    expect(err.kind).toBe('invalid_response');
    expect(err.message).toContain('choices');
  });
});

describe('gateway: cache', () => {
  it('serves an identical temperature-0 request from the cache (the server sees one request)', async () => {
    const usage = new UsageMeter();
    const model = createChatModel(cfg({ temperature: 0 }), { usage, role: 'judge' });
    const a = await model.complete(ask('same'));
    const b = await model.complete(ask('same'));
    expect(fx.requests).toHaveLength(1);
    expect(b.response).toEqual(a.response);
    await model.complete(ask('different'));
    expect(fx.requests).toHaveLength(2);
    expect(usage.get('judge')).toMatchObject({ calls: 3, cachedCalls: 1, promptTokens: 200 });
  });

  it('does not cache sampled requests, but does cache seeded ones', async () => {
    const model = createChatModel(cfg({ temperature: 0.8 }));
    await model.complete(ask('s'));
    await model.complete(ask('s'));
    expect(fx.requests).toHaveLength(2);
    await model.complete({ ...ask('s'), seed: 7 });
    await model.complete({ ...ask('s'), seed: 7 });
    expect(fx.requests).toHaveLength(3);
  });

  it('persists through the blob store across model instances', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gw-cache-'));
    try {
      const blobs = createLocalBlobStore(dir);
      await createChatModel(cfg({ temperature: 0 }), { cache: createResponseCache({ blobs }) }).complete(ask('persist'));
      await createChatModel(cfg({ temperature: 0 }), { cache: createResponseCache({ blobs }) }).complete(ask('persist'));
      expect(fx.requests).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('gateway: limits', () => {
  it('never has more than `concurrency` requests in flight', async () => {
    const total = 6;
    const held: (() => void)[] = [];
    fx.setDefault(() => {
      let release!: () => void;
      const holdUntil = new Promise<void>((r) => (release = r));
      held.push(release);
      return { body: textResponse('ok'), holdUntil };
    });
    // Answer the oldest held request only when a second one is waiting (or when every request has arrived):
    // a client that ignores the limit would pile up all six.
    fx.onArrive = () => {
      if (fx.requests.length === total) held.splice(0).forEach((r) => r());
      else if (held.length >= 2) held.shift()!();
    };
    const model = createChatModel(cfg({ concurrency: 2 }));
    const results = await Promise.all(Array.from({ length: total }, (_, i) => model.complete(ask(`q${i}`))));
    expect(results).toHaveLength(total);
    expect(fx.requests).toHaveLength(total);
    expect(fx.maxInFlight).toBe(2);
  });

  it('the same gate without a limit lets them all in (the check above can fail)', async () => {
    const total = 6;
    const held: (() => void)[] = [];
    fx.setDefault(() => {
      let release!: () => void;
      const holdUntil = new Promise<void>((r) => (release = r));
      held.push(release);
      return { body: textResponse('ok'), holdUntil };
    });
    fx.onArrive = () => {
      if (fx.requests.length === total) held.splice(0).forEach((r) => r());
    };
    const model = createChatModel(cfg({ concurrency: 100 }));
    await Promise.all(Array.from({ length: total }, (_, i) => model.complete(ask(`q${i}`))));
    expect(fx.maxInFlight).toBe(total);
  });

  it('spaces requests at the configured rps', async () => {
    const model = createChatModel(cfg({ rps: 20 }));
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 5 }, (_, i) => model.complete(ask(`r${i}`))));
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190); // 4 gaps of 50 ms
  });
});

describe('gateway: call records', () => {
  let dir: string;
  let blobs: BlobStore;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'gw-blobs-'));
    blobs = createLocalBlobStore(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores {request, response, latencyMs, endpoint} with images replaced by their blob key', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 10, b: 10 } } }).png().toBuffer();
    const screenshotKey = await blobs.put(png, { ext: '.png', contentType: 'image/png' });
    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    fx.script({ body: vllmToolCallResponse() });
    const model = createChatModel(cfg(), { blobs, role: 'policy' });
    const { callKey } = await model.complete({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what now?' }, { type: 'image_url', image_url: { url: dataUrl } }] }],
    });
    expect(callKey).toMatch(/^sha256\/.+\.json$/);
    // the server got the real image
    expect(JSON.stringify(fx.requests[0]!.body)).toContain(png.toString('base64'));
    const stored = Buffer.from(await blobs.get(callKey!)).toString('utf8');
    expect(stored).not.toContain(png.toString('base64').slice(0, 40));
    const record = JSON.parse(stored) as { request: ChatRequest; response: unknown; latencyMs: number; endpoint: Record<string, string> };
    const content = record.request.messages[0]!.content as { type: string; image_url?: { url: string } }[];
    expect(content[1]!.image_url!.url).toBe(`blob:${screenshotKey}`);
    expect(record.response).toMatchObject({ id: 'chatcmpl-8d1c0f5b2b8a4a0c9e3f1a2b3c4d5e6f' });
    expect(record.latencyMs).toBeGreaterThanOrEqual(0);
    expect(record.endpoint).toEqual({ baseUrl: fx.baseUrl, model: 'gui-owl-7b', role: 'policy' });
  });
});

describe('gateway: cost accounting', () => {
  it('prices tokens per role from the endpoint pricing, charges nothing for cache hits, and records the cost per call', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gw-cost-'));
    try {
      const blobs = createLocalBlobStore(dir);
      fx.setDefault({ body: vllmToolCallResponse() }); // 1234 prompt + 56 completion tokens
      const usage = new UsageMeter();
      const model = createChatModel(cfg({ temperature: 0, pricing: { inputPerMTok: 2.5, outputPerMTok: 10 } }), { usage, role: 'policy', blobs });
      const first = await model.complete(ask('price me'));
      const again = await model.complete(ask('price me'));
      expect(fx.requests).toHaveLength(1);
      const expected = (1234 * 2.5 + 56 * 10) / 1e6;
      expect(usage.get('policy')).toMatchObject({ calls: 2, cachedCalls: 1, promptTokens: 1234, completionTokens: 56 });
      expect(usage.get('policy')!.costUsd).toBeCloseTo(expected, 12);
      const stored = async (key: string | undefined) => JSON.parse(Buffer.from(await blobs.get(key!)).toString('utf8')) as { costUsd: number; cached: boolean };
      expect(await stored(first.callKey)).toMatchObject({ cached: false });
      expect((await stored(first.callKey)).costUsd).toBeCloseTo(expected, 12);
      expect(await stored(again.callKey)).toMatchObject({ cached: true, costUsd: 0 });
      // No pricing: tokens counted, cost 0.
      const free = new UsageMeter();
      await createChatModel(cfg(), { usage: free, role: 'critic' }).complete(ask('free'));
      expect(free.get('critic')).toMatchObject({ promptTokens: 1234, costUsd: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('withUsageScope sees exactly the calls made inside it, across awaits and concurrent scopes, under the accounting key', async () => {
    fx.setDefault({ body: vllmToolCallResponse() });
    const global = new UsageMeter();
    const model = createChatModel(cfg({ pricing: { inputPerMTok: 1, outputPerMTok: 1 } }), { usage: global, role: 'ref-policy', accountAs: 'policy', cache: false });
    const a = new UsageMeter();
    const b = new UsageMeter();
    await Promise.all([
      withUsageScope(a, async () => {
        await model.complete(ask('a1'));
        await model.complete(ask('a2'));
      }),
      withUsageScope(b, async () => {
        await model.complete(ask('b1'));
      }),
    ]);
    await model.complete(ask('outside'));
    expect(model.name).toBe('ref-policy');
    expect(a.get('policy')).toMatchObject({ calls: 2, promptTokens: 2468 });
    expect(b.get('policy')).toMatchObject({ calls: 1, promptTokens: 1234 });
    expect(global.get('policy')).toMatchObject({ calls: 4 });
    expect(global.get('ref-policy')).toBeUndefined();
  });
});
