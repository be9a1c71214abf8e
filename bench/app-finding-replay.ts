/**
 * App finding replayed offline over recorded corpora: for every rollout of a `bench/corpus.ts` corpus in which the
 * reference policy looked inside apps (a request that names no app it could see), the policy's own exploration
 * (`exploreStep`) is run again step by step, each look answered by the first screen that app showed in the corpora
 * (OCR from the corpus blob store's cache). No browser, no rollouts: a change to how first screens are scored is
 * measured on hundreds of looks in seconds, against the right app from the corpus's query.
 *
 *   npx tsx bench/app-finding-replay.ts --corpus DIR[,DIR…] [--verbose]
 *
 * Prints, per corpus and per right app, how often the replay settles on the right app and how many looks it took.
 * The replay only knows the first screens some rollout of the corpora opened: an app never opened answers a look with
 * an empty screen (it scores nothing).
 */
import { parseArgs } from 'node:util';
import { BUILT_IN_APPS } from '../environments/app-world.js';
import { blobOcrStore, createOcrEngine } from '../models/ocr.js';
import { contentWords } from '../models/reference/roles/policy-act.js';
import { exploreStep, readExplore } from '../models/reference/roles/policy-explore.js';
import { exploreCue, planTask } from '../models/reference/roles/policy.js';
import type { OcrLine } from '../models/reference/types.js';
import { loadCorpus } from './corpus.js';

interface Row {
  corpus: string;
  app: string;
  instruction: string;
  home: OcrLine[];
  height: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { corpus: { type: 'string' }, verbose: { type: 'boolean', default: false } } });
  if (!values.corpus) throw new Error('bench/app-finding-replay.ts: --corpus DIR[,DIR…] is required');
  const first = new Map<string, OcrLine[]>();
  const rows: Row[] = [];
  for (const dir of values.corpus.split(',').filter(Boolean)) {
    const { blobs, rollouts } = await loadCorpus(dir);
    const ocr = await createOcrEngine({ store: blobOcrStore(blobs) });
    for (const r of rollouts) {
      const steps = r.result.steps;
      if (!steps.some((s) => /\[apps /.test(s.conclusion))) continue;
      for (let i = 0; i + 1 < steps.length; i++) {
        const a = steps[i]!.action;
        if (a?.action === 'open' && !first.has(a.text)) first.set(a.text, await ocr.recognize(await blobs.get(steps[i + 1]!.before.screenshotKey)));
      }
      const before = steps[0]!.before;
      rows.push({ corpus: dir, app: r.query.app, instruction: r.query.instruction, home: await ocr.recognize(await blobs.get(before.screenshotKey)), height: before.height });
    }
  }
  const title = (id: string): string => BUILT_IN_APPS.find((a) => a.id === id)?.title ?? id;
  const tally = new Map<string, { right: number; n: number; looks: number }>();
  const count = (key: string, right: boolean, looks: number): void => {
    const t = tally.get(key) ?? { right: 0, n: 0, looks: 0 };
    t.n++;
    t.looks += looks;
    if (right) t.right++;
    tally.set(key, t);
  };
  for (const row of rows) {
    const goal = planTask(row.instruction, []).goals.find((g) => g.kind === 'open');
    if (!goal || goal.kind !== 'open') continue;
    const cue = goal.explore ?? (goal.target ? exploreCue(row.instruction, goal.target) : undefined);
    if (!cue) continue;
    const context = contentWords(row.instruction).filter((w) => !cue.words.includes(w));
    const history: string[] = [];
    let lines = row.home;
    let onLauncher = true;
    let chosen: string | undefined;
    let looks = 0;
    for (; looks < 15; looks++) {
      const step = exploreStep(readExplore(history), lines, { height: row.height }, { ...cue, context, text: row.instruction }, onLauncher);
      if (step.kind !== 'peek') {
        if (step.kind === 'stay' || step.kind === 'open') chosen = step.app;
        break;
      }
      history.push(`Opened ${step.app} to look inside. ${step.apps ? `[apps ${step.apps.join('|')}] ` : ''}${step.note}`);
      lines = first.get(step.app) ?? [];
      onLauncher = false;
    }
    const want = title(row.app);
    const right = chosen?.toLowerCase() === want.toLowerCase();
    count(row.corpus, right, looks);
    count(`app ${want}`, right, looks);
    count('ALL', right, looks);
    if (values.verbose) console.log(`${right ? 'OK' : 'XX'}  ${want.padEnd(10)} ${(chosen ?? '-').padEnd(10)} ${String(looks).padStart(2)}  ${row.instruction.slice(0, 90)}`);
  }
  console.log(`app finding replayed: ${rows.length} rollouts that looked inside apps; ${first.size} apps' first screens known\n`);
  console.log(`${'scope'.padEnd(40)} ${'n'.padStart(4)} ${'right app'.padStart(10)} ${'mean looks'.padStart(11)}`);
  for (const [key, t] of [...tally].sort(([a], [b]) => (a === 'ALL' ? 1 : b === 'ALL' ? -1 : a.localeCompare(b)))) {
    console.log(`${key.slice(-40).padEnd(40)} ${String(t.n).padStart(4)} ${`${t.right} (${((100 * t.right) / t.n).toFixed(0)}%)`.padStart(10)} ${(t.looks / t.n).toFixed(1).padStart(11)}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
