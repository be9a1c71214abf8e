import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { AppDag, validateWorld } from '../domain/dag.js';
import { ValidationError, parseOrThrow } from '../domain/errors.js';
import type { BlobStore, EnvSession } from '../domain/ports.js';
import { EnvError } from '../domain/ports.js';
import type { InterfaceValidator } from '../query-gen/validate.js';
import { loadDags } from '../environments/app-world.js';
import { outgoing, pathEdges, splitRef, edgeKey, pageKey, type SamplerName } from '../query-gen/paths.js';
import { allowedValues } from '../query-gen/metadata.js';
import { formatReport, generateQueryBatch } from '../query-gen/pipeline.js';
import { inProcessModel } from '../models/reference/in-process.js';
import { queryRefineRole, querySynthRole } from '../models/reference/roles/query.js';

/** `trajforge dag …` and `trajforge queries generate`: DAG tooling around query generation (GUI-Owl §6.2). */

const out = (line = ''): void => void process.stdout.write(`${line}\n`);

async function loadFiles(files: readonly string[]): Promise<{ file: string; dag?: AppDag; error?: string }[]> {
  const res = [];
  for (const file of files) {
    try {
      res.push({ file, dag: parseOrThrow(AppDag, JSON.parse(await readFile(file, 'utf8')), file) });
    } catch (err) {
      res.push({ file, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return res;
}

export interface LintIssue {
  app: string;
  kind: 'unreachable_page' | 'dead_end' | 'slot_without_values' | 'unknown_slot_ref' | 'missing_in_app' | 'world';
  where: string;
  message: string;
}

/** Static lint of DAGs: reachability, dead ends (non-terminal pages with no way onward), slot refs, cross-app refs. */
export function lintDags(dags: readonly AppDag[]): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const dag of dags) {
    const reach = new Set([dag.startPage]);
    const queue = [dag.startPage];
    while (queue.length) {
      for (const t of outgoing(dag, queue.shift()!)) {
        if (reach.has(t.to)) continue;
        reach.add(t.to);
        queue.push(t.to);
      }
    }
    const slotKeys = new Set(dag.pages.flatMap((p) => p.slots.map((s) => s.key)));
    for (const p of dag.pages) {
      if (!reach.has(p.id)) issues.push({ app: dag.app, kind: 'unreachable_page', where: `pages.${p.id}`, message: `not reachable from ${dag.startPage}` });
      if (!p.terminal && outgoing(dag, p.id).length === 0) issues.push({ app: dag.app, kind: 'dead_end', where: `pages.${p.id}`, message: 'no transition leaves it (mark it "terminal": true if tasks end there)' });
      for (const s of p.slots) {
        if (s.values.length === 0) issues.push({ app: dag.app, kind: 'slot_without_values', where: `pages.${p.id}.${s.key}`, message: 'no values' });
        for (const [parent, vs] of Object.entries(s.dependsOn?.values ?? {})) {
          if (vs.length === 0) issues.push({ app: dag.app, kind: 'slot_without_values', where: `pages.${p.id}.${s.key}[${parent}]`, message: 'no values' });
        }
      }
    }
    const refs = (text: string): string[] => [...text.matchAll(/\{([a-z][a-z0-9_]*)\}/g)].map((m) => m[1]!);
    dag.transitions.forEach((t, i) => {
      for (const r of refs(t.control)) if (!slotKeys.has(r)) issues.push({ app: dag.app, kind: 'unknown_slot_ref', where: `transitions.${i}.control`, message: `{${r}} is no slot` });
      if (t.slot && !slotKeys.has(t.slot)) issues.push({ app: dag.app, kind: 'unknown_slot_ref', where: `transitions.${i}.slot`, message: `${t.slot} is no slot` });
    });
    dag.tasks.forEach((task) => {
      const onPath = new Set(
        task.path.flatMap((ref) => {
          const [a, p] = splitRef(ref, dag.app);
          return (dags.find((d) => d.app === a)?.pages.find((x) => x.id === p)?.slots ?? []).map((s) => s.key);
        }),
      );
      task.templates.forEach((tpl, j) => {
        for (const r of refs(tpl)) if (!onPath.has(r)) issues.push({ app: dag.app, kind: 'unknown_slot_ref', where: `tasks.${task.id}.templates.${j}`, message: `{${r}} is not a slot on the path` });
      });
    });
  }
  for (const w of validateWorld(dags)) issues.push({ app: w.app, kind: 'world', where: w.path, message: w.message });
  return issues;
}

async function validate(files: string[]): Promise<void> {
  if (!files.length) throw new ValidationError('usage: trajforge dag validate FILE…', undefined, 'command line');
  let bad = 0;
  for (const r of await loadFiles(files)) {
    if (r.dag) out(`ok   ${r.file}: ${r.dag.app}@${r.dag.version}, ${r.dag.pages.length} pages, ${r.dag.transitions.length} transitions, ${r.dag.tasks.length} task families`);
    else {
      bad++;
      out(`FAIL ${r.error}`);
    }
  }
  if (bad) process.exitCode = 1;
}

/**
 * One Chromium phone for a DAG command. `fresh()` opens a new session in place of one that broke (a browser the hang
 * watchdog killed under load, a crashed context): a long replay goes on instead of stopping at the first crash.
 */
async function withChromium<T>(fn: (ctx: { session: EnvSession; blobs: BlobStore; fresh: () => Promise<EnvSession> }) => Promise<T>): Promise<T> {
  const { startAppServer } = await import('../environments/app-server.js');
  const { createChromiumEnv } = await import('../environments/chromium.js');
  const { createHash } = await import('node:crypto');
  const objects = new Map<string, Uint8Array>();
  const blobs: BlobStore = {
    kind: 'local',
    put: async (bytes, o) => {
      const key = `sha256/${createHash('sha256').update(bytes).digest('hex')}${o?.ext ?? ''}`;
      objects.set(key, bytes);
      return key;
    },
    putAt: async (key, bytes) => void objects.set(key, bytes),
    get: async (key) => {
      const v = objects.get(key);
      if (!v) throw new Error(`no blob ${key}`);
      return v;
    },
    has: async (key) => objects.has(key),
    list: async (prefix) => [...objects.keys()].filter((k) => k.startsWith(prefix)),
    uri: (key) => `memory://${key}`,
  };
  const server = await startAppServer();
  const env = await createChromiumEnv({ appServer: server, blobs });
  try {
    const session = await env.newSession();
    return await fn({ session, blobs, fresh: () => env.newSession() });
  } finally {
    await env.close();
    await server.close();
  }
}

async function lint(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { all: { type: 'boolean' }, 'check-app': { type: 'boolean' } } });
  const builtIn = loadDags();
  let dags: AppDag[];
  if (values.all || positionals.length === 0) dags = builtIn;
  else {
    const loaded = await loadFiles(positionals);
    for (const r of loaded) if (r.error) out(`FAIL ${r.error}`);
    dags = loaded.flatMap((r) => (r.dag ? [r.dag] : []));
    // Cross-app references resolve against the built-in apps too.
    for (const d of builtIn) if (!dags.some((x) => x.app === d.app)) dags.push(d);
  }
  const issues = lintDags(dags);
  if (values['check-app']) {
    const { checkTransition } = await import('../environments/crawler.js');
    await withChromium(async ({ session: first, blobs, fresh }) => {
      let session = first;
      for (const dag of dags.filter((d) => builtIn.some((b) => b.app === d.app))) {
        for (const t of dag.transitions) {
          // Slot values for the replay: the first value of every slot allowed by the ones chosen before it.
          const slots: Record<string, string> = {};
          const specs = dag.pages.flatMap((p) => p.slots);
          for (const s of [...specs.filter((x) => !x.dependsOn), ...specs.filter((x) => x.dependsOn)]) if (!(s.key in slots)) slots[s.key] = allowedValues(s, slots)[0]!;
          // (A session that broke under it is replaced and the transition replayed once: the app is not at fault.)
          const r = await checkTransition({ session, blobs, dags }, dag, t, slots).catch(async (err: unknown) => {
            if (!(err instanceof EnvError)) throw err;
            await session.close().catch(() => undefined);
            session = await fresh();
            return checkTransition({ session, blobs, dags }, dag, t, slots);
          });
          if (!r.valid) issues.push({ app: dag.app, kind: 'missing_in_app', where: `${t.from}→${t.to} "${t.control}"`, message: `${r.failedAt?.reason} at ${r.failedAt?.page}: ${r.failedAt?.detail ?? ''}` });
        }
      }
    });
  }
  for (const i of issues) out(`${i.app.padEnd(10)} ${i.kind.padEnd(20)} ${i.where}: ${i.message}`);
  out(`${dags.length} DAG(s), ${issues.length} issue(s)`);
  if (issues.length) process.exitCode = 1;
}

