-- The checker's reason beside its verdict (issue 17): `rollouts.ground_truth` alone cannot say *why* a rollout
-- failed (wrong item in the cart, a note saved under another title…), so wrong critic verdicts could not be
-- diagnosed. Measurement only, like ground_truth: it never enters a prompt, an agent or a critic, nor an export.
alter table rollouts add column if not exists ground_truth_reason text;
