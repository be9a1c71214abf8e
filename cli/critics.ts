import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { calibrate, fmtRatio, formatEntries, selectRule, type CalibrationEntry } from '../critics/calibration.js';
import { createPool } from '../storage/db.js';
import { migrate } from '../storage/migrate.js';
import { listCalibration, listCalibrationRows } from '../storage/calibration-repo.js';
import { latestCycleNumber } from '../storage/repos.js';
import { loadConfig } from './config.js';
import { startEmbeddedPostgres } from './services/postgres.js';

/** `trajforge critics report [--cycle ID] [--critic-version V]`: critic calibration tables (critics/calibration.ts). */

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

export const CRITICS_USAGE = `  trajforge critics report [--cycle ID] [--critic-version V] [--precision-target 0.97]
                                 critic precision/recall/NPV/F1 vs checker ground truth, per app × channel × split`;

export async function criticsCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'report') {
    out(`Usage:\n${CRITICS_USAGE}`);
    if (sub !== undefined && sub !== 'help' && sub !== '--help') process.exitCode = 2;
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: { cycle: { type: 'string' }, 'critic-version': { type: 'string' }, 'precision-target': { type: 'string', default: '0.97' } },
  });
  const config = loadConfig();
  const pg = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dataDir: resolve(config.home, 'postgres') });
  const pool = createPool(config.databaseUrl ?? pg!.url);
  try {
    await migrate(pool);
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
        `  rule chosen on validation (max recall s.t. precision ≥ ${s.precisionTarget}): votes ${s.rule.voteRule}, consensus ${s.rule.consensus}` +
          `${s.meetsTarget ? '' : ' (target not met: most precise rule)'}; validation P ${fmtRatio(s.validation.precision).trim()}% R ${fmtRatio(s.validation.recall).trim()}% (n ${s.validation.n});` +
          ` report split P ${fmtRatio(s.report.precision).trim()}% R ${fmtRatio(s.report.recall).trim()}% (n ${s.report.n})`,
      );
    }
  } finally {
    await pool.end();
    await pg?.stop();
  }
}
