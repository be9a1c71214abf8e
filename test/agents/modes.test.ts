import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIAL_STATE } from '../../agents/ces.js';
import { MODE_ROLES, runAgentEpisode, type AgentEpisodeInput, type AgentMode } from '../../agents/run.js';
import {
  parseCoordinatorReply,
  parseExecutorReply,
  parseInteractorReply,
  parseManagerReply,
  parseNavigatorReply,
  parseNotetakerReply,
  parseReflectorReply,
  parseStateTrackerReply,
  parseWorkerReply,
  ROLE_SCHEMAS,
} from '../../agents/roles.js';
import { REFERENCE_MODEL_NAMES, type Role } from '../../domain/config.js';
import { Step } from '../../domain/entities.js';
import type { ChatMessage } from '../../domain/openai.js';
import type { ChatModel } from '../../domain/ports.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv } from '../../environments/chromium.js';
import { createOcrEngine } from '../../models/ocr.js';
import { createChatModel } from '../../models/gateway.js';
import { referenceRoles } from '../../models/reference/roles.js';
import { startReferenceServer, type ReferenceServer } from '../../models/reference/server.js';
import type { OcrEngine } from '../../models/reference/types.js';
import { createLocalBlobStore } from '../../storage/blob-local.js';
import type { BlobStore } from '../../domain/ports.js';

const SCREEN = { width: 412, height: 915 };
const msg = (content: string): ChatMessage => ({ role: 'assistant', content });

