import type { CycleConfig } from '../domain/config.js';
import type { GuidanceSummary, ReasoningSummary } from '../workflows/contracts.js';

/** The flags of the guidance and reasoning stages, shared by `trajforge cycle` and `trajforge line start`. */
export const STAGE_OPTIONS = {
  guidance: { type: 'string' },
  'ref-sources': { type: 'string' },
  'keep-guidance': { type: 'boolean' },
  reasoning: { type: 'string' },
} as const;

/**
 * Overrides of `base`'s guidance and reasoning stages from those flags (validated with the rest of the config by
 * the caller's CycleConfig parse, which names the field): `--guidance N|off`, `--ref-sources demonstration,mobile-agent-v3`,
 * `--keep-guidance`, `--reasoning N|off`.
 */
export function stageOverrides(
  base: Pick<CycleConfig, 'guidance' | 'reasoning'>,
  values: { guidance?: string; 'ref-sources'?: string; 'keep-guidance'?: boolean; reasoning?: string },
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (values.guidance !== undefined || values['keep-guidance'] || values['ref-sources'] !== undefined) {
    out.guidance = {
      ...base.guidance,
      ...(values.guidance === 'off' ? { enabled: false } : values.guidance !== undefined ? { maxQueries: Number(values.guidance) } : {}),
      ...(values['ref-sources'] !== undefined ? { referenceSources: values['ref-sources'].split(',').map((x) => x.trim()).filter(Boolean) } : {}),
      ...(values['keep-guidance'] ? { keepInExport: true } : {}),
    };
  }
  if (values.reasoning !== undefined) {
    out.reasoning = { ...base.reasoning, ...(values.reasoning === 'off' ? { enabled: false } : { maxRollouts: Number(values.reasoning) }) };
  }
  return out;
}

/**
 * The stage flags with the command line's default reference sources: the demonstration library first (a person's
 * recording of the instruction, else the family's checker-verified scripted demonstration), then the reference agent
 * mode — unless `--ref-sources` or the configuration names them.
 */
export function withDefaultSources<V extends { 'ref-sources'?: string }>(values: V, guidance: CycleConfig['guidance']): V {
  if (values['ref-sources'] !== undefined || guidance.referenceSources) return values;
  return { ...values, 'ref-sources': `demonstration,${guidance.referenceAgentMode}` };
}

/** Summary lines of the guidance stage, printed by `trajforge cycle` after the critic lines. */
export function guidanceLines(g: GuidanceSummary): string[] {
  const rate = (a: number, b: number): string => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}%`);
  return [
    `  guidance (hard queries)  ${g.hardQueries} hard, ${g.referencesAccepted}/${g.referenceAttempts} reference attempts accepted${g.demonstrations ? `, ${g.demonstrations} demonstrations` : ''}, ${g.guidanceSynthesised} guidance synthesised`,
    `                           guided attempts ${g.guidedAttempts}, accepted ${g.guidedAccepted}; checker successes guided ${rate(g.guidedGtSuccesses, g.guidedAttempts)} vs unguided ${rate(g.unguidedGtSuccesses, g.unguidedAttempts)}`,
  ];
}

/** Summary line of the reasoning-data stage: kept/rejected counts (decisions in `filter_decisions`). */
export function reasoningLines(r: ReasoningSummary): string[] {
  return [
    `  reasoning data           ${r.rollouts} accepted rollouts, ${r.steps} steps: consistency rejected ${r.consistencyRejected}; hint traces kept ${r.kept}, rejected ${r.rejected} (of ${r.traces}); needs a human ${r.needsHuman}`,
    ...(r.distilled !== undefined ? [`                           multi-agent steps distilled ${r.distilled}, rejected by the consistency rule ${r.distillRejected ?? 0}`] : []),
  ];
}
