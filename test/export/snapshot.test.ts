import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ActionSchema, LlamaFactoryShareGpt, SwiftMessages, countImageTags } from './trainer-schemas.js';
import { createLocalBlobStore } from '../../storage/blob-local.js';
import { datasetRollouts } from '../../storage/dataset-repo.js';
import { refreshQueryStats } from '../../storage/query-stats-repo.js';
import { exportSnapshot, type SnapshotResult } from '../../export/snapshot.js';
import { SnapshotManifest, diffManifests } from '../../export/manifest.js';
import { matchAction } from '../../synthesis/matchers.js';
import { testDatabase, testS3BlobStore, type TestDatabase } from '../helpers/services.js';
import { PII_REASONING, seedFixture, type Fixture } from './fixture.js';
import { scrubText } from '../../export/scrub.js';

let db: TestDatabase;
let root: string;
let fx: Fixture;
let duck: DuckDBInstance;
let con: DuckDBConnection;
let full: SnapshotResult;

const blobsAt = (dir: string) => createLocalBlobStore(dir);
const SPLIT = [
  { name: 'train', fraction: 0.6 },
  { name: 'val', fraction: 0.2 },
  { name: 'test', fraction: 0.2 },
];

beforeAll(async () => {
  db = await testDatabase();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-export-'));
  fx = await seedFixture(db.pool, blobsAt(path.join(root, 'store')));
  duck = await DuckDBInstance.create(':memory:');
  con = await duck.connect();
  full = (await exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store')) }, { name: 'all', split: SPLIT, seed: 7 }))!;
}, 60_000);
afterAll(async () => {
  con?.closeSync();
  duck?.closeSync();
  await db?.drop();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

const dirOf = (store: string, r: SnapshotResult): string => path.join(root, store, 'datasets', r.name, `v${r.version}`);
const readJsonl = async (file: string): Promise<unknown[]> =>
  (await fs.readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
const files = (r: SnapshotResult, re: RegExp) => r.manifest.files.filter((f) => re.test(f.path));
async function duckRows(file: string, sql = 'select * from t'): Promise<Record<string, unknown>[]> {
  const reader = await con.runAndReadAll(sql.replace(/\bt\b/, `read_parquet('${file.replace(/'/g, "''")}')`));
  return reader.getRowObjectsJson() as Record<string, unknown>[];
}

describe('dataset snapshots (trajforge export)', () => {
  it('selects through rollout_acceptance: human verdicts win, reviewer-dropped steps and degraded rollouts never exported', async () => {
    const rows = (await Promise.all(files(full, /^sft\//).map((f) => readJsonl(path.join(dirOf('store', full), f.path))))).flat();
    const parsed = rows.map((r) => SwiftMessages.parse(r));
    const rollouts = new Set(parsed.map((r) => r.meta.rollout_id));
    const expected = [...fx.accepted].filter(([, a]) => a).map(([id]) => id);
    expect([...rollouts].sort()).toEqual(expected.sort());
    expect(rollouts.has(fx.humanRejected)).toBe(false);
    expect(parsed.find((r) => r.meta.rollout_id === fx.humanAccepted)?.meta.acceptance_source).toBe('human');
    expect(parsed.some((r) => r.meta.rollout_id === fx.reviewerDropped.rolloutId && r.meta.step === fx.reviewerDropped.step)).toBe(false);
    expect(full.manifest.counts.steps_removed_by_reviewer).toBe(1);
    expect(full.manifest.counts.rollouts_selected).toBe(fx.accepted.size);
    expect(full.manifest.lineage.cycles).toEqual(['cycle-1', 'cycle-2']);
    expect(full.manifest.selection.sql).toContain('rollout_acceptance');
  });

  it('writes every format with manifest counts that readers we did not write confirm (zod from trainer docs, DuckDB)', async () => {
    const dir = dirOf('store', full);
    expect(Object.keys(full.manifest.formats).sort()).toEqual(['error_recovery', 'grpo', 'reasoning', 'roles', 'sft', 'sharegpt', 'trpo']);
    for (const f of full.manifest.files) {
      const bytes = await fs.readFile(path.join(dir, f.path));
      expect(createHash('sha256').update(bytes).digest('hex'), f.path).toBe(f.sha256);
      if (f.path.endsWith('.jsonl')) expect((await readJsonl(path.join(dir, f.path))).length, f.path).toBe(f.rows);
      if (f.path.endsWith('.parquet')) expect(Number((await duckRows(path.join(dir, f.path), 'select count(*) as n from t'))[0]!.n), f.path).toBe(f.rows);
    }
    // ms-swift / LLaMA-Factory messages: one <image> per image, tools a JSON list of function specs.
    for (const f of files(full, /^sft\//)) {
      for (const row of (await readJsonl(path.join(dir, f.path))).map((r) => SwiftMessages.parse(r))) {
        expect(countImageTags(row.messages.map((m) => m.content).join('\n'))).toBe(row.images.length);
        expect(row.messages.at(-1)!.content).toMatch(/<tool_call>\n\{.*\}\n<\/tool_call>$/s);
      }
    }
    // ShareGPT + dataset_info.json that names every split file.
    const info = z.record(z.string(), z.object({ file_name: z.string(), formatting: z.literal('sharegpt'), columns: z.record(z.string(), z.string()) })).parse(
      JSON.parse(await fs.readFile(path.join(dir, 'dataset_info.json'), 'utf8')),
    );
    expect(Object.values(info).map((e) => e.file_name).sort()).toEqual(files(full, /^sharegpt\//).map((f) => f.path).sort());
    for (const f of files(full, /^sharegpt\//)) {
      for (const row of (await readJsonl(path.join(dir, f.path))).map((r) => LlamaFactoryShareGpt.parse(r))) {
        expect(countImageTags(row.conversations.map((m) => m.value).join('\n'))).toBe(row.images.length);
      }
    }
    // GRPO: verl columns; every ground truth matches itself under the offline matchers, click boxes from the UI tree.
    const grpo = (await Promise.all(files(full, /^grpo\//).map((f) => duckRows(path.join(dir, f.path))))).flat();
    expect(grpo.length).toBe(full.rows.grpo);
    for (const row of grpo) {
      expect(Object.keys(row).sort()).toEqual(['ability', 'data_source', 'extra_info', 'images', 'prompt', 'reward_model'].sort());
      const rm = row.reward_model as { style: string; ground_truth: string };
      expect(rm.style).toBe('rule');
      const gt = z.object({ action: ActionSchema, screen: z.object({ width: z.number(), height: z.number() }), box: z.object({ x0: z.number(), y0: z.number(), x1: z.number(), y1: z.number() }).optional() }).parse(JSON.parse(rm.ground_truth));
      expect(matchAction(gt.action, gt.action, { ...gt.screen, ...(gt.box ? { gtBox: gt.box } : {}) }).match).toBe(true);
      if (gt.action.action === 'click') expect(gt.box).toEqual({ x0: 20, y0: 40, x1: 120, y1: 80 });
      const prompt = row.prompt as { role: string; content: string }[];
      expect(countImageTags(prompt.map((p) => p.content).join('\n'))).toBe((row.images as unknown[]).length);
    }
    // TRPO: every judged rollout, R = 1/0 − 0.5 if malformed, traj_num_steps = steps of the trajectory.
    const trpo = (await Promise.all(files(full, /^trpo\/(train|val|test)/).map((f) => duckRows(path.join(dir, f.path))))).flat();
    const byRollout = new Map(trpo.map((r) => [(r.extra_info as { rollout_id: string }).rollout_id, r]));
    expect(byRollout.size).toBe(fx.accepted.size);
    for (const [id, acc] of fx.accepted) {
      const r = byRollout.get(id)!;
      expect(r.reward, id).toBe((acc ? 1 : 0) - (id === fx.malformed ? 0.5 : 0));
      expect(r.traj_num_steps).toBe(3);
    }
    expect(trpo.filter((r) => (r.extra_info as { rollout_id: string }).rollout_id === fx.malformed)).toHaveLength(2); // the malformed step has no action
    const advantages = new Set(trpo.map((r) => r.advantage));
    expect(advantages.size).toBeGreaterThan(2);
    const replay = await duckRows(path.join(dir, 'trpo/replay.parquet'));
    expect(replay.length).toBe([...fx.accepted.values()].filter(Boolean).length);
  });

  it('role datasets: errors and unbalanced Reflector feedback dropped and counted per role, Reflector 1:1', async () => {
    const dir = dirOf('store', full);
    const count = async (role: string): Promise<number> => (await Promise.all(files(full, new RegExp(`^roles/${role}/`)).map((f) => readJsonl(path.join(dir, f.path))))).flat().length;
    expect(await count('manager')).toBe(6);
    expect(await count('notetaker')).toBe(0);
    expect(full.manifest.roleDrops.notetaker).toEqual({ role_error: 6 });
    // q1: three positives (all-positive trajectory); q6: FAILURE at 0 then SUCCESS at 1 → 1 negative kept, its 2
    // positives fail the rule; 1:1 keeps 1 + 1.
    expect(full.manifest.roleDrops.reflector).toEqual({ reflector_rule: 2, reflector_rebalance: 2 });
    const refl = (await Promise.all(files(full, /^roles\/reflector\//).map((f) => readJsonl(path.join(dir, f.path))))).flat() as { meta: { outcome: string } }[];
    expect(refl.map((r) => r.meta.outcome).sort()).toEqual(['FAILURE', 'SUCCESS']);
  });

  it('scrubs every exported text field through the PII scrubber and counts what it replaced', async () => {
    const expected = scrubText(PII_REASONING);
    expect(full.manifest.pii.text).toEqual(expected.counts);
    const rows = (await Promise.all(files(full, /^sft\//).map((f) => readJsonl(path.join(dirOf('store', full), f.path))))).flat().map((r) => SwiftMessages.parse(r));
    const row = rows.find((r) => r.meta.rollout_id === 'cycle-2/q7/0' && r.meta.step === 0)!;
    expect(row.messages.at(-1)!.content).toContain(`Thought: ${expected.text.trim()}`);
    expect(full.manifest.pii.imagesScanned).toBe(0); // no OCR engine given: images are not scanned, and the manifest says so
  });

  it('splits by query, never by step, deterministically by seed', async () => {
    const dir = dirOf('store', full);
    const splitOfQuery = new Map<string, string>();
    for (const f of files(full, /^(sft|roles\/[a-z-]+)\//)) {
      const split = path.basename(f.path, '.jsonl');
      for (const row of (await readJsonl(path.join(dir, f.path))) as { meta: { query_id: string } }[]) {
        expect(splitOfQuery.get(row.meta.query_id) ?? split, row.meta.query_id).toBe(split);
        splitOfQuery.set(row.meta.query_id, split);
      }
    }
    expect(new Set(splitOfQuery.values()).size).toBeGreaterThan(1);
  });

  it('re-exporting the same selection is byte-identical; the same name reuses its version', async () => {
    const again = (await exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store')) }, { name: 'all', split: SPLIT, seed: 7 }))!;
    expect(again.reused).toBe(true);
    expect(again.version).toBe(full.version);
    // A second store and registry (the rows deleted): same version number, every file byte-identical.
    await db.pool.query(`delete from datasets where name = 'all'`);
    await fs.cp(path.join(root, 'store', 'sha256'), path.join(root, 'store2', 'sha256'), { recursive: true }); // the screenshots only
    const copy = (await exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store2')) }, { name: 'all', split: SPLIT, seed: 7 }))!;
    expect(copy.version).toBe(full.version);
    for (const f of [...full.manifest.files.map((x) => x.path), 'manifest.json']) {
      expect(Buffer.compare(await fs.readFile(path.join(dirOf('store', full), f)), await fs.readFile(path.join(dirOf('store2', copy), f))), f).toBe(0);
    }
  });

  it('a snapshot copied elsewhere resolves every image (relative paths, no file://)', async () => {
    const moved = path.join(root, 'elsewhere');
    await fs.cp(dirOf('store', full), moved, { recursive: true });
    let checked = 0;
    for (const f of files(full, /\.jsonl$/)) {
      const text = await fs.readFile(path.join(moved, f.path), 'utf8');
      expect(text).not.toContain('file://');
      for (const row of text.trim().split('\n').map((l) => JSON.parse(l) as { images: string[] })) {
        for (const img of row.images) {
          const bytes = await fs.readFile(path.join(moved, img));
          expect(bytes.subarray(1, 4).toString()).toBe('PNG');
          checked++;
        }
      }
    }
    for (const f of files(full, /^(grpo|trpo\/(train|val|test))/)) {
      for (const row of await duckRows(path.join(moved, f.path), 'select images from t')) {
        for (const img of row.images as { path: string; bytes: unknown }[]) {
          expect(img.bytes).toBeNull();
          await fs.access(path.join(moved, img.path));
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('--embed-images puts the PNG bytes into Parquet; an S3 store gets s3:// URIs', async () => {
    const embedded = (await exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store')) }, { name: 'embedded', formats: ['grpo'], embedImages: true, filters: { apps: ['shop'] } }))!;
    const file = path.join(dirOf('store', embedded), 'grpo/train.parquet');
    const rows = await con.runAndReadAll(`select unnest(images).bytes as b from read_parquet('${file}')`);
    const blobs = rows.getColumnsJS()[0] as Uint8Array[];
    expect(blobs.length).toBeGreaterThan(0);
    const known = new Set([...fx.images.values()].map((b) => createHash('sha256').update(b).digest('hex')));
    for (const b of blobs) expect(known.has(createHash('sha256').update(b).digest('hex'))).toBe(true);

    const { store, bucket } = testS3BlobStore();
    for (const [, bytes] of fx.images) await store.put(bytes, { ext: '.png' });
    const s3 = (await exportSnapshot({ db: db.pool, blobs: store }, { name: 's3', formats: ['sft'], filters: { apps: ['shop'] } }))!;
    const text = Buffer.from(await store.get(s3.manifest.files[0]!.blobKey)).toString('utf8');
    const row = SwiftMessages.parse(JSON.parse(text.split('\n')[0]!));
    expect(row.images.every((u) => u.startsWith(`s3://${bucket}/`))).toBe(true);
  });

  it('filters: cycles, apps, reward windows over query_stats; datasets diff explains the change', async () => {
    await refreshQueryStats(db.pool, 'cycle-1');
    await refreshQueryStats(db.pool, 'cycle-2');
    const shop = (await exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store')) }, { name: 'filtered', formats: ['sft'], filters: { apps: ['shop'] } }))!;
    expect(shop.manifest.lineage.cycles).toEqual(['cycle-2']);
    // Every query has 1 accepted of 2 except q2 (2/2 after the human acceptance) and q3 (0/2 after the rejection).
    const online = (await exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store')) }, { name: 'filtered', formats: ['sft'], filters: { rewardPreset: 'online' } }))!;
    expect(online.version).toBe(shop.version + 1);
    const rollouts = await datasetRollouts(db.pool, 'filtered', online.version);
    expect(rollouts.some((r) => r.includes('/q2/'))).toBe(false);
    expect(rollouts.some((r) => r.includes('/q3/'))).toBe(false);
    expect(rollouts.some((r) => r.includes('/q1/'))).toBe(true);
    const swirl = await exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store')) }, { name: 'filtered', formats: ['sft'], filters: { rewardWindow: { lo: 0.9, hi: 0.99 } } });
    expect(swirl).toBeNull();
    const diff = diffManifests(SnapshotManifest.parse(shop.manifest), SnapshotManifest.parse(online.manifest), {
      a: await datasetRollouts(db.pool, 'filtered', shop.version),
      b: rollouts,
    });
    expect(diff.join('\n')).toMatch(/selection\.filters: .*apps.* → .*online/);
    expect(diff.join('\n')).toMatch(/cycles: \+1 −0/);
    expect(diff.join('\n')).toMatch(/rollouts: \+\d+ −\d+/);
  });

  it('rejects bad requests naming the field', async () => {
    await expect(exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store')) }, { name: 'Bad Name' })).rejects.toThrow(/name/);
    await expect(
      exportSnapshot({ db: db.pool, blobs: blobsAt(path.join(root, 'store')) }, { name: 'x', split: [{ name: 'train', fraction: 0.5 }] }),
    ).rejects.toThrow(/split/);
  });
});
