import { z } from 'zod';
import { many, type Queryable } from './db.js';

const BATCH = 10_000;

/** One registered row of a snapshot: which rollout/step it came from, and the format file and split it is in. */
export interface SnapshotItemInput {
  itemIdx: number;
  rolloutId: string;
  stepIdx: number | null;
  sampleKey: string;
  format: string;
  split: string;
}

/**
 * Registers a snapshot's items (migration 0009 columns). Idempotent: a retry of the same version writes nothing
 * new (natural key dataset, version, item index).
 */
export async function insertSnapshotItems(db: Queryable, name: string, version: number, items: readonly SnapshotItemInput[]): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) {
    const batch = items.slice(i, i + BATCH);
    // Column arrays (unnest) parse far faster in Postgres than a JSON document of the same rows.
    await db.query(
      `insert into dataset_items (dataset_name, dataset_version, item_idx, rollout_id, step_idx, sample_key, format, split)
       select $1, $2, x.item_idx, x.rollout_id, x.step_idx, x.sample_key, x.format, x.split
       from unnest($3::int[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[]) as x(item_idx, rollout_id, step_idx, sample_key, format, split)
       on conflict (dataset_name, dataset_version, item_idx) do nothing`,
      [
        name,
        version,
        batch.map((b) => b.itemIdx),
        batch.map((b) => b.rolloutId),
        batch.map((b) => b.stepIdx),
        batch.map((b) => b.sampleKey),
        batch.map((b) => b.format),
        batch.map((b) => b.split),
      ],
    );
  }
}

export const DatasetSummary = z
  .object({ name: z.string(), version: z.number(), kind: z.string(), format: z.string(), manifest_key: z.string(), created_at: z.date(), items: z.coerce.number() })
  .transform((r) => ({ name: r.name, version: r.version, kind: r.kind, format: r.format, manifestKey: r.manifest_key, createdAt: r.created_at.toISOString(), items: r.items }));
export type DatasetSummary = z.output<typeof DatasetSummary>;

/** Every dataset version (optionally of one name), newest last per name, with its registered item count. */
export async function listDatasets(db: Queryable, name?: string): Promise<DatasetSummary[]> {
  return many(
    db,
    `select d.name, d.version, d.kind, d.format, d.manifest_key, d.created_at,
            (select count(*) from dataset_items i where i.dataset_name = d.name and i.dataset_version = d.version) as items
     from datasets d where ($1::text is null or d.name = $1) order by d.name, d.version`,
    [name ?? null],
    DatasetSummary,
  );
}

/** Item counts of a version per (format, split); legacy rows without a format count under format `-`. */
export async function datasetItemCounts(db: Queryable, name: string, version: number): Promise<{ format: string; split: string; items: number; rollouts: number }[]> {
  return many(
    db,
    `select coalesce(format, '-') as format, coalesce(split, '-') as split, count(*) as items, count(distinct rollout_id) as rollouts
     from dataset_items where dataset_name = $1 and dataset_version = $2 group by 1, 2 order by 1, 2`,
    [name, version],
    z.object({ format: z.string(), split: z.string(), items: z.coerce.number(), rollouts: z.coerce.number() }),
  );
}

/** The distinct rollouts of a version (what `datasets diff` compares). */
export async function datasetRollouts(db: Queryable, name: string, version: number): Promise<string[]> {
  const rows = await many(
    db,
    `select distinct rollout_id from dataset_items where dataset_name = $1 and dataset_version = $2 order by rollout_id`,
    [name, version],
    z.object({ rollout_id: z.string() }),
  );
  return rows.map((r) => r.rollout_id);
}

/** The config hash each cycle ran with (lineage of a snapshot's rows). */
export async function cycleConfigHashes(db: Queryable, cycleIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await many(db, 'select id, config_hash from cycles where id = any($1::text[])', [cycleIds], z.object({ id: z.string(), config_hash: z.string() }));
  return new Map(rows.map((r) => [r.id, r.config_hash]));
}

/** Step verdicts of many rollouts at once (one round trip): rollout id → step idx → annotation and score. */
export async function stepVerdictsOf(
  db: Queryable,
  rolloutIds: readonly string[],
  criticVersion: string,
): Promise<Map<string, Map<number, { annotation: 'GOOD' | 'NEUTRAL' | 'HARMFUL'; score: number }>>> {
  const rows = await many(
    db,
    `select rollout_id, idx, annotation, score from step_verdicts where rollout_id = any($1::text[]) and critic_version = $2`,
    [rolloutIds, criticVersion],
    z.object({ rollout_id: z.string(), idx: z.number().int(), annotation: z.enum(['GOOD', 'NEUTRAL', 'HARMFUL']), score: z.number() }),
  );
  const out = new Map<string, Map<number, { annotation: 'GOOD' | 'NEUTRAL' | 'HARMFUL'; score: number }>>();
  for (const r of rows) {
    const m = out.get(r.rollout_id) ?? new Map();
    m.set(r.idx, { annotation: r.annotation, score: r.score });
    out.set(r.rollout_id, m);
  }
  return out;
}
