/**
 * Trains the learned critic channel (critics/learned-critic.ts) on checker labels dumped by the critics bench:
 *
 *   npx tsx bench/critics.ts --rollouts 500 --dump /tmp/critic-features.jsonl
 *   npx tsx bench/train-learned-critic.ts --data /tmp/critic-features.jsonl --out models/learned-critic
 *
 * Fits on the validation split only, picks the acceptance threshold there (max recall s.t. precision ≥ target),
 * exports `learned-critic.onnx` (MatMul + Add + Sigmoid) and `learned-critic.provenance.json` (data hash, split,
 * features, hyper-parameters, weights, metrics), and scores the held-out report split through onnxruntime-node.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { confusionOf, fmtRatio, metricsOf, type Metrics } from '../critics/calibration.js';
import { FEATURE_NAMES, createOnnxCritic, predict, toOnnx, trainLogistic } from '../critics/learned-critic.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    out: { type: 'string', default: 'models/learned-critic' },
    'precision-target': { type: 'string', default: '0.97' },
    epochs: { type: 'string', default: '3000' },
    lr: { type: 'string', default: '0.5' },
    l2: { type: 'string', default: '0.001' },
  },
});

interface Example {
  rolloutId: string;
  split: 'validation' | 'report';
  groundTruth: boolean;
  features: number[];
}

async function main(): Promise<void> {
  if (!values.data) throw new Error('--data FILE (from bench/critics.ts --dump) is required');
  const raw = await readFile(values.data, 'utf8');
  const all = raw.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Example);
  const train = all.filter((e) => e.split === 'validation');
  const report = all.filter((e) => e.split === 'report');
  const hyper = { epochs: Number(values.epochs), lr: Number(values.lr), l2: Number(values.l2) };
  const model = trainLogistic(train.map((e) => e.features), train.map((e) => e.groundTruth), hyper);
  const target = Number(values['precision-target']);
  const at = (set: Example[], p: number[], t: number): Metrics =>
    metricsOf(confusionOf(set.map((e, i) => ({ predicted: (p[i] ?? 0) >= t, actual: e.groundTruth }))));
  const trainP = train.map((e) => predict(model, e.features));
  let threshold = 0.5;
  let best: Metrics | undefined;
  for (let t = 0.05; t <= 0.991; t += 0.01) {
    const m = at(train, trainP, t);
    if (m.precision !== null && m.precision >= target && (best === undefined || (m.recall ?? 0) > (best.recall ?? 0))) {
      best = m;
      threshold = Number(t.toFixed(2));
    }
  }
  const onnx = toOnnx(model);
  const critic = await createOnnxCritic(onnx);
  const reportP = await critic.score(report.map((e) => e.features));
  const validation = at(train, trainP, threshold);
  const held = at(report, reportP, threshold);
  await mkdir(values.out, { recursive: true });
  await writeFile(join(values.out, 'learned-critic.onnx'), onnx);
  const provenance = {
    model: 'logistic regression (MatMul + Add + Sigmoid), onnx opset 13',
    trainedAt: new Date().toISOString(),
    data: { file: values.data, sha256: createHash('sha256').update(raw).digest('hex'), examples: all.length, train: train.length, report: report.length },
    split: 'validation = sha256(salt, queryId) < 0.5 (critics/calibration.ts splitOf); trained and thresholded on validation only',
    labels: 'app checker ground truth (never a critic input)',
    features: FEATURE_NAMES,
    hyperparameters: hyper,
    weights: model.weights,
    bias: model.bias,
    threshold,
    precisionTarget: target,
    metTargetOnValidation: best !== undefined,
    metrics: { validation, report: held },
    onnxSha256: createHash('sha256').update(onnx).digest('hex'),
  };
  await writeFile(join(values.out, 'learned-critic.provenance.json'), `${JSON.stringify(provenance, null, 2)}\n`);
  console.log(`learned critic: trained on ${train.length} validation rollouts, threshold ${threshold}${best ? '' : ` (precision ${target} not reachable; default)`}`);
  console.log(`  validation  P ${fmtRatio(validation.precision)} R ${fmtRatio(validation.recall)}  tp ${validation.tp} fp ${validation.fp} tn ${validation.tn} fn ${validation.fn}`);
  console.log(`  report      P ${fmtRatio(held.precision)} R ${fmtRatio(held.recall)}  tp ${held.tp} fp ${held.fp} tn ${held.tn} fn ${held.fn}  (onnxruntime)`);
  console.log(`  wrote ${join(values.out, 'learned-critic.onnx')} and learned-critic.provenance.json`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
