import type { Step } from '../domain/entities.js';
import type { SftSample } from './gui-owl-sft.js';

/**
 * Row layouts of the snapshot formats (README "Datasets" documents each with a real sample). Every row carries its
 * lineage: in `meta` (JSONL) or `extra_info` (Parquet).
 */
export const FORMAT_IDS = {
  /** ms-swift / LLaMA-Factory multimodal `messages` JSONL. */
  sft: 'ms-swift-messages@2',
  /** LLaMA-Factory ShareGPT JSONL plus `dataset_info.json`. */
  sharegpt: 'llamafactory-sharegpt@1',
  /** verl-style step-level GRPO pool (Parquet) with rule-reward ground truth. */
  grpo: 'verl-grpo-step@1',
  /** Trajectory-level TRPO records (Parquet) and the success replay buffer. */
  trpo: 'trpo-trajectory@1',
  /** Per-role multimodal `messages` JSONL (Mobile-Agent-v3, SWIRL, CES roles). */
  roles: 'role-messages@1',
  /** InfiGUI-R1 Error-Escape and Back-on-Track samples (multimodal `messages` JSONL), from counterfactual execution. */
  error_recovery: 'error-recovery-messages@1',
  /**
   * Reasoning data (issue 18): kept hint-guided rejection-sampling traces and multi-agent → end-to-end distillations,
   * as `sft` rows (same prompt, the trace as the Thought, the executed action) with their lineage.
   */
  reasoning: 'reasoning-messages@1',
} as const;
export type FormatName = keyof typeof FORMAT_IDS;
export const FORMATS = Object.keys(FORMAT_IDS) as FormatName[];

/** Lineage of one exported row. */
export interface RowMeta {
  id: string;
  split: string;
  rollout_id: string;
  step: number;
  query_id: string;
  app: string;
  cycle_id: string;
  model_version: string;
  critic_version: string;
  dag_version: string;
  config_hash: string;
  acceptance_source: 'human' | 'critics';
  traj_num_steps: number;
}

export interface MessagesRow {
  id: string;
  messages: { role: string; content: string }[];
  images: string[];
  tools: string;
  meta: RowMeta & { critic_score: number | null; annotation: string | null; image_keys: string[]; guidance_version?: number; guidance_source?: string };
}

export function messagesRow(sample: SftSample, images: string[], meta: RowMeta): MessagesRow {
  return {
    id: sample.id,
    messages: sample.messages,
    images,
    tools: sample.tools,
    meta: {
      ...meta,
      critic_score: sample.meta.critic_score,
      annotation: sample.meta.annotation,
      image_keys: sample.image_keys,
      ...(sample.meta.guidance_version !== undefined ? { guidance_version: sample.meta.guidance_version } : {}),
      ...(sample.meta.guidance_source !== undefined ? { guidance_source: sample.meta.guidance_source } : {}),
    },
  };
}

export interface ShareGptRow {
  id: string;
  system: string;
  conversations: { from: 'human' | 'gpt'; value: string }[];
  tools: string;
  images: string[];
}

/**
 * LLaMA-Factory's ShareGPT layout: the system prompt in its own column, turns alternating `human`/`gpt` starting
 * with `human` (consecutive same-side messages are joined), `<image>` placeholders as in the messages layout.
 */
export function shareGptRow(sample: SftSample, images: string[]): ShareGptRow {
  const system = sample.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
  const conversations: ShareGptRow['conversations'] = [];
  for (const m of sample.messages) {
    if (m.role === 'system') continue;
    const from = m.role === 'assistant' ? 'gpt' : 'human';
    const last = conversations[conversations.length - 1];
    if (last?.from === from) last.value = `${last.value}\n${m.content}`;
    else conversations.push({ from, value: m.content });
  }
  return { id: sample.id, system, conversations, tools: sample.tools, images };
}

/** `dataset_info.json` entries LLaMA-Factory reads (one dataset per split file). */
export function llamaFactoryDatasetInfo(name: string, files: { split: string; path: string }[]): Record<string, unknown> {
  return Object.fromEntries(
    files.map((f) => [
      `${name}_${f.split}`,
      { file_name: f.path, formatting: 'sharegpt', columns: { messages: 'conversations', system: 'system', tools: 'tools', images: 'images' } },
    ]),
  );
}

/** Parquet image cell, Hugging Face `Image` feature layout: bytes (embedded) or null, and a path/URI. */
export interface ImageCell {
  bytes: string | null;
  path: string;
}

