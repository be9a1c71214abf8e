import { createCycleActivities } from './cycle.js';
import type { ActivityDeps } from './deps.js';
import { createEvalActivities } from './eval.js';
import { createExportActivities } from './export.js';
import { createGuidanceActivities } from './guidance.js';
import { createJudgeActivities } from './judge.js';
import { createLoopActivities } from './loop.js';
import { createQueryActivities } from './queries.js';
import { createRolloutActivities } from './rollout.js';
import { createSynthesisActivities } from './synthesis.js';

export { configHash, criticVersion, learnedSpecOf, type ActivityDeps, type GroundTruthSession } from './deps.js';

/**
 * Temporal activities: thin adapters from the workflows to the rooms below, one file per stage
 * (query → rollout → verdict → export, plus cycle bookkeeping). Each parses its input, is safe to run twice
 * (upserts on natural keys, content-addressed blobs) and returns small results.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createCycleActivities(deps),
    ...createQueryActivities(deps),
    ...createRolloutActivities(deps),
    ...createJudgeActivities(deps),
    ...createExportActivities(deps),
    ...createSynthesisActivities(deps),
    ...createLoopActivities(deps),
    ...createEvalActivities(deps),
    ...createGuidanceActivities(deps),
  };
}
