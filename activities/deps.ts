import { createHash } from 'node:crypto';
import { ApplicationFailure, heartbeat } from '@temporalio/activity';
import type { Pool } from 'pg';
import { canonicalJson, CycleConfig, platformOf, type Role } from '../domain/config.js';
import type { ActionSpace } from '../domain/action.js';
import type { AppDag } from '../domain/dag.js';
import type { CheckerSpec, ModelRef, Query, Rollout } from '../domain/entities.js';
import type { BlobStore, ChatModel, EnvSession } from '../domain/ports.js';
import type { OcrEngine } from '../domain/ports.js';
import type { EnvPool } from '../environments/pool.js';
import type { DemonstrationLibrary } from '../environments/demonstrations/library.js';
import * as repo from '../storage/repos.js';
import { readLearnedCriticSpec, type LearnedCriticSpec } from '../critics/learned-critic.js';

/** An environment session that can also answer ground-truth questions (never exposed to agents/critics). */
export interface GroundTruthSession extends EnvSession {
  check(spec: CheckerSpec): Promise<{ success: boolean; reason: string }>;
}

export interface ActivityDeps {
  db: Pool;
  blobs: BlobStore;
  envPool: EnvPool<GroundTruthSession>;
  models: Record<Role, ChatModel>;
  /** The policy model and version every rollout of this worker records. */
  policyModel: ModelRef;
  dags: readonly AppDag[];
  /** Captions for the text channel of the trajectory critic. */
  ocr: OcrEngine;
  /**
   * The policy client serving a registry version (`CycleConfig.policyVersion`): the reference server's
   * `ref-policy@<version>`, or the endpoint registered with that version. Absent: only the default policy serves.
   */
  policyFor?: (version: string) => Promise<ChatModel>;
  /**
   * The desktop platform (`CycleConfig.platform: 'desktop'`): a pool of desktop sessions (real applications on Xvfb,
   * environments/desktop/) and the desktop apps' DAGs. Absent: this worker serves phone cycles only.
   */
  desktop?: { envPool: EnvPool<GroundTruthSession>; dags: readonly AppDag[] };
  /**
   * The demonstration library (environments/demonstrations/): a reference source of the guidance stage when the
   * cycle's `guidance.referenceSources` names `demonstration`. Absent: no demonstration is ever found.
   */
  demonstrations?: DemonstrationLibrary;
}

/** What a cycle's platform runs on: its environment pool, the DAGs its queries come from and its action space. */
export function platformDeps(
  deps: Pick<ActivityDeps, 'envPool' | 'dags' | 'desktop'>,
  config: CycleConfig,
): { envPool: EnvPool<GroundTruthSession>; dags: readonly AppDag[]; actionSpace: ActionSpace } {
  if (platformOf(config) === 'phone') return { envPool: deps.envPool, dags: deps.dags, actionSpace: 'mobile' };
  if (!deps.desktop) throw invalid('config.platform: "desktop" needs a worker with desktop environments (this worker serves phones only)');
  return { envPool: deps.desktop.envPool, dags: deps.desktop.dags, actionSpace: 'desktop' };
}

/** The policy model and its lineage ref for a rollout of `config` (its `policyVersion`, else the worker's default). */
export async function policyOf(deps: ActivityDeps, config: CycleConfig): Promise<{ model: ChatModel; ref: ModelRef }> {
  const version = config.policyVersion;
  if (version === undefined) return { model: deps.models.policy, ref: deps.policyModel };
  if (!deps.policyFor) {
    if (version === deps.policyModel.version) return { model: deps.models.policy, ref: deps.policyModel };
    throw invalid(`config.policyVersion: this worker serves only ${deps.policyModel.name}@${deps.policyModel.version}`);
  }
  return { model: await deps.policyFor(version), ref: { name: deps.policyModel.name, version } };
}

export function invalid(message: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(message, 'InvalidInput');
}

export function parseConfig(raw: unknown): CycleConfig {
  const parsed = CycleConfig.safeParse(raw);
  if (!parsed.success) throw invalid(parsed.error.issues.map((i) => `config.${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

export function configHash(config: CycleConfig, models: Record<Role, ChatModel>): string {
  const modelNames = Object.fromEntries(Object.entries(models).map(([role, m]) => [role, m.name]));
  return createHash('sha256').update(canonicalJson({ config, modelNames })).digest('hex').slice(0, 16);
}

/** The configured learned-critic model (read once per path), or undefined when the channel is off. */
export function learnedSpecOf(config: CycleConfig): LearnedCriticSpec | undefined {
  const l = config.critic.learned;
  if (l.model === null) return undefined;
  try {
    return readLearnedCriticSpec(l.model, l.threshold);
  } catch (err) {
    throw invalid(`config.critic.learned.model: ${(err as Error).message}`);
  }
}

/**
 * Critic lineage: which critic models and which aggregation produced a verdict; with the learned channel on,
 * also its model's hash prefix, threshold and consensus mode (`;learned=<sha12>@<threshold>:<mode>`).
 */
export function criticVersion(models: Record<Role, ChatModel>, config: CycleConfig): string {
  const c = config.critic;
  const base = `${models.stepCritic.name}+${models.trajCriticText.name}+${models.trajCriticMultimodal.name};votes=${c.votes}:${c.voteRule};consensus=${c.consensus}`;
  const gated = c.trajectoryTauC > 0 ? `${base};tauC=${c.trajectoryTauC}` : base;
  const learned = learnedSpecOf(config);
  return learned ? `${gated};learned=${learned.sha256.slice(0, 12)}@${learned.threshold}:${c.learned.consensus}` : gated;
}

export const heartbeatSafely = (details?: unknown): void => {
  try {
    heartbeat(details);
  } catch {
    // Outside an activity context (direct calls in tests/benchmarks) there is nothing to heartbeat.
  }
};

/** Row loaders that turn a missing row into a non-retryable `NotFound` failure. */
export function loaders(deps: Pick<ActivityDeps, 'db'>): {
  loadQuery(queryId: string): Promise<Query>;
  loadRollout(rolloutId: string): Promise<Rollout>;
} {
  return {
    async loadQuery(queryId) {
      const query = await repo.getQuery(deps.db, queryId);
      if (!query) throw ApplicationFailure.nonRetryable(`query ${queryId} not found`, 'NotFound');
      return query;
    },
    async loadRollout(rolloutId) {
      const rollout = await repo.getRollout(deps.db, rolloutId);
      if (!rollout) throw ApplicationFailure.nonRetryable(`rollout ${rolloutId} not found`, 'NotFound');
      return rollout;
    },
  };
}
