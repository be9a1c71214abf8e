import { z } from 'zod';
import { ReviewKind } from '../domain/entities.js';
import { many, maybeOne, one, type Queryable } from './db.js';

/**
 * The human review queue's storage (migration 0013 + review_verdicts of 0008): accounts, sessions, claims,
 * verdicts and the audit log. Every write is idempotent on its natural key (user name, session id, rollout for a
 * claim, rollout × reviewer for a verdict); the audit log is append-only by design (one row per decision made).
 */

export const ReviewRole = z.enum(['reviewer', 'admin']);
export type ReviewRole = z.infer<typeof ReviewRole>;

/** Account names: lowercase, 1–64 characters, usable in logs and URLs without escaping. */
export const ReviewerName = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'lowercase letters, digits, ".", "_" or "-" (≤ 64)');

const UserRow = z
  .object({ name: z.string(), role: ReviewRole, password_hash: z.string(), created_at: z.date() })
  .transform((r) => ({ name: r.name, role: r.role, passwordHash: r.password_hash, createdAt: r.created_at.toISOString() }));
export type ReviewUser = z.output<typeof UserRow>;

/** Creates the account or replaces its role and password hash (re-running `review user add` resets a password). */
export async function upsertReviewUser(db: Queryable, user: { name: string; role: ReviewRole; passwordHash: string }): Promise<{ created: boolean }> {
  const row = await one(
    db,
    `insert into review_users (name, role, password_hash) values ($1, $2, $3)
     on conflict (name) do update set role = excluded.role, password_hash = excluded.password_hash, updated_at = now()
     returning (xmax = 0) as created`,
    [ReviewerName.parse(user.name), ReviewRole.parse(user.role), user.passwordHash],
    z.object({ created: z.boolean() }),
  );
  return row;
}

export async function getReviewUser(db: Queryable, name: string): Promise<ReviewUser | undefined> {
  return maybeOne(db, `select name, role, password_hash, created_at from review_users where name = $1`, [name], UserRow);
}

export async function listReviewUsers(db: Queryable): Promise<ReviewUser[]> {
  return many(db, `select name, role, password_hash, created_at from review_users order by name`, [], UserRow);
}

// ------------------------------------------------------------------------------------------------ sessions

export async function getSessionData(db: Queryable, sid: string): Promise<unknown> {
  const row = await maybeOne(db, `select data from review_sessions where sid = $1 and expires_at > now()`, [sid], z.object({ data: z.unknown() }));
  return row?.data ?? null;
}

export async function setSessionData(db: Queryable, sid: string, data: unknown, expiresAt: Date): Promise<void> {
  await db.query(
    `insert into review_sessions (sid, data, expires_at) values ($1, $2, $3)
     on conflict (sid) do update set data = excluded.data, expires_at = excluded.expires_at`,
    [sid, JSON.stringify(data), expiresAt],
  );
}

export async function deleteSession(db: Queryable, sid: string): Promise<void> {
  await db.query(`delete from review_sessions where sid = $1 or expires_at < now()`, [sid]);
}

// ------------------------------------------------------------------------------------------------- audit

export const AuditAction = z.enum(['login', 'logout', 'claim', 'verdict', 'change', 'note', 'skip', 'unmask', 'user_add']);
export type AuditAction = z.infer<typeof AuditAction>;

export async function appendAudit(
  db: Queryable,
  entry: { reviewer: string; action: AuditAction; rolloutId?: string | null; details?: Record<string, unknown> },
): Promise<void> {
  await db.query(`insert into review_audit (reviewer, action, rollout_id, details) values ($1, $2, $3, $4)`, [
    entry.reviewer,
    AuditAction.parse(entry.action),
    entry.rolloutId ?? null,
    JSON.stringify(entry.details ?? {}),
  ]);
}

const AuditRow = z
  .object({ id: z.number(), at: z.date(), reviewer: z.string(), action: AuditAction, rollout_id: z.string().nullable(), details: z.record(z.string(), z.unknown()) })
  .transform((r) => ({ id: r.id, at: r.at.toISOString(), reviewer: r.reviewer, action: r.action, rolloutId: r.rollout_id, details: r.details }));
export type AuditEntry = z.output<typeof AuditRow>;

