import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePageRestless } from '../../bench/page-faults.js';
import { runEpisode } from '../../agents/episode.js';
import { freePort } from '../../cli/services/s3-server.js';
import type { Action } from '../../domain/action.js';
import { EnvError, StorageError, type BlobStore } from '../../domain/ports.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv, type HangEvent } from '../../environments/chromium.js';
import { MemoryBlobStore } from './memory-blobs.js';
import { scriptedPolicy, waitFor } from './scripted-policy.js';

/**
 * A hung environment is noticed within hang timeout + one watchdog interval wherever it hangs — between steps while
 * the model thinks, mid-step, during a reset — not only when the next bounded browser call times out. The action and
 * reset bounds are set far above the watchdog's here, so only the watchdog can be what detects it.
 */
const HANG_MS = 3000;
const INTERVAL_MS = 500;
/** Detection bound asserted: the watchdog's (hang + interval + a tick) plus slack for a loaded machine. */
const DETECT_BOUND_MS = HANG_MS + 2 * INTERVAL_MS + 4000;

let server: AppServer;
let env: ChromiumEnv;
let debugPort: number;
const blobs = new MemoryBlobStore();
const hangs: HangEvent[] = [];

beforeAll(async () => {
  server = await startAppServer();
  debugPort = await freePort();
  env = await createChromiumEnv({
    appServer: server,
    blobs,
    actionTimeoutMs: 30_000,
    resetTimeoutMs: 40_000,
    hangTimeoutMs: HANG_MS,
    watchdogIntervalMs: INTERVAL_MS,
    debugPort,
    onHang: (e) => hangs.push(e),
  });
}, 60_000);

afterAll(async () => {
  await env?.close();
  await server?.close();
});

/** SIGSTOP of the launched browser's process group (browser, renderers, helpers), as the chaos bench does. */
function freezeBrowser(): number {
  const pid = env.browserPid();
  if (!pid) throw new Error('no browser pid');
  process.kill(-pid, 'SIGSTOP');
  return pid;
}
const gone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};
const never = new Promise<void>(() => undefined);

