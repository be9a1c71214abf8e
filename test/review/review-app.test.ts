import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createActivities, criticVersion, type ActivityDeps } from '../../activities/index.js';
import { addReviewUser, reviewStatsLines } from '../../cli/review.js';
import { CycleConfig, ROLES, type Role } from '../../domain/config.js';
import type { BlobStore, ChatModel } from '../../domain/ports.js';
import { buildReviewServer, type ReviewServer } from '../../review/server.js';
import { createLocalBlobStore } from '../../storage/blob.js';
import { many } from '../../storage/db.js';
import { listAcceptedRollouts } from '../../storage/repos.js';
import { listAudit } from '../../storage/review-queue-repo.js';
import { cannedModel } from '../critics/fake-model.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { ReviewClient } from './http-client.js';
import { seedReviewData, type Seeded } from './seed.js';

const IMAGES = resolve(fileURLToPath(new URL('../../docs/images/', import.meta.url)));
const CYCLE = 'cycle-1';
const PASSWORD = 'correct horse battery';
const models = Object.fromEntries(ROLES.map((r): [Role, ChatModel] => [r, cannedModel(['unused'])])) as Record<Role, ChatModel>;
const CONFIG = CycleConfig.parse({});
const CRITIC = criticVersion(models, CONFIG);

let db: TestDatabase;
let dir: string;
let blobs: BlobStore;
let server: ReviewServer;
let base: string;
let browser: Browser;
let seeded: Seeded;

async function startServer(extra: Partial<Parameters<typeof buildReviewServer>[0]> = {}): Promise<{ server: ReviewServer; base: string }> {
  const s = await buildReviewServer({ db: db.pool, blobs, sessionSecret: 'x'.repeat(40), secureCookies: false, ...extra });
  const url = await s.app.listen({ port: 0, host: '127.0.0.1' });
  return { server: s, base: url };
}

