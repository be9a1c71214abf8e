import { sleep } from '@temporalio/workflow';
import { productionCycle as original } from '../../workflows/production-cycle.js';

export * from '../../workflows/index.js';

/**
 * A deliberately non-deterministic edit of the cycle workflow: a timer before the first activity. Its
 * first command no longer matches the recorded history's, which replay must reject.
 */
export async function productionCycle(raw: unknown): ReturnType<typeof original> {
  await sleep('1 second');
  return original(raw);
}
