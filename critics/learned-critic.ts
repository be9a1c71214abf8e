/**
 * A learned trajectory-critic channel (experimental): logistic regression over features a deployed critic can
 * see — the step critic's annotations, the two channels' vote shares, the agent's own claimed outcome, and how
 * much of the instruction's wording the final screen's OCR caption shows — trained in TypeScript on checker
 * labels (training only; the features never contain ground truth), exported as an ONNX graph
 * (MatMul + Add + Sigmoid, written with protobufjs) and run by onnxruntime-node.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import type { StepAnnotation } from '../domain/entities.js';

export const FEATURE_NAMES = [
  'good_share',
  'neutral_share',
  'harmful_share',
  'last_step_good',
  'last_step_harmful',
  'steps_over_15',
  'claimed_success',
  'text_vote_share',
  'multimodal_vote_share',
  'instruction_token_overlap_final_caption',
] as const;
export const FEATURE_COUNT = FEATURE_NAMES.length;

export interface FeatureInput {
  instruction: string;
  annotations: readonly StepAnnotation[];
  /** The agent's own outcome (terminate status or answer); never the checker's. */
  outcome?: string | undefined;
  textVotes: readonly boolean[];
  multimodalVotes: readonly boolean[];
  finalCaption: string;
}

const tokens = (s: string): string[] => s.toLowerCase().match(/[a-z0-9]+/g) ?? [];
const STOP = new Set(['the', 'a', 'an', 'to', 'of', 'and', 'in', 'on', 'for', 'my', 'me', 'with', 'it', 'is', 'at', 'from', 'please', 'i']);

export function features(x: FeatureInput): number[] {
  const n = x.annotations.length;
  const share = (a: StepAnnotation): number => (n === 0 ? 0 : x.annotations.filter((y) => y === a).length / n);
  const last = x.annotations[n - 1];
  const voteShare = (v: readonly boolean[]): number => (v.length === 0 ? 0 : v.filter(Boolean).length / v.length);
  const want = [...new Set(tokens(x.instruction).filter((t) => !STOP.has(t)))];
  const have = new Set(tokens(x.finalCaption));
  const overlap = want.length === 0 ? 0 : want.filter((t) => have.has(t)).length / want.length;
  return [
    share('GOOD'),
    share('NEUTRAL'),
    share('HARMFUL'),
    last === 'GOOD' ? 1 : 0,
    last === 'HARMFUL' ? 1 : 0,
    Math.min(2, n / 15),
    x.outcome !== undefined && /success/i.test(x.outcome) ? 1 : 0,
    voteShare(x.textVotes),
    voteShare(x.multimodalVotes),
    overlap,
  ];
}

export interface LogisticModel {
  weights: number[];
  bias: number;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export function predict(model: LogisticModel, x: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < model.weights.length; i++) z += (model.weights[i] ?? 0) * (x[i] ?? 0);
  return sigmoid(z);
}

/** Full-batch gradient descent on the L2-regularised log loss; deterministic (zero init). */
export function trainLogistic(
  xs: readonly (readonly number[])[],
  ys: readonly boolean[],
  opts: { epochs?: number; lr?: number; l2?: number } = {},
): LogisticModel {
  const d = xs[0]?.length ?? 0;
  const epochs = opts.epochs ?? 2000;
  const lr = opts.lr ?? 0.5;
  const l2 = opts.l2 ?? 1e-3;
  const w = new Array<number>(d).fill(0);
  let b = 0;
  const m = Math.max(1, xs.length);
  for (let e = 0; e < epochs; e++) {
    const gw = new Array<number>(d).fill(0);
    let gb = 0;
    xs.forEach((x, i) => {
      const err = predict({ weights: w, bias: b }, x) - (ys[i] ? 1 : 0);
      for (let j = 0; j < d; j++) gw[j]! += err * (x[j] ?? 0);
      gb += err;
    });
    for (let j = 0; j < d; j++) w[j] = w[j]! - lr * (gw[j]! / m + l2 * w[j]!);
    b -= (lr * gb) / m;
  }
  return { weights: w, bias: b };
}

