/**
 * The review queue in real Chromium, in one run:
 *
 *   npx tsx bench/review.ts [--candidates 100] [--steps 15] [--loads 40]
 *
 * 1. A reviewer logs in and decides `--candidates` queued rollouts with the keyboard only (Enter on the queue, then
 *    `a`/`r` per item, every fifth with a rejected step via `j`,`x`); prints the total, the per-item p50/p95
 *    (key press → next rollout's page loaded) and checks every verdict landed in review_verdicts.
 * 2. Page load of a `--steps`-step rollout view (phone-sized 412×915 PNG screenshots), `--loads` times: navigation
 *    start → `load` event in Chromium (HTML + eagerly loaded screenshots), and the server's HTML response time.
 * A private embedded Postgres cluster and a temporary local blob store are created and removed.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { addReviewUser } from '../cli/review.js';
import { startEmbeddedPostgres } from '../cli/services/postgres.js';
import { freePort } from '../cli/services/s3-server.js';
import { buildReviewServer } from '../review/server.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import { createPool } from '../storage/db.js';
import { migrate } from '../storage/migrate.js';
import { seedReviewData } from '../test/review/seed.js';

const { values } = parseArgs({ options: { candidates: { type: 'string', default: '100' }, steps: { type: 'string', default: '15' }, loads: { type: 'string', default: '40' } } });
const N = Number(values.candidates);
const STEPS = Number(values.steps);
const LOADS = Number(values.loads);
const PASSWORD = 'bench password 123';

const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? NaN;
const ms = (x: number): string => `${x.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'trajforge-review-bench-'));
  await chmod(dir, 0o755); // as root, Postgres runs as the `postgres` user, which must reach the data dir
  const pg = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort() });
  const db = createPool(pg.url);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  let server: Awaited<ReturnType<typeof buildReviewServer>> | undefined;
  try {
    await migrate(db);
    const blobs = createLocalBlobStore(join(dir, 'blobs'));
    const t0 = performance.now();
    const seeded = await seedReviewData(db, blobs, { cycleId: 'cycle-1', criticVersion: 'bench', rollouts: N, steps: STEPS, width: 412, height: 915 });
    console.log(`seeded ${N} queued rollouts × ${STEPS} steps (412×915 screenshots) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await addReviewUser(db, 'bench', 'reviewer', PASSWORD);
    server = await buildReviewServer({ db, blobs, sessionSecret: 'b'.repeat(40), secureCookies: false, loginRateLimit: { max: 1000, windowMs: 60_000 } });
    const base = await server.app.listen({ port: 0, host: '127.0.0.1' });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.fill('input[name=name]', 'bench');
    await page.fill('input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL(/\/queue$/), page.press('input[name=password]', 'Enter')]);

    // 1. Keyboard-only review of every candidate.
    const perItem: number[] = [];
    const start = performance.now();
    await Promise.all([page.waitForURL(/\/rollout\?id=/), page.keyboard.press('Enter')]);
    for (let i = 0; i < N; i++) {
      const current = new URL(page.url()).searchParams.get('id');
      if (i % 5 === 0) {
        await page.keyboard.press('j');
        await page.keyboard.press('x');
      }
      const t = performance.now();
      await Promise.all([page.waitForURL((u) => u.searchParams.get('id') !== current, { waitUntil: 'load' }), page.keyboard.press(i % 2 ? 'r' : 'a')]);
      perItem.push(performance.now() - t);
    }
    const total = (performance.now() - start) / 1000;
    const done = (await db.query<{ n: number; steps: number }>(`select count(*)::int as n, count(*) filter (where steps <> '{}'::jsonb)::int as steps from review_verdicts`)).rows[0]!;
    if (done.n !== N) throw new Error(`expected ${N} verdicts, found ${done.n}`);
    if (!page.url().endsWith('/queue?done=1')) throw new Error(`after the last item the reviewer should be back on the queue, is on ${page.url()}`);
    console.log(`keyboard review: ${N} candidates in ${total.toFixed(1)} s (${((N / total) * 60).toFixed(0)} per minute of machine time); ${done.n} verdicts stored (${done.steps} with a rejected step)`);
    console.log(`  per item (key press → next rollout loaded): p50 ${ms(pct(perItem, 0.5))}, p95 ${ms(pct(perItem, 0.95))}`);

    // 2. Page load of one rollout view.
    const id = seeded.rolloutIds[Math.floor(N / 2)]!;
    const url = `${base}/rollout?id=${encodeURIComponent(id)}`;
    const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const loads: number[] = [];
    const html: number[] = [];
    await page.goto(url); // warm-up (browser image cache, first query plans)
    for (let i = 0; i < LOADS; i++) {
      const t = performance.now();
      await page.goto(url, { waitUntil: 'load' });
      loads.push(performance.now() - t);
      const h = performance.now();
      const res = await fetch(url, { headers: { cookie } });
      await res.text();
      html.push(performance.now() - h);
    }
    const steps = await page.locator('.step').count();
    const nav = await page.evaluate(() => {
      const e = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { responseEnd: e.responseEnd - e.startTime, loadEnd: e.loadEventEnd - e.startTime, bytes: e.transferSize };
    });
    console.log(`rollout view (${steps} steps): load p50 ${ms(pct(loads, 0.5))}, p95 ${ms(pct(loads, 0.95))} over ${LOADS} loads; HTML alone p50 ${ms(pct(html, 0.5))}, p95 ${ms(pct(html, 0.95))}`);
    console.log(`  last navigation in Chromium: response ${ms(nav.responseEnd)}, load event ${ms(nav.loadEnd)}`);
    await context.close();
  } finally {
    await browser.close();
    await server?.app.close();
    await db.end();
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
