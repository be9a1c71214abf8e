import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { REPO_ROOT } from '../../cli/services/paths.js';
import { createOcrEngine } from '../../models/ocr.js';
import { referenceRoles } from '../../models/reference/roles.js';
import { startReferenceServer, type ReferenceServer } from '../../models/reference/server.js';

/**
 * Secrets stay secret: a whole cycle run by the CLI with a fake model API key (sent to a model endpoint
 * that insists on it) and a database password of its own; afterwards neither appears — plain or base64 —
 * in the job's output, the home's files (blobs: screenshots, stored model requests/responses, exported
 * datasets, logs), any database row, or any Temporal payload of the namespace.
 */
describe('secrets never leak', () => {
  const apiKey = `sk-fake-${randomBytes(12).toString('hex')}`;
  const dbPassword = `pw-${randomBytes(12).toString('hex')}`;
  const role = `u_${randomBytes(4).toString('hex')}`;
  const database = `secrets_${randomBytes(4).toString('hex')}`;
  const namespace = `secrets-${randomBytes(4).toString('hex')}`;
  let home: string | undefined;
  let reference: ReferenceServer | undefined;
  let proxy: Server | undefined;
  let admin: pg.Client | undefined;

  afterAll(async () => {
    await new Promise((r) => (proxy ? proxy.close(r) : r(undefined)));
    await reference?.close();
    if (admin) {
      await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
      await admin.query(`drop role if exists ${role}`).catch(() => undefined);
      await admin.end();
    }
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('keeps the API key and the database password out of logs, blobs, exports, rows and Temporal payloads', async () => {
    // A database owned by a role with its own password.
    admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
    await admin.connect();
    await admin.query(`create role ${role} login password '${dbPassword}'`);
    await admin.query(`create database ${database} owner ${role}`);
    const adminUrl = new URL(inject('pgAdminUrl'));
    const databaseUrl = `postgres://${role}:${dbPassword}@${adminUrl.host}/${database}`;

    // A namespace of its own, so the CLI's plain `cycle-1` id meets no other test's workflows.
    const connection = await Connection.connect({ address: inject('temporalAddress') });
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    const client = new Client({ connection, namespace });
    for (const deadline = Date.now() + 30_000; ; ) {
      try {
        await client.workflow.count(`WorkflowType = 'productionCycle'`);
        break;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 250)); // the new namespace reaches the frontend's cache
      }
    }

    // The model endpoint: the reference server behind a proxy that refuses requests without the key.
    reference = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr: await createOcrEngine() });
    const upstream = new URL(reference.baseUrl);
    let authorised = 0;
    proxy = createServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
        return;
      }
      authorised++;
      const fwd = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.on('error', () => res.destroy());
      req.pipe(fwd);
    });
    await new Promise<void>((r) => proxy!.listen(0, '127.0.0.1', r));
    const proxyPort = (proxy.address() as { port: number }).port;

    home = await mkdtemp(path.join(REPO_ROOT, '.trajforge', 'test-secrets-'));
    await chmod(home, 0o755);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TRAJFORGE_HOME: home,
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_NAMESPACE: namespace,
      TRAJFORGE_TASK_QUEUE_PREFIX: `s-${randomBytes(4).toString('hex')}`,
      TRAJFORGE_MODEL_BASE_URL: `http://127.0.0.1:${proxyPort}/v1`,
      TRAJFORGE_MODEL_API_KEY: apiKey,
      TRAJFORGE_ENV_SESSIONS: '1',
    };
    delete env.BLOB_STORE;
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'cycle', '--queries', '1', '--attempts', '1', '--max-steps', '3', '--apps', 'food'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code, output).toBe(0);
    expect(output).toContain('trajforge: cycle-1 done');
    expect(authorised).toBeGreaterThan(0); // the key was really in use

    const secrets = [apiKey, dbPassword];
    const forms = secrets.flatMap((s) => [s, Buffer.from(s).toString('base64').slice(0, 16)]);
    const leaks = (where: string, text: string): string[] => forms.filter((f) => text.includes(f)).map((f) => `${where}: ${f}`);
    const found: string[] = [];

    found.push(...leaks('job output', output));

    // Every file of the home: blobs (screenshots, UI trees, model requests/responses, datasets), logs.
    const files = (await readdir(home, { recursive: true, withFileTypes: true })).filter((d) => d.isFile());
    expect(files.length).toBeGreaterThan(5);
    let modelCalls = 0;
    for (const f of files) {
      const p = path.join(f.parentPath, f.name);
      const text = (await readFile(p)).toString('latin1');
      if (f.name.endsWith('.json') && text.includes('"request"') && text.includes('"messages"')) modelCalls++;
      found.push(...leaks(path.relative(home, p), text));
    }
    expect(modelCalls, 'stored model requests').toBeGreaterThan(0);

    // Every row of every table.
    const tables = await admin.query<{ t: string }>(`select tablename as t from pg_tables where schemaname = 'public'`);
    const app = new pg.Client({ connectionString: databaseUrl });
    await app.connect();
    try {
      for (const { t } of tables.rows) {
        const rows = await app.query<{ r: string }>(`select x::text as r from ${app.escapeIdentifier(t)} x`).catch(() => ({ rows: [] as { r: string }[] }));
        found.push(...leaks(`table ${t}`, rows.rows.map((r) => r.r).join('\n')));
      }
    } finally {
      await app.end();
    }

    // Every Temporal payload of every workflow of the namespace (decoded from base64).
    let histories = 0;
    for await (const w of client.workflow.list()) {
      const json = JSON.stringify(await client.workflow.getHandle(w.workflowId, w.runId).fetchHistory());
      const decoded = (json.match(/"data":"([A-Za-z0-9+/=]+)"/g) ?? []).map((m) => Buffer.from(m.slice(8, -1), 'base64').toString('utf8')).join('\n');
      found.push(...leaks(`history ${w.workflowId}`, json + decoded));
      histories++;
    }
    expect(histories).toBeGreaterThanOrEqual(4);
    await connection.close();
    expect(found).toEqual([]);
  }, 300_000);
});