// ------------------------------------------------------------------------------------------------- ONNX

/** The subset of onnx.proto (IR v8) needed for a dense float graph. */
const ONNX_PROTO = {
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
          },
        },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            floatData: { rule: 'repeated', type: 'float', id: 4, options: { packed: true } },
            name: { type: 'string', id: 8 },
          },
        },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: { fields: { tensorType: { type: 'TypeProtoTensor', id: 1 } } },
        TypeProtoTensor: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        Dimension: { fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } } },
      },
    },
  },
};

const FLOAT = 1;

/** Serialises `sigmoid(X·W + B)` (X: [N, d] float32 → Y: [N, 1]) as an ONNX model (opset 13). */
export function toOnnx(model: LogisticModel): Uint8Array {
  const root = protobuf.Root.fromJSON(ONNX_PROTO);
  const Model = root.lookupType('onnx.ModelProto');
  const d = model.weights.length;
  const tensorType = (dims: (number | string)[]) => ({
    tensorType: { elemType: FLOAT, shape: { dim: dims.map((x) => (typeof x === 'number' ? { dimValue: x } : { dimParam: x })) } },
  });
  const payload = {
    irVersion: 8,
    producerName: 'trajforge-learned-critic',
    producerVersion: '1',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'logistic_critic',
      node: [
        { input: ['X', 'W'], output: ['XW'], name: 'matmul', opType: 'MatMul' },
        { input: ['XW', 'B'], output: ['Z'], name: 'add', opType: 'Add' },
        { input: ['Z'], output: ['Y'], name: 'sigmoid', opType: 'Sigmoid' },
      ],
      initializer: [
        { name: 'W', dims: [d, 1], dataType: FLOAT, floatData: model.weights },
        { name: 'B', dims: [1], dataType: FLOAT, floatData: [model.bias] },
      ],
      input: [{ name: 'X', type: tensorType(['N', d]) }],
      output: [{ name: 'Y', type: tensorType(['N', 1]) }],
    },
  };
  const err = Model.verify(payload);
  if (err) throw new Error(`onnx model: ${err}`);
  return Model.encode(Model.fromObject(payload)).finish();
}

/** Runs an exported model with onnxruntime-node: probability of "Correct" per row. */
export async function createOnnxCritic(bytes: Uint8Array): Promise<{ score(xs: readonly (readonly number[])[]): Promise<number[]> }> {
  const ort = await import('onnxruntime-node');
  const session = await ort.InferenceSession.create(bytes);
  return {
    async score(xs) {
      if (xs.length === 0) return [];
      const d = xs[0]!.length;
      const data = new Float32Array(xs.length * d);
      xs.forEach((x, i) => x.forEach((v, j) => (data[i * d + j] = v)));
      const out = await session.run({ X: new ort.Tensor('float32', data, [xs.length, d]) });
      const y = out.Y;
      if (!y) throw new Error('onnx critic: no output Y');
      return Array.from(y.data as Float32Array);
    },
  };
}

// ------------------------------------------------------------------------------------------------- pipeline

/** The trajforge checkout: relative model paths resolve against it, not the working directory. */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface LearnedCriticSpec {
  /** Absolute path of the .onnx file. */
  path: string;
  /** sha256 of the .onnx bytes (lineage: part of the critic version). */
  sha256: string;
  /** Acceptance threshold on P(Correct): the configured one, else the provenance's, else 0.5. */
  threshold: number;
  /** `<stem>.provenance.json` beside the model, when present. */
  provenance?: Record<string, unknown> | undefined;
  bytes: Uint8Array;
}

const specCache = new Map<string, LearnedCriticSpec>();

/**
 * Reads a model file and its provenance (synchronously; cached per path and threshold — the bytes are tiny),
 * checking that the provenance's feature list, if any, is this code's FEATURE_NAMES. Throws on a missing file.
 */
