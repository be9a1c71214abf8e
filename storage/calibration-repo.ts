import { z } from 'zod';
import type { CalibrationChannel, CalibrationEntry, CalibrationRow, CalibrationSplit, ChannelAgreement, Metrics } from '../critics/calibration.js';
import { many, type Queryable } from './db.js';

/**
 * Critic calibration storage (migration 0005): reads trajectory verdicts joined with checker ground truth, and
 * upserts the metrics computed by critics/calibration.ts on (critic_version, cycle_id, scope, channel, split);
 * consensus rows also keep the text/multimodal channel disagreement (migration 0023).
 */

const JoinedRow = z.object({
  rollout_id: z.string(),
  query_id: z.string(),
  app: z.string(),
  critic_version: z.string(),
  channel: z.enum(['text', 'multimodal', 'learned', 'consensus']),
  correct: z.boolean(),
  votes: z.unknown(),
  /** The label: the checker's result where there is one, else the reviewers' verdict (any rejection wins). */
  ground_truth: z.boolean(),
  checker_label: z.boolean().nullable(),
  human_label: z.boolean().nullable(),
  agent_mode: z.string(),
  /** CriticScores of the rollout's steps in step order (the newest step-critic version), for the τc gate. */
  step_scores: z.array(z.coerce.number()).nullable(),
});

const boolVotes = (v: unknown): boolean[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'boolean') ? (v as boolean[]) : undefined;

/**
 * One row per (rollout, critic version) of the cycle's non-degraded rollouts with a label and at least one
 * trajectory verdict; `criticVersion` restricts to one version. Ordered by rollout id, then critic version.
 * The label is the checker's ground truth; where no checker ran, human reviewers' verdicts (review_verdicts, any
 * rejection wins) are the label. Rows carry both where both exist (`checkerLabel`, `humanLabel`).
 */
export async function listCalibrationRows(db: Queryable, cycleId: string, criticVersion?: string): Promise<CalibrationRow[]> {
  const rows = await many(
    db,
    `select r.id as rollout_id, r.query_id, q.app, v.critic_version, v.channel, v.correct, v.votes, r.agent_mode,
            coalesce(r.ground_truth, h.verdict) as ground_truth, r.ground_truth as checker_label, h.verdict as human_label,
            (select array_agg(sv.score order by sv.idx) from step_verdicts sv
              where sv.rollout_id = r.id
                and sv.critic_version = (select x.critic_version from step_verdicts x where x.rollout_id = r.id order by x.created_at desc, x.critic_version limit 1)
            ) as step_scores
     from rollouts r
     join queries q on q.id = r.query_id
     join trajectory_verdicts v on v.rollout_id = r.id
     left join lateral (
       select bool_and(rv.verdict) as verdict from review_verdicts rv where rv.rollout_id = r.id having count(*) > 0
     ) h on true
     where r.cycle_id = $1 and not r.degraded and (r.ground_truth is not null or h.verdict is not null)
       and ($2::text is null or v.critic_version = $2)
     order by r.id, v.critic_version, v.channel`,
    [cycleId, criticVersion ?? null],
    JoinedRow,
  );
  const out: CalibrationRow[] = [];
  const byKey = new Map<string, CalibrationRow>();
  for (const r of rows) {
    const key = `${r.rollout_id}\0${r.critic_version}`;
    let row = byKey.get(key);
    if (!row) {
      row = {
        rolloutId: r.rollout_id,
        queryId: r.query_id,
        app: r.app,
        criticVersion: r.critic_version,
        verdicts: {},
        groundTruth: r.ground_truth,
        // Absent = the checker (rows read the same as before human labels existed).
        ...(r.checker_label === null ? { labelSource: 'human' as const } : {}),
        ...(r.checker_label !== null && r.human_label !== null ? { humanLabel: r.human_label } : {}),
        mode: r.agent_mode,
        ...(r.step_scores && r.step_scores.length > 0 ? { stepScores: r.step_scores } : {}),
      };
      byKey.set(key, row);
      out.push(row);
    }
    const votes = boolVotes(r.votes);
    row.verdicts[r.channel] = { correct: r.correct, ...(votes && votes.length > 0 ? { votes } : {}) };
  }
  return out;
}

