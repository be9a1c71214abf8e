/**
 * Critic calibration benchmark: how pure is the accepted set, and how much of the successful data does it keep?
 *
 *   npx tsx bench/critics.ts [--rollouts 500] [--seeds 1,2,3] [--temperatures 0,0.7] [--sessions 2]
 *                            [--votes 3] [--max-steps 15] [--apps food] [--precision-target 0.97]
 *   npx tsx bench/critics.ts --corpus DIR[,DIR…] [--votes 3]   (judges bench/corpus.ts corpora: no rollouts; several
 *                            corpora — e.g. one per rollout mode — are judged one after another and tabled side by side)
 *   npx tsx bench/critics.ts --paraphrase bench/paraphrases/v1.json …   (two arms on the same tasks: the DAG
 *                            templates and the set's independent phrasings, side by side)
 *   npx tsx bench/critics.ts --modes gui-owl,mobile-agent-v3,swirl,ces …   (one arm per rollout mode)
 *
 * Phase 1 (rollouts): for each seed, `generateQueries` draws ⌈N / (seeds × temperatures)⌉ tasks; each task is
 * rolled out once per temperature with the reference policy (GUI-Owl episode loop, Chromium phone, `--sessions`
 * in parallel) and labelled by the app's checker (ground truth; never shown to the critics). Phase 2 (judging,
 * measured alone): every non-ENV rollout is judged exactly as the judgeSteps + judgeTrajectory activities do
 * (critics/judge-rollout.ts): step critic per step, OCR captions, both trajectory channels with `--votes`
 * samples and the majority rule, consensus `both`. Then:
 *   - confusion matrices and precision/recall/NPV/F1 per app and overall, per channel and for the consensus;
 *   - the τc × vote × consensus sweep on the validation split (τc: mean step CriticScore gate, see
 *     critics/calibration.ts), the setting chosen there (max recall s.t. precision ≥ target), and that setting
 *     scored on the report split only, per app and overall;
 *   - critic cost: wall ms and CPU ms (this process: reference critics + OCR + annotation) per judged step, and
 *     the OCR engine's cache hit rate during judging;
 *   - how often the text and multimodal channels disagree, and which one matched the checker each time;
 *   - with several arms (--paraphrase, --modes), one table with every arm's policy success, critic precision and
 *     recall and channel disagreement.
 * Everything runs in-process (no Postgres/Temporal): app server, Chromium, OCR and the reference server (HTTP).
 */
import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { addAgreement, agreementByScope, calibrate, confusionOf, describeRule, emptyAgreement, fmtRatio, formatAgreement, formatEntries, metricsOf, scoreRuleByScope, selectRule, type CalibrationRow, type Metrics } from '../critics/calibration.js';
import type { BlobStore } from '../domain/ports.js';
import { AGENT_MODES, type AgentMode } from '../agents/run.js';
import { buildCorpus, loadCorpus, type CorpusRollout } from './corpus.js';
import { judgeRollout } from '../critics/judge-rollout.js';
import { getDesktopApp } from '../environments/desktop/apps/index.js';
import { features } from '../critics/learned-critic.js';
import { splitOf } from '../critics/calibration.js';
import { createChatModel } from '../models/gateway.js';
import { blobOcrStore, createOcrEngine } from '../models/ocr.js';
import { createLocalBlobStore } from '../storage/blob-local.js';
import type { OcrEngine } from '../models/reference/types.js';
import { REFERENCE_MODELS, referenceRoles } from '../models/reference/roles.js';
import { startReferenceServer } from '../models/reference/server.js';

