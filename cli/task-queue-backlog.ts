import type { Client } from '@temporalio/client';

/** Temporal's own backlog of one task queue and task type (DescribeTaskQueue, `reportStats`). */
export interface TaskQueueBacklog {
  taskQueue: string;
  type: 'workflow' | 'activity';
  /** `stats.approximateBacklogCount`: tasks waiting for a worker (approximate, as Temporal says). */
  count: number;
}

type DescribeTaskQueue = Pick<Client['workflowService'], 'describeTaskQueue'>;

/** temporal.api.enums.v1.TaskQueueType (the proto package is not a direct dependency): WORKFLOW = 1, ACTIVITY = 2. */
const TYPES = [
  ['workflow', 1],
  ['activity', 2],
] as const;

/** The approximate backlog of each task queue × type, read from the Temporal frontend (one call each). */
export async function taskQueueBacklog(service: DescribeTaskQueue, namespace: string, taskQueues: readonly string[]): Promise<TaskQueueBacklog[]> {
  const calls = taskQueues.flatMap((name) =>
    TYPES.map(async ([type, taskQueueType]): Promise<TaskQueueBacklog> => {
      const r = await service.describeTaskQueue({ namespace, taskQueue: { name }, taskQueueType, reportStats: true });
      const n = r.stats?.approximateBacklogCount;
      return { taskQueue: name, type, count: n === null || n === undefined ? 0 : typeof n === 'number' ? n : n.toNumber() };
    }),
  );
  return Promise.all(calls);
}
