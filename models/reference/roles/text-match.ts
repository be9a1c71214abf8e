/**
 * Text matching shared by the reference critics (and the result-screen evidence): lowercase alphanumeric tokens
 * with a light plural stem, phrase containment that survives OCR-dropped spaces, and normalised Levenshtein
 * similarity — "near-duplicate" = a window of the same token count whose similarity is ≥ NEAR but which is not
 * equal ("Burger Place" vs "Burger Palace"). Split out of critics.ts, unchanged.
 */
/** Words that carry no content for matching. */
export const STOPWORDS = new Set(
  'a an the to of in on at for from and or with by my me i you your it its this that is are be as into onto then please all'.split(' '),
);
/** Sentence-initial words that are verbs or courtesy words, never names. */
/** The text with its first letter in upper case ("book" → "Book"). */
export const cap1 = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);

export const IMPERATIVES = new Set(
  ('open order add go find show set turn search book send call buy play create delete remove check tap select navigate ' +
    'change enable disable mark save share write type enter schedule put make reserve get look view start stop update ' +
    'rename move copy reply email text message post cancel clear purchase pick choose switch display list tell what how ' +
    'which when who where is are does do can could would will please use bring let help need want jot pin unpin archive ' +
    'favourite favorite star mute toggle flip increase decrease lower raise verify confirm i erase pull fix kindly drop extend invite redirect ' +
    'thanks thank hi hey quick').split(' '),
);

export function tokens(s: string): string[] {
  return (s.toLowerCase().match(/[\p{L}\p{N}]+(?:[.:,][0-9]+)*/gu) ?? []).map(stem);
}
export function stem(t: string): string {
  return t.length > 3 && t.endsWith('s') && !t.endsWith('ss') ? t.slice(0, -1) : t;
}
export function contentTokens(s: string): string[] {
  return tokens(s).filter((t) => !STOPWORDS.has(t));
}
export function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      prev[j] = Math.min(up + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}
export function similarity(a: string, b: string): number {
  const m = Math.max(a.length, b.length);
  return m === 0 ? 1 : 1 - levenshtein(a, b) / m;
}

/** Equal tokens; a whole amount is also its amount in cents ("120" is shown as "120.00", "$1,200" as "1,200.00"). */
function sameToken(h: string, n: string): boolean {
  return h === n || (/^\d[\d,]*$/.test(n) && h === `${n}.00`);
}

/**
 * Does `hay` contain the token sequence of `needle`? Also true when OCR dropped the spaces between words
 * ("Teamlunch onFriday" for "Team lunch on Friday"): the letters must then run from a token start to a token end.
 */
export function containsPhrase(hay: string, needle: string): boolean {
  const h = tokens(hay);
  const n = tokens(needle);
  if (n.length === 0) return false;
  outer: for (let i = 0; i + n.length <= h.length; i++) {
    for (let j = 0; j < n.length; j++) if (!sameToken(h[i + j] ?? '', n[j] ?? '')) continue outer;
    return true;
  }
  const raw = (t: string): string[] => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const hr = raw(hay);
  const joined = raw(needle).join('');
  if (joined.length < 6) return false;
  const starts = new Set<number>();
  const ends = new Set<number>();
  let at = 0;
  for (const t of hr) {
    starts.add(at);
    at += t.length;
    ends.add(at);
  }
  const flat = hr.join('');
  for (let i = flat.indexOf(joined); i >= 0; i = flat.indexOf(joined, i + 1)) if (starts.has(i) && ends.has(i + joined.length)) return true;
  return false;
}

/** Best similarity of `phrase` against windows of `text` with the phrase's token count (±1). */
export function bestWindow(text: string, phrase: string): { sim: number; window: string } {
  const t = tokens(text);
  const p = tokens(phrase).join(' ');
  const n = tokens(phrase).length;
  let best = { sim: 0, window: '' };
  for (const len of [n - 1, n, n + 1]) {
    if (len < 1) continue;
    for (let i = 0; i + len <= t.length; i++) {
      const w = t.slice(i, i + len).join(' ');
      const sim = similarity(w, p);
      if (sim > best.sim) best = { sim, window: w };
    }
  }
  return best;
}

/** Similarity at or above which two different phrases are near-duplicates ("Burger Place" vs "Burger Palace"). */
export const NEAR = 0.75;

/** A line dated a day or more before now ("Posted yesterday", "Sent 3 days ago"): the event it reports is not this episode's. */
export const DATED_EARLIER = /\b(?:yesterday|(?:\d+|a|an|one|two|three|few)\s*(?:d|days?|w|wks?|weeks?|mo|months?|y|yrs?|years?)\s+ago|last\s+(?:week|month|year))\b/i;
