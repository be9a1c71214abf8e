import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReviewUser } from '../../cli/review.js';
import { calibrate } from '../../critics/calibration.js';
import { createLocalBlobStore } from '../../storage/blob.js';
import { withTransaction } from '../../storage/db.js';
import { listCalibrationRows } from '../../storage/calibration-repo.js';
import { recordVerdict } from '../../storage/review-queue-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { seedReviewData, type Seeded } from './seed.js';

let db: TestDatabase;
let dir: string;
let seeded: Seeded;

beforeAll(async () => {
  db = await testDatabase();
  dir = await mkdtemp(join(tmpdir(), 'trajforge-labels-'));
  seeded = await seedReviewData(db.pool, createLocalBlobStore(join(dir, 'blobs')), { cycleId: 'cycle-1', criticVersion: 'cv', rollouts: 4, steps: 2, width: 40, height: 80 });
  await addReviewUser(db.pool, 'ann', 'reviewer', 'long enough password');
});
afterAll(async () => {
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const decide = (rolloutId: string, verdict: boolean) => withTransaction(db.pool, (tx) => recordVerdict(tx, { rolloutId, reviewer: 'ann', verdict, reviewsPerItem: 1 }));

describe('human verdicts as calibration labels', () => {
  it('label rollouts without a checker result; where both exist the checker stays the label and the human verdict rides along', async () => {
    const [r0, r1, r2, r3] = seeded.rolloutIds as [string, string, string, string];
    // No checker for r0 and r1 (e.g. an app without one); r2 and r3 keep theirs (seed: r2 true, r3 false).
    await db.pool.query(`update rollouts set ground_truth = null where id = any($1)`, [[r0, r1]]);
    const before = await listCalibrationRows(db.pool, 'cycle-1', 'cv');
    expect(before.map((r) => r.rolloutId)).toEqual([r2, r3]);

    await decide(r0, true);
    await decide(r2, false);
    const rows = await listCalibrationRows(db.pool, 'cycle-1', 'cv');
    expect(rows.map((r) => [r.rolloutId, r.groundTruth, r.labelSource, r.humanLabel])).toEqual([
      [r0, true, 'human', undefined],
      [r2, true, undefined, false],
      [r3, false, undefined, undefined],
    ]);
    // r0 (critics accepted, human label true) now counts as a true positive of the consensus channel.
    const all = calibrate(rows).find((e) => e.scope === 'all' && e.channel === 'consensus' && e.split === 'all')!;
    expect(all.metrics).toMatchObject({ tp: 2, fp: 0, tn: 1, fn: 0 });
  });
});
