import { desktopPolicyRole, isDesktopRequest } from './roles/desktop-policy.js';
import { policyRole } from './roles/policy.js';
import { stepCriticRole, trajectoryMultimodalCriticRole, trajectoryTextCriticRole } from './roles/critics.js';
import {
  coordinatorRole,
  executorRole,
  interactorRole,
  managerRole,
  navigatorRole,
  notetakerRole,
  reflectorRole,
  stateTrackerRole,
  workerRole,
} from './roles/multi-agent.js';
import { queryRefineRole, querySynthRole } from './roles/query.js';
import { guideDescriberRole } from './roles/guide-describer.js';
import { guideQcRole } from './roles/guide-qc.js';
import { guideSynthRole } from './roles/guide-synth.js';
import { consistencyRole, distillerRole, reasonerRole } from './roles/reasoning.js';
import { REFERENCE_MODEL_NAMES } from '../../domain/config.js';
import type { PolicyMemory } from './memory.js';
import type { RoleHandler } from './types.js';

/** Model names served by the built-in reference server: one per role, defined once in domain/config.ts. */
export const REFERENCE_MODELS = REFERENCE_MODEL_NAMES;

/** The reference policy's handler, consulting `memory` first when given. */
export function policyHandler(memory?: PolicyMemory): RoleHandler {
  const phone: RoleHandler = memory ? (request, ctx) => policyRole(request, { ...ctx, memory }) : policyRole;
  // One policy model, two action spaces: requests offering `computer_use` are desktop episodes.
  return (request, ctx) => (isDesktopRequest(request) ? desktopPolicyRole(request, ctx) : phone(request, ctx));
}

/** Every reference role, by model name. `memory`: the trained policy memory the policy consults first. */
export function referenceRoles(opts: { memory?: PolicyMemory } = {}): Record<string, RoleHandler> {
  const memory = opts.memory;
  return {
    [REFERENCE_MODELS.policy]: policyHandler(memory),
    [REFERENCE_MODELS.stepCritic]: stepCriticRole,
    [REFERENCE_MODELS.trajCriticText]: trajectoryTextCriticRole,
    [REFERENCE_MODELS.trajCriticMultimodal]: trajectoryMultimodalCriticRole,
    [REFERENCE_MODELS.querySynth]: querySynthRole, [REFERENCE_MODELS.queryRefine]: queryRefineRole,
    [REFERENCE_MODELS.manager]: managerRole,
    [REFERENCE_MODELS.worker]: workerRole,
    [REFERENCE_MODELS.reflector]: reflectorRole,
    [REFERENCE_MODELS.notetaker]: notetakerRole,
    [REFERENCE_MODELS.navigator]: navigatorRole,
    [REFERENCE_MODELS.interactor]: interactorRole,
    [REFERENCE_MODELS.coordinator]: coordinatorRole,
    [REFERENCE_MODELS.executor]: executorRole,
    [REFERENCE_MODELS.stateTracker]: stateTrackerRole,
    [REFERENCE_MODELS.guideDescriber]: guideDescriberRole,
    [REFERENCE_MODELS.guideQc]: guideQcRole,
    [REFERENCE_MODELS.guideSynth]: guideSynthRole,
    [REFERENCE_MODELS.reasoner]: reasonerRole,
    [REFERENCE_MODELS.consistency]: consistencyRole,
    [REFERENCE_MODELS.distiller]: distillerRole,
  };
}
