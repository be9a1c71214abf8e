/**
 * Trains the learned critic channel (critics/learned-critic.ts) on checker labels dumped by the critics bench:
 *
 *   npx tsx bench/critics.ts --rollouts 500 --dump /tmp/critic-features.jsonl
 *   npx tsx bench/train-learned-critic.ts --data /tmp/critic-features.jsonl --out models/learned-critic
 *
 * or on the pipeline's own judged rollouts, labelled by the checkers and, where no checker exists, by human reviewers:
 *
 *   npm run trajforge -- review dump-features --out /tmp/review-features.jsonl
 *
 * Fits on the validation split only, picks the acceptance threshold there (max recall s.t. precision ≥ target),
 * exports `learned-critic.onnx` (MatMul + Add + Sigmoid) and `learned-critic.provenance.json` (data hash, seeds,
 * apps, split sizes, features, hyper-parameters, weights, metrics, baselines, cost), and scores the held-out
 * report split through onnxruntime-node. Report-split baselines: accept-everything (precision = success rate)
 * and the LLM channels' `both` consensus re-derived from the vote-share features (majority per channel); AUC is
 * threshold-free (0.5 = useless). Cost: wall ms per trajectory for features + one single-row ONNX run.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { confusionOf, fmtRatio, metricsOf, type Metrics } from '../critics/calibration.js';
import { FEATURE_NAMES, createOnnxCritic, features, predict, toOnnx, trainLogistic } from '../critics/learned-critic.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    out: { type: 'string', default: 'models/learned-critic' },
    'precision-target': { type: 'string', default: '0.97' },
    epochs: { type: 'string', default: '3000' },
    lr: { type: 'string', default: '0.5' },
    l2: { type: 'string', default: '0.001' },
    /** Free text recorded in the provenance (e.g. which reference critics/policy produced the data). */
    note: { type: 'string', default: '' },
    /** Model version and status recorded in the provenance. */
    version: { type: 'string', default: 'v1' },
    status: { type: 'string', default: '' },
  },
});

