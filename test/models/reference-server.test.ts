import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPolicyRequest, parsePolicyReply } from '../../agents/gui-owl.js';
import type { ChatRequest, ChatResponse } from '../../domain/openai.js';
import { createChatModel, ModelError } from '../../models/gateway.js';
import { createOcrEngine } from '../../models/ocr.js';
import { referenceRoles } from '../../models/reference/roles.js';
import { startReferenceServer, type ReferenceServer } from '../../models/reference/server.js';
import type { OcrEngine, OcrLine } from '../../models/reference/types.js';
import { CHECKOUT, LAUNCHER, MENU, ORDER_PLACED, RESTAURANTS, dataUrl, renderScreen, type TextItem } from './fixtures/screens.js';

const SCREEN = { width: 412, height: 915 };
let server: ReferenceServer;
let ocr: OcrEngine;

beforeAll(async () => {
  ocr = await createOcrEngine();
  server = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
});
afterAll(async () => {
  await server?.close();
});

async function post(body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function policyRequest(items: TextItem[], instruction: string, history: string[] = [], extra: Partial<ChatRequest> = {}): Promise<ChatRequest> {
  const png = await renderScreen(items);
  return { model: 'ref-policy', ...buildPolicyRequest({ instruction, history, screenshots: [{ dataUrl: dataUrl(png) }], screen: SCREEN }), ...extra };
}

async function ask(items: TextItem[], instruction: string, history: string[] = [], extra: Partial<ChatRequest> = {}): Promise<ChatResponse> {
  const { status, json } = await post(await policyRequest(items, instruction, history, extra));
  expect(status, JSON.stringify(json)).toBe(200);
  return json as unknown as ChatResponse;
}

const inside = (p: readonly [number, number], l: OcrLine): boolean =>
  p[0] >= l.box.x && p[0] <= l.box.x + l.box.w && p[1] >= l.box.y && p[1] <= l.box.y + l.box.h;

const TASK = 'Open Foodie, then select Burger Palace, add 2 Fries, enter the address 12 Main St, pay with Cash and place the order';

describe('reference server: HTTP surface', () => {
  it('serves /health and /v1/models listing the roles', async () => {
    const health = (await (await fetch(server.baseUrl.replace(/\/v1$/, '/health'))).json()) as { status: string };
    expect(health.status).toBe('ok');
    const models = (await (await fetch(`${server.baseUrl}/models`)).json()) as { object: string; data: { id: string }[] };
    expect(models.object).toBe('list');
    expect(models.data.map((m) => m.id).sort()).toEqual(
      [
        'ref-policy', 'ref-query-refine', 'ref-query-synth', 'ref-step-critic', 'ref-traj-critic-mm', 'ref-traj-critic-text',
        // Multi-agent roles (models/reference/roles/multi-agent.ts).
        'ref-coordinator', 'ref-executor', 'ref-interactor', 'ref-manager', 'ref-navigator', 'ref-notetaker', 'ref-reflector', 'ref-state-tracker', 'ref-worker',
        // Guidance and reasoning-data roles (models/reference/roles/guide-*.ts, reasoning.ts).
        'ref-guide-describer', 'ref-guide-qc', 'ref-guide-synth', 'ref-reasoner', 'ref-consistency', 'ref-distiller',
      ].sort(),
    );
    expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('400 names the bad field', async () => {
    const cases: [unknown, string | null][] = [
      [{ model: 'ref-policy' }, 'messages'],
      [{ model: 'ref-policy', messages: [] }, 'messages'],
      [{ model: 'ref-policy', messages: [{ role: 'robot', content: 'x' }] }, 'messages.0.role'],
      [{ model: 'ref-policy', messages: [{ role: 'user', content: 'x' }], temperature: 5 }, 'temperature'],
      [{ model: 'ref-policy', messages: [{ role: 'user', content: 'x' }], n: 0 }, 'n'],
      [{ messages: [{ role: 'user', content: 'x' }] }, 'model'],
      ['{"model": "ref-policy", "messages": [', null],
    ];
    for (const [body, param] of cases) {
      const { status, json } = await post(body);
      expect(status, JSON.stringify(body)).toBe(400);
      const error = json.error as { message: string; type: string; param: string | null };
      expect(error.type).toBe('invalid_request_error');
      expect(error.param).toBe(param);
      if (param) expect(error.message).toContain(param);
    }
  });

  it('refuses streaming with 400', async () => {
    const { status, json } = await post({ model: 'ref-policy', messages: [{ role: 'user', content: 'x' }], stream: true });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ message: 'streaming not supported', param: 'stream' });
  });

  it('404 for an unknown model', async () => {
    const { status, json } = await post({ model: 'gpt-5', messages: [{ role: 'user', content: 'x' }] });
    expect(status).toBe(404);
    expect(json.error).toMatchObject({ param: 'model', code: 'model_not_found' });
  });

  it('a policy request without a screenshot is a 400 on messages', async () => {
    const { status, json } = await post({ model: 'ref-policy', messages: [{ role: 'user', content: 'The user query: open Foodie' }] });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ param: 'messages' });
  });
});

