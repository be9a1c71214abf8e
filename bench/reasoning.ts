/**
 * Reasoning data (GUI-Owl §2.2.3): hint-guided rejection sampling and the thought–action consistency filter.
 *
 *   npx tsx bench/reasoning.ts [--episodes 12] [--seed 1] [--apps food,notes,messages] [--max-steps 15]
 *                              [--labelled 120] [--model-check] [--distill-episodes 6] [--distill-mode mobile-agent-v3]
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
 * 5. Multi-agent → end-to-end distillation (synthesis/distill.ts): `--distill-episodes` tasks rolled out in a role
 *    mode (`--distill-mode`, default Mobile-Agent-v3); every step's role outputs are merged by the distiller role,
 *    the distilled thought passes the consistency rule with the EXECUTED action (as in the cycle's reasoning stage).
 *    Counts: steps, distilled, kept, dropped with reasons (no executed action, no role outputs, distiller reply
 *    invalid, action changed, consistency rule by check), over all steps and over checker-successful episodes.
 */
import { parseArgs } from 'node:util';
import { toDataUrl } from '../agents/episode.js';
import { runAgentEpisode, type AgentMode, AGENT_MODES } from '../agents/run.js';
import type { Action } from '../domain/action.js';
import type { Role } from '../domain/config.js';
import type { Step } from '../domain/entities.js';
import { HINT_STYLES } from '../domain/guidance.js';
import type { ChatModel } from '../domain/ports.js';
import { loadDags } from '../environments/app-world.js';
import { createChatModel } from '../models/gateway.js';
import { REFERENCE_MODELS } from '../models/reference/roles.js';
import { generateQueries } from '../query-gen/sample.js';
import { checkConsistency, modelConsistency } from '../synthesis/consistency.js';
import { distillStep } from '../synthesis/distill.js';
import type { UiTreeLike } from '../synthesis/matchers.js';
import { sampleReasoning } from '../synthesis/rejection-sampling.js';
import { startReferenceRig } from './reference-rig.js';

const { values } = parseArgs({
  options: {
    episodes: { type: 'string', default: '12' },
    seed: { type: 'string', default: '1' },
    apps: { type: 'string', default: 'food,notes,messages' },
    'max-steps': { type: 'string', default: '15' },
    labelled: { type: 'string', default: '120' },
    'model-check': { type: 'boolean', default: false },
    'distill-episodes': { type: 'string', default: '6' },
    'distill-mode': { type: 'string', default: 'mobile-agent-v3' },
  },
});
const EPISODES = Number(values.episodes);
const SEED = Number(values.seed);
const APPS = values.apps.split(',').map((s) => s.trim()).filter(Boolean);
const LABELLED = Number(values.labelled);
const DISTILL_EPISODES = Number(values['distill-episodes']);
const DISTILL_MODE = values['distill-mode'] as AgentMode;
if (!AGENT_MODES.includes(DISTILL_MODE) || DISTILL_MODE === 'gui-owl') {
  console.error(`--distill-mode: one of ${AGENT_MODES.filter((m) => m !== 'gui-owl').join(', ')} (a mode with roles to merge)`);
  process.exit(2);
}

interface Stored {
  instruction: string;
  history: string[];
  step: Step & { action: Action };
  success: boolean;
}

const rate = (a: number, b: number): string => (b ? `${((100 * a) / b).toFixed(1)}% (${a}/${b})` : '—');

async function main(): Promise<void> {
  const rig = await startReferenceRig('trajforge-reasoning-bench-');
  const { blobs, env, ref } = rig;
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

    // 5. Multi-agent → end-to-end distillation.
    if (DISTILL_EPISODES > 0) {
      const roleModels = Object.fromEntries((['manager', 'worker', 'reflector', 'notetaker', 'policy'] as Role[]).map((r) => [r, model(r)]));
      const distiller = model('distiller');
      const tally = (): { steps: number; distilled: number; kept: number; dropped: Map<string, number> } => ({ steps: 0, distilled: 0, kept: 0, dropped: new Map() });
      const all = tally();
      const ok = tally();
      const drop = (t: ReturnType<typeof tally>, why: string): void => void t.dropped.set(why, (t.dropped.get(why) ?? 0) + 1);
      const dq = generateQueries({ dags: loadDags(), count: DISTILL_EPISODES, seed: SEED + 500, apps: APPS }).queries;
      for (const [i, q] of dq.entries()) {
        const r = await runAgentEpisode(DISTILL_MODE, { env: session, models: roleModels, blobs, app: q.app, instruction: q.instruction, seed: SEED * 1000 + 500 + i, maxSteps: Number(values['max-steps']), historyImages: 1, temperature: 0 });
        if (r.environmentFailure) continue;
        const success = (await session.check(q.checker)).success;
        console.log(`${success ? 'PASS' : 'FAIL'} ${DISTILL_MODE} ${q.app.padEnd(9)} ${r.steps.length} steps ${JSON.stringify(q.instruction)}`);
        for (const s of r.steps) {
          const ts = success ? [all, ok] : [all];
          for (const t of ts) t.steps++;
          let why: string | undefined;
          let d;
          if (!s.action || s.error) why = 'no executed action';
          else if (!s.roles?.length) why = 'no role outputs';
          else {
            try {
              d = await distillStep(distiller, q.instruction, s);
              if (!d) why = 'no parsed role output';
            } catch (e) {
              why = `distiller reply invalid (${(e as Error).message.slice(0, 60)})`;
            }
          }
          if (d && s.action) {
            for (const t of ts) t.distilled++;
            if (JSON.stringify(d.action) !== JSON.stringify(s.action)) why = 'action changed';
            else {
              const v = checkConsistency({ reasoning: d.thought, conclusion: d.conclusion, action: s.action }, await tree(s));
              if (!v.consistent) why = `consistency rule, ${v.check}`;
            }
          }
          for (const t of ts) {
            if (why) drop(t, why);
            else t.kept++;
          }
        }
      }
      const show = (label: string, t: ReturnType<typeof tally>): void => {
        const dropped = [...t.dropped.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ');
        console.log(`  ${label}: ${t.steps} steps, distilled ${t.distilled}, kept ${rate(t.kept, t.steps)}; dropped ${t.steps - t.kept}${dropped ? ` (${dropped})` : ''}`);
      };
      console.log(`\nmulti-agent → end-to-end distillation (${DISTILL_MODE}, ${dq.length} episodes, distiller ${distiller.name}):`);
      show('all episodes', all);
      show('checker-successful episodes', ok);
    }
    const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ');
    console.log(`\n${((performance.now() - t0) / 1000).toFixed(0)} s, load average ${load}`);
  } finally {
    await session.close();
    await rig.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
