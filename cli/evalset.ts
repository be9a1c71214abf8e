import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { canonicalJson } from '../domain/config.js';
import type { Query } from '../domain/entities.js';
import { ValidationError } from '../domain/errors.js';
import { loadDags } from '../environments/app-world.js';
import { inProcessModel } from '../models/reference/in-process.js';
import { queryRefineRole, querySynthRole } from '../models/reference/roles/query.js';
import { generateQueryBatch } from '../query-gen/pipeline.js';
import type { Queryable } from '../storage/db.js';
import { freezeEvalSet, getEvalSet, listEvalSets } from '../storage/query-stats-repo.js';
import { getCycle, listCycleQueries } from '../storage/repos.js';
import { loadConfig } from './config.js';

export const EVALSET_USAGE = `  trajforge evalset freeze --name N [--count K] [--seed S] [--apps food,shop] [--from-cycle ID]
                                 freeze an evaluation query set: K queries generated with the reference query models
                                 (seed S), or a cycle's queries; no training export may contain them (contamination guard)
  trajforge evalset list         frozen eval sets with their sizes
  trajforge evalset show N       one eval set: spec, fingerprint and its queries`;

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

/**
 * Default seed of generated eval sets: far from the cycles' seeds (7, 1, 2, 3 …), so an eval set is not the next
 * cycle's queries by construction (the guard would catch them anyway, at the cost of that cycle's data).
 */
export const EVALSET_DEFAULT_SEED = 1_000_003;

/** Fingerprint of an eval set: its queries' ids and instructions (order-independent). */
export function evalSetFingerprint(queries: readonly Query[]): string {
  const items = [...queries].map((q) => [q.id, q.instruction]).sort(([a], [b]) => String(a).localeCompare(String(b)));
  return createHash('sha256').update(canonicalJson(items)).digest('hex');
}

export interface FreezeOptions {
  name: string;
  count?: number;
  seed?: number;
  apps?: readonly string[];
  fromCycle?: string;
}

/**
 * Builds and freezes an eval set. Generated sets use the same pipeline as `trajforge queries generate` (families
 * sampler, reference synth/refine models, dedup); `fromCycle` takes that cycle's queries (the first `count` by id
 * when a count is given). Freezing the same name with the same queries again is a no-op; other queries under an
 * existing name are refused.
 */
export async function freezeEvalSetCommand(db: Queryable, opts: FreezeOptions): Promise<{ created: boolean; queries: Query[]; fingerprint: string; spec: Record<string, unknown> }> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(opts.name)) throw new ValidationError('must be 1–64 letters, digits, dot, dash or underscore', '--name', 'command line');
  if (opts.count !== undefined && (!Number.isInteger(opts.count) || opts.count < 1)) throw new ValidationError('must be a positive integer', '--count', 'command line');
  if (opts.seed !== undefined && !Number.isInteger(opts.seed)) throw new ValidationError('must be an integer', '--seed', 'command line');
  let queries: Query[];
  let spec: Record<string, unknown>;
  if (opts.fromCycle) {
    if (!(await getCycle(db, opts.fromCycle))) throw new ValidationError(`no cycle "${opts.fromCycle}"`, '--from-cycle', 'command line');
    let all = await listCycleQueries(db, opts.fromCycle);
    if (opts.apps?.length) all = all.filter((q) => opts.apps!.includes(q.app));
    all.sort((a, b) => a.id.localeCompare(b.id));
    queries = opts.count ? all.slice(0, opts.count) : all;
    spec = { source: 'cycle', cycle: opts.fromCycle, ...(opts.count ? { count: opts.count } : {}), ...(opts.apps?.length ? { apps: opts.apps } : {}) };
  } else {
    const dags = loadDags();
    const known = new Set(dags.map((d) => d.app));
    const unknown = opts.apps?.find((a) => !known.has(a));
    if (unknown) throw new ValidationError(`unknown app "${unknown}" (apps: ${[...known].join(', ')})`, '--apps', 'command line');
    const count = opts.count ?? 50;
    const seed = opts.seed ?? EVALSET_DEFAULT_SEED;
    const batch = await generateQueryBatch({
      dags,
      count,
      seed,
      sampler: 'families',
      ...(opts.apps?.length ? { apps: opts.apps } : {}),
      models: { synth: inProcessModel('ref-query-synth', querySynthRole), refine: inProcessModel('ref-query-refine', queryRefineRole) },
    });
    queries = batch.queries;
    spec = { source: 'generated', count, seed, sampler: 'families', ...(opts.apps?.length ? { apps: opts.apps } : {}), synthModel: 'ref-query-synth', refineModel: 'ref-query-refine' };
  }
  if (queries.length === 0) throw new ValidationError('selects no query: an empty eval set would guard nothing', opts.fromCycle ? '--from-cycle' : '--count', 'command line');
  const fingerprint = evalSetFingerprint(queries);
  const { created } = await freezeEvalSet(db, { name: opts.name, fingerprint, spec, queries });
  return { created, queries, fingerprint, spec };
}

/** `trajforge evalset freeze|list|show`. */
export async function evalsetCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      count: { type: 'string' },
      seed: { type: 'string' },
      apps: { type: 'string' },
      'from-cycle': { type: 'string' },
    },
  });
  if (sub !== 'freeze' && sub !== 'list' && sub !== 'show') throw new ValidationError(`usage:\n${EVALSET_USAGE}`, undefined, 'command line');
  if (sub === 'freeze' && !values.name) throw new ValidationError('is required', '--name', 'command line');
  if (sub === 'show' && !positionals[0]) throw new ValidationError('usage: trajforge evalset show NAME', undefined, 'command line');
  const { withDatabase } = await import('./database.js');
  await withDatabase(loadConfig(), async (db) => {
    if (sub === 'freeze') {
      const r = await freezeEvalSetCommand(db, {
        name: values.name!,
        ...(values.count !== undefined ? { count: Number(values.count) } : {}),
        ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
        ...(values.apps !== undefined ? { apps: values.apps.split(',').map((a) => a.trim()).filter(Boolean) } : {}),
        ...(values['from-cycle'] !== undefined ? { fromCycle: values['from-cycle'] } : {}),
      });
      const perApp = new Map<string, number>();
      for (const q of r.queries) perApp.set(q.app, (perApp.get(q.app) ?? 0) + 1);
      out(`trajforge: eval set ${values.name} ${r.created ? 'frozen' : 'already frozen with the same queries'}: ${r.queries.length} queries (fingerprint ${r.fingerprint.slice(0, 12)})`);
      out(`  per app  ${[...perApp].sort().map(([a, n]) => `${a} ${n}`).join(', ')}`);
      out(`  spec     ${JSON.stringify(r.spec)}`);
      return;
    }
    if (sub === 'list') {
      const sets = await listEvalSets(db);
      if (sets.length === 0) out('no eval set frozen (trajforge evalset freeze --name N)');
      for (const s of sets) out(`${s.name.padEnd(24)} ${String(s.queries).padStart(6)} queries  frozen ${s.frozenAt}`);
      return;
    }
    const set = await getEvalSet(db, positionals[0]!);
    if (!set) throw new ValidationError(`no eval set "${positionals[0]}"`, undefined, 'command line');
    out(`eval set ${set.name}: ${set.queries.length} queries, frozen ${set.frozenAt}, fingerprint ${set.fingerprint}`);
    out(`  spec ${JSON.stringify(set.spec)}`);
    for (const q of set.queries) out(`  ${q.id.slice(0, 16).padEnd(16)} ${q.app.padEnd(9)} ${q.instruction}`);
  });
}
