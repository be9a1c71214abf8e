import { z } from 'zod';
import { ConsensusRule } from './entities.js';

/** One model role's OpenAI-compatible endpoint (secrets excluded from lineage hashes). */
export const RoleEndpointConfig = z.object({
  baseUrl: z.string().url(),
  model: z.string().min(1),
  apiKey: z.string().optional(),
  temperature: z.number().min(0).max(2).default(0),
  topP: z.number().gt(0).max(1).optional(),
  maxTokens: z.number().int().positive().optional(),
  timeoutMs: z.number().int().positive().default(120_000),
  maxRetries: z.number().int().min(0).default(4),
  concurrency: z.number().int().positive().default(8),
  /** USD per million prompt / completion tokens, for cost accounting (absent: 0, e.g. the reference server). */
  pricing: z.object({ inputPerMTok: z.number().min(0), outputPerMTok: z.number().min(0) }).optional(),
});
export type RoleEndpointConfig = z.infer<typeof RoleEndpointConfig>;

export const ROLES = [
  'policy',
  'stepCritic',
  'trajCriticText',
  'trajCriticMultimodal',
  'querySynth',
  'queryRefine',
  // Multi-agent modes (agents/mobile-agent-v3.ts, agents/swirl.ts, agents/ces.ts).
  'manager',
  'worker',
  'reflector',
  'notetaker',
  'navigator',
  'interactor',
  'coordinator',
  'executor',
  'stateTracker',
  // Guidance synthesis and reasoning data (synthesis/): describer, quality control, synthesiser, hint-guided
  // reasoner, thought–action consistency judge, multi-agent → end-to-end distiller.
  'guideDescriber',
  'guideQc',
  'guideSynth',
  'reasoner',
  'consistency',
  'distiller',
] as const;
export type Role = (typeof ROLES)[number];

/** Reference-server model names for each role (see models/reference/roles.ts). */
export const REFERENCE_MODEL_NAMES: Record<Role, string> = {
  policy: 'ref-policy',
  stepCritic: 'ref-step-critic',
  trajCriticText: 'ref-traj-critic-text',
  trajCriticMultimodal: 'ref-traj-critic-mm',
  querySynth: 'ref-query-synth',
  queryRefine: 'ref-query-refine',
  manager: 'ref-manager',
  worker: 'ref-worker',
  reflector: 'ref-reflector',
  notetaker: 'ref-notetaker',
  navigator: 'ref-navigator',
  interactor: 'ref-interactor',
  coordinator: 'ref-coordinator',
  executor: 'ref-executor',
  stateTracker: 'ref-state-tracker',
  guideDescriber: 'ref-guide-describer',
  guideQc: 'ref-guide-qc',
  guideSynth: 'ref-guide-synth',
  reasoner: 'ref-reasoner',
  consistency: 'ref-consistency',
  distiller: 'ref-distiller',
};

/** The committed v1 learned-critic model (models/learned-critic/, trained by bench/train-learned-critic.ts). */
export const DEFAULT_LEARNED_MODEL = 'models/learned-critic/learned-critic.onnx';

export const VoteRule = z.enum(['all', 'majority', 'any']);
export type VoteRule = z.infer<typeof VoteRule>;

/**
 * Everything that shapes what one production cycle makes. It travels through workflow history (small),
 * and its canonical hash is the `config_hash` lineage column on every artifact.
 */
