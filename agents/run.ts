import type { Role } from '../domain/config.js';
import { ValidationError } from '../domain/errors.js';
import type { ChatModel } from '../domain/ports.js';
import { runCes } from './ces.js';
import { runEpisode, type EpisodeInput, type EpisodeResult } from './episode.js';
import type { StopReason } from './loop.js';
import { runMobileAgentV3, type MobileAgentV3Input } from './mobile-agent-v3.js';
import { runSwirl } from './swirl.js';

export const AGENT_MODES = ['gui-owl', 'mobile-agent-v3', 'swirl', 'ces'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];

/** The roles each mode calls (every one must be in `models`). */
export const MODE_ROLES: Record<AgentMode, readonly Role[]> = {
  'gui-owl': ['policy'],
  'mobile-agent-v3': ['manager', 'worker', 'reflector', 'notetaker'],
  swirl: ['navigator', 'interactor'],
  ces: ['coordinator', 'executor', 'stateTracker'],
};

/** One input for every mode: the GUI-Owl episode input with a model per role instead of one policy. */
export interface AgentEpisodeInput extends Omit<EpisodeInput, 'policy'> {
  models: Partial<Record<Role, ChatModel>>;
  /** Mobile-Agent-v3 only. */
  rag?: MobileAgentV3Input['rag'];
  stalemate?: MobileAgentV3Input['stalemate'];
}

export interface AgentEpisodeResult extends EpisodeResult {
  /** Multi-agent modes: why the loop stopped. */
  stopReason?: StopReason;
}

/**
 * Runs one episode in `mode`: `gui-owl` → agents/episode.ts (end-to-end policy); the others → the multi-agent
 * loops, whose steps carry every role's input/output in `step.roles`. Throws ValidationError (before touching
 * the environment) when a role the mode needs has no model.
 */
export async function runAgentEpisode(mode: AgentMode, input: AgentEpisodeInput): Promise<AgentEpisodeResult> {
  const missing = MODE_ROLES[mode].filter((r) => !input.models[r]);
  if (missing.length > 0) throw new ValidationError(`mode ${mode} needs models for: ${missing.join(', ')}`, 'models', 'runAgentEpisode');
  const m = input.models as Record<Role, ChatModel>;
  const { models: _models, rag, stalemate, guidance: _guidance, historyImages: _historyImages, ...common } = input;
  switch (mode) {
    case 'gui-owl': {
      const { models: _m, rag: _r, stalemate: _s, ...episode } = input;
      return runEpisode({ ...episode, policy: m.policy });
    }
    case 'mobile-agent-v3':
      return runMobileAgentV3({ ...common, models: { manager: m.manager, worker: m.worker, reflector: m.reflector, notetaker: m.notetaker }, ...(rag ? { rag } : {}), ...(stalemate ? { stalemate } : {}) });
    case 'swirl':
      return runSwirl({ ...common, models: { navigator: m.navigator, interactor: m.interactor } });
    case 'ces':
      return runCes({ ...common, models: { coordinator: m.coordinator, executor: m.executor, stateTracker: m.stateTracker } });
  }
}