const { values } = parseArgs({
  options: {
    rollouts: { type: 'string', default: '500' },
    seeds: { type: 'string', default: '1,2,3' },
    temperatures: { type: 'string', default: '0,0.7' },
    sessions: { type: 'string', default: '2' },
    votes: { type: 'string', default: '3' },
    'max-steps': { type: 'string', default: '15' },
    apps: { type: 'string', default: '' },
    'precision-target': { type: 'string', default: '0.97' },
    /** Writes one JSON line per judged rollout (learned-critic features, checker label, split) for training. */
    dump: { type: 'string' },
    /** Judge a corpus built by bench/corpus.ts instead of rolling out (several: comma-separated, one arm each). */
    corpus: { type: 'string' },
    /** Print the step summaries and channel reasons of every rollout the consensus gets wrong. */
    explain: { type: 'boolean', default: false },
    /**
     * Keep each rollout's judgement in this JSONL file and reuse it on the next run when the critics' code and
     * the votes are unchanged (a fingerprint per line): a growing corpus is judged incrementally.
     */
    judged: { type: 'string' },
    /**
     * The first N rollouts of the corpus (file order) were read (--explain) while the critics were being fixed:
     * the metrics are printed again over the rest alone, the rollouts the critics' authors never looked at.
     */
    examined: { type: 'string', default: '0' },
    /** Rollout mode (gui-owl, mobile-agent-v3, swirl, ces); `--modes a,b` runs and reports each mode apart. */
    mode: { type: 'string' },
    modes: { type: 'string' },
    /**
     * A paraphrase set (bench/paraphrases/v1.json): runs two arms on the same tasks — the DAG templates and the
     * set's independent phrasings — and prints them side by side.
     */
    paraphrase: { type: 'string' },
  },
});
const N = Number(values.rollouts);
const SEEDS = values.seeds.split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n));
const TEMPS = values.temperatures.split(',').map((s) => Number(s.trim())).filter((t) => t >= 0);
const SESSIONS = Math.max(1, Number(values.sessions));
const VOTES = Math.max(1, Number(values.votes));
const MAX_STEPS = Number(values['max-steps']);
const APPS = values.apps.split(',').map((s) => s.trim()).filter(Boolean);
const TARGET = Number(values['precision-target']);
if (!(N > 0) || SEEDS.length === 0 || TEMPS.length === 0) {
  console.error('usage: npx tsx bench/critics.ts [--rollouts N] [--seeds 1,2,3] [--temperatures 0,0.7] [--sessions 2] [--votes 3]');
  process.exit(2);
}

type Done = CorpusRollout;

/** One benchmark arm: a name and what it changes in the corpus options, or the corpus it judges. */
interface Arm {
  name: string;
  mode?: AgentMode;
  paraphrases?: string;
  corpus?: string;
}

/** What each arm's report ends with, for the side-by-side table. */
interface ArmSummary {
  arm: string;
  rollouts: number;
  successes: number;
  /** Pipeline default rule (votes majority, consensus both, τc 0) on all rollouts. */
  consensus: Metrics;
  /** Rollouts where the text and multimodal channels disagreed, and how often each was the one matching the checker. */
  disagreements: number;
  textRight: number;
  multimodalRight: number;
  /** The arm's judged rows (carrying their rollout mode), pooled per mode at the end. */
  rows: CalibrationRow[];
}

function armsOf(): Arm[] {
  const modes = (values.modes ?? values.mode ?? '').split(',').map((m) => m.trim()).filter(Boolean);
  for (const m of modes) {
    if (!(AGENT_MODES as readonly string[]).includes(m)) {
      console.error(`bench/critics.ts: bad mode "${m}" (one of ${AGENT_MODES.join(', ')})`);
      process.exit(2);
    }
  }
  const base = modes.length ? modes.map((m) => ({ name: m, mode: m as AgentMode })) : [{ name: 'gui-owl' }];
  if (!values.paraphrase) return base;
  return base.flatMap((a) => [
    { ...a, name: `${a.name} templates` },
    { ...a, name: `${a.name} paraphrases`, paraphrases: values.paraphrase! },
  ]);
}