/** Newest first. */
export async function listAudit(db: Queryable, opts: { limit?: number; rolloutId?: string; reviewer?: string } = {}): Promise<AuditEntry[]> {
  return many(
    db,
    `select id, at, reviewer, action, rollout_id, details from review_audit
     where ($1::text is null or rollout_id = $1) and ($2::text is null or reviewer = $2)
     order by id desc limit $3`,
    [opts.rolloutId ?? null, opts.reviewer ?? null, Math.max(1, Math.min(10_000, opts.limit ?? 200))],
    AuditRow,
  );
}

// ------------------------------------------------------------------------------------------------- queue

export interface QueueFilter {
  app?: string | undefined;
  kind?: ReviewKind | undefined;
  cycleId?: string | undefined;
  criticVersion?: string | undefined;
}

/** The filter as SQL over `review_candidates c` joined with `queries q`, parameters from $offset. */
function filterSql(f: QueueFilter, offset: number): { sql: string; values: unknown[] } {
  return {
    sql: `($${offset}::text is null or q.app = $${offset}) and ($${offset + 1}::text is null or c.kind = $${offset + 1})
      and ($${offset + 2}::text is null or c.cycle_id = $${offset + 2}) and ($${offset + 3}::text is null or c.critic_version = $${offset + 3})`,
    values: [f.app ?? null, f.kind ?? null, f.cycleId ?? null, f.criticVersion ?? null],
  };
}

const QueueRow = z
  .object({
    rollout_id: z.string(),
    app: z.string().nullable(),
    instruction: z.string().nullable(),
    cycle_id: z.string(),
    critic_versions: z.array(z.string()),
    kinds: z.array(ReviewKind),
    reasons: z.array(z.string()),
    priority: z.number(),
    accepted: z.boolean(),
    claimed_by: z.string().nullable(),
    verdicts: z.number(),
  })
  .transform((r) => ({
    rolloutId: r.rollout_id,
    app: r.app,
    instruction: r.instruction,
    cycleId: r.cycle_id,
    criticVersions: r.critic_versions,
    kinds: r.kinds,
    reasons: r.reasons,
    priority: r.priority,
    accepted: r.accepted,
    claimedBy: r.claimed_by,
    verdicts: r.verdicts,
  }));
export type QueueItem = z.output<typeof QueueRow>;

/**
 * Open candidates grouped by rollout (a rollout may be queued for several reasons), highest priority first, then
 * oldest, then rollout id: the order `claimNext` hands them out in. `claimedBy` names an unexpired claim.
 */
export async function listQueue(db: Queryable, filter: QueueFilter = {}, limit = 100): Promise<QueueItem[]> {
  const f = filterSql(filter, 1);
  return many(
    db,
    `select c.rollout_id, max(q.app) as app, max(q.instruction) as instruction, max(c.cycle_id) as cycle_id,
            array_agg(distinct c.critic_version) as critic_versions, array_agg(c.kind order by c.priority desc) as kinds,
            array_agg(c.reason order by c.priority desc) as reasons, max(c.priority) as priority, bool_or(c.accepted) as accepted,
            (select k.reviewer from review_claims k where k.rollout_id = c.rollout_id and k.expires_at > now()) as claimed_by,
            (select count(*)::int from review_verdicts v where v.rollout_id = c.rollout_id) as verdicts
     from review_candidates c left join queries q on q.id = c.query_id
     where c.status = 'open' and ${f.sql}
     group by c.rollout_id
     order by max(c.priority) desc, min(c.created_at), c.rollout_id
     limit $5`,
    [...f.values, Math.max(1, limit)],
    QueueRow,
  );
}

/** Values the queue's filters can take (open candidates only). */
export async function queueFacets(db: Queryable): Promise<{ apps: string[]; kinds: string[]; cycles: string[]; criticVersions: string[] }> {
  const row = await one(
    db,
    `select coalesce(array_agg(distinct q.app) filter (where q.app is not null), '{}') as apps,
            coalesce(array_agg(distinct c.kind), '{}') as kinds, coalesce(array_agg(distinct c.cycle_id), '{}') as cycles,
            coalesce(array_agg(distinct c.critic_version), '{}') as critic_versions
     from review_candidates c left join queries q on q.id = c.query_id where c.status = 'open'`,
    [],
    z.object({ apps: z.array(z.string()), kinds: z.array(z.string()), cycles: z.array(z.string()), critic_versions: z.array(z.string()) }),
  );
  return { apps: row.apps, kinds: row.kinds, cycles: row.cycles, criticVersions: row.critic_versions };
}

