import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { temporal } from '@temporalio/proto';
import { DeterminismViolationError } from '@temporalio/workflow';
import { DefaultLogger, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import { workflowBundle } from '../../cli/runtime.js';

/**
 * Workflow determinism: the current workflow code must replay the histories recorded from a real cycle
 * (scripts/record-replay-histories.ts), so a change that would break running cycles fails here, not in
 * production. Re-record with `npx tsx scripts/record-replay-histories.ts` after a compatible change.
 */
const DIR = fileURLToPath(new URL('./histories/', import.meta.url));

/**
 * Histories are stored as protobufjs' own JSON (int64 as strings, enums by name) and read back with
 * `History.fromObject`. The SDK's historyFromJSON cannot be used here: this install holds three copies of
 * protobufjs (proto, common, worker each nest one) and its `instanceof Type` check fails across them.
 */
const load = (json: unknown): temporal.api.history.v1.History => temporal.api.history.v1.History.fromObject(json as Record<string, unknown>);

interface Recorded {
  type: string;
  workflowId: string;
  history: temporal.api.history.v1.History;
}

async function histories(): Promise<Recorded[]> {
  const files = (await readdir(DIR)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (f) => {
      const raw = JSON.parse(await readFile(path.join(DIR, f), 'utf8')) as { workflowType: string; workflowId: string; history: unknown };
      expect(raw.workflowType, f).toBe(path.basename(f, '.json'));
      return { type: raw.workflowType, workflowId: raw.workflowId, history: load(raw.history) };
    }),
  );
}

describe('workflow replay against recorded histories', () => {
  beforeAll(() => {
    try {
      // Each replay starts and stops a worker, which the SDK logs at INFO: warnings only.
      Runtime.install({ logger: new DefaultLogger('WARN') });
    } catch {
      // A runtime is already installed in this process: keep it.
    }
  });

  it('replays every recorded workflow type without a determinism error', async () => {
    const all = await histories();
    // The production cycle and every child type it starts.
    expect(all.map((h) => h.type)).toEqual(expect.arrayContaining(['productionCycle', 'generateQueries', 'rollout', 'judgeTrajectory', 'exportDataset']));
    const bundle = await workflowBundle();
    for (const { type, workflowId, history } of all) {
      await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history, workflowId), type).resolves.toBeUndefined();
    }
  }, 120_000);

  it('rejects a workflow edit that changes the command sequence (DeterminismViolationError)', async () => {
    const broken = await bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('./broken-workflows.ts', import.meta.url)),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never,
    });
    const cycle = (await histories()).find((h) => h.type === 'productionCycle')!;
    const replay = Worker.runReplayHistory({ workflowBundle: broken }, cycle.history, cycle.workflowId);
    await expect(replay).rejects.toBeInstanceOf(DeterminismViolationError);
    // The mismatch is the inserted timer, not some other defect of the fixture.
    await expect(replay).rejects.toThrow(/Timer|timer/);
  }, 120_000);
});
