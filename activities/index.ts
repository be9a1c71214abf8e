import { createHash } from 'node:crypto';
import { ApplicationFailure, heartbeat, log } from '@temporalio/activity';
import type { Pool } from 'pg';
import { canonicalJson, CycleConfig, type Role } from '../domain/config.js';
import type { AppDag } from '../domain/dag.js';
import type { CheckerSpec, Lineage, ModelRef, Query, Rollout } from '../domain/entities.js';
import type { BlobStore, ChatModel, EnvSession } from '../domain/ports.js';
import { toDataUrl } from '../agents/episode.js';
import { runAgentEpisode } from '../agents/run.js';
import { judgeStep, criticScore } from '../critics/step-critic.js';
import { judgeTrajectory as judgeTrajectoryChannels } from '../critics/trajectory-critic.js';
import type { OcrEngine } from '../models/reference/types.js';
import type { EnvPool } from '../environments/pool.js';
import { generateQueryBatch } from '../query-gen/pipeline.js';
import { INFEASIBLE_FAMILY, infeasibleSuccess } from '../query-gen/infeasible.js';
import { createCrawlerValidator } from '../environments/crawler.js';
import { buildSamples, type StepJudgement } from '../export/gui-owl-sft.js';
import { writeDataset } from '../export/writer.js';
import * as repo from '../storage/repos.js';
import * as calibrationRepo from '../storage/calibration-repo.js';
import { calibrate, describeRule, meanStepScore, passesTauC, selectRule } from '../critics/calibration.js';
import { combineLearned, featureInputOf, loadLearnedCritic, readLearnedCriticSpec, type LearnedCritic, type LearnedCriticSpec } from '../critics/learned-critic.js';
import { deriveReviewCandidates } from '../critics/review.js';
import * as reviewRepo from '../storage/review-repo.js';
import { withTransaction } from '../storage/db.js';
import type { CalibrationSummary } from '../workflows/contracts.js';

/** An environment session that can also answer ground-truth questions (never exposed to agents/critics). */
export interface GroundTruthSession extends EnvSession {
  check(spec: CheckerSpec): Promise<{ success: boolean; reason: string }>;
}

export interface ActivityDeps {
  db: Pool;
  blobs: BlobStore;
  envPool: EnvPool<GroundTruthSession>;
  models: Record<Role, ChatModel>;
  /** The policy model and version every rollout of this worker records. */
  policyModel: ModelRef;
  dags: readonly AppDag[];
  /** Captions for the text channel of the trajectory critic. */
  ocr: OcrEngine;
}

function invalid(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, 'InvalidInput');
}