/**
 * Claims the reviewer's next item: their own unexpired claim on an undecided open item if they hold one, else the
 * highest-priority open item that is unclaimed (or whose claim expired), that they have neither decided nor skipped.
 * The claim is one upsert whose update only fires when the row is free or expired, so of two reviewers racing for
 * the same item exactly one gets it; the loser tries the next one. Returns the rollout id, or null when none is left.
 */
export async function claimNext(db: Queryable, reviewer: string, filter: QueueFilter, ttlSeconds: number): Promise<string | null> {
  const f = filterSql(filter, 3);
  const own = await maybeOne(
    db,
    `select k.rollout_id from review_claims k
     where k.reviewer = $1 and k.expires_at > now()
       and exists (select 1 from review_candidates c left join queries q on q.id = c.query_id
                   where c.rollout_id = k.rollout_id and c.status = 'open' and ${f.sql})
       and not exists (select 1 from review_verdicts v where v.rollout_id = k.rollout_id and v.reviewer = $1)
       and $2::int is not null
     order by k.claimed_at limit 1`,
    [reviewer, ttlSeconds, ...f.values],
    z.object({ rollout_id: z.string() }),
  );
  if (own) return own.rollout_id;
  for (let attempt = 0; attempt < 8; attempt++) {
    const row = await maybeOne(
      db,
      `with pick as (
         select c.rollout_id from review_candidates c left join queries q on q.id = c.query_id
         where c.status = 'open' and ${f.sql}
           and not exists (select 1 from review_verdicts v where v.rollout_id = c.rollout_id and v.reviewer = $1)
           and not exists (select 1 from review_claims k where k.rollout_id = c.rollout_id and k.expires_at > now())
           and not exists (select 1 from review_audit a where a.rollout_id = c.rollout_id and a.reviewer = $1 and a.action = 'skip')
         group by c.rollout_id
         order by max(c.priority) desc, min(c.created_at), c.rollout_id
         limit 1
       )
       insert into review_claims (rollout_id, reviewer, expires_at)
       select rollout_id, $1, now() + make_interval(secs => $2) from pick
       on conflict (rollout_id) do update set reviewer = excluded.reviewer, claimed_at = now(), expires_at = excluded.expires_at
       where review_claims.expires_at <= now() or review_claims.reviewer = excluded.reviewer
       returning rollout_id`,
      [reviewer, ttlSeconds, ...f.values],
      z.object({ rollout_id: z.string() }),
    );
    if (row) {
      await appendAudit(db, { reviewer, action: 'claim', rolloutId: row.rollout_id });
      return row.rollout_id;
    }
    // Nothing inserted: either the queue is empty for this reviewer, or another reviewer won the race.
    const left = await one(
      db,
      `select count(*)::int as n from review_candidates c left join queries q on q.id = c.query_id
       where c.status = 'open' and ${f.sql}
         and not exists (select 1 from review_verdicts v where v.rollout_id = c.rollout_id and v.reviewer = $1)
         and not exists (select 1 from review_claims k where k.rollout_id = c.rollout_id and k.expires_at > now())
         and not exists (select 1 from review_audit a where a.rollout_id = c.rollout_id and a.reviewer = $1 and a.action = 'skip')
         and $2::int is not null`,
      [reviewer, ttlSeconds, ...f.values],
      z.object({ n: z.number() }),
    );
    if (left.n === 0) return null;
  }
  return null;
}

/** Claims one given rollout for the reviewer; false when someone else holds an unexpired claim on it. */
export async function claimRollout(db: Queryable, reviewer: string, rolloutId: string, ttlSeconds: number): Promise<boolean> {
  const row = await maybeOne(
    db,
    `insert into review_claims (rollout_id, reviewer, expires_at) values ($1, $2, now() + make_interval(secs => $3))
     on conflict (rollout_id) do update set reviewer = excluded.reviewer, claimed_at = now(), expires_at = excluded.expires_at
     where review_claims.expires_at <= now() or review_claims.reviewer = excluded.reviewer
     returning (xmax = 0) as fresh`,
    [rolloutId, reviewer, ttlSeconds],
    z.object({ fresh: z.boolean() }),
  );
  if (row?.fresh) await appendAudit(db, { reviewer, action: 'claim', rolloutId });
  return row !== undefined;
}

