import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode } from '../../agents/episode.js';
import { EnvError, type EnvSession } from '../../domain/ports.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import { EnvPool, type PoolEvent } from '../../environments/pool.js';
import { MemoryBlobStore } from './memory-blobs.js';
import { scriptedPolicy, waitFor } from './scripted-policy.js';

let server: AppServer;
let env: ChromiumEnv;
const blobs = new MemoryBlobStore();
const ACTION_TIMEOUT_MS = 6000;

beforeAll(async () => {
  server = await startAppServer();
  env = await createChromiumEnv({ appServer: server, blobs, actionTimeoutMs: ACTION_TIMEOUT_MS, probeTimeoutMs: 1500 });
}, 60_000);

afterAll(async () => {
  await env?.close();
  await server?.close();
});

describe('environment pool health', () => {
  it('a browser killed mid-episode degrades the episode (steps kept); the pool quarantines and the next lease gets a relaunched browser', async () => {
    const events: PoolEvent[] = [];
    const pool = new EnvPool<ChromiumSession>(2, () => env.newSession(), { onEvent: (e) => events.push(e) });
    // Two sessions on the doomed browser: one runs the episode, the other waits idle in the pool.
    const [session, idle] = [await pool.lease(), await pool.lease()];
    await pool.release(idle, true);
    const pid = env.browserPid();
    expect(pid).toBeGreaterThan(0);

    let killed = false;
    const policy = scriptedPolicy(
      [
        { action: 'open', text: 'Foodie' },
        { action: 'swipe', coordinate: [200, 700], coordinate2: [200, 300] },
        { action: 'wait', time: 3 },
        { action: 'terminate', status: 'success' },
      ],
      (i) => {
        // While the third step (a 3 s wait) runs, the browser process is killed.
        if (i === 2) {
          setTimeout(() => {
            process.kill(pid!, 'SIGKILL');
            killed = true;
          }, 300);
        }
      },
    );
    const result = await runEpisode({
      env: session,
      policy,
      blobs,
      app: 'food',
      instruction: 'Order something.',
      seed: 7,
      maxSteps: 6,
      historyImages: 1,
      temperature: 0,
      onStep: () => pool.heartbeat(session),
    });
    expect(killed).toBe(true);
    expect(result.status).toBe('degraded');
    expect(result.environmentFailure).toMatch(/closed|crash|disconnected/i);
    expect(result.steps).toHaveLength(3);
    expect(result.steps.slice(0, 2).map((s) => [s.action?.action, s.error, s.after !== undefined])).toEqual([
      ['open', undefined, true],
      ['swipe', undefined, true],
    ]);
    expect(result.steps[0]?.metrics).toMatchObject({ actionMs: expect.any(Number), settleMs: expect.any(Number), screenshotBytes: expect.any(Number) });
    expect(result.steps[2]).toMatchObject({ action: { action: 'wait' }, error: { kind: 'environment_error' } });
    await waitFor('the browser to be seen as dead', () => !env.isAlive());
    expect(await session.healthy()).toBe(false);

    // The session comes back unhealthy → quarantined; the idle one fails its probe → quarantined too; a fresh
    // session is created on a relaunched browser.
    await pool.release(session, false);
    const fresh = await pool.lease();
    expect(env.relaunches).toBe(1);
    expect(env.isAlive()).toBe(true);
    expect(env.browserPid()).not.toBe(pid);
    expect(pool.stats()).toMatchObject({ created: 3, quarantined: 2, replaced: 1, leased: 1, idle: 0 });
    expect(events.filter((e) => e.kind === 'quarantined').map((e) => e.kind === 'quarantined' && e.reason)).toEqual(['released-unhealthy', 'probe-failed']);
    await fresh.reset({ app: 'food', seed: 1 });
    const r = await fresh.step({ action: 'open', text: 'Foodie' });
    expect(await blobs.has(r.observation.screenshotKey)).toBe(true);
    expect(await fresh.healthy()).toBe(true);
    await pool.release(fresh, true);
    await pool.close();
  }, 120_000);

  it('a hung page is detected by the action timeout: non-recoverable EnvError, unhealthy, replaced', async () => {
    const pool = new EnvPool<ChromiumSession>(1, () => env.newSession());
    const s = await pool.lease();
    await s.reset({ app: 'food', seed: 2 });
    await s.step({ action: 'open', text: 'Foodie' });
    void s.page.evaluate('while (true) {}').catch(() => undefined);
    const started = Date.now();
    const err = await s.step({ action: 'click', coordinate: [200, 400] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(EnvError);
    expect((err as EnvError).recoverable).toBe(false);
    expect((err as EnvError).message).toMatch(/timed out after \d+ ms: the page or browser is hung/);
    expect(took).toBeLessThan(ACTION_TIMEOUT_MS + 5000);
    expect(await s.healthy()).toBe(false);
    // Later calls fail fast instead of hanging again.
    const again = await s.step({ action: 'wait', time: 1 }).then(
      () => undefined,
      (e: unknown) => e as EnvError,
    );
    expect(again?.recoverable).toBe(false);
    expect(again?.message).toMatch(/unusable/);
    await pool.release(s, false); // close is bounded even with a spinning renderer
    const next = await pool.lease();
    expect(next.id).not.toBe(s.id);
    await next.reset({ app: 'food', seed: 2 });
    expect((await next.step({ action: 'open', text: 'Foodie' })).observation.screenshotKey).toMatch(/^sha256\//);
    expect(pool.stats()).toMatchObject({ quarantined: 1, replaced: 1, created: 2 });
    await pool.release(next, true);
    await pool.close();
  }, 120_000);

  it('a lease not heartbeated in time is lost: its session is closed and the slot freed', async () => {
    const pool = new EnvPool<ChromiumSession>(1, () => env.newSession(), { leaseTimeoutMs: 500 });
    const s = await pool.lease();
    // Heartbeats keep the lease through a reset and steps that take longer than the lease timeout.
    const beat = setInterval(() => pool.heartbeat(s), 50);
    const held = Date.now();
    await s.reset({ app: 'food', seed: 3 });
    await s.step({ action: 'open', text: 'Foodie' });
    while (Date.now() - held < 1500) await s.step({ action: 'wait', time: 0.2 });
    clearInterval(beat);
    expect(pool.stats().lostLeases).toBe(0);
    expect(pool.heartbeat(s)).toBe(true);
    // A second caller waits for the only slot; it gets one once the silent lease is declared lost.
    const waiting = pool.lease();
    await waitFor('the lease to be lost', () => pool.stats().lostLeases === 1);
    const other = await waiting;
    expect(other.id).not.toBe(s.id);
    expect(pool.heartbeat(s)).toBe(false);
    const err = await s.step({ action: 'wait', time: 1 }).then(
      () => undefined,
      (e: unknown) => e as EnvError,
    );
    expect(err?.recoverable).toBe(false);
    await pool.release(s, false); // a lost lease's release is a no-op
    expect(pool.stats()).toMatchObject({ quarantined: 1, leased: 1, lostLeases: 1 });
    await pool.release(other, true);
    await pool.close();
  }, 60_000);
});

describe('environment pool bookkeeping (fake sessions)', () => {
  function fakeSession(id: string, state: { healthy: boolean; closed: boolean }): EnvSession & { state: typeof state } {
    return {
      id,
      state,
      reset: async () => ({ screenshotKey: 'sha256/x.png', width: 1, height: 1 }),
      step: async () => ({ observation: { screenshotKey: 'sha256/x.png', width: 1, height: 1 }, settleMs: 0 }),
      healthy: async () => state.healthy,
      close: async () => {
        state.closed = true;
      },
    };
  }

  it('reaps sessions idle longer than idleMs and reports stats', async () => {
    let n = 0;
    const made: ReturnType<typeof fakeSession>[] = [];
    const pool = new EnvPool(3, async () => {
      const s = fakeSession(`f${n++}`, { healthy: true, closed: false });
      made.push(s);
      return s;
    }, { idleMs: 200 });
    const a = await pool.lease();
    const b = await pool.lease();
    expect(pool.stats()).toMatchObject({ size: 3, leased: 2, idle: 0, created: 2 });
    await pool.release(a, true);
    await waitFor('the idle session to be reaped', () => pool.stats().reaped === 1);
    expect(made[0]?.state.closed).toBe(true);
    expect(pool.stats()).toMatchObject({ idle: 0, leased: 1, reaped: 1, quarantined: 0 });
    // A leased session is never reaped for idleness, however long it is held.
    expect(made[1]?.state.closed).toBe(false);
    await pool.release(b, true);
    const c = await pool.lease(); // reuses b (still fresh)
    expect(c).toBe(b);
    await pool.release(c, true);
    await pool.close();
    expect(made[1]?.state.closed).toBe(true);
  });

  it('bounds sessions, queues waiters, and replaces a session that fails its probe', async () => {
    const states: { healthy: boolean; closed: boolean }[] = [];
    const pool = new EnvPool(1, async () => {
      const st = { healthy: true, closed: false };
      states.push(st);
      return fakeSession(`g${states.length}`, st);
    });
    const a = await pool.lease();
    const waiting = pool.lease();
    await waitFor('a waiter', () => pool.stats().waiting === 1);
    await pool.release(a, true);
    const b = await waiting;
    expect(b).toBe(a);
    states[0]!.healthy = false;
    await pool.release(b, true);
    const c = await pool.lease();
    expect(c).not.toBe(a);
    expect(states[0]?.closed).toBe(true);
    expect(pool.stats()).toMatchObject({ created: 2, quarantined: 1, replaced: 1, leased: 1, waiting: 0 });
    await pool.release(c, true);
    await pool.close();
    await expect(pool.lease()).rejects.toThrow(/closed/);
  });
});
