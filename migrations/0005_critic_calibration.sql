-- Critic calibration (critics/calibration.ts): confusion matrix and derived metrics of each trajectory-critic
-- channel against checker ground truth, per critic version × cycle × scope ('all' or an app id) × channel ×
-- split ('validation' | 'report' | 'all', by hash of the query id). Ratios are null when undefined (0/0).
create table if not exists critic_calibration (
  critic_version text not null,
  cycle_id text not null references cycles (id) on delete cascade,
  scope text not null,
  channel text not null check (channel in ('text', 'multimodal', 'consensus')),
  split text not null check (split in ('validation', 'report', 'all')),
  tp integer not null check (tp >= 0),
  fp integer not null check (fp >= 0),
  tn integer not null check (tn >= 0),
  fn integer not null check (fn >= 0),
  precision real,
  recall real,
  npv real,
  f1 real,
  computed_at timestamptz not null default now(),
  primary key (critic_version, cycle_id, scope, channel, split)
);
create index if not exists critic_calibration_cycle_idx on critic_calibration (cycle_id);
