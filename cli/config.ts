import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { CycleConfig, REFERENCE_MODEL_NAMES, RoleEndpointConfig, ROLES, type Role } from '../domain/config.js';
import { ValidationError } from '../domain/errors.js';
import { LatencySpec, parseLatencySpec } from '../models/reference/latency.js';

export const REPO_ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalNumber = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    const n = Number(v);
    if (!Number.isFinite(n)) {
      ctx.addIssue({ code: 'custom', message: `expected a number, got "${v}"` });
      return z.NEVER;
    }
    return n;
  });
const optionalBool = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    if (/^(1|true|yes)$/i.test(v)) return true;
    if (/^(0|false|no)$/i.test(v)) return false;
    ctx.addIssue({ code: 'custom', message: `expected true/false, got "${v}"` });
    return z.NEVER;
  });

/** A TCP port: an integer in 1..65535. */
const port = optionalNumber.pipe(z.number().int('must be an integer port').min(1, 'must be a port in 1..65535').max(65535, 'must be a port in 1..65535').optional());

/** Env prefix per role: TRAJFORGE_POLICY_BASE_URL, TRAJFORGE_STEP_CRITIC_MODEL, ... */
export const ROLE_ENV: Record<Role, string> = {
  policy: 'POLICY',
  stepCritic: 'STEP_CRITIC',
  trajCriticText: 'TRAJ_CRITIC_TEXT',
  trajCriticMultimodal: 'TRAJ_CRITIC_MM',
  querySynth: 'QUERY_SYNTH',
  queryRefine: 'QUERY_REFINE',
  manager: 'MANAGER',
  worker: 'WORKER',
  reflector: 'REFLECTOR',
  notetaker: 'NOTETAKER',
  navigator: 'NAVIGATOR',
  interactor: 'INTERACTOR',
  coordinator: 'COORDINATOR',
  executor: 'EXECUTOR',
  stateTracker: 'STATE_TRACKER',
  guideDescriber: 'GUIDE_DESCRIBER',
  guideQc: 'GUIDE_QC',
  guideSynth: 'GUIDE_SYNTH',
  reasoner: 'REASONER',
  consistency: 'CONSISTENCY',
  distiller: 'DISTILLER',
};

/**
 * Every environment variable trajforge reads, in one schema. Unset means "embedded default";
 * set means "production swap" — same code path either way.
 */
const Env = z.object({
  TRAJFORGE_HOME: optionalString,
  TRAJFORGE_CACHE_DIR: optionalString,
  DATABASE_URL: optionalString.pipe(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional()),
  TEMPORAL_ADDRESS: optionalString,
  TRAJFORGE_POSTGRES_PORT: port,
  TRAJFORGE_TEMPORAL_PORT: port,
  TRAJFORGE_TEMPORAL_UI_PORT: port,
  TEMPORAL_NAMESPACE: optionalString,
  TEMPORAL_CLI_PATH: optionalString,
  TRAJFORGE_TASK_QUEUE_PREFIX: optionalString,
  BLOB_STORE: optionalString.pipe(
    z
      .string()
      .regex(/^(local|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?)$/, 'must be "local" or s3://bucket[/prefix]')
      .optional(),
  ),
  BLOB_DIR: optionalString,
  S3_ENDPOINT: optionalString.pipe(z.string().url().optional()),
  S3_REGION: optionalString,
  S3_FORCE_PATH_STYLE: optionalBool,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  CHROMIUM_PATH: optionalString,
  /** Expose each env worker's browser DevTools on this loopback port (debugging; the chaos bench's page faults). */
  TRAJFORGE_CHROMIUM_DEBUG_PORT: port,
  TRAJFORGE_ENV_SESSIONS: optionalNumber,
  TRAJFORGE_CPU_CONCURRENCY: optionalNumber,
  TRAJFORGE_MODEL_BASE_URL: optionalString,
  TRAJFORGE_MODEL_API_KEY: optionalString,
  TRAJFORGE_MODEL_PRICE_IN: optionalNumber,
  TRAJFORGE_MODEL_PRICE_OUT: optionalNumber,
  /** Per-request timeout of every model call in ms (default 120 000); `TRAJFORGE_<ROLE>_TIMEOUT_MS` per role. */
  TRAJFORGE_MODEL_TIMEOUT_MS: optionalNumber,
  TRAJFORGE_QUERIES: optionalNumber,
  TRAJFORGE_ATTEMPTS: optionalNumber,
  TRAJFORGE_MAX_STEPS: optionalNumber,
  TRAJFORGE_SEED: optionalNumber,
  TRAJFORGE_REFERENCE_LATENCY: optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    try {
      return parseLatencySpec(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  }),
  TRAJFORGE_REVIEW_SESSION_SECRET: optionalString.pipe(z.string().min(32, 'at least 32 characters').optional()),
  TRAJFORGE_REVIEW_SECURE_COOKIES: optionalString.pipe(z.enum(['true', 'false', 'auto']).optional()),
  TRAJFORGE_REVIEW_TRUST_PROXY: optionalBool,
  TRAJFORGE_REVIEW_REVIEWS_PER_ITEM: optionalNumber.pipe(z.number().int().min(1).max(10).optional()),
  TRAJFORGE_REVIEW_CLAIM_TTL_S: optionalNumber.pipe(z.number().int().min(30).max(86_400).optional()),
  TRAJFORGE_METRICS_PORT: optionalNumber,
  TRAJFORGE_TRACES: optionalString.pipe(z.enum(['off', 'file']).optional()),
  ...Object.fromEntries(
    ROLES.flatMap((role) => {
      const p = `TRAJFORGE_${ROLE_ENV[role]}`;
      return [
        [`${p}_BASE_URL`, optionalString],
        [`${p}_MODEL`, optionalString],
        [`${p}_API_KEY`, optionalString],
        [`${p}_TEMPERATURE`, optionalNumber],
        [`${p}_PRICE_IN`, optionalNumber],
        [`${p}_PRICE_OUT`, optionalNumber],
        [`${p}_TIMEOUT_MS`, optionalNumber],
      ];
    }),
  ),
});

