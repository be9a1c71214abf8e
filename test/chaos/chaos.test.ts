import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { invariantViolations, runChaosCycle, type ChaosRunResult } from '../../bench/chaos-harness.js';

/**
 * The short form of bench/chaos.ts: one small cycle on services of its own (Postgres, a Temporal dev server, versitygw
 * behind a fault proxy, the reference model server behind a fault proxy), `main`, `env` and `cpu` workers in three
 * supervised processes, while a seeded injector freezes the env worker mid-episode, kills workers with `kill -9`,
 * restarts Temporal and Postgres, fills the blob store's disk for a few seconds and breaks ~10% of S3 and model requests. The cycle must complete with nothing
 * duplicated or dangling, and the frozen worker's episode must fail over within the 20 s heartbeat timeout (+ polling).
 */
describe('chaos: a cycle survives kills, restarts and faulty services', () => {
  let run: ChaosRunResult;
  const lines: string[] = [];

  beforeAll(async () => {
    run = await runChaosCycle({
      seed: 11,
      queries: 2,
      attempts: 1,
      maxSteps: 3,
      apps: ['food', 'notes'],
      guidance: false,
      envSessions: 2,
      plan: {
        workerKills: 3,
        temporalRestarts: 1,
        postgresRestarts: 1,
        chromiumKills: 0,
        browserHangs: 0,
        workerFreezes: 1,
        // The blob store's disk full for 3 s (a tmpfs filled to ENOSPC as root; otherwise simulated by the proxy).
        diskFulls: 1,
        diskFullHoldMs: 3000,
        blobDiskMb: 128,
        httpFaultRate: 0.1,
        startMs: 3000,
        // Every fault lands within the first ~30 s: on a quiet machine the whole cycle takes under a minute.
        windowMs: 25_000,
        hangsFirst: true,
      },
      home: await mkdtemp(path.join(tmpdir(), 'trajforge-chaos-test-')),
      modelTimeoutMs: 5000,
      cycleTimeoutMs: 9 * 60_000,
      log: (l) => lines.push(l),
    });
  }, 11 * 60_000);

  it('completes the cycle', () => {
    expect(run.completed, `${run.error}\n${lines.join('\n')}`).toBe(true);
    expect(run.result?.counts.rollouts).toBe(2);
  });

  it('injected the planned faults', () => {
    const n = (kind: string): number => run.faults.filter((f) => f.kind === kind && !f.note?.startsWith('skipped')).length;
    expect(n('kill -9 worker (env)') + n('kill -9 worker (cpu)') + n('kill -9 worker (main)'), lines.join('\n')).toBe(3);
    expect(n('temporal restart')).toBe(1);
    expect(n('postgres restart')).toBe(1);
    expect(n('worker frozen (SIGSTOP)')).toBe(1);
    expect(n('blob disk full')).toBe(1);
    // Every killed worker was replaced by the supervisor (3 processes at the start).
    expect(Object.values(run.workerStarts).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3 + 3 + 1);
  });

  it('notices the frozen env worker within the heartbeat timeout and retries its episode', () => {
    const frozen = run.faults.find((f) => f.kind === 'worker frozen (SIGSTOP)')!;
    expect(frozen.recoverMs, lines.join('\n')).toBeDefined();
    // 20 s heartbeat timeout, polled every 0.5 s (a describe of each running rollout per poll, slow under load).
    expect(frozen.recoverMs!).toBeLessThan(30_000);
  });

  it('loses and duplicates nothing: every step judged, one consensus per rollout, every referenced blob present', () => {
    const v = invariantViolations(run.snapshot!, 2, run.result?.dataset ? 1 : 0);
    expect(v).toEqual([]);
    expect(run.snapshot!.steps.rows).toBe(run.result!.counts.steps);
    expect(run.snapshot!.stepVerdicts.distinctSteps).toBe(run.result!.counts.stepVerdicts);
  });
});
