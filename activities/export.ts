import { type ActivityDeps, heartbeatSafely, parseConfig } from './deps.js';
import { exportSnapshot } from '../export/snapshot.js';

/**
 * Export: the cycle's accepted, cleansed steps (and, with the reasoning stage on, their reasoning rows) as a versioned SFT snapshot of the configured dataset name, through
 * the same snapshot code as `trajforge export` (selection through rollout_acceptance, PII scrubbing, contamination
 * guard, portable images). A retry finds the version it already wrote (content fingerprint).
 */
export function createExportActivities(deps: ActivityDeps) {
  return {
    async exportDataset(input: { cycleId: string; config: unknown; createdAt: string }): Promise<{
      name: string;
      version: number;
      manifestUri: string;
      samples: number;
    } | null> {
      const config = parseConfig(input.config);
      const result = await exportSnapshot(
        { db: deps.db, blobs: deps.blobs, ocr: deps.ocr, progress: heartbeatSafely },
        {
          name: config.datasetName,
          // The reasoning stage's kept traces and distillations go into the same snapshot as reasoning rows.
          formats: config.reasoning.enabled ? ['sft', 'reasoning'] : ['sft'],
          filters: { cycles: [input.cycleId] },
          minScore: config.critic.tauC,
          historyImages: config.historyImages,
          keepGuidance: config.guidance.keepInExport,
        },
      );
      const samples = result?.rows.sft ?? 0;
      if (!result || samples === 0) return null;
      return { name: result.name, version: result.version, manifestUri: result.manifestUri, samples };
    },
  };
}
