import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEpisode, type EpisodeResult } from '../../agents/episode.js';
import type { MobileAction } from '../../domain/action.js';
import type { Query } from '../../domain/entities.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { loadDags } from '../../environments/app-world.js';
import { createChromiumEnv, type ChromiumEnv, type ChromiumSession } from '../../environments/chromium.js';
import { createChatModel } from '../../models/gateway.js';
import { createOcrEngine } from '../../models/ocr.js';
import { PolicyMemory, intentWords, progressKey, slotEntities } from '../../models/reference/memory.js';
import { REFERENCE_MODELS, referenceRoles } from '../../models/reference/roles.js';
import { startReferenceServer, type ReferenceServer } from '../../models/reference/server.js';
import type { OcrEngine, OcrLine } from '../../models/reference/types.js';
import { generateQueries } from '../../query-gen/sample.js';
import type { BlobStore } from '../../domain/ports.js';
import { createLocalBlobStore } from '../../storage/blob-local.js';

const SCREEN = { width: 412, height: 915 };
const line = (text: string, x: number, y: number, w = 160, h = 22): OcrLine => ({ text, box: { x, y, w, h }, confidence: 0.9 });
const chats = (names: string[]): OcrLine[] => [
  line('New chat', 20, 40, 120, 26),
  ...names.map((n, i) => line(n, 20, 200 + 80 * i)),
  line('Chats', 40, 860, 50, 18),
  line('Settings', 300, 860, 60, 18),
];

describe('policy memory generalisation (unit)', () => {
  it('reads intent words without entities, slot entities without the app, and the progress marker', () => {
    expect(intentWords('Delete the note Gift ideas; I do not need it any more.')).toEqual(intentWords('Delete the note Travel checklist.'));
    expect(intentWords('Could you please send Mom a message saying "hi"?')).toEqual(intentWords('Send Lena Fisher a message saying "see you".'));
    expect(intentWords('Delete the note Gift ideas')).not.toEqual(intentWords('Pin my note Gift ideas to the top'));
    expect(slotEntities('Send Mom a message saying "hi" in Messages')).toEqual(['hi', 'Mom']);
    expect(progressKey([])).toBe('start');
    expect(progressKey(['Opened the app. [goal 1/6 done]', 'Swiped up. [goal 2/3: scroll 4]'])).toBe('goal 2/3: scroll #');
  });

  it('a step learned for one instruction transfers to another of the same kind: new entity, new wording', () => {
    const m = new PolicyMemory('0.1.1');
    const history = ['Opened the Messages app. [goal 1/6 done]', 'Tapped "New chat". [goal 2/6 done]'];
    m.add({
      instruction: 'Send Mom a message saying "Thanks for dinner".',
      lines: chats(['Mom', 'Lena Fisher', 'Bob']),
      screen: SCREEN,
      action: { action: 'click', coordinate: [40, 211] },
      conclusion: 'Tapped "Mom". [goal 4/6 done]',
      thought: 'Mom is the recipient.',
      history,
    });
    m.add({
      instruction: 'Send Mom a message saying "Thanks for dinner".',
      lines: chats(['Mom', 'Lena Fisher', 'Bob']),
      screen: SCREEN,
      action: { action: 'type', text: 'Thanks for dinner' },
      conclusion: 'Typed "Thanks for dinner". [goal 5/6 done]',
      history: [...history, 'Tapped "Mom". [goal 4/6 done]', 'Tapped the field. [goal 5/6: focused]'],
    });
    expect(m.generalSize).toBe(2);
    // Other recipient, other wording, rows in another order: tap the row the new request names.
    const hit = m.lookup('Could you send Lena Fisher a message saying "See you at 8"?', chats(['Bob', 'Mom', 'Lena Fisher']), SCREEN, history);
    expect(hit).toMatchObject({ match: 'general', conclusion: 'Tapped "Lena Fisher". [goal 4/6 done]', thought: 'Lena Fisher is the recipient.' });
    expect((hit!.action as { coordinate: [number, number] }).coordinate[1]).toBeGreaterThan(340);
    expect((hit!.action as { coordinate: [number, number] }).coordinate[1]).toBeLessThan(384);
    // The typed text is the new request's text, at the progress where it was typed.
    const typed = m.lookup('Send Bob a message saying "On my way".', chats(['Mom']), SCREEN, [...history, 'Tapped "Bob". [goal 4/6 done]', 'Tapped the field. [goal 5/6: focused]']);
    expect(typed).toMatchObject({ match: 'general', action: { action: 'type', text: 'On my way' }, conclusion: 'Typed "On my way". [goal 5/6 done]' });
    // No transfer: the named row is not on screen; another kind of request; another progress; no history given.
    expect(m.lookup('Send Zoe a message saying "hi".', chats(['Mom', 'Bob']), SCREEN, history)).toBeUndefined();
    expect(m.lookup('Delete the chat with Bob.', chats(['Mom', 'Bob']), SCREEN, history)).toBeUndefined();
    expect(m.lookup('Send Bob a message saying "hi".', chats(['Mom', 'Bob']), SCREEN, ['Opened the Messages app. [goal 1/6 done]'])).toBeUndefined();
    expect(m.lookup('Send Bob a message saying "hi".', chats(['Mom', 'Bob']), SCREEN)).toBeUndefined();
    // A typed text not made of the request's entities is not generalised (it would leak one task into another).
    m.add({ instruction: 'Send Mom a note', lines: chats(['Mom']), screen: SCREEN, action: { action: 'type', text: 'hello there' }, conclusion: 'Typed.', history: [] });
    expect(m.lookup('Send Bob a note', chats(['Mom']), SCREEN, [])).toBeUndefined();
    // Round trip keeps the generalised part.
    const back = PolicyMemory.fromJSON(JSON.parse(JSON.stringify(m.toJSON())));
    expect(back.generalSize).toBe(m.generalSize);
    expect(back.lookup('Could you send Lena Fisher a message saying "See you at 8"?', chats(['Bob', 'Mom', 'Lena Fisher']), SCREEN, history)).toEqual(hit);
  });
});