/** Area under the ROC curve (probability a random positive outscores a random negative; ties count half). */
function auc(scores: readonly number[], labels: readonly boolean[]): number | null {
  const pos = scores.filter((_, i) => labels[i]);
  const neg = scores.filter((_, i) => !labels[i]);
  if (pos.length === 0 || neg.length === 0) return null;
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

interface Example {
  rolloutId: string;
  queryId?: string;
  app?: string;
  split: 'validation' | 'report';
  groundTruth: boolean;
  /** `human` for lines whose label is a reviewer verdict (`trajforge review dump-features`); absent = checker. */
  labelSource?: 'checker' | 'human';
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
  const tsReport = report.map((e) => predict(model, e.features));
  const maxOnnxVsTs = Math.max(0, ...reportP.map((p, i) => Math.abs(p - (tsReport[i] ?? 0))));
  const acceptAll = metricsOf(confusionOf(report.map((e) => ({ predicted: true, actual: e.groundTruth }))));
  const llmBoth = metricsOf(confusionOf(report.map((e) => ({ predicted: (e.features[7] ?? 0) > 0.5 && (e.features[8] ?? 0) > 0.5, actual: e.groundTruth }))));
  // Cost per trajectory as the activity pays it: features from critic outputs + one single-row ONNX run.
  const sample = {
    instruction: 'Order a Margherita pizza from Luigi and pay with the saved card',
    annotations: ['GOOD', 'NEUTRAL', 'GOOD', 'GOOD', 'HARMFUL', 'GOOD'] as const,
    outcome: 'success',
    textVotes: [true, true, false],
    multimodalVotes: [true, true, true],
    finalCaption: 'Order placed | Margherita pizza | Luigi | Paid with card ending 4242 | Track order',
  };
  for (let i = 0; i < 50; i++) await critic.score([features(sample)]);
  const runs = 500;
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) await critic.score([features(sample)]);
  const msPerTrajectory = (performance.now() - t0) / runs;
  const seeds = [...new Set(all.map((e) => Number((e.queryId ?? e.rolloutId).split('/')[0])).filter(Number.isInteger))].sort((a, b) => a - b);
  const apps = Object.fromEntries(
    [...new Set(all.map((e) => e.app ?? '?'))].sort().map((a) => [a, all.filter((e) => (e.app ?? '?') === a).length]),
  );
  const temperatures = [...new Set(all.map((e) => /\/t([0-9.]+)$/.exec(e.rolloutId)?.[1]).filter((t) => t !== undefined))].sort();
  await mkdir(values.out, { recursive: true });
  await writeFile(join(values.out, 'learned-critic.onnx'), onnx);
  const provenance = {
    model: 'logistic regression (MatMul + Add + Sigmoid), onnx opset 13',
    trainedAt: new Date().toISOString(),
    version: values.version,
    status:
      values.status ||
      'trained on data from the reference critics and policy as they were at training time; the feature distribution (vote shares, ' +
        'step annotations) moves with them: retrain after they change (README, critics section)',
    note: values.note,
    data: {
      file: values.data,
      sha256: createHash('sha256').update(raw).digest('hex'),
      generatedBy: 'npx tsx bench/critics.ts --dump (checker-labelled rollouts of the reference policy, judged by the reference critics)',
      examples: all.length,
      train: train.length,
      report: report.length,
      positives: { train: train.filter((e) => e.groundTruth).length, report: report.filter((e) => e.groundTruth).length },
      seeds,
      temperatures,
      apps,
    },
    split: 'validation = sha256(salt, queryId) < 0.5 (critics/calibration.ts splitOf); trained and thresholded on validation only',
    labels: `app checker ground truth (never a critic input), else reviewer verdicts: ${all.filter((e) => e.labelSource === 'human').length} of ${all.length} examples human-labelled`,
    features: FEATURE_NAMES,
    hyperparameters: hyper,
    weights: model.weights,
    bias: model.bias,
    threshold,
    precisionTarget: target,
    metTargetOnValidation: best !== undefined,
    metrics: {
      validation,
      report: held,
      reportAuc: auc(reportP, report.map((e) => e.groundTruth)),
      validationAuc: auc(trainP, train.map((e) => e.groundTruth)),
    },
    baselinesOnReport: { acceptAll, llmConsensusBoth: llmBoth },
    onnxVsTsMaxAbsDiff: maxOnnxVsTs,
    cost: { msPerTrajectory: Number(msPerTrajectory.toFixed(4)), measuredWith: 'features() + one single-row onnxruntime-node run, after warm-up' },
    onnxSha256: createHash('sha256').update(onnx).digest('hex'),
  };
  await writeFile(join(values.out, 'learned-critic.provenance.json'), `${JSON.stringify(provenance, null, 2)}\n`);
  console.log(`learned critic: trained on ${train.length} validation rollouts, threshold ${threshold}${best ? '' : ` (precision ${target} not reachable; default)`}`);
  console.log(`  validation  P ${fmtRatio(validation.precision)} R ${fmtRatio(validation.recall)}  tp ${validation.tp} fp ${validation.fp} tn ${validation.tn} fn ${validation.fn}`);
  console.log(`  report      P ${fmtRatio(held.precision)} R ${fmtRatio(held.recall)}  tp ${held.tp} fp ${held.fp} tn ${held.tn} fn ${held.fn}  (onnxruntime)  AUC ${provenance.metrics.reportAuc?.toFixed(3) ?? '–'}`);
  console.log(`  baselines (report): accept-all P ${fmtRatio(acceptAll.precision)} R ${fmtRatio(acceptAll.recall)}; LLM both P ${fmtRatio(llmBoth.precision)} R ${fmtRatio(llmBoth.recall)}`);
  console.log(`  cost ${msPerTrajectory.toFixed(3)} ms per trajectory; ONNX vs TS max |Δp| ${maxOnnxVsTs.toExponential(2)}; seeds ${seeds.join(',')}; apps ${Object.keys(apps).join(',')}`);
  console.log(`  wrote ${join(values.out, 'learned-critic.onnx')} and learned-critic.provenance.json`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
