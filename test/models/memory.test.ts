import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPolicyRequest, parsePolicyPrompt } from '../../agents/gui-owl.js';
import { runEpisode } from '../../agents/episode.js';
import type { MobileAction } from '../../domain/action.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv } from '../../environments/chromium.js';
import { formatAssistantTurn, type SftSample } from '../../export/gui-owl-sft.js';
import { createChatModel } from '../../models/gateway.js';
import { createOcrEngine } from '../../models/ocr.js';
import { PolicyMemory, instructionKey, looseInstructionKey, screenSignature } from '../../models/reference/memory.js';
import { policyRole } from '../../models/reference/roles/policy.js';
import { REFERENCE_MODELS, referenceRoles } from '../../models/reference/roles.js';
import { startReferenceServer } from '../../models/reference/server.js';
import { nextPatch, parseAssistantTurn, parseJsonl, trainMemory } from '../../models/reference/trainer.js';
import type { OcrEngine, OcrLine } from '../../models/reference/types.js';
import { createLocalBlobStore } from '../../storage/blob-local.js';
import { dataUrl, renderScreen } from './fixtures/screens.js';

const SCREEN = { width: 412, height: 915 };
const line = (text: string, x: number, y: number, w = 160, h = 22): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.9 });

/** A list page: fixed title bar + tab bar, scrolling rows in between. */
function listScreen(scroll: number, clock = '9:41'): OcrLine[] {
  return [
    line(clock, 10, 8, 40, 16),
    line('Foodie', 20, 50, 90, 26),
    line('Pizza Roma', 20, 200 - scroll),
    line('Burger Place', 20, 300 - scroll),
    line('Burger Palace', 20, 400 - scroll),
    line('Home', 40, 860, 50, 18),
    line('Orders', 300, 860, 60, 18),
  ];
}

