import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { parseOrThrow } from '../domain/errors.js';
import { ChatRequest, ChatResponse } from '../domain/openai.js';
import type { BlobStore, ChatModel } from '../domain/ports.js';

/**
 * The one OpenAI-compatible client every role (policy, critics, synthesisers) goes through.
 * vLLM / SGLang / hosted endpoints and the built-in reference server are interchangeable behind it.
 */

export const RoleEndpoint = z.object({
  /** Ends with `/v1`; requests go to `${baseUrl}/chat/completions`. */
  baseUrl: z.string().url(),
  model: z.string().min(1),
  apiKey: z.string().optional(),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  n: z.number().int().min(1).max(16).optional(),
  maxTokens: z.number().int().positive().optional(),
  /** Sent as `seed`; a seeded request is deterministic, so it is cacheable. */
  seed: z.number().int().optional(),
  timeoutMs: z.number().int().positive().default(120_000),
  maxRetries: z.number().int().min(0).max(20).default(4),
  concurrency: z.number().int().positive().default(8),
  /** Requests per second (optional). */
  rps: z.number().positive().optional(),
  /** First backoff delay; doubles per attempt with full jitter, capped by `retryMaxMs`. */
  retryBaseMs: z.number().int().min(0).default(500),
  retryMaxMs: z.number().int().min(0).default(30_000),
  /** Price of the endpoint's tokens, for cost accounting (absent: cost 0, e.g. the reference server). */
  pricing: z
    .object({
      /** USD per million prompt tokens. */
      inputPerMTok: z.number().min(0),
      /** USD per million completion tokens. */
      outputPerMTok: z.number().min(0),
    })
    .optional(),
});
export type Pricing = NonNullable<z.output<typeof RoleEndpoint>['pricing']>;
export type RoleEndpoint = z.input<typeof RoleEndpoint>;
export type RoleEndpointResolved = z.output<typeof RoleEndpoint>;

export type ModelErrorKind = 'transport' | 'http' | 'invalid_response';

/** A model call that failed after retries (or with a non-retryable status). */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly kind: ModelErrorKind,
    readonly retryable: boolean,
    readonly status: number | undefined,
    readonly attempts: number,
    readonly endpoint: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

// ---------------------------------------------------------------------------------------------------
// Token accounting

export interface RoleUsage {
  calls: number;
  /** Answered from the response cache: no tokens, no cost. */
  cachedCalls: number;
  failedCalls: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** USD, from the endpoint's `pricing` (0 where none is configured). */
  costUsd: number;
}

/** USD cost of one response's usage under a price list. */
export function costOf(usage: ChatResponse['usage'], pricing: Pricing | undefined): number {
  if (!usage || !pricing) return 0;
  return (usage.prompt_tokens * pricing.inputPerMTok + usage.completion_tokens * pricing.outputPerMTok) / 1_000_000;
}

/** Accumulates token usage and cost per role name. */
export class UsageMeter {
  readonly #byRole = new Map<string, RoleUsage>();