function parseConfig(raw: unknown): CycleConfig {
  const parsed = CycleConfig.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => `config.${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

export function configHash(config: CycleConfig, models: Record<Role, ChatModel>): string {
  const modelNames = Object.fromEntries(Object.entries(models).map(([role, m]) => [role, m.name]));
  return createHash('sha256').update(canonicalJson({ config, modelNames })).digest('hex').slice(0, 16);
}

/** The configured learned-critic model (read once per path), or undefined when the channel is off. */
export function learnedSpecOf(config: CycleConfig): LearnedCriticSpec | undefined {
  const l = config.critic.learned;
  if (l.model === null) return undefined;
  try {
    return readLearnedCriticSpec(l.model, l.threshold);
  } catch (err) {
    throw invalid(`config.critic.learned.model: ${(err as Error).message}`);
  }
}

/**
 * Critic lineage: which critic models and which aggregation produced a verdict; with the learned channel on,
 * also its model's hash prefix, threshold and consensus mode (`;learned=<sha12>@<threshold>:<mode>`).
 */
export function criticVersion(models: Record<Role, ChatModel>, config: CycleConfig): string {
  const c = config.critic;
  const base = `${models.stepCritic.name}+${models.trajCriticText.name}+${models.trajCriticMultimodal.name};votes=${c.votes}:${c.voteRule};consensus=${c.consensus}`;
  const gated = c.trajectoryTauC > 0 ? `${base};tauC=${c.trajectoryTauC}` : base;
  const learned = learnedSpecOf(config);
  return learned ? `${gated};learned=${learned.sha256.slice(0, 12)}@${learned.threshold}:${c.learned.consensus}` : gated;
}

const heartbeatSafely = (details?: unknown): void => {
  try {
    heartbeat(details);
  } catch {
    // Outside an activity context (direct calls in tests/benchmarks) there is nothing to heartbeat.
  }
};

/**
 * Temporal activities: thin adapters from the workflows to the rooms below. Each parses its input,
 * is safe to run twice (upserts on natural keys, content-addressed blobs) and returns small results.
 */
export function createActivities(deps: ActivityDeps) {
  // Learned critic sessions, loaded once per worker (per model file and threshold) on first use.
  const learnedCritics = new Map<string, Promise<LearnedCritic>>();
  function learnedCritic(spec: LearnedCriticSpec): Promise<LearnedCritic> {
    const key = `${spec.path}\0${spec.sha256}\0${spec.threshold}`;
    let critic = learnedCritics.get(key);
    if (!critic) {
      critic = loadLearnedCritic(spec).catch((err: unknown) => {
        learnedCritics.delete(key);
        throw invalid(`config.critic.learned.model: ${spec.path} does not load as a learned critic: ${(err as Error).message}`);
      });
      learnedCritics.set(key, critic);
    }
    return critic;
  }

  async function loadQuery(queryId: string): Promise<Query> {
    const query = await repo.getQuery(deps.db, queryId);
    if (!query) throw ApplicationFailure.nonRetryable(`query ${queryId} not found`, 'NotFound');
    return query;
  }

  async function loadRollout(rolloutId: string): Promise<Rollout> {
    const rollout = await repo.getRollout(deps.db, rolloutId);
    if (!rollout) throw ApplicationFailure.nonRetryable(`rollout ${rolloutId} not found`, 'NotFound');
    return rollout;
  }

  return {
    async startCycle(input: { cycleId: string; config: unknown }): Promise<{ configHash: string; startedAt: string }> {
      const config = parseConfig(input.config);
      const hash = configHash(config, deps.models);
      await repo.upsertModelVersion(deps.db, { ...deps.policyModel, kind: 'policy' });
      const row = await repo.upsertCycle(deps.db, {
        id: input.cycleId,
        config,
        configHash: hash,
        modelVersion: `${deps.policyModel.name}@${deps.policyModel.version}`,
        criticVersion: criticVersion(deps.models, config),
      });
      return { configHash: hash, startedAt: row.startedAt };
    },

    async generateQueries(input: { cycleId: string; cycleNumber: number; config: unknown }): Promise<{ queryIds: string[] }> {
      const config = parseConfig(input.config);
      // Every cycle samples anew; the same cycle number always samples the same queries.
      const seed = config.seed * 100_003 + input.cycleNumber;
      const generate = (validator?: Parameters<typeof generateQueryBatch>[0]['validator']) =>
        generateQueryBatch({
          dags: deps.dags,
          count: config.queries,
          seed,
          sampler: config.querySampler,
          models: { synth: deps.models.querySynth, refine: deps.models.queryRefine },
          apps: config.apps,
          infeasibleRate: config.infeasibleRate,
          ...(validator ? { validator } : {}),
        });
      let report;
      if (config.validateQueries) {
        // Interface validation replays each query in a real environment session (one at a time).
        const session = await deps.envPool.lease();
        let healthy = true;
        try {
          report = await generate(createCrawlerValidator({ session, blobs: deps.blobs, dags: deps.dags }));
        } catch (err) {
          healthy = false;
          throw err;
        } finally {
          await deps.envPool.release(session, healthy);
        }
      } else report = await generate();
      await repo.upsertQueries(deps.db, input.cycleId, report.queries);
      log.info('queries generated', {
        cycleId: input.cycleId,
        queries: report.queries.length,
        duplicates: report.report.dedup.exact + report.report.dedup.near,
        ...(report.report.validation ? { validationDropped: report.report.validation.dropped } : {}),
      });
      return { queryIds: report.queries.map((q) => q.id) };
    },

    async runEpisode(input: { cycleId: string; queryId: string; attempt: number; config: unknown }): Promise<{
      rolloutId: string;
      status: string;
      steps: number;
      degraded: boolean;
    }> {
      const config = parseConfig(input.config);
      const rolloutId = `${input.cycleId}/${input.queryId}/a${input.attempt}`;
      const existing = await repo.getRollout(deps.db, rolloutId);
      if (existing) return { rolloutId, status: existing.status, steps: existing.steps.length, degraded: existing.status === 'degraded' };
      const query = await loadQuery(input.queryId);
      const temperature = input.attempt === 0 && config.greedyFirstAttempt ? 0 : config.policyTemperature;
      const seed = (parseInt(createHash('sha256').update(rolloutId).digest('hex').slice(0, 8), 16) % 1_000_000) + 1;

      // Retry policy: an environment that dies before the first step (reset failed, browser gone) produced no
      // data, so the episode is rerun once on a fresh session; if that one dies before its first step too, a
      // retryable failure hands the activity back to Temporal's retry policy (backoff). Once steps exist, the
      // trajectory is kept and tagged degraded instead (never rerun: it is data about the environment failing).
      for (let envAttempt = 1; ; envAttempt++) {
        const session = await deps.envPool.lease();
        let healthy = true;
        try {
          // Dispatch on the cycle's agent mode (gui-owl end-to-end, or a multi-agent loop with role IO on every step).
          const result = await runAgentEpisode(config.agentMode, {
            env: session,
            models: deps.models,
            blobs: deps.blobs,
            app: query.app,
            instruction: query.instruction,
            seed,
            maxSteps: config.maxSteps,
            historyImages: config.historyImages,
            temperature,
            onStep: (step) => {
              heartbeatSafely({ step: step.index });
              deps.envPool.heartbeat(session);
            },
          });
          let groundTruth: boolean | undefined;
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
            groundTruth = infeasibleSuccess(result.status, result.outcome).success;
          } else groundTruth = (await session.check(query.checker)).success;
          const rollout: Rollout = {
            id: rolloutId,
            cycleId: input.cycleId,
            queryId: query.id,
            attempt: input.attempt,
            agentMode: config.agentMode,
            actionSpace: 'mobile',
            model: deps.policyModel,
            status: result.status,
            ...(result.outcome !== undefined ? { outcome: result.outcome } : {}),
            steps: result.steps,
            ...(groundTruth !== undefined ? { groundTruth } : {}),
          };
          await repo.upsertRollout(deps.db, rollout, {
            degraded: result.environmentFailure !== undefined,
            configHash: configHash(config, deps.models),
          });
          return { rolloutId, status: result.status, steps: result.steps.length, degraded: !healthy };
        } catch (err) {
          healthy = false;
          throw err;
        } finally {
          await deps.envPool.release(session, healthy);
        }
      }
    },

    async judgeSteps(input: { rolloutId: string; config?: unknown }): Promise<{ judged: number; harmful: number }> {
      const config = parseConfig(input.config ?? {});
      const version = criticVersion(deps.models, config);
      const rollout = await loadRollout(input.rolloutId);
      const query = await loadQuery(rollout.queryId);
      const done = new Set((await repo.listStepVerdicts(deps.db, rollout.id, version)).map((v) => v.idx));
      const summaries: string[] = [];
      let judged = 0;
      let harmful = 0;
      for (const step of rollout.steps) {
        if (!step.action) {
          summaries.push('(invalid action)');
          continue;
        }
        if (done.has(step.index)) continue;
        const before = await deps.blobs.get(step.before.screenshotKey);
        const after = await deps.blobs.get((step.after ?? step.before).screenshotKey);
        const result = await judgeStep(deps.models.stepCritic, {
          instruction: query.instruction,
          history: [...summaries],
          action: step.action,
          before,
          after,
        });
        // An unparsable critic reply is recorded as NEUTRAL with the parse error as its analysis, never dropped.
        const verdict =
          'verdict' in result
            ? result.verdict
            : { analysis: `unparseable critic reply (${result.error.kind}): ${result.error.message}`, summary: 'The critic reply could not be parsed.', annotation: 'NEUTRAL' as const };
        summaries.push(verdict.summary);
        await repo.upsertStepVerdicts(deps.db, [
          { rolloutId: rollout.id, idx: step.index, criticVersion: version, ...verdict, score: criticScore(verdict.annotation) },
        ]);
        judged++;
        if (verdict.annotation === 'HARMFUL') harmful++;
        heartbeatSafely({ step: step.index });
      }
      return { judged, harmful };
    },

    async judgeTrajectory(input: { rolloutId: string; config: unknown }): Promise<{ correct: boolean | null }> {
      const config = parseConfig(input.config);
      const version = criticVersion(deps.models, config);
      const rollout = await loadRollout(input.rolloutId);
      if (rollout.status === 'degraded') return { correct: null };
      const query = await loadQuery(rollout.queryId);
      const verdicts = new Map((await repo.listStepVerdicts(deps.db, rollout.id, version)).map((v) => [v.idx, v]));
      const screens = [rollout.steps[0]?.before, ...rollout.steps.map((s) => s.after)].filter((o) => o !== undefined);
      const keys = [...new Set(screens.map((o) => o.screenshotKey))];
      const captions: string[] = [];
      for (const key of keys) {
        const lines = await deps.ocr.recognize(await deps.blobs.get(key));
        captions.push(lines.map((l) => l.text).join(' | '));
        heartbeatSafely();
      }
      const picked = subsample(keys, 6);
      const steps = rollout.steps.map((s) => ({
        summary: verdicts.get(s.index)?.summary ?? s.conclusion,
        actionText: s.action ? JSON.stringify(s.action) : `(invalid: ${s.error?.kind ?? 'unknown'})`,
      }));
      const result = await judgeTrajectoryChannels(
        { text: deps.models.trajCriticText, multimodal: deps.models.trajCriticMultimodal },
        {
          instruction: query.instruction,
          steps,
          captions,
          screenshots: await Promise.all(picked.map((k) => toDataUrl(deps.blobs, k))),
          ...(rollout.outcome !== undefined ? { outcome: rollout.outcome } : {}),
        },
        { votes: config.critic.votes, voteRule: config.critic.voteRule, consensus: config.critic.consensus },
      );
      // The learned channel sees exactly what the bench's training dump saw: step annotations, the channels'
      // votes, the agent's own outcome and the final screen's caption (firewall: never ground truth).
      const judged = [...verdicts.values()].sort((a, b) => a.idx - b.idx);
      const learnedSpec = learnedSpecOf(config);
      const learned = learnedSpec
        ? await (await learnedCritic(learnedSpec)).judge(
            featureInputOf({
              instruction: query.instruction,
              outcome: rollout.outcome,
              annotations: judged.map((v) => v.annotation),
              channels: result.channels,
              captions,
            }),
          )
        : undefined;
      const mode = config.critic.learned.consensus;
      const combined = combineLearned(mode, result.correct, result.channels, learned?.correct);
      // The trajectory τc gate (same definition as calibration's `passesTauC`: mean step CriticScore ≥ τc).
      const tauT = config.critic.trajectoryTauC;
      const stepScores = judged.map((v) => v.score);
      const meanScore = meanStepScore({ stepScores });
      const gatePasses = passesTauC({ stepScores }, tauT);
      const accepted = combined && gatePasses;
      const consensusReason = [
        `rule=${config.critic.consensus}`,
        ...(learned && mode !== 'off' ? [`learned=${mode}`] : []),
        ...(tauT > 0 ? [`tauC=${tauT}:${gatePasses ? 'pass' : 'fail'}(mean step score ${meanScore === null ? 'none' : meanScore.toFixed(3)})`] : []),
      ].join(';');
      const candidates = deriveReviewCandidates({
        steps: judged.map((v) => ({ idx: v.idx, annotation: v.annotation })),
        channels: result.channels,
        ...(learned && learnedSpec ? { learned: { correct: learned.correct, probability: learned.probability, threshold: learnedSpec.threshold } } : {}),
        accepted,
        status: rollout.status,
        outcome: rollout.outcome,
      });
      await withTransaction(deps.db, async (client) => {
        await repo.upsertTrajectoryVerdicts(client, [
          ...result.channels.map((c) => ({ rolloutId: rollout.id, criticVersion: version, channel: c.channel, correct: c.correct, reason: c.reason, votes: c.votes })),
          ...(learned && learnedSpec
            ? [
                {
                  rolloutId: rollout.id,
                  criticVersion: version,
                  channel: 'learned' as const,
                  correct: learned.correct,
                  reason: `p=${learned.probability.toFixed(4)} ${learned.correct ? '≥' : '<'} threshold ${learnedSpec.threshold} (model ${learnedSpec.sha256.slice(0, 12)})`,
                  votes: [],
                },
              ]
            : []),
          {
            rolloutId: rollout.id,
            criticVersion: version,
            channel: 'consensus' as const,
            correct: accepted,
            reason: consensusReason,
            votes: [],
          },
        ]);
        await reviewRepo.replaceReviewCandidates(client, { rolloutId: rollout.id, criticVersion: version, cycleId: rollout.cycleId, queryId: rollout.queryId, accepted }, candidates);
      });
      return { correct: accepted };
    },

    async exportDataset(input: { cycleId: string; config: unknown; createdAt: string }): Promise<{
      name: string;
      version: number;
      manifestUri: string;
      samples: number;
    } | null> {
      const config = parseConfig(input.config);
      const version = criticVersion(deps.models, config);
      const hash = configHash(config, deps.models);
      const accepted = await repo.listAcceptedRollouts(deps.db, input.cycleId, version);
      const samples = [];
      const removedCounts: Record<string, number> = {};
      const dagVersions: Record<string, string> = {};
      const modelVersions = new Set<string>();
      for (const rolloutId of accepted) {
        const rollout = await loadRollout(rolloutId);
        const query = await loadQuery(rollout.queryId);
        dagVersions[query.app] = query.dagVersion;
        const modelVersion = `${rollout.model.name}@${rollout.model.version}`;
        modelVersions.add(modelVersion);
        const judgements = new Map<number, StepJudgement>(
          (await repo.listStepVerdicts(deps.db, rollout.id, version)).map((v) => [v.idx, { annotation: v.annotation, score: v.score }]),
        );
        const built = buildSamples({
          rollout,
          query,
          judgements,
          tauC: config.critic.tauC,
          historyImages: config.historyImages,
          lineage: { cycleId: input.cycleId, modelVersion, criticVersion: version, dagVersion: query.dagVersion, configHash: hash },
          uri: (k) => deps.blobs.uri(k),
        });
        samples.push(...built.samples.map((s) => ({ sample: s, rolloutId: rollout.id, step: s.meta.step })));
        for (const r of built.removed) removedCounts[`removed_${r.reason}`] = (removedCounts[`removed_${r.reason}`] ?? 0) + 1;
        heartbeatSafely();
      }
      if (samples.length === 0) return null;
      const lineage: Lineage = {
        cycleId: input.cycleId,
        modelVersions: [...modelVersions].sort(),
        criticVersion: version,
        dagVersions,
        configHash: hash,
      };
      const written = await writeDataset({
        db: deps.db,
        blobs: deps.blobs,
        name: config.datasetName,
        createdAt: input.createdAt,
        lineage,
        samples,
        counts: { trajectories: accepted.length, samples: samples.length, ...removedCounts },
      });
      return { name: written.name, version: written.version, manifestUri: written.manifestUri, samples: samples.length };
    },

    /**
     * Critic calibration against checker ground truth (critics/calibration.ts): metrics per app × channel × split
     * for this cycle's critic version, upserted into critic_calibration; plus the vote/consensus rule that the
     * validation split alone would choose (precision ≥ 0.97), scored on the report split. Returns a summary.
     */
    async calibrateCritics(input: { cycleId: string; config: unknown }): Promise<CalibrationSummary> {
      const config = parseConfig(input.config);
      const version = criticVersion(deps.models, config);
      const rows = await calibrationRepo.listCalibrationRows(deps.db, input.cycleId, version);
      const entries = calibrate(rows);
      await calibrationRepo.upsertCalibration(deps.db, input.cycleId, entries);
      const all = entries.find((e) => e.scope === 'all' && e.channel === 'consensus' && e.split === 'all')?.metrics;
      const selection = rows.length > 0 ? selectRule(rows) : undefined;
      return {
        rollouts: rows.length,
        consensus: { precision: all?.precision ?? null, recall: all?.recall ?? null },
        suggested: selection
          ? {
              voteRule: selection.rule.voteRule,
              consensus: selection.rule.consensus,
              tauC: selection.rule.tauC ?? 0,
              description: describeRule(selection.rule),
              meetsTarget: selection.meetsTarget,
              validationRollouts: selection.validation.n,
              reportRollouts: selection.report.n,
              reportPrecision: selection.report.precision,
              reportRecall: selection.report.recall,
            }
          : null,
      };
    },

    async finishCycle(input: { cycleId: string; exportedSamples: number }) {
      return withTransaction(deps.db, async (client) => {
        const counts = await repo.cycleCounts(client, input.cycleId);
        const full = { ...counts, exportedSamples: input.exportedSamples };
        await repo.finishCycle(client, input.cycleId, full);
        return full;
      });
    },
  };
}

function subsample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.round((i * (items.length - 1)) / (max - 1))]!);
  return out;
}

