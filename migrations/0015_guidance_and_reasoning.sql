-- Query-specific guidance (synthesis/guidance.ts, GUI-Owl §6.4) and reasoning data (synthesis/, §2.2.3).
-- Guidance is versioned per query; one version per reference trajectory (re-synthesising from the same reference
-- updates that version in place, never adds one). Its uplift (guided success ÷ unguided success on the same
-- query) is kept on the row, and a version is retired when it stops helping.
create table if not exists query_guidance (
  query_id text not null references queries (id) on delete cascade,
  version int not null check (version >= 1),
  text text not null,
  steps jsonb not null,
  -- Every reference step's description and QC decision with its reason.
  described jsonb not null,
  source text not null check (source in ('model', 'scripted', 'human')),
  -- Lineage: the reference rollout / recording, the cycle that made it, and the three roles' models.
  reference_id text not null,
  cycle_id text references cycles (id) on delete set null,
  models jsonb not null,
  status text not null default 'active' check (status in ('active', 'retired')),
  retired_reason text,
  guided_attempts int not null default 0,
  guided_successes int not null default 0,
  unguided_attempts int not null default 0,
  unguided_successes int not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (query_id, version),
  unique (query_id, reference_id)
);
create index if not exists query_guidance_active_idx on query_guidance (query_id) where status = 'active';

-- A guided attempt records the guidance version it read (null: unguided). What an attempt was for follows from its
-- business key (…/aN plain, …/rN reference for guidance, …/gN guided), so it is known at insert time; reference and
-- guided attempts number from 0 like plain ones, hence the attempt key includes the purpose.
alter table rollouts add column if not exists guidance_version int;
alter table rollouts add column if not exists purpose text generated always as (
  case when id ~ '/r[0-9]+$' then 'reference' when id ~ '/g[0-9]+$' then 'guided' else 'attempt' end) stored;
alter table rollouts drop constraint if exists rollouts_cycle_id_query_id_attempt_key;
create unique index if not exists rollouts_cycle_query_attempt_purpose_key on rollouts (cycle_id, query_id, attempt, purpose);

-- Steps no hint style reproduces go to the human review queue.
alter table review_candidates drop constraint if exists review_candidates_kind_check;
alter table review_candidates add constraint review_candidates_kind_check check (kind in (
  'channels_split', 'votes_split', 'accepted_with_harmful_step', 'rejected_all_good',
  'learned_disagrees', 'claimed_success_rejected', 'needs_human'));

-- Reasoning samples: hint-guided rejection sampling traces (kind hint_rs, one per kept style) and multi-agent
-- distillations (kind distill), each with its lineage (source rollout and step, hint style, model, guidance version).
create table if not exists reasoning_samples (
  id text primary key,
  rollout_id text not null references rollouts (id) on delete cascade,
  step int not null,
  kind text not null check (kind in ('hint_rs', 'distill')),
  hint_style text,
  thought text not null,
  conclusion text not null default '',
  action jsonb not null,
  lineage jsonb not null,
  created_at timestamptz not null default now()
);
create index if not exists reasoning_samples_rollout_idx on reasoning_samples (rollout_id, step);

-- Every online/offline filter decision with its reason, kept or not (natural key: sample × filter × version).
create table if not exists filter_decisions (
  sample_id text not null,
  filter text not null check (filter in ('critic_tau_c', 'consistency_rule', 'consistency_model', 'reweight', 'hint_match')),
  version text not null,
  rollout_id text references rollouts (id) on delete cascade,
  step int,
  keep boolean not null,
  reason text not null,
  details jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  primary key (sample_id, filter, version)
);
create index if not exists filter_decisions_rollout_idx on filter_decisions (rollout_id);
