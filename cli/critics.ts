import { parseArgs } from 'node:util';
import { calibrate, describeRule, fmtRatio, formatEntries, selectRule, type CalibrationEntry } from '../critics/calibration.js';
import { listCalibration, listCalibrationRows } from '../storage/calibration-repo.js';
import { latestCycleNumber } from '../storage/repos.js';
import { countReviewCandidates, listReviewCandidates, type StoredReviewCandidate } from '../storage/review-repo.js';
import type { Queryable } from '../storage/db.js';
import { loadConfig } from './config.js';
import { withDatabase } from './database.js';

/**
 * `trajforge critics report [--cycle ID] [--critic-version V]`: critic calibration tables (critics/calibration.ts)
 * and the cycle's review candidates per reason (critics/review.ts);
 * `trajforge critics review-candidates [--cycle ID] [--limit N] [--status open|resolved|dismissed|all]`: the queue.
 */

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

export const CRITICS_USAGE = `  trajforge critics report [--cycle ID] [--critic-version V] [--precision-target 0.97]
                                 critic precision/recall/NPV/F1 vs checker ground truth, per app × channel × split,
                                 and review-candidate counts per reason with the top candidates
  trajforge critics review-candidates [--cycle ID] [--limit N] [--status open|resolved|dismissed|all]
                                 disagreements queued for human review, highest priority first (default: open, 20)`;

const REVIEW_STATUSES = ['open', 'resolved', 'dismissed', 'all'] as const;

function candidateLines(c: StoredReviewCandidate): string[] {
  const verdict = c.accepted ? 'accepted' : 'rejected';
  const reviewed = c.status === 'open' ? '' : ` [${c.status}${c.reviewerVerdict === null ? '' : `: reviewer says ${c.reviewerVerdict ? 'Correct' : 'Incorrect'}`}]`;
  return [
    `${c.priority.toFixed(1).padStart(5)}  ${c.kind.padEnd(27)} ${verdict.padEnd(8)} ${c.rolloutId}${reviewed}`,
    `       ${c.reason}`,
    `       ${c.app ?? '?'}: ${c.instruction ?? `(query ${c.queryId})`}  (critic ${c.criticVersion})`,
  ];
}

async function printReviewSummary(db: Queryable, cycleId: string, criticVersion: string | undefined, top = 5): Promise<void> {
  const counts = await countReviewCandidates(db, { cycleId, criticVersion });
  out();
  if (counts.length === 0) {
    out(`review candidates: none for ${cycleId}`);
    return;
  }
  out(`review candidates (${cycleId}): ${counts.reduce((n, c) => n + c.total, 0)} in all`);
  out(`  ${'reason'.padEnd(27)} ${'total'.padStart(5)} ${'open'.padStart(5)} ${'on accepted'.padStart(11)}`);
  for (const c of counts) out(`  ${c.kind.padEnd(27)} ${String(c.total).padStart(5)} ${String(c.open).padStart(5)} ${String(c.accepted).padStart(11)}`);
  const best = await listReviewCandidates(db, { cycleId, criticVersion, status: 'open', limit: top });
  if (best.length === 0) return;
  out(`  top ${best.length} open (priority, reason, verdict, rollout):`);
  for (const c of best) for (const line of candidateLines(c)) out(`  ${line}`);
}


async function reviewCandidatesCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { cycle: { type: 'string' }, limit: { type: 'string', default: '20' }, status: { type: 'string', default: 'open' }, 'critic-version': { type: 'string' } },
  });
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`--limit must be a positive integer, got ${values.limit}`);
  const status = values.status as (typeof REVIEW_STATUSES)[number];
  if (!REVIEW_STATUSES.includes(status)) throw new Error(`--status must be one of ${REVIEW_STATUSES.join(', ')}, got ${values.status}`);
  await withDatabase(loadConfig(), async (db) => {
    const rows = await listReviewCandidates(db, {
      cycleId: values.cycle,
      criticVersion: values['critic-version'],
      ...(status === 'all' ? {} : { status }),
      limit,
    });
    const where = `${values.cycle ?? 'all cycles'}${status === 'all' ? '' : `, ${status}`}`;
    if (rows.length === 0) {
      out(`no review candidates (${where})`);
      return;
    }
    out(`review candidates (${where}), highest priority first — ${rows.length} shown (--limit ${limit}):`);
    for (const c of rows) for (const line of candidateLines(c)) out(line);
  });
}

export async function criticsCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'review-candidates') return reviewCandidatesCommand(rest);
  if (sub !== 'report') {
    out(`Usage:\n${CRITICS_USAGE}`);
    if (sub !== undefined && sub !== 'help' && sub !== '--help') process.exitCode = 2;
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: { cycle: { type: 'string' }, 'critic-version': { type: 'string' }, 'precision-target': { type: 'string', default: '0.97' } },
  });
  await withDatabase(loadConfig(), async (pool) => {
    const cycleId = values.cycle ?? `cycle-${await latestCycleNumber(pool)}`;
    const criticVersion = values['critic-version'];
    const stored = await listCalibration(pool, { cycleId, criticVersion });
    const rows = await listCalibrationRows(pool, cycleId, criticVersion);
    let entries: CalibrationEntry[] = stored;
    if (stored.length === 0) {
      entries = calibrate(rows);
      out(`${cycleId}: no stored calibration; computed from ${rows.length} judged, labelled rollouts (not stored)`);
    } else out(`${cycleId}: stored calibration (computed ${stored[0]!.computedAt})`);
    if (entries.length === 0) {
      out('  nothing to report: no non-degraded rollout with ground truth and trajectory verdicts');
      await printReviewSummary(pool, cycleId, criticVersion);
      return;
    }
    const versions = [...new Set(entries.map((e) => e.criticVersion))];
    for (const v of versions) {
      out();
      out(`critic version ${v}`);
      for (const line of formatEntries(entries.filter((e) => e.criticVersion === v))) out(`  ${line}`);
      const vRows = rows.filter((r) => r.criticVersion === v);
      if (vRows.length === 0) continue;
      const s = selectRule(vRows, { precisionTarget: Number(values['precision-target']) });
      out(
        `  rule chosen on validation (max recall s.t. precision ≥ ${s.precisionTarget}): ${describeRule(s.rule)}` +
          `${s.meetsTarget ? '' : ' (target not met: most precise rule)'}; validation P ${fmtRatio(s.validation.precision).trim()}% R ${fmtRatio(s.validation.recall).trim()}% (n ${s.validation.n});` +
          ` report split P ${fmtRatio(s.report.precision).trim()}% R ${fmtRatio(s.report.recall).trim()}% (n ${s.report.n})`,
      );
    }
    await printReviewSummary(pool, cycleId, criticVersion);
  });
}
