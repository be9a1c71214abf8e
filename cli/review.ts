import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Pool } from 'pg';
import { z } from 'zod';
import { splitOf } from '../critics/calibration.js';
import { features, featureInputOf } from '../critics/learned-critic.js';
import { ValidationError } from '../domain/errors.js';
import type { BlobStore, OcrEngine } from '../domain/ports.js';
import { many } from '../storage/db.js';
import * as repo from '../storage/repos.js';
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
  trajforge review stats         decisions per reviewer, throughput, and agreement where two reviewers decided
  trajforge review dump-features --out FILE [--cycle ID]
                                 learned-critic training lines (bench/train-learned-critic.ts --data) for every judged
                                 rollout with a label: the checker's, else the reviewers' verdict`;

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
  // A terminal would echo what is typed: refuse rather than show the password on screen.
  if (process.stdin.isTTY) throw new ValidationError('pipe the password on stdin or use --password-file (a terminal would echo it)', 'password', 'command line');
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

/** One training line in bench/critics.ts `--dump`'s format, plus where its label came from. */
export interface FeatureLine {
  rolloutId: string;
  queryId: string;
  app: string;
  split: 'validation' | 'report';
  groundTruth: boolean;
  labelSource: 'checker' | 'human';
  /** The reviewers' verdict where a checker label exists too. */
  humanLabel?: boolean;
  features: number[];
}

/**
 * Learned-critic features of every non-degraded rollout judged under its cycle's critic version that has a label —
 * the checker's ground truth, else the reviewers' verdict (any rejection wins) — computed from stored verdicts
 * exactly as judgeTrajectory feeds the learned channel (final caption = OCR of the last distinct screen).
 */
export async function reviewFeatureLines(db: Pool, blobs: BlobStore, ocr: OcrEngine, cycleId?: string): Promise<FeatureLine[]> {
  const rows = await many(
    db,
    `select r.id, c.critic_version, r.ground_truth, h.verdict as human
     from rollouts r join cycles c on c.id = r.cycle_id
     left join lateral (select bool_and(v.verdict) as verdict from review_verdicts v where v.rollout_id = r.id having count(*) > 0) h on true
     where not r.degraded and ($1::text is null or r.cycle_id = $1) and (r.ground_truth is not null or h.verdict is not null)
       and exists (select 1 from trajectory_verdicts t where t.rollout_id = r.id and t.critic_version = c.critic_version)
     order by r.id`,
    [cycleId ?? null],
    z.object({ id: z.string(), critic_version: z.string(), ground_truth: z.boolean().nullable(), human: z.boolean().nullable() }),
  );
  const out: FeatureLine[] = [];
  for (const row of rows) {
    const rollout = (await repo.getRollout(db, row.id))!;
    const query = await repo.getQuery(db, rollout.queryId);
    if (!query) continue;
    const steps = await repo.listStepVerdicts(db, row.id, row.critic_version);
    const channels = await repo.listTrajectoryVerdicts(db, row.id, row.critic_version);
    const screens = [rollout.steps[0]?.before, ...rollout.steps.map((s) => s.after)].filter((o) => o !== undefined);
    const lastKey = [...new Set(screens.map((o) => o.screenshotKey))].at(-1);
    const finalCaption = lastKey ? (await ocr.recognize(await blobs.get(lastKey))).map((l) => l.text).join(' | ') : '';
    const votes = (v: unknown): boolean[] => (Array.isArray(v) ? v.filter((x): x is boolean => typeof x === 'boolean') : []);
    const label = row.ground_truth ?? row.human!;
    out.push({
      rolloutId: row.id,
      queryId: query.id,
      app: query.app,
      split: splitOf(query.id),
      groundTruth: label,
      labelSource: row.ground_truth !== null ? 'checker' : 'human',
      ...(row.ground_truth !== null && row.human !== null ? { humanLabel: row.human } : {}),
      features: features(
        featureInputOf({
          instruction: query.instruction,
          outcome: rollout.outcome,
          annotations: steps.map((s) => s.annotation),
          channels: channels.filter((c) => c.channel === 'text' || c.channel === 'multimodal').map((c) => ({ channel: c.channel, votes: votes(c.votes) })),
          captions: [finalCaption],
        }),
      ),
    });
  }
  return out;
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
  if (sub === 'dump-features') {
    const { values } = parseArgs({ args: rest, options: { out: { type: 'string' }, cycle: { type: 'string' } } });
    if (!values.out) throw new ValidationError('required (a JSONL file to write)', '--out', 'command line');
    const { createBlobStore } = await import('../storage/blob.js');
    const { blobOcrStore, createOcrEngine } = await import('../models/ocr.js');
    const blobs = createBlobStore(config.blob);
    const ocr = await createOcrEngine({ store: blobOcrStore(blobs) });
    await withDatabase(config, async (db) => {
      const lines = await reviewFeatureLines(db, blobs, ocr, values.cycle);
      await writeFile(values.out!, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
      const human = lines.filter((l) => l.labelSource === 'human').length;
      out(`trajforge: ${lines.length} labelled rollouts written to ${values.out} (${lines.length - human} checker labels, ${human} reviewer labels)`);
    });
    return;
  }
  if (sub === 'serve') {
    const { values } = parseArgs({ args: rest, options: { port: { type: 'string' }, host: { type: 'string' } } });
    const port = Number(values.port ?? 8400);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ValidationError('must be a port number', '--port', 'command line');
    const { createBlobStore } = await import('../storage/blob.js');
    const { buildReviewServer } = await import('../review/server.js');
    const { blobOcrStore, createOcrEngine } = await import('../models/ocr.js');
    const secret = await sessionSecret(config);
    const blobs = createBlobStore(config.blob);
    await withDatabase(config, async (db) => {
      const { app } = await buildReviewServer({
        db,
        blobs,
        // The critics' OCR store: screens they already read are masked without running OCR again.
        ocr: await createOcrEngine({ store: blobOcrStore(blobs) }),
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