export const CycleConfig = z.object({
  /** Queries generated per cycle. */
  queries: z.number().int().min(1).max(10_000).default(20),
  /** Rollout attempts per query (K). */
  attempts: z.number().int().min(1).max(64).default(2),
  /** Episode step budget. */
  maxSteps: z.number().int().min(1).max(100).default(15),
  /** Base seed; the cycle number is mixed in so every cycle samples new queries. */
  seed: z.number().int().default(7),
  /** Built-in apps to generate queries for; empty = all. */
  apps: z.array(z.string()).default([]),
  /**
   * Task families to generate queries for (`create_alarm`, …; e.g. the families the served policy fails, found by
   * bench/evolve.ts `--hard-families`). Absent = every family; optional without a default so configs (and their
   * hashes) written before it stay unchanged.
   */
  families: z.array(z.string().min(1)).min(1).optional(),
  /**
   * Where episodes run: `phone` (the built-in apps in Chromium, `mobile_use`) or `desktop` (real Debian applications
   * on Xvfb, `computer_use`; environments/desktop/). Absent = `phone`; optional without a default so configs (and
   * their hashes) written before it stay unchanged. Read it with `platformOf`.
   */
  platform: z.enum(['phone', 'desktop']).optional(),
  /** `gui-owl`: end-to-end policy; the others are multi-agent loops (agents/run.ts). */
  agentMode: z.enum(['gui-owl', 'mobile-agent-v3', 'swirl', 'ces']).default('gui-owl'),
  /** GUI-Owl keeps the last 1–3 screenshots in the prompt. */
  historyImages: z.number().int().min(1).max(3).default(1),
  /** Policy sampling temperature for rollouts (attempt 0 runs at 0 when `greedyFirstAttempt`). */
  policyTemperature: z.number().min(0).max(2).default(0.7),
  greedyFirstAttempt: z.boolean().default(true),
  critic: z
    .object({
      votes: z.number().int().min(1).max(9).default(1),
      voteRule: VoteRule.default('majority'),
      consensus: ConsensusRule.default('both'),
      /** Steps whose CriticScore is below τc are cleansed from accepted trajectories. */
      tauC: z.number().min(0).max(1).default(0.25),
      /**
       * Trajectory-level τc gate: a trajectory is accepted only if the consensus accepts it AND the mean
       * CriticScore of its steps is at least this (0 = no gate). `trajforge critics report` prints the value the
       * validation split chooses (critics/calibration.ts selectRule); set it here to apply it.
       */
      trajectoryTauC: z.number().min(0).max(1).default(0),
      /**
       * The learned critic channel (critics/learned-critic.ts): a logistic regression over critic-visible
       * features, run as ONNX by onnxruntime-node once per judged trajectory and stored as channel `learned`.
       */
      learned: z
        .object({
          /** ONNX model; relative paths resolve against the trajforge checkout. null = channel off. */
          model: z.string().min(1).nullable().default(DEFAULT_LEARNED_MODEL),
          /** Accept when P(Correct) ≥ threshold; absent = the threshold in the model's provenance file. */
          threshold: z.number().gt(0).lt(1).optional(),
          /** `off`: recorded and calibrated only (consensus unchanged); `and`: consensus AND learned; `majority`: 2 of text/multimodal/learned. */
          consensus: z.enum(['off', 'and', 'majority']).default('off'),
        })
        .strict()
        .prefault({}),
    })
    .prefault({}),
  /** Concurrent episodes (bounded by environment sessions). */
  concurrency: z.number().int().min(1).max(64).default(2),
  /** Replay every generated query in the real app (interface validation) and drop stale ones. Off by default. */
  validateQueries: z.boolean().default(false),
  /** Path sampler for query generation (query-gen/paths.ts). */
  querySampler: z.enum(['families', 'uniform', 'length', 'coverage']).default('families'),
  /** Share of generated queries made infeasible on purpose (ZeroGUI-style). */
  infeasibleRate: z.number().min(0).max(0.5).default(0),
  datasetName: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).default('gui-owl-e2e'),
  /**
   * The policy version rollouts use (the model registry's version: the self-evolving line sets it to the promoted
   * version, the eval gate to the version under test). Absent: the version the worker serves by default.
   * Optional without a default so configs (and their hashes) written before it stay unchanged.
   */
  policyVersion: z.string().regex(/^[0-9A-Za-z][0-9A-Za-z._-]*$/).optional(),
  /**
   * Query-specific guidance for hard queries (GUI-Owl §6.4; workflows/guidance.ts). A query is hard when it has
   * `minAttempts` judged attempts and no accepted one; at most `maxQueries` per cycle get reference attempts in
   * `referenceAgentMode` (another role configuration), guidance synthesised from the first accepted reference, and
   * `guidedAttempts` guided re-rollouts.
   */
  guidance: z
    .object({
      enabled: z.boolean().default(true),
      minAttempts: z.number().int().min(1).max(64).default(2),
      maxQueries: z.number().int().min(0).max(100).default(2),
      referenceAgentMode: z.enum(['gui-owl', 'mobile-agent-v3', 'swirl', 'ces']).default('mobile-agent-v3'),
      referenceAttempts: z.number().int().min(1).max(16).default(2),
      /**
       * Where references come from, tried in order until one is accepted: `demonstration` (the demonstration library,
       * environments/demonstrations/: a person's recording of the instruction, else the family's scripted
       * demonstration, checker-verified) and agent modes (`referenceAttempts` attempts in that role configuration,
       * judged by the critics). Absent: `[referenceAgentMode]` — optional without a default so configs (and their
       * hashes) written before it stay unchanged.
       */
      referenceSources: z.array(z.enum(['demonstration', 'gui-owl', 'mobile-agent-v3', 'swirl', 'ces'])).min(1).optional(),
      guidedAttempts: z.number().int().min(1).max(16).default(2),
      /** Put the guidance text into exported prompts (`--keep-guidance`); off: exports never contain it. */
      keepInExport: z.boolean().default(false),
    })
    .strict()
    .prefault({}),
  /**
   * Reasoning data stage (workflows/reasoning.ts): after judging and guidance, on accepted rollouts — the
   * thought–action consistency filter and hint-guided rejection sampling, every decision recorded with its reason.
   */
  reasoning: z
    .object({
      enabled: z.boolean().default(true),
      /** Accepted rollouts processed per cycle (the first by id). */
      maxRollouts: z.number().int().min(0).max(10_000).default(2),
      /** Hint styles tried per step (domain/guidance.ts HINT_STYLES; two by default to keep a cycle's cost down). */
      styles: z.array(z.enum(['cot-template', 'simplest', 'screen-first', 'goal-first'])).min(1).default(['cot-template', 'simplest']),
    })
    .strict()
    .prefault({}),
});
export type CycleConfig = z.infer<typeof CycleConfig>;
export type Platform = NonNullable<CycleConfig['platform']>;

/** The cycle's platform (`phone` when absent). */
export function platformOf(config: Pick<CycleConfig, 'platform'>): Platform {
  return config.platform ?? 'phone';
}

/** Stable JSON: object keys sorted, so equal configs hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
