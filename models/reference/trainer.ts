import sharp from 'sharp';
import type { MobileAction } from '../../domain/action.js';
import type { BlobStore } from '../../domain/ports.js';
import type { SftSample } from '../../export/gui-owl-sft.js';
import { PolicyMemory, labelAt } from './memory.js';
import { numberAt } from './roles/policy-screen.js';
import type { ProcedureStep } from './procedure.js';
import type { OcrEngine } from './types.js';

/**
 * REFERENCE TRAINER: turns an exported SFT dataset (export/gui-owl-sft.ts, `datasets/<name>/v<N>/train.jsonl`)
 * into a policy memory. Per sample: the instruction from the user turn ("Task: …", via parsePolicyPrompt),
 * the screenshot the step acted on (`image_keys[last]`) read with OCR, the assistant's Thought / Conclusion /
 * tool call. Samples that cannot be read are counted as skipped, not fatal.
 */

export const REF_POLICY_MODEL = 'ref-policy';
export const REF_POLICY_BASE_VERSION = '0.1.0';

/** Parses the assistant turn `Thought: …\nConclusion: …\n<tool_call>\n{json}\n</tool_call>`. */
export function parseAssistantTurn(content: string): { thought: string; conclusion: string; action: MobileAction } | undefined {
  const call = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/.exec(content);
  if (!call) return undefined;
  let parsed: { name?: unknown; arguments?: unknown };
  try {
    parsed = JSON.parse(call[1] ?? '') as typeof parsed;
  } catch {
    return undefined;
  }
  const action = parsed.arguments as MobileAction | undefined;
  if (!action || typeof action !== 'object' || typeof (action as { action?: unknown }).action !== 'string') return undefined;
  const thought = /Thought:\s*([\s\S]*?)\n(?:Conclusion:|<tool_call>)/.exec(content)?.[1]?.trim() ?? '';
  const conclusion = /Conclusion:\s*([^\n]*)/.exec(content)?.[1]?.trim() ?? '';
  return { thought, conclusion, action };
}

export function parseJsonl(text: string): SftSample[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      // Snapshot SFT rows keep the blob keys of their images under `meta.image_keys` (export/formats.ts).
      const row = JSON.parse(l) as SftSample & { meta?: { image_keys?: string[] } };
      return row.image_keys ? row : { ...row, image_keys: row.meta?.image_keys ?? [] };
    });
}

/** The semantic patch after `v` ("0.1.0" → "0.1.1"). */
export function nextPatch(v: string): string {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(v);
  if (!m) throw new Error(`not a semantic version: ${v}`);
  return `${m[1]}.${m[2]}.${Number(m[3]) + 1}`;
}

export interface TrainResult {
  memory: PolicyMemory;
  samples: number;
  used: number;
  skipped: { id: string; reason: string }[];
}

/**
 * Builds (or extends, when `base` is given) a memory from dataset samples. `trainedAt` and `version` are
 * passed in (pure apart from reading blobs and OCR).
 */
export async function trainMemory(opts: {
  samples: readonly SftSample[];
  blobs: BlobStore;
  ocr: OcrEngine;
  version: string;
  dataset: string;
  trainedAt: string;
  base?: PolicyMemory;
  /**
   * Reads the instruction (and screen size) back from the prompt messages: pass agents/gui-owl.ts
   * `parsePolicyPrompt` (injected: models/ may not import agents/, ARCHITECTURE.md).
   */
  parsePrompt: (request: { messages: { role: 'system' | 'user'; content: string }[] }) => { instruction: string; screen?: { width: number; height: number }; history?: string[] };
}): Promise<TrainResult> {
  const prev = opts.base?.toJSON();
  const provenance = {
    datasets: [...(prev?.provenance.datasets ?? []), opts.dataset],
    samples: (prev?.provenance.samples ?? 0) + opts.samples.length,
    trainedAt: opts.trainedAt,
  };
  // A copy of the base memory (or an empty one) under the new version: entries and counts carry over.
  const merged = prev ? PolicyMemory.fromJSON({ ...prev, version: opts.version, provenance }) : new PolicyMemory(opts.version, provenance);
  const skipped: TrainResult['skipped'] = [];
  let used = 0;
  // Per episode (the sample's rollout), its steps in order: each accepted episode is also learned as a procedure.
  const episodes = new Map<string, { instruction: string; steps: { step: number; s: ProcedureStep }[] }>();
  for (const s of opts.samples) {
    const key = s.image_keys[s.image_keys.length - 1];
    const assistant = [...s.messages].reverse().find((m) => m.role === 'assistant');
    const turn = assistant ? parseAssistantTurn(assistant.content) : undefined;
    const prompt = opts.parsePrompt({ messages: s.messages.filter((m): m is { role: 'system' | 'user'; content: string } => m.role !== 'assistant') });
    if (!key || !turn || !prompt.instruction) {
      skipped.push({ id: s.id, reason: !key ? 'no image key' : !turn ? 'no tool call' : 'no instruction' });
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = await opts.blobs.get(key);
    } catch (e) {
      skipped.push({ id: s.id, reason: `screenshot ${key}: ${(e as Error).message}` });
      continue;
    }
    const meta = await sharp(bytes).metadata();
    const screen = prompt.screen ?? { width: meta.width ?? 0, height: meta.height ?? 0 };
    const lines = await opts.ocr.recognize(bytes);
    // With the history (the earlier conclusions the policy saw), the step is also recorded generalised (memory.ts).
    merged.add({ instruction: prompt.instruction, lines, screen, action: turn.action, conclusion: turn.conclusion, thought: turn.thought, history: prompt.history ?? [] });
    used++;
    const rolloutId = s.meta?.rollout_id;
    if (rolloutId !== undefined) {
      const ep = episodes.get(rolloutId) ?? { instruction: prompt.instruction, steps: [] };
      const point = 'coordinate' in turn.action ? (turn.action as { coordinate: [number, number] }).coordinate : undefined;
      // The label a tap hit; in a column of numbered options, the option's number (OCR may misread "5" as "to").
      const hit = point && (turn.action.action === 'click' || turn.action.action === 'long_press') ? labelAt(point, lines) : undefined;
      const label = point && (hit === undefined || !/^\d+$/.test(hit.trim())) ? (numberAt(point, lines) ?? hit) : hit;
      ep.steps.push({ step: s.meta.step, s: { action: turn.action, ...(label !== undefined ? { label } : {}) } });
      episodes.set(rolloutId, ep);
    }
  }
  for (const [, ep] of [...episodes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    merged.addProcedure(ep.instruction, ep.steps.sort((a, b) => a.step - b.step).map((x) => x.s));
  }
  return { memory: merged, samples: opts.samples.length, used, skipped };
}

/** Blob key of a trained memory. */
export const memoryKey = (version: string): string => `models/${REF_POLICY_MODEL}/${version}/memory.json`;
