/**
 * App finding: where the app a request needs ranks among the launcher's apps the reference policy looks into, with
 * and without everyday word knowledge (models/reference/wordnet.ts). No rollouts: each request of the DAG templates
 * and of the paraphrase sets is ranked against the built-in launcher's labels, as `launcherApps` orders them (the
 * policy opens them in that order, one step each, until one's first screen fits). Apps the policy knows by topic
 * (Clock, Calendar, Contacts, Mail, Messages, Notes, Settings) are left out: it never looks for those.
 *
 *   npx tsx bench/app-finding.ts [--sets v6,v7-fitness,v8-parcels] [--count 600] [--seed 3] [--verbose]
 *
 * Prints, per app and overall, the mean rank of the right app and how often it is first, in the first three and within
 * the peek budget (the looks the policy takes before it settles for an app that fitted at all), for
 * both arms from one run (spelling only: a label part that is a request word; spelling + word knowledge).
 */
import { parseArgs } from 'node:util';
import { BUILT_IN_APPS, DECORATIVE_APPS, loadDags } from '../environments/app-world.js';
import { contentWords } from '../models/reference/roles/policy-act.js';
import { knownOffTopic } from '../models/reference/roles/policy-tasks.js';
import { labelFit, launcherApps, PEEK_BUDGET } from '../models/reference/roles/policy-explore.js';
import type { OcrLine } from '../models/reference/types.js';
import { generateQueries } from '../query-gen/sample.js';
import { loadParaphrases, paraphrase } from './corpus.js';

const KNOWN = /^(?:Clock|Calendar|Contacts|Mail|Messages|Notes|Settings)$/;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sets: { type: 'string', default: 'v6,v7-fitness,v8-parcels,v9-vet,v10-laundry' },
      count: { type: 'string', default: '600' },
      seed: { type: 'string', default: '3' },
      verbose: { type: 'boolean', default: false },
    },
  });
  const labels = [...BUILT_IN_APPS.map((a) => a.title), ...DECORATIVE_APPS.map((a) => a.title)];
  // The launcher as OCR reads it: rows of four labels below the clock.
  const lines: OcrLine[] = labels.map((t, i) => ({ text: t, confidence: 1, box: { x: 20 + (i % 4) * 100, y: 300 + Math.floor(i / 4) * 115, w: 70, h: 18 } }));
  const { queries } = generateQueries({ dags: loadDags(), count: Number(values.count), seed: Number(values.seed) });
  const sets = await Promise.all(values.sets.split(',').filter(Boolean).map((f) => loadParaphrases(`bench/paraphrases/${f}.json`)));
  // Spelling only: the order before word knowledge (label parts that are request words, then launcher order).
  const spelling = (text: string): string[] => {
    const words = contentWords(text);
    const ranked = labels.map((a, i) => ({ a, i, p: labelFit(a, words) })).sort((x, y) => y.p - x.p || x.i - y.i).map((x) => x.a);
    return [...ranked.filter((a) => !knownOffTopic(a, text)), ...ranked.filter((a) => knownOffTopic(a, text))];
  };
  const knowledge = (text: string): string[] => launcherApps(lines, { height: 915 }, text, contentWords(text), text);
  const arms = { spelling, knowledge } as const;
  const ranks: Record<keyof typeof arms, Map<string, number[]>> = { spelling: new Map(), knowledge: new Map() };
  const seen = new Set<string>();
  for (const q of queries) {
    const key = `${q.app}/${q.checker.family}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const app = BUILT_IN_APPS.find((a) => a.id === q.app)!.title;
    if (KNOWN.test(app)) continue;
    const texts = [q.instruction, ...sets.flatMap((s) => [0, 1, 2, 3].map((i) => paraphrase(s, q, i)).filter((x): x is string => !!x))];
    for (const t of [...new Set(texts)]) {
      for (const [arm, order] of Object.entries(arms) as [keyof typeof arms, (t: string) => string[]][]) {
        const pos = order(t).indexOf(app) + 1;
        const m = ranks[arm];
        m.set(app, [...(m.get(app) ?? []), pos]);
        if (values.verbose && arm === 'knowledge' && pos > 1) console.log(`  ${pos}  ${app.padEnd(10)} ${t}`);
      }
    }
  }
  const mean = (xs: number[]): string => (xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)).toFixed(2);
  console.log(`app finding: ${[...ranks.knowledge.values()].flat().length} requests (templates + ${values.sets}) of ${ranks.knowledge.size} apps the policy must look for; ${labels.length} launcher labels\n`);
  console.log(`${'app'.padEnd(12)} ${'n'.padStart(4)}   spelling: mean rank  first  top-3  top-${PEEK_BUDGET}   knowledge: mean rank  first  top-3  top-${PEEK_BUDGET}`);
  const row = (name: string, s: number[], k: number[]): string =>
    `${name.padEnd(12)} ${String(s.length).padStart(4)}   ${mean(s).padStart(19)}  ${String(s.filter((p) => p === 1).length).padStart(5)}  ${String(s.filter((p) => p <= 3).length).padStart(5)}  ${String(s.filter((p) => p <= PEEK_BUDGET).length).padStart(5)}   ${mean(k).padStart(20)}  ${String(k.filter((p) => p === 1).length).padStart(5)}  ${String(k.filter((p) => p <= 3).length).padStart(5)}  ${String(k.filter((p) => p <= PEEK_BUDGET).length).padStart(5)}`;
  for (const app of [...ranks.knowledge.keys()].sort()) console.log(row(app, ranks.spelling.get(app)!, ranks.knowledge.get(app)!));
  const all = (arm: keyof typeof arms): number[] => [...ranks[arm].values()].flat();
  console.log(row('ALL', all('spelling'), all('knowledge')));
  console.log(`\nmean rank ratio knowledge / spelling: ${(Number(mean(all('knowledge'))) / Number(mean(all('spelling')))).toFixed(2)} (each look into an app costs one step)`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
