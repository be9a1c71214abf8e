-- The human review queue (review/, `trajforge review serve`): accounts, sessions, claims and an audit log.
-- Verdicts themselves live in review_verdicts (migration 0008), which the export view rollout_acceptance reads.

-- Reviewer accounts. `password_hash` is an argon2id PHC string (review/passwords.ts); never a password.
create table if not exists review_users (
  name text primary key check (name ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
  role text not null check (role in ('reviewer', 'admin')),
  password_hash text not null check (password_hash like '$argon2id$%'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Server-side sessions (@fastify/session store, review/session-store.ts): the cookie holds only a signed id.
create table if not exists review_sessions (
  sid text primary key,
  data jsonb not null,
  expires_at timestamptz not null
);
create index if not exists review_sessions_expiry_idx on review_sessions (expires_at);

-- A claim locks one queued rollout to one reviewer until `expires_at`, so two reviewers never take the same item
-- at once. One row per rollout: claiming is an upsert that succeeds only when the row is free, expired, or the
-- claimant's own.
create table if not exists review_claims (
  rollout_id text primary key references rollouts (id) on delete cascade,
  reviewer text not null references review_users (name) on delete cascade,
  claimed_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index if not exists review_claims_reviewer_idx on review_claims (reviewer);

-- Every decision with who, when and what: append-only (nothing updates or deletes rows).
create table if not exists review_audit (
  id bigserial primary key,
  at timestamptz not null default now(),
  reviewer text not null,
  action text not null check (action in ('login', 'logout', 'claim', 'verdict', 'change', 'note', 'skip', 'unmask', 'user_add')),
  rollout_id text,
  details jsonb not null default '{}'::jsonb
);
create index if not exists review_audit_reviewer_idx on review_audit (reviewer, at);
create index if not exists review_audit_rollout_idx on review_audit (rollout_id, at);
