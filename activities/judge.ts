import { type ActivityDeps, criticVersion, heartbeatSafely, invalid, learnedSpecOf, loaders, parseConfig } from './deps.js';
import { toDataUrl } from '../agents/episode.js';
import { judgeStep, criticScore } from '../critics/step-critic.js';
import { judgeTrajectory as judgeTrajectoryChannels } from '../critics/trajectory-critic.js';
import * as repo from '../storage/repos.js';
import * as calibrationRepo from '../storage/calibration-repo.js';
import { calibrate, describeRule, meanStepScore, modeCalibrations, passesTauC, selectRule } from '../critics/calibration.js';
import { combineLearned, featureInputOf, loadLearnedCritic, type LearnedCritic, type LearnedCriticSpec } from '../critics/learned-critic.js';
import { deriveReviewCandidates } from '../critics/review.js';
import * as reviewRepo from '../storage/review-repo.js';
import { withTransaction } from '../storage/db.js';
import type { CalibrationSummary } from '../workflows/contracts.js';

/** Step verdicts written per round trip in judgeSteps. */
const VERDICT_BATCH = 8;

/** Verdicts: step critic, trajectory-critic channels with consensus, learned channel, calibration against checkers. */
export function createJudgeActivities(deps: ActivityDeps) {
  const { loadQuery, loadRollout } = loaders(deps);
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

  return {
    async judgeSteps(input: { rolloutId: string; config?: unknown }): Promise<{ judged: number; harmful: number }> {
      const config = parseConfig(input.config ?? {});
      const version = criticVersion(deps.models, config);
      const rollout = await loadRollout(input.rolloutId);
      const query = await loadQuery(rollout.queryId);
      const done = new Set((await repo.listStepVerdicts(deps.db, rollout.id, version)).map((v) => v.idx));
      const summaries: string[] = [];
      let judged = 0;
      let harmful = 0;
      // Verdicts are written in batches (one round trip per VERDICT_BATCH steps, and at the end): a retried attempt
      // re-judges at most the unwritten tail, and the upsert keeps a re-write idempotent.
      const pending: repo.StepVerdictInput[] = [];
      const flush = async (): Promise<void> => {
        if (pending.length === 0) return;
        await repo.upsertStepVerdicts(deps.db, pending.splice(0));
      };
      // A step's `after` is usually the next step's `before`: read each screenshot once.
      let lastKey: string | undefined;
      let lastBytes: Uint8Array | undefined;
      const screenshot = async (key: string): Promise<Uint8Array> => {
        if (key !== lastKey) {
          lastBytes = await deps.blobs.get(key);
          lastKey = key;
        }
        return lastBytes!;
      };
      for (const step of rollout.steps) {
        if (!step.action) {
          summaries.push('(invalid action)');
          continue;
        }
        if (done.has(step.index)) continue;
        const before = await screenshot(step.before.screenshotKey);
        const after = await screenshot((step.after ?? step.before).screenshotKey);
        const result = await judgeStep(deps.models.stepCritic, {
          instruction: query.instruction,
          history: [...summaries],
          action: step.action,
          before,
          after,
          actionSpace: rollout.actionSpace,
        });
        // An unparsable critic reply is recorded as NEUTRAL with the parse error as its analysis, never dropped.
        const verdict =
          'verdict' in result
            ? result.verdict
            : { analysis: `unparseable critic reply (${result.error.kind}): ${result.error.message}`, summary: 'The critic reply could not be parsed.', annotation: 'NEUTRAL' as const };
        summaries.push(verdict.summary);
        pending.push({ rolloutId: rollout.id, idx: step.index, criticVersion: version, ...verdict, score: criticScore(verdict.annotation) });
        if (pending.length >= VERDICT_BATCH) await flush();
        judged++;
        if (verdict.annotation === 'HARMFUL') harmful++;
        heartbeatSafely({ step: step.index });
      }
      await flush();
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


    /**
     * Critic calibration against checker ground truth (critics/calibration.ts): metrics per app × channel × split
     * for this cycle's critic version, upserted into critic_calibration; plus the vote/consensus rule that the
     * validation split alone would choose (precision ≥ 0.97), scored on the report split, and the consensus per
     * rollout mode with its channel disagreement (a cycle's guidance references run in another mode). Returns a summary.
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
        byMode: modeCalibrations(entries),
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

  };
}

function subsample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(items[Math.round((i * (items.length - 1)) / (max - 1))]!);
  return out;
}