describe('reference policy over the real server and real OCR', () => {
  it('opens the app named in the task from the launcher', async () => {
    const res = await ask(LAUNCHER, TASK);
    expect(res.object).toBe('chat.completion');
    expect(res.usage!.prompt_tokens).toBeGreaterThan(100);
    expect(res.usage!.completion_tokens).toBeGreaterThan(5);
    const reply = parsePolicyReply(res.choices[0]!.message, 'mobile', SCREEN);
    expect(reply.result).toEqual({ ok: true, action: { action: 'open', text: 'Foodie' } });
    expect(reply.reasoning.length).toBeGreaterThan(0);
    expect(reply.conclusion).toMatch(/\[goal 1\/\d+ done\]$/);
  });

  it('clicks inside the exact restaurant, not the near-duplicate listed above it', async () => {
    const res = await ask(RESTAURANTS, TASK, ['Opened the Foodie app. [goal 1/9 done]']);
    const reply = parsePolicyReply(res.choices[0]!.message, 'mobile', SCREEN);
    expect(reply.result.ok).toBe(true);
    if (!reply.result.ok || reply.result.action.action !== 'click') throw new Error(`expected a click, got ${JSON.stringify(reply.result)}`);
    const lines = await ocr.recognize(await renderScreen(RESTAURANTS)); // cached: same bytes
    const target = lines.find((l) => l.text.replace(/\s/g, '') === 'BurgerPalace')!;
    const trap = lines.find((l) => l.text.replace(/\s/g, '') === 'BurgerPalaceExpress')!;
    expect(inside(reply.result.action.coordinate, target)).toBe(true);
    expect(inside(reply.result.action.coordinate, trap)).toBe(false);
    // independent of OCR: the SVG text "Burger Palace" sits at x 20.., baseline y 220
    const [x, y] = reply.result.action.coordinate;
    expect(x).toBeGreaterThan(20);
    expect(x).toBeLessThan(170);
    expect(y).toBeGreaterThan(200);
    expect(y).toBeLessThan(222);
    expect(reply.conclusion).toBe('Tapped "Burger Palace". [goal 2/9 done]');
  });

  it('counts quantity through conclusions: taps the Add next to Fries twice', async () => {
    const first = parsePolicyReply((await ask(MENU, TASK, ['Opened the Foodie app. [goal 1/9 done]', 'Tapped "Burger Palace". [goal 2/9 done]'])).choices[0]!.message, 'mobile', SCREEN);
    expect(first.result.ok && first.result.action.action).toBe('click');
    expect(first.conclusion).toMatch(/\(1 of 2\)\. \[goal 3\/9: added 1\/2 at \d+,\d+\]$/);
    const second = parsePolicyReply(
      (await ask(MENU, TASK, ['Opened the Foodie app. [goal 1/9 done]', 'Tapped "Burger Palace". [goal 2/9 done]', first.conclusion])).choices[0]!.message,
      'mobile',
      SCREEN,
    );
    expect(second.conclusion).toMatch(/\(2 of 2\)\. \[goal 3\/9 done\]$/);
    if (!second.result.ok || second.result.action.action !== 'click') throw new Error('expected a click');
    const [x, y] = second.result.action.coordinate;
    expect(x).toBeGreaterThan(300); // the Add button of the Fries row (x 308..370, baseline 240)
    expect(y).toBeGreaterThan(220);
    expect(y).toBeLessThan(250);
  });

  it('focuses the address field, then types the address', async () => {
    const done = ['Opened the Foodie app. [goal 1/9 done]', 'Tapped "Burger Palace". [goal 2/9 done]', 'Tapped "Add" for "Fries" (2 of 2). [goal 3/9 done]'];
    const focus = parsePolicyReply((await ask(CHECKOUT, TASK, done)).choices[0]!.message, 'mobile', SCREEN);
    if (!focus.result.ok || focus.result.action.action !== 'click') throw new Error(`expected a click, got ${JSON.stringify(focus.result)}`);
    expect(focus.result.action.coordinate[1]).toBeGreaterThan(140);
    expect(focus.result.action.coordinate[1]).toBeLessThan(170);
    const type = parsePolicyReply((await ask(CHECKOUT, TASK, [...done, focus.conclusion])).choices[0]!.message, 'mobile', SCREEN);
    expect(type.result).toEqual({ ok: true, action: { action: 'type', text: '12 Main St' } });
  });

  it('scrolls when the target is not visible, and terminates with success on a confirmation', async () => {
    const swipe = parsePolicyReply((await ask(LAUNCHER, 'Tap Burger Palace')).choices[0]!.message, 'mobile', SCREEN);
    expect(swipe.result.ok && swipe.result.action.action).toBe('swipe');
    const history = ['Opened the Foodie app. [goal 1/9 done]', 'Tapped "Burger Palace". [goal 2/9 done]', 'Tapped "Add" for "Fries" (2 of 2). [goal 3/9 done]', 'Typed "12 Main St" into the address field. [goal 4/9 done]', 'Tapped "Cash". [goal 5/9 done]', 'Tapped "Place order". [goal 6/9 done]']; // the plan of TASK has 9 goals (… open the cart, go to checkout, … confirm)
    const end = parsePolicyReply((await ask(ORDER_PLACED, TASK, history)).choices[0]!.message, 'mobile', SCREEN);
    expect(end.result).toEqual({ ok: true, action: { action: 'terminate', status: 'success' } });
  });

  it('n=3 at temperature 1 gives 3 valid, different choices; the same seed gives the same output', async () => {
    const req = await policyRequest(RESTAURANTS, TASK, ['Opened the Foodie app. [goal 1/9 done]'], { n: 3, temperature: 1, seed: 11 });
    const a = await ask(RESTAURANTS, TASK, ['Opened the Foodie app. [goal 1/9 done]'], { n: 3, temperature: 1, seed: 11 });
    expect(a.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    const actions = a.choices.map((c) => parsePolicyReply(c.message, 'mobile', SCREEN).result);
    for (const r of actions) expect(r.ok).toBe(true);
    expect(new Set(actions.map((r) => JSON.stringify(r))).size).toBeGreaterThan(1);
    const b = (await post(req)).json as unknown as ChatResponse;
    expect(b.choices).toEqual(a.choices);
    const c = (await post({ ...req, seed: 12 })).json as unknown as ChatResponse;
    expect(c.choices).not.toEqual(a.choices);
    // temperature 0 is deterministic without a seed
    const t0a = await ask(RESTAURANTS, TASK, ['Opened the Foodie app. [goal 1/9 done]'], { n: 2 });
    expect(t0a.choices[0]!.message).toEqual(t0a.choices[1]!.message);
  });

  it('is reachable through the gateway like any OpenAI-compatible endpoint', async () => {
    const png = await renderScreen(LAUNCHER);
    const model = createChatModel({ baseUrl: server.baseUrl, model: 'ref-policy', temperature: 0 }, { role: 'policy' });
    const { response } = await model.complete(buildPolicyRequest({ instruction: 'Open Mail', history: [], screenshots: [{ dataUrl: dataUrl(png) }], screen: SCREEN }));
    expect(parsePolicyReply(response.choices[0]!.message, 'mobile', SCREEN).result).toEqual({ ok: true, action: { action: 'open', text: 'Mail' } });
    const missing = createChatModel({ baseUrl: server.baseUrl, model: 'nope', maxRetries: 3 });
    const err = await missing.complete({ messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelError);
    expect(err).toMatchObject({ kind: 'http', status: 404, retryable: false, attempts: 1 });
  });
});
