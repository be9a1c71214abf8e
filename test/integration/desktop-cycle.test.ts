import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../cli/config.js';
import { startRuntime, startWorkers, type Runtime, type Workers } from '../../cli/runtime.js';
import { A11yTree } from '../../environments/desktop/atspi.js';
import type { CycleResult } from '../../workflows/contracts.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

/**
 * A desktop production cycle (`platform: 'desktop'`) on the real services: queries from the desktop DAGs, episodes
 * on real desktop sessions (Xvfb, AT-SPI) from the env queue, critics, checkers, and an export in the desktop action
 * format (`computer_use`).
 */
describe('productionCycle on the desktop platform', () => {
  let db: TestDatabase;
  let home: string;
  let rt: Runtime;
  let workers: Workers;
  let prefix: string;
  let result: CycleResult;

  beforeAll(async () => {
    db = await testDatabase();
    home = await mkdtemp(join(tmpdir(), 'trajforge-desktop-cycle-'));
    prefix = `t-${randomBytes(4).toString('hex')}`;
    const config = loadConfig({
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TRAJFORGE_HOME: home,
      TRAJFORGE_TASK_QUEUE_PREFIX: prefix,
      TRAJFORGE_ENV_SESSIONS: '2',
    });
    rt = await startRuntime(config);
    workers = await startWorkers(rt, { prefix });
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-cycle-1`,
      taskQueue: `${prefix}-main`,
      args: [
        {
          cycleId: 'cycle-1',
          cycleNumber: 1,
          taskQueuePrefix: prefix,
          // The file manager and the calculator: the quickest desktop episodes (2–4 steps each).
          config: { platform: 'desktop', queries: 3, attempts: 1, maxSteps: 5, apps: ['file_manager', 'calculator'], guidance: { enabled: false } },
        },
      ],
    });
    result = (await handle.result()) as CycleResult;
  }, 1_200_000);

  afterAll(async () => {
    await workers?.shutdown();
    await rt?.close();
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it('rolls desktop queries out on desktop sessions: desktop actions, screenshots and a11y trees in the blob store, checker ground truth', async () => {
    expect(result.counts.queries).toBe(3);
    expect(result.counts.rollouts).toBe(3);
    const rollouts = await db.pool.query<{ action_space: string; ground_truth: boolean | null; app: string }>(
      `select r.action_space, r.ground_truth, q.app from rollouts r join queries q on q.id = r.query_id where r.cycle_id = 'cycle-1'`,
    );
    expect(rollouts.rows).toHaveLength(3);
    for (const r of rollouts.rows) {
      expect(r.action_space).toBe('desktop');
      expect(['file_manager', 'calculator']).toContain(r.app);
      expect(typeof r.ground_truth).toBe('boolean');
    }
    const steps = await db.pool.query<{ before: { screenshotKey: string; uiTreeKey?: string; width: number }; action: { action: string } | null }>(
      `select before, action from steps where rollout_id like 'cycle-1/%'`,
    );
    expect(steps.rows.length).toBe(result.counts.steps);
    for (const s of steps.rows) {
      expect(s.before.width).toBe(1280);
      expect(await rt.blobs.has(s.before.screenshotKey)).toBe(true);
      // The accessibility tree is stored as the UI tree.
      expect(s.before.uiTreeKey).toBeDefined();
      // (An AT-SPI dump that times out on a starved machine stores an empty tree, so only the shape is asserted here;
      // test/environments/desktop/desktop-env.test.ts checks the tree's content.)
      expect(A11yTree.safeParse(JSON.parse(Buffer.from(await rt.blobs.get(s.before.uiTreeKey!)).toString('utf8'))).success).toBe(true);
    }
    // Desktop-only action kinds occur (key chords are `keys`, not an adb keycode).
    expect(steps.rows.some((s) => s.action?.action === 'key' || s.action?.action === 'drag')).toBe(true);
  });

  it('exports accepted desktop steps with the computer_use tool', async () => {
    expect(result.counts.accepted).toBeGreaterThan(0);
    expect(result.dataset).not.toBeNull();
    const ds = result.dataset!;
    const jsonl = Buffer.from(await rt.blobs.get(`datasets/${ds.name}/v${ds.version}/sft/train.jsonl`)).toString('utf8').trim().split('\n');
    expect(jsonl.length).toBe(ds.samples);
    for (const line of jsonl) {
      const sample = JSON.parse(line) as { messages: { role: string; content: string }[]; tools: string };
      expect(JSON.parse(sample.tools)[0].function.name).toBe('computer_use');
      expect(sample.messages[0]!.content).toContain('desktop');
      expect(sample.messages[2]!.content).toContain('"name":"computer_use"');
      expect(sample.messages[2]!.content).not.toContain('mobile_use');
    }
  });

  it('refuses a phone-only agent mode on the desktop, naming the field', async () => {
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: `${prefix}-bad`,
      taskQueue: `${prefix}-main`,
      args: [{ cycleId: 'cycle-2', cycleNumber: 2, taskQueuePrefix: prefix, config: { platform: 'desktop', queries: 1, attempts: 1, agentMode: 'swirl', apps: ['calculator'], guidance: { enabled: false } } }],
    });
    const err = await handle.result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const messages: string[] = [];
    for (let e: unknown = err; e instanceof Error; e = e.cause) messages.push(e.message);
    expect(messages.join(' | ')).toContain('config.agentMode');
  }, 120_000);
});
