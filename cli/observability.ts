import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { modelLatencyObservers, usageMeter } from '../models/gateway.js';
import type { FunnelCounts } from '../storage/report-repo.js';
import type { TaskQueueBacklog } from './task-queue-backlog.js';

/**
 * Observability of a worker process, off by default (AppConfig.observability):
 * - Prometheus metrics (prom-client) on `http://0.0.0.0:<TRAJFORGE_METRICS_PORT>/metrics`: activity durations and
 *   outcomes, episodes by status and steps (steps/s = rate of `trajforge_steps_total`), critic decisions, activities
 *   in flight per type (this worker's share of the queues' work), and model calls/tokens/cost per role;
 * - OpenTelemetry traces through Temporal (`@temporalio/interceptors-opentelemetry`): workflow spans (injected sink)
 *   and activity spans, exported as JSON lines to `$TRAJFORGE_HOME/traces/spans.jsonl` (`TRAJFORGE_TRACES=file`).
 */
export interface Observability {
  registry: Registry;
  /** Base URL of the metrics endpoint when on. */
  metricsUrl?: string;
  activityInterceptors: ActivityInterceptorsFactory[];
  sinks?: InjectedSinks<Record<string, never>>;
  /** Workflow interceptor modules to bundle (tracing on). */
  workflowInterceptorModules: string[];
  close(): Promise<void>;
}

/** A span as written to the traces file. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, unknown>;
}

/** Appends finished spans as JSON lines (synchronously: spans are small and must survive a crash). */
type ExportDone = Parameters<SpanExporter['export']>[1];
/** @opentelemetry/core's ExportResultCode (SUCCESS 0, FAILED 1), not a direct dependency here. */
const SUCCESS = 0;
const FAILED = 1;

export class JsonlSpanExporter implements SpanExporter {
  constructor(readonly path: string) {}

  export(spans: ReadableSpan[], done: ExportDone): void {
    try {
      const lines = spans.map((s) => {
        const rec: SpanRecord = {
          traceId: s.spanContext().traceId,
          spanId: s.spanContext().spanId,
          ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
          name: s.name,
          startMs: s.startTime[0] * 1000 + s.startTime[1] / 1e6,
          endMs: s.endTime[0] * 1000 + s.endTime[1] / 1e6,
          attributes: { ...s.attributes },
        };
        return JSON.stringify(rec);
      });
      if (lines.length) appendFileSync(this.path, `${lines.join('\n')}\n`);
      done({ code: SUCCESS });
    } catch (error) {
      done({ code: FAILED, error: error as Error });
    }
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * An OpenTelemetry context manager over AsyncLocalStorage. Without one the API's `context.with` is a no-op, so the
 * activity interceptor's span, started "inside" the context it extracted from the activity's headers, started a
 * trace of its own: with it, `RunActivity:*` spans are children of the workflow's `StartActivity:*` spans.
 */
export class AsyncLocalContextManager implements ContextManager {
  readonly #als = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.#als.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(context: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.#als.run(context, () => fn.apply(thisArg, args));
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const run = (thisArg: unknown, args: unknown[]): unknown => this.with(context, () => (target as (...a: unknown[]) => unknown).apply(thisArg, args));
    return function (this: unknown, ...args: unknown[]) {
      return run(this, args);
    } as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.#als.disable();
    return this;
  }
}

function metricsFor(registry: Registry, closers: (() => Promise<void>)[], funnel?: () => Promise<FunnelCounts>, backlog?: () => Promise<TaskQueueBacklog[]>): ActivityInterceptorsFactory {
  const duration = new Histogram({
    name: 'trajforge_activity_seconds',
    help: 'Activity execution time by type and outcome',
    labelNames: ['activity', 'outcome'],
    buckets: [0.05, 0.25, 1, 5, 15, 60, 300, 1200],
    registers: [registry],
  });
  const inFlight = new Gauge({ name: 'trajforge_activities_in_flight', help: 'Activities running in this worker, by type', labelNames: ['activity'], registers: [registry] });
  const episodes = new Counter({ name: 'trajforge_episodes_total', help: 'Episodes by final status', labelNames: ['status'], registers: [registry] });
  const steps = new Counter({ name: 'trajforge_steps_total', help: 'Environment steps of finished episodes', registers: [registry] });
  const decisions = new Counter({ name: 'trajforge_critic_decisions_total', help: 'Trajectory critic decisions', labelNames: ['decision'], registers: [registry] });
  const role = (name: string, help: string, pick: (u: ReturnType<typeof usageMeter.snapshot>[string]) => number): void => {
    new Gauge({
      name,
      help,
      labelNames: ['role'],
      registers: [registry],
      collect() {
        for (const [r, u] of Object.entries(usageMeter.snapshot())) this.set({ role: r }, pick(u));
      },
    });
  };
  role('trajforge_model_calls', 'Model calls since the worker started, per role', (u) => u.calls);
  role('trajforge_model_failed_calls', 'Failed model calls since the worker started, per role', (u) => u.failedCalls);
  role('trajforge_model_tokens', 'Prompt + completion tokens since the worker started, per role', (u) => u.totalTokens);
  role('trajforge_model_cost_usd', 'Model cost (USD) since the worker started, per role', (u) => u.costUsd);
  const latency = new Histogram({
    name: 'trajforge_model_latency_seconds',
    help: 'Latency of answered (not cached) model calls made in this worker, per role',
    labelNames: ['role'],
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
    registers: [registry],
  });
  const observe = (r: string, seconds: number): void => latency.observe({ role: r }, seconds);
  modelLatencyObservers.add(observe);
  closers.push(() => Promise.resolve(void modelLatencyObservers.delete(observe)));
  // Backlog as the workers see it: how long activities waited in their task queue before a worker took them.
  const waited = new Histogram({
    name: 'trajforge_activity_schedule_to_start_seconds',
    help: 'Time activities waited in their task queue (scheduled → started), by type: the queue backlog as felt by the work',
    labelNames: ['activity'],
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 1200],
    registers: [registry],
  });
  if (funnel) {
    // Read from Postgres at scrape time: the whole line's funnel, whichever worker did the work.
    let last: Promise<FunnelCounts> | undefined;
    const read = (): Promise<FunnelCounts> => (last ??= funnel().finally(() => setTimeout(() => (last = undefined), 1000).unref()));
    new Gauge({
      name: 'trajforge_funnel',
      help: 'Production yield funnel (eval runs excluded): queries → rollouts → accepted → exported (distinct rollouts in any dataset)',
      labelNames: ['stage'],
      registers: [registry],
      async collect() {
        const f = await read();
        for (const stage of ['queries', 'rollouts', 'accepted', 'exported'] as const) this.set({ stage }, f[stage]);
      },
    });
    new Gauge({
      name: 'trajforge_rollout_backlog',
      help: 'Queries of running production cycles not yet rolled out',
      registers: [registry],
      async collect() {
        this.set((await read()).backlog);
      },
    });
  }

