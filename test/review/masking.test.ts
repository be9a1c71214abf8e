import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReviewUser } from '../../cli/review.js';
import type { BlobStore, OcrEngine } from '../../domain/ports.js';
import { buildReviewServer, type ReviewServer } from '../../review/server.js';
import { createLocalBlobStore } from '../../storage/blob.js';
import { listAudit } from '../../storage/review-queue-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { ReviewClient } from './http-client.js';
import { SEED_EMAIL, seedReviewData, type Seeded } from './seed.js';

/**
 * PII shown to reviewers is masked with the export scrubber (export/scrub.ts `scrubText`). Passes once the
 * scrubber is implemented (it is an identity interface until then).
 */
const PASSWORD = 'correct horse battery';
let db: TestDatabase;
let dir: string;
let blobs: BlobStore;
let server: ReviewServer;
let base: string;
let seeded: Seeded;

beforeAll(async () => {
  db = await testDatabase();
  dir = await mkdtemp(join(tmpdir(), 'trajforge-mask-'));
  blobs = createLocalBlobStore(join(dir, 'blobs'));
  seeded = await seedReviewData(db.pool, blobs, { cycleId: 'cycle-1', criticVersion: 'cv', rollouts: 3, steps: 3 });
  await addReviewUser(db.pool, 'ann', 'reviewer', PASSWORD);
  await addReviewUser(db.pool, 'root', 'admin', PASSWORD);
  // OCR stand-in: every screen holds one line with the e-mail address in its header band.
  const ocr: OcrEngine = { recognize: () => Promise.resolve([{ text: `Mail ${SEED_EMAIL}`, box: { x: 0, y: 0, w: 40, h: 20 }, confidence: 1 }]) };
  server = await buildReviewServer({ db: db.pool, blobs, ocr, sessionSecret: 'm'.repeat(40), secureCookies: false });
  base = await server.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await server?.app.close();
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('PII masking in the review app', () => {
  it('masks e-mail addresses in the queue and the rollout view (instruction, reasoning, typed text) by default', async () => {
    const ann = new ReviewClient(base);
    await ann.login('ann', PASSWORD);
    const queue = await (await ann.request('GET', '/queue')).text();
    const view = await (await ann.request('GET', `/rollout?id=${encodeURIComponent(seeded.rolloutIds[0]!)}`)).text();
    expect(queue).toContain('Order item 0');
    expect(view).toContain('Order item 0');
    expect(queue).not.toContain(SEED_EMAIL);
    expect(view).not.toContain(SEED_EMAIL);
  });

  it('blurs the PII lines of screenshots for reviewers (export scrubImage over the OCR lines)', async () => {
    const ann = new ReviewClient(base);
    await ann.login('ann', PASSWORD);
    const key = (await db.pool.query<{ k: string }>(`select before->>'screenshotKey' as k from steps where rollout_id = $1 and idx = 0`, [seeded.rolloutIds[0]])).rows[0]!.k;
    const res = await ann.request('GET', `/blob/${key}`);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(await blobs.get(key)))).toBe(false);
  });

  it('an admin can turn masking off for their session (audited); reviewers cannot', async () => {
    const root = new ReviewClient(base);
    await root.login('root', PASSWORD);
    const token = await root.csrf('/admin/users');
    expect((await root.request('POST', '/admin/unmask', { _csrf: token, on: '1' })).status).toBe(303);
    const view = await (await root.request('GET', `/rollout?id=${encodeURIComponent(seeded.rolloutIds[0]!)}`)).text();
    expect(view).toContain(SEED_EMAIL);
    const key = /src="\/blob\/([^"?]+)\?u=1"/.exec(view)![1]!;
    const unmasked = await root.request('GET', `/blob/${key}?u=1`);
    expect(Buffer.from(await unmasked.arrayBuffer()).equals(Buffer.from(await blobs.get(key)))).toBe(true);
    expect((await listAudit(db.pool, { reviewer: 'root' })).some((a) => a.action === 'unmask')).toBe(true);
    const ann = new ReviewClient(base);
    await ann.login('ann', PASSWORD);
    const annToken = await ann.csrf('/queue');
    expect((await ann.request('POST', '/admin/unmask', { _csrf: annToken, on: '1' })).status).toBe(403);
  });
});
