import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type ActivityDeps, configHash, invalid, parseConfig } from './deps.js';
import { generateQueryBatch } from '../query-gen/pipeline.js';
import * as repo from '../storage/repos.js';
import { many } from '../storage/db.js';
import { freezeEvalSet, getEvalSet } from '../storage/query-stats-repo.js';
import { EvalSpec } from '../evolution/specs.js';

/** Eval runs are cycles of their own: `eval-<set>-<model>@<version>-s<seed>` (never `cycle-N`, never exported). */
export function evalCycleId(evalSet: string, model: string, version: string, seed: number): string {
  return `eval-${evalSet}-${model}@${version}-s${seed}`;
}

/** The eval gate's rollouts: a frozen eval set, one run per seed, scored by the checkers (ground truth). */
export function createEvalActivities(deps: ActivityDeps) {
  const parseEval = (raw: unknown): EvalSpec => {
    const parsed = EvalSpec.safeParse(raw);
    if (!parsed.success) throw invalid(parsed.error.issues.map((i) => `eval.${i.path.join('.')}: ${i.message}`).join('; '));
    return parsed.data;
  };
  return {
    /**
     * The eval set's query ids, freezing it on first use: `eval.queries` queries generated with the dedicated
     * `eval.querySeed` over the line's apps. A set frozen before is reused as is (frozen means frozen; a different
     * size under the same name is refused by freezeEvalSet).
     */
    async prepareEvalSet(input: { eval: unknown; config: unknown }): Promise<{ queryIds: string[]; created: boolean }> {
      const spec = parseEval(input.eval);
      const config = parseConfig(input.config);
      const existing = await getEvalSet(deps.db, spec.evalSet);
      if (existing) return { queryIds: existing.queries.map((q) => q.id), created: false };
      const batch = await generateQueryBatch({
        dags: deps.dags,
        count: spec.queries,
        seed: spec.querySeed,
        sampler: config.querySampler,
        models: { synth: deps.models.querySynth, refine: deps.models.queryRefine },
        apps: config.apps,
        ...(config.families ? { families: config.families } : {}),
        infeasibleRate: 0,
      });
      const ids = batch.queries.map((q) => q.id).sort();
      const fingerprint = createHash('sha256').update(ids.join('\n')).digest('hex');
      const frozen = await freezeEvalSet(deps.db, {
        name: spec.evalSet,
        fingerprint,
        spec: { queries: spec.queries, querySeed: spec.querySeed, apps: config.apps, ...(config.families ? { families: config.families } : {}), sampler: config.querySampler, purpose: 'eval gate' },
        queries: batch.queries,
      });
      return { queryIds: ids, created: frozen.created };
    },

    /** Registers one eval run (its cycle row and its queries' rows, for the rollouts' foreign keys). */
    async startEvalRun(input: { evalSet: string; version: string; seed: number; queryIds: string[]; config: unknown }): Promise<{ cycleId: string }> {
      const config = parseConfig(input.config);
      const set = await getEvalSet(deps.db, input.evalSet);
      if (!set) throw invalid(`evalSet: no frozen eval set ${input.evalSet}`);
      const cycleId = evalCycleId(input.evalSet, deps.policyModel.name, input.version, input.seed);
      await repo.upsertCycle(deps.db, {
        id: cycleId,
        config,
        configHash: configHash(config, deps.models),
        modelVersion: `${deps.policyModel.name}@${input.version}`,
        criticVersion: 'none (eval run: checker ground truth only)',
      });
      const wanted = new Set(input.queryIds);
      await repo.upsertQueries(deps.db, cycleId, set.queries.filter((q) => wanted.has(q.id)));
      return { cycleId };
    },

    /** Checker success rate of an eval run over its non-degraded episodes; marks the run finished. */
    async finishEvalRun(input: { cycleId: string }): Promise<{ rate: number; episodes: number; successes: number; degraded: number }> {
      const [row] = await many(
        deps.db,
        `select count(*) filter (where not degraded)::int as episodes,
                count(*) filter (where not degraded and ground_truth)::int as successes,
                count(*) filter (where degraded)::int as degraded
         from rollouts where cycle_id = $1`,
        [input.cycleId],
        z.object({ episodes: z.number(), successes: z.number(), degraded: z.number() }),
      );
      const r = row ?? { episodes: 0, successes: 0, degraded: 0 };
      await repo.finishCycle(deps.db, input.cycleId, { evalEpisodes: r.episodes, evalSuccesses: r.successes, degraded: r.degraded });
      return { rate: r.episodes ? r.successes / r.episodes : 0, ...r };
    },
  };
}
