import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPolicyRequest, parsePolicyReply } from '../../agents/gui-owl.js';
import { loadConfig } from '../../cli/config.js';
import { REPO_ROOT } from '../../cli/services/paths.js';
import { CycleConfig, REFERENCE_MODEL_NAMES } from '../../domain/config.js';
import { AppDag } from '../../domain/dag.js';
import { Query } from '../../domain/entities.js';
import { ValidationError, parseOrThrow } from '../../domain/errors.js';
import { createChatModel, ModelError } from '../../models/gateway.js';
import { createOcrEngine } from '../../models/ocr.js';
import { referenceRoles } from '../../models/reference/roles.js';
import { startReferenceServer, type ReferenceServer } from '../../models/reference/server.js';
import { BlobKeyError, createLocalBlobStore } from '../../storage/blob.js';
import * as repo from '../../storage/repos.js';
import { CycleInput } from '../../workflows/contracts.js';
import { addReviewUser } from '../../cli/review.js';
import { buildReviewServer, type ReviewServer } from '../../review/server.js';
import { ReviewClient } from '../review/http-client.js';
import { seedReviewData } from '../review/seed.js';
import { CASES as POLICY_REPLY_CASES, SCREEN } from '../agents/malformed-replies.js';
import { testDatabase, type TestDatabase } from '../helpers/services.js';
import {
  BASE_QUERY,
  BLOB_KEY_CASES,
  CLI_CASES,
  CONFIG_CASES,
  DAG_CASES,
  DATASET_NAME_CASES,
  MODEL_REPLY_CASES,
  QUERY_CASES,
  REVIEW_ROUTE_CASES,
  SQL_STRINGS,
  WORKFLOW_CASES,
  imageCases,
} from './cases.js';

/**
 * The bad-input corpus (cases.ts), boundary by boundary: every case must fail with a typed error that names
 * the bad field, exit non-zero where it is a command, and leave nothing behind. Counts per boundary are
 * collected as the cases run and checked (≥ 200 in all) at the end.
 */
const counted = new Map<string, number>();
const count = (boundary: string, n = 1): void => void counted.set(boundary, (counted.get(boundary) ?? 0) + n);

