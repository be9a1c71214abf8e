-- Error-recovery data (InfiGUI-R1 §3.2.3; synthesis/error-recovery.ts): for an error-prone step s of an accepted
-- rollout (0 < p_success < 1 over policy samples), a wrong sampled action is executed for real from the replayed
-- state before s, and two samples are built from the error screen it produced.

-- One probe per (rollout, step, generator): the error-prone measurement, whatever came of it. `outcome` says why
-- no samples were built where none were ('always_right', 'always_wrong', 'no_wrong_effect', 'replay_failed', …).
create table if not exists error_recovery_probes (
  rollout_id text not null references rollouts (id) on delete cascade,
  step_idx integer not null check (step_idx >= 0),
  generator text not null,
  samples integer not null check (samples >= 1),
  temperature double precision not null,
  matches integer not null check (matches >= 0),
  p_success double precision not null check (p_success >= 0 and p_success <= 1),
  outcome text not null,
  detail jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  primary key (rollout_id, step_idx, generator)
);

-- The samples, in the GUI-Owl messages layout (`messages` with `<image>` placeholders; `image_keys` are blob keys
-- in placeholder order; exporters turn them into portable image references). kind: 'error_escape' (input: the
-- error screen, history ⊕ wrong action → target: the escape action) or 'back_on_track' (input: the original
-- screen s, history ⊕ wrong ⊕ escape → target: the step's original action).
create table if not exists error_recovery_samples (
  rollout_id text not null references rollouts (id) on delete cascade,
  step_idx integer not null check (step_idx >= 0),
  kind text not null check (kind in ('error_escape', 'back_on_track')),
  generator text not null,
  messages jsonb not null,
  image_keys jsonb not null,
  tools jsonb not null,
  target_action jsonb not null,
  wrong_action jsonb not null,
  escape_action jsonb not null,
  -- The screen the wrong action really produced, and the rollout's own screens before / after step s.
  error_screenshot_key text not null,
  before_screenshot_key text not null,
  after_screenshot_key text,
  -- Lineage: the environment seed the state was restored with, whether the replay reproduced every stored
  -- screenshot, whether the escape action brought the original screen back, the model that sampled.
  seed integer not null,
  replay_verified boolean not null,
  escape_restored boolean not null,
  p_success double precision not null,
  model_name text not null,
  model_version text not null,
  query_id text not null,
  created_at timestamptz not null default now(),
  primary key (rollout_id, step_idx, kind, generator)
);
create index if not exists error_recovery_samples_query_idx on error_recovery_samples (query_id);
