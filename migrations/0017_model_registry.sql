-- The model registry of the self-evolving line: every policy version is a candidate until the eval gate (or an
-- operator) decides. Rows written before this migration (and `trajforge train`, which an operator runs by hand)
-- count as promoted: they were served as soon as they were trained.
--   candidate → evaluating → promoted | rejected;  promoted → rolled_back (`trajforge models rollback`)
-- The version served to rollouts is the highest promoted version (storage/registry-repo.ts servedVersion).
alter table model_versions add column if not exists status text not null default 'promoted'
  check (status in ('candidate', 'evaluating', 'promoted', 'rejected', 'rolled_back'));
alter table model_versions add column if not exists dataset text;
alter table model_versions add column if not exists metrics jsonb not null default '{}'::jsonb;
alter table model_versions add column if not exists decided_by text;
alter table model_versions add column if not exists decided_at timestamptz;

-- Append-only history of registry transitions. `key` is derived from the workflow that caused the event
-- (e.g. `line-1/retrain-g2:promoted`), so a retried activity never appends twice.
create table if not exists model_events (
  key text primary key,
  name text not null,
  version text not null,
  from_status text,
  to_status text not null,
  actor text not null,
  detail jsonb not null default '{}'::jsonb,
  at timestamptz not null default now(),
  foreign key (name, version) references model_versions (name, version)
);
create index if not exists model_events_by_model on model_events (name, version, at);
