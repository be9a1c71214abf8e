import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type ActivityDeps, heartbeatSafely, invalid, parseConfig } from './deps.js';
import { parsePolicyPrompt } from '../agents/gui-owl.js';
import { gateDecision, type GateDecision } from '../evolution/gate.js';
import { retrainDue, TriggerPolicy } from '../evolution/trigger.js';
import { exportSnapshot } from '../export/snapshot.js';
import { nextPatch } from '../models/reference/trainer.js';
import { runExternalTrainer } from '../models/trainers/external.js';
import { readPolicyMemory, trainReferenceCandidate } from '../models/trainers/reference.js';
import { many } from '../storage/db.js';
import * as registry from '../storage/registry-repo.js';
import * as repo from '../storage/repos.js';
import { TrainerSpec } from '../evolution/specs.js';
import type { EvalResult } from '../workflows/loop-contracts.js';

const cycleNumberOf = (id: string): number => Number(/^cycle-(\d+)$/.exec(id)?.[1] ?? NaN);

/**
 * The self-evolving line's activities: cycle planning on the served version, the retrain trigger, the training
 * snapshot, trainer adapters, registry transitions and the eval gate. Each is idempotent by the business keys the
 * workflows pass (retrain id, candidate version, event keys).
 */
export function createLoopActivities(deps: ActivityDeps) {
  const name = (): string => deps.policyModel.name;

  /** The version rollouts are served (highest promoted), else the worker's own default version. */
  async function served(): Promise<{ version: string; throughCycle: number }> {
    const row = await registry.servedVersion(deps.db, name());
    const through = Number(row?.meta.throughCycle ?? 0);
    return { version: row?.version ?? deps.policyModel.version, throughCycle: Number.isFinite(through) ? through : 0 };
  }

  /** Acceptance per training cycle after `afterCycle` (the effective acceptance of view rollout_acceptance). */
  async function acceptanceSince(afterCycle: number): Promise<{ cycleId: string; accepted: number; judged: number }[]> {
    const rows = await many(
      deps.db,
      `select a.cycle_id,
              count(*) filter (where a.accepted and not r.degraded)::int as accepted,
              count(*) filter (where a.accepted is not null and not r.degraded)::int as judged
       from rollout_acceptance a join rollouts r on r.id = a.rollout_id
       where a.cycle_id ~ '^cycle-[0-9]+$' and substring(a.cycle_id from 7)::bigint > $1
       group by a.cycle_id`,
      [afterCycle],
      z.object({ cycle_id: z.string(), accepted: z.number(), judged: z.number() }),
    );
    return rows.map((r) => ({ cycleId: r.cycle_id, accepted: r.accepted, judged: r.judged })).sort((a, b) => cycleNumberOf(a.cycleId) - cycleNumberOf(b.cycleId));
  }

  return {
    /** The next cycle's number and the policy version it will use. */
    async planCycle(_input: Record<string, never>): Promise<{ cycleNumber: number; servedVersion: string }> {
      return { cycleNumber: (await repo.latestCycleNumber(deps.db)) + 1, servedVersion: (await served()).version };
    },

    /** Whether a retrain is due: the trigger policy over the cycles since the last training (any candidate). */
    async retrainCheck(input: { trigger: unknown }): Promise<{ due: boolean; reason: string; newAccepted: number }> {
      const policy = TriggerPolicy.safeParse(input.trigger);
      if (!policy.success) throw invalid(policy.error.issues.map((i) => `trigger.${i.path.join('.')}: ${i.message}`).join('; '));
      const trained = await registry.listModels(deps.db, name());
      const lastThrough = Math.max(0, ...trained.map((m) => Number(m.meta.throughCycle ?? 0)).filter(Number.isFinite));
      const cycles = await acceptanceSince(lastThrough);
      const newAccepted = cycles.reduce((a, c) => a + c.accepted, 0);
      const decision = retrainDue(policy.data, { newAccepted, acceptanceRates: cycles.map((c) => (c.judged ? c.accepted / c.judged : 0)) });
      return { ...decision, newAccepted };
    },

    /**
     * Fixes a retrain's versions: the served parent, the candidate version (the one already registered under this
     * retrain id, else the next patch after every registered version) and the snapshot's cycle range.
     */
    async planRetrain(input: { retrainId: string }): Promise<{ servedVersion: string; candidateVersion: string; afterCycle: number; throughCycle: number; plannedAt: string }> {
      const all = await registry.listModels(deps.db, name());
      const mine = all.find((m) => m.meta.retrainId === input.retrainId);
      const parent = await served();
      if (mine) {
        return {
          servedVersion: mine.parentVersion ?? parent.version,
          candidateVersion: mine.version,
          afterCycle: Number(mine.meta.afterCycle ?? parent.throughCycle),
          throughCycle: Number(mine.meta.throughCycle ?? 0),
          plannedAt: String(mine.meta.trainedAt ?? mine.createdAt),
        };
      }
      const highest = all.map((m) => m.version).concat(parent.version).sort(registry.compareVersions).at(-1)!;
      return {
        servedVersion: parent.version,
        candidateVersion: nextPatch(highest),
        afterCycle: parent.throughCycle,
        throughCycle: await repo.latestCycleNumber(deps.db),
        plannedAt: new Date().toISOString(),
      };
    },

    /**
     * THE TRAINING SNAPSHOT (one function, so the export can be re-pointed at a cross-cycle exporter): the accepted
     * trajectories (view rollout_acceptance: critics' consensus, human verdicts win) of the `cycle-N` cycles in
     * (afterCycle, throughCycle], cleansed per step as the cycle export does, minus every rollout of a query that
     * is in a frozen eval set (by id or instruction). Written as a content-addressed dataset version
     * `<datasetName>-train@N`: a retry finds the same fingerprint and reuses it.
     */
    async exportTrainingSnapshot(input: { retrainId: string; config: unknown; afterCycle: number; throughCycle: number }): Promise<{
      dataset: string;
      samples: number;
      trajectories: number;
      excludedEval: number;
    } | null> {
      const config = parseConfig(input.config);
      // The cycles since the last training that produced accepted trajectories (eval runs are not `cycle-N`).
      const cycles = await many(
        deps.db,
        `select distinct a.cycle_id from rollout_acceptance a
         where a.accepted and a.cycle_id ~ '^cycle-[0-9]+$'
           and substring(a.cycle_id from 7)::bigint > $1 and substring(a.cycle_id from 7)::bigint <= $2
         order by a.cycle_id`,
        [input.afterCycle, input.throughCycle],
        z.object({ cycle_id: z.string() }),
      );
      if (cycles.length === 0) return null;
      // The same snapshot exporter as `trajforge export`: rollout_acceptance (human verdicts win), step cleansing,
      // PII scrubbing, and the contamination guard, which drops every frozen eval-set query (the gate's included).
      const result = await exportSnapshot(
        { db: deps.db, blobs: deps.blobs, ocr: deps.ocr, progress: heartbeatSafely },
        {
          name: `${config.datasetName}-train`,
          formats: ['sft'],
          filters: { cycles: cycles.map((c) => c.cycle_id) },
          minScore: config.critic.tauC,
          historyImages: config.historyImages,
        },
      );
      const samples = result?.rows.sft ?? 0;
      if (!result || samples === 0) return null;
      const counts = result.manifest.counts;
      const excludedEval = Object.values(result.manifest.contamination.dropped).reduce((a, b) => a + b, 0);
      return { dataset: `${result.name}@${result.version}`, samples, trajectories: counts.rollouts_accepted ?? 0, excludedEval };
    },

    /** An existing dataset as a training snapshot (`name@version`). */
    async describeDataset(input: { dataset: string }): Promise<{ dataset: string; samples: number } | null> {
      const [dsName, v] = input.dataset.split('@') as [string, string];
      const row = await repo.getDataset(deps.db, dsName, Number(v));
      if (!row) throw invalid(`dataset: no dataset ${input.dataset}`);
      const rowsCount = (row.manifest as { files?: { rows?: number }[] }).files?.[0]?.rows ?? 0;
      return { dataset: input.dataset, samples: rowsCount };
    },

    /**
     * Trains the candidate with the configured adapter and registers it (`candidate`). Idempotent: a version already
     * registered is not trained again; a training killed half-way is redone from the start and writes the same key.
     */
    async trainCandidate(input: { retrainId: string; trainer: unknown; dataset: string; parentVersion: string; version: string; throughCycle: number; afterCycle?: number; trainedAt?: string }): Promise<{ version: string; created: boolean; meta: Record<string, unknown> }> {
      const spec = TrainerSpec.safeParse(input.trainer);
      if (!spec.success) throw invalid(spec.error.issues.map((i) => `trainer.${i.path.join('.')}: ${i.message}`).join('; '));
      const existing = await registry.getModel(deps.db, name(), input.version);
      if (existing) return { version: input.version, created: false, meta: existing.meta };
      const [dsName, dsVersion] = input.dataset.split('@') as [string, string];
      const files = await repo.datasetTrainingFiles(deps.db, dsName, Number(dsVersion));
      const common = { retrainId: input.retrainId, throughCycle: input.throughCycle, afterCycle: input.afterCycle ?? null, trainer: spec.data.kind };
      let meta: Record<string, unknown>;
      let endpoint: string | undefined;
      if (spec.data.kind === 'reference') {
        const parent = await registry.getModel(deps.db, name(), input.parentVersion);
        const parentKey = parent?.meta.memoryKey;
        const base = typeof parentKey === 'string' ? await readPolicyMemory(deps.blobs, parentKey) : undefined;
        const trained = await trainReferenceCandidate({
          blobs: deps.blobs,
          ocr: deps.ocr,
          trainKeys: files.sft.map((f) => f.blobKey),
          dataset: input.dataset,
          version: input.version,
          trainedAt: input.trainedAt ?? new Date().toISOString(),
          parsePrompt: parsePolicyPrompt,
          onProgress: () => heartbeatSafely(),
          ...(base ? { base } : {}),
        });
        meta = { ...common, memoryKey: trained.memoryKey, samples: trained.samples, used: trained.used, skipped: trained.skipped, entries: trained.entries };
      } else {
        const workDir = await mkdtemp(join(tmpdir(), `trajforge-train-${input.version}-`));
        try {
          const result = await runExternalTrainer({
            spec: { command: spec.data.command, timeoutMs: spec.data.timeoutMinutes * 60_000 },
            workDir,
            files: await Promise.all(
              [...files.all, { path: 'manifest.json', blobKey: `datasets/${dsName}/v${dsVersion}/manifest.json` }].map(async (f) => ({ path: f.path, bytes: await deps.blobs.get(f.blobKey) })),
            ),
            trainPath: files.sft[0]!.path,
            version: input.version,
            parent: input.parentVersion,
            onProgress: (p) => heartbeatSafely(p),
          });
          endpoint = result.endpoint;
          meta = { ...common, command: spec.data.command, outputDir: result.outputDir, logTail: result.logTail.slice(-1000) };
        } catch (err) {
          await rm(workDir, { recursive: true, force: true });
          throw err;
        }
      }
      const reg = await registry.registerCandidate(deps.db, {
        name: name(),
        version: input.version,
        kind: 'policy',
        parentVersion: input.parentVersion,
        dataset: input.dataset,
        meta,
        eventKey: `${input.retrainId}:candidate`,
        actor: `trainer:${spec.data.kind}`,
        ...(endpoint ? { endpoint } : {}),
      });
      return { version: input.version, created: reg.created, meta };
    },

    /** A registry transition, idempotent by `eventKey`. */
    async markModel(input: { version: string; to: registry.ModelStatus; actor: string; eventKey: string }): Promise<{ status: string; applied: boolean }> {
      const r = await registry.transition(deps.db, { name: name(), ...input });
      return { status: r.row.status, applied: r.applied };
    },

    /** THE EVAL GATE (evolution/gate.ts): promote or reject the candidate; the decision and both evals go on its row. */
    async decideGate(input: { retrainId: string; candidateVersion: string; currentVersion: string; current: EvalResult; candidate: EvalResult; actor: string }): Promise<GateDecision> {
      const decision = gateDecision({ current: input.current.rates, candidate: input.candidate.rates });
      const evalRecord = {
        evalSet: input.candidate.evalSet,
        seeds: input.candidate.seeds,
        candidateRates: input.candidate.rates,
        currentVersion: input.currentVersion,
        currentRates: input.current.rates,
        ...decision,
      };
      await registry.transition(deps.db, {
        name: name(),
        version: input.candidateVersion,
        to: decision.promote ? 'promoted' : 'rejected',
        actor: input.actor,
        eventKey: `${input.retrainId}:decided`,
        metrics: { eval: evalRecord },
        detail: evalRecord,
      });
      return decision;
    },
  };
}
