import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, createOnnxCritic, features, predict, toOnnx, trainLogistic } from '../../critics/learned-critic.js';

describe('learned critic (logistic regression → ONNX → onnxruntime)', () => {
  it('features are bounded and use only critic-visible inputs', () => {
    const f = features({
      instruction: 'Order a Margherita pizza from Luigi',
      annotations: ['GOOD', 'NEUTRAL', 'GOOD'],
      outcome: 'success',
      textVotes: [true, true, false],
      multimodalVotes: [true],
      finalCaption: 'Order placed | Margherita pizza | Luigi',
    });
    expect(f).toHaveLength(FEATURE_COUNT);
    expect(f[0]).toBeCloseTo(2 / 3);
    expect(f[3]).toBe(1);
    expect(f[6]).toBe(1);
    expect(f[7]).toBeCloseTo(2 / 3);
    expect(f[9]).toBe(1);
  });

  it('trains on separable labels and the ONNX graph reproduces the TS predictions', async () => {
    const xs: number[][] = [];
    const ys: boolean[] = [];
    for (let i = 0; i < 200; i++) {
      const x = Array.from({ length: FEATURE_COUNT }, (_, j) => ((i * 7 + j * 13) % 11) / 10);
      xs.push(x);
      ys.push(x[7]! + x[8]! - x[2]! > 0.9);
    }
    const model = trainLogistic(xs, ys, { epochs: 1500, lr: 1 });
    const acc = xs.filter((x, i) => predict(model, x) >= 0.5 === ys[i]).length / xs.length;
    expect(acc).toBeGreaterThan(0.9);
    const critic = await createOnnxCritic(toOnnx(model));
    const onnx = await critic.score(xs.slice(0, 20));
    onnx.forEach((p, i) => expect(p).toBeCloseTo(predict(model, xs[i]!), 4));
  });
});