/**
 * Held-out transfer on the real apps (Chromium + OCR, checker ground truth): a memory trained on the episodes the
 * policy itself claimed successful for one set of generated instructions lifts the checker-judged success, at
 * T > 0 (where the heuristic's sampling errs), on a disjoint set of instructions drawn with another seed.
 */
describe('policy memory generalisation (held-out, Chromium + OCR)', () => {
  const APPS = ['messages', 'notes'];
  const TEMPERATURE = 0.8;
  let dir: string;
  let appServer: AppServer;
  let env: ChromiumEnv;
  let ocr: OcrEngine;
  let blobs: BlobStore;
  let sessions: ChromiumSession[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trajforge-memgen-'));
    appServer = await startAppServer();
    ocr = await createOcrEngine();
    blobs = createLocalBlobStore(dir);
    env = await createChromiumEnv({ appServer, blobs });
    sessions = [await env.newSession(), await env.newSession()];
  }, 120_000);
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => undefined);
    await env?.close();
    await appServer?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function rollAll(queries: Query[], memory: PolicyMemory | undefined, temperature: number, seed: number): Promise<{ query: Query; result: EpisodeResult; success: boolean }[]> {
    const server: ReferenceServer = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(memory ? { memory } : {}), ocr });
    const policy = createChatModel({ baseUrl: server.baseUrl, model: REFERENCE_MODELS.policy, maxRetries: 0 }, { cache: false });
    const out: { query: Query; result: EpisodeResult; success: boolean }[] = [];
    let next = 0;
    try {
      await Promise.all(
        sessions.map(async (session) => {
          for (let i = next++; i < queries.length; i = next++) {
            const query = queries[i]!;
            const result = await runEpisode({ env: session, policy, blobs, app: query.app, instruction: query.instruction, seed: seed * 1000 + i, maxSteps: 12, historyImages: 1, temperature });
            const check = await session.check(query.checker);
            out.push({ query, result, success: check.success && !result.environmentFailure });
          }
        }),
      );
    } finally {
      await server.close();
    }
    return out;
  }

  it('training on one set of instructions lifts checker-judged success on a disjoint held-out set', async () => {
    const dags = loadDags();
    const train = generateQueries({ dags, count: 10, seed: 11, apps: APPS }).queries;
    const heldOut = generateQueries({ dags, count: 8, seed: 12, apps: APPS }).queries;
    const trainSet = new Set(train.map((q) => q.instruction));
    const disjoint = heldOut.filter((q) => !trainSet.has(q.instruction));
    expect(disjoint.length).toBeGreaterThanOrEqual(6);

    // Training data: the steps of the episodes the policy claimed successful (no checker: ground truth never trains).
    const memory = new PolicyMemory('0.1.1');
    for (const { query, result } of await rollAll(train, undefined, 0, 1)) {
      if (!(result.status === 'terminated' && result.outcome === 'success')) continue;
      const history: string[] = [];
      for (const step of result.steps) {
        if (!step.action) continue;
        const lines = await ocr.recognize(await blobs.get(step.before.screenshotKey));
        memory.add({ instruction: query.instruction, lines, screen: { width: step.before.width, height: step.before.height }, action: step.action as MobileAction, conclusion: step.conclusion, thought: step.reasoning, history: [...history] });
        history.push(step.conclusion);
      }
    }
    expect(memory.generalSize).toBeGreaterThan(5);

    const rate = (xs: { success: boolean }[]): number => xs.filter((x) => x.success).length / xs.length;
    const before: number[] = [];
    const after: number[] = [];
    let generalHits = 0;
    for (const seed of [1, 2]) {
      before.push(rate(await rollAll(disjoint, undefined, TEMPERATURE, seed)));
      const withMemory = await rollAll(disjoint, memory, TEMPERATURE, seed);
      after.push(rate(withMemory));
      generalHits += withMemory.flatMap((r) => r.result.steps).filter((s) => s.reasoning.includes('general match')).length;
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`held-out success at T=${TEMPERATURE}: base ${before.map((r) => r.toFixed(2)).join(', ')} → memory ${after.map((r) => r.toFixed(2)).join(', ')} (${generalHits} generalised steps)`);
    expect(generalHits).toBeGreaterThan(0);
    expect(mean(after)).toBeGreaterThan(mean(before));
  }, 600_000);
});
