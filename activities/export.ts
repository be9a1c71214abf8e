import { type ActivityDeps, configHash, criticVersion, heartbeatSafely, loaders, parseConfig } from './deps.js';
import type { Lineage } from '../domain/entities.js';
import { buildSamples, type StepJudgement } from '../export/gui-owl-sft.js';
import { writeDataset } from '../export/writer.js';
import * as repo from '../storage/repos.js';
import { rolloutGuidance } from '../storage/guidance-repo.js';

/** A guided rollout's guidance for export: its version always (lineage), its text only with keepGuidance. */
async function guidanceOf(db: ActivityDeps['db'], rolloutId: string, queryId: string, keep: boolean): Promise<{ guidance?: { version: number; text?: string } }> {
  const g = await rolloutGuidance(db, rolloutId, queryId);
  if (!g) return {};
  return { guidance: keep ? { version: g.version, text: g.text } : { version: g.version } };
}

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
          ...(await guidanceOf(deps.db, rollout.id, rollout.queryId, config.guidance.keepInExport)),
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
  };
}
