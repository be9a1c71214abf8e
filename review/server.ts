import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySession from '@fastify/session';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ReviewKind } from '../domain/entities.js';
import type { BlobStore, OcrEngine } from '../domain/ports.js';
import { scrubImage, scrubText } from '../export/scrub.js';
import { withTransaction, type Pool } from '../storage/db.js';
import {
  appendAudit,
  claimHolder,
  claimNext,
  claimRollout,
  getReviewUser,
  listAudit,
  listQueue,
  listReviewUsers,
  queueFacets,
  recordSkip,
  recordVerdict,
  reviewStats,
  type QueueFilter,
} from '../storage/review-queue-repo.js';
import { verifyPassword } from './passwords.js';
import { auditPage, loginPage, queuePage, rolloutPage, statsPage, usersPage, type PageContext, type Viewer } from './pages.js';
import { loadRolloutView } from './rollout-view.js';
import { PgSessionStore } from './session-store.js';

declare module 'fastify' {
  interface Session {
    user?: { name: string; role: 'reviewer' | 'admin' };
    filter?: QueueFilter;
    unmasked?: boolean;
  }
}

export interface ReviewServerOptions {
  db: Pool;
  blobs: BlobStore;
  /** Signs the session cookie; at least 32 characters. */
  sessionSecret: string;
  /** The cookie's Secure flag: true behind https, 'auto' = secure exactly when the request came over https. */
  secureCookies: boolean | 'auto';
  /** Trust X-Forwarded-* from a reverse proxy (needed for 'auto' behind a TLS-terminating proxy). */
  trustProxy?: boolean;
  /** Seconds a claim locks an item to its reviewer (default 600). */
  claimTtlSeconds?: number;
  /** Distinct reviewers' verdicts after which an item leaves the queue (default 1; 2 measures agreement). */
  reviewsPerItem?: number;
  /** Login attempts per client address per window (default 10 per minute). */
  loginRateLimit?: { max: number; windowMs: number };
  /** Session lifetime in ms (default 12 h). */
  sessionMaxAgeMs?: number;
  /**
   * OCR for masking screenshots (the export's `scrubImage` blurs lines holding PII). Give it the pipeline's engine
   * over the blob OCR store: the critics already read every screen, so serving is a cache hit. Without it,
   * screenshots are shown as captured.
   */
  ocr?: OcrEngine;
  /** Fastify's logger (pino options) or false. Cookies, authorization headers and bodies are never logged. */
  logger?: boolean | { level: string };
}

const BLOB_KEY = /^sha256\/[0-9a-f]{2}\/[0-9a-f]{64}\.(png|jpe?g|webp)$/;
const CONTENT_TYPE: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp' };

const LoginBody = z.object({ name: z.string().trim().toLowerCase().max(64), password: z.string().max(1024) });
const RolloutBody = z.object({ id: z.string().min(1).max(512) });
const VerdictBody = RolloutBody.extend({
  verdict: z.enum(['accept', 'reject'], { message: 'verdict must be accept or reject' }),
  steps: z
    .string()
    .max(4096)
    .regex(/^(\d+(,\d+)*)?$/, 'steps must be comma-separated step indices')
    .default('')
    .transform((s) => (s ? s.split(',').map(Number) : [])),
  note: z.string().max(4000).default(''),
});
const FilterInput = z.object({
  app: z.string().max(64).optional(),
  kind: z.union([ReviewKind, z.literal('')]).optional(),
  cycle: z.string().max(128).optional(),
  critic: z.string().max(512).optional(),
});

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new HttpError(400, `${issue.path.join('.') || 'body'}: ${issue.message}`);
}

function toFilter(raw: unknown): QueueFilter {
  const f = parse(FilterInput, raw ?? {});
  const v = (s: string | undefined): string | undefined => (s ? s : undefined);
  return { app: v(f.app), kind: f.kind ? f.kind : undefined, cycleId: v(f.cycle), criticVersion: v(f.critic) };
}

export interface ReviewServer {
  app: FastifyInstance;
  /** Every route the app serves (method and URL pattern), for the tests that walk them all. */
  routes: readonly { method: string; url: string }[];
}

/**
 * The review web app (Fastify, server-rendered HTML, no client build). Every route needs a session except the
 * login page; every POST needs the session's CSRF token; admin pages need the admin role; login attempts are
 * rate-limited per client address. Cookies are httpOnly and SameSite=Strict, Secure per `secureCookies`.
 */
