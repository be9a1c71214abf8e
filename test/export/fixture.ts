import sharp from 'sharp';
import { Rollout, type Query, type RoleCall } from '../../domain/entities.js';
import type { BlobStore } from '../../domain/ports.js';
import type { Queryable } from '../../storage/db.js';
import * as repo from '../../storage/repos.js';

export const CRITIC = 'critic-v1';
/** The only text in the fixture with PII in it (step 0 of cycle-2/q7/0). */
export const PII_REASONING = 'The form asks for a contact: I will type jane.doe@example.com and call +1 415 555 0100 later.';

/** What the fixture stored, for assertions. */
export interface Fixture {
  /** rollout id → effective acceptance the test expects. */
  accepted: Map<string, boolean>;
  humanAccepted: string;
  humanRejected: string;
  /** rollout id and the step a reviewer dropped. */
  reviewerDropped: { rolloutId: string; step: number };
  malformed: string;
  queries: string[];
  images: Map<string, Uint8Array>;
}

const query = (id: string, app: string): Query => ({
  id,
  app,
  dagVersion: `${app}@1`,
  family: 'create_note',
  instruction: `Create a note called ${id} in ${app}`,
  rawInstruction: `Open ${app}, tap New, type ${id}`,
  path: ['home', 'editor'],
  slots: { title: id },
  checker: { app, family: 'create_note', params: { title: id } },
  difficulty: 2,
  sampler: 'uniform',
  seed: 1,
});

const TREE = { nodes: [{ bounds: [0, 0, 200, 400], role: 'root' }, { bounds: [20, 40, 120, 80], role: 'button', name: 'New' }] };

const role = (name: string, text: string, images: string[], reply: string, parsed: unknown): RoleCall => ({
  role: name,
  request: { messages: [{ role: 'system', text: `You are the ${name}.`, images: [] }, { role: 'user', text, images }] },
  reply,
  parsed,
});

/**
 * Two cycles (apps `notes` and `shop`), 8 queries × 2 attempts, 3 steps each (click with a UI tree, type,
 * terminate), real PNG screenshots in the blob store, step and consensus verdicts, human verdicts that override the
 * critics both ways, a reviewer-dropped step, a malformed reply, and Mobile-Agent-v3 role calls on two rollouts.
 */
