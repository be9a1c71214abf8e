import type { GuidanceSummary, ReasoningSummary } from '../workflows/contracts.js';

/** Summary lines of the guidance stage, printed by `trajforge cycle` after the critic lines. */
export function guidanceLines(g: GuidanceSummary): string[] {
  const rate = (a: number, b: number): string => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}%`);
  return [
    `  guidance (hard queries)  ${g.hardQueries} hard, ${g.referencesAccepted}/${g.referenceAttempts} reference attempts accepted, ${g.guidanceSynthesised} guidance synthesised`,
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
