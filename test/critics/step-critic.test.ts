import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  annotateInteraction,
  buildStepCriticRequest,
  criticScore,
  judgeStep,
  parseStepVerdict,
} from '../../critics/step-critic.js';
import { messageImages, messageText } from '../../domain/openai.js';
import { cannedModel } from './fake-model.js';

async function blank(width = 200, height = 300): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 3, background: { r: 255, g: 255, b: 255 } } }).png().toBuffer(),
  );
}

async function pixel(png: Uint8Array, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [data[i] ?? -1, data[i + 1] ?? -1, data[i + 2] ?? -1];
}

const msg = (content: string) => ({ role: 'assistant' as const, content });

describe('annotateInteraction', () => {
  it('marks a click point red and leaves far pixels alone', async () => {
    const png = await blank();
    const out = await annotateInteraction(png, { action: 'click', coordinate: [100, 150] });
    const [r, g, b] = await pixel(out, 100, 150);
    expect(r).toBeGreaterThan(200); // translucent red over white
    expect(r - g).toBeGreaterThan(100);
    expect(r - b).toBeGreaterThan(100);
    const [, ringG] = await pixel(out, 100 + 22, 150); // on the ring
    expect(ringG).toBeLessThan(180);
    expect(await pixel(out, 10, 10)).toEqual([255, 255, 255]);
    expect((await sharp(out).metadata()).width).toBe(200);
  });

  it('draws a swipe path between the two points', async () => {
    const png = await blank();
    const out = await annotateInteraction(png, { action: 'swipe', coordinate: [100, 250], coordinate2: [100, 50] });
    const [r, g] = await pixel(out, 100, 150); // midway along the arrow
    expect(r - g).toBeGreaterThan(100);
  });

  it('returns actions without coordinates unchanged', async () => {
    const png = await blank();
    expect(await annotateInteraction(png, { action: 'type', text: 'hello' })).toBe(png);
    expect(await annotateInteraction(png, { action: 'system_button', button: 'Back' })).toBe(png);
  });
});

describe('buildStepCriticRequest', () => {
  it('has the role prompt, labelled sections and both images in order', () => {
    const req = buildStepCriticRequest({
      instruction: 'Order a Cheeseburger from Burger Palace',
      history: ['Opened the food app.', 'Scrolled the restaurant list.'],
      action: { action: 'click', coordinate: [80, 167] },
      beforeAnnotated: 'data:image/png;base64,QkVGT1JF',
      after: 'data:image/png;base64,QUZURVI=',
    });
    const system = req.messages[0];
    const user = req.messages[1];
    expect(system?.role).toBe('system');
    expect(messageText(system!)).toMatch(/"annotation": "GOOD" \| "NEUTRAL" \| "HARMFUL"/);
    expect(messageText(system!)).toMatch(/at most 30 words/);
    const text = messageText(user!);
    expect(text).toContain('Instruction:\nOrder a Cheeseburger from Burger Palace');
    expect(text).toContain('Previous steps:\nStep 1: Opened the food app.\nStep 2: Scrolled the restaurant list.');
    expect(text).toContain('Action:\n{"action":"click","coordinate":[80,167]}');
    expect(text).toMatch(/before the action \(interaction marked in red\)/);
    expect(messageImages(user!)).toEqual(['data:image/png;base64,QkVGT1JF', 'data:image/png;base64,QUZURVI=']);
    expect(req.temperature).toBe(0);
  });

  it('says (none) when there is no history', () => {
    const req = buildStepCriticRequest({
      instruction: 'x',
      history: [],
      action: { action: 'wait', time: 1 },
      beforeAnnotated: 'data:image/png;base64,AA==',
      after: 'data:image/png;base64,AA==',
    });
    expect(messageText(req.messages[1]!)).toContain('Previous steps:\n(none)');
  });

  it('names the desktop platform only for desktop steps (phone requests are unchanged)', () => {
    const base = { instruction: 'x', history: [], action: { action: 'click' as const, coordinate: [5, 5] as [number, number] }, beforeAnnotated: 'data:image/png;base64,AA==', after: 'data:image/png;base64,AA==' };
    const desktop = messageText(buildStepCriticRequest({ ...base, actionSpace: 'desktop' }).messages[1]!);
    expect(desktop).toContain('Platform:\ndesktop (mouse and keyboard)\n\nAction:\n');
    expect(messageText(buildStepCriticRequest(base).messages[1]!)).not.toContain('Platform:');
    expect(messageText(buildStepCriticRequest({ ...base, actionSpace: 'mobile' }).messages[1]!)).toBe(messageText(buildStepCriticRequest(base).messages[1]!));
  });
});

