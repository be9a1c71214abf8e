import { appendFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { usageMeter } from '../models/gateway.js';

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

function metricsFor(registry: Registry): ActivityInterceptorsFactory {
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

  return (ctx) => ({
    inbound: {
      async execute(input, next) {
        const activity = ctx.info.activityType;
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

export async function startObservability(opts: { metricsPort?: number; traces: 'off' | 'file'; home: string; service: string }): Promise<Observability> {
  const registry = new Registry();
  const activityInterceptors: ActivityInterceptorsFactory[] = [];
  const closers: (() => Promise<void>)[] = [];
  let metricsUrl: string | undefined;
  if (opts.metricsPort !== undefined) {
    activityInterceptors.push(metricsFor(registry));
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
    provider.register();
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