describe('policy memory (unit)', () => {
  it('signatures are stable under scroll and digit changes, and distinguish instructions', () => {
    expect(screenSignature(listScreen(0), SCREEN)).toBe(screenSignature(listScreen(120, "10:02"), SCREEN));
    const other = [line('Checkout', 20, 50, 90, 26), line('Home', 40, 860, 50, 18), line('Orders', 300, 860, 60, 18)];
    expect(screenSignature(other, SCREEN)).not.toBe(screenSignature(listScreen(0), SCREEN));
    expect(instructionKey('Show me  Burger Palace.')).toBe('show me burger palace');
    expect(looseInstructionKey('Add 2 Fries')).toBe(looseInstructionKey('add 3 fries'));
    expect(instructionKey('Add 2 Fries')).not.toBe(instructionKey('Add 3 Fries'));
  });

  it('replay re-grounds a remembered click on the moved target, and misses when the target is gone', () => {
    const m = new PolicyMemory('0.1.1');
    const click: MobileAction = { action: 'click', coordinate: [60, 411] };
    m.add({ instruction: 'Bring up the BP joint', lines: listScreen(0), screen: SCREEN, action: click, conclusion: 'Tapped "Burger Palace". [goal 2/2 done]' });
    const hit = m.lookup('bring up the BP joint.', listScreen(120), SCREEN);
    expect(hit?.action).toEqual({ action: 'click', coordinate: [60, 291] });
    expect(hit?.conclusion).toBe('Tapped "Burger Palace". [goal 2/2 done]');
    const gone = listScreen(0).filter((l) => l.text !== 'Burger Palace');
    expect(m.lookup('Bring up the BP joint', gone, SCREEN)).toBeUndefined();
    expect(m.lookup('Something else', listScreen(0), SCREEN)).toBeUndefined();
    // Loose key: numbers masked.
    m.add({ instruction: 'Add 2 Fries', lines: listScreen(0), screen: SCREEN, action: { action: 'wait', time: 1 }, conclusion: 'Waited.' });
    expect(m.lookup('Add 5 Fries', listScreen(0), SCREEN)).toMatchObject({ match: 'loose', action: { action: 'wait' } });
  });

  it('round-trips through JSON with version and provenance', () => {
    const m = new PolicyMemory('0.1.2', { datasets: ['foodie@3'], samples: 2, trainedAt: '2024-01-01T00:00:00.000Z' });
    m.add({ instruction: 'Tap X', lines: listScreen(0), screen: SCREEN, action: { action: 'click', coordinate: [60, 311] }, conclusion: 'c1' });
    m.add({ instruction: 'Tap X', lines: listScreen(0), screen: SCREEN, action: { action: 'click', coordinate: [70, 312] }, conclusion: 'c1' });
    const json = JSON.parse(JSON.stringify(m.toJSON())) as unknown;
    const back = PolicyMemory.fromJSON(json);
    expect(back.version).toBe('0.1.2');
    expect(back.provenance).toEqual({ datasets: ['foodie@3'], samples: 2, trainedAt: '2024-01-01T00:00:00.000Z' });
    expect(back.toJSON()).toEqual(m.toJSON());
    expect(back.lookup('Tap X', listScreen(0), SCREEN)?.count).toBe(2);
    expect(() => PolicyMemory.fromJSON({ format: 'nope' })).toThrow();
  });

  it('trainer helpers: assistant turn parsing and version bump', () => {
    const turn = parseAssistantTurn('Thought: t\nConclusion: Tapped "A". [goal 1/2 done]\n<tool_call>\n{"name":"mobile_use","arguments":{"action":"click","coordinate":[1,2]}}\n</tool_call>');
    expect(turn).toEqual({ thought: 't', conclusion: 'Tapped "A". [goal 1/2 done]', action: { action: 'click', coordinate: [1, 2] } });
    expect(parseAssistantTurn('no call')).toBeUndefined();
    expect(nextPatch('0.1.0')).toBe('0.1.1');
    expect(nextPatch('1.2.9')).toBe('1.2.10');
  });

  it('the policy consults memory first at T = 0 and sometimes skips it at T > 0', async () => {
    const png = await renderScreen([{ text: 'Foodie', x: 20, y: 60, size: 24, bold: true }, { text: 'Burger Place', x: 20, y: 300 }]);
    const lines: OcrLine[] = [line('Foodie', 20, 50, 90, 26), line('Burger Place', 20, 290)];
    const ocr: OcrEngine = { recognize: () => Promise.resolve(lines) };
    const instruction = 'Zork the blorp';
    const memory = new PolicyMemory('0.1.1');
    memory.add({ instruction, lines, screen: SCREEN, action: { action: 'terminate', status: 'success' }, conclusion: 'Done. [all goals done]' });
    const request = { model: 'ref-policy', ...buildPolicyRequest({ instruction, history: [], screenshots: [{ dataUrl: dataUrl(png) }], screen: SCREEN }) };
    let seed = 1;
    const rng = (): (() => number) => {
      let s = seed++ * 7919;
      return () => ((s = (s * 16807) % 2147483647) / 2147483647);
    };
    const cold = await policyRole(request, { ocr, random: rng() });
    expect(cold.content).not.toContain('Remembered');
    const warm = await policyRole(request, { ocr, random: rng(), memory });
    expect(warm.content).toContain('Remembered');
    expect(warm.content).toContain('Conclusion: Done. [all goals done]');
    let skipped = 0;
    for (let i = 0; i < 40; i++) {
      const r = await policyRole({ ...request, temperature: 1 }, { ocr, random: rng(), memory });
      if (!String(r.content).includes('Remembered')) skipped++;
    }
    expect(skipped).toBeGreaterThan(5);
    expect(skipped).toBeLessThan(35);
  });
});

