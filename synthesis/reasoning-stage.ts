import type { Action } from '../domain/action.js';
import type { Step } from '../domain/entities.js';
import type { HintStyle } from '../domain/guidance.js';
import type { BlobStore, ChatModel } from '../domain/ports.js';
import { checkConsistency } from './consistency.js';
import type { FilterDecision } from './filters.js';
import type { UiTreeLike } from './matchers.js';
import { distillStep } from './distill.js';
import { sampleReasoning } from './rejection-sampling.js';

/**
 * Reasoning data as a cycle stage (GUI-Owl §2.2.3), on one ACCEPTED rollout: every executed step passes the
 * thought–action consistency rule (online filter: the reasoning must support the action taken); the consistent,
 * non-terminal steps — known-good actions, since the critics accepted the trajectory — go through offline
 * hint-guided rejection sampling, one trace per hint style, kept iff the action predicted from the reasoning alone
 * matches the executed one. Every decision is returned with its reason (the caller stores them in
 * `filter_decisions`), every kept trace as a reasoning sample with its lineage. Pure apart from the gateway and
 * blob reads.
 *
 * Steps of a multi-agent rollout (Mobile-Agent-v3 / CES / SWIRL: the step has role outputs) are also distilled when a
 * `distiller` is given (§2.2.3 (b)): the roles' outputs become one end-to-end reasoning paired with the EXECUTED
 * action; the distilled trace passes the same consistency rule (decision `consistency_rule` on `<step>#distill`) and
 * is kept as a `distill` sample with its lineage (roles merged, distiller model, guidance version).
 */

export interface ReasoningStageInput {
  cycleId: string;
  rolloutId: string;
  instruction: string;
  steps: readonly Step[];
  styles: readonly HintStyle[];
  guidanceVersion?: number;
  reasonerModel: string;
}

export interface ReasoningSampleRow {
  id: string;
  rolloutId: string;
  step: number;
  kind: 'hint_rs' | 'distill';
  hintStyle?: HintStyle;
  thought: string;
  conclusion: string;
  action: Action;
  lineage: Record<string, unknown>;
}

export interface ReasoningCounts {
  /** Executed steps checked for thought–action consistency. */
  steps: number;
  consistencyRejected: number;
  /** Hint-style traces tried / kept / rejected (predicted action did not match). */
  traces: number;
  kept: number;
  rejected: number;
  /** Steps no style reproduced (review candidates "needs a human"). */
  needsHuman: number;
  /** Multi-agent steps distilled into one end-to-end trace: kept, and rejected by the consistency rule. */
  distilled: number;
  distillRejected: number;
}

export interface ReasoningStageResult {
  decisions: (FilterDecision & { rolloutId: string; step: number })[];
  samples: ReasoningSampleRow[];
  counts: ReasoningCounts;
  needsHumanSteps: number[];
}

export const emptyReasoningCounts = (): ReasoningCounts => ({ steps: 0, consistencyRejected: 0, traces: 0, kept: 0, rejected: 0, needsHuman: 0, distilled: 0, distillRejected: 0 });

export function addReasoningCounts(a: ReasoningCounts, b: ReasoningCounts): ReasoningCounts {
  return {
    steps: a.steps + b.steps,
    consistencyRejected: a.consistencyRejected + b.consistencyRejected,
    traces: a.traces + b.traces,
    kept: a.kept + b.kept,
    rejected: a.rejected + b.rejected,
    needsHuman: a.needsHuman + b.needsHuman,
    distilled: a.distilled + b.distilled,
    distillRejected: a.distillRejected + b.distillRejected,
  };
}

const dataUrl = async (blobs: BlobStore, key: string): Promise<string> => `data:image/png;base64,${Buffer.from(await blobs.get(key)).toString('base64')}`;

