import { type ActivityDeps, configHash, criticVersion, heartbeatSafely, loaders, parseConfig } from './deps.js';
import type { Lineage } from '../domain/entities.js';
import { buildSamples, type StepJudgement } from '../export/gui-owl-sft.js';
import { writeDataset } from '../export/writer.js';
import * as repo from '../storage/repos.js';
import { humanOverrides, humanRejectedSteps } from '../storage/review-queue-repo.js';

/** Export: accepted, cleansed steps as a versioned dataset. */
export function createExportActivities(deps: ActivityDeps) {
  const { loadQuery, loadRollout } = loaders(deps);
  return {
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
      // Reviewer decisions (review/): accepted-over-the-critics rollouts are counted in the manifest's lineage, and
      // steps a reviewer rejected individually are dropped like any other cleansed step.
      const overrides = await humanOverrides(deps.db, input.cycleId, version);
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
        const humanRejected = new Set(await humanRejectedSteps(deps.db, rollout.id));
        const kept = built.samples.filter((s) => !humanRejected.has(s.meta.step));
        if (kept.length < built.samples.length) removedCounts.removed_human_step = (removedCounts.removed_human_step ?? 0) + built.samples.length - kept.length;
        samples.push(...kept.map((s) => ({ sample: s, rolloutId: rollout.id, step: s.meta.step })));
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
        counts: {
          trajectories: accepted.length,
          samples: samples.length,
          human_accepted_over_critics: overrides.acceptedOverCritics,
          human_rejected_over_critics: overrides.rejectedOverCritics,
          ...removedCounts,
        },
      });
      return { name: written.name, version: written.version, manifestUri: written.manifestUri, samples: samples.length };
    },
  };
}
