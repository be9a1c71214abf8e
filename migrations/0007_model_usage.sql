-- Model usage and cost accounting (activities/usage.ts): what each activity execution's model calls cost, per
-- gateway role. One row per (activity attempt, role): re-recording an attempt replaces its row, so a
-- retry never counts twice; a failed attempt keeps its own row (its calls were really made and paid for).
-- `scope` = `<activity type>:<workflow id>:<activity id>#<attempt>`.
create table if not exists model_usage (
  cycle_id text not null references cycles (id) on delete cascade,
  scope text not null,
  activity text not null,
  role text not null,
  calls integer not null check (calls >= 0),
  cached_calls integer not null check (cached_calls >= 0),
  failed_calls integer not null check (failed_calls >= 0),
  prompt_tokens bigint not null check (prompt_tokens >= 0),
  completion_tokens bigint not null check (completion_tokens >= 0),
  cost_usd double precision not null check (cost_usd >= 0),
  recorded_at timestamptz not null default now(),
  primary key (cycle_id, scope, role)
);
create index if not exists model_usage_cycle_idx on model_usage (cycle_id);
