import sharp from 'sharp';
import type { Pool } from 'pg';
import type { Action } from '../../domain/action.js';
import { Rollout, type Query, type Step } from '../../domain/entities.js';
import type { BlobStore } from '../../domain/ports.js';
import * as repo from '../../storage/repos.js';
import { replaceReviewCandidates } from '../../storage/review-repo.js';

/**
 * Seeds review-queue fixtures the way the pipeline leaves them: a cycle, queries, rollouts whose steps point at
 * real PNG screenshots in a real blob store, step-critic verdicts, trajectory verdicts per channel (learned
 * included) and review candidates. Rollout i has priority 100 − i (queue order = index order); even rollouts were
 * accepted by the critics, odd ones rejected. Ground truth is set (admins only may see it).
 */
export interface SeedOptions {
  cycleId: string;
  criticVersion: string;
  rollouts: number;
  steps: number;
  /** Screenshot size (px); small keeps the fixtures fast. */
  width?: number;
  height?: number;
}

export const SEED_EMAIL = 'ann.smith@example.com';
const APPS = ['food', 'shop', 'notes'] as const;

async function screenshot(blobs: BlobStore, w: number, h: number, label: string, hue: number): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
<rect width="100%" height="100%" fill="hsl(${hue},35%,96%)"/><rect width="100%" height="${Math.round(h / 12)}" fill="hsl(${hue},45%,40%)"/>
${[1, 2, 3, 4, 5].map((i) => `<rect x="${w * 0.06}" y="${(h * (i + 1)) / 8}" width="${w * 0.88}" height="${h / 11}" rx="8" fill="#fff" stroke="hsl(${hue},20%,80%)"/>`).join('')}
<text x="${w * 0.06}" y="${h / 18}" font-family="sans-serif" font-size="${Math.round(w / 16)}" fill="#fff">${label}</text></svg>`;
  const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
  return blobs.put(png, { ext: '.png', contentType: 'image/png' });
}

function actionOf(i: number, last: boolean, w: number, h: number): Action {
  if (last) return { action: 'terminate', status: 'success' };
  switch (i % 4) {
    case 0:
      return { action: 'click', coordinate: [Math.round(w * 0.5), Math.round(h * 0.3)] };
    case 1:
      return { action: 'swipe', coordinate: [Math.round(w * 0.5), Math.round(h * 0.8)], coordinate2: [Math.round(w * 0.5), Math.round(h * 0.3)] };
    case 2:
      return { action: 'type', text: `deliver to ${SEED_EMAIL}` };
    default:
      return { action: 'long_press', coordinate: [Math.round(w * 0.3), Math.round(h * 0.55)], time: 1 };
  }
}

export interface Seeded {
  rolloutIds: string[];
  /** Rollout ids the critics accepted (even indices). */
  criticAccepted: string[];
}

export async function seedReviewData(db: Pool, blobs: BlobStore, o: SeedOptions): Promise<Seeded> {
  const w = o.width ?? 206;
  const h = o.height ?? 458;
  await repo.upsertCycle(db, { id: o.cycleId, config: {}, configHash: 'seedhash', modelVersion: 'ref-policy@0.1.0', criticVersion: o.criticVersion });
  // Screens are shared across rollouts (content-addressed): one per step position plus a final one.
  const shots: string[] = [];
  for (let s = 0; s <= o.steps; s++) shots.push(await screenshot(blobs, w, h, `Screen ${s}`, (s * 47) % 360));
  const queries: Query[] = [];
  const rolloutIds: string[] = [];
  const criticAccepted: string[] = [];
  for (let i = 0; i < o.rollouts; i++) {
    const app = APPS[i % APPS.length]!;
    const instruction = `Order item ${i} in ${app} and email the receipt to ${SEED_EMAIL}`;
    queries.push({
      id: `${o.cycleId}-q${i}`,
      app,
      dagVersion: `${app}@1`,
      family: 'order',
      instruction,
      rawInstruction: instruction,
      path: ['home'],
      slots: { item: `item ${i}` },
      checker: { app, family: 'order', params: { item: `item ${i}` } },
      difficulty: 2,
      sampler: 'uniform',
      seed: i,
    });
  }
  await repo.upsertQueries(db, o.cycleId, queries);
  for (let i = 0; i < o.rollouts; i++) {
    const q = queries[i]!;
    const steps: Step[] = [];
    for (let s = 0; s < o.steps; s++) {
      steps.push({
        index: s,
        before: { screenshotKey: shots[s]!, width: w, height: h },
        after: { screenshotKey: shots[s + 1]!, width: w, height: h },
        action: actionOf(s, s === o.steps - 1, w, h),
        reasoning: `The screen shows the list; step ${s} moves towards item ${i}. Contact: ${SEED_EMAIL}.`,
        conclusion: `Did step ${s} for item ${i}`,
        latencyMs: 5,
      });
    }
    const accepted = i % 2 === 0;
    const rollout = Rollout.parse({
      id: `${o.cycleId}/${q.id}/a0`,
      cycleId: o.cycleId,
      queryId: q.id,
      attempt: 0,
      agentMode: 'gui-owl',
      actionSpace: 'mobile',
      model: { name: 'ref-policy', version: '0.1.0' },
      status: 'terminated',
      outcome: 'success',
      steps,
      groundTruth: i % 3 !== 0,
    });
    await repo.upsertRollout(db, rollout, { degraded: false, configHash: 'seedhash' });
    rolloutIds.push(rollout.id);
    if (accepted) criticAccepted.push(rollout.id);
    await repo.upsertStepVerdicts(
      db,
      steps.map((s) => ({
        rolloutId: rollout.id,
        idx: s.index,
        criticVersion: o.criticVersion,
        analysis: `The action at step ${s.index} matches the instruction.`,
        summary: `Step ${s.index} progressed towards item ${i}`,
        annotation: s.index === 1 && i % 4 === 0 ? 'HARMFUL' : 'GOOD',
        score: s.index === 1 && i % 4 === 0 ? 0 : 1,
      })),
    );
    await repo.upsertTrajectoryVerdicts(db, [
      { rolloutId: rollout.id, criticVersion: o.criticVersion, channel: 'text', correct: accepted, reason: 'caption shows the order confirmation', votes: [accepted, accepted, !accepted] },
      { rolloutId: rollout.id, criticVersion: o.criticVersion, channel: 'multimodal', correct: !accepted, reason: 'no confirmation visible', votes: [!accepted] },
      { rolloutId: rollout.id, criticVersion: o.criticVersion, channel: 'learned', correct: accepted, reason: `p=${accepted ? '0.8123' : '0.2210'} ${accepted ? '≥' : '<'} threshold 0.5 (model abcdef123456)` },
      { rolloutId: rollout.id, criticVersion: o.criticVersion, channel: 'consensus', correct: accepted, reason: 'rule=both', votes: [] },
    ]);
    await replaceReviewCandidates(db, { rolloutId: rollout.id, criticVersion: o.criticVersion, cycleId: o.cycleId, queryId: q.id, accepted }, [
      { kind: 'channels_split', reason: 'text and multimodal channels disagree', priority: Math.max(1, 100 - i), details: {} },
      ...(i % 3 === 1 ? [{ kind: 'votes_split' as const, reason: 'text votes 2/3', priority: Math.max(0.5, 50 - i), details: {} }] : []),
    ]);
  }
  return { rolloutIds, criticAccepted };
}
