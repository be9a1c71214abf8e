import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import pg from 'pg';
import { z } from 'zod';
import { CycleConfig } from '../domain/config.js';
import { parseOrThrow } from '../domain/errors.js';
import { queueNames, type CycleInput } from '../workflows/contracts.js';
import type { AppConfig } from './config.js';
import { processAlive } from './services/ownership.js';
import { embeddedPostgresState, stopEmbeddedPostgres } from './services/postgres.js';
import { DEFAULT_TEMPORAL_PORT, stopTemporalDevServer, temporalDevServerState } from './services/temporal.js';

/** A cycle that was started and has not finished: what the database and Temporal know of it. */
export interface UnfinishedCycle {
  cycleId: string;
  cycleNumber: number;
  /** Temporal's status of the workflow `cycleId` (RUNNING, TERMINATED, …), or NOT_FOUND (history lost). */
  temporal: string;
  /** Progress from the database; absent when the cycle's first activity never ran. */
  progress?: CycleProgress;
  /** The input to start it again with, rebuilt from the stored config (present when the database row exists). */
  input?: CycleInput;
}

export interface CycleProgress {
  status: string;
  startedAt: string;
  queries: number;
  attempts: number;
  rollouts: number;
  judged: number;
}

const ProgressRow = z.object({
  id: z.string(),
  status: z.string(),
  started_at: z.date(),
  config: z.record(z.string(), z.unknown()),
  queries: z.coerce.number(),
  rollouts: z.coerce.number(),
  judged: z.coerce.number(),
});

type Queryable = Pick<pg.Pool, 'query'>;

/** Cycles the database holds as not finished, with their progress (rollouts written, rollouts judged). */
async function unfinishedInDatabase(db: Queryable): Promise<z.infer<typeof ProgressRow>[]> {
  const res = await db.query(
    `select c.id, c.status, c.started_at, c.config,
       (select count(*) from cycle_queries q where q.cycle_id = c.id) as queries,
       (select count(*) from rollouts r where r.cycle_id = c.id) as rollouts,
       (select count(*) from rollouts r where r.cycle_id = c.id and exists
          (select 1 from trajectory_verdicts v where v.rollout_id = r.id and v.channel = 'consensus')) as judged
     from cycles c where c.status <> 'finished' and c.id ~ '^cycle-[0-9]+$'
     order by substring(c.id from '^cycle-([0-9]+)$')::bigint`,
  );
  return res.rows.map((r) => ProgressRow.parse(r));
}

/** Production cycles Temporal is running on this checkout's main task queue. */
async function runningInTemporal(client: Client, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  const query = `WorkflowType = 'productionCycle' AND ExecutionStatus = 'Running' AND TaskQueue = '${queueNames(prefix).main}'`;
  for await (const w of client.workflow.list({ query })) if (/^cycle-\d+$/.test(w.workflowId)) ids.push(w.workflowId);
  return ids;
}

async function temporalStatus(client: Client, workflowId: string): Promise<string> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return 'NOT_FOUND';
    throw err;
  }
}

/**
 * Every started, unfinished cycle: Running production-cycle workflows on this checkout's task queue, and
 * database cycles not marked finished (whose workflow may be gone, e.g. a fresh Temporal history).
 */
export async function unfinishedCycles(db: Queryable, client: Client, prefix: string): Promise<UnfinishedCycle[]> {
  const rows = await unfinishedInDatabase(db);
  const running = new Set(await runningInTemporal(client, prefix));
  const byId = new Map<string, UnfinishedCycle>();
  for (const r of rows) {
    const cycleNumber = Number(r.id.slice('cycle-'.length));
    const config = parseOrThrow(CycleConfig, r.config, `cycles.config of ${r.id}`);
    byId.set(r.id, {
      cycleId: r.id,
      cycleNumber,
      temporal: running.has(r.id) ? 'RUNNING' : await temporalStatus(client, r.id),
      progress: {
        status: r.status,
        startedAt: r.started_at.toISOString(),
        queries: r.queries,
        attempts: config.attempts,
        rollouts: r.rollouts,
        judged: r.judged,
      },
      input: { version: 1, cycleId: r.id, cycleNumber, config, taskQueuePrefix: prefix },
    });
  }
  for (const id of running) {
    if (!byId.has(id)) byId.set(id, { cycleId: id, cycleNumber: Number(id.slice('cycle-'.length)), temporal: 'RUNNING' });
  }
  return [...byId.values()].sort((a, b) => a.cycleNumber - b.cycleNumber);
}

