import { stageOverrides, STAGE_OPTIONS, withDefaultSources } from './guidance.js';
import { parseArgs } from 'node:util';
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { CycleConfig } from '../domain/config.js';
import { parseOrThrow, ValidationError } from '../domain/errors.js';
import { LineInput, type LineStatus } from '../workflows/loop-contracts.js';
import { loadConfig, type AppConfig } from './config.js';

export const LINE_USAGE = `  trajforge line start [--id ID] [--generations N] [--max-cycles N] [--queries N] [--attempts K] [--max-steps S] [--apps a,b]
                       [--families f,g] [--guidance N|off] [--ref-sources demonstration,mobile-agent-v3 (default)] [--reasoning N|off]
                       [--seed N] [--min-new-accepted N] [--acceptance-drop X] [--eval-set NAME] [--eval-queries N]
                       [--eval-seeds 1,2,3] [--eval-temperature T] [--eval-max-steps S] [--trainer reference|external]
                       [--trainer-command '["swift","sft",…]'] [--cycles-per-run N] [--detach]
                                 start a standing production line (cycle → retrain trigger → train → eval gate → …);
                                 runs the workers in this process and prints the curve when it ends (--detach: workers elsewhere)
  trajforge line status|pause|resume|drain|stop [--id ID]
                                 live status; stop starting cycles / start again; finish the running cycle and end; cancel
  trajforge line size N [--id ID]
                                 change the cycle size from the next cycle on`;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);
const workflowIdOf = (id: string): string => `line-${id}`;

/** A Temporal client for control commands: the configured cluster, else the embedded dev server's port. */
async function controlClient(config: AppConfig): Promise<{ client: Client; close(): Promise<void> }> {
  const address = config.temporal.address ?? `127.0.0.1:${config.temporal.port ?? 7233}`;
  const connection = await Connection.connect({ address });
  return { client: new Client({ connection, namespace: config.temporal.namespace }), close: () => connection.close() };
}

function numberOpt(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new ValidationError(`expected a number, got "${v}"`, flag, 'command line');
  return n;
}

/** Builds the line's workflow input from flags (validated by LineInput: a bad flag names its field). */
export function lineInputFromArgs(config: AppConfig, args: string[]): { input: LineInput; detach: boolean } {
  const { values } = parseArgs({
    args,
    options: {
      id: { type: 'string', default: 'main' },
      generations: { type: 'string' },
      'max-cycles': { type: 'string' },
      queries: { type: 'string' },
      attempts: { type: 'string' },
      'max-steps': { type: 'string' },
      apps: { type: 'string' },
      families: { type: 'string' },
      ...STAGE_OPTIONS,
      seed: { type: 'string' },
      'min-new-accepted': { type: 'string' },
      'acceptance-drop': { type: 'string' },
      'eval-set': { type: 'string' },
      'eval-queries': { type: 'string' },
      'eval-seeds': { type: 'string' },
      'eval-temperature': { type: 'string' },
      'eval-max-steps': { type: 'string' },
      trainer: { type: 'string', default: 'reference' },
      'trainer-command': { type: 'string' },
      'cycles-per-run': { type: 'string' },
      detach: { type: 'boolean', default: false },
    },
  });
  const cycle = parseOrThrow(
    CycleConfig,
    {
      ...config.cycle,
      ...(values.queries !== undefined ? { queries: numberOpt(values.queries, '--queries') } : {}),
      ...(values.attempts !== undefined ? { attempts: numberOpt(values.attempts, '--attempts') } : {}),
      ...(values['max-steps'] !== undefined ? { maxSteps: numberOpt(values['max-steps'], '--max-steps') } : {}),
      ...(values.seed !== undefined ? { seed: numberOpt(values.seed, '--seed') } : {}),
      ...(values.apps !== undefined ? { apps: values.apps.split(',').map((a) => a.trim()).filter(Boolean) } : {}),
      ...(values.families !== undefined ? { families: values.families.split(',').map((f) => f.trim()).filter(Boolean) } : {}),
      ...stageOverrides(config.cycle, withDefaultSources(values, config.cycle.guidance)),
    },
    'command line',
  );
  let command: unknown;
  if (values['trainer-command'] !== undefined) {
    try {
      command = JSON.parse(values['trainer-command']);
    } catch {
      throw new ValidationError('expected a JSON array of strings (argv)', '--trainer-command', 'command line');
    }
  }
  const evalSeeds = values['eval-seeds']?.split(',').map((s) => numberOpt(s.trim(), '--eval-seeds'));
  const input = parseOrThrow(
    LineInput,
    {
      lineId: values.id,
      config: cycle,
      trigger: {
        ...(values['min-new-accepted'] !== undefined ? { minNewAccepted: numberOpt(values['min-new-accepted'], '--min-new-accepted') } : {}),
        ...(values['acceptance-drop'] !== undefined ? { acceptanceDrop: numberOpt(values['acceptance-drop'], '--acceptance-drop') } : {}),
      },
      trainer: values.trainer === 'external' ? { kind: 'external', command } : { kind: values.trainer },
      eval: {
        ...(values['eval-set'] !== undefined ? { evalSet: values['eval-set'] } : {}),
        ...(values['eval-queries'] !== undefined ? { queries: numberOpt(values['eval-queries'], '--eval-queries') } : {}),
        ...(evalSeeds ? { seeds: evalSeeds } : {}),
        ...(values['eval-temperature'] !== undefined ? { temperature: numberOpt(values['eval-temperature'], '--eval-temperature') } : {}),
        ...(values['eval-max-steps'] !== undefined ? { maxSteps: numberOpt(values['eval-max-steps'], '--eval-max-steps') } : {}),
      },
      ...(values.generations !== undefined ? { generations: numberOpt(values.generations, '--generations') } : {}),
      ...(values['max-cycles'] !== undefined ? { maxCycles: numberOpt(values['max-cycles'], '--max-cycles') } : {}),
      ...(values['cycles-per-run'] !== undefined ? { cyclesPerRun: numberOpt(values['cycles-per-run'], '--cycles-per-run') } : {}),
      taskQueuePrefix: config.temporal.taskQueuePrefix,
    },
    'command line',
  );
  return { input, detach: values.detach };
}

