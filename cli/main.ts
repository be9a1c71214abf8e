import { parseArgs } from 'node:util';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ValidationError, parseOrThrow } from '../domain/errors.js';
import { CycleConfig } from '../domain/config.js';
import { latestCycleNumber } from '../storage/repos.js';
import { cycleUsage, type CycleUsage } from '../storage/usage-repo.js';
import { migrate } from '../storage/migrate.js';
import type { CycleResult } from '../workflows/contracts.js';
import { formatAgreement } from '../critics/calibration.js';
import { loadConfig } from './config.js';
import { dagCommand, queriesCommand } from './dag.js';
import { PATHWAYS_USAGE, pathwaysCommand } from './pathways.js';
import { CRITICS_USAGE, criticsCommand } from './critics.js';
import { TRAIN_USAGE, trainCommand } from './train.js';
import { EVALSET_USAGE, evalsetCommand } from './evalset.js';
import { SYNTHESIZE_USAGE, synthesizeCommand } from './synthesize.js';
import { EXPORT_USAGE, datasetsCommand, exportCommand } from './export.js';
import { REVIEW_USAGE, reviewCommand } from './review.js';
import { LINE_USAGE, lineCommand } from './line.js';
import { MODELS_USAGE, modelsCommand } from './models.js';
import { REPORT_USAGE, reportCommand } from './report.js';
import { DEMOS_USAGE, demosCommand } from './demos.js';
import { guidanceLines, reasoningLines, stageOverrides, STAGE_OPTIONS, withDefaultSources } from './guidance.js';

const USAGE = `trajforge — self-evolving GUI trajectory production

Usage:
  trajforge cycle [--queries N] [--attempts K] [--max-steps S] [--seed N] [--apps food,shop] [--mode gui-owl|mobile-agent-v3|swirl|ces]
                  [--learned-critic PATH|off] [--learned-consensus off|and|majority] [--trajectory-tau-c 0..1]
                  [--resume-only] [--platform phone|desktop]   desktop: real Debian applications on Xvfb, computer_use
                                 finish interrupted cycles (printing what it resumes), then run one full
                                 production cycle on the configured services (--resume-only: no new cycle)
  trajforge status               embedded services (owned or orphaned), running and unfinished cycles with progress
  trajforge stop [--force]       shut this home's embedded Temporal dev server and Postgres down cleanly
                  [--guidance N|off] [--keep-guidance]   guidance for at most N hard queries (default 2); keep its text in exports
                  [--ref-sources demonstration,mobile-agent-v3]   where references come from, in order (default: demonstration, then the reference agent mode)
                  [--reasoning N|off]   reasoning data from at most N accepted rollouts (default 2)
                                 run one full production cycle on the configured services
  trajforge worker [--queues main,env,cpu]
                                 run workers for these task queues (default all three) until interrupted
  trajforge migrate              apply database migrations
  trajforge apps                 the built-in app world: pages, edges, task families and their checkers
  trajforge dag validate FILE…   validate app DAG files (schema)
  trajforge dag lint [FILE…|--all] [--check-app]
                                 unreachable pages, dead ends, slot refs; --check-app replays every transition
  trajforge dag coverage [--cycle ID]
                                 pages/edges/slot values with generated / rolled-out / accepted counts
  trajforge dag discover APP [--out FILE]
                                 crawl an app's UI tree into a draft DAG (and compare with its hand-written one)
  trajforge queries generate [--count N] [--seed S] [--sampler families|uniform|length|coverage] [--validate]
                  [--platform phone|desktop] [--pathways FILE] [--apps a,b]
                                 generate queries with the reference models and print the generation report
                                 (desktop: with the pathway memory's windows, DAG/pathway coverage per app)
${PATHWAYS_USAGE}
${CRITICS_USAGE}
${TRAIN_USAGE}
${EVALSET_USAGE}
${SYNTHESIZE_USAGE}
${EXPORT_USAGE}
${REVIEW_USAGE}
${LINE_USAGE}
${MODELS_USAGE}
${REPORT_USAGE}
${DEMOS_USAGE}
  trajforge reference-server [--port P]
                                 serve the built-in reference model (OpenAI-compatible) until interrupted
Configuration is read from the environment; see README.md.`;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

