-- Channel disagreement beside the consensus metrics (issue 17): the paper's consensus combines a text and a
-- multimodal channel, which is only worth it if they see different things. On each consensus row of
-- critic_calibration (per critic version × cycle × scope — 'all', an app, `mode:<rollout mode>` — × split):
-- how many rollouts had both channels' verdicts, how many of those the channels disagreed on, and which channel
-- matched the label each time. Null on rows computed before this migration and on the other channels' rows.
alter table critic_calibration add column if not exists channels_compared integer check (channels_compared >= 0);
alter table critic_calibration add column if not exists channel_disagreements integer check (channel_disagreements >= 0);
alter table critic_calibration add column if not exists text_right integer check (text_right >= 0);
alter table critic_calibration add column if not exists multimodal_right integer check (multimodal_right >= 0);