function printStatus(s: LineStatus): void {
  out(`line ${s.lineId}: ${s.phase}${s.paused ? ' (paused)' : ''}${s.draining ? ' (draining)' : ''}, ${s.cyclesRun} cycles, generation ${s.generation}, ${s.queries} queries/cycle, serving ${s.servedVersion ?? '–'}`);
  if (s.lastCycle) out(`  last cycle   ${s.lastCycle}`);
  if (s.lastTrigger) out(`  trigger      ${s.lastTrigger}`);
  for (const g of s.generations) {
    const m = (x: number | null): string => (x === null ? '–' : `${(100 * x).toFixed(1)}%`);
    out(`  g${g.generation}  ${g.status.padEnd(8)} ${g.candidateVersion ?? '–'}  eval ${m(g.meanCurrent)} → ${m(g.meanCandidate)}  ${g.reason}`);
  }
}

async function start(config: AppConfig, args: string[]): Promise<void> {
  const { input, detach } = lineInputFromArgs(config, args);
  const workflowId = workflowIdOf(input.lineId);
  out('trajforge: starting services…');
  const { startRuntime, startWorkers } = await import('./runtime.js');
  const rt = await startRuntime(config, (l) => out(`  ${l}`));
  let workers;
  try {
    for (const s of rt.services) out(`  ${s}`);
    if (!detach) workers = await startWorkers(rt);
    try {
      await rt.temporal.client.workflow.start('productionLine', { workflowId, taskQueue: `${input.taskQueuePrefix}-main`, args: [input] });
      out(`trajforge: line ${input.lineId} started (${input.generations || '∞'} generations, ${input.config.queries} queries/cycle, trigger ≥ ${input.trigger.minNewAccepted} new accepted)`);
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      out(`trajforge: line ${input.lineId} is already running; following it`);
    }
    if (rt.temporal.uiUrl) out(`  follow it: ${rt.temporal.uiUrl}/namespaces/${config.temporal.namespace}/workflows/${workflowId}`);
    if (detach) return;
    const ticker = setInterval(() => {
      rt.temporal.client.workflow
        .getHandle(workflowId)
        .query<LineStatus>('status')
        .then((s) => out(`  [${new Date().toISOString().slice(11, 19)}] ${s.phase}: ${s.cyclesRun} cycles, generation ${s.generation}, serving ${s.servedVersion ?? '–'}`))
        .catch(() => undefined);
    }, 60_000);
    try {
      // The handle follows continueAsNew runs to the final result.
      const result = (await rt.temporal.client.workflow.getHandle(workflowId).result()) as LineStatus;
      printStatus(result);
    } finally {
      clearInterval(ticker);
    }
    const { printReport } = await import('./report.js');
    await printReport(rt.db, rt.blobs, config, out);
  } finally {
    await workers?.shutdown();
    await rt.close();
  }
}

export async function lineCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const config = loadConfig();
  if (sub === 'start') return start(config, rest);
  const { values, positionals } = parseArgs({ args: rest, options: { id: { type: 'string', default: 'main' } }, allowPositionals: true });
  const workflowId = workflowIdOf(values.id);
  const { client, close } = await controlClient(config);
  try {
    const handle = client.workflow.getHandle(workflowId);
    switch (sub) {
      case 'status':
        printStatus(await handle.query<LineStatus>('status'));
        return;
      case 'pause':
      case 'resume':
      case 'drain':
        await handle.signal(sub);
        out(`trajforge: line ${values.id}: ${sub} sent`);
        return;
      case 'stop':
        await handle.cancel();
        out(`trajforge: line ${values.id}: cancelled`);
        return;
      case 'size': {
        const n = numberOpt(positionals[0], 'N');
        if (n === undefined) throw new ValidationError('missing the cycle size', 'N', 'command line');
        const now = await handle.executeUpdate<number, [number]>('setCycleSize', { args: [n] });
        out(`trajforge: line ${values.id}: ${now} queries per cycle from the next cycle`);
        return;
      }
      default:
        throw new ValidationError(`unknown line command "${sub ?? ''}"\n${LINE_USAGE}`, 'line', 'command line');
    }
  } finally {
    await close();
  }
}