async function cycle(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      queries: { type: 'string' },
      attempts: { type: 'string' },
      'max-steps': { type: 'string' },
      seed: { type: 'string' },
      apps: { type: 'string' },
      mode: { type: 'string' },
      'learned-critic': { type: 'string' },
      'learned-consensus': { type: 'string' },
      'trajectory-tau-c': { type: 'string' },
      'resume-only': { type: 'boolean' },
      ...STAGE_OPTIONS,
      platform: { type: 'string' },
    },
  });
  const config = loadConfig();
  const overrides = {
    ...config.cycle,
    ...(values.queries !== undefined ? { queries: Number(values.queries) } : {}),
    ...(values.attempts !== undefined ? { attempts: Number(values.attempts) } : {}),
    ...(values['max-steps'] !== undefined ? { maxSteps: Number(values['max-steps']) } : {}),
    ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
    ...(values.apps !== undefined ? { apps: values.apps.split(',').map((a) => a.trim()).filter(Boolean) } : {}),
    ...(values.mode !== undefined ? { agentMode: values.mode } : {}),
    ...(values.platform !== undefined ? { platform: values.platform } : {}),
    ...(values['learned-critic'] !== undefined || values['learned-consensus'] !== undefined || values['trajectory-tau-c'] !== undefined
      ? {
          critic: {
            ...config.cycle.critic,
            ...(values['trajectory-tau-c'] !== undefined ? { trajectoryTauC: Number(values['trajectory-tau-c']) } : {}),
            learned: {
              ...config.cycle.critic.learned,
              ...(values['learned-critic'] !== undefined ? { model: values['learned-critic'] === 'off' ? null : values['learned-critic'] } : {}),
              ...(values['learned-consensus'] !== undefined ? { consensus: values['learned-consensus'] } : {}),
            },
          },
        }
      : {}),
  };
  Object.assign(overrides, stageOverrides(config.cycle, withDefaultSources(values, config.cycle.guidance)));
  config.cycle = parseOrThrow(CycleConfig, overrides, 'command line');

  const t0 = performance.now();
  out('trajforge: starting services…');
  const { startRuntime, startWorkers } = await import('./runtime.js');
  const rt = await startRuntime(config, (l) => out(`  ${l}`));
  let workers;
  try {
    for (const s of rt.services) out(`  ${s}`);
    workers = await startWorkers(rt);
    // Interrupted work first: durable execution is only worth something if what was started is finished.
    const { resumeUnfinished } = await import('./resume.js');
    await resumeUnfinished(rt, out, (r, seconds) => printResult(r, seconds), async (id) => printUsage(await cycleUsage(rt.db, id)));
    if (values['resume-only']) return;
    const cycleNumber = (await latestCycleNumber(rt.db)) + 1;
    const cycleId = `cycle-${cycleNumber}`;
    out(`  policy     ${rt.models.policy.name}@${rt.referencePolicyVersion && !config.models.policy?.baseUrl ? rt.referencePolicyVersion : 'external'} (${config.cycle.agentMode})`);
    out(`trajforge: ${cycleId}: ${config.cycle.platform === 'desktop' ? 'desktop, ' : ''}${config.cycle.queries} queries × ${config.cycle.attempts} attempts, ≤${config.cycle.maxSteps} steps, ${config.envSessions} environment sessions`);
    const input = { cycleId, cycleNumber, config: config.cycle, taskQueuePrefix: config.temporal.taskQueuePrefix };
    let handle;
    try {
      handle = await rt.temporal.client.workflow.start('productionCycle', {
        workflowId: cycleId,
        taskQueue: `${config.temporal.taskQueuePrefix}-main`,
        args: [input],
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      handle = rt.temporal.client.workflow.getHandle(cycleId);
      out(`trajforge: ${cycleId} is already running; following it`);
    }
    if (rt.temporal.uiUrl) out(`  follow it: ${rt.temporal.uiUrl}/namespaces/${config.temporal.namespace}/workflows/${cycleId}`);
    const result = (await handle.result()) as CycleResult;
    printResult(result, (performance.now() - t0) / 1000);
    printUsage(await cycleUsage(rt.db, result.cycleId));
  } finally {
    await workers?.shutdown();
    await rt.close();
  }
}

function printResult(r: CycleResult, seconds: number): void {
  const c = r.counts;
  const pct = (a: number, b: number): string => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}%`);
  out();
  out(`trajforge: ${r.cycleId} done in ${seconds.toFixed(0)} s (config ${r.configHash})`);
  out(`  queries generated        ${c.queries}`);
  out(`  rollouts                 ${c.rollouts}  (degraded environment: ${c.degraded})`);
  out(`  steps                    ${c.steps}  (with a typed error: ${c.stepErrors})`);
  out(`  step verdicts            ${c.stepVerdicts}`);
  out(`  trajectories accepted    ${c.accepted}`);
  out(`  trajectories rejected    ${c.rejected}`);
  out(`  exported SFT samples     ${c.exportedSamples}`);
  out(`  ground truth (checkers, never shown to agents or critics):`);
  out(`    successful rollouts    ${c.groundTruthSuccesses}  (${pct(c.groundTruthSuccesses, c.rollouts)})`);
  out(`    accepted precision     ${pct(c.acceptedTruePositives, c.accepted)}`);
  out(`    recall of successes    ${pct(c.acceptedTruePositives, c.groundTruthSuccesses)}`);
  if (r.calibration?.suggested) {
    const g = r.calibration.suggested;
    out(`  critic calibration       validation (${g.validationRollouts}) would choose: ${g.description}${g.meetsTarget ? '' : ' (precision target not met: the most precise)'}`);
    out(`                           held-out report split (${g.reportRollouts}): precision ${pct1(g.reportPrecision)}, recall ${pct1(g.reportRecall)}  (apply τc with critic.trajectoryTauC)`);
  }
  for (const m of r.calibration?.byMode ?? []) {
    const split = m.agreement ? `; text and multimodal disagree on ${formatAgreement(m.agreement)}` : '';
    out(`  critics, mode ${m.mode.padEnd(16)} ${m.rollouts} rollouts, ${m.successes} successes, ${m.accepted} accepted: precision ${pct1(m.precision)}, recall ${pct1(m.recall)}${split}`);
  }
  if (r.guidance) for (const line of guidanceLines(r.guidance)) out(line);
  if (r.reasoning) for (const line of reasoningLines(r.reasoning)) out(line);
  if (r.dataset) {
    out(`  dataset                  ${r.dataset.name} v${r.dataset.version}, ${r.dataset.samples} samples`);
    out(`  manifest                 ${r.dataset.manifestUri}`);
  } else out('  dataset                  none (no accepted trajectory this cycle)');
}

const pct1 = (v: number | null): string => (v === null ? '–' : `${(100 * v).toFixed(1)}%`);

function printUsage(rows: CycleUsage[]): void {
  if (rows.length === 0) return;
  const total = rows.reduce((a, r) => ({ calls: a.calls + r.calls, tokens: a.tokens + r.promptTokens + r.completionTokens, cost: a.cost + r.costUsd }), { calls: 0, tokens: 0, cost: 0 });
  out(`  model usage              ${total.calls} calls, ${total.tokens} tokens, $${total.cost.toFixed(4)} (per role below; prices: TRAJFORGE_<ROLE>_PRICE_IN/_OUT)`);
  for (const r of rows) {
    const extra = [r.cachedCalls ? `${r.cachedCalls} cached` : '', r.failedCalls ? `${r.failedCalls} failed` : ''].filter(Boolean).join(', ');
    out(`    ${r.role.padEnd(22)} ${String(r.calls).padStart(6)} calls${extra ? ` (${extra})` : ''}  ${String(r.promptTokens).padStart(9)} in  ${String(r.completionTokens).padStart(8)} out  $${r.costUsd.toFixed(4)}`);
  }
}

async function worker(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { queues: { type: 'string' } } });
  const { startRuntime, startWorkers, QUEUE_KINDS } = await import('./runtime.js');
  const queues = values.queues?.split(',').map((q) => q.trim()).filter(Boolean);
  const bad = queues?.find((q) => !(QUEUE_KINDS as readonly string[]).includes(q));
  if (queues?.length === 0 || bad !== undefined) {
    throw new ValidationError(`must be a comma-separated subset of ${QUEUE_KINDS.join(',')}${bad ? ` (got "${bad}")` : ''}`, '--queues', 'command line');
  }
  const rt = await startRuntime(loadConfig(), (l) => out(l));
  for (const s of rt.services) out(`  ${s}`);
  const workers = await startWorkers(rt, queues ? { queues: queues as (typeof QUEUE_KINDS)[number][] } : {});
  out('trajforge: workers running; Ctrl-C to stop');
  const stop = (): void => void workers.shutdown().then(() => rt.close());
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await workers.run;
}

async function referenceServer(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' } } });
  // Loaded per command: the OCR and Temporal stacks take seconds to import and `dag validate` needs neither.
  const { createOcrEngine } = await import('../models/ocr.js');
  const { startReferenceServer } = await import('../models/reference/server.js');
  const { referenceRoles } = await import('../models/reference/roles.js');
  const ocr = await createOcrEngine();
  const { referenceLatency } = loadConfig();
  const server = await startReferenceServer({
    host: '127.0.0.1',
    roles: referenceRoles(),
    ocr,
    ...(referenceLatency ? { latency: referenceLatency } : {}),
    ...(values.port ? { port: Number(values.port) } : {}),
  });
  out(`reference model server: ${server.baseUrl} (models: ${Object.keys(referenceRoles()).join(', ')})`);
  await new Promise<void>((resolve) => process.once('SIGINT', () => void server.close().then(resolve)));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'cycle':
      return cycle(rest);
    case 'worker':
      return worker(rest);
    case 'status': {
      const { statusCommand } = await import('./status.js');
      return statusCommand(loadConfig());
    }
    case 'stop': {
      const { stopCommand } = await import('./status.js');
      return stopCommand(loadConfig(), rest);
    }
    case 'migrate': {
      const { withDatabase } = await import('./database.js');
      // withDatabase migrates before it hands the pool over; a second migrate reports what is applied.
      await withDatabase(loadConfig(), async (pool) => out(`migrations up to date (${(await migrate(pool)).length} newly applied)`));
      return;
    }
    case 'apps': {
      const { appsReport } = await import('./apps.js');
      appsReport();
      return;
    }
    case 'dag':
      return dagCommand(rest);
    case 'queries':
      return queriesCommand(rest);
    case 'pathways':
      return pathwaysCommand(rest);
    case 'critics':
      return criticsCommand(rest);
    case 'reference-server':
      return referenceServer(rest);
    case 'train':
      return trainCommand(rest);
    case 'evalset':
      return evalsetCommand(rest);
    case 'synthesize':
      return synthesizeCommand(rest);
    case 'export':
      return exportCommand(rest);
    case 'datasets':
      return datasetsCommand(rest);
    case 'review':
      return reviewCommand(rest);
    case 'line':
      return lineCommand(rest);
    case 'models':
      return modelsCommand(rest);
    case 'report':
      return reportCommand(rest);
    case 'demos':
      return demosCommand(rest);
    default:
      out(USAGE);
      if (command !== undefined && command !== 'help' && command !== '--help') process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ValidationError) process.stderr.write(`trajforge: invalid ${err.message}\n`);
  // node:util parseArgs: an unknown or malformed option is a usage error, not a crash (no stack).
  else if (err instanceof TypeError && String((err as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')) process.stderr.write(`trajforge: ${err.message} (see \`trajforge help\`)\n`);
  else process.stderr.write(`trajforge: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
