import { ApplicationFailure } from '@temporalio/activity';
import { z } from 'zod';
import { type ActivityDeps, heartbeatSafely, loaders } from './deps.js';
import { rolloutSeed } from './rollout.js';
import {
  DEFAULT_RECOVERY_SAMPLES,
  DEFAULT_RECOVERY_TEMPERATURE,
  ERROR_RECOVERY_GENERATOR,
  ESCAPE_ACTION,
  probeable,
  synthesizeErrorRecovery,
} from '../synthesis/error-recovery.js';
import { listProbedSteps, upsertErrorRecoveryProbe, upsertErrorRecoverySamples } from '../storage/error-recovery-repo.js';
import * as repo from '../storage/repos.js';
import { recordFilterDecisions, rolloutGuidance, upsertReasoningSamples } from '../storage/guidance-repo.js';
import { HintStyle } from '../domain/guidance.js';
import { reasoningForRollout, type ReasoningCounts } from '../synthesis/reasoning-stage.js';
import { needsHumanCandidate } from '../critics/review.js';
import { setNeedsHumanCandidate } from '../storage/review-repo.js';

/** Version of the reasoning stage's filters in `filter_decisions` (bump when a rule changes its meaning). */
export const REASONING_FILTER_VERSION = 'reasoning-stage@1';

export const ReasoningInput = z.object({
  cycleId: z.string().min(1),
  rolloutId: z.string().min(1),
  styles: z.array(HintStyle).min(1),
});
export type ReasoningInput = z.input<typeof ReasoningInput>;

export const ErrorRecoveryInput = z.object({
  rolloutId: z.string().min(1),
  samples: z.number().int().min(2).max(64).default(DEFAULT_RECOVERY_SAMPLES),
  temperature: z.number().gt(0).max(2).default(DEFAULT_RECOVERY_TEMPERATURE),
  /** Stop after this many steps of the rollout produced samples. */
  maxPerRollout: z.number().int().min(1).default(1),
  historyImages: z.number().int().min(1).max(3).default(2),
});
export type ErrorRecoveryInput = z.input<typeof ErrorRecoveryInput>;

export interface ErrorRecoveryCounts {
  probed: number;
  errorProne: number;
  built: number;
  samples: number;
  replayMismatches: number;
  escapeRestored: number;
  outcomes: Record<string, number>;
}