async function coverage(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { cycle: { type: 'string' } } });
  const { loadConfig } = await import('./config.js');
  const { startRuntime } = await import('./runtime.js');
  const { queryCoverage } = await import('../storage/repos.js');
  const rt = await startRuntime(loadConfig());
  try {
    const rows = await queryCoverage(rt.db, values.cycle);
    for (const dag of loadDags()) {
      const counts = new Map<string, [number, number, number]>();
      const bump = (k: string, r: { rollouts: number; accepted: number }): void => {
        const c = counts.get(k) ?? [0, 0, 0];
        counts.set(k, [c[0] + 1, c[1] + r.rollouts, c[2] + r.accepted]);
      };
      for (const r of rows.filter((x) => x.app === dag.app)) {
        for (const ref of new Set(r.path)) bump(pageKey(...splitRef(ref, r.app)), r);
        for (const e of new Set(pathEdges(r.app, r.path))) bump(e, r);
        for (const [k, v] of Object.entries(r.slots)) bump(`${dag.app}:slot:${k}=${v}`, r);
      }
      out(`${dag.app}@${dag.version}  (generated queries / rollouts / accepted trajectories)`);
      const line = (k: string): string => (counts.get(k) ?? [0, 0, 0]).map((n) => String(n).padStart(5)).join(' ');
      for (const p of dag.pages) out(`  page ${p.id.padEnd(28)} ${line(pageKey(dag.app, p.id))}`);
      for (const t of dag.transitions.filter((x) => x.from !== x.to)) out(`  edge ${`${t.from}>${t.to}`.padEnd(28)} ${line(edgeKey(dag.app, t.from, t.to))}`);
      for (const p of dag.pages) for (const s of p.slots) for (const v of s.values) out(`  slot ${`${s.key}=${v}`.padEnd(28)} ${line(`${dag.app}:slot:${s.key}=${v}`)}`);
    }
  } finally {
    await rt.close();
  }
}

