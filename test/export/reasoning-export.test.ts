/**
 * Reasoning samples in the snapshot (format `reasoning`, export/reasoning.ts): the kept hint-guided traces and the
 * multi-agent distillations of exported rollouts come back as ms-swift `messages` rows whose tool call is exactly the
 * executed action, with their lineage; guidance text only with keepGuidance; never checker data.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSnapshot, type SnapshotResult } from '../../export/snapshot.js';
import { createLocalBlobStore } from '../../storage/blob-local.js';
import { setRolloutGuidance, upsertGuidance, upsertReasoningSamples } from '../../storage/guidance-repo.js';
import * as repo from '../../storage/repos.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import { seedFixture } from './fixture.js';
import { ActionSchema, SwiftMessages } from './trainer-schemas.js';

let db: TestDatabase;
let root: string;
const GUIDANCE = 'open Notes | tap New | enter "GUIDE-ONLY-TEXT" into the Title field';
const SPLIT = [
  { name: 'train', fraction: 0.5 },
  { name: 'test', fraction: 0.5 },
];
const blobs = () => createLocalBlobStore(path.join(root, 'store'));
const click = { action: 'click', coordinate: [50, 60] };

beforeAll(async () => {
  db = await testDatabase();
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'tf-reasoning-export-'));
  await seedFixture(db.pool, blobs());
  // q5's accepted attempt was a guided one.
  const version = await upsertGuidance(db.pool, { queryId: 'q5', text: GUIDANCE, steps: GUIDANCE.split(' | '), described: [], source: 'scripted', referenceId: 'demo-q5', cycleId: 'cycle-1', models: {} });
  await setRolloutGuidance(db.pool, 'cycle-1/q5/0', version);
  const hint = (rollout: string, step: number, style: string, action: unknown, thought: string) => ({
    id: `${rollout}#${step}#${style}`,
    rolloutId: rollout,
    step,
    kind: 'hint_rs' as const,
    hintStyle: style,
    thought,
    conclusion: `Did step ${step}.`,
    action,
    lineage: { cycle: 'cycle-1', sourceRollout: rollout, sourceStep: step, hintStyle: style, reasoner: 'ref-reasoner', guidanceVersion: rollout === 'cycle-1/q5/0' ? version : null },
  });
  await upsertReasoningSamples(db.pool, [
    hint('cycle-1/q5/0', 0, 'cot-template', click, 'Observation: the list shows a New button. Next: tap New'),
    hint('cycle-1/q5/0', 1, 'simplest', { action: 'type', text: 'title q5' }, 'Next: type the title; reply to jane.doe@example.com later'),
    // A stored trace whose action is not the executed one: dropped, never re-labelled.
    hint('cycle-1/q5/0', 0, 'simplest', { action: 'click', coordinate: [150, 300] }, 'Next: tap Settings'),
    // The step a reviewer dropped: its trace goes with it.
    hint('cycle-1/q4/0', 1, 'simplest', { action: 'type', text: 'title q4' }, 'Next: type the title'),
    // A rejected rollout is not exported at all.
    hint('cycle-1/q5/1', 0, 'simplest', click, 'Next: tap New'),
    {
      id: 'cycle-1/q1/0#0#distill',
      rolloutId: 'cycle-1/q1/0',
      step: 0,
      kind: 'distill',
      thought: 'So far I have nothing done. Next I need to tap New.',
      conclusion: 'Tapped New.',
      action: click,
      lineage: { cycle: 'cycle-1', sourceRollout: 'cycle-1/q1/0', sourceStep: 0, distiller: 'ref-distiller', roles: ['manager', 'worker', 'reflector'], guidanceVersion: null },
    },
  ]);
}, 60_000);
afterAll(async () => {
  await db?.drop();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

const dirOf = (r: SnapshotResult): string => path.join(root, 'store', 'datasets', r.name, `v${r.version}`);
async function rowsOf(r: SnapshotResult, prefix: string) {
  const out = [];
  for (const f of r.manifest.files.filter((x) => x.path.startsWith(prefix) && x.path.endsWith('.jsonl'))) {
    for (const line of (await fs.readFile(path.join(dirOf(r), f.path), 'utf8')).trim().split('\n')) out.push(SwiftMessages.parse(JSON.parse(line)));
  }
  return out;
}
const toolCall = (content: string): unknown => (JSON.parse(/<tool_call>\n(.*)\n<\/tool_call>$/s.exec(content)![1]!) as { arguments: unknown }).arguments;
const thoughtOf = (content: string): string => /^Thought: (.*)\nConclusion:/s.exec(content)![1]!;

describe('reasoning samples in the snapshot', () => {
  it('exports kept traces and distillations as sft rows: the executed action, the same prompt, lineage; mismatches dropped', async () => {
    const snap = (await exportSnapshot({ db: db.pool, blobs: blobs() }, { name: 'reasoning', formats: ['sft', 'reasoning'], split: SPLIT, seed: 7 }))!;
    const rows = await rowsOf(snap, 'reasoning/');
    const sft = await rowsOf(snap, 'sft/');
    expect(rows.map((r) => r.id).sort()).toEqual(['cycle-1/q1/0#0#distill', 'cycle-1/q5/0#0#cot-template', 'cycle-1/q5/0#1#simplest']);
    expect(snap.manifest.counts).toMatchObject({ reasoning_hint_rs: 2, reasoning_distill: 1, reasoning_dropped_action_mismatch: 1, reasoning_dropped_step_removed: 1 });
    expect(snap.manifest.formats.reasoning).toBe('reasoning-messages@1');
    for (const row of rows) {
      const m = row.meta as Record<string, unknown>;
      const executed = (await repo.getRollout(db.pool, row.meta.rollout_id))!.steps.find((s) => s.index === row.meta.step)!.action;
      const assistant = row.messages.at(-1)!.content;
      // The tool call is the executed action, identical, and a valid action.
      expect(toolCall(assistant)).toEqual(executed);
      ActionSchema.parse(toolCall(assistant));
      // Same prompt and images as the step's sft row; only the Thought differs.
      const twin = sft.find((s) => s.meta.rollout_id === row.meta.rollout_id && s.meta.step === row.meta.step)!;
      expect(row.messages.slice(0, -1)).toEqual(twin.messages.slice(0, -1));
      expect(row.images).toEqual(twin.images);
      expect(toolCall(twin.messages.at(-1)!.content)).toEqual(toolCall(assistant));
      expect(m).toMatchObject({ reasoning_sample_id: row.id, source_rollout: row.meta.rollout_id, source_step: row.meta.step, split: twin.meta.split });
      expect(thoughtOf(assistant)).not.toBe(thoughtOf(twin.messages.at(-1)!.content));
    }
    const byId = new Map(rows.map((r) => [r.id, r.meta as Record<string, unknown>]));
    expect(byId.get('cycle-1/q5/0#0#cot-template')).toMatchObject({ kind: 'hint_rs', hint_style: 'cot-template', reasoning_model: 'ref-reasoner', distilled_roles: null, source_guidance_version: 1, guidance_version: 1 });
    expect(byId.get('cycle-1/q1/0#0#distill')).toMatchObject({ kind: 'distill', hint_style: null, reasoning_model: 'ref-distiller', distilled_roles: ['manager', 'worker', 'reflector'], source_guidance_version: null });
    expect(thoughtOf(rows.find((r) => r.id === 'cycle-1/q5/0#0#cot-template')!.messages.at(-1)!.content)).toBe('Observation: the list shows a New button. Next: tap New');
    // Traces are scrubbed like every exported text; no guidance text, no checker data.
    const text = (await Promise.all(snap.manifest.files.filter((f) => f.path.startsWith('reasoning/')).map((f) => fs.readFile(path.join(dirOf(snap), f.path), 'utf8')))).join('\n');
    expect(text).not.toContain('jane.doe@example.com');
    expect(text).not.toContain('GUIDE-ONLY-TEXT');
    expect(text).not.toMatch(/checker|ground_truth|create_note/);
    const items = await db.pool.query<{ n: number }>(`select count(*)::int as n from dataset_items where dataset_name = $1 and dataset_version = $2 and format = 'reasoning'`, [snap.name, snap.version]);
    expect(items.rows[0]!.n).toBe(3);
  });

  it('puts the guidance text into the reasoning prompts only with keepGuidance', async () => {
    const kept = (await exportSnapshot({ db: db.pool, blobs: blobs() }, { name: 'reasoning-kept', formats: ['reasoning'], split: SPLIT, seed: 7, keepGuidance: true }))!;
    const rows = await rowsOf(kept, 'reasoning/');
    const guided = rows.filter((r) => r.meta.rollout_id === 'cycle-1/q5/0');
    expect(guided.length).toBe(2);
    for (const r of guided) expect(r.messages.map((m) => m.content).join('\n')).toContain('GUIDE-ONLY-TEXT');
    for (const r of rows.filter((x) => x.meta.rollout_id !== 'cycle-1/q5/0')) expect(JSON.stringify(r)).not.toContain('GUIDE-ONLY-TEXT');
  });
});
