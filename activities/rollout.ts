import { type ActivityDeps, configHash, heartbeatSafely, invalid, loaders, parseConfig, platformDeps, policyOf } from './deps.js';
import { createHash } from 'node:crypto';
import { ApplicationFailure, log } from '@temporalio/activity';
import { StorageError } from '../domain/ports.js';
import type { Rollout } from '../domain/entities.js';
import { runAgentEpisode } from '../agents/run.js';
import { INFEASIBLE_FAMILY, infeasibleSuccess } from '../query-gen/infeasible.js';
import * as repo from '../storage/repos.js';
import { loadGuidanceText } from './guidance.js';
import { setRolloutGuidance } from '../storage/guidance-repo.js';

/**
 * The environment seed of a rollout, derived from its id: a rollout's state can be restored later by resetting
 * with it (error-recovery counterfactuals replay from it).
 */
export function rolloutSeed(rolloutId: string): number {
  return (parseInt(createHash('sha256').update(rolloutId).digest('hex').slice(0, 8), 16) % 1_000_000) + 1;
}

/** Rollout: one episode of an agent in a leased environment session, checked by its checker (ground truth). */
export function createRolloutActivities(deps: ActivityDeps) {
  const { loadQuery } = loaders(deps);
  return {
    async runEpisode(input: {
      cycleId: string;
      queryId: string;
      attempt: number;
      config: unknown;
      /** Guidance (issue 18): reference attempts (…/rN, in `agentMode`) and guided attempts (…/gN, reading `guidanceVersion`). */
      purpose?: 'attempt' | 'reference' | 'guided';
      agentMode?: string;
      guidanceVersion?: number;
    }): Promise<{
      rolloutId: string;
      status: string;
      steps: number;
      degraded: boolean;
    }> {
      const config = parseConfig(input.config);
      const purpose = input.purpose ?? 'attempt';
      const rolloutId = `${input.cycleId}/${input.queryId}/${purpose === 'attempt' ? 'a' : purpose === 'reference' ? 'r' : 'g'}${input.attempt}`;
      // The platform picks the environment pool and the action space (desktop: `computer_use` on Xvfb sessions).
      const platform = platformDeps(deps, config);
      const requestedMode = purpose === 'reference' && input.agentMode ? parseConfig({ ...config, agentMode: input.agentMode }).agentMode : config.agentMode;
      // Only the end-to-end mode speaks the desktop action space: desktop reference attempts (whose default mode is a
      // phone multi-agent loop) run in gui-owl; a desktop cycle asking for a phone-only mode is a configuration error.
      const agentMode = platform.actionSpace === 'desktop' && purpose === 'reference' ? 'gui-owl' : requestedMode;
      const guidance = purpose === 'guided' ? await loadGuidanceText(deps.db, input.queryId, input.guidanceVersion) : undefined;
      if (platform.actionSpace === 'desktop' && agentMode !== 'gui-owl') {
        throw invalid(`config.agentMode: "${agentMode}" plays phones only; desktop episodes run in gui-owl mode`);
      }
      const existing = await repo.getRollout(deps.db, rolloutId);
      if (existing) return { rolloutId, status: existing.status, steps: existing.steps.length, degraded: existing.status === 'degraded' };
      const query = await loadQuery(input.queryId);
      const temperature = input.attempt === 0 && config.greedyFirstAttempt ? 0 : config.policyTemperature;
      const policy = await policyOf(deps, config);
      const seed = rolloutSeed(rolloutId);

      // Retry policy: an environment that dies before the first step (reset failed, browser gone) produced no
      // data, so the episode is rerun once on a fresh session; if that one dies before its first step too, a
      // retryable failure hands the activity back to Temporal's retry policy (backoff). Once steps exist, the
      // trajectory is kept and tagged degraded instead (never rerun: it is data about the environment failing).
      for (let envAttempt = 1; ; envAttempt++) {
        const session = await platform.envPool.lease();
        let healthy = true;
        try {
          // Dispatch on the cycle's agent mode (gui-owl end-to-end, or a multi-agent loop with role IO on every step).
          const result = await runAgentEpisode(agentMode, {
            env: session,
            models: { ...deps.models, policy: policy.model },
            blobs: deps.blobs,
            app: query.app,
            instruction: query.instruction,
            seed,
            maxSteps: config.maxSteps,
            historyImages: config.historyImages,
            temperature,
            ...(guidance ? { guidance } : {}),
            ...(platform.actionSpace === 'desktop' ? { actionSpace: platform.actionSpace } : {}),
            onStep: (step) => {
              heartbeatSafely({ step: step.index });
              platform.envPool.heartbeat(session);
            },
          });
          let groundTruth: { success: boolean; reason: string } | undefined;
          if (result.environmentFailure) {
            healthy = false;
            if (result.steps.length === 0) {
              const message = `environment died before the first step (session ${session.id}, try ${envAttempt}): ${result.environmentFailure}`;
              if (envAttempt < 2) {
                try {
                  log.warn('episode environment failed before any step; retrying on a fresh session', { rolloutId, message });
                } catch {
                  // Outside an activity context there is no logger.
                }
                continue;
              }
              throw ApplicationFailure.retryable(message, 'EnvironmentUnavailable');
            }
          } else if (query.checker.family === INFEASIBLE_FAMILY || query.feasible === false) {
            // Infeasible queries (query-gen/infeasible.ts) are judged from the rollout's outcome, not app state
            // (their slot values name things the app lacks, which app checkers reject): success is
            // terminate(failure) or an answer.
            groundTruth = infeasibleSuccess(result.status, result.outcome);
          } else groundTruth = await session.check(query.checker);
          const rollout: Rollout = {
            id: rolloutId,
            cycleId: input.cycleId,
            queryId: query.id,
            attempt: input.attempt,
            agentMode,
            actionSpace: platform.actionSpace,
            model: policy.ref,
            status: result.status,
            ...(result.outcome !== undefined ? { outcome: result.outcome } : {}),
            steps: result.steps,
            // The checker's reason is stored beside its verdict for diagnosis (measurement only, never a prompt).
            ...(groundTruth !== undefined ? { groundTruth: groundTruth.success, groundTruthReason: groundTruth.reason } : {}),
          };
          await repo.upsertRollout(deps.db, rollout, {
            degraded: result.environmentFailure !== undefined,
            configHash: configHash(config, deps.models),
          });
          if (purpose === 'guided' && input.guidanceVersion !== undefined) await setRolloutGuidance(deps.db, rolloutId, input.guidanceVersion);
          return { rolloutId, status: result.status, steps: result.steps.length, degraded: !healthy };
        } catch (err) {
          // A store failure (StorageError: the blob store is full or down) says nothing about the session.
          healthy = err instanceof StorageError;
          throw err;
        } finally {
          await platform.envPool.release(session, healthy);
        }
      }
    },

  };
}