/** Upserts metric rows for a cycle (recomputing replaces the earlier numbers and `computed_at`). */
export async function upsertCalibration(db: Queryable, cycleId: string, entries: readonly CalibrationEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const payload = entries.map((e) => ({
    criticVersion: e.criticVersion,
    scope: e.scope,
    channel: e.channel,
    split: e.split,
    tp: e.metrics.tp,
    fp: e.metrics.fp,
    tn: e.metrics.tn,
    fn: e.metrics.fn,
    precision: e.metrics.precision,
    recall: e.metrics.recall,
    npv: e.metrics.npv,
    f1: e.metrics.f1,
    compared: e.agreement?.compared ?? null,
    disagreements: e.agreement?.disagreements ?? null,
    textRight: e.agreement?.textRight ?? null,
    multimodalRight: e.agreement?.multimodalRight ?? null,
  }));
  await db.query(
    `insert into critic_calibration (critic_version, cycle_id, scope, channel, split, tp, fp, tn, fn, precision, recall, npv, f1,
                                     channels_compared, channel_disagreements, text_right, multimodal_right, computed_at)
     select x."criticVersion", $1, x.scope, x.channel, x.split, x.tp, x.fp, x.tn, x.fn, x.precision, x.recall, x.npv, x.f1,
            x.compared, x.disagreements, x."textRight", x."multimodalRight", now()
     from jsonb_to_recordset($2::jsonb) as x("criticVersion" text, scope text, channel text, split text, tp integer,
          fp integer, tn integer, fn integer, precision real, recall real, npv real, f1 real,
          compared integer, disagreements integer, "textRight" integer, "multimodalRight" integer)
     on conflict (critic_version, cycle_id, scope, channel, split) do update set
       tp = excluded.tp, fp = excluded.fp, tn = excluded.tn, fn = excluded.fn, precision = excluded.precision,
       recall = excluded.recall, npv = excluded.npv, f1 = excluded.f1, channels_compared = excluded.channels_compared,
       channel_disagreements = excluded.channel_disagreements, text_right = excluded.text_right,
       multimodal_right = excluded.multimodal_right, computed_at = excluded.computed_at`,
    [cycleId, JSON.stringify(payload)],
  );
}

const StoredRow = z
  .object({
    critic_version: z.string(),
    cycle_id: z.string(),
    scope: z.string(),
    channel: z.enum(['text', 'multimodal', 'learned', 'consensus']),
    split: z.enum(['validation', 'report', 'all']),
    tp: z.number().int(),
    fp: z.number().int(),
    tn: z.number().int(),
    fn: z.number().int(),
    precision: z.number().nullable(),
    recall: z.number().nullable(),
    npv: z.number().nullable(),
    f1: z.number().nullable(),
    channels_compared: z.number().int().nullable(),
    channel_disagreements: z.number().int().nullable(),
    text_right: z.number().int().nullable(),
    multimodal_right: z.number().int().nullable(),
    computed_at: z.date().transform((d) => d.toISOString()),
  })
  .transform((r) => {
    const n = r.tp + r.fp + r.tn + r.fn;
    const metrics: Metrics = {
      tp: r.tp,
      fp: r.fp,
      tn: r.tn,
      fn: r.fn,
      n,
      precision: r.precision,
      recall: r.recall,
      npv: r.npv,
      f1: r.f1,
      accuracy: n === 0 ? null : (r.tp + r.tn) / n,
    };
    const agreement: ChannelAgreement | undefined =
      r.channels_compared === null || r.channel_disagreements === null
        ? undefined
        : { compared: r.channels_compared, disagreements: r.channel_disagreements, textRight: r.text_right ?? 0, multimodalRight: r.multimodal_right ?? 0 };
    return {
      criticVersion: r.critic_version,
      cycleId: r.cycle_id,
      scope: r.scope,
      channel: r.channel as CalibrationChannel,
      split: r.split as CalibrationSplit,
      metrics,
      ...(agreement ? { agreement } : {}),
      computedAt: r.computed_at,
    };
  });
export type StoredCalibration = z.output<typeof StoredRow>;

/** Stored metrics, optionally for one cycle and/or critic version; 'all' scope first, then apps alphabetically. */
export async function listCalibration(
  db: Queryable,
  filter: { cycleId?: string | undefined; criticVersion?: string | undefined } = {},
): Promise<StoredCalibration[]> {
  return many(
    db,
    `select critic_version, cycle_id, scope, channel, split, tp, fp, tn, fn, precision, recall, npv, f1,
            channels_compared, channel_disagreements, text_right, multimodal_right, computed_at
     from critic_calibration
     where ($1::text is null or cycle_id = $1) and ($2::text is null or critic_version = $2)
     order by cycle_id, critic_version, scope <> 'all', scope,
       array_position(array['text','multimodal','learned','consensus'], channel), array_position(array['all','validation','report'], split)`,
    [filter.cycleId ?? null, filter.criticVersion ?? null],
    StoredRow,
  );
}
