import { describe, expect, it } from 'vitest';
import { taskQueueBacklog } from '../../cli/task-queue-backlog.js';

/** The Temporal backlog reader behind `trajforge_task_queue_backlog` (a live scrape is in test/loop/observability.test.ts). */
describe('task-queue backlog', () => {
  it('asks DescribeTaskQueue with stats for each queue and task type, and reads approximateBacklogCount', async () => {
    const asked: unknown[] = [];
    const service = {
      describeTaskQueue: async (req: { taskQueue?: { name?: string | null } | null; taskQueueType?: number | null; reportStats?: boolean | null }) => {
        asked.push(req);
        const n = req.taskQueue?.name === 't-env' && req.taskQueueType === 2 ? { toNumber: () => 7 } : req.taskQueue?.name === 't-main' && req.taskQueueType === 1 ? 3 : null;
        return { stats: n === null ? null : { approximateBacklogCount: n } };
      },
    } as unknown as Parameters<typeof taskQueueBacklog>[0];
    const rows = await taskQueueBacklog(service, 'default', ['t-main', 't-env']);
    expect(rows).toEqual([
      { taskQueue: 't-main', type: 'workflow', count: 3 },
      { taskQueue: 't-main', type: 'activity', count: 0 },
      { taskQueue: 't-env', type: 'workflow', count: 0 },
      { taskQueue: 't-env', type: 'activity', count: 7 },
    ]);
    expect(asked).toHaveLength(4);
    for (const r of asked) expect(r).toMatchObject({ namespace: 'default', reportStats: true });
  });
});