describe('policy memory (integration: Chromium + OCR)', () => {
  const INSTRUCTION = 'Bring up the burger joint rated 4.6 in Foodie';
  const CHECKER = { app: 'food', family: 'view_menu', params: { restaurant: 'Burger Palace' } };
  let dir: string;
  let appServer: AppServer;
  let env: ChromiumEnv;
  let ocr: OcrEngine;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trajforge-memory-'));
    appServer = await startAppServer();
    ocr = await createOcrEngine();
  });
  afterAll(async () => {
    await env?.close();
    await appServer?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a query the heuristic fails succeeds after training on its successful steps', async () => {
    const blobs = createLocalBlobStore(dir);
    env = await createChromiumEnv({ appServer, blobs });
    const episode = async (memory?: PolicyMemory): Promise<{ success: boolean; steps: number }> => {
      const server = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(memory ? { memory } : {}), ocr });
      const session = await env.newSession();
      try {
        const policy = createChatModel({ baseUrl: server.baseUrl, model: REFERENCE_MODELS.policy, maxRetries: 0 }, { cache: false });
        const result = await runEpisode({ env: session, policy, blobs, app: 'food', instruction: INSTRUCTION, seed: 1, maxSteps: 8, historyImages: 1, temperature: 0 });
        const check = await session.check(CHECKER);
        if (process.env.DEBUG_MEMORY) console.log(result.steps.map((s) => `${JSON.stringify(s.action)} ${s.conclusion}`).join('\n'));
        return { success: check.success, steps: result.steps.length };
      } finally {
        await session.close();
        await server.close();
      }
    };

    // 1. The heuristic cannot read this instruction: it fails.
    expect((await episode()).success).toBe(false);

    // 2. A hand-built dataset of the successful steps (demonstrated directly on the phone), in the export format.
    const session = await env.newSession();
    const samples: SftSample[] = [];
    try {
      let obs = await session.reset({ app: 'food', seed: 1 });
      const history: string[] = [];
      const demo = async (plan: (lines: OcrLine[]) => { action: MobileAction; conclusion: string }): Promise<void> => {
        const lines = await ocr.recognize(await blobs.get(obs.screenshotKey));
        const { action, conclusion } = plan(lines);
        const request = buildPolicyRequest({ instruction: INSTRUCTION, history: [...history], screenshots: [{ dataUrl: blobs.uri(obs.screenshotKey) }], screen: { width: obs.width, height: obs.height } });
        samples.push({
          id: `demo#${samples.length}`,
          messages: [
            ...request.messages.map((m) => ({ role: m.role as 'system' | 'user', content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => (p.type === 'text' ? p.text : '<image>')).join('\n') })),
            { role: 'assistant' as const, content: formatAssistantTurn({ reasoning: 'Demonstration.', conclusion, action } as Parameters<typeof formatAssistantTurn>[0]) },
          ],
          images: [blobs.uri(obs.screenshotKey)],
          image_keys: [obs.screenshotKey],
          tools: '[]',
          meta: { cycleId: 'demo', modelVersion: 'human', criticVersion: '-', dagVersion: '-', configHash: '-', rollout_id: 'demo', step: samples.length, query_id: 'q', app: 'food', critic_score: null, annotation: null },
        });
        history.push(conclusion);
        if (action.action !== 'terminate') obs = (await session.step(action)).observation;
      };
      await demo(() => ({ action: { action: 'open', text: 'Foodie' }, conclusion: 'Opened the Foodie app. [goal 1/2 done]' }));
      // Burger Palace is below the fold (only the near-duplicate Burger Place is visible): scroll first.
      await demo(() => ({ action: { action: 'swipe', coordinate: [206, 700], coordinate2: [206, 300] }, conclusion: 'Swiped up to look for the restaurant. [goal 2/2: scroll 1]' }));
      await demo((lines) => {
        const target = lines.find((l) => l.text.replace(/\s/g, '').toLowerCase() === 'burgerpalace');
        expect(target, lines.map((l) => l.text).join(' | ')).toBeDefined();
        const c: [number, number] = [Math.round(target!.box.x + target!.box.w / 2), Math.round(target!.box.y + target!.box.h / 2)];
        return { action: { action: 'click', coordinate: c }, conclusion: `Tapped "${target!.text}". [goal 2/2 done]` };
      });
      await demo(() => ({ action: { action: 'terminate', status: 'success' }, conclusion: 'Task complete: the menu of Burger Palace is open. [all goals done]' }));
      expect(await session.check(CHECKER)).toMatchObject({ success: true });
    } finally {
      await session.close();
    }
    const key = 'datasets/demo/v1/train.jsonl';
    await blobs.putAt(key, Buffer.from(samples.map((s) => JSON.stringify(s)).join('\n') + '\n'));

    // 3. Train: read the JSONL back from the blob store, OCR each screenshot, build the memory.
    const trained = await trainMemory({
      samples: parseJsonl(Buffer.from(await blobs.get(key)).toString('utf8')),
      blobs,
      ocr,
      version: '0.1.1',
      dataset: 'demo@1',
      trainedAt: '2024-01-01T00:00:00.000Z',
      parsePrompt: parsePolicyPrompt,
    });
    expect(trained).toMatchObject({ samples: 4, used: 4, skipped: [] });
    const memory = PolicyMemory.fromJSON(JSON.parse(JSON.stringify(trained.memory.toJSON())));

    // 4. The same query with memory at T = 0: the checker says success.
    const after = await episode(memory);
    expect(after.success).toBe(true);
  });
});