/** Closed without finishing for a reason that is not the cycle's own: starting it again is safe and finishes it. */
const RESTARTABLE = new Set(['NOT_FOUND', 'TERMINATED', 'TIMED_OUT', 'CANCELLED']);

/** How `trajforge cycle` treats an unfinished cycle: follow it, start it again, or leave it (with the reason). */
export function resumePlan(c: UnfinishedCycle): { action: 'follow' | 'restart' | 'skip'; why: string } {
  const p = c.progress;
  const done = p ? `${p.rollouts}/${p.queries * p.attempts} rollouts, ${p.judged} judged` : 'not started in the database yet';
  if (c.temporal === 'RUNNING') return { action: 'follow', why: `interrupted, still running in Temporal; ${done}` };
  if (RESTARTABLE.has(c.temporal) && c.input) {
    return { action: 'restart', why: `its workflow is ${c.temporal.toLowerCase().replace('_', ' ')}; ${done}; starting it again (finished work is kept, never redone twice)` };
  }
  return { action: 'skip', why: `its workflow ${c.temporal.toLowerCase()}; not resumed automatically — see the Temporal UI and \`trajforge status\`` };
}

function ago(iso: string): string {
  const s = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  return s < 90 ? `${s.toFixed(0)} s ago` : s < 5400 ? `${(s / 60).toFixed(0)} min ago` : `${(s / 3600).toFixed(1)} h ago`;
}

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/**
 * `trajforge status`: the embedded services of this home (running, owned by a live trajforge process or
 * orphaned by a crashed one), external ones, and every running or unfinished cycle with its progress.
 * Starts nothing.
 */
export async function statusCommand(config: AppConfig): Promise<void> {
  out(`trajforge status  (home ${config.home})`);
  out('services');
  let databaseUrl = config.databaseUrl;
  let live = false;
  if (databaseUrl) out(`  postgres   external  ${redact(databaseUrl)}`);
  else {
    const pgState = await embeddedPostgresState(path.join(config.home, 'postgres'));
    if (!pgState) out('  postgres   embedded  not running');
    else {
      databaseUrl = pgState.answering ? pgState.url : undefined;
      live ||= pgState.owner !== undefined && processAlive(pgState.owner.ownerPid);
      out(`  postgres   embedded  pid ${pgState.pid}, port ${pgState.port}${pgState.answering ? '' : ' (not answering)'}, ${ownership(pgState.owner)}`);
    }
  }
  const temporalPort = config.temporal.port ?? DEFAULT_TEMPORAL_PORT;
  let temporalAddress = config.temporal.address;
  if (temporalAddress) out(`  temporal   external  ${temporalAddress}`);
  else {
    const t = await temporalDevServerState(config.home, temporalPort);
    live ||= t.owner !== undefined && processAlive(t.owner.ownerPid);
    temporalAddress = t.answering ? t.address : undefined;
    if (!t.answering && !t.owner) out(`  temporal   dev       not running (port ${temporalPort})`);
    else out(`  temporal   dev       ${t.address}${t.answering ? '' : ' (not answering)'}${t.owner ? `, pid ${t.owner.pid}, ${ownership(t.owner)}` : ', not started by this home (reused, never stopped by trajforge)'}`);
  }
  out(`  blobs      ${config.blob.kind === 'local' ? `local     ${config.blob.dir}` : `s3        s3://${config.blob.bucket}/${config.blob.prefix}`}`);

  out('cycles');
  if (!databaseUrl) {
    out('  (database not reachable: start it with `trajforge cycle`, which also resumes unfinished cycles)');
    return;
  }
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1, connectionTimeoutMillis: 3000 });
  db.on('error', () => undefined);
  let connection: Connection | undefined;
  try {
    const rows = await unfinishedInDatabase(db).catch((err: unknown) => {
      // 42P01: a database that was never migrated has no cycles table, hence no cycles.
      if ((err as { code?: string }).code === '42P01') return [];
      throw err;
    });
    let unfinished: UnfinishedCycle[];
    let pollers: number | undefined;
    if (temporalAddress) {
      connection = await Connection.connect({ address: temporalAddress, connectTimeout: 2000 });
      const client = new Client({ connection, namespace: config.temporal.namespace });
      unfinished = await unfinishedCycles(db, client, config.temporal.taskQueuePrefix);
      const tq = await connection.workflowService.describeTaskQueue({
        namespace: config.temporal.namespace,
        taskQueue: { name: queueNames(config.temporal.taskQueuePrefix).main },
        taskQueueType: 1, // TASK_QUEUE_TYPE_WORKFLOW
      });
      // The server lists a poller for a few minutes after its last poll: recent ones only.
      pollers = (tq.pollers ?? []).filter((p) => Date.now() - Number(p.lastAccessTime?.seconds ?? 0) * 1000 < 90_000).length;
    } else {
      unfinished = rows.map((r) => ({ cycleId: r.id, cycleNumber: Number(r.id.slice(6)), temporal: 'UNKNOWN (Temporal not reachable)' }));
    }
    if (unfinished.length === 0) out('  no running or unfinished cycle');
    for (const c of unfinished) {
      const p = c.progress ?? (() => {
        const r = rows.find((x) => x.id === c.cycleId);
        return r ? { status: r.status, startedAt: r.started_at.toISOString(), queries: r.queries, attempts: Number(r.config.attempts ?? 1), rollouts: r.rollouts, judged: r.judged } : undefined;
      })();
      const progress = p ? `queries ${p.queries}, rollouts ${p.rollouts}/${p.queries * p.attempts}, judged ${p.judged}, started ${ago(p.startedAt)}` : 'no database row yet';
      out(`  ${c.cycleId.padEnd(10)} ${c.temporal.toLowerCase().padEnd(10)} ${progress}`);
    }
    if (unfinished.length > 0) {
      out(pollers
        ? `  workers polling ${queueNames(config.temporal.taskQueuePrefix).main}: ${pollers} — the running cycles are being worked on`
        : '  no worker is polling: `trajforge cycle` resumes these cycles (`--resume-only` to finish them without starting a new one)');
    }
  } finally {
    await connection?.close().catch(() => undefined);
    await db.end().catch(() => undefined);
  }
  if (live) out('a trajforge process owning these services is running');
}

