import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPolicyRequest, parsePolicyPrompt, parsePolicyReply } from '../../../agents/gui-owl.js';
import { runEpisode } from '../../../agents/episode.js';
import { createDesktopEnv, type DesktopEnv, type DesktopSession } from '../../../environments/desktop/session.js';
import { createOcrEngine } from '../../../models/ocr.js';
import { inProcessModel } from '../../../models/reference/in-process.js';
import { referenceRoles } from '../../../models/reference/roles.js';
import { planFor } from '../../../models/reference/roles/desktop-policy.js';
import { MemoryBlobStore } from '../memory-blobs.js';

let dir: string;
let env: DesktopEnv;
let session: DesktopSession;
const blobs = new MemoryBlobStore();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tf-desktop-policy-'));
  env = createDesktopEnv({ blobs, stateDir: dir });
  session = await env.newSession();
});
afterAll(async () => {
  await env?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the desktop action space in the GUI-Owl format', () => {
  it('offers computer_use (Tab. 10) and parses desktop replies; the reference server sees a desktop request', () => {
    const req = buildPolicyRequest({ instruction: 'Rename a.txt to b.txt', history: [], screenshots: [{ dataUrl: 'data:image/png;base64,AA==' }], screen: { width: 1280, height: 800 }, actionSpace: 'desktop' });
    expect(req.tools?.[0]?.function.name).toBe('computer_use');
    expect(parsePolicyPrompt(req).actionSpace).toBe('desktop');
    const reply = parsePolicyReply({ role: 'assistant', content: 'Thought: t\nConclusion: c\n<tool_call>{"name":"computer_use","arguments":{"action":"key","keys":["ctrl","s"]}}</tool_call>' }, 'desktop', { width: 1280, height: 800 });
    expect(reply.result).toEqual({ ok: true, action: { action: 'key', keys: ['ctrl', 's'] } });
    // A phone tool call in a desktop episode is the wrong tool, not a desktop action.
    expect(parsePolicyReply({ role: 'assistant', content: '<tool_call>{"name":"mobile_use","arguments":{"action":"click","coordinate":[1,1]}}</tool_call>' }, 'desktop', { width: 1280, height: 800 }).result).toMatchObject({ ok: false, error: { kind: 'unknown_tool' } });
  });

  it('the reference policy reads requests by their structure, whatever the application', () => {
    expect(planFor('Rename outline.txt to review.txt.')?.goal).toBe('rename outline.txt to review.txt');
    expect(planFor('Please put 12 into cell B3 of my supplies sheet and save it.')?.goal).toBe('set B3 to 12');
    expect(planFor('Add up column C in C12 and save the workbook.')?.goal).toBe('put =SUM(C2:C11) in C12');
    expect(planFor('Work out 19 × 23 on the calculator.')?.goal).toBe('compute 19 × 23');
    expect(planFor('Tell me a joke.')).toBeUndefined();
  });

  it('rolls out real episodes end to end: the policy acts, the checker confirms', async () => {
    const ocr = await createOcrEngine();
    const policy = inProcessModel('ref-policy', referenceRoles()['ref-policy']!, ocr);
    for (const [app, instruction, checker] of [
      ['file_manager', 'Make a new folder called Receipts in Documents.', { app: 'file_manager', family: 'create_folder', params: { new_folder: 'Receipts' } }],
      ['calculator', 'Work out 96 ÷ 8 on the calculator.', { app: 'calculator', family: 'compute', params: { expression: '96 ÷ 8' } }],
    ] as const) {
      const r = await runEpisode({ env: session, policy, blobs, app, instruction, seed: 1, maxSteps: 6, historyImages: 1, temperature: 0, actionSpace: 'desktop' });
      expect(r.status, r.steps.map((s) => s.conclusion).join(' › ')).toBe('terminated');
      expect(r.steps.every((s) => s.action !== undefined && !s.error)).toBe(true);
      expect(await session.check({ ...checker, params: { ...checker.params } })).toMatchObject({ success: true });
    }
  }, 180_000);
});