  if (backlog) {
    // Temporal's own count of tasks waiting in each task queue (DescribeTaskQueue, approximate), at scrape time.
    new Gauge({
      name: 'trajforge_task_queue_backlog',
      help: "Temporal's approximate backlog per task queue and task type (DescribeTaskQueue reportStats)",
      labelNames: ['task_queue', 'type'],
      registers: [registry],
      async collect() {
        for (const b of await backlog()) this.set({ task_queue: b.taskQueue, type: b.type }, b.count);
      },
    });
  }

  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const activity = ctx.info.activityType;
        if (ctx.info.currentAttemptScheduledTimestampMs) waited.observe({ activity }, Math.max(0, Date.now() - ctx.info.currentAttemptScheduledTimestampMs) / 1000);
        const end = duration.startTimer({ activity });
        inFlight.inc({ activity });
        try {
          const result = await next(input);
          end({ outcome: 'ok' });
          const r = result as { status?: unknown; steps?: unknown; correct?: unknown } | null;
          if (activity === 'runEpisode' && r) {
            episodes.inc({ status: String(r.status) });
            if (typeof r.steps === 'number') steps.inc(r.steps);
          }
          if (activity === 'judgeTrajectory' && r) decisions.inc({ decision: r.correct === true ? 'accepted' : r.correct === false ? 'rejected' : 'not_judged' });
          return result;
        } catch (err) {
          end({ outcome: 'error' });
          throw err;
        } finally {
          inFlight.dec({ activity });
        }
      },
    },
  });
}

export async function startObservability(opts: {
  metricsPort?: number;
  traces: 'off' | 'file';
  home: string;
  service: string;
  /** Funnel and backlog counts read at scrape time (Postgres); without it those gauges are absent. */
  funnel?: () => Promise<FunnelCounts>;
  /** Temporal's task-queue backlog read at scrape time (cli/task-queue-backlog.ts); without it that gauge is absent. */
  backlog?: () => Promise<TaskQueueBacklog[]>;
}): Promise<Observability> {
  const registry = new Registry();
  const activityInterceptors: ActivityInterceptorsFactory[] = [];
  const closers: (() => Promise<void>)[] = [];
  let metricsUrl: string | undefined;
  if (opts.metricsPort !== undefined) {
    activityInterceptors.push(metricsFor(registry, closers, opts.funnel, opts.backlog));
    const server: Server = createServer((req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      registry
        .metrics()
        .then((text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text))
        .catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.metricsPort, '0.0.0.0', () => resolve());
    });
    const address = server.address();
    metricsUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : opts.metricsPort}/metrics`;
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  }
  let sinks: InjectedSinks<Record<string, never>> | undefined;
  const workflowInterceptorModules: string[] = [];
  if (opts.traces === 'file') {
    const dir = join(opts.home, 'traces');
    mkdirSync(dir, { recursive: true });
    const resource = new Resource({ 'service.name': opts.service });
    const processor = new SimpleSpanProcessor(new JsonlSpanExporter(join(dir, 'spans.jsonl')));
    const provider = new BasicTracerProvider({ resource });
    provider.addSpanProcessor(processor);
    provider.register({ contextManager: new AsyncLocalContextManager() });
    const tracer = provider.getTracer('trajforge');
    activityInterceptors.push((ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }) }));
    sinks = { exporter: makeWorkflowExporter(processor, resource) } as unknown as InjectedSinks<Record<string, never>>;
    workflowInterceptorModules.push(new URL(import.meta.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')).pathname);
    closers.push(() => provider.shutdown());
  }
  return {
    registry,
    ...(metricsUrl ? { metricsUrl } : {}),
    activityInterceptors,
    ...(sinks ? { sinks } : {}),
    workflowInterceptorModules,
    async close() {
      for (const c of closers.reverse()) await c().catch(() => undefined);
    },
  };
}
