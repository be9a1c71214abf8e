import { policyRole } from './roles/policy.js';
import { stepCriticRole, trajectoryMultimodalCriticRole, trajectoryTextCriticRole } from './roles/critics.js';
import { queryRefineRole, querySynthRole } from './roles/query.js';
import type { RoleHandler } from './types.js';

/** Model names served by the built-in reference server. */
export const REFERENCE_MODELS = {
  policy: 'ref-policy',
  stepCritic: 'ref-step-critic',
  trajectoryCriticText: 'ref-traj-critic-text',
  trajectoryCriticMultimodal: 'ref-traj-critic-mm',
  querySynth: 'ref-query-synth',
  queryRefine: 'ref-query-refine',
} as const;

/** Every reference role, by model name. */
export function referenceRoles(): Record<string, RoleHandler> {
  return {
    [REFERENCE_MODELS.policy]: policyRole,
    [REFERENCE_MODELS.stepCritic]: stepCriticRole,
    [REFERENCE_MODELS.trajectoryCriticText]: trajectoryTextCriticRole,
    [REFERENCE_MODELS.trajectoryCriticMultimodal]: trajectoryMultimodalCriticRole,
    [REFERENCE_MODELS.querySynth]: querySynthRole, [REFERENCE_MODELS.queryRefine]: queryRefineRole,
  };
}
