-- Query-generation lineage (query-gen/pipeline.ts): feasibility (ZeroGUI-style infeasible queries), how the
-- query was produced (sampler, synthesis/refinement models, DAG version, seed) with its metadata (D′, K′/V′),
-- and the interface-validation result. Older rows: feasible, no lineage, not validated.
alter table queries add column if not exists feasible boolean not null default true;
alter table queries add column if not exists lineage jsonb;
alter table queries add column if not exists validation jsonb;
