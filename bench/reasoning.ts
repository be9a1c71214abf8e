/**
 * Reasoning data (GUI-Owl §2.2.3): hint-guided rejection sampling and the thought–action consistency filter.
 *
 *   npx tsx bench/reasoning.ts [--episodes 12] [--seed 1] [--apps food,notes,messages] [--max-steps 15]
 *                              [--labelled 120] [--model-check]
 *
 * 1. Rolls the reference policy out on `--episodes` generated tasks (in-process: app server, Chromium, OCR,
 *    reference server through the gateway) and stores every step (screenshot and UI tree by content hash).
 * 2. Hint-guided rejection sampling on the steps of checker-successful episodes (known-good actions): keep rate per
 *    hint style and per action type; steps no style reproduces are counted as `needs_human`.
 * 3. Consistency filter on all executed steps: rejection rate of the rule checker (and, with --model-check, of the
 *    model role).
 * 4. Agreement with a labelled set of ≥ `--labelled` steps built from the stored steps: each stored step as it
 *    was (label: consistent — the reference policy writes its thought for the action it takes), plus a corrupted
 *    copy whose thought is paired with a different action (label: inconsistent) — another step's thought with
 *    this step's action when the two actions differ in type or target, or the terminate status flipped. Precision
 *    and recall of the flagged inconsistencies.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { toDataUrl } from '../agents/episode.js';
import { runAgentEpisode } from '../agents/run.js';
import type { Action } from '../domain/action.js';
import type { Role } from '../domain/config.js';
import type { Step } from '../domain/entities.js';
import { HINT_STYLES } from '../domain/guidance.js';
import type { ChatModel } from '../domain/ports.js';
import { startAppServer } from '../environments/app-server.js';
import { loadDags } from '../environments/app-world.js';
import { createChromiumEnv } from '../environments/chromium.js';
import { createChatModel } from '../models/gateway.js';
import { createOcrEngine } from '../models/ocr.js';
import { REFERENCE_MODELS, referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';
import { generateQueries } from '../query-gen/sample.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import { checkConsistency, modelConsistency } from '../synthesis/consistency.js';
import type { UiTreeLike } from '../synthesis/matchers.js';
import { sampleReasoning } from '../synthesis/rejection-sampling.js';

const { values } = parseArgs({
  options: {
    episodes: { type: 'string', default: '12' },
    seed: { type: 'string', default: '1' },
    apps: { type: 'string', default: 'food,notes,messages' },
    'max-steps': { type: 'string', default: '15' },
    labelled: { type: 'string', default: '120' },
    'model-check': { type: 'boolean', default: false },
  },
});
const EPISODES = Number(values.episodes);
const SEED = Number(values.seed);
const APPS = values.apps.split(',').map((s) => s.trim()).filter(Boolean);
const LABELLED = Number(values.labelled);

interface Stored {
  instruction: string;
  history: string[];
  step: Step & { action: Action };
  success: boolean;
}

const rate = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(1)}% (${a}/${b})` : '—');

async function main(): Promise<void> {
  const blobDir = await mkdtemp(join(tmpdir(), 'trajforge-reasoning-bench-'));
  const blobs = createLocalBlobStore(blobDir);
  const appServer = await startAppServer({});
  const env = await createChromiumEnv({ appServer, blobs });
  const ocr = await createOcrEngine();
  const ref = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
  const model = (role: Role): ChatModel => createChatModel({ baseUrl: ref.baseUrl, model: REFERENCE_MODELS[role], maxRetries: 1 }, { cache: false });
  const session = await env.newSession();
  const stored: Stored[] = [];
  const t0 = performance.now();
  try {
    const { queries } = generateQueries({ dags: loadDags(), count: EPISODES, seed: SEED, apps: APPS });
    for (const [i, q] of queries.entries()) {
      const r = await runAgentEpisode('gui-owl', { env: session, models: { policy: model('policy') }, blobs, app: q.app, instruction: q.instruction, seed: SEED * 1000 + i, maxSteps: Number(values['max-steps']), historyImages: 1, temperature: 0 });
      if (r.environmentFailure) continue;
      const success = (await session.check(q.checker)).success;
      const history: string[] = [];
      for (const s of r.steps) {
        if (s.action && !s.error) stored.push({ instruction: q.instruction, history: [...history], step: s as Step & { action: Action }, success });
        history.push(s.conclusion || `Performed ${s.action?.action ?? 'an invalid action'}.`);
      }
      console.log(`${success ? 'PASS' : 'FAIL'} ${q.app.padEnd(9)} ${r.steps.length} steps ${JSON.stringify(q.instruction)}`);
    }
    const tree = async (s: Step): Promise<UiTreeLike | undefined> =>
      s.before.uiTreeKey ? (JSON.parse(Buffer.from(await blobs.get(s.before.uiTreeKey)).toString('utf8')) as UiTreeLike) : undefined;

    // 2. Hint-guided rejection sampling on known-good steps.
    const good = stored.filter((s) => s.success && s.step.action.action !== 'terminate');
    const byStyle = new Map<string, { kept: number; total: number }>();
    const byType = new Map<string, { kept: number; total: number }>();
    let needsHuman = 0;
    for (const g of good) {
      const res = await sampleReasoning(
        { reasoner: model('reasoner'), policy: model('policy') },
        { id: `${g.instruction}#${g.step.index}`, instruction: g.instruction, history: g.history, screenshot: { dataUrl: await toDataUrl(blobs, g.step.before.screenshotKey) }, screen: { width: g.step.before.width, height: g.step.before.height }, action: g.step.action, ...(await tree(g.step).then((t) => (t ? { tree: t } : {}))) },
      );
      if (res.needsHuman) needsHuman++;
      for (const a of res.attempts) {
        const st = byStyle.get(a.style) ?? { kept: 0, total: 0 };
        st.total++;
        if (a.kept) st.kept++;
        byStyle.set(a.style, st);
        const ty = byType.get(g.step.action.action) ?? { kept: 0, total: 0 };
        ty.total++;
        if (a.kept) ty.kept++;
        byType.set(g.step.action.action, ty);
      }
    }
    console.log(`\nhint-guided rejection sampling on ${good.length} known-good steps (${HINT_STYLES.length} styles each):`);
    for (const [k, v] of byStyle) console.log(`  style ${k.padEnd(14)} keep ${rate(v.kept, v.total)}`);
    for (const [k, v] of byType) console.log(`  action ${k.padEnd(13)} keep ${rate(v.kept, v.total)}`);
    console.log(`  needs_human (no style reproduced the action): ${rate(needsHuman, good.length)}`);

    // 3. Consistency rejection rate on all executed steps.
    let ruleRejected = 0;
    let modelRejected = 0;
    for (const s of stored) {
      if (!checkConsistency(s.step, await tree(s.step)).consistent) ruleRejected++;
      if (values['model-check'] && !(await modelConsistency(model('consistency'), blobs, { ...s.step, screenshotKey: s.step.before.screenshotKey })).consistent) modelRejected++;
    }
    console.log(`\nthought–action consistency on ${stored.length} executed steps: rule rejects ${rate(ruleRejected, stored.length)}${values['model-check'] ? `, model rejects ${rate(modelRejected, stored.length)}` : ''}`);

    // 4. Labelled set: originals (consistent) + corrupted pairs (inconsistent).
    const labelled: { step: Stored['step']; tree?: UiTreeLike; inconsistent: boolean }[] = [];
    const n = stored.length;
    for (let i = 0; i < n && labelled.length < LABELLED; i++) {
      const s = stored[i]!;
      const t = await tree(s.step);
      labelled.push({ step: s.step, ...(t ? { tree: t } : {}), inconsistent: false });
      const a = s.step.action;
      if (a.action === 'terminate') {
        labelled.push({ step: { ...s.step, action: { action: 'terminate', status: a.status === 'success' ? 'failure' : 'success' } }, ...(t ? { tree: t } : {}), inconsistent: true });
        continue;
      }
      // Another step's thought with this action, where the two actions differ (type, typed text or touched point).
      for (let d = 1; d < n; d++) {
        const o = stored[(i + d * 7) % n]!;
        const b = o.step.action;
        const same = b.action === a.action && JSON.stringify(b) === JSON.stringify(a);
        const pa = (a as { coordinate?: [number, number] }).coordinate;
        const pb = (b as { coordinate?: [number, number] }).coordinate;
        const nearSamePoint = pa !== undefined && pb !== undefined && b.action === a.action && Math.hypot(pa[0] - pb[0], pa[1] - pb[1]) < 40;
        if (same || nearSamePoint || o.step.reasoning === s.step.reasoning) continue;
        labelled.push({ step: { ...s.step, reasoning: o.step.reasoning, conclusion: o.step.conclusion }, ...(t ? { tree: t } : {}), inconsistent: true });
        break;
      }
    }
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const l of labelled) {
      const flagged = !checkConsistency(l.step, l.tree).consistent;
      if (flagged && l.inconsistent) tp++;
      else if (flagged) fp++;
      else if (l.inconsistent) fn++;
    }
    console.log(`\nconsistency checker vs labelled set of ${labelled.length} steps (${labelled.filter((l) => l.inconsistent).length} inconsistent by construction):`);
    console.log(`  precision of flagged inconsistencies ${rate(tp, tp + fp)}, recall ${rate(tp, tp + fn)}`);
    console.log(`\n${((performance.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    await session.close();
    await env.close();
    await ref.close();
    await appServer.close();
    await rm(blobDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
