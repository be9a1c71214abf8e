import { type ActivityDeps, configHash, criticVersion, parseConfig } from './deps.js';
import * as repo from '../storage/repos.js';
import { withTransaction } from '../storage/db.js';
import { refreshQueryStats } from '../storage/query-stats-repo.js';

/** Cycle bookkeeping: the cycle row at the start, its counts at the end. */
export function createCycleActivities(deps: ActivityDeps) {
  return {
    async startCycle(input: { cycleId: string; config: unknown }): Promise<{ configHash: string; startedAt: string }> {
      const config = parseConfig(input.config);
      const hash = configHash(config, deps.models);
      // The served model is registered once (as promoted: it serves); a registry version (policyVersion) already is.
      await repo.upsertModelVersion(deps.db, { ...deps.policyModel, kind: 'policy' });
      const version = config.policyVersion ?? deps.policyModel.version;
      const row = await repo.upsertCycle(deps.db, {
        id: input.cycleId,
        config,
        configHash: hash,
        modelVersion: `${deps.policyModel.name}@${version}`,
        criticVersion: criticVersion(deps.models, config),
      });
      return { configHash: hash, startedAt: row.startedAt };
    },

    /** Final counts of the cycle, and the per-query statistics of every query it rolled out (same transaction). */
    async finishCycle(input: { cycleId: string; exportedSamples: number }) {
      return withTransaction(deps.db, async (client) => {
        await refreshQueryStats(client, input.cycleId);
        const counts = await repo.cycleCounts(client, input.cycleId);
        const full = { ...counts, exportedSamples: input.exportedSamples };
        await repo.finishCycle(client, input.cycleId, full);
        return full;
      });
    },
  };
}
