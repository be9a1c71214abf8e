import { type ActivityDeps, invalid, parseConfig, platformDeps } from './deps.js';
import { log } from '@temporalio/activity';
import { generateQueryBatch } from '../query-gen/pipeline.js';
import { createCrawlerValidator } from '../environments/crawler.js';
import * as repo from '../storage/repos.js';

/** Query generation (query-gen/) persisted with lineage. */
export function createQueryActivities(deps: ActivityDeps) {
  return {
    async generateQueries(input: { cycleId: string; cycleNumber: number; config: unknown }): Promise<{ queryIds: string[] }> {
      const config = parseConfig(input.config);
      const platform = platformDeps(deps, config);
      // Every cycle samples anew; the same cycle number always samples the same queries.
      const seed = config.seed * 100_003 + input.cycleNumber;
      const generate = (validator?: Parameters<typeof generateQueryBatch>[0]['validator']) =>
        generateQueryBatch({
          dags: platform.dags,
          count: config.queries,
          seed,
          sampler: config.querySampler,
          models: { synth: deps.models.querySynth, refine: deps.models.queryRefine },
          apps: config.apps,
          ...(config.families ? { families: config.families } : {}),
          infeasibleRate: config.infeasibleRate,
          ...(validator ? { validator } : {}),
        });
      let report;
      if (config.validateQueries && platform.actionSpace === 'desktop') {
        // The interface validator replays phone DAG transitions in Chromium; desktop queries name only objects the
        // seeded files contain (environments/desktop/apps/fixtures.ts), so there is nothing stale to drop.
        throw invalid('config.validateQueries: interface validation replays phone apps only; turn it off for platform "desktop"');
      }
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

  };
}
