/**
 * Records the Temporal histories the replay tests (test/replay/replay.test.ts) check the workflow code
 * against: runs one tiny real cycle (1 query × 1 attempt, ≤3 steps, the food app) on fresh embedded
 * services in a scratch home, then saves the history of every workflow type it ran to
 * test/replay/histories/<workflowType>.json as `{ workflowType, workflowId, history }` (the history in
 * protobufjs' JSON form, read back with `History.fromObject`).
 *
 *   npx tsx scripts/record-replay-histories.ts
 *
 * Re-record after a deliberate, compatible-by-design workflow change (or when a new workflow type is added);
 * a change that breaks running histories must instead be guarded with `patched()`.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '../cli/config.js';
import { startRuntime, startWorkers } from '../cli/runtime.js';
import { REPO_ROOT } from '../cli/services/paths.js';
import { freePort } from '../cli/services/s3-server.js';

const OUT_DIR = path.join(REPO_ROOT, 'test', 'replay', 'histories');

async function main(): Promise<void> {
  await mkdir(path.join(REPO_ROOT, '.trajforge'), { recursive: true });
  const home = await mkdtemp(path.join(REPO_ROOT, '.trajforge', 'replay-'));
  await chmod(home, 0o755); // as root, Postgres runs as `postgres`, which must reach its data dir
  const temporalPort = await freePort();
  let uiPort = await freePort();
  while (uiPort === temporalPort) uiPort = await freePort();
  const config = loadConfig({
    TRAJFORGE_HOME: home,
    TRAJFORGE_POSTGRES_PORT: String(await freePort()),
    TRAJFORGE_TEMPORAL_PORT: String(temporalPort),
    TRAJFORGE_TEMPORAL_UI_PORT: String(uiPort),
    TRAJFORGE_ENV_SESSIONS: '1',
  });
  config.cycle = { ...config.cycle, queries: 1, attempts: 1, maxSteps: 3, apps: ['food'], seed: 11 };
  const rt = await startRuntime(config, (l) => console.log(l));
  const workers = await startWorkers(rt);
  try {
    const cycleId = 'cycle-1';
    const handle = await rt.temporal.client.workflow.start('productionCycle', {
      workflowId: cycleId,
      taskQueue: `${config.temporal.taskQueuePrefix}-main`,
      args: [{ cycleId, cycleNumber: 1, config: config.cycle, taskQueuePrefix: config.temporal.taskQueuePrefix }],
    });
    await handle.result();
    await mkdir(OUT_DIR, { recursive: true });
    const seen = new Set<string>();
    for await (const w of rt.temporal.client.workflow.list({ query: `WorkflowId STARTS_WITH '${cycleId}'` })) {
      if (seen.has(w.type)) continue; // one history per workflow type is enough to pin its command sequence
      seen.add(w.type);
      const history = await rt.temporal.client.workflow.getHandle(w.workflowId, w.runId).fetchHistory();
      const file = path.join(OUT_DIR, `${w.type}.json`);
      // protobufjs' toJSON (int64 as strings, enums by name); the id is kept because replay checks child ids.
      await writeFile(file, `${JSON.stringify({ workflowType: w.type, workflowId: w.workflowId, history }, null, 1)}\n`);
      console.log(`recorded ${w.type} (${w.workflowId}, ${history.events?.length ?? 0} events) → ${path.relative(REPO_ROOT, file)}`);
    }
  } finally {
    await workers.shutdown();
    await rt.close();
    await rm(home, { recursive: true, force: true }).catch(() => undefined);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