async function discover(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: 'string' }, 'max-states': { type: 'string' } } });
  const app = positionals[0];
  if (!app) throw new ValidationError('usage: trajforge dag discover APP [--out FILE]', undefined, 'command line');
  const { getApp } = await import('../environments/app-world.js');
  const { discoverApp, discoveryRecall } = await import('../environments/crawler.js');
  const module = getApp(app);
  if (!module) throw new ValidationError(`unknown app "${app}"`, undefined, 'command line');
  const found = await withChromium(({ session, blobs }) =>
    discoverApp({ session, blobs, app, title: module.title, ...(values['max-states'] ? { maxStates: Number(values['max-states']) } : {}) }),
  );
  const json = JSON.stringify(found.dag, null, 2);
  if (values.out) await writeFile(values.out, json + '\n');
  else out(json);
  const recall = discoveryRecall(module.dag, found);
  out(`discovered ${found.pages.length} pages, ${found.dag.transitions.length} transitions (${found.states} states, ${found.actions} actions)`);
  out(`vs hand-written DAG: page recall ${(100 * recall.pageRecall).toFixed(0)}%, edge recall ${(100 * recall.edgeRecall).toFixed(0)}%`);
  if (recall.missedPages.length) out(`  missed pages: ${recall.missedPages.join(', ')}`);
  if (recall.missedEdges.length) out(`  missed edges: ${recall.missedEdges.join(', ')}`);
}

export async function dagCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'validate':
      return validate(rest);
    case 'lint':
      return lint(rest);
    case 'coverage':
      return coverage(rest);
    case 'discover':
      return discover(rest);
    default:
      throw new ValidationError('usage: trajforge dag validate FILE… | lint [FILE…|--all] [--check-app] | coverage [--cycle ID] | discover APP [--out FILE]', undefined, 'command line');
  }
}

export const QUERIES_USAGE =
  'trajforge queries generate --count N --seed S [--sampler families|uniform|length|coverage] [--validate] [--platform phone|desktop] [--pathways FILE] [--apps a,b]';

const queryModels = () => ({ synth: inProcessModel('ref-query-synth', querySynthRole), refine: inProcessModel('ref-query-refine', queryRefineRole) });

/**
 * Desktop query generation: the desktop apps' DAGs extended with the pathway memory's windows (software-pathway
 * deep search), the same pipeline, and DAG/pathway coverage per app. `--validate` replays every pathway query's
 * pathway on a real desktop session.
 */
