import { z } from 'zod';
import { many, maybeOne, type Queryable } from './db.js';

/**
 * The model registry (model_versions + model_events, migration 0017). Status transitions:
 * candidate → evaluating → promoted | rejected, promoted → rolled_back. Every transition appends one event whose
 * key the caller derives from the workflow that caused it, so a retried activity neither duplicates an event nor
 * re-applies a transition.
 */
export const ModelStatus = z.enum(['candidate', 'evaluating', 'promoted', 'rejected', 'rolled_back']);
export type ModelStatus = z.infer<typeof ModelStatus>;

/** Allowed transitions (from → to). */
const NEXT: Record<ModelStatus, readonly ModelStatus[]> = {
  candidate: ['evaluating', 'promoted', 'rejected'],
  evaluating: ['promoted', 'rejected'],
  promoted: ['rolled_back'],
  rejected: [],
  rolled_back: ['promoted'],
};

export const RegistryRow = z
  .object({
    name: z.string(),
    version: z.string(),
    kind: z.string(),
    parent_version: z.string().nullable(),
    endpoint: z.string().nullable(),
    status: ModelStatus,
    dataset: z.string().nullable(),
    metrics: z.record(z.string(), z.unknown()),
    meta: z.record(z.string(), z.unknown()),
    decided_by: z.string().nullable(),
    decided_at: z.date().nullable(),
    created_at: z.date(),
  })
  .transform((r) => ({
    name: r.name,
    version: r.version,
    kind: r.kind,
    parentVersion: r.parent_version,
    endpoint: r.endpoint,
    status: r.status,
    dataset: r.dataset,
    metrics: r.metrics,
    meta: r.meta,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
  }));
export type RegistryRow = z.output<typeof RegistryRow>;

/** Numeric-aware version order ("0.1.10" after "0.1.9"). */
export function compareVersions(a: string, b: string): number {
  const num = (v: string): number[] => v.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : -1));
  const x = num(a);
  const y = num(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * Registers a candidate version (status `candidate`). Idempotent on (name, version): a retry of the same
 * registration leaves the row as first written and reports `created: false`.
 */
export async function registerCandidate(
  db: Queryable,
  c: { name: string; version: string; kind: string; parentVersion: string | null; dataset: string; endpoint?: string; meta: Record<string, unknown>; eventKey: string; actor: string },
): Promise<{ created: boolean }> {
  const { rowCount } = await db.query(
    `insert into model_versions (name, version, kind, parent_version, endpoint, meta, status, dataset)
     values ($1, $2, $3, $4, $5, $6::jsonb, 'candidate', $7)
     on conflict (name, version) do nothing`,
    [c.name, c.version, c.kind, c.parentVersion, c.endpoint ?? null, JSON.stringify(c.meta), c.dataset],
  );
  await appendEvent(db, { key: c.eventKey, name: c.name, version: c.version, from: null, to: 'candidate', actor: c.actor, detail: { dataset: c.dataset } });
  return { created: (rowCount ?? 0) > 0 };
}

async function appendEvent(
  db: Queryable,
  e: { key: string; name: string; version: string; from: ModelStatus | null; to: ModelStatus; actor: string; detail: Record<string, unknown> },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `insert into model_events (key, name, version, from_status, to_status, actor, detail) values ($1, $2, $3, $4, $5, $6, $7::jsonb)
     on conflict (key) do nothing`,
    [e.key, e.name, e.version, e.from, e.to, e.actor, JSON.stringify(e.detail)],
  );
  return (rowCount ?? 0) > 0;
}

export async function getModel(db: Queryable, name: string, version: string): Promise<RegistryRow | undefined> {
  return maybeOne(db, `select * from model_versions where name = $1 and version = $2`, [name, version], RegistryRow);
}

export async function listModels(db: Queryable, name: string): Promise<RegistryRow[]> {
  const rows = await many(db, `select * from model_versions where name = $1`, [name], RegistryRow);
  return rows.sort((a, b) => compareVersions(a.version, b.version));
}

export async function listModelEvents(
  db: Queryable,
  name: string,
): Promise<{ key: string; version: string; from: string | null; to: string; actor: string; detail: Record<string, unknown>; at: string }[]> {
  return many(
    db,
    `select key, version, from_status, to_status, actor, detail, at from model_events where name = $1 order by at, key`,
    [name],
    z
      .object({ key: z.string(), version: z.string(), from_status: z.string().nullable(), to_status: z.string(), actor: z.string(), detail: z.record(z.string(), z.unknown()), at: z.date() })
      .transform((r) => ({ key: r.key, version: r.version, from: r.from_status, to: r.to_status, actor: r.actor, detail: r.detail, at: r.at.toISOString() })),
  );
}

/**
 * Moves a version to `to`, merging `metrics` and recording who decided. Idempotent by `eventKey`: when the event
 * already exists the transition is not applied again. A transition the state machine does not allow throws.
 */
export async function transition(
  db: Queryable,
  t: { name: string; version: string; to: ModelStatus; actor: string; eventKey: string; metrics?: Record<string, unknown>; detail?: Record<string, unknown> },
): Promise<{ applied: boolean; row: RegistryRow }> {
  const current = await getModel(db, t.name, t.version);
  if (!current) throw new Error(`model ${t.name}@${t.version} is not registered`);
  const seen = await maybeOne(db, `select key from model_events where key = $1`, [t.eventKey], z.object({ key: z.string() }));
  if (seen) return { applied: false, row: current };
  if (current.status !== t.to && !NEXT[current.status].includes(t.to)) {
    throw new Error(`model ${t.name}@${t.version}: no transition ${current.status} → ${t.to}`);
  }
  const decisive = t.to !== 'evaluating' && t.to !== 'candidate';
  // The event goes in first: if two callers race with the same key, only the one whose insert lands applies.
  const inserted = await appendEvent(db, { key: t.eventKey, name: t.name, version: t.version, from: current.status, to: t.to, actor: t.actor, detail: t.detail ?? {} });
  if (!inserted) return { applied: false, row: current };
  const row = await maybeOne(
    db,
    `update model_versions set status = $3, metrics = metrics || $4::jsonb,
       decided_by = case when $5::boolean then $6 else decided_by end,
       decided_at = case when $5::boolean then now() else decided_at end
     where name = $1 and version = $2 returning *`,
    [t.name, t.version, t.to, JSON.stringify(t.metrics ?? {}), decisive, t.actor],
    RegistryRow,
  );
  return { applied: true, row: row! };
}

/** The version rollouts are served: the highest promoted version, or undefined when none is promoted. */
export async function servedVersion(db: Queryable, name: string): Promise<RegistryRow | undefined> {
  const rows = (await listModels(db, name)).filter((r) => r.status === 'promoted');
  return rows[rows.length - 1];
}

/**
 * Rolls back the served version: marks it `rolled_back`, so the previous promoted version (or the base model when
 * there is none) serves again. Returns what was rolled back and what serves now.
 */
export async function rollback(
  db: Queryable,
  r: { name: string; actor: string; eventKey: string; reason?: string },
): Promise<{ rolledBack: string; nowServing: string | undefined }> {
  const current = await servedVersion(db, r.name);
  if (!current) throw new Error(`no promoted ${r.name} version to roll back`);
  await transition(db, { name: r.name, version: current.version, to: 'rolled_back', actor: r.actor, eventKey: r.eventKey, detail: { reason: r.reason ?? 'manual rollback' } });
  return { rolledBack: current.version, nowServing: (await servedVersion(db, r.name))?.version };
}