beforeAll(async () => {
  db = await testDatabase();
  dir = await mkdtemp(join(tmpdir(), 'trajforge-review-'));
  blobs = createLocalBlobStore(join(dir, 'blobs'));
  seeded = await seedReviewData(db.pool, blobs, { cycleId: CYCLE, criticVersion: CRITIC, rollouts: 6, steps: 5 });
  await addReviewUser(db.pool, 'ann', 'reviewer', PASSWORD);
  await addReviewUser(db.pool, 'root', 'admin', PASSWORD);
  ({ server, base } = await startServer());
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(async () => {
  await browser?.close();
  await server?.app.close();
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const verdicts = () =>
  many(db.pool, `select rollout_id, reviewer, verdict, steps, note from review_verdicts order by decided_at`, [], z.object({ rollout_id: z.string(), reviewer: z.string(), verdict: z.boolean(), steps: z.record(z.string(), z.boolean()), note: z.string().nullable() }));

async function exportSamples(): Promise<{ samples: number; rollouts: Set<string> }> {
  const deps: ActivityDeps = { db: db.pool, blobs, envPool: {} as ActivityDeps['envPool'], models, policyModel: { name: 'ref-policy', version: '0.1.0' }, dags: [], ocr: { recognize: () => Promise.resolve([]) } };
  const out = await createActivities(deps).exportDataset({ cycleId: CYCLE, config: CONFIG, createdAt: new Date().toISOString() });
  const items = await many(
    db.pool,
    `select distinct rollout_id from dataset_items where dataset_name = $1 and dataset_version = $2`,
    [out!.name, out!.version],
    z.object({ rollout_id: z.string() }),
  );
  return { samples: out!.samples, rollouts: new Set(items.map((i) => i.rollout_id)) };
}

describe('review app: security', () => {
  it('every route answers an unauthenticated request with a redirect to the login or 401', async () => {
    expect(server.routes.length).toBeGreaterThanOrEqual(12);
    const anon = new ReviewClient(base);
    for (const r of server.routes) {
      const path = r.url.replace('*', `sha256/00/${'0'.repeat(64)}.png`);
      const res = await anon.request(r.method, path, r.method === 'POST' ? { id: seeded.rolloutIds[0]!, verdict: 'accept' } : undefined);
      if (r.url === '/login') {
        expect([200, 401, 403], `${r.method} ${r.url}`).toContain(res.status);
        continue;
      }
      if (res.status === 302) expect(res.headers.get('location'), `${r.method} ${r.url}`).toBe('/login');
      else expect(res.status, `${r.method} ${r.url}`).toBe(401);
    }
    expect(await verdicts()).toEqual([]);
  });

  it('a forged POST without the CSRF token is refused and changes nothing; cookies are httpOnly and SameSite=Strict', async () => {
    const c = new ReviewClient(base);
    const login = await c.login('ann', PASSWORD);
    expect(login.status).toBe(303);
    const setCookie = login.headers.getSetCookie().join('\n');
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    const forged = await c.request('POST', '/rollout/verdict', { id: seeded.rolloutIds[0]!, verdict: 'reject' });
    expect(forged.status).toBe(403);
    const wrongToken = await c.request('POST', '/rollout/verdict', { _csrf: 'forged-token', id: seeded.rolloutIds[0]!, verdict: 'reject' });
    expect(wrongToken.status).toBe(403);
    expect(await verdicts()).toEqual([]);
  });

  it("secure cookies 'auto': Secure exactly over https (behind a trusted proxy), SameSite=Strict either way", async () => {
    const auto = await startServer({ secureCookies: 'auto', trustProxy: true });
    try {
      const cookieOf = async (headers: Record<string, string>): Promise<string> =>
        (await fetch(`${auto.base}/login`, { headers })).headers.getSetCookie().find((c) => c.startsWith('trajforge_review='))!;
      const plain = await cookieOf({});
      expect(plain).toMatch(/SameSite=Strict/i);
      expect(plain).not.toMatch(/;\s*Secure/i);
      const tls = await cookieOf({ 'x-forwarded-proto': 'https' });
      expect(tls).toMatch(/SameSite=Strict/i);
      expect(tls).toMatch(/;\s*Secure/i);
      expect(tls).toMatch(/HttpOnly/i);
    } finally {
      await auto.server.app.close();
    }
  });

  it('a reviewer cannot reach admin pages; an admin can', async () => {
    const ann = new ReviewClient(base);
    await ann.login('ann', PASSWORD);
    const token = await ann.csrf('/queue');
    const adminRoutes = server.routes.filter((r) => r.url.startsWith('/admin/'));
    expect(adminRoutes.length).toBeGreaterThanOrEqual(4);
    for (const r of adminRoutes) {
      const res = await ann.request(r.method, r.url, r.method === 'POST' ? { _csrf: token, on: '1' } : undefined);
      expect(res.status, `${r.method} ${r.url}`).toBe(403);
    }
    const root = new ReviewClient(base);
    await root.login('root', PASSWORD);
    expect((await root.request('GET', '/admin/audit')).status).toBe(200);
  });

  it('wrong passwords are rate-limited per client (429), and the limit holds for the right password too', async () => {
    const limited = await startServer({ loginRateLimit: { max: 3, windowMs: 60_000 } });
    try {
      const c = new ReviewClient(limited.base);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await c.login('ann', `wrong password ${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect((await c.login('ann', PASSWORD)).status).toBe(429);
    } finally {
      await limited.server.app.close();
    }
  });
});

describe('review app in Chromium', () => {
  it('logs in, works through three candidates with the keyboard; verdicts persist and change the next export', async () => {
    const before = await exportSamples();
    expect(await listAcceptedRollouts(db.pool, CYCLE, CRITIC)).toEqual([...seeded.criticAccepted].sort());
    expect([...before.rollouts].sort()).toEqual([...seeded.criticAccepted].sort());

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/queue`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.fill('input[name=name]', 'ann');
    await page.fill('input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL(/\/queue$/), page.press('input[name=password]', 'Enter')]);
    expect(await page.locator('tbody tr').count()).toBe(seeded.rolloutIds.length);
    await page.screenshot({ path: join(IMAGES, 'review-queue.png') });

    // Enter claims the highest-priority item; the rollout view shows it with the action overlays.
    const [r0, r1, r2] = seeded.rolloutIds;
    await Promise.all([page.waitForURL(/\/rollout\?id=/), page.keyboard.press('Enter')]);
    expect(new URL(page.url()).searchParams.get('id')).toBe(r0);
    expect(await page.locator('.step').count()).toBe(5);
    expect(await page.locator('svg[data-action=click] circle').count()).toBeGreaterThan(0);
    expect(await page.locator('svg[data-action=swipe] line').count()).toBe(1);
    expect(await page.locator('svg[data-action=type] text').textContent()).toContain('type "deliver to');
    expect(await page.locator('#learned-p').textContent()).toBe('0.812');
    expect(await page.locator('[data-admin-only]').count()).toBe(0);
    await page.screenshot({ path: join(IMAGES, 'review-rollout.png') });
    await page.keyboard.press('j');
    await page.screenshot({ path: join(IMAGES, 'review-rollout-swipe.png') });

    // 1: r0 (critics accepted) → reject with r.
    await Promise.all([page.waitForURL((u) => u.searchParams.get('id') === r1), page.keyboard.press('r')]);
    // 2: r1 (critics rejected) → move to step 2, reject that step alone, accept the trajectory.
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    expect(await page.locator('#step-2.rejected').count()).toBe(1);
    await Promise.all([page.waitForURL((u) => u.searchParams.get('id') === r2), page.keyboard.press('a')]);
    // 3: r2 → a note, then accept.
    await page.keyboard.press('n');
    await page.keyboard.type('fine, confirmation on the last screen');
    await page.keyboard.press('Escape');
    await Promise.all([page.waitForURL((u) => u.searchParams.get('id') === seeded.rolloutIds[3]), page.keyboard.press('a')]);
    await context.close();

    expect(await verdicts()).toEqual([
      { rollout_id: r0, reviewer: 'ann', verdict: false, steps: {}, note: null },
      { rollout_id: r1, reviewer: 'ann', verdict: true, steps: { '2': false }, note: null },
      { rollout_id: r2, reviewer: 'ann', verdict: true, steps: {}, note: 'fine, confirmation on the last screen' },
    ]);
    const audit = await listAudit(db.pool, { reviewer: 'ann' });
    expect(audit.filter((a) => a.action === 'verdict').map((a) => a.rolloutId).reverse()).toEqual([r0, r1, r2]);
    expect(audit.filter((a) => a.action === 'claim').length).toBeGreaterThanOrEqual(4);
    const resolved = await many(db.pool, `select distinct rollout_id from review_candidates where status = 'resolved' order by 1`, [], z.object({ rollout_id: z.string() }));
    expect(resolved.map((r) => r.rollout_id)).toEqual([r0, r1, r2].sort());

    // The next export honours the humans: r0 (critic-accepted) is gone, r1 (critic-rejected) is in, without step 2.
    const expected = [...seeded.criticAccepted.filter((id) => id !== r0), r1!].sort();
    expect(await listAcceptedRollouts(db.pool, CYCLE, CRITIC)).toEqual(expected);
    const after = await exportSamples();
    expect([...after.rollouts].sort()).toEqual(expected);
    const r1Steps = await many(db.pool, `select step_idx from dataset_items where rollout_id = $1 order by step_idx`, [r1], z.object({ step_idx: z.number() }));
    expect(r1Steps.map((s) => s.step_idx)).not.toContain(2);
    expect(r1Steps.map((s) => s.step_idx)).toContain(3);
  });

  it('an admin sees ground truth (marked) and the stats; a second reviewer on the same item gives an agreement rate', async () => {
    const [r0] = seeded.rolloutIds;
    const root = new ReviewClient(base);
    await root.login('root', PASSWORD);
    const view = await (await root.request('GET', `/rollout?id=${encodeURIComponent(r0!)}`)).text();
    expect(view).toContain('ADMIN ONLY — checker ground truth');
    const token = /name="_csrf" value="([^"]+)"/.exec(view)![1]!;
    expect((await root.request('POST', '/rollout/verdict', { _csrf: token, id: r0!, verdict: 'accept', steps: '', note: '' })).status).toBe(303);
    const stats = await (await root.request('GET', '/admin/stats')).text();
    expect(stats).toMatch(/Agreement: 0\.0% of 1 reviewer pairs on 1 items/);
    const lines = await reviewStatsLines(db.pool);
    expect(lines.at(-2)).toBe('agreement: 0.0% (0/1 reviewer pairs on 1 items)');
    expect(lines.at(-1)).toBe('reviewers vs checkers: 100.0% (3/3 reviewed rollouts with a checker label)');
    expect(lines.some((l) => l.startsWith('ann ') && /\s3\s+3\s+2\s/.test(l))).toBe(true);
  });
});