async function main(): Promise<void> {
  const corpusDirs = (values.corpus ?? '').split(',').map((d) => d.trim()).filter(Boolean);
  const blobDir = corpusDirs.length ? undefined : await mkdtemp(join(tmpdir(), 'trajforge-bench-critics-'));
  const arms: Arm[] = corpusDirs.length ? corpusDirs.map((d) => ({ name: d, corpus: d })) : armsOf();
  const summaries: ArmSummary[] = [];
  try {
    for (const [k, arm] of arms.entries()) {
      const armDir = blobDir ? join(blobDir, `arm-${k}`) : undefined;
      const corpus = arm.corpus ? await loadCorpus(arm.corpus) : undefined;
      // OCR persisted next to the screenshots (as bench/corpus.ts writes it): judging reads the rollouts' OCR.
      const ocr = await createOcrEngine({ store: blobOcrStore(corpus?.blobs ?? createLocalBlobStore(join(armDir!, 'blobs'))) });
      const ref = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr });
      const model = (name: string) => createChatModel({ baseUrl: ref.baseUrl, model: name, maxRetries: 1 }, { cache: false });
      const critics = {
        stepCritic: model(REFERENCE_MODELS.stepCritic),
        text: model(REFERENCE_MODELS.trajCriticText),
        multimodal: model(REFERENCE_MODELS.trajCriticMultimodal),
      };
      const ocrBefore = { ...ocr.stats };
      let blobs: BlobStore;
      let done: Done[];
      let envFailures = 0;
      let rollSeconds = 0;
      if (corpus) {
        blobs = corpus.blobs;
        done = corpus.rollouts.filter((r) => APPS.length === 0 || APPS.includes(r.query.app));
        console.log(`\n=== corpus ${arm.corpus}: ${done.length} labelled rollouts (${JSON.stringify(corpus.options)}) ===`);
      } else {
        console.log(`\n=== arm: ${arm.name} ===`);
        ({ blobs, done, envFailures, rollSeconds } = await rollOut(armDir!, ocr, arm));
      }
      try {
        const mode = corpus ? (corpus.options.mode ?? 'gui-owl') : (arm.mode ?? 'gui-owl');
        const base = arm.name.split('/').pop() ?? arm.name;
        const name = corpus ? (base === mode ? mode : `${mode} ${base}`) : arm.name;
        summaries.push({ ...(await judgeAndReport({
          blobs,
          ocr,
          critics,
          done,
          envFailures,
          rollSeconds,
          ocrBefore,
          mode,
          ...(corpus ? { rolledBy: `corpus seeds ${corpus.options.seeds.join(',')}, temperatures ${corpus.options.temperatures.join(',')}, max steps ${corpus.options.maxSteps}` } : {}),
        })), arm: name });
      } finally {
        await ref.close();
      }
    }
  } finally {
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  }
  console.log('\nside by side (policy success = checker successes; critics = pipeline default rule, votes majority, consensus both):');
  console.log(`  ${'arm'.padEnd(26)} ${'n'.padStart(4)}  success   succ%  prec%   rec%   channels disagree   text right  mm right`);
  for (const a of summaries) {
    const m = a.consensus;
    console.log(
      `  ${a.arm.padEnd(26)} ${String(a.rollouts).padStart(4)}  ${`${a.successes}/${a.rollouts}`.padStart(7)} ${fmtRatio(a.successes / Math.max(1, a.rollouts))} ${fmtRatio(m.precision)} ${fmtRatio(m.recall)}   ${`${a.disagreements}/${a.rollouts}`.padStart(7)} (${fmtRatio(a.disagreements / Math.max(1, a.rollouts)).trim()}%)   ${String(a.textRight).padStart(5)}      ${String(a.multimodalRight).padStart(5)}`,
    );
  }
  // Per rollout mode, every arm of that mode pooled (e.g. two corpora of one mode on other seeds). Not with
  // --paraphrase: its two arms are one mode in two wordings, compared above, not pooled.
  if (values.paraphrase) return;
  const rows = summaries.flatMap((a) => a.rows);
  const byMode = scoreRuleByScope(rows, { voteRule: 'majority', consensus: 'both', tauC: 0 }, 'all');
  const agreement = agreementByScope(rows);
  console.log('\nper rollout mode, all arms of a mode pooled (pipeline default rule):');
  console.log(`  ${'mode'.padEnd(18)} ${'n'.padStart(4)} ${'successes'.padStart(9)} ${'accepted'.padStart(8)} ${'fp'.padStart(3)}  prec%  rec%   channels disagree`);
  for (const [scope, m] of byMode) {
    if (!scope.startsWith('mode:')) continue;
    const a = agreement.get(scope);
    console.log(
      `  ${scope.slice(5).padEnd(18)} ${String(m.n).padStart(4)} ${String(m.tp + m.fn).padStart(9)} ${String(m.tp + m.fp).padStart(8)} ${String(m.fp).padStart(3)} ${fmtRatio(m.precision)} ${fmtRatio(m.recall)}   ${a ? formatAgreement(a) : '–'}`,
    );
  }
}

