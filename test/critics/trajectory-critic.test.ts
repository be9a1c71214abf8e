import { describe, expect, it } from 'vitest';
import {
  applyVoteRule,
  buildMultimodalChannelRequest,
  buildTextChannelRequest,
  judgeTrajectory,
  parseChannelVerdict,
  subsampleIndices,
} from '../../critics/trajectory-critic.js';
import { messageImages, messageText } from '../../domain/openai.js';
import { cannedModel } from './fake-model.js';

const CORRECT = '```json\n{"reasoning": "order placed", "verdict": "Correct"}\n```';
const INCORRECT = '{"reasoning": "wrong restaurant", "verdict": "Incorrect"}';
const steps = [
  { summary: 'Tapped "Burger Palace"; the screen now shows "Menu".', actionText: '{"action":"click","coordinate":[80,167]}' },
  { summary: 'Tapped "Add to cart".', actionText: '{"action":"click","coordinate":[60,316]}' },
];
const input = {
  instruction: 'Order a Cheeseburger from Burger Palace',
  steps,
  captions: ['Restaurants Burger Palace', 'Burger Palace Menu Cheeseburger', 'Order placed'],
  screenshots: ['data:image/png;base64,MA==', 'data:image/png;base64,MQ==', 'data:image/png;base64,Mg=='],
  outcome: 'success',
};

describe('channel request builders', () => {
  it('text channel carries instruction, steps, labelled captions and outcome, and no images', () => {
    const req = buildTextChannelRequest(input);
    expect(messageText(req.messages[0]!)).toMatch(/textual reasoning channel/);
    expect(messageText(req.messages[0]!)).toMatch(/"verdict": "Correct" \| "Incorrect"/);
    const text = messageText(req.messages[1]!);
    expect(text).toContain('Instruction:\nOrder a Cheeseburger from Burger Palace');
    expect(text).toContain('Step 1: action: {"action":"click","coordinate":[80,167]}\n  summary: Tapped "Burger Palace"');
    expect(text).toContain('Screen 0 (initial, before step 1):\nRestaurants Burger Palace');
    expect(text).toContain('Final screen (after step 2):\nOrder placed');
    expect(text).toContain('Outcome:\nsuccess');
    expect(messageImages(req.messages[1]!)).toEqual([]);
  });

  it('multimodal channel labels each screenshot and keeps first and last', () => {
    const many = Array.from({ length: 20 }, (_, i) => `data:image/png;base64,${Buffer.from(String(i)).toString('base64')}`);
    const req = buildMultimodalChannelRequest({ ...input, screenshots: many });
    const user = req.messages[1]!;
    const images = messageImages(user);
    expect(images.length).toBeLessThanOrEqual(6);
    expect(images[0]).toBe(many[0]);
    expect(images[images.length - 1]).toBe(many[19]);
    expect(messageText(user)).toContain('Final screen (after step 19):');
    expect(messageText(user)).toContain('Outcome:\nsuccess');
    expect(messageText(req.messages[0]!)).toMatch(/multimodal reasoning channel/);
  });

  it('subsamples first, every k-th and last, at most max', () => {
    expect(subsampleIndices(3)).toEqual([0, 1, 2]);
    expect(subsampleIndices(11, 6)).toEqual([0, 2, 4, 6, 8, 10]);
    const s = subsampleIndices(20, 6);
    expect(s[0]).toBe(0);
    expect(s[s.length - 1]).toBe(19);
    expect(s.length).toBeLessThanOrEqual(6);
    expect(subsampleIndices(0)).toEqual([]);
  });
});

describe('parseChannelVerdict', () => {
  it('reads fenced and bare verdicts', () => {
    expect(parseChannelVerdict({ content: CORRECT }, 'text')).toEqual({
      ok: true,
      verdict: { channel: 'text', correct: true, reason: 'order placed' },
    });
    const r = parseChannelVerdict({ content: `I think: ${INCORRECT}` }, 'multimodal');
    expect(r.ok && r.verdict).toEqual({ channel: 'multimodal', correct: false, reason: 'wrong restaurant' });
  });

  it('rejects verdicts outside Correct/Incorrect', () => {
    const r = parseChannelVerdict({ content: '{"reasoning": "x", "verdict": "Maybe"}' }, 'text');
    expect(!r.ok && r.error.kind).toBe('schema');
  });
});

