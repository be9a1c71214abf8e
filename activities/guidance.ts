import { ApplicationFailure } from '@temporalio/activity';
import { z } from 'zod';
import { platformOf, type Role } from '../domain/config.js';
import type { Rollout, Step } from '../domain/entities.js';
import type { Queryable } from '../storage/db.js';
import { many } from '../storage/db.js';
import { activeGuidance, getGuidance, guidedFamilies, refreshUplift, upsertGuidance } from '../storage/guidance-repo.js';
import { listHardQueries, refreshQueryStats } from '../storage/query-stats-repo.js';
import { synthesizeGuidance, type ReferenceStep } from '../synthesis/guidance.js';
import type { ChromiumSession } from '../environments/chromium.js';
import type { Demonstration } from '../environments/demonstrations/library.js';
import { type ActivityDeps, heartbeatSafely, invalid, loaders, parseConfig } from './deps.js';
import { rolloutSeed } from './rollout.js';

/** A demonstration as it travels from the env worker to guidance synthesis (screenshots as blob keys). */
const DemonstrationInput = z.object({
  id: z.string().min(1),
  source: z.enum(['scripted', 'human']),
  steps: z.array(z.object({ index: z.number().int().min(0), before: z.any(), after: z.any().optional(), action: z.any() }).passthrough()).min(1),
});
const SynthesizeInput = z
  .object({ cycleId: z.string().min(1), queryId: z.string().min(1), referenceRolloutId: z.string().min(1).optional(), demonstration: DemonstrationInput.optional() })
  .refine((v) => (v.referenceRolloutId === undefined) !== (v.demonstration === undefined), { message: 'give exactly one of referenceRolloutId and demonstration', path: ['referenceRolloutId'] });

/** The guided attempt's guidance text; a missing version is a non-retryable NotFound. */
export async function loadGuidanceText(db: Queryable, queryId: string, version: number | undefined): Promise<string> {
  const g = version === undefined ? undefined : await getGuidance(db, queryId, version);
  if (!g) throw ApplicationFailure.nonRetryable(`guidance ${queryId}@${version ?? '?'} not found`, 'NotFound');
  return g.text;
}

/** What a reference step's author said it meant to do: the E2E reasoning + conclusion, or the acting role's output. */
function intentOf(step: Step): string {
  const acting = step.roles?.find((r) => ['worker', 'interactor', 'executor'].includes(r.role))?.parsed as { thought?: string; think?: string; summary?: string } | undefined;
  return [step.reasoning, step.conclusion, acting?.thought ?? acting?.think, acting?.summary].filter(Boolean).join(' ');
}

export function referenceSteps(rollout: Rollout): ReferenceStep[] {
  return rollout.steps
    .filter((s): s is Step & { action: NonNullable<Step['action']> } => s.action !== undefined && !s.error)
    .map((s) => ({ index: s.index, before: s.before, ...(s.after ? { after: s.after } : {}), action: s.action, intent: intentOf(s) }));
}

/**
 * Which hard queries get this cycle's few guided slots: one at a time, a query of the family with the fewest guided
 * queries (earlier cycles' and the ones picked here), ties by query id. A line whose guidance is capped (`--guidance
 * 1`) then learns another family each cycle instead of whichever family's query ids sort first; families are the
 * query generator's labels (no app or family is named here).
 */
export function spreadOverFamilies(candidates: readonly { queryId: string; family: string; guided: number }[], max: number): string[] {
  const load = new Map<string, number>();
  for (const c of candidates) load.set(c.family, c.guided);
  const left = [...candidates].sort((a, b) => (a.queryId < b.queryId ? -1 : a.queryId > b.queryId ? 1 : 0));
  const out: string[] = [];
  while (out.length < max && left.length > 0) {
    let best = 0;
    left.forEach((c, i) => {
      if ((load.get(c.family) ?? 0) < (load.get(left[best]!.family) ?? 0)) best = i;
    });
    const [pick] = left.splice(best, 1);
    out.push(pick!.queryId);
    load.set(pick!.family, (load.get(pick!.family) ?? 0) + 1);
  }
  return out;
}

