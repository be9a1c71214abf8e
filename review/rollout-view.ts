import type { Rollout } from '../domain/entities.js';
import type { Queryable } from '../storage/db.js';
import * as repo from '../storage/repos.js';
import { listReviewCandidates, type StoredReviewCandidate } from '../storage/review-repo.js';
import { claimHolder, listVerdicts, type StoredVerdict } from '../storage/review-queue-repo.js';

/** Everything the rollout page shows, loaded with a fixed number of queries (no per-step round trips). */
export interface RolloutView {
  rollout: Rollout;
  app: string | null;
  instruction: string;
  criticVersion: string | null;
  stepVerdicts: Map<number, repo.StepVerdictRow>;
  channels: repo.TrajectoryVerdictRow[];
  /** The learned channel's probability of Correct, parsed from its stored reason (`p=0.8123 …`). */
  learnedProbability: number | null;
  candidates: StoredReviewCandidate[];
  verdicts: StoredVerdict[];
  claimedBy: string | null;
}

export async function loadRolloutView(db: Queryable, rolloutId: string): Promise<RolloutView | undefined> {
  const rollout = await repo.getRollout(db, rolloutId);
  if (!rollout) return undefined;
  const [query, cycle, candidates, verdicts, claimedBy] = await Promise.all([
    repo.getQuery(db, rollout.queryId),
    repo.getCycle(db, rollout.cycleId),
    listReviewCandidates(db, { rolloutId }),
    listVerdicts(db, rolloutId),
    claimHolder(db, rolloutId),
  ]);
  const criticVersion = cycle?.criticVersion ?? candidates[0]?.criticVersion ?? null;
  const [steps, channels] = criticVersion
    ? await Promise.all([repo.listStepVerdicts(db, rolloutId, criticVersion), repo.listTrajectoryVerdicts(db, rolloutId, criticVersion)])
    : [[], []];
  const learned = channels.find((c) => c.channel === 'learned');
  const p = learned ? /p=([0-9.]+)/.exec(learned.reason)?.[1] : undefined;
  return {
    rollout,
    app: query?.app ?? null,
    instruction: query?.instruction ?? '',
    criticVersion,
    stepVerdicts: new Map(steps.map((s) => [s.idx, s])),
    channels,
    learnedProbability: p !== undefined && Number.isFinite(Number(p)) ? Number(p) : null,
    candidates,
    verdicts,
    claimedBy,
  };
}