describe('parseStepVerdict', () => {
  it('accepts fenced JSON surrounded by prose', () => {
    const r = parseStepVerdict(
      msg('Let me think.\n```json\n{"analysis": "Tapped the right row.", "summary": "Opened Burger Palace.", "annotation": "GOOD"}\n```\nDone.'),
    );
    expect(r).toEqual({
      ok: true,
      truncated: false,
      verdict: { analysis: 'Tapped the right row.', summary: 'Opened Burger Palace.', annotation: 'GOOD' },
    });
  });

  it('accepts bare JSON with braces inside strings and a lowercase label', () => {
    const r = parseStepVerdict(msg('Verdict: {"analysis": "a {weird} one", "summary": "ok", "annotation": "harmful"} thanks'));
    expect(r.ok && r.verdict.annotation).toBe('HARMFUL');
  });

  it('truncates a summary over 30 words and flags it', () => {
    const long = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const r = parseStepVerdict(msg(JSON.stringify({ analysis: 'a', summary: long, annotation: 'NEUTRAL' })));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.truncated).toBe(true);
      expect(r.verdict.summary.split(' ')).toHaveLength(30);
    }
  });

  it('rejects an unknown annotation with a typed schema error', () => {
    const r = parseStepVerdict(msg('{"analysis": "a", "summary": "b", "annotation": "BAD"}'));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.kind).toBe('schema');
      expect(r.error.message).toMatch(/GOOD, NEUTRAL or HARMFUL/);
    }
  });

  it('rejects missing fields, prose without JSON and empty replies', () => {
    const a = parseStepVerdict(msg('{"summary": "b", "annotation": "GOOD"}'));
    expect(!a.ok && a.error.kind).toBe('schema');
    const b = parseStepVerdict(msg('The action looks GOOD to me.'));
    expect(!b.ok && b.error.kind).toBe('no_json');
    const c = parseStepVerdict({ content: null });
    expect(!c.ok && c.error.kind).toBe('empty');
  });
});

describe('criticScore and judgeStep', () => {
  it('maps GOOD/NEUTRAL/HARMFUL to 1/0.5/0', () => {
    expect([criticScore('GOOD'), criticScore('NEUTRAL'), criticScore('HARMFUL')]).toEqual([1, 0.5, 0]);
    expect(criticScore('NEUTRAL', { GOOD: 1, NEUTRAL: 0, HARMFUL: -1 })).toBe(0);
  });

  it('annotates, asks once and scores the verdict', async () => {
    const model = cannedModel(['{"analysis":"right row","summary":"Opened the menu.","annotation":"GOOD"}']);
    const before = await blank();
    const r = await judgeStep(model, {
      instruction: 'Open Burger Palace',
      history: [],
      action: { action: 'click', coordinate: [50, 60] },
      before,
      after: await blank(),
    });
    expect(r).toMatchObject({ score: 1, verdict: { annotation: 'GOOD' }, callKey: 'sha256/call1' });
    const sentBefore = messageImages(model.requests[0]!.messages[1]!)[0]!;
    const bytes = Buffer.from(sentBefore.split(',')[1]!, 'base64');
    expect((await pixel(new Uint8Array(bytes), 50, 60))[1]).toBeLessThan(150); // the annotated image was sent
  });

  it('returns an error, not a throw, for an unparseable reply', async () => {
    const r = await judgeStep(cannedModel(['I cannot tell.']), {
      instruction: 'x',
      history: [],
      action: { action: 'wait', time: 1 },
      before: await blank(),
      after: await blank(),
    });
    expect('error' in r && r.error.kind).toBe('no_json');
  });
});