export async function reasoningForRollout(
  models: { reasoner: ChatModel; policy: ChatModel; distiller?: ChatModel },
  blobs: BlobStore,
  input: ReasoningStageInput,
): Promise<ReasoningStageResult> {
  const decisions: ReasoningStageResult['decisions'] = [];
  const samples: ReasoningSampleRow[] = [];
  const counts = emptyReasoningCounts();
  const needsHumanSteps: number[] = [];
  const history: string[] = [];
  for (const s of input.steps) {
    const before = [...history];
    history.push(s.conclusion || `Performed ${s.action?.action ?? 'an invalid action'}.`);
    if (!s.action || s.error) continue;
    const action = s.action;
    const tree = s.before.uiTreeKey ? (JSON.parse(Buffer.from(await blobs.get(s.before.uiTreeKey)).toString('utf8')) as UiTreeLike) : undefined;
    const stepId = `${input.rolloutId}#${s.index}`;
    counts.steps++;
    const v = checkConsistency({ reasoning: s.reasoning, conclusion: s.conclusion, action }, tree);
    decisions.push({ sampleId: stepId, filter: 'consistency_rule', keep: v.consistent, reason: `${v.check}: ${v.reason}`, rolloutId: input.rolloutId, step: s.index });
    if (models.distiller && s.roles?.length) {
      const d = await distillStep(models.distiller, input.instruction, s);
      if (d) {
        const id = `${stepId}#distill`;
        const dv = checkConsistency({ reasoning: d.thought, conclusion: d.conclusion, action }, tree);
        decisions.push({ sampleId: id, filter: 'consistency_rule', keep: dv.consistent, reason: `${dv.check}: ${dv.reason}`, details: { kind: 'distill', roles: d.distillation.roles.join(',') }, rolloutId: input.rolloutId, step: s.index });
        if (dv.consistent) {
          counts.distilled++;
          samples.push({
            id,
            rolloutId: input.rolloutId,
            step: s.index,
            kind: 'distill',
            thought: d.thought,
            conclusion: d.conclusion,
            // The executed action, copied (distillStep never regenerates it).
            action: d.action,
            lineage: {
              cycle: input.cycleId,
              sourceRollout: input.rolloutId,
              sourceStep: s.index,
              distiller: d.distillation.model,
              roles: d.distillation.roles,
              guidanceVersion: input.guidanceVersion ?? null,
            },
          });
        } else counts.distillRejected++;
      }
    }
    if (!v.consistent) {
      counts.consistencyRejected++;
      continue;
    }
    if (action.action === 'terminate' || action.action === 'answer') continue;
    const res = await sampleReasoning(
      models,
      {
        id: stepId,
        instruction: input.instruction,
        history: before,
        screenshot: { dataUrl: await dataUrl(blobs, s.before.screenshotKey) },
        screen: { width: s.before.width, height: s.before.height },
        action,
        ...(tree ? { tree } : {}),
      },
      input.styles,
    );
    for (const a of res.attempts) {
      counts.traces++;
      const id = `${stepId}#${a.style}`;
      decisions.push({
        sampleId: id,
        filter: 'hint_match',
        keep: a.kept,
        reason: a.kept ? `predicted action matches: ${a.match.reason}` : `predicted action does not match: ${a.match.reason}`,
        details: { style: a.style, predicted: a.predicted ? JSON.stringify(a.predicted) : 'none' },
        rolloutId: input.rolloutId,
        step: s.index,
      });
      if (!a.kept) {
        counts.rejected++;
        continue;
      }
      counts.kept++;
      samples.push({
        id,
        rolloutId: input.rolloutId,
        step: s.index,
        kind: 'hint_rs',
        hintStyle: a.style,
        thought: a.reasoning,
        conclusion: s.conclusion,
        action,
        lineage: {
          cycle: input.cycleId,
          sourceRollout: input.rolloutId,
          sourceStep: s.index,
          hintStyle: a.style,
          reasoner: input.reasonerModel,
          guidanceVersion: input.guidanceVersion ?? null,
        },
      });
    }
    if (res.needsHuman) {
      counts.needsHuman++;
      needsHumanSteps.push(s.index);
    }
  }
  return { decisions, samples, counts, needsHumanSteps };
}