export function readLearnedCriticSpec(modelPath: string, threshold?: number): LearnedCriticSpec {
  const path = isAbsolute(modelPath) ? modelPath : resolvePath(REPO_ROOT, modelPath);
  const key = `${path}\0${threshold ?? ''}`;
  const cached = specCache.get(key);
  if (cached) return cached;
  const bytes = new Uint8Array(readFileSync(path));
  const provPath = `${path.replace(/\.onnx$/, '')}.provenance.json`;
  let provenance: Record<string, unknown> | undefined;
  if (existsSync(provPath)) {
    provenance = JSON.parse(readFileSync(provPath, 'utf8')) as Record<string, unknown>;
    const names = provenance.features;
    if (Array.isArray(names) && JSON.stringify(names) !== JSON.stringify(FEATURE_NAMES)) {
      throw new Error(`${provPath}: the model was trained on features ${JSON.stringify(names)}, this code computes ${JSON.stringify(FEATURE_NAMES)}; retrain it`);
    }
  }
  const fromProvenance = typeof provenance?.threshold === 'number' ? provenance.threshold : undefined;
  const spec: LearnedCriticSpec = {
    path,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    threshold: threshold ?? fromProvenance ?? 0.5,
    provenance,
    bytes,
  };
  specCache.set(key, spec);
  return spec;
}

export interface LearnedVerdict {
  /** P(Correct) from the ONNX model. */
  probability: number;
  correct: boolean;
  features: number[];
}

export interface LearnedCritic {
  spec: LearnedCriticSpec;
  judge(input: FeatureInput): Promise<LearnedVerdict>;
}

/** An onnxruntime-node session over the spec's model; one per worker (sessions are reusable and thread-safe). */
export async function loadLearnedCritic(spec: LearnedCriticSpec): Promise<LearnedCritic> {
  const critic = await createOnnxCritic(spec.bytes);
  // Fails here (not on the first rollout) when the graph's input width is not FEATURE_COUNT.
  await critic.score([new Array<number>(FEATURE_COUNT).fill(0)]);
  return {
    spec,
    async judge(input) {
      const f = features(input);
      const [p] = await critic.score([f]);
      if (p === undefined || !Number.isFinite(p)) throw new Error(`learned critic ${spec.path}: no probability`);
      return { probability: p, correct: p >= spec.threshold, features: f };
    },
  };
}

/**
 * How the learned channel enters the final verdict: `off` (recorded and calibrated only; the consensus is the
 * LLM channels' rule — the paper's default), `and` (accept only if the LLM consensus and the learned channel
 * both accept), `majority` (2 of 3 among text, multimodal and learned).
 */
export type LearnedConsensus = 'off' | 'and' | 'majority';

export function combineLearned(
  mode: LearnedConsensus,
  base: boolean,
  channels: readonly { channel: string; correct: boolean }[],
  learned: boolean | undefined,
): boolean {
  if (learned === undefined || mode === 'off') return base;
  if (mode === 'and') return base && learned;
  const votes = [...channels.filter((c) => c.channel === 'text' || c.channel === 'multimodal').map((c) => c.correct), learned];
  return votes.filter(Boolean).length * 2 > votes.length;
}

/** The learned critic's input from a judged rollout, exactly as bench/critics.ts --dump builds training rows. */
export function featureInputOf(x: {
  instruction: string;
  outcome?: string | undefined;
  annotations: readonly StepAnnotation[];
  channels: readonly { channel: string; votes: readonly boolean[] }[];
  captions: readonly string[];
}): FeatureInput {
  return {
    instruction: x.instruction,
    annotations: x.annotations,
    outcome: x.outcome,
    textVotes: x.channels.find((c) => c.channel === 'text')?.votes ?? [],
    multimodalVotes: x.channels.find((c) => c.channel === 'multimodal')?.votes ?? [],
    finalCaption: x.captions[x.captions.length - 1] ?? '',
  };
}