describe('role reply schemas (malformed replies are typed errors)', () => {
  it('manager', () => {
    expect(parseManagerReply(msg('{"thought":"t","completed_subgoals":[],"pending_subgoals":["Open Foodie"]}'), SCREEN)).toMatchObject({ ok: true });
    expect(parseManagerReply(msg('```json\n{"thought":"t","completed_subgoals":[],"pending_subgoals":[]}\n```'), SCREEN).ok).toBe(true);
    expect(parseManagerReply(msg(''), SCREEN)).toMatchObject({ ok: false, error: { kind: 'format_error' } });
    expect(parseManagerReply(msg('plan: open the app'), SCREEN)).toMatchObject({ ok: false, error: { kind: 'format_error', field: 'manager' } });
    expect(parseManagerReply(msg('{"thought":"t","pending_subgoals":"Open Foodie"}'), SCREEN)).toMatchObject({ ok: false, error: { kind: 'format_error' } });
    expect(parseManagerReply(msg('{"thought":"t","completed_subgoals":[],"pending_subgoals":[""]}'), SCREEN)).toMatchObject({ ok: false, error: { field: 'manager.pending_subgoals.0' } });
  });
  it('worker', () => {
    const ok = 'Thought: tap it\nSummary: Tapped "Sushi Zen".\n<tool_call>\n{"name":"mobile_use","arguments":{"action":"click","coordinate":[10,20]}}\n</tool_call>';
    expect(parseWorkerReply(msg(ok), SCREEN)).toEqual({ ok: true, value: { thought: 'tap it', summary: 'Tapped "Sushi Zen".', action: { action: 'click', coordinate: [10, 20] } } });
    expect(parseWorkerReply(msg(ok.replace(/Summary:.*\n/, '')), SCREEN)).toMatchObject({ ok: false, error: { kind: 'format_error', field: 'worker.summary' } });
    expect(parseWorkerReply(msg('Thought: x\nSummary: y'), SCREEN)).toMatchObject({ ok: false, error: { kind: 'format_error' } });
    expect(parseWorkerReply(msg(ok.replace('[10,20]', '[5000,20]')), SCREEN)).toMatchObject({ ok: false, error: { kind: 'out_of_bounds' } });
    expect(parseWorkerReply(msg(ok.replace('"click"', '"fly"')), SCREEN)).toMatchObject({ ok: false, error: { kind: 'unknown_action' } });
  });
  it('reflector', () => {
    expect(parseReflectorReply(msg('{"outcome":"success","feedback":"ok"}'), SCREEN)).toEqual({ ok: true, value: { outcome: 'SUCCESS', feedback: 'ok' } });
    expect(parseReflectorReply(msg('{"outcome":"MAYBE","feedback":"ok"}'), SCREEN)).toMatchObject({ ok: false, error: { field: 'reflector.outcome' } });
    expect(parseReflectorReply(msg('{"outcome":"FAILURE"}'), SCREEN)).toMatchObject({ ok: false, error: { kind: 'format_error' } });
    expect(parseReflectorReply(msg('SUCCESS'), SCREEN)).toMatchObject({ ok: false });
  });
  it('notetaker', () => {
    expect(parseNotetakerReply(msg('{"notes":[]}'), SCREEN)).toEqual({ ok: true, value: { notes: [] } });
    expect(parseNotetakerReply(msg('{"notes":"Order #123"}'), SCREEN)).toMatchObject({ ok: false, error: { field: 'notetaker.notes' } });
    expect(parseNotetakerReply(msg('{notes: [}'), SCREEN)).toMatchObject({ ok: false, error: { kind: 'format_error' } });
  });
  it('navigator and interactor', () => {
    expect(parseNavigatorReply(msg('<think>r</think>\n<instruction>Tap "Burger Palace"</instruction>'), SCREEN)).toEqual({ ok: true, value: { reasoning: 'r', instruction: 'Tap "Burger Palace"' } });
    expect(parseNavigatorReply(msg('<instruction>Tap "X"</instruction>'), SCREEN)).toMatchObject({ ok: false, error: { field: 'navigator.reasoning' } });
    expect(parseNavigatorReply(msg('<think>r</think><instruction> </instruction>'), SCREEN)).toMatchObject({ ok: false, error: { field: 'navigator.instruction' } });
    expect(parseInteractorReply(msg('Thought: t\n<tool_call>{"name":"mobile_use","arguments":{"action":"type","text":"hi"}}</tool_call>'), SCREEN)).toMatchObject({ ok: true, value: { action: { action: 'type', text: 'hi' } } });
    expect(parseInteractorReply(msg('<tool_call>{"name":"computer_use","arguments":{"action":"click","coordinate":[1,1]}}</tool_call>'), SCREEN)).toMatchObject({ ok: false, error: { kind: 'unknown_tool' } });
  });
  it('coordinator, executor and state tracker', () => {
    expect(parseCoordinatorReply(msg('<think>t</think><answer>Tap "Menu"</answer>'), SCREEN)).toEqual({ ok: true, value: { think: 't', instruction: 'Tap "Menu"' } });
    expect(parseCoordinatorReply(msg('<think>t</think>Tap "Menu"'), SCREEN)).toMatchObject({ ok: false, error: { field: 'coordinator.instruction' } });
    expect(parseExecutorReply(msg("<think>t</think> <answer>['action': 'click', 'point': [100, 200], 'input_text': 'no input text']</answer>"), SCREEN)).toMatchObject({
      ok: true,
      value: { raw: { action: 'click', point: [100, 200] }, action: { action: 'click', coordinate: [100, 200] } },
    });
    expect(parseExecutorReply(msg('<think>t</think><answer>{"action": "press back", "input_text": "no input text"}</answer>'), SCREEN)).toMatchObject({ ok: true, value: { action: { action: 'system_button', button: 'Back' } } });
    expect(parseExecutorReply(msg("<answer>['action': 'complete', 'point': [-1, -1], 'input_text': '']</answer>"), SCREEN)).toMatchObject({ ok: true, value: { action: { action: 'terminate', status: 'success' } } });
    expect(parseExecutorReply(msg("<answer>['action': 'fly']</answer>"), SCREEN)).toMatchObject({ ok: false, error: { kind: 'unknown_action' } });
    expect(parseExecutorReply(msg("<answer>['action': 'click', 'input_text': '']</answer>"), SCREEN)).toMatchObject({ ok: false, error: { kind: 'invalid_arguments', field: 'executor.point' } });
    expect(parseExecutorReply(msg("<answer>['action': 'click', 'point': [9999, 1]]</answer>"), SCREEN)).toMatchObject({ ok: false, error: { kind: 'out_of_bounds' } });
    expect(parseExecutorReply(msg('click at 100,200'), SCREEN)).toMatchObject({ ok: false, error: { kind: 'format_error' } });
    expect(parseStateTrackerReply(msg('<state>Opened Foodie.</state>'), SCREEN)).toEqual({ ok: true, value: { state: 'Opened Foodie.' } });
    expect(parseStateTrackerReply(msg('Opened Foodie.'), SCREEN)).toMatchObject({ ok: false, error: { field: 'stateTracker.state' } });
  });
});