/** Who holds an unexpired claim on the rollout, if anyone. */
export async function claimHolder(db: Queryable, rolloutId: string): Promise<string | null> {
  const row = await maybeOne(db, `select reviewer from review_claims where rollout_id = $1 and expires_at > now()`, [rolloutId], z.object({ reviewer: z.string() }));
  return row?.reviewer ?? null;
}

// ------------------------------------------------------------------------------------------------ verdicts

export const StepMarks = z.record(z.string().regex(/^\d+$/, 'step index'), z.literal(false));
export type StepMarks = z.infer<typeof StepMarks>;

export interface VerdictInput {
  rolloutId: string;
  reviewer: string;
  /** true = the trajectory accomplished the instruction. */
  verdict: boolean;
  /** Steps the reviewer rejected individually: dropped from exports. */
  rejectedSteps?: readonly number[];
  note?: string | null;
  /** Distinct reviewers' verdicts after which the rollout's open candidates are resolved (leave the queue). */
  reviewsPerItem: number;
}

const VerdictRow = z
  .object({ rollout_id: z.string(), reviewer: z.string(), verdict: z.boolean(), steps: StepMarks, note: z.string().nullable(), decided_at: z.date() })
  .transform((r) => ({
    rolloutId: r.rollout_id,
    reviewer: r.reviewer,
    verdict: r.verdict,
    rejectedSteps: Object.keys(r.steps).map(Number).sort((a, b) => a - b),
    note: r.note,
    decidedAt: r.decided_at.toISOString(),
  }));
export type StoredVerdict = z.output<typeof VerdictRow>;

/**
 * Records a reviewer's verdict in one statement batch the caller runs in a transaction: upserts the reviewer's row
 * (a reviewer changing their mind updates their own row, audited as `change` with the previous value; identical
 * re-submission is a no-op), appends the audit entry, releases the reviewer's claim, and resolves the rollout's open
 * candidates once `reviewsPerItem` distinct reviewers decided (their verdict: all accepted → true). Judging never
 * writes here, so re-judging cannot overwrite a human verdict.
 */
export async function recordVerdict(db: Queryable, v: VerdictInput): Promise<{ action: 'verdict' | 'change' | 'unchanged'; resolved: boolean }> {
  const steps: StepMarks = Object.fromEntries([...new Set(v.rejectedSteps ?? [])].sort((a, b) => a - b).map((i) => [String(i), false]));
  const previous = await maybeOne(
    db,
    `select rollout_id, reviewer, verdict, steps, note, decided_at from review_verdicts where rollout_id = $1 and reviewer = $2 for update`,
    [v.rolloutId, v.reviewer],
    VerdictRow,
  );
  const note = v.note?.trim() ? v.note.trim() : null;
  const same =
    previous !== undefined && previous.verdict === v.verdict && previous.note === note && JSON.stringify(previous.rejectedSteps) === JSON.stringify(Object.keys(steps).map(Number));
  let action: 'verdict' | 'change' | 'unchanged' = 'unchanged';
  if (!same) {
    await db.query(
      `insert into review_verdicts (rollout_id, reviewer, verdict, steps, note, decided_at) values ($1, $2, $3, $4, $5, now())
       on conflict (rollout_id, reviewer) do update set verdict = excluded.verdict, steps = excluded.steps, note = excluded.note, decided_at = now()`,
      [v.rolloutId, v.reviewer, v.verdict, JSON.stringify(steps), note],
    );
    action = previous ? 'change' : 'verdict';
    await appendAudit(db, {
      reviewer: v.reviewer,
      action,
      rolloutId: v.rolloutId,
      details: {
        verdict: v.verdict,
        rejectedSteps: Object.keys(steps).map(Number),
        ...(note ? { note } : {}),
        ...(previous ? { previous: { verdict: previous.verdict, rejectedSteps: previous.rejectedSteps, note: previous.note } } : {}),
      },
    });
  }
  await db.query(`delete from review_claims where rollout_id = $1 and reviewer = $2`, [v.rolloutId, v.reviewer]);
  const resolved = await db.query(
    `with agg as (
       select count(*)::int as n, bool_and(verdict) as verdict, string_agg(reviewer, ',' order by reviewer) as reviewers,
              string_agg(note, ' | ' order by reviewer) filter (where note is not null) as notes
       from review_verdicts where rollout_id = $1
     )
     update review_candidates c set status = 'resolved', reviewer_verdict = agg.verdict, reviewer = agg.reviewers,
       reviewer_note = agg.notes, reviewed_at = now()
     from agg where c.rollout_id = $1 and agg.n >= $2 and (c.status = 'open' or c.status = 'resolved')
       and (c.status, c.reviewer_verdict, c.reviewer, c.reviewer_note) is distinct from ('resolved', agg.verdict, agg.reviewers, agg.notes)`,
    [v.rolloutId, Math.max(1, v.reviewsPerItem)],
  );
  return { action, resolved: (resolved.rowCount ?? 0) > 0 };
}