/** Phase 1 without a corpus: a throw-away corpus in the temp dir (bench/corpus.ts), OCR shared with the judging. */
async function rollOut(dir: string, ocr: OcrEngine, arm: Arm): Promise<{ blobs: BlobStore; done: Done[]; envFailures: number; rollSeconds: number }> {
  const { rollouts, envFailures, seconds } = await buildCorpus(
    dir,
    {
      rollouts: N,
      seeds: SEEDS,
      temperatures: TEMPS,
      sessions: SESSIONS,
      maxSteps: MAX_STEPS,
      apps: APPS,
      ...(arm.mode ? { mode: arm.mode } : {}),
      ...(arm.paraphrases ? { paraphrases: arm.paraphrases } : {}),
    },
    console.log,
    { ocr },
  );
  return { blobs: (await loadCorpus(dir)).blobs, done: rollouts, envFailures, rollSeconds: seconds };
}

async function judgeAndReport(ctx: {
  blobs: BlobStore;
  ocr: Awaited<ReturnType<typeof createOcrEngine>>;
  critics: Parameters<typeof judgeRollout>[0]['models'];
  done: readonly Done[];
  envFailures: number;
  rollSeconds: number;
  ocrBefore: { inferences: number; regionInferences: number; cacheHits: number; storeHits: number };
  /** The arm's rollout mode: calibrated in scope `mode:<mode>`, and part of the --judged key (corpora of several modes share seeds). */
  mode: string;
  /** How the rollouts were made, when not by this run's flags (a corpus: its own seeds, temperatures, steps). */
  rolledBy?: string;
}): Promise<Omit<ArmSummary, 'arm'>> {
  const { blobs, ocr, critics, done, envFailures, rollSeconds, ocrBefore, mode } = ctx;
  const ocrAfterRollouts = { ...ocr.stats };

  // Phase 2: judging alone (2 rollouts at a time, as two cpu-queue activities would).
  const rows: CalibrationRow[] = [];
  const dump: string[] = [];
  const fingerprint = await criticsFingerprint();
  const judgedCache = values.judged ? await readJudged(values.judged, fingerprint) : new Map<string, { row: CalibrationRow; dump: string }>();
  let reused = 0;
  let judgedSteps = 0;
  const cpu0 = process.cpuUsage();
  const tJudge = performance.now();
  {
    let next = 0;
    await Promise.all(
      Array.from({ length: 2 }, async () => {
        for (let i = next++; i < done.length; i = next++) {
          const d = done[i]!;
          const cached = judgedCache.get(`${mode}:${d.seed}/${d.query.id}/t${d.temperature}`);
          if (cached) {
            rows.push(cached.row);
            dump.push(cached.dump);
            reused++;
            continue;
          }
          const j = await judgeRollout(
            { blobs, ocr, models: critics },
            { instruction: d.query.instruction, steps: d.result.steps, outcome: d.result.outcome, ...(getDesktopApp(d.query.app) ? { actionSpace: 'desktop' as const } : {}) },
            { votes: VOTES, voteRule: 'majority', consensus: 'both' },
          );
          judgedSteps += d.result.steps.length;
          const [text, mm] = [j.trajectory.channels.find((c) => c.channel === 'text'), j.trajectory.channels.find((c) => c.channel === 'multimodal')];
          const queryId = `${d.seed}/${d.query.id}`;
          const dumpLine = JSON.stringify({
            rolloutId: `${queryId}/t${d.temperature}`,
            queryId,
            app: d.query.app,
            split: splitOf(queryId),
            groundTruth: d.groundTruth,
            features: features({
              instruction: d.query.instruction,
              annotations: j.steps.map((s) => s.annotation),
              outcome: d.result.outcome,
              textVotes: text?.votes ?? [],
              multimodalVotes: mm?.votes ?? [],
              finalCaption: j.captions[j.captions.length - 1] ?? '',
            }),
          });
          dump.push(dumpLine);
          if (values.explain && j.trajectory.correct !== d.groundTruth) {
            console.log(`${j.trajectory.correct ? 'FP' : 'FN'} ${d.query.app}/${d.query.family} | ${d.query.instruction} | outcome ${d.result.outcome ?? '-'}`);
            if (d.groundTruthReason) console.log(`    checker: ${d.groundTruthReason}`);
            for (const st of j.steps) console.log(`    ${st.annotation}: ${st.summary}`);
            for (const c of j.trajectory.channels) console.log(`    ${c.channel} ${c.votes.map((v) => (v ? 'C' : 'I')).join('')}: ${c.reasons[0] ?? ''}`);
            console.log(`    final: ${(j.captions[j.captions.length - 1] ?? '').slice(0, 400)}`);
          }
          const row: CalibrationRow = {
            rolloutId: `${d.seed}/${d.query.id}/t${d.temperature}`,
            queryId: `${d.seed}/${d.query.id}`,
            app: d.query.app,
            criticVersion: `ref;votes=${VOTES}:majority;consensus=both`,
            groundTruth: d.groundTruth,
            mode,
            stepScores: j.steps.map((st) => st.score),
            verdicts: {
              ...(text ? { text: { correct: text.correct, votes: text.votes } } : {}),
              ...(mm ? { multimodal: { correct: mm.correct, votes: mm.votes } } : {}),
              consensus: { correct: j.trajectory.correct },
            },
          };
          rows.push(row);
          if (values.judged) await appendFile(values.judged, `${JSON.stringify({ fingerprint, row, dump: dumpLine })}\n`);
        }
      }),
    );
  }
  const judgeMs = performance.now() - tJudge;
  if (values.judged) console.log(`judgements: ${reused} reused from ${values.judged} (same critics fingerprint ${fingerprint.slice(0, 12)}), ${rows.length - reused} judged now`);
  if (values.dump) await writeFile(values.dump, dump.map((l) => `${l}\n`).join(''));
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;

  const positives = rows.filter((r) => r.groundTruth).length;
  console.log(
    `\ncritics bench: ${rows.length} rollouts judged (${envFailures} ENV failures excluded), ${positives} checker successes (${fmtRatio(positives / Math.max(1, rows.length)).trim()}%),` +
      ` ${ctx.rolledBy ?? `seeds ${SEEDS.join(',')}, temperatures ${TEMPS.join(',')}, ${SESSIONS} sessions`}, votes ${VOTES}; rollouts took ${rollSeconds.toFixed(0)} s`,
  );
  console.log('\nall rollouts (split = all):');
  for (const l of formatEntries(calibrate(rows, { splits: ['all'] }))) console.log(`  ${l}`);

  const s = selectRule(rows, { precisionTarget: TARGET });
  console.log(`\nτc × rule sweep on the validation split (max recall s.t. precision ≥ ${TARGET}); report split untouched until scored:`);
  console.log(`  ${'τc'.padStart(4)}  ${'votes'.padEnd(8)} ${'consensus'.padEnd(10)} ${'n'.padStart(4)} ${'tp'.padStart(4)} ${'fp'.padStart(4)} ${'fn'.padStart(4)}  prec%  rec%`);
  for (const c of s.candidates) {
    const m = c.metrics;
    console.log(
      `  ${(c.rule.tauC ?? 0).toFixed(2).padStart(4)}  ${c.rule.voteRule.padEnd(8)} ${c.rule.consensus.padEnd(10)} ${String(m.n).padStart(4)} ${String(m.tp).padStart(4)} ${String(m.fp).padStart(4)} ${String(m.fn).padStart(4)} ${fmtRatio(m.precision)} ${fmtRatio(m.recall)}`,
    );
  }
  console.log(`  chosen: ${describeRule(s.rule)}${s.meetsTarget ? '' : ' (NO setting met the target on validation: the most precise one)'}`);
  const table = (title: string, byScope: Map<string, Metrics>): void => {
    console.log(`\n${title}`);
    console.log(`  ${'scope'.padEnd(20)} ${'n'.padStart(4)} ${'tp'.padStart(4)} ${'fp'.padStart(4)} ${'tn'.padStart(4)} ${'fn'.padStart(4)}  prec%  rec%`);
    for (const [scope, m] of byScope) {
      console.log(
        `  ${scope.padEnd(20)} ${String(m.n).padStart(4)} ${String(m.tp).padStart(4)} ${String(m.fp).padStart(4)} ${String(m.tn).padStart(4)} ${String(m.fn).padStart(4)} ${fmtRatio(m.precision)} ${fmtRatio(m.recall)}`,
      );
    }
  };
  table(`chosen setting (${describeRule(s.rule)}) on the VALIDATION split:`, scoreRuleByScope(rows, s.rule, 'validation'));
  table(`chosen setting (${describeRule(s.rule)}) on the held-out REPORT split (the honest estimate):`, scoreRuleByScope(rows, s.rule, 'report'));
  table('pipeline default (votes majority, consensus both, τc 0) on all rollouts, for reference:', scoreRuleByScope(rows, { voteRule: 'majority', consensus: 'both', tauC: 0 }, 'all'));
  const examined = Number(values.examined);
  if (examined > 0) {
    const seen = new Set(done.slice(0, examined).map((d) => `${d.seed}/${d.query.id}/t${d.temperature}`));
    const unseen = rows.filter((r) => !seen.has(r.rolloutId));
    console.log(`\n${unseen.length} rollouts were never read while the critics were developed (corpus lines > ${examined}); on them alone:`);
    table('pipeline default (votes majority, consensus both, τc 0), never-read rollouts:', scoreRuleByScope(unseen, { voteRule: 'majority', consensus: 'both', tauC: 0 }, 'all'));
    table(`chosen setting (${describeRule(s.rule)}), never-read rollouts:`, scoreRuleByScope(unseen, s.rule, 'all'));
  }

  const ocrJudgeInf = ocr.stats.inferences - ocrAfterRollouts.inferences;
  const ocrJudgeRegion = ocr.stats.regionInferences - ocrAfterRollouts.regionInferences;
  const ocrJudgeHits = ocr.stats.cacheHits + ocr.stats.storeHits - ocrAfterRollouts.cacheHits - ocrAfterRollouts.storeHits;
  const ocrRollInf = ocrAfterRollouts.inferences - ocrBefore.inferences;
  const ocrRollHits = ocrAfterRollouts.cacheHits + ocrAfterRollouts.storeHits - ocrBefore.cacheHits - ocrBefore.storeHits;
  const rate = (h: number, i: number): string => `${fmtRatio(h + i === 0 ? null : h / (h + i)).trim()}%`;
  console.log(
    `\ncritic cost: ${judgedSteps} steps judged in ${(judgeMs / 1000).toFixed(1)} s wall (2 rollouts concurrently) = ${(judgeMs / Math.max(1, judgedSteps)).toFixed(1)} ms wall/step;` +
      ` CPU ${(cpuMs / Math.max(1, judgedSteps)).toFixed(1)} ms/step (process user+sys: reference critics, OCR, annotation)`,
  );
  console.log(
    `OCR during judging: ${ocrJudgeInf} full-frame inferences, ${ocrJudgeRegion} region-of-change inferences (changed bands only), ${ocrJudgeHits} cache hits (memory or persisted by content hash; hit rate ${rate(ocrJudgeHits, ocrJudgeInf + ocrJudgeRegion)});` +
      ` during rollouts: ${ocrRollInf} inferences, ${ocrRollHits} hits (${rate(ocrRollHits, ocrRollInf)}); total inference ${(ocr.stats.totalInferenceMs / 1000).toFixed(1)} s;` +
      ` text lines recognised ${ocr.stats.lineRecognitions}, reused from the line cache ${ocr.stats.lineCacheHits}`,
  );

  // Channel disagreement: the two channels are only worth a consensus if they see different things.
  const agreement = emptyAgreement();
  for (const r of rows) addAgreement(agreement, r);
  const split = rows.filter((r) => r.verdicts.text && r.verdicts.multimodal && r.verdicts.text.correct !== r.verdicts.multimodal.correct);
  console.log(
    `channels: text and multimodal disagree on ${agreement.disagreements}/${agreement.compared} rollouts (${fmtRatio(agreement.disagreements / Math.max(1, agreement.compared)).trim()}%);` +
      ` of those the text channel matched the checker on ${agreement.textRight}, the multimodal channel on ${agreement.multimodalRight}`,
  );
  for (const r of split) console.log(`  split ${r.rolloutId} (${r.app}): text ${r.verdicts.text!.correct ? 'C' : 'I'}, multimodal ${r.verdicts.multimodal!.correct ? 'C' : 'I'}, checker ${r.groundTruth ? 'success' : 'failure'}`);
  const consensus = scoreRuleByScope(rows, { voteRule: 'majority', consensus: 'both', tauC: 0 }, 'all').get('all');
  return {
    rollouts: rows.length,
    successes: positives,
    consensus: consensus ?? metricsOf(confusionOf([])),
    disagreements: agreement.disagreements,
    textRight: agreement.textRight,
    multimodalRight: agreement.multimodalRight,
    rows,
  };
}