describe('hung environment detection (watchdog)', () => {
  it('a browser frozen between steps, while the model thinks: the episode ends degraded within the bound; the browser is killed and relaunched', async () => {
    const session = await env.newSession();
    const before = { ...env.hangs };
    const relaunches = env.relaunches;
    let frozenAt = 0;
    let pid = 0;
    const policy = scriptedPolicy(
      [
        { action: 'open', text: 'Foodie' },
        { action: 'terminate', status: 'success' },
      ],
      async (i) => {
        if (i !== 1) return;
        // The browser freezes right after a step; the model never answers (a slow endpoint): only the watchdog can end it.
        pid = freezeBrowser();
        frozenAt = Date.now();
        await never;
      },
    );
    const result = await runEpisode({ env: session, policy, blobs, app: 'food', instruction: 'Order.', seed: 1, maxSteps: 4, historyImages: 1, temperature: 0 });
    const took = Date.now() - frozenAt;
    expect(result.status).toBe('degraded');
    expect(result.steps.map((s) => [s.action?.action, s.error?.kind])).toEqual([
      ['open', undefined],
      [undefined, 'environment_error'],
    ]);
    expect(result.environmentFailure).toMatch(/hung|closed|disconnected/i);
    // Silence is counted from the last answered probe, which may precede the freeze by up to one interval (CI once
    // saw 2995 ms): the watchdog's own guarantee — silence ≥ HANG_MS — is asserted on its event below.
    expect(took).toBeGreaterThanOrEqual(HANG_MS - INTERVAL_MS);
    expect(took).toBeLessThan(DETECT_BOUND_MS);
    // The page watchdog or the browser's may be first to speak; the browser's kills the frozen process group too.
    await waitFor('the browser watchdog to declare the browser hung', () => env.hangs.browser === before.browser + 1, DETECT_BOUND_MS);
    expect(Date.now() - frozenAt).toBeLessThan(DETECT_BOUND_MS + 1000);
    expect(hangs.filter((h) => h.what === 'browser').at(-1)!.silentMs).toBeGreaterThanOrEqual(HANG_MS);
    await waitFor('the frozen browser to be gone', () => gone(pid), 10_000);
    expect(await session.healthy()).toBe(false);
    await session.close();
    const next = await env.newSession();
    expect(env.relaunches).toBe(relaunches + 1);
    await next.reset({ app: 'food', seed: 2 });
    expect(await next.healthy()).toBe(true);
    await next.close();
  }, 90_000);

  it('a browser frozen mid-step (a 20 s wait) or before a reset: the call fails within the bound, far below its own timeout', async () => {
    const s1 = await env.newSession();
    await s1.reset({ app: 'food', seed: 3 });
    const step = s1.step({ action: 'wait', time: 20 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 300));
    const t1 = Date.now();
    freezeBrowser();
    const err1 = await step;
    expect(Date.now() - t1).toBeLessThan(DETECT_BOUND_MS);
    expect(err1).toBeInstanceOf(EnvError);
    expect((err1 as EnvError).recoverable).toBe(false);
    await s1.close();

    const s2 = await env.newSession(); // a relaunched browser
    const t2 = Date.now();
    freezeBrowser();
    const err2 = await s2.reset({ app: 'notes', seed: 4 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - t2).toBeLessThan(DETECT_BOUND_MS);
    expect(err2).toBeInstanceOf(EnvError);
    await s2.close();
  }, 120_000);

  it('a renderer stuck in a script between steps: the page watchdog breaks that session only; the browser lives on', async () => {
    const session = await env.newSession();
    const before = { ...env.hangs };
    const relaunches = env.relaunches;
    let stuckAt = 0;
    const policy = scriptedPolicy([{ action: 'open', text: 'Foodie' }], async (i) => {
      if (i !== 1) return;
      void session.page.evaluate('while (true) {}').catch(() => undefined);
      stuckAt = Date.now();
      await never;
    });
    const result = await runEpisode({ env: session, policy, blobs, app: 'food', instruction: 'Order.', seed: 5, maxSteps: 4, historyImages: 1, temperature: 0 });
    expect(result.status).toBe('degraded');
    expect(Date.now() - stuckAt).toBeLessThan(DETECT_BOUND_MS);
    expect(result.environmentFailure).toMatch(/liveness probe/);
    expect(env.hangs).toEqual({ browser: before.browser, page: before.page + 1 });
    expect(hangs.at(-1)).toMatchObject({ what: 'page', sessionId: session.id });
    await session.close(); // bounded even with a spinning renderer
    const other = await env.newSession();
    await other.reset({ app: 'food', seed: 6 });
    expect(env.relaunches).toBe(relaunches);
    await other.close();
  }, 90_000);

  it('a page that never settles (injected through the DevTools port): each step ends on the bounded settle, flagged unsettled; nothing is declared hung', async () => {
    const session = await env.newSession();
    const before = { ...env.hangs };
    await session.reset({ app: 'food', seed: 7 });
    const calm = await session.step({ action: 'open', text: 'Foodie' });
    expect(calm.metrics?.unsettled).toBeUndefined();
    const fault = await makePageRestless(debugPort, (url) => url.includes(server.baseUrl) && url === session.page.url());
    expect(fault).toBeDefined();
    try {
      const actions: Action[] = [
        { action: 'swipe', coordinate: [200, 700], coordinate2: [200, 300] },
        { action: 'system_button', button: 'Back' },
      ];
      for (const action of actions) {
        const t = Date.now();
        const r = await session.step(action);
        expect(r.metrics?.unsettled).toBe(true);
        // The settle wait is bounded at 1.5 s (default): the step is not stuck waiting for a quiet page.
        expect(r.metrics!.settleMs).toBeGreaterThanOrEqual(1400);
        expect(Date.now() - t).toBeLessThan(1500 + 6000);
      }
      expect(env.hangs).toEqual(before);
      expect(await session.healthy()).toBe(true);
    } finally {
      await fault?.release();
      await session.close();
    }
  }, 90_000);

  it('a full blob store (ENOSPC on writes) is a StorageError, not an environment or action failure: the episode throws (to be rerun) instead of ending degraded', async () => {
    let full = false;
    const enospc = (): Error => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const fullable: BlobStore = {
      kind: 'local',
      put: (bytes, o) => (full ? Promise.reject(enospc()) : blobs.put(bytes, o)),
      putAt: (key, bytes) => (full ? Promise.reject(enospc()) : blobs.putAt(key, bytes)),
      get: (key) => blobs.get(key),
      has: (key) => blobs.has(key),
      list: (prefix) => blobs.list(prefix),
      uri: (key) => blobs.uri(key),
    };
    const own = await createChromiumEnv({ appServer: server, blobs: fullable, browser: env.browser });
    const session = await own.newSession();
    try {
      const policy = scriptedPolicy([{ action: 'open', text: 'Foodie' }, { action: 'swipe', coordinate: [200, 700], coordinate2: [200, 300] }], (i) => {
        if (i === 1) full = true;
      });
      const err = await runEpisode({ env: session, policy, blobs, app: 'food', instruction: 'Order.', seed: 8, maxSteps: 4, historyImages: 1, temperature: 0 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(StorageError);
      expect((err as Error).message).toMatch(/ENOSPC/);
      // The session itself is fine: once space is back, it works on.
      full = false;
      expect(await session.healthy()).toBe(true);
      const r = await session.step({ action: 'system_button', button: 'Back' });
      expect(await blobs.has(r.observation.screenshotKey)).toBe(true);
    } finally {
      await session.close();
      await own.close();
    }
  }, 60_000);
});