/** Skips an item: releases the reviewer's claim and keeps it out of their queue (another reviewer gets it). */
export async function recordSkip(db: Queryable, reviewer: string, rolloutId: string): Promise<void> {
  await db.query(`delete from review_claims where rollout_id = $1 and reviewer = $2`, [rolloutId, reviewer]);
  await appendAudit(db, { reviewer, action: 'skip', rolloutId });
}

export async function listVerdicts(db: Queryable, rolloutId: string): Promise<StoredVerdict[]> {
  return many(
    db,
    `select rollout_id, reviewer, verdict, steps, note, decided_at from review_verdicts where rollout_id = $1 order by decided_at, reviewer`,
    [rolloutId],
    VerdictRow,
  );
}

/** Step indices any reviewer rejected individually (exports drop them). */
export async function humanRejectedSteps(db: Queryable, rolloutId: string): Promise<number[]> {
  const rows = await many(
    db,
    `select distinct k::int as idx from review_verdicts v, jsonb_object_keys(v.steps) k where v.rollout_id = $1 order by 1`,
    [rolloutId],
    z.object({ idx: z.number() }),
  );
  return rows.map((r) => r.idx);
}

/** How many of the cycle's non-degraded rollouts reviewers accepted although the critics rejected them, and vice versa. */
export async function humanOverrides(db: Queryable, cycleId: string, criticVersion: string): Promise<{ acceptedOverCritics: number; rejectedOverCritics: number }> {
  const row = await one(
    db,
    `select count(*) filter (where a.human_verdict and a.critic_accepted is not true)::int as accepted_over,
            count(*) filter (where not a.human_verdict and a.critic_accepted)::int as rejected_over
     from rollout_acceptance a join rollouts r on r.id = a.rollout_id
     where a.cycle_id = $1 and a.critic_version = $2 and not r.degraded`,
    [cycleId, criticVersion],
    z.object({ accepted_over: z.number(), rejected_over: z.number() }),
  );
  return { acceptedOverCritics: row.accepted_over, rejectedOverCritics: row.rejected_over };
}

/**
 * The human label per rollout (all reviewers' verdicts combined as the export does: any rejection wins), for
 * critic calibration and learned-critic training; `cycleId` restricts to one cycle.
 */
export async function listHumanLabels(db: Queryable, cycleId?: string): Promise<Map<string, { verdict: boolean; reviewers: number }>> {
  const rows = await many(
    db,
    `select v.rollout_id, bool_and(v.verdict) as verdict, count(*)::int as reviewers
     from review_verdicts v join rollouts r on r.id = v.rollout_id
     where ($1::text is null or r.cycle_id = $1) group by v.rollout_id`,
    [cycleId ?? null],
    z.object({ rollout_id: z.string(), verdict: z.boolean(), reviewers: z.number() }),
  );
  return new Map(rows.map((r) => [r.rollout_id, { verdict: r.verdict, reviewers: r.reviewers }]));
}

// ------------------------------------------------------------------------------------------------- stats

