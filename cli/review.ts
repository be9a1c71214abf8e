import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Pool } from 'pg';
import { ValidationError } from '../domain/errors.js';
import { MIN_PASSWORD_LENGTH, hashPassword } from '../review/passwords.js';
import { appendAudit, ReviewerName, ReviewRole, reviewStats, upsertReviewUser } from '../storage/review-queue-repo.js';
import type { AppConfig } from './config.js';

/**
 * `trajforge review serve [--port P] [--host H]`: the review web app until interrupted.
 * `trajforge review user add NAME --role reviewer|admin [--password-file F]`: create an account or reset its
 * password (read from the file, else from stdin; never echoed, never logged).
 * `trajforge review stats`: throughput per reviewer and agreement between reviewers.
 */
export const REVIEW_USAGE = `  trajforge review serve [--port P] [--host H]
                                 the review queue web app (default 127.0.0.1:8400) until interrupted
  trajforge review user add NAME --role reviewer|admin [--password-file F]
                                 create a reviewer account or reset its password (stdin when no file)
  trajforge review stats         decisions per reviewer, throughput, and agreement where two reviewers decided`;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/** The configured secret, else one generated once and kept (mode 0600) in $TRAJFORGE_HOME so sessions outlive restarts. */
async function sessionSecret(config: AppConfig): Promise<string> {
  if (config.review.sessionSecret) return config.review.sessionSecret;
  const file = resolve(config.home, 'review-session-secret');
  try {
    const s = (await readFile(file, 'utf8')).trim();
    if (s.length >= 32) return s;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  await mkdir(config.home, { recursive: true });
  const s = randomBytes(32).toString('base64url');
  await writeFile(file, `${s}\n`, { mode: 0o600 });
  return s;
}

async function readPassword(file: string | undefined): Promise<string> {
  if (file !== undefined) return (await readFile(file, 'utf8')).replace(/\r?\n$/, '');
  if (process.stdin.isTTY) process.stderr.write('password (input hidden is not supported; pipe it or use --password-file): ');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Creates or resets an account; returns whether it was new. Exported for tests and the benchmark. */
export async function addReviewUser(db: Pool, name: string, role: string, password: string): Promise<{ created: boolean }> {
  const n = ReviewerName.safeParse(name);
  if (!n.success) throw new ValidationError(n.error.issues[0]!.message, 'NAME', 'command line');
  const r = ReviewRole.safeParse(role);
  if (!r.success) throw new ValidationError('must be reviewer or admin', '--role', 'command line');
  if (password.length < MIN_PASSWORD_LENGTH) throw new ValidationError(`at least ${MIN_PASSWORD_LENGTH} characters`, 'password', 'command line');
  const result = await upsertReviewUser(db, { name: n.data, role: r.data, passwordHash: await hashPassword(password) });
  await appendAudit(db, { reviewer: 'cli', action: 'user_add', details: { name: n.data, role: r.data, created: result.created } });
  return result;
}

/** `review stats` as lines (exported for tests). */
export async function reviewStatsLines(db: Pool): Promise<string[]> {
  const s = await reviewStats(db);
  const lines = ['reviewer            decisions  rollouts  accepted  skips  per hour  median s/item'];
  for (const r of s.reviewers) {
    lines.push(
      `${r.reviewer.padEnd(20)}${String(r.decisions).padStart(9)}${String(r.rollouts).padStart(10)}${String(r.accepted).padStart(10)}${String(r.skips).padStart(7)}${(r.perHour === null ? '–' : r.perHour.toFixed(0)).padStart(10)}${(r.medianSeconds === null ? '–' : r.medianSeconds.toFixed(1)).padStart(15)}`,
    );
  }
  if (s.reviewers.length === 0) lines.push('(no decisions yet)');
  const a = s.agreement;
  lines.push(a.rate === null ? 'agreement: no item has verdicts of two reviewers yet' : `agreement: ${(100 * a.rate).toFixed(1)}% (${a.agreeingPairs}/${a.pairs} reviewer pairs on ${a.items} items)`);
  const c = s.checker;
  lines.push(
    c.rollouts === 0
      ? 'reviewers vs checkers: no reviewed rollout has a checker label'
      : `reviewers vs checkers: ${(100 * (c.agreeing / c.rollouts)).toFixed(1)}% (${c.agreeing}/${c.rollouts} reviewed rollouts with a checker label)`,
  );
  return lines;
}

export async function reviewCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { loadConfig } = await import('./config.js');
  const { withDatabase } = await import('./database.js');
  const config = loadConfig();
  if (sub === 'user' && rest[0] === 'add') {
    const { values, positionals } = parseArgs({ args: rest.slice(1), allowPositionals: true, options: { role: { type: 'string' }, 'password-file': { type: 'string' } } });
    const name = positionals[0];
    if (!name || !values.role) throw new Error(`usage:\n${REVIEW_USAGE}`);
    const password = await readPassword(values['password-file']);
    await withDatabase(config, async (db) => {
      const r = await addReviewUser(db, name, values.role!, password);
      out(`trajforge: review user ${name} (${values.role}) ${r.created ? 'created' : 'updated (password reset)'}`);
    });
    return;
  }
  if (sub === 'stats') {
    await withDatabase(config, async (db) => {
      for (const l of await reviewStatsLines(db)) out(l);
    });
    return;
  }
  if (sub === 'serve') {
    const { values } = parseArgs({ args: rest, options: { port: { type: 'string' }, host: { type: 'string' } } });
    const port = Number(values.port ?? 8400);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ValidationError('must be a port number', '--port', 'command line');
    const { createBlobStore } = await import('../storage/blob.js');
    const { buildReviewServer } = await import('../review/server.js');
    const secret = await sessionSecret(config);
    await withDatabase(config, async (db) => {
      const { app } = await buildReviewServer({
        db,
        blobs: createBlobStore(config.blob),
        sessionSecret: secret,
        secureCookies: config.review.secureCookies,
        trustProxy: config.review.trustProxy,
        reviewsPerItem: config.review.reviewsPerItem,
        claimTtlSeconds: config.review.claimTtlSeconds,
        logger: { level: 'info' },
      });
      const address = await app.listen({ port, host: values.host ?? '127.0.0.1' });
      out(`trajforge: review queue at ${address} (cookies secure: ${String(config.review.secureCookies)}; ${config.review.reviewsPerItem} review(s) per item)`);
      await new Promise<void>((done) => {
        const stop = (): void => void app.close().then(done);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
    return;
  }
  throw new Error(`usage:\n${REVIEW_USAGE}`);
}
