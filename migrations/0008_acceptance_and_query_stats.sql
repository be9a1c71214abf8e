-- Human verdicts (the review queue, review/) and the effective acceptance every export reads, plus per-query
-- statistics (storage/query-stats-repo.ts) that reward-statistics export filters and the hard-query detector use.

-- A reviewer's verdict on a rollout: true = the trajectory accomplished the instruction. One row per reviewer
-- and rollout; a reviewer changing their mind updates their row. Never written or overwritten by re-judging.
-- `steps` optionally marks single steps: {"<step idx>": false} drops that step from exports.
create table if not exists review_verdicts (
  rollout_id text not null references rollouts (id) on delete cascade,
  reviewer text not null,
  verdict boolean not null,
  steps jsonb not null default '{}'::jsonb,
  note text,
  decided_at timestamptz not null default now(),
  primary key (rollout_id, reviewer)
);

-- The acceptance an export honours: the critics' consensus for the critic version the rollout's cycle ran with,
-- overridden by humans where any reviewer decided. Any human rejection wins (a human-rejected trajectory is
-- never exported); if every reviewer accepted, it is accepted even where the critics rejected it.
-- `source` says which decided: 'human', 'critics' or 'none' (not judged, e.g. a degraded episode).
create or replace view rollout_acceptance as
select
  r.id as rollout_id,
  r.cycle_id,
  r.query_id,
  c.critic_version,
  tv.correct as critic_accepted,
  hv.verdict as human_verdict,
  coalesce(hv.verdict, tv.correct) as accepted,
  case when hv.verdict is not null then 'human' when tv.correct is not null then 'critics' else 'none' end as source
from rollouts r
join cycles c on c.id = r.cycle_id
left join trajectory_verdicts tv
  on tv.rollout_id = r.id and tv.channel = 'consensus' and tv.critic_version = c.critic_version
left join lateral (
  select bool_and(v.verdict) as verdict from review_verdicts v where v.rollout_id = r.id having count(*) > 0
) hv on true;

-- Per-query statistics over every non-degraded, judged rollout of the query in any cycle. Reward of a rollout =
-- its effective acceptance (1/0). `gt_successes` counts checker successes: measurement only, never an input
-- to agents, critics or exports.
create table if not exists query_stats (
  query_id text primary key references queries (id) on delete cascade,
  attempts integer not null check (attempts >= 0),
  successes integer not null check (successes >= 0),
  p_succ double precision not null check (p_succ >= 0 and p_succ <= 1),
  reward_mean double precision not null,
  reward_var double precision not null check (reward_var >= 0),
  gt_successes integer not null default 0,
  last_outcome text,
  last_cycle_id text,
  difficulty integer,
  updated_at timestamptz not null default now()
);

-- Frozen evaluation query sets (`trajforge evalset freeze`): never in a training export (contamination guard),
-- and what the eval gate rolls out. The queries are stored whole (they need not come from a cycle).
create table if not exists eval_sets (
  name text primary key,
  fingerprint text not null,
  spec jsonb not null default '{}'::jsonb,
  frozen_at timestamptz not null default now()
);
create table if not exists eval_set_queries (
  eval_set text not null references eval_sets (name) on delete cascade,
  query_id text not null,
  instruction text not null,
  query jsonb not null,
  primary key (eval_set, query_id)
);