async function desktopQueries(values: { count: string; seed: string; sampler: string; length?: string; infeasible: string; validate?: boolean; json?: boolean; pathways?: string; apps?: string }): Promise<void> {
  const { loadPathwayMemory } = await import('../environments/desktop/pathways/memory.js');
  const { PATHWAY_FAMILY_PREFIX } = await import('../environments/desktop/pathways/dag.js');
  const { defaultPathwayMemoryFile, desktopDagsWithPathways, withDesktopSession } = await import('./pathways.js');
  const memoryFile = values.pathways ?? (await defaultPathwayMemoryFile());
  const memory = await loadPathwayMemory(memoryFile);
  const { dags, pages } = desktopDagsWithPathways(memory);
  const apps = values.apps ? values.apps.split(',').map((a) => a.trim()).filter(Boolean) : [];
  const sampler = values.sampler as SamplerName;
  if (!['families', 'uniform', 'length', 'coverage'].includes(sampler)) throw new ValidationError(`unknown sampler "${sampler}"`, undefined, '--sampler');
  const run = (validator?: InterfaceValidator) =>
    generateQueryBatch({
      dags,
      count: Number(values.count),
      seed: Number(values.seed),
      sampler,
      ...(apps.length ? { apps } : {}),
      ...(values.length ? { length: Number(values.length) } : {}),
      infeasibleRate: Number(values.infeasible),
      models: queryModels(),
      ...(validator ? { validator } : {}),
    });
  let result;
  if (values.validate) {
    const { createPathwayValidator } = await import('../environments/desktop/pathways/explore.js');
    result = await withDesktopSession(({ session, blobs }) => run(createPathwayValidator({ session, blobs, pages })));
  } else result = await run();
  if (values.json) return out(JSON.stringify(result.report, null, 2));
  for (const l of formatReport(result.report)) out(l);
  out(`pathway memory: ${memoryFile}`);
  for (const dag of dags.filter((d) => !apps.length || apps.includes(d.app))) {
    const found = memory.pathways(dag.app);
    const windows = pages.get(dag.app)?.size ?? 0;
    const qs = result.queries.filter((q) => q.app === dag.app);
    const used = new Set(qs.filter((q) => q.family.startsWith(PATHWAY_FAMILY_PREFIX)).map((q) => q.family));
    const c = result.report.coverage[dag.app];
    out(
      `desktop ${dag.app}@${dag.version}: nodes ${c?.pages ?? '-'}, edges ${c?.edges ?? '-'}, families ${c?.families ?? '-'}; ` +
        `pathways found ${found.length} (${windows} lead to a window/dialog), used ${used.size}/${windows} by ${qs.filter((q) => q.family.startsWith(PATHWAY_FAMILY_PREFIX)).length} queries`,
    );
  }
}

/** `trajforge queries generate --count N --seed S [--sampler …] [--infeasible R] [--validate]` with the in-process reference models. */
export async function queriesCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      count: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '7' },
      sampler: { type: 'string', default: 'families' },
      length: { type: 'string' },
      infeasible: { type: 'string', default: '0.05' },
      validate: { type: 'boolean' },
      json: { type: 'boolean' },
      platform: { type: 'string', default: 'phone' },
      pathways: { type: 'string' },
      apps: { type: 'string' },
    },
  });
  if (sub !== 'generate') throw new ValidationError(`usage: ${QUERIES_USAGE}`, undefined, 'command line');
  if (values.platform !== 'phone' && values.platform !== 'desktop') throw new ValidationError(`--platform must be phone or desktop, got "${values.platform}"`, undefined, '--platform');
  if (values.platform === 'desktop') return desktopQueries(values);
  const sampler = values.sampler as SamplerName;
  if (!['families', 'uniform', 'length', 'coverage'].includes(sampler)) throw new ValidationError(`unknown sampler "${sampler}"`, undefined, 'command line');
  const run = async (validator?: InterfaceValidator) =>
    generateQueryBatch({
      dags: loadDags(),
      count: Number(values.count),
      seed: Number(values.seed),
      sampler,
      ...(values.length ? { length: Number(values.length) } : {}),
      infeasibleRate: Number(values.infeasible),
      models: queryModels(),
      ...(validator ? { validator } : {}),
    });
  let result;
  if (values.validate) {
    const { createCrawlerValidator } = await import('../environments/crawler.js');
    result = await withChromium(({ session, blobs }) => run(createCrawlerValidator({ session, blobs, dags: loadDags() })));
  } else result = await run();
  if (values.json) out(JSON.stringify(result.report, null, 2));
  else for (const l of formatReport(result.report)) out(l);
}
