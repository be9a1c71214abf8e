import { isDeepStrictEqual } from 'node:util';
import type { Rollout } from '../domain/entities.js';
import type { StoredReasoningSample } from '../storage/guidance-repo.js';
import { formatAssistantTurn, type SftSample } from './gui-owl-sft.js';

/**
 * Reasoning samples as SFT rows (format `reasoning`, README "Guidance and reasoning data"): the kept hint-guided
 * rejection-sampling traces (kind `hint_rs`) and the multi-agent → end-to-end distillations (kind `distill`) of an
 * exported rollout, each in the GUI-Owl assistant format of the `sft` rows — the same rebuilt prompt (guidance text
 * only when the export keeps it), `Thought:` = the trace, `Conclusion:`, and the tool call of the action the rollout
 * EXECUTED. A stored sample whose action is not the executed one is dropped (never re-labelled), as is one whose step
 * the export removed (cleansing, a reviewer). Nothing here reads checker data.
 */

/** Lineage of a reasoning row, added to the `sft` row meta. */
export interface ReasoningMeta {
  reasoning_sample_id: string;
  kind: 'hint_rs' | 'distill';
  /** hint_rs: the hint style the trace was written under. */
  hint_style: string | null;
  source_rollout: string;
  source_step: number;
  /** hint_rs: the reasoner model; distill: the distiller model. */
  reasoning_model: string | null;
  /** distill: the roles whose outputs were merged. */
  distilled_roles: string[] | null;
  /** The guidance version the source rollout read (null: unguided). */
  source_guidance_version: number | null;
}

export type ReasoningDropReason = 'step_removed' | 'action_mismatch';

export interface ReasoningSample extends SftSample {
  reasoning: ReasoningMeta;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);

/**
 * The reasoning rows of one exported rollout. `rollout` is the rollout as exported (texts scrubbed), `executed` as
 * stored (its actions are the ground truth the stored samples must carry), `kept` the rollout's `sft` samples after
 * cleansing, `scrub` the rollout's PII scrubber (the traces are scrubbed like every exported text).
 */
export function buildReasoningSamples(opts: {
  rollout: Rollout;
  executed: Rollout;
  kept: readonly SftSample[];
  stored: readonly StoredReasoningSample[];
  scrub: (text: string) => string;
}): { samples: ReasoningSample[]; dropped: Partial<Record<ReasoningDropReason, number>> } {
  const dropped: Partial<Record<ReasoningDropReason, number>> = {};
  const drop = (r: ReasoningDropReason): void => void (dropped[r] = (dropped[r] ?? 0) + 1);
  const byStep = new Map(opts.kept.map((s) => [s.meta.step, s]));
  const samples: ReasoningSample[] = [];
  for (const r of opts.stored) {
    const base = byStep.get(r.step);
    const step = opts.rollout.steps.find((s) => s.index === r.step);
    const executed = opts.executed.steps.find((s) => s.index === r.step)?.action;
    if (!base || !step?.action) {
      drop('step_removed');
      continue;
    }
    if (!isDeepStrictEqual(r.action, executed)) {
      drop('action_mismatch');
      continue;
    }
    const assistant = formatAssistantTurn({ ...step, reasoning: opts.scrub(r.thought), conclusion: opts.scrub(r.conclusion || step.conclusion) }, opts.rollout.actionSpace);
    const roles = Array.isArray(r.lineage.roles) ? r.lineage.roles.filter((x): x is string => typeof x === 'string') : null;
    const gv = r.lineage.guidanceVersion;
    samples.push({
      ...base,
      id: r.id,
      messages: [...base.messages.slice(0, -1), { role: 'assistant', content: assistant }],
      reasoning: {
        reasoning_sample_id: r.id,
        kind: r.kind,
        hint_style: r.hintStyle,
        source_rollout: r.rolloutId,
        source_step: r.step,
        reasoning_model: str(r.kind === 'distill' ? r.lineage.distiller : r.lineage.reasoner),
        distilled_roles: r.kind === 'distill' ? roles : null,
        source_guidance_version: typeof gv === 'number' ? gv : (base.meta.guidance_version ?? null),
      },
    });
  }
  return { samples, dropped };
}