/** Synthesis stages: error-recovery samples by counterfactual execution (synthesis/error-recovery.ts). */
export function createSynthesisActivities(deps: ActivityDeps) {
  const { loadRollout, loadQuery } = loaders(deps);
  return {
    /** Accepted (effective acceptance, migration 0008), non-degraded rollouts of a cycle under its critic version. */
    async listErrorRecoveryCandidates(input: { cycleId: string }): Promise<string[]> {
      const cycle = await repo.getCycle(deps.db, input.cycleId);
      if (!cycle) throw ApplicationFailure.nonRetryable(`cycle ${input.cycleId} not found`, 'NotFound');
      return repo.listAcceptedRollouts(deps.db, input.cycleId, cycle.criticVersion);
    },

    /**
     * Reasoning data from one accepted rollout (synthesis/reasoning-stage.ts): the thought–action consistency rule on
     * every executed step, hint-guided rejection sampling on the consistent non-terminal ones, multi-agent steps
     * distilled. Every decision goes to `filter_decisions` with its reason, every kept trace to `reasoning_samples`,
     * steps no style reproduced to the review queue as one `needs_human` candidate (all upserts on natural keys: a
     * retry rewrites the same rows). Returns counts only.
     */
    async synthesizeReasoning(raw: ReasoningInput): Promise<ReasoningCounts> {
      const parsed = ReasoningInput.safeParse(raw);
      if (!parsed.success) throw ApplicationFailure.nonRetryable(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), 'InvalidInput');
      const input = parsed.data;
      const rollout = await loadRollout(input.rolloutId);
      const query = await loadQuery(rollout.queryId);
      const guided = await rolloutGuidance(deps.db, rollout.id, query.id);
      const cycle = await repo.getCycle(deps.db, input.cycleId);
      if (!cycle) throw ApplicationFailure.nonRetryable(`cycle ${input.cycleId} not found`, 'NotFound');
      const r = await reasoningForRollout({ reasoner: deps.models.reasoner, policy: deps.models.policy, distiller: deps.models.distiller }, deps.blobs, {
        cycleId: input.cycleId,
        rolloutId: rollout.id,
        instruction: query.instruction,
        steps: rollout.steps,
        styles: input.styles,
        reasonerModel: deps.models.reasoner.name,
        ...(guided ? { guidanceVersion: guided.version } : {}),
      });
      await upsertReasoningSamples(deps.db, r.samples);
      await recordFilterDecisions(deps.db, REASONING_FILTER_VERSION, r.decisions);
      // Steps no hint style reproduced go to the review queue ("needs a human"); a re-run that reproduces them all
      // removes the open candidate again.
      await setNeedsHumanCandidate(
        deps.db,
        { rolloutId: rollout.id, criticVersion: cycle.criticVersion, cycleId: input.cycleId, queryId: query.id, accepted: true },
        needsHumanCandidate(r.needsHumanSteps, input.styles),
      );
      heartbeatSafely({ rollout: rollout.id });
      return r.counts;
    },

    /**
     * Probes the rollout's steps in order (skipping those this generator already probed: a retry resumes), and
     * for error-prone ones executes a wrong sampled action from the restored state in a leased session. Writes
     * a probe row per step and the samples; returns counts only (screens stay in the blob store).
     */
    async synthesizeErrorRecovery(raw: ErrorRecoveryInput): Promise<ErrorRecoveryCounts> {
      const parsed = ErrorRecoveryInput.safeParse(raw);
      if (!parsed.success) throw ApplicationFailure.nonRetryable(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), 'InvalidInput');
      const input = parsed.data;
      const rollout = await loadRollout(input.rolloutId);
      const query = await loadQuery(rollout.queryId);
      const seed = rolloutSeed(rollout.id);
      const counts: ErrorRecoveryCounts = { probed: 0, errorProne: 0, built: 0, samples: 0, replayMismatches: 0, escapeRestored: 0, outcomes: {} };
      const done = await listProbedSteps(deps.db, rollout.id, ERROR_RECOVERY_GENERATOR);
      let built = done.filter((d) => d.outcome === 'built').length;
      const probed = new Set(done.map((d) => d.step));
      const session = await deps.envPool.lease();
      let healthy = true;
      try {
        for (const step of rollout.steps) {
          if (built >= input.maxPerRollout) break;
          if (probed.has(step.index) || !probeable(step)) continue;
          const r = await synthesizeErrorRecovery({
            env: session,
            policy: deps.models.policy,
            blobs: deps.blobs,
            rollout,
            query,
            step: step.index,
            seed,
            samples: input.samples,
            temperature: input.temperature,
            historyImages: input.historyImages,
          });
          counts.probed++;
          counts.outcomes[r.outcome] = (counts.outcomes[r.outcome] ?? 0) + 1;
          if (r.pSuccess > 0 && r.pSuccess < 1) counts.errorProne++;
          const cf = r.counterfactual;
          if (cf) {
            built++;
            counts.built++;
            counts.samples += r.built.length;
            if (!cf.replayVerified) counts.replayMismatches++;
            if (cf.escapeRestored) counts.escapeRestored++;
            await upsertErrorRecoverySamples(
              deps.db,
              r.built.map((x) => ({
                rolloutId: rollout.id,
                step: step.index,
                kind: x.kind,
                generator: ERROR_RECOVERY_GENERATOR,
                messages: x.messages,
                imageKeys: x.imageKeys,
                tools: x.tools,
                targetAction: x.targetAction,
                wrongAction: cf.wrongAction,
                escapeAction: ESCAPE_ACTION,
                errorScreenshotKey: cf.errorObservation.screenshotKey,
                beforeScreenshotKey: step.before.screenshotKey,
                afterScreenshotKey: step.after?.screenshotKey ?? null,
                seed,
                replayVerified: cf.replayVerified,
                escapeRestored: cf.escapeRestored,
                pSuccess: r.pSuccess,
                model: deps.policyModel,
                queryId: query.id,
              })),
            );
          }
          // The probe row last: a retry after a crash between the two re-probes this step instead of skipping it.
          await upsertErrorRecoveryProbe(deps.db, {
            rolloutId: rollout.id,
            step: step.index,
            generator: ERROR_RECOVERY_GENERATOR,
            samples: input.samples,
            temperature: input.temperature,
            matches: r.matches,
            pSuccess: r.pSuccess,
            outcome: r.outcome,
            detail: {
              model: `${deps.policyModel.name}@${deps.policyModel.version}`,
              sampled: r.samples.map((x) => ({ action: x.action ?? null, match: x.match, reason: x.reason })),
              ...(cf ? { replayMismatches: cf.replayMismatches, replayNearMatches: cf.replayNearMatches, tried: cf.tried, errorScreenshotKey: cf.errorObservation.screenshotKey, escapeScreenshotKey: cf.escapeObservation.screenshotKey } : {}),
            },
          });
          heartbeatSafely({ step: step.index });
          deps.envPool.heartbeat(session);
        }
        return counts;
      } catch (err) {
        healthy = false;
        throw err;
      } finally {
        await deps.envPool.release(session, healthy);
      }
    },
  };
}