export async function seedFixture(db: Queryable, blobs: BlobStore): Promise<Fixture> {
  const images = new Map<string, Uint8Array>();
  const png = async (n: number): Promise<string> => {
    const bytes = await sharp({ create: { width: 200, height: 400, channels: 3, background: { r: (n * 37) % 256, g: (n * 91) % 256, b: (n * 13) % 256 } } })
      .png()
      .toBuffer();
    const key = await blobs.put(bytes, { ext: '.png', contentType: 'image/png' });
    images.set(key, new Uint8Array(bytes));
    return key;
  };
  const treeKey = await blobs.put(Buffer.from(JSON.stringify(TREE)), { ext: '.json' });
  const accepted = new Map<string, boolean>();
  const queries: string[] = [];
  let frame = 0;
  for (const [cycle, app, qs] of [
    ['cycle-1', 'notes', ['q1', 'q2', 'q3', 'q4', 'q5', 'q6']],
    ['cycle-2', 'shop', ['q7', 'q8']],
  ] as const) {
    await repo.upsertCycle(db, { id: cycle, config: {}, configHash: `hash-${cycle}`, modelVersion: 'policy@1', criticVersion: CRITIC });
    await repo.upsertQueries(db, cycle, qs.map((q) => query(q, app)));
    for (const q of qs) {
      queries.push(q);
      for (const attempt of [0, 1]) {
        const keys = [await png(frame++), await png(frame++), await png(frame++), await png(frame++)];
        const id = `${cycle}/${q}/${attempt}`;
        const malformed = q === 'q8' && attempt === 1;
        const withRoles = (q === 'q1' || q === 'q6') && attempt === 0;
        const reflector = (i: number): 'SUCCESS' | 'FAILURE' => (q === 'q6' && i === 0 ? 'FAILURE' : 'SUCCESS');
        const steps = [
          { index: 0, action: { action: 'click', coordinate: [50, 60] }, uiTreeKey: treeKey },
          malformed ? { index: 1, error: { kind: 'format_error', message: 'no tool call' } } : { index: 1, action: { action: 'type', text: `title ${q}` } },
          { index: 2, action: { action: 'terminate', status: 'success' } },
        ].map((s, i) => ({
          index: s.index,
          before: { screenshotKey: keys[i]!, width: 200, height: 400, ...('uiTreeKey' in s ? { uiTreeKey: s.uiTreeKey } : {}) },
          after: { screenshotKey: keys[i + 1]!, width: 200, height: 400 },
          ...('action' in s ? { action: s.action } : {}),
          ...('error' in s ? { error: s.error } : {}),
          reasoning: q === 'q7' && attempt === 0 && i === 0 ? PII_REASONING : `I should do step ${i} of ${q}.`,
          conclusion: `Did step ${i}.`,
          latencyMs: 5,
          ...(withRoles
            ? {
                roles: [
                  role('manager', `### User Instruction ###\nCreate ${q}\n### Current Screenshot ###`, [keys[i]!], '{"plan":["a"]}', { plan: ['a'] }),
                  role('worker', `### Subgoal ###\nstep ${i}\n### Current Screenshot ###`, [keys[i]!], `{"action":"step ${i}"}`, { action: i }),
                  role('reflector', `### Before/After ###`, [keys[i]!, keys[i + 1]!], `{"outcome":"${reflector(i)}","feedback":"ok"}`, { outcome: reflector(i), feedback: 'ok' }),
                  { ...role('notetaker', 'notes', [keys[i + 1]!], 'not json', undefined), error: { kind: 'format_error' as const, message: 'bad' } },
                ],
              }
            : {}),
        }));
        const r = Rollout.parse({
          id,
          cycleId: cycle,
          queryId: q,
          attempt,
          agentMode: withRoles ? 'mobile-agent-v3' : 'gui-owl',
          actionSpace: 'mobile',
          model: { name: 'policy', version: '1' },
          status: 'terminated',
          outcome: 'success',
          steps,
        });
        await repo.upsertRollout(db, r, { degraded: false, configHash: `hash-${cycle}` });
        const critics = attempt === 0;
        await repo.upsertTrajectoryVerdicts(db, [{ rolloutId: id, criticVersion: CRITIC, channel: 'consensus', correct: critics, reason: '', votes: [] }]);
        await repo.upsertStepVerdicts(
          db,
          steps.map((s) => ({ rolloutId: id, idx: s.index, criticVersion: CRITIC, analysis: '', summary: '', annotation: 'GOOD' as const, score: 0.9 })),
        );
        accepted.set(id, critics);
      }
    }
  }
  // A degraded rollout is never selected.
  await repo.upsertRollout(
    db,
    Rollout.parse({ id: 'cycle-1/q1/9', cycleId: 'cycle-1', queryId: 'q1', attempt: 9, agentMode: 'gui-owl', actionSpace: 'mobile', model: { name: 'policy', version: '1' }, status: 'degraded', steps: [] }),
    { degraded: true, configHash: 'hash-cycle-1' },
  );
  const humanAccepted = 'cycle-1/q2/1';
  const humanRejected = 'cycle-1/q3/0';
  await db.query(`insert into review_verdicts (rollout_id, reviewer, verdict) values ($1, 'ann', true), ($2, 'ann', false)`, [humanAccepted, humanRejected]);
  accepted.set(humanAccepted, true);
  accepted.set(humanRejected, false);
  const reviewerDropped = { rolloutId: 'cycle-1/q4/0', step: 1 };
  await db.query(`insert into review_verdicts (rollout_id, reviewer, verdict, steps) values ($1, 'bob', true, '{"1": false}'::jsonb)`, [reviewerDropped.rolloutId]);
  return { accepted, humanAccepted, humanRejected, reviewerDropped, malformed: 'cycle-2/q8/1', queries, images };
}