/** The zod-style path string of a parseOrThrow failure, or its message. */
function fieldOf(err: unknown): string {
  if (err instanceof ValidationError) return `${err.field ?? '(root)'} ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

describe('bad inputs, per boundary', () => {
  describe('environment variables', () => {
    it.each(CONFIG_CASES)('$name', ({ input, field }) => {
      let err: unknown;
      try {
        loadConfig(input);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ValidationError);
      expect(fieldOf(err)).toContain(field);
      count('environment variables');
    });
  });

  describe('command lines (exit non-zero, name the field, start nothing)', () => {
    it('rejects every bad command line', async () => {
      // An unreachable database: a command that got past validation would fail differently (no field named).
      const env = { ...process.env, DATABASE_URL: 'postgres://nobody:x@127.0.0.1:9/none', TEMPORAL_ADDRESS: '127.0.0.1:9' };
      const runs = CLI_CASES.map(
        ({ input }) =>
          new Promise<{ code: number | null; stderr: string }>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...input], { cwd: REPO_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
            let stderr = '';
            child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
            child.once('exit', (code) => resolve({ code, stderr }));
          }),
      );
      const results = await Promise.all(runs);
      CLI_CASES.forEach(({ name, field }, i) => {
        expect(results[i]!.code, name).not.toBe(0);
        expect(results[i]!.stderr, name).toContain(field);
        expect(results[i]!.stderr, name).not.toMatch(/ECONNREFUSED|at async/); // validation, not a crash on the way
        count('command lines');
      });
    }, 120_000);
  });

  describe('app DAG files', () => {
    it.each(DAG_CASES)('$name', ({ input, field }) => {
      expect(() => parseOrThrow(AppDag, input, 'dag file')).toThrow(ValidationError);
      try {
        parseOrThrow(AppDag, input, 'dag file');
      } catch (e) {
        expect(fieldOf(e)).toContain(field);
      }
      count('app DAG files');
    });
  });

  describe('query specs', () => {
    it('accepts the base query (the cases differ from it in one field)', () => {
      expect(Query.safeParse(BASE_QUERY).success).toBe(true);
    });
    it.each(QUERY_CASES)('$name', ({ input, field }) => {
      const r = Query.safeParse(input);
      expect(r.success).toBe(false);
      expect(r.error!.issues.map((i) => i.path.join('.') || '(root)').join(' ')).toContain(field);
      count('query specs');
    });
  });

  describe('workflow inputs', () => {
    it.each(WORKFLOW_CASES)('$name', ({ input, field }) => {
      const r = CycleInput.safeParse(input);
      expect(r.success).toBe(false);
      expect(r.error!.issues.map((i) => i.path.join('.') || '(root)').join(' ')).toContain(field);
      count('workflow inputs');
    });
  });

  describe('dataset names', () => {
    it.each(DATASET_NAME_CASES)('$name', ({ input, field }) => {
      expect(() => parseOrThrow(CycleConfig, { datasetName: input }, 'config')).toThrow(field);
      count('dataset names');
    });
  });

  describe('blob keys (nothing written anywhere)', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'trajforge-badkeys-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    it.each(BLOB_KEY_CASES)('$name', async ({ input }) => {
      const store = createLocalBlobStore(path.join(dir, 'store'));
      await expect(store.putAt(input, new Uint8Array([1, 2, 3]))).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.get(input)).rejects.toBeInstanceOf(BlobKeyError);
      await expect(store.has(input)).rejects.toBeInstanceOf(BlobKeyError);
      // Nothing escaped the store, nothing partial inside it.
      expect(await readdir(dir, { recursive: true })).toEqual(expect.not.arrayContaining([expect.stringMatching(/[^/]/)]));
      count('blob keys', 3);
    });
  });

  describe('model replies', () => {
    let server: Server;
    let baseUrl: string;
    beforeAll(async () => {
      server = createServer((req, res) => {
        const c = MODEL_REPLY_CASES[Number(new URL(req.url ?? '/', 'http://x').pathname.split('/')[1])]!;
        req.resume();
        res.writeHead(c.input.status, { 'content-type': c.input.contentType ?? 'application/json' }).end(c.input.body);
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it.each(MODEL_REPLY_CASES.map((c, i) => ({ ...c, i })))('endpoint answers: $name', async ({ i, field }) => {
      const model = createChatModel({ baseUrl: `${baseUrl}/${i}/v1`, model: 'm', maxRetries: 0, retryBaseMs: 0 }, { cache: false });
      const err = await model.complete({ messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(ModelError);
      expect((err as ModelError).message).toContain(field);
      count('model replies (HTTP)');
    });

    it('every malformed policy reply of the shared corpus becomes a typed step error naming its field', () => {
      const bad = POLICY_REPLY_CASES.filter((c) => !c.expect.ok);
      for (const c of bad) {
        const r = parsePolicyReply(c.message, 'mobile', SCREEN).result;
        const e = c.expect as { ok: false; kind: string; field?: string };
        expect(r.ok, c.name).toBe(false);
        if (!r.ok) {
          expect(r.error.kind, c.name).toBe(e.kind);
          if (e.field) expect(r.error.field, c.name).toBe(e.field);
        }
      }
      count('model replies (policy parser)', bad.length);
    });
  });

  describe('images sent to a model endpoint', () => {
    let reference: ReferenceServer;
    let valid: Buffer;
    beforeAll(async () => {
      reference = await startReferenceServer({ host: '127.0.0.1', roles: referenceRoles(), ocr: await createOcrEngine() });
      valid = await sharp({ create: { width: 64, height: 128, channels: 3, background: '#ffffff' } }).png().toBuffer();
    }, 120_000);
    afterAll(() => reference?.close());

    it('answers 400 naming the field, never 500, for every bad screenshot', async () => {
      for (const { name, input, field } of imageCases(valid)) {
        const request = buildPolicyRequest({ instruction: 'Open settings', history: [], screenshots: [{ dataUrl: input }], screen: { width: 64, height: 128 } });
        const res = await fetch(`${reference.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...request, model: REFERENCE_MODEL_NAMES.policy }),
        });
        const body = (await res.json()) as { error?: { param?: string; message?: string } };
        expect(res.status, `${name}: ${body.error?.message}`).toBe(400);
        expect(body.error?.param, name).toBe(field);
        count('images');
      }
    }, 120_000);
  });

  describe('SQL-looking strings in text fields (stored verbatim, never executed)', () => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await testDatabase();
    });
    afterAll(() => db?.drop());

    it('round-trips every string through every text field of a query and a cycle; the schema is intact', async () => {
      const tablesBefore = (await db.pool.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).rows[0].n as number;
      for (const [i, s] of SQL_STRINGS.entries()) {
        const cycleId = `cycle-${i + 1}`;
        await repo.upsertCycle(db.pool, { id: cycleId, config: { note: s }, configHash: s, modelVersion: s, criticVersion: s });
        const query = {
          ...BASE_QUERY,
          id: `q-sql-${i}`,
          app: s,
          dagVersion: s,
          family: s,
          instruction: s,
          rawInstruction: s,
          path: [s],
          slots: { [s]: s },
          checker: { app: s, family: s, params: { [s]: s } },
          sampler: s,
        };
        await repo.upsertQueries(db.pool, cycleId, [query]);
        const back = await repo.getQuery(db.pool, query.id);
        expect(back).toMatchObject({ app: s, dagVersion: s, family: s, instruction: s, rawInstruction: s, path: [s], slots: { [s]: s }, sampler: s });
        const cycle = await repo.getCycle(db.pool, cycleId);
        expect(cycle).toMatchObject({ configHash: s, modelVersion: s, criticVersion: s });
        count('SQL-looking text', 13); // 13 text fields per string
      }
      const tablesAfter = (await db.pool.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).rows[0].n as number;
      expect(tablesAfter).toBe(tablesBefore);
      expect((await db.pool.query(`select count(*)::int as n from queries`)).rows[0].n).toBe(SQL_STRINGS.length);
    }, 60_000);
  });

  describe('review server routes (typed 4xx naming the field, nothing written)', () => {
    let rdb: TestDatabase;
    let dir: string;
    let server: ReviewServer | undefined;
    let client: ReviewClient;
    let rolloutId: string;
    beforeAll(async () => {
      rdb = await testDatabase();
      dir = await mkdtemp(path.join(tmpdir(), 'trajforge-bad-review-'));
      const blobs = createLocalBlobStore(path.join(dir, 'blobs'));
      const seeded = await seedReviewData(rdb.pool, blobs, { cycleId: 'cycle-1', criticVersion: 'critic@1', rollouts: 2, steps: 3 });
      rolloutId = seeded.rolloutIds[0]!;
      await addReviewUser(rdb.pool, 'root', 'admin', 'correct horse battery');
      server = await buildReviewServer({ db: rdb.pool, blobs, sessionSecret: 's'.repeat(40), secureCookies: false });
      client = new ReviewClient(await server.app.listen({ port: 0, host: '127.0.0.1' }));
      expect((await client.login('root', 'correct horse battery')).status).toBe(303);
    }, 60_000);
    afterAll(async () => {
      await server?.app.close();
      await rdb?.drop();
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    /** Everything a review route may write, as one comparable string. */
    const written = async (): Promise<string> => {
      const q = async (sql: string): Promise<unknown> => (await rdb.pool.query(sql)).rows;
      return JSON.stringify([
        await q(`select rollout_id, reviewer, verdict, steps, note from review_verdicts order by 1, 2`),
        await q(`select count(*)::int as n from review_audit`),
        await q(`select rollout_id, reviewer from review_claims order by 1`),
        await q(`select rollout_id, kind, status, reviewer_verdict from review_candidates order by 1, 2`),
        await q(`select count(*)::int as n from rollouts`),
        await q(`select count(*)::int as n from pg_tables where schemaname = 'public'`),
      ]);
    };

    it.each(REVIEW_ROUTE_CASES.map((c) => ({ ...c })))('$name', async ({ input, field }) => {
      const before = await written();
      const path = input.path.replace('ROLLOUT', encodeURIComponent(rolloutId));
      const form = input.form ? Object.fromEntries(Object.entries(input.form).map(([k, v]) => [k, v === 'ROLLOUT' ? rolloutId : v])) : undefined;
      const token = input.method === 'POST' ? await client.csrf('/queue') : undefined;
      const res = await client.request(input.method, path, form ? { ...form, _csrf: token! } : input.method === 'POST' ? { _csrf: token! } : undefined);
      const body = await res.text();
      expect(res.status, body).toBe(input.status);
      expect(body).toContain(field);
      expect(await written()).toBe(before);
      count('review server routes');
    });
  });

  afterAll(() => {
    const total = [...counted.values()].reduce((a, b) => a + b, 0);
    const table = [...counted.entries()].map(([k, v]) => `  ${k.padEnd(32)} ${v}`).join('\n');
    process.stdout.write(`bad-input corpus: ${total} cases\n${table}\n`);
    // Only a full run of this file sees every boundary; a filtered run (-t) checks its own cases only.
    if (counted.size >= 10) expect(total).toBeGreaterThanOrEqual(200);
  });
});
