import { describe, expect, it } from 'vitest';
import { buildPolicyRequest, mobileUseTool, parsePolicyPrompt, parsePolicyReply } from '../../agents/gui-owl.js';
import { ChatRequest, type ChatMessage } from '../../domain/openai.js';
import { CASES, SCREEN } from './malformed-replies.js';

describe('parsePolicyReply over the malformed-reply corpus', () => {
  it('has at least 50 cases with unique names', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  for (const c of CASES) {
    it(c.name, () => {
      const out = parsePolicyReply(c.message, 'mobile', SCREEN);
      if (c.expect.ok) {
        expect(out.result).toEqual({ ok: true, action: c.expect.action });
      } else {
        expect(out.result.ok).toBe(false);
        if (out.result.ok) return;
        expect(out.result.error.kind).toBe(c.expect.kind);
        if (c.expect.field !== undefined) expect(out.result.error.field).toBe(c.expect.field);
        expect(out.result.error.message.length).toBeGreaterThan(0);
      }
      if (c.reasoning !== undefined) expect(out.reasoning).toBe(c.reasoning);
      if (c.conclusion !== undefined) expect(out.conclusion).toBe(c.conclusion);
    });
  }

  it('never throws, even on garbage that violates the type', () => {
    const garbage: unknown[] = [
      { role: 'assistant', content: 42 },
      { role: 'assistant', tool_calls: [null] },
      { role: 'assistant', tool_calls: [{ function: null }] },
      { role: 'assistant', content: [{ type: 'weird' }] },
      { role: 'assistant', tool_calls: [{ function: { name: 'mobile_use', arguments: { action: 'click', coordinate: [1, 1] } } }] },
    ];
    for (const g of garbage) {
      expect(() => parsePolicyReply(g as ChatMessage, 'mobile', SCREEN)).not.toThrow();
    }
    // arguments as an object inside tool_calls (violates the OpenAI type but is seen in the wild): accepted.
    const obj = parsePolicyReply(garbage[4] as ChatMessage, 'mobile', SCREEN);
    expect(obj.result).toEqual({ ok: true, action: { action: 'click', coordinate: [1, 1] } });
  });

  it('desktop space expects computer_use', () => {
    const m: ChatMessage = { role: 'assistant', content: '<tool_call>{"name":"mobile_use","arguments":{"action":"click","coordinate":[1,1]}}</tool_call>' };
    const out = parsePolicyReply(m, 'desktop', { width: 1280, height: 800 });
    expect(out.result.ok).toBe(false);
    if (!out.result.ok) expect(out.result.error.kind).toBe('unknown_tool');
  });
});

describe('buildPolicyRequest', () => {
  const screen = { width: 412, height: 915 };
  const shot = (i: number) => ({ dataUrl: `data:image/png;base64,${Buffer.from(`img${i}`).toString('base64')}` });

  it('puts the tool in the system prompt and in tools, history and the latest ≤3 screenshots in the user message', () => {
    const req = buildPolicyRequest({
      instruction: 'Open Foodie, then tap "Burger Palace"',
      history: ['Opened the Foodie app. [goal 1/2 done]'],
      screenshots: [shot(1), shot(2), shot(3), shot(4)],
      screen,
      guidance: '1. open Foodie\n2. tap Burger Palace',
    });
    expect(ChatRequest.safeParse({ ...req, model: 'm' }).success).toBe(true);
    const sys = req.messages[0]!;
    expect(sys.role).toBe('system');
    expect(sys.content).toContain('<tools>');
    expect(sys.content).toContain('"name":"mobile_use"');
    expect(sys.content).toContain('Thought:');
    expect(sys.content).toContain('Conclusion:');
    expect(sys.content).toContain('<tool_call>');
    expect(req.tools).toEqual([mobileUseTool(screen)]);
    const user = req.messages[1]!;
    const images = Array.isArray(user.content) ? user.content.filter((p) => p.type === 'image_url') : [];
    expect(images.map((p) => (p.type === 'image_url' ? p.image_url.url : ''))).toEqual([shot(2).dataUrl, shot(3).dataUrl, shot(4).dataUrl]);

    const back = parsePolicyPrompt({ ...req, model: 'm' } as ChatRequest);
    expect(back.instruction).toBe('Open Foodie, then tap "Burger Palace"');
    expect(back.history).toEqual(['Opened the Foodie app. [goal 1/2 done]']);
    expect(back.guidance).toEqual(['open Foodie', 'tap Burger Palace']);
    expect(back.screen).toEqual(screen);
    expect(back.screenshots).toHaveLength(3);
  });

  it('mobile_use enumerates the 10 actions with their arguments', () => {
    const params = mobileUseTool(screen).function.parameters as { properties: Record<string, { enum?: string[] }> };
    expect(params.properties.action?.enum).toEqual(['key', 'click', 'long_press', 'swipe', 'type', 'answer', 'system_button', 'open', 'wait', 'terminate']);
    expect(params.properties.button?.enum).toEqual(['Back', 'Home', 'Menu', 'Enter']);
    expect(params.properties.status?.enum).toEqual(['success', 'failure']);
    for (const k of ['coordinate', 'coordinate2', 'text', 'time']) expect(params.properties[k]).toBeDefined();
  });

  it('rejects an empty screenshot list', () => {
    expect(() => buildPolicyRequest({ instruction: 'x', history: [], screenshots: [], screen })).toThrow(/screenshot/);
  });
});
