import { afterAll, beforeAll, expect } from 'vitest';
import type { Locator } from 'playwright-core';
import type { MobileAction } from '../../domain/action.js';
import type { CheckerSpec } from '../../domain/entities.js';
import type { AppContext, AppResponse } from '../../environments/app-types.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { checkApp, getApp } from '../../environments/app-world.js';
import { createChromiumEnv, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import { centerOf, revealBySwiping } from '../../environments/scripted.js';
import { MemoryBlobStore } from './memory-blobs.js';

/**
 * A Chromium phone for one built-in app's tests (the app server and browser start before the file's tests and
 * close after them): steps, taps that scroll the target into view first, exact-text locators, the app's checker.
 * Tests may read the page for coordinates; agents only get pixels.
 */
export function usePhone(appId: string, title: string) {
  let server: AppServer;
  let env: ChromiumEnv;
  beforeAll(async () => {
    server = await startAppServer();
    env = await createChromiumEnv({ appServer: server, blobs: new MemoryBlobStore(), maxWaitMs: 300 });
  }, 30_000);
  afterAll(async () => {
    await env?.close();
    await server?.close();
  });
  const step = async (s: ChromiumSession, a: MobileAction): Promise<void> => void (await s.step(a));
  return {
    step,
    async tap(s: ChromiumSession, loc: Locator): Promise<void> {
      await revealBySwiping(s.page, loc, (a) => step(s, a));
      await step(s, { action: 'click', coordinate: await centerOf(loc) });
    },
    /** The visible element whose whole text is `text`. */
    exact: (s: ChromiumSession, sel: string, text: string): Locator =>
      s.page.locator(sel).filter({ hasText: new RegExp(`^\\s*${text.replace(/[()]/g, '\\$&')}\\s*$`) }).filter({ visible: true }).first(),
    spec: (family: string, params: Record<string, string>): CheckerSpec => ({ app: appId, family, params }),
    async check(s: ChromiumSession, sp: CheckerSpec): Promise<boolean> {
      const w = await s.checkerState();
      return checkApp(w[appId], sp, w).success;
    },
    /** A fresh session on the home screen with the app opened from the launcher. */
    async open(seed = 1): Promise<ChromiumSession> {
      const s = await env.newSession();
      await s.reset({ app: 'food', seed });
      await step(s, { action: 'open', text: title });
      return s;
    },
  };
}

/**
 * Drives a built-in app through its request handler (no browser): GET pages and POST its API, like the page scripts
 * do, on the state of `seed`; `run` checks a family's spec against that state.
 */
export function directApp<S>(appId: string, seed: number) {
  const app = getApp(appId)!;
  const st = app.initialState(seed) as S;
  const ctx: AppContext = { sessionId: 't', base: `/s/t/app/${appId}`, launcherUrl: '/s/t' };
  const send = (method: string, path: string, body?: unknown): AppResponse => {
    const [p, q] = path.split('?');
    return app.handle(st, { method, path: p ?? '/', query: new URLSearchParams(q ?? ''), body }, ctx);
  };
  const page = (path: string): string => {
    const r = send('GET', path);
    if (!('type' in r)) throw new Error(`${path} redirected to ${r.redirect}`);
    expect(r.status ?? 200, path).toBe(200);
    return r.body;
  };
  const api = (action: string, body: Record<string, unknown>): Record<string, unknown> => {
    const r = send('POST', `/api/${action}`, body);
    if (!('type' in r)) throw new Error(`api ${action} redirected`);
    return JSON.parse(r.body) as Record<string, unknown>;
  };
  const run = (family: string, params: Record<string, string>) => checkApp(st, { app: appId, family, params });
  return { st, send, page, api, run };
}
