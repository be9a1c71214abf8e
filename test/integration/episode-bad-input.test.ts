import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runEpisode } from '../../agents/episode.js';
import { loadConfig } from '../../cli/config.js';
import { startRuntime, type Runtime } from '../../cli/runtime.js';
import { startAppServer, type AppServer } from '../../environments/app-server.js';
import { createChromiumEnv, type ChromiumEnv } from '../../environments/chromium.js';
import { startFixture, textResponse, vllmToolCallResponse, type Fixture } from '../models/fixtures/openai-fixture.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';

/**
 * The policy role pointed at an OpenAI-compatible endpoint by configuration alone (here a protocol fixture
 * replaying vLLM shapes), and every kind of bad model output turned into a typed error on its step —
 * never a crash, a hang or a lost trajectory.
 */
describe('episode with a configured policy endpoint and bad replies', () => {
  let fixture: Fixture;
  let db: TestDatabase;
  let home: string;
  let rt: Runtime;
  let apps: AppServer;
  let chromium: ChromiumEnv;

  beforeAll(async () => {
    fixture = await startFixture();
    db = await testDatabase();
    home = await mkdtemp(join(tmpdir(), 'trajforge-episode-'));
    rt = await startRuntime(
      loadConfig({
        DATABASE_URL: db.url,
        TEMPORAL_ADDRESS: inject('temporalAddress'),
        TRAJFORGE_HOME: home,
        TRAJFORGE_POLICY_BASE_URL: fixture.baseUrl,
        TRAJFORGE_POLICY_MODEL: 'gui-owl-7b',
        TRAJFORGE_POLICY_API_KEY: 'sk-test',
      }),
    );
    apps = await startAppServer({});
    chromium = await createChromiumEnv({ appServer: apps, blobs: rt.blobs });
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await apps?.close();
    await rt?.close();
    await db?.drop();
    await fixture?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('records each malformed reply as a typed error and keeps going', async () => {
    fixture.script(
      { body: textResponse('I think I should tap the restaurant.') },
      { body: vllmToolCallResponse('gui-owl-7b', '{"action": "fly", "coordinate": [1, 2]}') },
      { body: vllmToolCallResponse('gui-owl-7b', '{"action": "open", "text": "Foodie"}') },
      { body: vllmToolCallResponse('gui-owl-7b', '{"action": "click", "coordinate": [5000, 20]}') },
      { body: vllmToolCallResponse('gui-owl-7b', '{"action": "open", "text": "NoSuchApp"}') },
      { body: vllmToolCallResponse('gui-owl-7b', '{"action": "terminate", "status": "failure"}') },
    );
    const session = await chromium.newSession();
    try {
      const result = await runEpisode({
        env: session,
        policy: rt.models.policy,
        blobs: rt.blobs,
        app: 'food',
        instruction: 'Show me the menu of Burger Palace in Foodie.',
        seed: 1,
        maxSteps: 10,
        historyImages: 2,
        temperature: 0,
      });
      expect(result.status).toBe('terminated');
      expect(result.outcome).toBe('failure');
      expect(result.steps.map((s) => s.error?.kind ?? s.action?.action)).toEqual([
        'format_error',
        'unknown_action',
        'open',
        'out_of_bounds',
        'execution_error',
        'terminate',
      ]);
      expect(result.steps[3]!.error!.field).toBe('arguments.coordinate');
      // The request really went to the configured endpoint, in the OpenAI protocol, with a screenshot.
      expect(rt.models.policy.name).toBe('gui-owl-7b');
      const body = fixture.requests[2]!.body as { model: string; tools: unknown[]; messages: { content: unknown }[] };
      expect(body.model).toBe('gui-owl-7b');
      expect(body.tools.length).toBe(1);
      expect(JSON.stringify(body.messages)).toContain('data:image/png;base64,');
      expect(fixture.requests[0]!.headers.authorization).toBe('Bearer sk-test');
      // Every step links to its stored request/response for lineage.
      for (const s of result.steps) expect(s.modelCallKey && (await rt.blobs.has(s.modelCallKey))).toBe(true);
    } finally {
      await session.close();
    }
  });

  it('ends the episode with a model_error step when the endpoint refuses, keeping the steps', async () => {
    fixture.reset();
    fixture.script(
      { body: vllmToolCallResponse('gui-owl-7b', '{"action": "open", "text": "Foodie"}') },
      { status: 400, body: { error: { message: 'context length exceeded', type: 'BadRequestError' } } },
    );
    const session = await chromium.newSession();
    try {
      const result = await runEpisode({
        env: session,
        policy: rt.models.policy,
        blobs: rt.blobs,
        app: 'food',
        instruction: 'Show me the menu of Sushi Zen in Foodie.',
        seed: 2,
        maxSteps: 10,
        historyImages: 1,
        temperature: 0,
      });
      expect(result.status).toBe('error');
      expect(result.steps).toHaveLength(2);
      expect(result.steps[1]!.error).toMatchObject({ kind: 'model_error' });
      expect(result.steps[1]!.error!.message).toContain('400');
    } finally {
      await session.close();
    }
  });

  it('stops after three consecutive unparsable replies instead of looping', async () => {
    fixture.reset();
    fixture.setDefault({ body: textResponse('') });
    const session = await chromium.newSession();
    try {
      const result = await runEpisode({
        env: session,
        policy: rt.models.policy,
        blobs: rt.blobs,
        app: 'food',
        instruction: 'Open Foodie.',
        seed: 3,
        maxSteps: 10,
        historyImages: 1,
        temperature: 0,
      });
      expect(result.status).toBe('error');
      expect(result.steps.map((s) => s.error?.kind)).toEqual(['format_error', 'format_error', 'format_error']);
    } finally {
      await session.close();
    }
  });
});