  #entry(role: string): RoleUsage {
    let u = this.#byRole.get(role);
    if (!u) {
      u = { calls: 0, cachedCalls: 0, failedCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0, costUsd: 0 };
      this.#byRole.set(role, u);
    }
    return u;
  }

  record(role: string, usage: ChatResponse['usage'], opts: { cached?: boolean; pricing?: Pricing | undefined } = {}): void {
    const u = this.#entry(role);
    u.calls++;
    if (opts.cached) {
      u.cachedCalls++;
      return;
    }
    if (!usage) return;
    u.promptTokens += usage.prompt_tokens;
    u.completionTokens += usage.completion_tokens;
    u.totalTokens += usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens;
    u.costUsd += costOf(usage, opts.pricing);
  }

  recordFailure(role: string): void {
    this.#entry(role).failedCalls++;
  }

  get(role: string): RoleUsage | undefined {
    const u = this.#byRole.get(role);
    return u ? { ...u } : undefined;
  }

  snapshot(): Record<string, RoleUsage> {
    return Object.fromEntries([...this.#byRole].map(([k, v]) => [k, { ...v }]));
  }

  reset(): void {
    this.#byRole.clear();
  }
}

const usageScope = new AsyncLocalStorage<UsageMeter>();

/**
 * Runs `fn` with a scoped meter: every gateway call made inside it (however deep, across awaits) is also
 * recorded there — how an activity learns what its own model calls cost without threading a meter through
 * every agent and critic (activities/usage.ts).
 */
export function withUsageScope<T>(meter: UsageMeter, fn: () => Promise<T>): Promise<T> {
  return usageScope.run(meter, fn);
}

/** Process-wide meter used when no meter is injected. */
export const usageMeter = new UsageMeter();

/**
 * Observers of each answered (not cached) model call's latency, by role: how the worker's Prometheus histogram
 * (cli/observability.ts) sees model latency without the gateway knowing about metrics.
 */
export const modelLatencyObservers = new Set<(role: string, seconds: number) => void>();

// ---------------------------------------------------------------------------------------------------
// Concurrency + rate limiting

export interface Limiter {
  run<T>(fn: () => Promise<T>): Promise<T>;
  readonly inFlight: number;
}

/** A semaphore of `concurrency` slots plus an optional requests-per-second spacing. */
export function createLimiter(opts: { concurrency: number; rps?: number }): Limiter {
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  let nextSlotAt = 0;
  const interval = opts.rps ? 1000 / opts.rps : 0;

  const acquire = async (): Promise<void> => {
    if (inFlight < opts.concurrency) inFlight++;
    else await new Promise<void>((resolve) => waiters.push(resolve)); // slot handed over by release()
    if (interval > 0) {
      const now = Date.now();
      const at = Math.max(now, nextSlotAt);
      nextSlotAt = at + interval;
      if (at > now) await new Promise((r) => setTimeout(r, at - now));
    }
  };
  const release = (): void => {
    const next = waiters.shift();
    if (next) next();
    else inFlight--;
  };
  return {
    get inFlight() {
      return inFlight;
    },
    async run<T>(fn: () => Promise<T>): Promise<T> {
      await acquire();
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Response cache

export interface ResponseCache {
  get(key: string): Promise<ChatResponse | undefined>;
  set(key: string, response: ChatResponse): Promise<void>;
}

/** In-memory LRU, optionally backed by the blob store at `cache/chat/<sha256>.json` (survives restarts). */
export function createResponseCache(opts: { maxEntries?: number; blobs?: BlobStore } = {}): ResponseCache {
  const max = opts.maxEntries ?? 1024;
  const mem = new Map<string, ChatResponse>();
  const remember = (key: string, value: ChatResponse): void => {
    mem.delete(key);
    mem.set(key, value);
    while (mem.size > max) {
      const oldest = mem.keys().next().value;
      if (oldest === undefined) break;
      mem.delete(oldest);
    }
  };
  const blobKey = (key: string): string => `cache/chat/${key}.json`;
  return {
    async get(key) {
      const hit = mem.get(key);
      if (hit) {
        remember(key, hit);
        return structuredClone(hit);
      }
      if (!opts.blobs) return undefined;
      try {
        if (!(await opts.blobs.has(blobKey(key)))) return undefined;
        const parsed = ChatResponse.safeParse(JSON.parse(Buffer.from(await opts.blobs.get(blobKey(key))).toString('utf8')));
        if (!parsed.success) return undefined;
        remember(key, parsed.data);
        return structuredClone(parsed.data);
      } catch {
        return undefined;
      }
    },
    async set(key, response) {
      remember(key, structuredClone(response));
      if (!opts.blobs) return;
      if (await opts.blobs.has(blobKey(key))) return;
      await opts.blobs.putAt(blobKey(key), Buffer.from(JSON.stringify(response)), { contentType: 'application/json' });
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The client

export interface GatewayDeps {
  /** Where `{request, response, latencyMs, endpoint}` call records go; enables `callKey`. */
  blobs?: BlobStore;
  /** Response cache; default a private in-memory LRU. `false` disables caching. */
  cache?: ResponseCache | false;
  /** Shared limiter (e.g. one per endpoint across roles); default one built from `concurrency`/`rps`. */
  limiter?: Limiter;
  /** Role name for usage accounting and the model's `name`; default `cfg.model`. */
  role?: string;
  /** Usage-accounting key when it differs from the model's `name` (the runtime: the role, e.g. `stepCritic`). */
  accountAs?: string;
  usage?: UsageMeter;
  /** Injected for tests; default global fetch. */
  fetch?: typeof fetch;
  random?: () => number;
}

export interface CallRecord {
  request: ChatRequest;
  response: ChatResponse;
  latencyMs: number;
  cached: boolean;
  attempts: number;
  /** USD under the endpoint's pricing (0 when cached or unpriced). */
  costUsd: number;
  endpoint: { baseUrl: string; model: string; role: string };
}

export function createChatModel(cfg: RoleEndpoint, deps: GatewayDeps = {}): ChatModel {
  const ep = parseOrThrow(RoleEndpoint, cfg, 'RoleEndpoint');
  const role = deps.role ?? ep.model;
  const account = deps.accountAs ?? role;
  const url = `${ep.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const limiter = deps.limiter ?? createLimiter({ concurrency: ep.concurrency, ...(ep.rps ? { rps: ep.rps } : {}) });
  const cache = deps.cache === false ? undefined : (deps.cache ?? createResponseCache());
  const meter = deps.usage ?? usageMeter;
  const meters = (): UsageMeter[] => {
    const scoped = usageScope.getStore();
    return scoped && scoped !== meter ? [meter, scoped] : [meter];
  };
  const doFetch = deps.fetch ?? fetch;
  const random = deps.random ?? Math.random;

  const backoff = (attempt: number): number =>
    Math.min(ep.retryMaxMs, ep.retryBaseMs * 2 ** attempt) * (0.5 + 0.5 * random());

  async function attemptOnce(body: string): Promise<ChatResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (ep.apiKey) headers.authorization = `Bearer ${ep.apiKey}`;
    let res: Response;
    try {
      res = await doFetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(ep.timeoutMs) });
    } catch (e) {
      const err = e as Error;
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      throw new Attempt(
        new ModelError(
          timedOut ? `timed out after ${ep.timeoutMs} ms` : `network error: ${describe(err)}`,
          'transport',
          true,
          undefined,
          0,
          url,
        ),
      );
    }
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      const err = e as Error;
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      throw new Attempt(
        new ModelError(timedOut ? `timed out reading body after ${ep.timeoutMs} ms` : `body read failed: ${describe(err)}`, 'transport', true, res.status, 0, url),
      );
    }
    if (!res.ok) {
      const retryable = RETRYABLE_STATUS.has(res.status);
      throw new Attempt(
        new ModelError(`HTTP ${res.status}: ${errorMessage(text)}`, 'http', retryable, res.status, 0, url),
        retryAfterMs(res.headers),
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // A body that is not JSON at all (cut short by a dropped connection or a proxy, an HTML error page in front of
      // the server) is a transport fault, retried like one; JSON of the wrong shape (below) is the server's answer.
      throw new Attempt(
        new ModelError(`response is not JSON: ${text.slice(0, 200)}`, 'invalid_response', true, res.status, 0, url),
      );
    }
    const parsed = ChatResponse.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue ? issue.path.join('.') || '(root)' : '(root)';
      throw new Attempt(
        new ModelError(`invalid chat response at ${field}: ${issue?.message ?? 'invalid'}`, 'invalid_response', false, res.status, 0, url),
      );
    }
    return parsed.data;
  }

  async function store(record: CallRecord): Promise<string | undefined> {
    if (!deps.blobs) return undefined;
    const request = await redactImages(record.request, deps.blobs);
    const bytes = Buffer.from(JSON.stringify({ ...record, request }));
    return deps.blobs.put(bytes, { ext: '.json', contentType: 'application/json' });
  }

  return {
    name: role,
    async complete(partial) {
      const request = parseOrThrow(ChatRequest, buildRequest(ep, partial), `${role} request`);
      const body = JSON.stringify(request);
      const cacheable = cache !== undefined && ((request.temperature ?? 1) === 0 || request.seed !== undefined);
      const cacheKey = cacheable ? sha256(body) : undefined;
      const endpoint = { baseUrl: ep.baseUrl, model: ep.model, role };

      if (cache && cacheKey) {
        const hit = await cache.get(cacheKey);
        if (hit) {
          for (const m of meters()) m.record(account, hit.usage, { cached: true });
          const callKey = await store({ request, response: hit, latencyMs: 0, cached: true, attempts: 0, costUsd: 0, endpoint });
          return callKey ? { response: hit, callKey } : { response: hit };
        }
      }

      const t0 = performance.now();
      let attempts = 0;
      for (;;) {
        attempts++;
        try {
          const response = await limiter.run(() => attemptOnce(body));
          const latencyMs = Math.round(performance.now() - t0);
          for (const m of meters()) m.record(account, response.usage, { pricing: ep.pricing });
          for (const observe of modelLatencyObservers) observe(account, latencyMs / 1000);
          if (cache && cacheKey) await cache.set(cacheKey, response);
          const callKey = await store({ request, response, latencyMs, cached: false, attempts, costUsd: costOf(response.usage, ep.pricing), endpoint });
          return callKey ? { response, callKey } : { response };
        } catch (e) {
          if (!(e instanceof Attempt)) throw e;
          const err = e.error;
          if (!err.retryable || attempts > ep.maxRetries) {
            for (const m of meters()) m.recordFailure(account);
            throw new ModelError(
              `${role}: ${err.message}${attempts > 1 ? ` (after ${attempts} attempts)` : ''}`,
              err.kind,
              err.retryable,
              err.status,
              attempts,
              url,
            );
          }
          const wait = e.retryAfterMs !== undefined ? Math.min(e.retryAfterMs, 120_000) : backoff(attempts - 1);
          await new Promise((r) => setTimeout(r, wait));
        }
      }
    },
  };
}

/** One failed attempt, with the server's Retry-After where it gave one. */
class Attempt extends Error {
  constructor(
    readonly error: ModelError,
    readonly retryAfterMs?: number,
  ) {
    super(error.message);
  }
}

/** Role defaults under request-level values; undefined keys dropped so the JSON (and cache key) is stable. */
function buildRequest(ep: RoleEndpointResolved, partial: Omit<ChatRequest, 'model'>): ChatRequest {
  const merged: Record<string, unknown> = {
    model: ep.model,
    temperature: ep.temperature,
    top_p: ep.topP,
    n: ep.n,
    max_tokens: ep.maxTokens,
    seed: ep.seed,
  };
  for (const [k, v] of Object.entries(partial)) if (v !== undefined) merged[k] = v;
  merged.model = ep.model;
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  return merged as ChatRequest;
}

function retryAfterMs(h: Headers): number | undefined {
  const ms = h.get('retry-after-ms');
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const v = h.get('retry-after');
  if (v === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return Math.max(0, Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

function errorMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof j.error === 'string') return j.error;
    if (j.error && typeof j.error.message === 'string') return j.error.message;
    if (typeof j.message === 'string') return j.message;
  } catch {
    // not JSON
  }
  return text.slice(0, 300);
}

function describe(err: Error): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause ? `${err.message} (${cause.code ?? cause.message ?? ''})` : err.message;
}

function sha256(s: string | Uint8Array): string {
  return createHash('sha256').update(s).digest('hex');
}

const MIME_EXT: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/jpg': '.jpg',
  'image/webp': '.webp',
  'image/gif': '.gif',
};

/**
 * A copy of the request whose `data:` image URLs are replaced by `blob:<key>` (the screenshot's key in the
 * blob store; `put` is content-addressed, so an already-stored screenshot is never duplicated).
 */
export async function redactImages(request: ChatRequest, blobs: BlobStore): Promise<ChatRequest> {
  const messages = await Promise.all(
    request.messages.map(async (m) => {
      if (!Array.isArray(m.content)) return m;
      const content = await Promise.all(
        m.content.map(async (p) => {
          if (p.type !== 'image_url') return p;
          const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(p.image_url.url);
          if (!match) return p;
          const mime = match[1] ?? 'application/octet-stream';
          const bytes = match[2] ? Buffer.from(match[3] ?? '', 'base64') : Buffer.from(decodeURIComponent(match[3] ?? ''));
          const ext = MIME_EXT[mime] ?? '';
          // Content-addressed put: a no-op returning the existing key when the screenshot is already stored.
          const key = await blobs.put(bytes, ext ? { ext, contentType: mime } : { contentType: mime });
          return { ...p, image_url: { ...p.image_url, url: `blob:${key}` } };
        }),
      );
      return { ...m, content };
    }),
  );
  return { ...request, messages };
}
