import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppModule } from '../../environments/app-types.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import { createCrawlerValidator, discoverApp, discoveryRecall } from '../../environments/crawler.js';
import { foodApp } from '../../environments/apps/food/index.js';
import type { FoodState } from '../../environments/apps/food/state.js';
import { MemoryBlobStore } from '../environments/memory-blobs.js';

/** A copy of the Foodie module whose HTML is rewritten on the way out (an app update that broke the DAG). */
function brokenFood(rewrite: (html: string, path: string) => string): AppModule {
  return {
    ...(foodApp as AppModule),
    handle(state, req, ctx) {
      const res = foodApp.handle(state as FoodState, req, ctx);
      return 'body' in res && res.type === 'html' ? { ...res, body: rewrite(res.body, req.path) } : res;
    },
  };
}

const dags = [foodApp.dag];
const order = {
  app: 'food',
  path: ['launcher', 'home', 'restaurant', 'cart', 'checkout', 'confirm_dialog', 'order_placed'],
  slots: { restaurant: 'Noodle Bar', dish: 'Pad Thai', quantity: '2', address: '12 Baker Street', payment: 'Card' },
};

describe('interface validation (crawler over the live app)', () => {
  const blobs = new MemoryBlobStore();
  let env: ChromiumEnv;
  const servers: AppServer[] = [];
  const sessions: ChromiumSession[] = [];

  beforeAll(async () => {
    const first = await startAppServer();
    servers.push(first);
    env = await createChromiumEnv({ appServer: first, blobs });
  }, 60_000);
  afterAll(async () => {
    for (const s of sessions) await s.close();
    await env?.close();
    for (const s of servers) await s.close();
  });

  /** A validator on a server running `app` (sharing the browser). */
  async function validatorFor(app: AppModule) {
    const server = await startAppServer({ apps: [app] });
    servers.push(server);
    const e = await createChromiumEnv({ appServer: server, blobs, browser: env.browser });
    const session = await e.newSession();
    sessions.push(session);
    return createCrawlerValidator({ session, blobs, dags });
  }

  it('validates queries on the unmodified app, including a restaurant below the fold and search', async () => {
    const session = await env.newSession();
    sessions.push(session);
    const v = createCrawlerValidator({ session, blobs, dags });
    expect(await v.validate(order)).toEqual({ valid: true });
    expect(await v.validate({ app: 'food', path: ['launcher', 'home', 'search_results', 'restaurant'], slots: { restaurant: 'Sushi Zone' } })).toEqual({ valid: true });
    for (const restaurant of ['The Waffle Spot', 'Burger Place']) {
      expect(await v.validate({ app: 'food', path: ['launcher', 'home', 'restaurant'], slots: { restaurant } })).toEqual({ valid: true });
    }
  });

  it('catches a renamed button (missing_control on the cart page)', async () => {
    const v = await validatorFor(brokenFood((html) => html.replace('>Go to checkout<', '>Proceed to payment<')));
    const r = await v.validate(order);
    expect(r.valid).toBe(false);
    expect(r.failedAt).toMatchObject({ page: 'cart', reason: 'missing_control' });
  });

  it('catches a removed page (missing_page: the menu section is gone)', async () => {
    const v = await validatorFor(brokenFood((html, path) => (path.startsWith('/r/') ? html.replace('<span>Menu</span>', '<span>Dishes</span>') : html)));
    const r = await v.validate({ app: 'food', path: ['launcher', 'home', 'restaurant'], slots: { restaurant: 'Pizza Roma' } });
    expect(r.failedAt).toMatchObject({ page: 'restaurant', reason: 'missing_page' });
  });

  it('catches a dish taken off the menu (missing_slot_value) and a stale infeasible-looking query', async () => {
    const v = await validatorFor(brokenFood((html) => html.replace(/<div class="dish" data-dish="pad_thai">[\s\S]*?<\/div><\/div>\s*(?=<div class="dish"|<div class="spacer")/, '')));
    const r = await v.validate(order);
    expect(r.failedAt).toMatchObject({ page: 'restaurant', reason: 'missing_slot_value' });
    // On the real app, a dish from another menu is missing too: that is how infeasible queries are confirmed.
    const session = await env.newSession();
    sessions.push(session);
    const real = createCrawlerValidator({ session, blobs, dags });
    const bad = await real.validate({ ...order, slots: { ...order.slots, dish: 'Butter Chicken' } });
    expect(bad.failedAt).toMatchObject({ page: 'restaurant', reason: 'missing_slot_value' });
  });

  it('discovers a draft DAG of Foodie with high page and edge recall', async () => {
    const session = await env.newSession();
    sessions.push(session);
    const found = await discoverApp({ session, blobs, app: 'food', title: 'Foodie', maxStates: 20, maxActions: 200 });
    const recall = discoveryRecall(foodApp.dag, found);
    console.log(
      `discover food: ${found.pages.length} pages, ${found.dag.transitions.length} transitions, ${found.states} states, ${found.actions} actions; ` +
        `page recall ${(recall.pageRecall * 100).toFixed(0)}% (missed ${recall.missedPages.join(', ') || 'none'}), ` +
        `edge recall ${(recall.edgeRecall * 100).toFixed(0)}% (missed ${recall.missedEdges.join(', ') || 'none'})`,
    );
    expect(recall.pageRecall).toBeGreaterThanOrEqual(0.6);
    expect(recall.edgeRecall).toBeGreaterThanOrEqual(0.4);
  }, 240_000);
});
