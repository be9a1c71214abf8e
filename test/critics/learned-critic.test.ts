import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FEATURE_COUNT,
  FEATURE_NAMES,
  createOnnxCritic,
  features,
  loadLearnedCritic,
  predict,
  readLearnedCriticSpec,
  toOnnx,
  trainLogistic,
  type FeatureInput,
} from '../../critics/learned-critic.js';
import { CycleConfig, DEFAULT_LEARNED_MODEL } from '../../domain/config.js';

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

describe('the committed learned critic (models/learned-critic)', () => {
  it('loads with its provenance; onnxruntime gives the same verdicts as the TS predict over the provenance weights', async () => {
    const spec = readLearnedCriticSpec(DEFAULT_LEARNED_MODEL);
    const prov = spec.provenance as {
      features: string[];
      weights: number[];
      bias: number;
      threshold: number;
      onnxSha256: string;
      data: { examples: number; sha256: string; seeds: number[]; apps: Record<string, number> };
      metrics: { report: { n: number } };
    };
    expect(prov.features).toEqual([...FEATURE_NAMES]);
    expect(spec.sha256).toBe(prov.onnxSha256);
    expect(spec.threshold).toBe(prov.threshold);
    expect(prov.data.examples).toBeGreaterThan(0);
    expect(prov.data.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(prov.data.seeds.length).toBeGreaterThan(0);
    expect(prov.metrics.report.n).toBeGreaterThan(0);
    const model = { weights: prov.weights, bias: prov.bias };
    const critic = await loadLearnedCritic(spec);
    // Deterministic spread of inputs, including the decision boundary's neighbourhood.
    const inputs: FeatureInput[] = [];
    const anns = ['GOOD', 'NEUTRAL', 'HARMFUL'] as const;
    for (let i = 0; i < 60; i++) {
      inputs.push({
        instruction: 'Order a Margherita pizza from Luigi',
        annotations: Array.from({ length: 1 + (i % 9) }, (_, j) => anns[(i + j * (i % 3)) % 3]!),
        // Odd i: the critics rejected unanimously and the agent gave up; even i: mostly accepted.
        outcome: i % 2 === 1 ? 'failure' : i % 5 === 0 ? undefined : 'success',
        textVotes: i % 2 === 1 ? [false, false, false] : [true, i % 3 === 0, true],
        multimodalVotes: i % 2 === 1 ? [i % 7 === 0, false] : [i % 7 !== 0, true],
        finalCaption: i % 3 === 0 ? 'Order placed | Margherita pizza | Luigi' : 'Home | Search',
      });
    }
    let accepted = 0;
    for (const x of inputs) {
      const v = await critic.judge(x);
      const ts = predict(model, features(x));
      expect(v.probability).toBeCloseTo(ts, 5);
      expect(v.correct).toBe(ts >= spec.threshold);
      if (v.correct) accepted++;
    }
    // The inputs exercise both sides of the threshold (else the verdict check above proves little).
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(inputs.length);
  });

  it('a model whose provenance lists other features is refused (retrain instead of mis-scoring)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trajforge-lc-'));
    try {
      await writeFile(join(dir, 'm.onnx'), toOnnx({ weights: new Array<number>(FEATURE_COUNT).fill(0), bias: 0 }));
      await writeFile(join(dir, 'm.provenance.json'), JSON.stringify({ features: ['a', 'b'] }));
      expect(() => readLearnedCriticSpec(join(dir, 'm.onnx'))).toThrow(/retrain/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('CycleConfig.critic.learned', () => {
  it('defaults to the committed model, recorded only (consensus off); null turns it off; bad values name the field', () => {
    expect(CycleConfig.parse({}).critic.learned).toEqual({ model: DEFAULT_LEARNED_MODEL, consensus: 'off' });
    expect(CycleConfig.parse({ critic: { learned: { model: null } } }).critic.learned.model).toBeNull();
    const bad = CycleConfig.safeParse({ critic: { learned: { consensus: 'sometimes', threshold: 1.5 } } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['critic.learned.consensus', 'critic.learned.threshold']);
  });
});
