/**
 * Lexical diversity of a batch of instructions: distinct-n (Li et al., 2016) and self-BLEU (Zhu et al., 2018,
 * Texygen). A dataset whose instructions use a handful of sentence frames teaches a model those frames only;
 * these figures make that visible per batch (`trajforge queries generate` prints them).
 *
 * - distinct-n: unique n-grams ÷ all n-grams over the whole batch (higher = more varied wording).
 * - self-BLEU: mean over a sample of hypotheses of BLEU-4 (uniform weights, brevity penalty, add-one smoothing
 *   for n > 1 as in Lin & Och's "smoothing 1") against every *other* instruction of the batch as references
 *   (lower = more varied). The all-pairs form is O(N²·L); `sample` bounds the hypotheses (references stay
 *   the whole batch), deterministically (evenly spaced), so the same batch always gives the same figure.
 */

/** Lower-cased word tokens; punctuation becomes its own token so "Order." and "Order?" differ by it only. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?|[^\s\p{L}\p{N}]/gu) ?? [];
}

function ngrams(tokens: readonly string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) out.push(tokens.slice(i, i + n).join('\u0001'));
  return out;
}

/** distinct-n over a batch: |unique n-grams| / |n-grams| (0 for a batch without any n-gram). */
export function distinctN(texts: readonly string[], n: number): number {
  let total = 0;
  const unique = new Set<string>();
  for (const t of texts) {
    for (const g of ngrams(tokenize(t), n)) {
      total++;
      unique.add(g);
    }
  }
  return total === 0 ? 0 : unique.size / total;
}

function counts(items: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return m;
}

/**
 * BLEU-4 of one hypothesis against references given as per-order max n-gram counts (clipping) and the
 * reference lengths (closest-length brevity penalty).
 */
function bleu(hyp: readonly string[], maxRefCounts: readonly Map<string, number>[], refLengths: readonly number[], maxN: number): number {
  if (hyp.length === 0) return 0;
  let logSum = 0;
  for (let n = 1; n <= maxN; n++) {
    const h = counts(ngrams(hyp, n));
    let matched = 0;
    let total = 0;
    for (const [g, c] of h) {
      total += c;
      matched += Math.min(c, maxRefCounts[n - 1]!.get(g) ?? 0);
    }
    // Smoothing 1 for n > 1 (a short sentence has no 4-gram match by construction, which is not dissimilarity).
    const p = n === 1 ? (total === 0 ? 0 : matched / total) : (matched + 1) / (total + 1);
    if (p === 0) return 0;
    logSum += Math.log(p) / maxN;
  }
  const closest = refLengths.reduce((best, r) => (Math.abs(r - hyp.length) < Math.abs(best - hyp.length) || (Math.abs(r - hyp.length) === Math.abs(best - hyp.length) && r < best) ? r : best), Infinity);
  const bp = hyp.length >= closest ? 1 : Math.exp(1 - closest / hyp.length);
  return bp * Math.exp(logSum);
}

/**
 * Self-BLEU of a batch (BLEU-4 of each sampled instruction against all the others). Texts are grouped by
 * their token sequence so that the max-count tables are built once per distinct n-gram; an exact duplicate of
 * the hypothesis elsewhere in the batch counts as a reference (it is another instruction).
 */
export function selfBleu(texts: readonly string[], options: { sample?: number; maxN?: number } = {}): number {
  const maxN = options.maxN ?? 4;
  const toks = texts.map(tokenize);
  if (toks.length < 2) return 0;
  const sample = Math.min(options.sample ?? 200, toks.length);
  const step = toks.length / sample;
  // Per order: n-gram → list of (count, text index), so a hypothesis's max over the *other* texts is cheap.
  const tables = Array.from({ length: maxN }, (_, k) => {
    const t = new Map<string, { idx: number; c: number }[]>();
    toks.forEach((tk, idx) => {
      for (const [g, c] of counts(ngrams(tk, k + 1))) {
        const list = t.get(g) ?? [];
        list.push({ idx, c });
        t.set(g, list);
      }
    });
    return t;
  });
  let sum = 0;
  for (let s = 0; s < sample; s++) {
    const i = Math.floor(s * step);
    const hyp = toks[i]!;
    const maxRef = tables.map((t, k) => {
      const m = new Map<string, number>();
      for (const g of new Set(ngrams(hyp, k + 1))) {
        let best = 0;
        for (const e of t.get(g) ?? []) if (e.idx !== i && e.c > best) best = e.c;
        if (best) m.set(g, best);
      }
      return m;
    });
    const lengths = toks.filter((_, j) => j !== i).map((t) => t.length);
    sum += bleu(hyp, maxRef, lengths, maxN);
  }
  return sum / sample;
}

/** The diversity figures of a batch of instructions. */
export interface DiversityReport {
  instructions: number;
  distinct1: number;
  distinct2: number;
  /** BLEU-4 of sampled instructions against the rest of the batch (lower = more varied). */
  selfBleu: number;
  /** Hypotheses sampled for self-BLEU. */
  selfBleuSample: number;
  /**
   * Distinct phrasings: instructions with their slot values masked, counted once each, per task family, averaged
   * over families (present when slot values are given). A refiner that picks one of two templates scores ≤ 2.
   */
  phrasingsPerFamily?: number;
  /**
   * The same figures within each family on the masked instructions (the phrasing alone, not the slot values),
   * averaged over families weighted by size: what a model learns about *how* a task is asked.
   */
  withinFamily?: { distinct1: number; distinct2: number; selfBleu: number };
}

/** An instruction with every slot value replaced by a placeholder (longest value first). */
export function maskValues(text: string, values: readonly string[]): string {
  return [...values].filter(Boolean).sort((a, b) => b.length - a.length).reduce((t, v) => t.split(v).join('\u2039v\u203a'), text);
}

/** distinct-1/2 and self-BLEU of a batch; with `slots` (each text's family and slot values), phrasings per family. */
export function diversityOf(
  texts: readonly string[],
  options: { sample?: number; slots?: readonly { family: string; values: readonly string[] }[] } = {},
): DiversityReport {
  const sample = Math.min(options.sample ?? 200, texts.length);
  let phrasings: number | undefined;
  let within: DiversityReport['withinFamily'];
  if (options.slots) {
    const byFamily = new Map<string, string[]>();
    texts.forEach((t, i) => {
      const s = options.slots![i];
      if (!s) return;
      const list = byFamily.get(s.family) ?? [];
      list.push(maskValues(t, s.values));
      byFamily.set(s.family, list);
    });
    const groups = [...byFamily.values()];
    phrasings = groups.length ? groups.reduce((a, g) => a + new Set(g).size, 0) / groups.length : 0;
    const n = groups.reduce((a, g) => a + g.length, 0);
    const mean = (f: (g: string[]) => number): number => (n ? groups.reduce((a, g) => a + f(g) * g.length, 0) / n : 0);
    within = {
      distinct1: mean((g) => distinctN(g, 1)),
      distinct2: mean((g) => distinctN(g, 2)),
      selfBleu: mean((g) => selfBleu(g, { sample: 40 })),
    };
  }
  return {
    ...(phrasings !== undefined ? { phrasingsPerFamily: phrasings } : {}),
    ...(within ? { withinFamily: within } : {}),
    instructions: texts.length,
    distinct1: distinctN(texts, 1),
    distinct2: distinctN(texts, 2),
    selfBleu: selfBleu(texts, { sample }),
    selfBleuSample: sample,
  };
}