const ReviewerStatsRow = z
  .object({
    reviewer: z.string(),
    decisions: z.number(),
    rollouts: z.number(),
    accepted: z.number(),
    skips: z.number(),
    first_at: z.date().nullable(),
    last_at: z.date().nullable(),
    median_seconds: z.number().nullable(),
  })
  .transform((r) => ({
    reviewer: r.reviewer,
    decisions: r.decisions,
    rollouts: r.rollouts,
    accepted: r.accepted,
    skips: r.skips,
    firstAt: r.first_at?.toISOString() ?? null,
    lastAt: r.last_at?.toISOString() ?? null,
    /** Median seconds from claiming an item to deciding it. */
    medianSeconds: r.median_seconds,
    /** Decisions per hour of active span (first to last decision); null with fewer than two decisions. */
    perHour:
      r.first_at && r.last_at && r.decisions > 1 && r.last_at.getTime() > r.first_at.getTime()
        ? (3600 * (r.decisions - 1)) / ((r.last_at.getTime() - r.first_at.getTime()) / 1000)
        : null,
  }));
export type ReviewerStats = z.output<typeof ReviewerStatsRow>;

export interface AgreementStats {
  /** Rollouts with verdicts of two or more reviewers. */
  items: number;
  /** Reviewer pairs on those rollouts, and how many of them gave the same trajectory verdict. */
  pairs: number;
  agreeingPairs: number;
  /** agreeingPairs / pairs, null without pairs. */
  rate: number | null;
}

/** Where a checker label exists too: how often the reviewers' combined verdict matches it (measurement only). */
export interface CheckerAgreement {
  rollouts: number;
  agreeing: number;
}

/**
 * Throughput per reviewer (from the audit log), pairwise agreement on items two or more reviewers decided, and the
 * reviewers' agreement with the checkers where both labelled a rollout.
 */
export async function reviewStats(db: Queryable): Promise<{ reviewers: ReviewerStats[]; agreement: AgreementStats; checker: CheckerAgreement }> {
  const reviewers = await many(
    db,
    `with d as (
       select a.reviewer, a.rollout_id, a.at,
              (select max(c.at) from review_audit c where c.reviewer = a.reviewer and c.rollout_id = a.rollout_id and c.action = 'claim' and c.at <= a.at) as claimed
       from review_audit a where a.action in ('verdict', 'change')
     )
     select u.reviewer,
            (select count(*)::int from d where d.reviewer = u.reviewer) as decisions,
            (select count(*)::int from review_verdicts v where v.reviewer = u.reviewer) as rollouts,
            (select count(*)::int from review_verdicts v where v.reviewer = u.reviewer and v.verdict) as accepted,
            (select count(*)::int from review_audit s where s.reviewer = u.reviewer and s.action = 'skip') as skips,
            (select min(at) from d where d.reviewer = u.reviewer) as first_at,
            (select max(at) from d where d.reviewer = u.reviewer) as last_at,
            (select percentile_cont(0.5) within group (order by extract(epoch from d.at - d.claimed)::float8)
               from d where d.reviewer = u.reviewer and d.claimed is not null) as median_seconds
     from (select distinct reviewer from review_audit where action in ('verdict', 'change', 'skip')
           union select distinct reviewer from review_verdicts) u
     order by u.reviewer`,
    [],
    ReviewerStatsRow,
  );
  const agreement = await one(
    db,
    `select count(distinct a.rollout_id)::int as items, count(*)::int as pairs, count(*) filter (where a.verdict = b.verdict)::int as agreeing
     from review_verdicts a join review_verdicts b on a.rollout_id = b.rollout_id and a.reviewer < b.reviewer`,
    [],
    z.object({ items: z.number(), pairs: z.number(), agreeing: z.number() }),
  );
  const checker = await one(
    db,
    `select count(*)::int as rollouts, count(*) filter (where h.verdict = r.ground_truth)::int as agreeing
     from rollouts r join (select rollout_id, bool_and(verdict) as verdict from review_verdicts group by rollout_id) h on h.rollout_id = r.id
     where r.ground_truth is not null`,
    [],
    z.object({ rollouts: z.number(), agreeing: z.number() }),
  );
  return {
    reviewers,
    checker,
    agreement: { items: agreement.items, pairs: agreement.pairs, agreeingPairs: agreement.agreeing, rate: agreement.pairs ? agreement.agreeing / agreement.pairs : null },
  };
}