export const AppConfig = z.object({
  home: z.string(),
  cacheDir: z.string(),
  databaseUrl: z.string().optional(),
  /** Port of the embedded Postgres (when DATABASE_URL is unset). */
  postgresPort: z.number().int().min(1).max(65535).optional(),
  temporal: z.object({
    address: z.string().optional(),
    namespace: z.string(),
    cliPath: z.string().optional(),
    /** Ports of the embedded dev server (when TEMPORAL_ADDRESS is unset). */
    port: z.number().int().min(1).max(65535).optional(),
    uiPort: z.number().int().min(1).max(65535).optional(),
    taskQueuePrefix: z.string(),
  }),
  blob: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('local'), dir: z.string() }),
    z.object({
      kind: z.literal('s3'),
      bucket: z.string(),
      prefix: z.string(),
      endpoint: z.string().optional(),
      region: z.string(),
      forcePathStyle: z.boolean(),
      accessKeyId: z.string().optional(),
      secretAccessKey: z.string().optional(),
    }),
  ]),
  /** Roles with an endpoint of their own; the rest are served by the built-in reference server. */
  models: z.record(z.string(), RoleEndpointConfig.partial({ baseUrl: true })),
  chromiumPath: z.string(),
  /** TRAJFORGE_CHROMIUM_DEBUG_PORT: the launched browser's DevTools also listen on this loopback port. */
  chromiumDebugPort: z.number().int().min(1).max(65535).optional(),
  envSessions: z.number().int().min(1).max(64),
  /**
   * Critic/export activities one worker runs at once (TRAJFORGE_CPU_CONCURRENCY). 2 suits CPU-bound reference
   * critics on a small machine; with critics on a GPU endpoint the work is I/O-bound: raise it with the sessions.
   */
  cpuConcurrency: z.number().int().min(1).max(256),
  /** Simulated GPU latency of the built-in reference server (TRAJFORGE_REFERENCE_LATENCY); absent = none. */
  referenceLatency: LatencySpec.optional(),
  cycle: CycleConfig,
  /** The review app (`trajforge review serve`); the session secret is generated and kept in $TRAJFORGE_HOME when unset. */
  review: z
    .object({
      sessionSecret: z.string().min(32).optional(),
      secureCookies: z.union([z.boolean(), z.literal('auto')]),
      trustProxy: z.boolean(),
      reviewsPerItem: z.number().int().min(1).max(10),
      claimTtlSeconds: z.number().int().min(30).max(86_400),
    })
    .default({ secureCookies: 'auto', trustProxy: false, reviewsPerItem: 1, claimTtlSeconds: 600 }),
  /** Observability (cli/observability.ts), off by default: a Prometheus `/metrics` port; workflow and activity spans to a file. */
  observability: z
    .object({
      metricsPort: z.number().int().min(0).max(65535).optional(),
      traces: z.enum(['off', 'file']).default('off'),
    })
    .default({ traces: 'off' }),
});
export type AppConfig = z.infer<typeof AppConfig>;