const EXTRA_INFO =
  'STRUCT(index BIGINT, split VARCHAR, id VARCHAR, rollout_id VARCHAR, step INTEGER, query_id VARCHAR, app VARCHAR, cycle_id VARCHAR, ' +
  'model_version VARCHAR, critic_version VARCHAR, dag_version VARCHAR, config_hash VARCHAR, acceptance_source VARCHAR, traj_num_steps INTEGER, tools VARCHAR)';
const PROMPT = 'STRUCT(role VARCHAR, content VARCHAR)[]';
const IMAGES = 'STRUCT(bytes VARCHAR, path VARCHAR)[]';
/** Staged base64 → BLOB, so Parquet holds raw bytes (null when not embedded). */
export const IMAGES_SELECT = "list_transform(images, x -> {'bytes': from_base64(x.bytes), 'path': x.path}) AS images";

export const GRPO_COLUMNS = {
  data_source: 'VARCHAR',
  prompt: PROMPT,
  images: IMAGES,
  ability: 'VARCHAR',
  reward_model: 'STRUCT(style VARCHAR, ground_truth VARCHAR)',
  extra_info: EXTRA_INFO,
};
export const GRPO_SELECT = `data_source, prompt, ${IMAGES_SELECT}, ability, reward_model, extra_info`;

/** Ground truth of a step-level rule reward: what synthesis/matchers.ts `matchAction` compares a prediction with. */
export interface GroundTruth {
  action: NonNullable<Step['action']>;
  screen: { width: number; height: number };
  /** The ground-truth target's smallest enclosing UI-tree box, when the step has a tree and a pointer action. */
  box?: { x0: number; y0: number; x1: number; y1: number };
  /** Pointer tolerance without a box, as a fraction of the screen width. */
  tolerance: number;
  /** Text arguments match above this token F1. */
  text_f1: number;
}

export interface GrpoRow {
  data_source: string;
  prompt: { role: string; content: string }[];
  images: ImageCell[];
  ability: string;
  reward_model: { style: 'rule'; ground_truth: string };
  extra_info: RowMeta & { index: number; tools: string };
}

export const TRPO_COLUMNS = {
  data_source: 'VARCHAR',
  prompt: PROMPT,
  images: IMAGES,
  response: 'VARCHAR',
  ability: 'VARCHAR',
  task_id: 'VARCHAR',
  success: 'BOOLEAN',
  malformed: 'BOOLEAN',
  reward: 'DOUBLE',
  advantage: 'DOUBLE',
  traj_num_steps: 'INTEGER',
  extra_info: EXTRA_INFO,
};
export const TRPO_SELECT = `data_source, prompt, ${IMAGES_SELECT}, response, ability, task_id, success, malformed, reward, advantage, traj_num_steps, extra_info`;

export interface TrpoRow {
  data_source: string;
  prompt: { role: string; content: string }[];
  images: ImageCell[];
  response: string;
  ability: string;
  task_id: string;
  success: boolean;
  malformed: boolean;
  reward: number;
  advantage: number;
  traj_num_steps: number;
  extra_info: RowMeta & { index: number; tools: string };
}

export const REPLAY_COLUMNS = {
  task_id: 'VARCHAR',
  rollout_id: 'VARCHAR',
  cycle_id: 'VARCHAR',
  split: 'VARCHAR',
  instruction: 'VARCHAR',
  num_steps: 'INTEGER',
  reward: 'DOUBLE',
};
export interface ReplayRow {
  task_id: string;
  rollout_id: string;
  cycle_id: string;
  split: string;
  instruction: string;
  num_steps: number;
  reward: number;
}

/** Step errors that are the model's fault (its reply was malformed): the TRPO format penalty applies. */
export const MALFORMED_KINDS: ReadonlySet<string> = new Set(['format_error', 'unknown_tool', 'unknown_action', 'invalid_arguments', 'out_of_bounds']);

/** TRPO trajectory reward R(τ): 1 success / 0 failure, −0.5 when any reply was malformed (GUI-Owl §3.1.2). */
export function trajectoryReward(success: boolean, malformed: boolean): number {
  return (success ? 1 : 0) - (malformed ? 0.5 : 0);
}

/**
 * Running mean/std over trajectory rewards (Welford), in the selection's order (cycle start, rollout id): the
 * advantage Â = (R − R̄) / (σ_R + ε) uses the statistics including the trajectory itself.
 */
export class RunningStats {
  private n = 0;
  private mean = 0;
  private m2 = 0;
  static readonly EPS = 1e-6;

  advantage(r: number): number {
    this.n++;
    const d = r - this.mean;
    this.mean += d / this.n;
    this.m2 += d * (r - this.mean);
    const std = this.n > 1 ? Math.sqrt(this.m2 / this.n) : 0;
    return (r - this.mean) / (std + RunningStats.EPS);
  }
}
