import { z } from 'zod';
import { ReviewKind, type ReviewCandidate } from '../domain/entities.js';
import { many, type Queryable } from './db.js';

/**
 * Review-candidate storage (migration 0006, critics/review.ts). Natural key: (rollout, reason kind, critic
 * version). `replaceReviewCandidates` is the one write of the judging path and is idempotent: re-judging a rollout
 * updates its rows in place (updated_at moves only when something changed), never duplicates them, and never
 * touches the reviewer columns; a kind the new judgement no longer raises is deleted only while it is still open
 * and unreviewed (a reviewed row is kept as the reviewer left it).
 */

export interface ReviewLineage {
  rolloutId: string;
  criticVersion: string;
  cycleId: string;
  queryId: string;
  /** The consensus verdict the candidates were derived from. */
  accepted: boolean;
}

/** One statement (atomic): upsert the derived candidates and drop stale open ones of this rollout × version. */
export async function replaceReviewCandidates(db: Queryable, lineage: ReviewLineage, candidates: readonly ReviewCandidate[]): Promise<void> {
  const kinds = candidates.map((c) => c.kind);
  if (new Set(kinds).size !== kinds.length) throw new Error(`review candidates of ${lineage.rolloutId}: duplicate kinds ${kinds.join(',')}`);
  await db.query(
    `with input as (
       select * from jsonb_to_recordset($1::jsonb) as x(kind text, reason text, priority real, details jsonb)
     ), stale as (
       delete from review_candidates r
       where r.rollout_id = $2 and r.critic_version = $3 and r.status = 'open' and r.reviewer_verdict is null
         and r.kind not in (select kind from input) and r.kind <> 'needs_human'
     )
     insert into review_candidates (rollout_id, kind, critic_version, cycle_id, query_id, reason, priority, accepted, details)
     select $2, i.kind, $3, $4, $5, i.reason, i.priority, $6, i.details from input i
     on conflict (rollout_id, kind, critic_version) do update set
       cycle_id = excluded.cycle_id, query_id = excluded.query_id, reason = excluded.reason, priority = excluded.priority,
       accepted = excluded.accepted, details = excluded.details, updated_at = now()
     where (review_candidates.cycle_id, review_candidates.query_id, review_candidates.reason, review_candidates.priority,
            review_candidates.accepted, review_candidates.details)
       is distinct from (excluded.cycle_id, excluded.query_id, excluded.reason, excluded.priority, excluded.accepted, excluded.details)`,
    [
      JSON.stringify(candidates.map((c) => ({ kind: c.kind, reason: c.reason, priority: c.priority, details: c.details }))),
      lineage.rolloutId,
      lineage.criticVersion,
      lineage.cycleId,
      lineage.queryId,
      lineage.accepted,
    ],
  );
}

/**
 * The `needs_human` candidate of an accepted rollout (raised by the reasoning stage, not by the critics, so judging
 * never removes it): upserted with the steps no hint style reproduced, or — when a re-run finds none — deleted while
 * still open and unreviewed. Never touches the reviewer columns.
 */
export async function setNeedsHumanCandidate(db: Queryable, lineage: ReviewLineage, candidate: ReviewCandidate | undefined): Promise<void> {
  if (candidate && candidate.kind !== 'needs_human') throw new Error(`setNeedsHumanCandidate: kind must be needs_human (got ${candidate.kind})`);
  if (!candidate) {
    await db.query(
      `delete from review_candidates where rollout_id = $1 and kind = 'needs_human' and critic_version = $2 and status = 'open' and reviewer_verdict is null`,
      [lineage.rolloutId, lineage.criticVersion],
    );
    return;
  }
  await db.query(
    `insert into review_candidates (rollout_id, kind, critic_version, cycle_id, query_id, reason, priority, accepted, details)
     values ($1, 'needs_human', $2, $3, $4, $5, $6, $7, $8::jsonb)
     on conflict (rollout_id, kind, critic_version) do update set
       reason = excluded.reason, priority = excluded.priority, accepted = excluded.accepted, details = excluded.details, updated_at = now()
     where (review_candidates.reason, review_candidates.priority, review_candidates.accepted, review_candidates.details)
       is distinct from (excluded.reason, excluded.priority, excluded.accepted, excluded.details)`,
    [lineage.rolloutId, lineage.criticVersion, lineage.cycleId, lineage.queryId, candidate.reason, candidate.priority, lineage.accepted, JSON.stringify(candidate.details)],
  );
}