describe('vote rules', () => {
  it('all / majority / any', () => {
    const v = [true, false, true];
    expect(applyVoteRule(v, 'all')).toBe(false);
    expect(applyVoteRule(v, 'majority')).toBe(true);
    expect(applyVoteRule([true, false], 'majority')).toBe(false); // a tie is not a majority
    expect(applyVoteRule([false, false, true], 'any')).toBe(true);
    expect(applyVoteRule([], 'any')).toBe(false);
  });
});

describe('judgeTrajectory', () => {
  it('asks for n samples in one call per channel and applies Eq. 4 (both)', async () => {
    const text = cannedModel([CORRECT, CORRECT, INCORRECT]);
    const multimodal = cannedModel([CORRECT]);
    const r = await judgeTrajectory({ text, multimodal }, input, { votes: 3, voteRule: 'majority' });
    expect(text.requests).toHaveLength(1);
    expect(text.requests[0]!.n).toBe(3);
    expect(text.requests[0]!.temperature).toBeGreaterThan(0);
    expect(r.channels.map((c) => [c.channel, c.votes, c.correct])).toEqual([
      ['text', [true, true, false], true],
      ['multimodal', [true, true, true], true],
    ]);
    expect(r.correct).toBe(true);
    expect(r.channels[0]!.reason).toMatch(/^2\/3 Correct votes \(majority\): order placed/);
  });

  it('is Incorrect under `both` when one channel dissents, Correct under `either`', async () => {
    const models = () => ({ text: cannedModel([CORRECT]), multimodal: cannedModel([INCORRECT]) });
    expect((await judgeTrajectory(models(), input, { votes: 1 })).correct).toBe(false);
    expect((await judgeTrajectory(models(), input, { votes: 1, consensus: 'either' })).correct).toBe(true);
    expect((await judgeTrajectory(models(), input, { votes: 1, consensus: 'text' })).correct).toBe(true);
    expect((await judgeTrajectory(models(), input, { votes: 1, consensus: 'multimodal' })).correct).toBe(false);
  });

  it('vote rule decides a split channel', async () => {
    const split = () => ({ text: cannedModel([CORRECT, INCORRECT, INCORRECT]), multimodal: cannedModel([CORRECT]) });
    const run = async (voteRule: 'all' | 'majority' | 'any') =>
      (await judgeTrajectory(split(), input, { votes: 3, voteRule })).channels[0]!.correct;
    expect(await run('all')).toBe(false);
    expect(await run('majority')).toBe(false);
    expect(await run('any')).toBe(true);
  });

  it('tops up with further calls when the endpoint returns fewer choices than n', async () => {
    const text = cannedModel([CORRECT], { perCall: 1 });
    const multimodal = cannedModel([CORRECT], { perCall: 2 });
    const r = await judgeTrajectory({ text, multimodal }, input, { votes: 3, voteRule: 'all' });
    expect(text.requests.map((q) => q.n)).toEqual([3, 2, 1]);
    expect(multimodal.requests.map((q) => q.n)).toEqual([3, 1]);
    expect(r.channels.map((c) => c.votes.length)).toEqual([3, 3]);
    expect(r.channels[0]!.callKeys).toEqual(['sha256/call1', 'sha256/call2', 'sha256/call3']);
    expect(r.correct).toBe(true);
  });

  it('counts unparseable replies as Incorrect votes with a reason, without throwing', async () => {
    const text = cannedModel(['no idea', CORRECT, '{"verdict": "Perhaps"}']);
    const r = await judgeTrajectory({ text, multimodal: cannedModel([CORRECT]) }, input, { votes: 3, voteRule: 'any' });
    const ch = r.channels[0]!;
    expect(ch.votes).toEqual([false, true, false]);
    expect(ch.reasons[0]).toMatch(/unparseable critic reply \(no_json\)/);
    expect(ch.reasons[2]).toMatch(/unparseable critic reply \(schema\)/);
    expect(ch.correct).toBe(true);
  });
});
