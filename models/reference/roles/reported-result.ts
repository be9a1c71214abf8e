/**
 * Completion evidence an app gives in its own words, for the reference trajectory critics: a line that appeared
 * only on the final screen and reports the request's verb — or a common synonym of it — in the past tense ("Book
 * borrowed" for "Check out X", "Hold placed" for "Reserve X", "Renewed until Jun 30" for "Extend the due date of
 * X"), with every thing the request names listed on that final screen. Nothing here knows any app: the verb is
 * read from the request's structure (its first word, with a particle: "check out"), the synonyms are the common
 * English equivalences the reference policy taps buttons by (policy-act.ts), the past tense is English
 * morphology. A line that asks or announces ("Borrow this book?", "X will be renewed"), or negates ("Not
 * renewed", "Couldn't place hold") reports nothing.
 */
import { requestCore } from './intent.js';
import { SYNONYMS } from './policy-act.js';
import { isVerb } from '../wordnet.js';
import { containsPhrase, DATED_EARLIER, tokens } from './text-match.js';

/** Verb particles that belong to the verb ("check out", "sign up"). */
const PARTICLE = /^(out|up|in|off|back|over|down)$/i;

/** Irregular past tenses of common request verbs (English morphology; the regular rules cover the rest). */
const IRREGULAR: Readonly<Record<string, readonly string[]>> = {
  buy: ['bought'],
  send: ['sent'],
  pay: ['paid'],
  make: ['made'],
  hold: ['held', 'holding'],
  keep: ['kept'],
  lend: ['lent'],
  get: ['got', 'gotten'],
  put: ['put'],
  set: ['set'],
  take: ['took', 'taken'],
  give: ['gave', 'given'],
  write: ['wrote', 'written'],
  leave: ['left'],
  find: ['found'],
  sell: ['sold'],
  bring: ['brought'],
  choose: ['chose', 'chosen'],
  freeze: ['froze', 'frozen'],
  unfreeze: ['unfroze', 'unfrozen'],
  read: ['read'],
  split: ['split'],
  cut: ['cut'],
  upload: ['uploaded'],
  withdraw: ['withdrew', 'withdrawn'],
};

/** Past-tense forms of one verb word: regular (both "canceled" and "cancelled" spellings) and irregular. */
export function pastForms(verb: string): string[] {
  const w = verb.toLowerCase();
  const irregular = IRREGULAR[w];
  if (irregular) return [...irregular];
  const out = new Set<string>();
  if (w.endsWith('e')) out.add(`${w}d`);
  else if (/[^aeiou]y$/.test(w)) out.add(`${w.slice(0, -1)}ied`);
  else {
    out.add(`${w}ed`);
    // A final consonant after a single vowel may double ("stop" → "stopped", "cancel" → "cancelled").
    if (/[^aeiou][aeiou][bdgklmnprt]$/.test(w)) out.add(`${w}${w[w.length - 1]}ed`);
  }
  return [...out];
}

/** Verbs whose result an app reports in other words ("Lunch order updated" for "Switch that day's lunch order"). */
const RESULT_SYNONYMS: readonly (readonly string[])[] = [['switch', 'change', 'update', 'swap']];

/** The request's verb: the first word of its core, with its particle ("Check out X" → "check out"). */
export function requestVerb(instruction: string): string | undefined {
  // (The first sentence that opens with a verb: a context sentence kept before the request — "Leo has been asking for
  // X … . Switch that day's lunch order." — has none.)
  const core = requestCore(instruction);
  const sentences = core.split(/(?<=[.!?])\s+(?=[A-Z])/);
  const request = sentences.find((s) => isVerb((/^[^A-Za-z]*([A-Za-z]+)/.exec(s)?.[1] ?? '').toLowerCase())) ?? core;
  const words = request.replace(/^[^A-Za-z]+/, '').split(/\s+/);
  const first = (words[0] ?? '').replace(/[^A-Za-z'-]/g, '').toLowerCase();
  if (!/^[a-z][a-z'-]+$/.test(first)) return undefined;
  const second = (words[1] ?? '').replace(/[^A-Za-z]/g, '');
  return PARTICLE.test(second) ? `${first} ${second.toLowerCase()}` : first;
}

/**
 * What a result line reporting `verb` looks like: for each of the verb and its synonyms, the past tense of its
 * first word plus its other words ("check out" → checked + out; "place hold" → placed + hold). A line matches a
 * pattern when it holds the past form and every other word, in any order ("Hold placed").
 */
export function resultPatterns(verb: string): { past: string[]; with: string[]; label: string }[] {
  const group = [...SYNONYMS, ...RESULT_SYNONYMS].filter((g) => g.includes(verb)).flat();
  const all = [...new Set([verb, ...group])];
  return all.map((v) => {
    const [head = '', ...rest] = v.split(/\s+/);
    return { past: pastForms(head), with: rest.map((r) => r.toLowerCase()), label: v };
  });
}

/** A line that asks, announces a pending change or negates reports no result (nor one dated days back: DATED_EARLIER). */
const NOT_A_REPORT = /\?|\b(will|not|no|never|unable|failed|fail|couldn't|cannot|can't|could not|error)\b/i;

/**
 * The final-screen line that reports the request's verb in the past tense, when it appeared on no earlier
 * screen and every entity is on the final screen; undefined otherwise (or when the request names nothing).
 */
export function reportedResult(input: {
  instruction: string;
  /** The things the request names (its app excluded). */
  entities: readonly string[];
  /** Text of every screen before the final one. */
  earlier: readonly string[];
  finalLines: readonly string[];
}): { line: string; verb: string } | undefined {
  const verb = requestVerb(input.instruction);
  if (!verb || input.entities.length === 0) return undefined;
  const finalText = input.finalLines.join('\n');
  if (!input.entities.every((e) => containsPhrase(finalText, e))) return undefined;
  const patterns = resultPatterns(verb);
  for (const line of input.finalLines) {
    if (NOT_A_REPORT.test(line) || DATED_EARLIER.test(line)) continue;
    const words = new Set(tokens(line));
    const raw = new Set(line.toLowerCase().match(/[a-z]+/g) ?? []);
    const hit = patterns.find((p) => p.past.some((f) => raw.has(f)) && p.with.every((w) => words.has(tokens(w)[0] ?? w)));
    if (!hit) continue;
    if (input.earlier.some((s) => containsPhrase(s, line))) continue;
    return { line: line.trim(), verb: hit.label };
  }
  return undefined;
}