const QUERIES = ['Show me the menu of Sushi Zen in Foodie.', 'Show me the menu of Burger Palace in Foodie.'];
const EXPECTED: Record<Exclude<AgentMode, 'gui-owl'>, string[]> = {
  'mobile-agent-v3': ['worker'],
  swirl: ['navigator', 'interactor'],
  ces: ['coordinator', 'executor'],
};

describe('multi-agent modes on the Foodie app in Chromium, every role through the gateway to the reference server (HTTP)', () => {
  let home: string;
  let server: ReferenceServer;
  let blobs: BlobStore;
  let apps: AppServer;
  let chromium: ChromiumEnv;
  let ocr: OcrEngine;
  let models: Record<Role, ChatModel>;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'trajforge-modes-'));
    blobs = createLocalBlobStore(home);
    ocr = await createOcrEngine();
    apps = await startAppServer({});
    chromium = await createChromiumEnv({ appServer: apps, blobs });
    server = await startReferenceServer({ roles: referenceRoles(), ocr });
    // Exactly as the runtime builds them (cli/runtime.ts): one gateway client per role, call records in the blob store.
    models = Object.fromEntries(
      Object.entries(REFERENCE_MODEL_NAMES).map(([role, name]) => [role, createChatModel({ baseUrl: server.baseUrl, model: name }, { blobs, accountAs: role })]),
    ) as Record<Role, ChatModel>;
  }, 180_000);

  afterAll(async () => {
    await chromium?.close();
    await apps?.close();
    await server?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  const run = async (mode: AgentMode, instruction: string, over: Partial<AgentEpisodeInput> = {}) => {
    const session = await chromium.newSession();
    try {
      const result = await runAgentEpisode(mode, { env: session, blobs, models, app: 'food', instruction, seed: 1, maxSteps: 12, historyImages: 1, temperature: 0, ...over });
      return { result };
    } finally {
      await session.close();
    }
  };

  const checkRoles = (mode: Exclude<AgentMode, 'gui-owl'>, steps: Step[]) => {
    for (const step of steps) {
      expect(() => Step.parse(step)).not.toThrow();
      const roles = step.roles ?? [];
      const names = roles.map((r) => r.role);
      for (const r of EXPECTED[mode]) if (!(step.error && step.error.kind !== 'execution_error')) expect(names).toContain(r);
      for (const r of roles) {
        expect(MODE_ROLES[mode].includes(r.role as Role) || r.role === 'rag').toBe(true);
        for (const m of r.request.messages) {
          expect(m.text).not.toContain('data:image');
          for (const k of m.images) expect(k).toMatch(/^sha256\//);
        }
        // Every answered call went through the gateway and left its call record (request + response) in the blob store.
        if (r.reply !== '') expect(r.callKey).toMatch(/^sha256\/.+\.json$/);
        if (r.error) expect(r.parsed).toBeUndefined();
        else expect(ROLE_SCHEMAS[r.role]!.safeParse(r.parsed).success).toBe(true);
      }
    }
  };

  for (const mode of ['mobile-agent-v3', 'swirl', 'ces'] as const) {
    for (const q of QUERIES) {
      it(`${mode}: ${q}`, async () => {
        const { result } = await run(mode, q);
        expect(['terminated', 'answered', 'max_steps']).toContain(result.status);
        expect(result.steps.length).toBeGreaterThan(0);
        if (q.includes('Sushi Zen')) expect(result.outcome).toBe('success');
        checkRoles(mode, result.steps);
        console.log(mode, q, result.status, result.outcome, result.stopReason, result.steps.map((s) => s.conclusion).join(' || '));
        if (mode === 'mobile-agent-v3') {
          expect(result.steps[0]!.roles![0]!.role).toBe('manager');
          for (const s of result.steps.filter((x) => x.after)) expect(s.roles!.map((r) => r.role)).toEqual(expect.arrayContaining(['worker', 'reflector', 'manager']));
        }
      }, 120_000);
    }
  }

  it('mobile-agent-v3: stalemate termination on an always-FAILURE reflector', async () => {
    const failing: ChatModel = {
      name: 'always-failure',
      complete: async () => ({
        response: {
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'always-failure',
          choices: [{ index: 0, message: { role: 'assistant', content: '{"outcome":"FAILURE","feedback":"nothing happened"}' }, finish_reason: 'stop' }],
        },
      }),
    };
    const { result } = await run('mobile-agent-v3', QUERIES[0]!, { models: { ...models, reflector: failing }, stalemate: { maxConsecutiveFailures: 2 } });
    expect(result.status).toBe('terminated');
    expect(result.outcome).toBe('failure');
    expect(result.stopReason).toBe('stalemate');
    expect(result.steps).toHaveLength(2);
    for (const s of result.steps) {
      expect(s.roles!.find((r) => r.role === 'reflector')!.parsed).toEqual({ outcome: 'FAILURE', feedback: 'nothing happened' });
      expect(s.roles!.some((r) => r.role === 'notetaker')).toBe(false);
    }
  }, 120_000);

  it('ces: the state tracker output replaces history in the coordinator request', async () => {
    const { result } = await run('ces', QUERIES[0]!);
    expect(result.steps.length).toBeGreaterThanOrEqual(2);
    const coordText = (i: number) => result.steps[i]!.roles!.find((r) => r.role === 'coordinator')!.request.messages.map((m) => m.text).join('\n');
    expect(coordText(0)).toContain(INITIAL_STATE);
    for (let i = 1; i < result.steps.length; i++) {
      const prevState = (result.steps[i - 1]!.roles!.find((r) => r.role === 'stateTracker')!.parsed as { state: string }).state;
      const text = coordText(i);
      expect(text).toContain(prevState);
      expect(text).not.toContain(INITIAL_STATE);
      // No raw history: no executor output and no earlier coordinator answer is in the request.
      for (let j = 0; j < i; j++) {
        expect(text).not.toContain(result.steps[j]!.roles!.find((r) => r.role === 'executor')!.reply);
        expect(text).not.toContain(result.steps[j]!.roles!.find((r) => r.role === 'coordinator')!.reply);
      }
      expect(result.steps[i]!.roles!.find((r) => r.role === 'coordinator')!.request.messages.flatMap((m) => m.images)).toHaveLength(1);
    }
    const tracker = result.steps[0]!.roles!.find((r) => r.role === 'stateTracker')!;
    expect(tracker.request.messages.flatMap((m) => m.images)).toHaveLength(0);
  }, 120_000);

  it('runAgentEpisode refuses a mode whose role models are missing', async () => {
    const session = await chromium.newSession();
    try {
      await expect(runAgentEpisode('swirl', { env: session, blobs, models: { policy: models.policy }, app: 'food', instruction: QUERIES[0]!, seed: 1, maxSteps: 3, historyImages: 1, temperature: 0 })).rejects.toThrow(/navigator, interactor/);
    } finally {
      await session.close();
    }
  });
});