function ownership(owner: { ownerPid: number; startedAt: string } | undefined): string {
  if (!owner) return 'no owner record (started by an older trajforge or by hand)';
  return processAlive(owner.ownerPid)
    ? `owned by running trajforge pid ${owner.ownerPid} (since ${ago(owner.startedAt)})`
    : `ORPHANED (its trajforge pid ${owner.ownerPid} is gone; the next run adopts it, \`trajforge stop\` stops it)`;
}

/**
 * `trajforge stop [--force]`: shuts this home's embedded Temporal dev server (history flushed to its SQLite
 * file) and Postgres (fast shutdown) down. Refuses while a live trajforge process owns them, unless --force.
 */
export async function stopCommand(config: AppConfig, args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { force: { type: 'boolean' } } });
  const pgDir = path.join(config.home, 'postgres');
  const t = config.temporal.address ? undefined : await temporalDevServerState(config.home, config.temporal.port ?? DEFAULT_TEMPORAL_PORT);
  const p = config.databaseUrl ? undefined : await embeddedPostgresState(pgDir);
  const owners = [t?.owner, p?.owner].filter((o) => o !== undefined && processAlive(o.ownerPid));
  if (owners.length > 0 && !values.force) {
    throw new Error(`services are in use by running trajforge pid ${owners.map((o) => o!.ownerPid).join(', ')}; stop that process first or pass --force`);
  }
  if (config.temporal.address) out(`temporal   external ${config.temporal.address}: left alone`);
  else if (await stopTemporalDevServer(config.home)) out(`temporal   stopped (pid ${t?.owner?.pid})`);
  else if (t?.answering) out(`temporal   ${t.address} answers but was not started by this home: left alone`);
  else out('temporal   not running');
  if (config.databaseUrl) out('postgres   external: left alone');
  else if (await stopEmbeddedPostgres(pgDir)) out(`postgres   stopped (pid ${p?.pid})`);
  else out('postgres   not running');
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
