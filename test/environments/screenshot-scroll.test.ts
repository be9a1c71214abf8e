import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv } from '../../environments/chromium.js';
import { MemoryBlobStore } from './memory-blobs.js';

/** Regression: a screenshot must show the visible viewport after scrolling, fixed bars at the top. */
describe('screenshots of a scrolled page', () => {
  let server: AppServer;
  let env: ChromiumEnv;
  const blobs = new MemoryBlobStore();

  beforeAll(async () => {
    server = await startAppServer({});
    env = await createChromiumEnv({ appServer: server, blobs, uiTree: false });
  });
  afterAll(async () => {
    await env?.close();
    await server?.close();
  });

  it.each([1, 2])('keeps the status bar at the top after a swipe (deviceScaleFactor %i)', async (dsf) => {
    const e = dsf === 1 ? env : await createChromiumEnv({ appServer: server, blobs, browser: env.browser, deviceScaleFactor: dsf, uiTree: false });
    const s = await e.newSession();
    try {
      await s.reset({ app: 'food', seed: 1 });
      await s.step({ action: 'open', text: 'Foodie' });
      const { observation } = await s.step({ action: 'swipe', coordinate: [206 * dsf, 700 * dsf], coordinate2: [206 * dsf, 300 * dsf] });
      expect(await s.page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
      expect([observation.width, observation.height]).toEqual([412 * dsf, 915 * dsf]);
      const { data, info } = await sharp(Buffer.from(await blobs.get(observation.screenshotKey))).raw().toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number): number[] => {
        const i = (y * info.width + x) * info.channels;
        return [data[i]!, data[i + 1]!, data[i + 2]!];
      };
      // The status bar (dark) and the app bar (red) are fixed: they must be at the top, not scrolled away.
      expect(Math.max(...pixel(200 * dsf, 3 * dsf))).toBeLessThan(60);
      const [r, g, b] = pixel(200 * dsf, 45 * dsf);
      expect(r).toBeGreaterThan(180);
      expect(g).toBeLessThan(90);
      expect(b).toBeLessThan(90);
    } finally {
      await s.close();
      if (e !== env) await e.close();
    }
  });
});
