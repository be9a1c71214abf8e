/**
 * The reference policy's plans for many instructions, written to a file and compared with an earlier file: the
 * check that a change to the instruction readers leaves the DAG templates' plans alone (and shows which
 * paraphrases it re-plans). No rollouts, no browser: `planTask` over generated queries.
 *
 *   npx tsx bench/plan-diff.ts --out /tmp/before.jsonl [--seeds 1-30] [--apps food,shop] [--paraphrases bench/paraphrases/v2.json]
 *   npx tsx bench/plan-diff.ts --out /tmp/after.jsonl  [same options] --against /tmp/before.jsonl [--show 20]
 *
 * One line per distinct instruction: {instruction, family, goals} (regular expressions written as their source).
 * With `--paraphrases`, every phrasing of the query's family is filled with its slots (not only phrasing n mod k),
 * so the file covers the whole set. `--against` prints how many plans are the same and the first `--show` changes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { loadDags } from '../environments/app-world.js';
import { planTask } from '../models/reference/roles/policy.js';
import { generateQueries } from '../query-gen/sample.js';
import { loadParaphrases, paraphrase } from './corpus.js';

interface Planned {
  instruction: string;
  family: string;
  goals: string;
}

/** "1-30" or "1,2,5" → seeds. */
export function seedList(s: string): number[] {
  return s.split(',').flatMap((part) => {
    const m = /^(\d+)-(\d+)$/.exec(part.trim());
    if (m) return Array.from({ length: Number(m[2]) - Number(m[1]) + 1 }, (_, i) => Number(m[1]) + i);
    const n = Number(part.trim());
    if (!Number.isInteger(n)) throw new Error(`bench/plan-diff.ts: bad --seeds part "${part}"`);
    return [n];
  });
}

const plan = (instruction: string): string =>
  JSON.stringify(planTask(instruction, []).goals, (_k, v: unknown) => (v instanceof RegExp ? `/${v.source}/${v.flags}` : v));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      seeds: { type: 'string', default: '1-30' },
      apps: { type: 'string', default: '' },
      count: { type: 'string', default: '60' },
      paraphrases: { type: 'string' },
      against: { type: 'string' },
      show: { type: 'string', default: '20' },
    },
  });
  if (!values.out) throw new Error('usage: npx tsx bench/plan-diff.ts --out FILE [--seeds 1-30] [--apps a,b] [--paraphrases FILE] [--against FILE]');
  const apps = values.apps.split(',').map((a) => a.trim()).filter(Boolean);
  const set = values.paraphrases ? await loadParaphrases(values.paraphrases) : undefined;
  const seen = new Map<string, Planned>();
  for (const seed of seedList(values.seeds)) {
    const { queries } = generateQueries({ dags: loadDags(), count: Number(values.count), seed, apps });
    for (const q of queries) {
      const family = `${q.app}/${q.checker.family}`;
      const k = set?.[family]?.length ?? 0;
      const texts = set ? Array.from({ length: k }, (_, n) => paraphrase(set, q, n)).filter((t): t is string => t !== undefined) : [q.instruction];
      for (const instruction of texts) if (!seen.has(instruction)) seen.set(instruction, { instruction, family, goals: plan(instruction) });
    }
  }
  const rows = [...seen.values()];
  await writeFile(values.out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(`${rows.length} distinct instructions planned → ${values.out}`);
  if (!values.against) return;
  const before = new Map(
    (await readFile(values.against, 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Planned)
      .map((r) => [r.instruction, r]),
  );
  const common = rows.filter((r) => before.has(r.instruction));
  const changed = common.filter((r) => before.get(r.instruction)!.goals !== r.goals);
  console.log(`against ${values.against}: ${common.length - changed.length} of ${common.length} plans the same, ${changed.length} changed`);
  const byFamily = new Map<string, number>();
  for (const r of changed) byFamily.set(r.family, (byFamily.get(r.family) ?? 0) + 1);
  if (changed.length) console.log(`changed by family: ${[...byFamily].map(([f, n]) => `${f} ${n}`).join(', ')}`);
  for (const r of changed.slice(0, Number(values.show))) {
    console.log(`\n${r.instruction}\n  before ${goalTexts(before.get(r.instruction)!.goals)}\n  after  ${goalTexts(r.goals)}`);
  }
}

const goalTexts = (goals: string): string => (JSON.parse(goals) as { text: string }[]).map((g) => g.text).join(' | ');

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