const ReviewStatus = z.enum(['open', 'resolved', 'dismissed']);
export type ReviewStatus = z.infer<typeof ReviewStatus>;

const StoredCandidate = z
  .object({
    rollout_id: z.string(),
    kind: ReviewKind,
    critic_version: z.string(),
    cycle_id: z.string(),
    query_id: z.string(),
    app: z.string().nullable(),
    instruction: z.string().nullable(),
    reason: z.string(),
    priority: z.number(),
    accepted: z.boolean(),
    details: z.record(z.string(), z.unknown()),
    status: ReviewStatus,
    reviewer_verdict: z.boolean().nullable(),
    reviewer: z.string().nullable(),
    reviewer_note: z.string().nullable(),
    reviewed_at: z.date().nullable(),
    created_at: z.date(),
    updated_at: z.date(),
  })
  .transform((r) => ({
    rolloutId: r.rollout_id,
    kind: r.kind,
    criticVersion: r.critic_version,
    cycleId: r.cycle_id,
    queryId: r.query_id,
    app: r.app,
    instruction: r.instruction,
    reason: r.reason,
    priority: r.priority,
    accepted: r.accepted,
    details: r.details,
    status: r.status,
    reviewerVerdict: r.reviewer_verdict,
    reviewer: r.reviewer,
    reviewerNote: r.reviewer_note,
    reviewedAt: r.reviewed_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  }));
export type StoredReviewCandidate = z.output<typeof StoredCandidate>;

export interface ReviewFilter {
  cycleId?: string | undefined;
  criticVersion?: string | undefined;
  rolloutId?: string | undefined;
  /** Default: every status. */
  status?: ReviewStatus | undefined;
  /** Default 100. */
  limit?: number | undefined;
}

/** Candidates, highest priority first (then oldest first, then rollout id and kind: a stable queue order). */
export async function listReviewCandidates(db: Queryable, filter: ReviewFilter = {}): Promise<StoredReviewCandidate[]> {
  return many(
    db,
    `select c.rollout_id, c.kind, c.critic_version, c.cycle_id, c.query_id, q.app, q.instruction, c.reason, c.priority,
            c.accepted, c.details, c.status, c.reviewer_verdict, c.reviewer, c.reviewer_note, c.reviewed_at, c.created_at, c.updated_at
     from review_candidates c
     left join queries q on q.id = c.query_id
     where ($1::text is null or c.cycle_id = $1) and ($2::text is null or c.critic_version = $2)
       and ($3::text is null or c.rollout_id = $3) and ($4::text is null or c.status = $4)
     order by c.priority desc, c.created_at, c.rollout_id, c.kind
     limit $5`,
    [filter.cycleId ?? null, filter.criticVersion ?? null, filter.rolloutId ?? null, filter.status ?? null, Math.max(0, filter.limit ?? 100)],
    StoredCandidate,
  );
}

const CountRow = z.object({ kind: ReviewKind, total: z.number().int(), open: z.number().int(), accepted: z.number().int() });
export type ReviewCount = z.infer<typeof CountRow>;

/** Counts per reason kind (total, still open, on accepted trajectories), REVIEW_KINDS order; kinds with none omitted. */
export async function countReviewCandidates(
  db: Queryable,
  filter: { cycleId?: string | undefined; criticVersion?: string | undefined } = {},
): Promise<ReviewCount[]> {
  const rows = await many(
    db,
    `select kind, count(*)::int as total, count(*) filter (where status = 'open')::int as open,
            count(*) filter (where accepted)::int as accepted
     from review_candidates
     where ($1::text is null or cycle_id = $1) and ($2::text is null or critic_version = $2)
     group by kind`,
    [filter.cycleId ?? null, filter.criticVersion ?? null],
    CountRow,
  );
  return rows.sort((a, b) => ReviewKind.options.indexOf(a.kind) - ReviewKind.options.indexOf(b.kind));
}