/**
 * Hash of the critics' code and the vote count: what a judgement depends on — every reference role module (the
 * critics are split over several files there and share readers with the policy), the request builders and OCR.
 */
async function criticsFingerprint(): Promise<string> {
  const h = createHash('sha256').update(`votes=${VOTES}`);
  const roles = (await readdir(new URL('../models/reference/roles/', import.meta.url))).filter((f) => f.endsWith('.ts')).sort();
  for (const f of [...roles.map((r) => `models/reference/roles/${r}`), 'critics/judge-rollout.ts', 'critics/step-critic.ts', 'critics/trajectory-critic.ts', 'models/ocr.ts']) {
    h.update(f).update(await readFile(new URL(`../${f}`, import.meta.url)));
  }
  return h.digest('hex');
}

async function readJudged(file: string, fingerprint: string): Promise<Map<string, { row: CalibrationRow; dump: string }>> {
  const out = new Map<string, { row: CalibrationRow; dump: string }>();
  const text = await readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as { fingerprint: string; row: CalibrationRow; dump: string };
      if (e.fingerprint === fingerprint) out.set(`${e.row.mode ?? 'gui-owl'}:${e.row.rolloutId}`, { row: e.row, dump: e.dump });
    } catch {
      // a line cut short by an interrupted run: judged again
    }
  }
  return out;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
