-- Dataset snapshots (export/snapshot.ts): one snapshot holds several formats and splits, so each registered item
-- says which format file and which split it landed in. Older rows (cycle exports before snapshots) keep NULLs.
alter table dataset_items add column if not exists format text;
alter table dataset_items add column if not exists split text;
create index if not exists dataset_items_split_idx on dataset_items (dataset_name, dataset_version, format, split);
