import { describe, expect, it } from 'vitest';
import { gateDecision, sampleSd } from '../../evolution/gate.js';
import { retrainDue, TriggerPolicy } from '../../evolution/trigger.js';
import { expandCommand } from '../../models/trainers/external.js';

describe('eval gate rule', () => {
  it('promotes only when the gain exceeds the larger seed spread', () => {
    const up = gateDecision({ current: [0.5, 0.55, 0.45], candidate: [0.75, 0.8, 0.7] });
    expect(up.promote).toBe(true);
    expect(up.gain).toBeCloseTo(0.25);
    expect(up.margin).toBeCloseTo(0.05);
    // A gain inside the noise keeps the served model.
    const noisy = gateDecision({ current: [0.2, 0.5, 0.8], candidate: [0.6, 0.7, 0.5] });
    expect(noisy.gain).toBeCloseTo(0.1);
    expect(noisy.margin).toBeCloseTo(0.3);
    expect(noisy.promote).toBe(false);
    // A worse (e.g. corrupted) candidate is rejected, and so is an equal one.
    expect(gateDecision({ current: [0.6, 0.6, 0.6], candidate: [0.1, 0.2, 0.1] }).promote).toBe(false);
    expect(gateDecision({ current: [0.6, 0.6, 0.6], candidate: [0.6, 0.6, 0.6] }).promote).toBe(false);
  });

  it('needs at least three seeds on each side', () => {
    const d = gateDecision({ current: [0.1, 0.1], candidate: [0.9, 0.9, 0.9] });
    expect(d.promote).toBe(false);
    expect(d.reason).toMatch(/too few seeds/);
  });

  it('uses the sample standard deviation and rejects rates outside [0, 1]', () => {
    expect(sampleSd([0, 1])).toBeCloseTo(Math.SQRT1_2);
    expect(sampleSd([0.4])).toBe(0);
    expect(() => gateDecision({ current: [1.5, 0, 0], candidate: [0, 0, 0] })).toThrow();
  });
});

describe('retrain trigger', () => {
  it('fires on enough new accepted trajectories', () => {
    const policy = TriggerPolicy.parse({ minNewAccepted: 5 });
    expect(retrainDue(policy, { newAccepted: 4, acceptanceRates: [0.5] }).due).toBe(false);
    expect(retrainDue(policy, { newAccepted: 5, acceptanceRates: [0.5] }).due).toBe(true);
  });

  it('fires on an acceptance drop when configured, and only then', () => {
    const state = { newAccepted: 2, acceptanceRates: [0.8, 0.8, 0.3] };
    expect(retrainDue(TriggerPolicy.parse({ minNewAccepted: 50 }), state).due).toBe(false);
    const r = retrainDue(TriggerPolicy.parse({ minNewAccepted: 50, acceptanceDrop: 0.3 }), state);
    expect(r.due).toBe(true);
    expect(r.reason).toMatch(/acceptance fell from 0.80 to 0.30/);
    expect(retrainDue(TriggerPolicy.parse({ minNewAccepted: 50, acceptanceDrop: 0.6 }), state).due).toBe(false);
  });

  it('names the bad field of a bad policy', () => {
    const r = TriggerPolicy.safeParse({ minNewAccepted: 0 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['minNewAccepted']);
  });
});

describe('external trainer command template', () => {
  it('replaces the placeholders verbatim, argument by argument', () => {
    const argv = expandCommand(['swift', 'sft', '--dataset', '{dataset}', '--output_dir', '{output_dir}/ckpt', '--tag={version}-from-{parent}', '{unknown}'], {
      dataset: '/tmp/d/train.jsonl',
      dataset_dir: '/tmp/d',
      output_dir: '/tmp/o',
      version: '0.1.3',
      parent: '0.1.2',
    });
    expect(argv).toEqual(['swift', 'sft', '--dataset', '/tmp/d/train.jsonl', '--output_dir', '/tmp/o/ckpt', '--tag=0.1.3-from-0.1.2', '{unknown}']);
  });
});
