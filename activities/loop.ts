import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { type ActivityDeps, configHash, heartbeatSafely, invalid, loaders, parseConfig } from './deps.js';
import { parsePolicyPrompt } from '../agents/gui-owl.js';
import type { Lineage } from '../domain/entities.js';
import { gateDecision, type GateDecision } from '../evolution/gate.js';
import { retrainDue, TriggerPolicy } from '../evolution/trigger.js';
import { buildSamples, type StepJudgement } from '../export/gui-owl-sft.js';
import { writeDataset } from '../export/writer.js';
import { nextPatch } from '../models/reference/trainer.js';
import { runExternalTrainer } from '../models/trainers/external.js';
import { readPolicyMemory, trainReferenceCandidate } from '../models/trainers/reference.js';
import { many } from '../storage/db.js';
import * as registry from '../storage/registry-repo.js';
import * as repo from '../storage/repos.js';
import { TrainerSpec } from '../evolution/specs.js';
import type { EvalResult } from '../workflows/loop-contracts.js';

const cycleNumberOf = (id: string): number => Number(/^cycle-(\d+)$/.exec(id)?.[1] ?? NaN);
const normInstruction = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The self-evolving line's activities: cycle planning on the served version, the retrain trigger, the training
 * snapshot, trainer adapters, registry transitions and the eval gate. Each is idempotent by the business keys the
 * workflows pass (retrain id, candidate version, event keys).
 */
export function createLoopActivities(deps: ActivityDeps) {
  const { loadQuery, loadRollout } = loaders(deps);
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
      const rows = await many(
        deps.db,
        `select a.rollout_id, a.cycle_id, a.critic_version from rollout_acceptance a join rollouts r on r.id = a.rollout_id
         where a.accepted and not r.degraded and a.cycle_id ~ '^cycle-[0-9]+$'
           and substring(a.cycle_id from 7)::bigint > $1 and substring(a.cycle_id from 7)::bigint <= $2
         order by a.rollout_id`,
        [input.afterCycle, input.throughCycle],
        z.object({ rollout_id: z.string(), cycle_id: z.string(), critic_version: z.string() }),
      );
      const evalRows = await many(deps.db, `select query_id, instruction from eval_set_queries`, [], z.object({ query_id: z.string(), instruction: z.string() }));
      const evalIds = new Set(evalRows.map((r) => r.query_id));
      const evalInstructions = new Set(evalRows.map((r) => normInstruction(r.instruction)));
      const hash = configHash(config, deps.models);
      const samples = [];
      const removed: Record<string, number> = {};
      const dagVersions: Record<string, string> = {};
      const modelVersions = new Set<string>();
      const criticVersions = new Set<string>();
      let excludedEval = 0;
      let trajectories = 0;
      for (const row of rows) {
        const rollout = await loadRollout(row.rollout_id);
        const query = await loadQuery(rollout.queryId);
        if (evalIds.has(query.id) || evalInstructions.has(normInstruction(query.instruction))) {
          excludedEval++;
          continue;
        }
        trajectories++;
        dagVersions[query.app] = query.dagVersion;
        const modelVersion = `${rollout.model.name}@${rollout.model.version}`;
        modelVersions.add(modelVersion);
        criticVersions.add(row.critic_version);
        const judgements = new Map<number, StepJudgement>(
          (await repo.listStepVerdicts(deps.db, rollout.id, row.critic_version)).map((v) => [v.idx, { annotation: v.annotation, score: v.score }]),
        );
        const built = buildSamples({
          rollout,
          query,
          judgements,
          tauC: config.critic.tauC,
          historyImages: config.historyImages,
          lineage: { cycleId: row.cycle_id, modelVersion, criticVersion: row.critic_version, dagVersion: query.dagVersion, configHash: hash },
          uri: (k) => deps.blobs.uri(k),
        });
        samples.push(...built.samples.map((s) => ({ sample: s, rolloutId: rollout.id, step: s.meta.step })));
        for (const r of built.removed) removed[`removed_${r.reason}`] = (removed[`removed_${r.reason}`] ?? 0) + 1;
        heartbeatSafely();
      }
      if (samples.length === 0) return null;
      const lineage: Lineage = {
        cycleId: `cycle-${input.afterCycle + 1}..cycle-${input.throughCycle}`,
        modelVersions: [...modelVersions].sort(),
        criticVersion: [...criticVersions].sort().join(' | '),
        dagVersions,
        configHash: hash,
      };
      const first = await many(deps.db, `select min(started_at) as t from cycles where id = $1`, [`cycle-${input.throughCycle}`], z.object({ t: z.date().nullable() }));
      const written = await writeDataset({
        db: deps.db,
        blobs: deps.blobs,
        name: `${config.datasetName}-train`,
        // Deterministic (a retry writes the same manifest): the snapshot's last cycle's start.
        createdAt: (first[0]?.t ?? new Date(0)).toISOString(),
        lineage,
        samples,
        counts: { trajectories, samples: samples.length, excluded_eval: excludedEval, ...removed },
      });
      return { dataset: `${written.name}@${written.version}`, samples: samples.length, trajectories, excludedEval };
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
      const trainKey = `datasets/${dsName}/v${dsVersion}/train.jsonl`;
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
          trainKey,
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
            trainJsonl: await deps.blobs.get(trainKey),
            manifest: await deps.blobs.get(`datasets/${dsName}/v${dsVersion}/manifest.json`),
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
