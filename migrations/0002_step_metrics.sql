-- Per-step environment measurements (action latency, settle time, screenshot/UI-tree bytes); null when the
-- environment did not report any (older rows, steps that never executed an action).
alter table steps add column if not exists metrics jsonb;
