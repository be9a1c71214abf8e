-- trajforge initial schema. Natural text keys, jsonb for nested data, timestamptz everywhere.

create table model_versions (
  name text not null,
  version text not null,
  kind text not null,
  parent_version text,
  endpoint text,
  created_at timestamptz not null default now(),
  meta jsonb not null default '{}'::jsonb,
  primary key (name, version)
);

create table cycles (
  id text primary key,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  config jsonb not null,
  config_hash text not null,
  model_version text not null,
  critic_version text not null,
  status text not null default 'running',
  counts jsonb not null default '{}'::jsonb
);

create table queries (
  id text primary key,
  app text not null,
  dag_version text not null,
  family text not null,
  instruction text not null,
  raw_instruction text not null,
  path jsonb not null,
  slots jsonb not null,
  checker jsonb not null,
  difficulty integer not null check (difficulty >= 1),
  sampler text not null,
  seed integer not null,
  first_cycle_id text not null references cycles (id),
  created_at timestamptz not null default now()
);

create table cycle_queries (
  cycle_id text not null references cycles (id),
  query_id text not null references queries (id),
  primary key (cycle_id, query_id)
);
create index cycle_queries_query_idx on cycle_queries (query_id);

create table rollouts (
  id text primary key,
  cycle_id text not null references cycles (id),
  query_id text not null references queries (id),
  attempt integer not null check (attempt >= 0),
  agent_mode text not null,
  action_space text not null,
  model_name text not null,
  model_version text not null,
  status text not null,
  outcome text,
  step_count integer not null default 0,
  ground_truth boolean,
  degraded boolean not null default false,
  config_hash text not null,
  created_at timestamptz not null default now(),
  unique (cycle_id, query_id, attempt)
);
create index rollouts_query_idx on rollouts (query_id);

create table steps (
  rollout_id text not null references rollouts (id) on delete cascade,
  idx integer not null check (idx >= 0),
  before jsonb not null,
  after jsonb,
  action jsonb,
  error jsonb,
  error_kind text,
  reasoning text not null default '',
  conclusion text not null default '',
  model_call_key text,
  latency_ms real not null default 0,
  primary key (rollout_id, idx)
);
create index steps_error_kind_idx on steps (error_kind) where error_kind is not null;

create table step_verdicts (
  rollout_id text not null,
  idx integer not null,
  critic_version text not null,
  analysis text not null,
  summary text not null,
  annotation text not null check (annotation in ('GOOD', 'NEUTRAL', 'HARMFUL')),
  score real not null,
  created_at timestamptz not null default now(),
  primary key (rollout_id, idx, critic_version),
  foreign key (rollout_id, idx) references steps (rollout_id, idx) on delete cascade
);

create table trajectory_verdicts (
  rollout_id text not null references rollouts (id) on delete cascade,
  critic_version text not null,
  channel text not null check (channel in ('text', 'multimodal', 'consensus')),
  correct boolean not null,
  reason text not null default '',
  votes jsonb,
  created_at timestamptz not null default now(),
  primary key (rollout_id, critic_version, channel)
);

create table datasets (
  name text not null,
  version integer not null check (version >= 1),
  kind text not null,
  format text not null,
  manifest_key text not null,
  manifest jsonb not null,
  config_hash text not null,
  -- Hash of the exported content; re-exporting identical content finds this row instead of a new version.
  fingerprint text not null unique,
  created_at timestamptz not null default now(),
  primary key (name, version)
);

create table dataset_items (
  dataset_name text not null,
  dataset_version integer not null,
  item_idx integer not null check (item_idx >= 0),
  rollout_id text not null references rollouts (id),
  step_idx integer,
  sample_key text,
  primary key (dataset_name, dataset_version, item_idx),
  foreign key (dataset_name, dataset_version) references datasets (name, version) on delete cascade
);
create index dataset_items_rollout_idx on dataset_items (rollout_id);
