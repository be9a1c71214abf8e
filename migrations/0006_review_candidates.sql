-- Review candidates (critics/review.ts, storage/review-repo.ts): rollouts whose judgement disagrees with itself
-- (channels split, votes split, step labels contradicting the trajectory verdict, the learned channel against
-- the consensus, the agent's claimed success rejected), queued for human review with a reason and a priority.
-- One row per (rollout, reason kind, critic version): re-judging updates the row, never duplicates it, and never
-- touches the reviewer columns. A later review queue sets status/reviewer_verdict/reviewer/reviewed_at.
create table if not exists review_candidates (
  rollout_id text not null references rollouts (id) on delete cascade,
  kind text not null check (kind in (
    'channels_split', 'votes_split', 'accepted_with_harmful_step', 'rejected_all_good',
    'learned_disagrees', 'claimed_success_rejected')),
  critic_version text not null,
  -- Lineage (denormalised so the queue can be filtered without joins).
  cycle_id text not null references cycles (id) on delete cascade,
  query_id text not null,
  reason text not null,
  priority real not null check (priority >= 0),
  -- The consensus verdict the candidate was derived from (true = accepted into the dataset).
  accepted boolean not null,
  details jsonb not null default '{}'::jsonb,
  status text not null default 'open' check (status in ('open', 'resolved', 'dismissed')),
  -- The reviewer's trajectory verdict (true = the trajectory accomplished the instruction); null until reviewed.
  reviewer_verdict boolean,
  reviewer text,
  reviewer_note text,
  reviewed_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (rollout_id, kind, critic_version),
  check (status <> 'resolved' or reviewer_verdict is not null)
);
create index if not exists review_candidates_queue_idx on review_candidates (status, priority desc);
create index if not exists review_candidates_cycle_idx on review_candidates (cycle_id, priority desc);

-- The learned critic channel (critics/learned-critic.ts) is stored and calibrated beside text/multimodal.
alter table trajectory_verdicts drop constraint if exists trajectory_verdicts_channel_check;
alter table trajectory_verdicts add constraint trajectory_verdicts_channel_check
  check (channel in ('text', 'multimodal', 'learned', 'consensus'));
alter table critic_calibration drop constraint if exists critic_calibration_channel_check;
alter table critic_calibration add constraint critic_calibration_channel_check
  check (channel in ('text', 'multimodal', 'learned', 'consensus'));
