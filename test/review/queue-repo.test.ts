import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addReviewUser } from '../../cli/review.js';
import { hashPassword, verifyPassword } from '../../review/passwords.js';
import { createLocalBlobStore } from '../../storage/blob.js';
import { many, withTransaction } from '../../storage/db.js';
import { listReviewCandidates, replaceReviewCandidates } from '../../storage/review-repo.js';
import {
  claimNext,
  getReviewUser,
  humanRejectedSteps,
  listAudit,
  listHumanLabels,
  listQueue,
  recordSkip,
  recordVerdict,
  reviewStats,
} from '../../storage/review-queue-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { seedReviewData, type Seeded } from './seed.js';

let db: TestDatabase;
let dir: string;
let seeded: Seeded;
const CV = 'cv1';

beforeAll(async () => {
  db = await testDatabase();
  dir = await mkdtemp(join(tmpdir(), 'trajforge-queue-'));
  seeded = await seedReviewData(db.pool, createLocalBlobStore(join(dir, 'blobs')), { cycleId: 'cycle-1', criticVersion: CV, rollouts: 12, steps: 2, width: 40, height: 80 });
  for (const name of ['ann', 'bob', 'cat']) await addReviewUser(db.pool, name, 'reviewer', 'long enough password');
});
afterAll(async () => {
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const verdict = (rolloutId: string, reviewer: string, v: boolean, extra: { rejectedSteps?: number[]; note?: string; reviewsPerItem?: number } = {}) =>
  withTransaction(db.pool, (tx) => recordVerdict(tx, { rolloutId, reviewer, verdict: v, reviewsPerItem: extra.reviewsPerItem ?? 1, ...extra }));

describe('review accounts', () => {
  it('stores argon2id hashes only, verifies them, and refuses bad names and short passwords', async () => {
    const user = await getReviewUser(db.pool, 'ann');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(user!.passwordHash, 'long enough password')).toBe(true);
    expect(await verifyPassword(user!.passwordHash, 'wrong')).toBe(false);
    expect(await verifyPassword(undefined, 'long enough password')).toBe(false);
    await expect(addReviewUser(db.pool, 'Bad Name', 'reviewer', 'long enough password')).rejects.toThrow(/NAME|lowercase/);
    await expect(addReviewUser(db.pool, 'dan', 'boss', 'long enough password')).rejects.toThrow(/reviewer or admin/);
    await expect(hashPassword('short')).rejects.toThrow(/at least 10/);
    expect(await addReviewUser(db.pool, 'ann', 'reviewer', 'another long password')).toEqual({ created: false });
  });
});

describe('claims', () => {
  it('hands concurrent reviewers distinct items, highest priority first, and keeps an item with its claimant', async () => {
    const got = await Promise.all(['ann', 'bob', 'cat'].map((r) => claimNext(db.pool, r, {}, 600)));
    expect(new Set(got).size).toBe(3);
    expect([...got].sort()).toEqual(seeded.rolloutIds.slice(0, 3).sort());
    // Asking again returns the same claimed item, not a new one.
    expect(await claimNext(db.pool, 'ann', {}, 600)).toBe(got[0]);
    const q = await listQueue(db.pool);
    expect(q.filter((i) => i.claimedBy !== null).map((i) => i.claimedBy).sort()).toEqual(['ann', 'bob', 'cat']);
  });

  it('many concurrent claims never give one item to two reviewers', async () => {
    await db.pool.query('delete from review_claims');
    const names = ['ann', 'bob', 'cat'];
    const got = await Promise.all(Array.from({ length: 9 }, (_, i) => claimNext(db.pool, names[i % 3]!, {}, 600)));
    const holders = new Map(
      (await many(db.pool, 'select rollout_id, reviewer from review_claims', [], z.object({ rollout_id: z.string(), reviewer: z.string() }))).map((h) => [h.rollout_id, h.reviewer]),
    );
    // One reviewer's parallel requests (several tabs) may take several items; an item never goes to two reviewers.
    const takers = new Map<string, Set<string>>();
    for (const [i, id] of got.entries()) {
      expect(id).not.toBeNull();
      takers.set(id!, (takers.get(id!) ?? new Set()).add(names[i % 3]!));
    }
    for (const [id, who] of takers) {
      expect(who.size, id).toBe(1);
      expect(holders.get(id)).toBe([...who][0]);
    }
    expect(new Set(holders.values())).toEqual(new Set(names));
  });

  it('filters by app and reason; skips leave the skipper’s queue only; expired claims are free again', async () => {
    await db.pool.query('delete from review_claims');
    const shop = await claimNext(db.pool, 'ann', { app: 'shop' }, 600);
    expect(seeded.rolloutIds.indexOf(shop!) % 3).toBe(1);
    const split = await claimNext(db.pool, 'bob', { kind: 'votes_split' }, 600);
    expect(seeded.rolloutIds.indexOf(split!) % 3).toBe(1);
    expect(split).not.toBe(shop);
    await recordSkip(db.pool, 'ann', shop!);
    expect(await claimNext(db.pool, 'ann', { app: 'shop' }, 600)).not.toBe(shop);
    await db.pool.query(`update review_claims set expires_at = now() - interval '1 second' where reviewer = 'bob'`);
    expect(await claimNext(db.pool, 'cat', { kind: 'votes_split', app: 'shop' }, 600)).toBe(shop);
  });
});

describe('verdicts', () => {
  it('are stored once per reviewer, changes are audited with the previous value, and an identical resubmission is a no-op', async () => {
    const id = seeded.rolloutIds[5]!;
    expect(await verdict(id, 'ann', false, { note: 'no confirmation' })).toEqual({ action: 'verdict', resolved: true });
    expect(await verdict(id, 'ann', false, { note: 'no confirmation' })).toEqual({ action: 'unchanged', resolved: false });
    expect((await verdict(id, 'ann', true, { rejectedSteps: [1, 1, 0] })).action).toBe('change');
    expect(await humanRejectedSteps(db.pool, id)).toEqual([0, 1]);
    const audit = await listAudit(db.pool, { rolloutId: id });
    expect(audit.map((a) => a.action)).toEqual(['change', 'verdict']);
    expect(audit[0]!.details).toMatchObject({ verdict: true, rejectedSteps: [0, 1], previous: { verdict: false, note: 'no confirmation' } });
    const c = await listReviewCandidates(db.pool, { rolloutId: id });
    expect(c.every((x) => x.status === 'resolved' && x.reviewerVerdict === true && x.reviewer === 'ann')).toBe(true);
  });

  it('re-judging never overwrites a human verdict; with two reviews per item the item stays queued until the second', async () => {
    const id = seeded.rolloutIds[6]!;
    expect(await verdict(id, 'ann', true, { reviewsPerItem: 2 })).toEqual({ action: 'verdict', resolved: false });
    expect((await listQueue(db.pool)).some((q) => q.rolloutId === id)).toBe(true);
    // ann is done with it; bob still gets it.
    await db.pool.query('delete from review_claims');
    const picks = new Set<string | null>();
    for (let i = 0; i < 12; i++) {
      const p = await claimNext(db.pool, 'ann', {}, 600);
      picks.add(p);
      if (p) await recordSkip(db.pool, 'ann', p);
    }
    expect(picks.has(id)).toBe(false);
    expect(await verdict(id, 'bob', false, { reviewsPerItem: 2 })).toEqual({ action: 'verdict', resolved: true });
    await replaceReviewCandidates(db.pool, { rolloutId: id, criticVersion: CV, cycleId: 'cycle-1', queryId: 'cycle-1-q6', accepted: false }, [
      { kind: 'channels_split', reason: 're-judged', priority: 3, details: {} },
    ]);
    const rows = await many(db.pool, 'select reviewer, verdict from review_verdicts where rollout_id = $1 order by reviewer', [id], z.object({ reviewer: z.string(), verdict: z.boolean() }));
    expect(rows).toEqual([
      { reviewer: 'ann', verdict: true },
      { reviewer: 'bob', verdict: false },
    ]);
    expect((await listHumanLabels(db.pool, 'cycle-1')).get(id)).toEqual({ verdict: false, reviewers: 2 });
    const stats = await reviewStats(db.pool);
    expect(stats.agreement).toEqual({ items: 1, pairs: 1, agreeingPairs: 0, rate: 0 });
    expect(stats.reviewers.find((r) => r.reviewer === 'ann')).toMatchObject({ rollouts: 2, decisions: 3 });
  });
});
