-- Multi-agent modes (agents/mobile-agent-v3.ts, swirl.ts, ces.ts): every role's input (text, image blob keys)
-- and output for the step, in call order. Null for GUI-Owl end-to-end steps and older rows.
alter table steps add column if not exists roles jsonb;
