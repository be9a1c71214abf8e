import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReviewUser, reviewFeatureLines } from '../../cli/review.js';
import { FEATURE_NAMES, features } from '../../critics/learned-critic.js';
import type { BlobStore, OcrEngine } from '../../domain/ports.js';
import { createLocalBlobStore } from '../../storage/blob.js';
import { withTransaction } from '../../storage/db.js';
import { recordVerdict } from '../../storage/review-queue-repo.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { seedReviewData, type Seeded } from './seed.js';

let db: TestDatabase;
let dir: string;
let blobs: BlobStore;
let seeded: Seeded;
const seen: number[] = [];
// OCR stand-in: reports the byte length it was given, so the test can tell which screen was read.
const ocr: OcrEngine = {
  recognize: (image) => {
    seen.push(image.byteLength);
    return Promise.resolve([{ text: 'Order placed', box: { x: 0, y: 0, w: 1, h: 1 }, confidence: 1 }]);
  },
};

beforeAll(async () => {
  db = await testDatabase();
  dir = await mkdtemp(join(tmpdir(), 'trajforge-dump-'));
  blobs = createLocalBlobStore(join(dir, 'blobs'));
  seeded = await seedReviewData(db.pool, blobs, { cycleId: 'cycle-1', criticVersion: 'cv', rollouts: 3, steps: 3, width: 40, height: 80 });
  await addReviewUser(db.pool, 'ann', 'reviewer', 'long enough password');
});
afterAll(async () => {
  await db?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('learned-critic training lines with human labels', () => {
  it('labels with the checker where one ran, else with the reviewers; features as the judge computes them', async () => {
    const [r0, r1, r2] = seeded.rolloutIds as [string, string, string];
    await db.pool.query(`update rollouts set ground_truth = null where id = any($1)`, [[r0, r1]]);
    await withTransaction(db.pool, (tx) => recordVerdict(tx, { rolloutId: r1, reviewer: 'ann', verdict: false, reviewsPerItem: 1 }));
    await withTransaction(db.pool, (tx) => recordVerdict(tx, { rolloutId: r2, reviewer: 'ann', verdict: false, reviewsPerItem: 1 }));
    const lines = await reviewFeatureLines(db.pool, blobs, ocr);
    // r0 has no label at all and is left out.
    expect(lines.map((l) => [l.rolloutId, l.groundTruth, l.labelSource, l.humanLabel])).toEqual([
      [r1, false, 'human', undefined],
      [r2, true, 'checker', false],
    ]);
    const finalScreen = (await blobs.get((await db.pool.query<{ k: string }>(`select after->>'screenshotKey' as k from steps where rollout_id = $1 order by idx desc limit 1`, [r1])).rows[0]!.k)).byteLength;
    expect(seen[0]).toBe(finalScreen);
    expect(lines[0]!.features).toHaveLength(FEATURE_NAMES.length);
    // r1 (odd): text votes [false, false, true], multimodal [true], all steps GOOD, outcome success.
    expect(lines[0]!.features).toEqual(
      features({
        instruction: 'Order item 1 in shop and email the receipt to ann.smith@example.com',
        annotations: ['GOOD', 'GOOD', 'GOOD'],
        outcome: 'success',
        textVotes: [false, false, true],
        multimodalVotes: [true],
        finalCaption: 'Order placed',
      }),
    );
  });
});