/** Reads and validates the environment. Throws a ValidationError naming the bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ValidationError(issue.message, String(issue.path[0]), 'environment');
  }
  const e = parsed.data as Record<string, string | number | boolean | undefined>;
  const str = (k: string): string | undefined => e[k] as string | undefined;
  const num = (k: string): number | undefined => e[k] as number | undefined;
  const home = resolve(str('TRAJFORGE_HOME') ?? resolve(REPO_ROOT, '.trajforge'));

  let blob: AppConfig['blob'] = { kind: 'local', dir: resolve(str('BLOB_DIR') ?? resolve(home, 'blobs')) };
  const blobUrl = str('BLOB_STORE');
  if (blobUrl && blobUrl !== 'local') {
    const [bucket, ...rest] = blobUrl.slice('s3://'.length).split('/');
    blob = {
      kind: 's3',
      bucket: bucket!,
      prefix: rest.join('/'),
      ...(str('S3_ENDPOINT') ? { endpoint: str('S3_ENDPOINT')! } : {}),
      region: str('S3_REGION') ?? 'us-east-1',
      forcePathStyle: (e.S3_FORCE_PATH_STYLE as boolean | undefined) ?? Boolean(str('S3_ENDPOINT')),
      ...(str('S3_ACCESS_KEY_ID') ? { accessKeyId: str('S3_ACCESS_KEY_ID')! } : {}),
      ...(str('S3_SECRET_ACCESS_KEY') ? { secretAccessKey: str('S3_SECRET_ACCESS_KEY')! } : {}),
    };
  }

  const models: AppConfig['models'] = {};
  for (const role of ROLES) {
    const p = `TRAJFORGE_${ROLE_ENV[role]}`;
    const baseUrl = str(`${p}_BASE_URL`) ?? str('TRAJFORGE_MODEL_BASE_URL');
    const model = str(`${p}_MODEL`);
    const temperature = num(`${p}_TEMPERATURE`);
    const timeoutMs = num(`${p}_TIMEOUT_MS`) ?? num('TRAJFORGE_MODEL_TIMEOUT_MS');
    const apiKey = str(`${p}_API_KEY`) ?? str('TRAJFORGE_MODEL_API_KEY');
    // Prices apply only to configured endpoints (the reference server costs nothing); both or neither.
    const priceIn = num(`${p}_PRICE_IN`) ?? (str(`${p}_BASE_URL`) === undefined ? num('TRAJFORGE_MODEL_PRICE_IN') : undefined);
    const priceOut = num(`${p}_PRICE_OUT`) ?? (str(`${p}_BASE_URL`) === undefined ? num('TRAJFORGE_MODEL_PRICE_OUT') : undefined);
    if ((priceIn === undefined) !== (priceOut === undefined)) {
      const missing = priceIn === undefined ? `${p}_PRICE_IN` : `${p}_PRICE_OUT`;
      throw new ValidationError('set both PRICE_IN and PRICE_OUT (USD per million tokens), or neither', missing, 'environment');
    }
    if (priceIn !== undefined && !baseUrl) {
      const own = num(`${p}_PRICE_IN`) !== undefined;
      throw new ValidationError('a price needs an endpoint (the built-in reference server is free)', own ? `${p}_BASE_URL` : 'TRAJFORGE_MODEL_BASE_URL', 'environment');
    }
    const endpoint = {
      ...(baseUrl ? { baseUrl } : {}),
      ...(priceIn !== undefined && priceOut !== undefined ? { pricing: { inputPerMTok: priceIn, outputPerMTok: priceOut } } : {}),
      model: model ?? REFERENCE_MODEL_NAMES[role],
      ...(apiKey ? { apiKey } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    };
    const checked = RoleEndpointConfig.partial({ baseUrl: true }).safeParse(endpoint);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const snake = String(issue.path[0]).replace(/([A-Z])/g, '_$1').toUpperCase();
      throw new ValidationError(issue.message, `${p}_${snake}`, 'environment');
    }
    models[role] = checked.data;
  }

  const cycle = CycleConfig.safeParse({
    ...(num('TRAJFORGE_QUERIES') !== undefined ? { queries: num('TRAJFORGE_QUERIES') } : {}),
    ...(num('TRAJFORGE_ATTEMPTS') !== undefined ? { attempts: num('TRAJFORGE_ATTEMPTS') } : {}),
    ...(num('TRAJFORGE_MAX_STEPS') !== undefined ? { maxSteps: num('TRAJFORGE_MAX_STEPS') } : {}),
    ...(num('TRAJFORGE_SEED') !== undefined ? { seed: num('TRAJFORGE_SEED') } : {}),
    concurrency: num('TRAJFORGE_ENV_SESSIONS') ?? 2,
  });
  if (!cycle.success) {
    const issue = cycle.error.issues[0]!;
    const envName: Record<string, string> = { queries: 'TRAJFORGE_QUERIES', attempts: 'TRAJFORGE_ATTEMPTS', maxSteps: 'TRAJFORGE_MAX_STEPS', seed: 'TRAJFORGE_SEED', concurrency: 'TRAJFORGE_ENV_SESSIONS' };
    throw new ValidationError(issue.message, envName[String(issue.path[0])] ?? String(issue.path[0]), 'environment');
  }

  return AppConfig.parse({
    home,
    cacheDir: resolve(str('TRAJFORGE_CACHE_DIR') ?? resolve(homedir(), '.cache', 'trajforge')),
    ...(str('DATABASE_URL') ? { databaseUrl: str('DATABASE_URL') } : {}),
    ...(num('TRAJFORGE_POSTGRES_PORT') !== undefined ? { postgresPort: num('TRAJFORGE_POSTGRES_PORT') } : {}),
    temporal: {
      ...(str('TEMPORAL_ADDRESS') ? { address: str('TEMPORAL_ADDRESS') } : {}),
      namespace: str('TEMPORAL_NAMESPACE') ?? 'default',
      ...(str('TEMPORAL_CLI_PATH') ? { cliPath: str('TEMPORAL_CLI_PATH') } : {}),
      ...(num('TRAJFORGE_TEMPORAL_PORT') !== undefined ? { port: num('TRAJFORGE_TEMPORAL_PORT') } : {}),
      ...(num('TRAJFORGE_TEMPORAL_UI_PORT') !== undefined ? { uiPort: num('TRAJFORGE_TEMPORAL_UI_PORT') } : {}),
      taskQueuePrefix: str('TRAJFORGE_TASK_QUEUE_PREFIX') ?? 'trajforge',
    },
    blob,
    models,
    chromiumPath: str('CHROMIUM_PATH') ?? '/usr/bin/chromium',
    ...(num('TRAJFORGE_CHROMIUM_DEBUG_PORT') !== undefined ? { chromiumDebugPort: num('TRAJFORGE_CHROMIUM_DEBUG_PORT') } : {}),
    envSessions: num('TRAJFORGE_ENV_SESSIONS') ?? 2,
    cpuConcurrency: num('TRAJFORGE_CPU_CONCURRENCY') ?? 2,
    ...(parsed.data.TRAJFORGE_REFERENCE_LATENCY !== undefined ? { referenceLatency: parsed.data.TRAJFORGE_REFERENCE_LATENCY } : {}),
    cycle: cycle.data,
    review: {
      ...(str('TRAJFORGE_REVIEW_SESSION_SECRET') ? { sessionSecret: str('TRAJFORGE_REVIEW_SESSION_SECRET') } : {}),
      secureCookies: ({ true: true, false: false, auto: 'auto' } as const)[(str('TRAJFORGE_REVIEW_SECURE_COOKIES') ?? 'auto') as 'true' | 'false' | 'auto'],
      trustProxy: (e.TRAJFORGE_REVIEW_TRUST_PROXY as boolean | undefined) ?? false,
      reviewsPerItem: num('TRAJFORGE_REVIEW_REVIEWS_PER_ITEM') ?? 1,
      claimTtlSeconds: num('TRAJFORGE_REVIEW_CLAIM_TTL_S') ?? 600,
    },
    observability: {
      ...(num('TRAJFORGE_METRICS_PORT') !== undefined ? { metricsPort: num('TRAJFORGE_METRICS_PORT') } : {}),
      traces: str('TRAJFORGE_TRACES') ?? 'off',
    },
  });
}