export async function buildReviewServer(opts: ReviewServerOptions): Promise<ReviewServer> {
  const { db } = opts;
  const claimTtl = opts.claimTtlSeconds ?? 600;
  const reviewsPerItem = opts.reviewsPerItem ?? 1;
  const maxAgeMs = opts.sessionMaxAgeMs ?? 12 * 3600_000;
  if (opts.sessionSecret.length < 32) throw new Error('review session secret: at least 32 characters');
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: opts.trustProxy ?? false,
    bodyLimit: 64 * 1024,
  });
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) if (method !== 'HEAD') routes.push({ method, url: r.url });
  });
  await app.register(fastifyHelmet, {
    enableCSPNonces: true,
    contentSecurityPolicy: {
      directives: { defaultSrc: ["'self'"], imgSrc: ["'self'"], formAction: ["'self'"], frameAncestors: ["'none'"], upgradeInsecureRequests: null },
    },
    // The app is plain http on 127.0.0.1 in tests and behind a TLS proxy in production; HSTS belongs to the proxy.
    hsts: false,
  });
  await app.register(fastifyFormbody);
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: opts.sessionSecret,
    cookieName: 'trajforge_review',
    saveUninitialized: false,
    rolling: false,
    store: new PgSessionStore(db, maxAgeMs),
    // 'auto' is resolved per request below: the library's own 'auto' would downgrade SameSite to Lax on http.
    cookie: { httpOnly: true, sameSite: 'strict', secure: opts.secureCookies !== false, path: '/', maxAge: maxAgeMs },
  });
  const secureFor = (req: FastifyRequest): void => {
    if (opts.secureCookies === 'auto') req.session.options({ secure: req.protocol === 'https' });
  };
  app.addHook('onRequest', async (req) => secureFor(req));
  await app.register(fastifyCsrf, { sessionPlugin: '@fastify/session' });
  await app.register(fastifyRateLimit, { global: false });

  const isPublic = (req: FastifyRequest): boolean => req.routeOptions.url === '/login';
  app.addHook('onRequest', async (req, reply) => {
    if (isPublic(req)) return;
    const user = req.session.user;
    if (!user) {
      // Pages redirect to the login; everything else (posts, images, unknown routes) gets a bare 401.
      if (req.method === 'GET' && req.routeOptions.url !== undefined && !req.url.startsWith('/blob/')) return reply.redirect('/login', 302);
      return reply.code(401).type('text/plain').send('login required');
    }
    if (req.url.startsWith('/admin/') && user.role !== 'admin') return reply.code(403).type('text/plain').send('admins only');
  });
  app.addHook('preHandler', (req, reply, done) => {
    if (req.method !== 'POST') return done();
    app.csrfProtection(req, reply, done);
  });
  app.setErrorHandler((err: { statusCode?: number; message: string }, req, reply) => {
    const status = err instanceof HttpError ? err.status : (err.statusCode ?? 500);
    if (status >= 500) req.log.error({ err }, 'review server error');
    void reply.code(status).type('text/plain').send(status >= 500 ? 'internal error' : err.message);
  });

  const viewerOf = (req: FastifyRequest): Viewer => {
    const u = req.session.user!;
    return { name: u.name, role: u.role, unmasked: u.role === 'admin' && req.session.unmasked === true };
  };
  const ctxOf = (req: FastifyRequest, reply: FastifyReply): PageContext => {
    const viewer = req.session.user ? viewerOf(req) : null;
    const nonce = (reply as unknown as { cspNonce: { script: string; style: string } }).cspNonce;
    return { viewer, csrf: reply.generateCsrf(), nonce, mask: viewer?.unmasked ? (t) => t : (t) => scrubText(t).text };
  };
  const page = (reply: FastifyReply, body: string, status = 200): FastifyReply =>
    reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

  /** After a decision: the reviewer's next item under their filters, or back to the queue. */
  const goNext = async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const next = await claimNext(db, req.session.user!.name, req.session.filter ?? {}, claimTtl);
    return reply.redirect(next ? `/rollout?id=${encodeURIComponent(next)}` : '/queue?done=1', 303);
  };

  app.get('/login', async (req, reply) => (req.session.user ? reply.redirect('/queue', 302) : page(reply, loginPage(ctxOf(req, reply)))));
  app.post('/login', { config: { rateLimit: { max: opts.loginRateLimit?.max ?? 10, timeWindow: opts.loginRateLimit?.windowMs ?? 60_000 } } }, async (req, reply) => {
    const body = LoginBody.safeParse(req.body);
    const user = body.success ? await getReviewUser(db, body.data.name) : undefined;
    const ok = body.success && (await verifyPassword(user?.passwordHash, body.data.password)) && user !== undefined;
    if (!ok || !user) return page(reply, loginPage(ctxOf(req, reply), 'Wrong name or password.'), 401);
    // A new session id at login (no fixation); the CSRF secret of the anonymous session goes with the old id.
    await req.session.regenerate();
    secureFor(req);
    req.session.user = { name: user.name, role: user.role };
    await appendAudit(db, { reviewer: user.name, action: 'login' });
    return reply.redirect('/queue', 303);
  });
  app.post('/logout', async (req, reply) => {
    await appendAudit(db, { reviewer: req.session.user!.name, action: 'logout' });
    await req.session.destroy();
    return reply.redirect('/login', 303);
  });

  app.get('/', async (_req, reply) => reply.redirect('/queue', 302));
  app.get('/queue', async (req, reply) => {
    const filter = toFilter(req.query);
    const [items, facets] = await Promise.all([listQueue(db, filter, 200), queueFacets(db)]);
    const done = (req.query as Record<string, unknown>).done !== undefined;
    return page(reply, queuePage(ctxOf(req, reply), { items, filter, facets, message: done ? 'Nothing left in the queue for you under these filters.' : undefined }));
  });
  app.post('/queue/next', async (req, reply) => {
    req.session.filter = toFilter(req.body);
    return goNext(req, reply);
  });

  app.get('/rollout', async (req, reply) => {
    const { id } = parse(RolloutBody, req.query);
    const view = await loadRolloutView(db, id);
    if (!view) throw new HttpError(404, `rollout ${id}: not found`);
    const viewer = viewerOf(req);
    // Opening an unclaimed item claims it (an item someone else holds stays theirs: the page says so).
    if (view.claimedBy === null && view.candidates.some((c) => c.status === 'open')) {
      if (await claimRollout(db, viewer.name, id, claimTtl)) view.claimedBy = viewer.name;
    }
    const mine = view.verdicts.find((x) => x.reviewer === viewer.name);
    return page(reply, rolloutPage(ctxOf(req, reply), view, { mine }));
  });
  app.post('/rollout/verdict', async (req, reply) => {
    const body = parse(VerdictBody, req.body);
    const me = req.session.user!.name;
    const result = await withTransaction(db, async (tx) => {
      const holder = await claimHolder(tx, body.id);
      if (holder !== null && holder !== me) throw new HttpError(409, `rollout ${body.id} is claimed by ${holder}`);
      const exists = await tx.query<{ n: number }>('select step_count as n from rollouts where id = $1', [body.id]);
      if (exists.rowCount === 0) throw new HttpError(404, `rollout ${body.id}: not found`);
      const outside = body.steps.find((i) => !Number.isSafeInteger(i) || i >= Number(exists.rows[0]!.n));
      if (outside !== undefined) throw new HttpError(400, `steps: ${outside} is not a step of rollout ${body.id} (it has ${exists.rows[0]!.n})`);
      return recordVerdict(tx, {
        rolloutId: body.id,
        reviewer: me,
        verdict: body.verdict === 'accept',
        rejectedSteps: body.steps,
        note: body.note,
        reviewsPerItem,
      });
    });
    req.log.info({ rollout: body.id, reviewer: me, action: result.action }, 'review verdict');
    return goNext(req, reply);
  });
  app.post('/rollout/skip', async (req, reply) => {
    const { id } = parse(RolloutBody, req.body);
    const exists = await db.query('select 1 from rollouts where id = $1', [id]);
    if (exists.rowCount === 0) throw new HttpError(404, `rollout ${id}: not found`);
    await recordSkip(db, req.session.user!.name, id);
    return goNext(req, reply);
  });

  // Screenshots by content-addressed key only (never arbitrary blobs: model calls, datasets, OCR caches).
  app.get('/blob/*', async (req, reply) => {
    const key = (req.params as Record<string, string>)['*'] ?? '';
    const m = BLOB_KEY.exec(key);
    if (!m) throw new HttpError(404, 'not a screenshot key');
    let bytes: Uint8Array;
    try {
      bytes = await opts.blobs.get(key);
    } catch {
      throw new HttpError(404, `${key}: not found`);
    }
    // Masked and unmasked bytes differ: pages add `?u=1` to unmasked image URLs, so the browser caches them apart.
    if (opts.ocr && !viewerOf(req).unmasked) bytes = (await scrubImage(bytes, await opts.ocr.recognize(bytes))).image;
    return reply.header('cache-control', 'private, max-age=31536000, immutable').type(CONTENT_TYPE[m[1]!]!).send(Buffer.from(bytes));
  });

  app.get('/admin/stats', async (req, reply) => page(reply, statsPage(ctxOf(req, reply), await reviewStats(db))));
  app.get('/admin/audit', async (req, reply) => page(reply, auditPage(ctxOf(req, reply), await listAudit(db, { limit: 500 }))));
  app.get('/admin/users', async (req, reply) => page(reply, usersPage(ctxOf(req, reply), await listReviewUsers(db))));
  app.post('/admin/unmask', async (req, reply) => {
    const on = parse(z.object({ on: z.enum(['0', '1']) }), req.body).on === '1';
    req.session.unmasked = on;
    await appendAudit(db, { reviewer: req.session.user!.name, action: 'unmask', details: { on } });
    return reply.redirect('/admin/users', 303);
  });
  return { app, routes };
}
