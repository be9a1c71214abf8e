/**
 * Model-gateway overhead and throughput against the built-in reference server, in one run.
 *
 *   npx tsx bench/gateway.ts [--calls 200]
 *
 * 1. Overhead per call: the same cheap text request (role `ref-query-refine`) sent N times by a raw `fetch`
 *    and N times through the gateway (validation, limiter, retries wrapper, usage accounting, call record
 *    stored in the blob store); the difference of the medians is the gateway's cost.
 * 2. Throughput at concurrency 1 / 8 / 32 for policy requests carrying a real phone screenshot (the server's
 *    OCR cache is warm, distinct seeds defeat the response cache), so the figure is server + gateway.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildPolicyRequest } from '../agents/gui-owl.js';
import { startAppServer } from '../environments/app-server.js';
import { createChromiumEnv } from '../environments/chromium.js';
import { createChatModel, UsageMeter } from '../models/gateway.js';
import { createOcrEngine } from '../models/ocr.js';
import { referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';
import { createLocalBlobStore } from '../storage/blob-local.js';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '200' } } });
const CALLS = Number(values.calls);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? NaN;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'trajforge-gw-'));
  const blobs = createLocalBlobStore(dir);
  const ocr = await createOcrEngine();
  const server = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
  try {
    // 1. overhead on a cheap text role
    const refine = {
      messages: [
        { role: 'system' as const, content: 'Rewrite the explicit navigation instruction as a natural request.' },
        { role: 'user' as const, content: JSON.stringify({ appTitle: 'Foodie', instruction: 'Open Foodie, tap Sushi Zen, add 2 Salmon Nigiri to the cart', slots: { restaurant: 'Sushi Zen', dish: 'Salmon Nigiri', quantity: '2' } }) },
      ],
      temperature: 0.7,
    };
    const raw: number[] = [];
    const viaGateway: number[] = [];
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'ref-query-refine' }, { blobs, cache: false, usage: new UsageMeter() });
    for (let i = 0; i < CALLS; i++) {
      const body = JSON.stringify({ ...refine, model: 'ref-query-refine', seed: i });
      let t = performance.now();
      const res = await fetch(`${server.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.json();
      raw.push(performance.now() - t);
      t = performance.now();
      await model.complete({ ...refine, seed: i });
      viaGateway.push(performance.now() - t);
    }

    // 2. throughput with a real screenshot
    const apps = await startAppServer({});
    const env = await createChromiumEnv({ appServer: apps, blobs });
    const session = await env.newSession();
    const obs = await session.reset({ app: 'food', seed: 1 });
    await session.close();
    await env.close();
    await apps.close();
    const png = await blobs.get(obs.screenshotKey);
    const dataUrl = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
    const request = buildPolicyRequest({
      instruction: 'Show me the menu of Sushi Zen in Foodie.',
      history: [],
      screenshots: [{ dataUrl }],
      screen: { width: obs.width, height: obs.height },
    });
    const policy = createChatModel({ baseUrl: server.baseUrl, model: 'ref-policy', concurrency: 64 }, { blobs, cache: false, usage: new UsageMeter() });
    await policy.complete({ ...request, seed: 0 }); // warm the OCR cache
    const levels: { c: number; rps: number; p50: number; p95: number }[] = [];
    let seed = 1;
    for (const c of [1, 8, 32]) {
      const n = Math.max(c * 4, 32);
      const lat: number[] = [];
      const t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: c }, async () => {
          while (next < n) {
            next++;
            const t = performance.now();
            await policy.complete({ ...request, temperature: 0.7, seed: seed++ });
            lat.push(performance.now() - t);
          }
        }),
      );
      levels.push({ c, rps: n / ((performance.now() - t0) / 1000), p50: median(lat), p95: p95(lat) });
    }

    console.log(`\nbench: model gateway vs raw fetch, reference server on 127.0.0.1, ${CALLS} calls`);
    console.log(`overhead   raw fetch p50 ${median(raw).toFixed(2)} ms · gateway p50 ${median(viaGateway).toFixed(2)} ms · overhead ${(median(viaGateway) - median(raw)).toFixed(2)} ms/call (p95 ${(p95(viaGateway) - p95(raw)).toFixed(2)} ms)`);
    console.log('throughput policy requests with a 412×915 screenshot (OCR cache warm, response cache off):');
    for (const l of levels) console.log(`  concurrency ${String(l.c).padStart(2)}: ${l.rps.toFixed(1).padStart(6)} req/s   p50 ${l.p50.toFixed(0)} ms   p95 ${l.p95.toFixed(0)} ms`);
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