/** Guidance stage activities (workflows/guidance.ts): hard-query detection, synthesis, uplift bookkeeping. */
export function createGuidanceActivities(deps: ActivityDeps) {
  const { loadQuery, loadRollout } = loaders(deps);
  const role = (r: Role) => deps.models[r];
  return {
    /**
     * Refreshes this cycle's per-query statistics (idempotent; finishCycle refreshes them again) and returns the
     * queries of this cycle that are hard — ≥ minAttempts judged attempts, none accepted — and have no active
     * guidance yet, at most maxQueries, spread over task families (spreadOverFamilies: the family with the fewest
     * guided queries so far first; ties: query id).
     */
    async findHardQueries(input: { cycleId: string; config: unknown }): Promise<{ hard: number; queryIds: string[] }> {
      const config = parseConfig(input.config);
      await refreshQueryStats(deps.db, input.cycleId);
      const hard = (await listHardQueries(deps.db, { minAttempts: config.guidance.minAttempts })).filter((s) => s.lastCycleId === input.cycleId);
      const guided = new Set((await activeGuidance(deps.db, hard.map((h) => h.queryId))).map((g) => g.queryId));
      const candidates = hard.filter((h) => !guided.has(h.queryId)).map((h) => h.queryId);
      return { hard: hard.length, queryIds: spreadOverFamilies(await guidedFamilies(deps.db, candidates), config.guidance.maxQueries) };
    },

    /**
     * The demonstration library's reference for a hard query (`guidance.referenceSources` names `demonstration`): a
     * saved recording of its instruction, else its family's scripted demonstration played on a leased session (reset
     * with the seed of `<cycle>/<query>/d0`) and verified by the checker. Null when the library has none, the cycle
     * is not a phone cycle, or the demonstration failed. A retry replays it (same seed, same lineage id).
     */
    async demonstrateQuery(input: { cycleId: string; queryId: string; config: unknown }): Promise<Demonstration | null> {
      const config = parseConfig(input.config);
      const lib = deps.demonstrations;
      if (!lib || platformOf(config) !== 'phone') return null;
      const query = await loadQuery(input.queryId);
      const recorded = await lib.recorded(query);
      if (recorded) return recorded;
      // No recording (read just above): only the family's script is left.
      if (!lib.hasScript(query)) return null;
      const id = `${input.cycleId}/${input.queryId}/d0`;
      const appTitle = deps.dags.find((d) => d.app === query.app)?.title;
      if (!appTitle) throw invalid(`query ${query.id}: app "${query.app}" is not a built-in phone app`);
      const session = await deps.envPool.lease();
      let healthy = true;
      try {
        // Scripts drive the page through Playwright: only a browser session can play them.
        if (!('page' in session)) return null;
        heartbeatSafely({ demonstration: id });
        return (await lib.scripted(query, session as unknown as ChromiumSession, { appTitle, envSeed: rolloutSeed(id), id })) ?? null;
      } catch (err) {
        healthy = false;
        throw err;
      } finally {
        await deps.envPool.release(session, healthy);
      }
    },

    /**
     * Guidance from an accepted reference rollout or a demonstration: describer → QC → synthesiser, stored as the
     * query's next version with the reference's source (`model`, `scripted`, `human`) and id as lineage.
     */
    async synthesizeQueryGuidance(raw: { cycleId: string; queryId: string; referenceRolloutId?: string; demonstration?: Demonstration }): Promise<{ version: number; steps: number } | null> {
      const parsed = SynthesizeInput.safeParse(raw);
      if (!parsed.success) throw invalid(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
      const input = parsed.data;
      const query = await loadQuery(input.queryId);
      const reference = input.referenceRolloutId !== undefined
        ? { id: input.referenceRolloutId, source: 'model' as const, steps: referenceSteps(await loadRollout(input.referenceRolloutId)) }
        : (raw.demonstration as Demonstration);
      const steps = reference.steps;
      if (steps.length === 0) return null;
      let g;
      try {
        g = await synthesizeGuidance(
          { describer: role('guideDescriber'), qc: role('guideQc'), synth: role('guideSynth') },
          deps.blobs,
          { id: reference.id, source: reference.source, instruction: query.instruction, steps },
        );
      } catch (err) {
        // A reference with no effective step makes no guidance; that is an outcome, not a failure to retry.
        if (/no effective step/.test((err as Error).message)) return null;
        throw err;
      }
      const version = await upsertGuidance(deps.db, {
        queryId: query.id,
        text: g.text,
        steps: g.steps,
        described: g.described,
        source: g.source,
        referenceId: g.referenceId,
        cycleId: input.cycleId,
        models: g.models,
      });
      return { version, steps: g.steps.length };
    },

    /** Recomputes the version's uplift (retiring it when it stops helping) and counts the guided attempts' outcomes. */
    async recordGuidanceOutcome(input: { cycleId: string; queryId: string; version: number }): Promise<{
      guided: number;
      guidedAccepted: number;
      guidedGt: number;
      unguided: number;
      unguidedGt: number;
      status: string;
    }> {
      const g = await refreshUplift(deps.db, input.queryId, input.version);
      const [row] = await many(
        deps.db,
        `select count(*) filter (where guidance_version = $2)::int as guided,
                count(*) filter (where guidance_version = $2 and ground_truth)::int as guided_gt,
                count(*) filter (where purpose = 'attempt')::int as unguided,
                count(*) filter (where purpose = 'attempt' and ground_truth)::int as unguided_gt
         from rollouts where query_id = $1 and not degraded`,
        [input.queryId, input.version],
        z.object({ guided: z.number(), guided_gt: z.number(), unguided: z.number(), unguided_gt: z.number() }),
      );
      return {
        guided: row?.guided ?? 0,
        guidedAccepted: g?.guidedSuccesses ?? 0,
        guidedGt: row?.guided_gt ?? 0,
        unguided: row?.unguided ?? 0,
        unguidedGt: row?.unguided_gt ?? 0,
        status: g?.status ?? 'missing',
      };
    },
  };
}
