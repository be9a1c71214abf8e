/**
 * Reference policy — finding the app a request implies when it names neither the app nor a word of its launcher
 * label ("Place a hold on The Song of Achilles for pickup at Riverside Branch"): look inside the apps.
 *
 * On the home screen the launcher labels are the candidates. Each is opened in turn (the `open` action works from
 * any screen) and its first screen is read: the request's content words found among the screen's words, the
 * request's verb (or a common synonym of it) counting half, and a name the request carries ("The Song of
 * Achilles") shown as a line counting two. A screen that shows a name of the request, or two of its content words,
 * is the app: the task goes on right there. Otherwise, once the candidates are read, the best-scoring one is
 * opened (nothing scored: the request fits no app, failure).
 *
 * Order: apps the policy already knows by topic (`knownOffTopic`: its everyday-task readers route alarms to a
 * clock app, e-mail to a mail app, …) whose topic the request does not mention are looked into last — the request
 * reached this reader because none of those readers understood it — and when one of the other apps fitted at all,
 * not looked into. Everything else goes in launcher order. No app names, labels or data here.
 *
 * A label whose `open` leaves the home screen as it was is no app (an icon's glyph read as a label): it scores 0.
 *
 * Memory is the conclusions, as for every goal: `[apps A|B|C]` (the launcher's candidates, read once),
 * `[peek A]` (opened to look), `[seen A=2.5]` (its first screen's score) and `[chose A]`.
 */
import type { OcrLine } from '../types.js';
import { contentWords } from './policy-act.js';
import { knownOffTopic } from './policy-tasks.js';
import { matchScore, normText } from './policy-screen.js';
import { knowsWord, relatedness } from '../wordnet.js';

/** What a request offers to recognise its app by: content words, the verb and its synonyms, names. */
export interface ExploreCue {
  words: string[];
  verbs: string[];
  names: string[];
  /** The request itself (for the topic prior). */
  request: string;
  /** Content words of the whole instruction outside the request (its context: "my bus card ran out, …"). */
  context?: string[];
  /** The whole instruction as written (for the everyday-knowledge prior over its common words). */
  text?: string;
}

export interface ExploreState {
  apps?: string[];
  seen: Map<string, number>;
  /** The app last opened to look into (from the last conclusion). */
  peeking?: string;
  chosen?: string;
}

const LIST = /\[apps ([^\]]*)\]/;
const PEEK = /\[peek ([^\]]+)\]/;
const SEEN = /\[seen ([^\]=]+)=([\d.]+)\]/g;
const CHOSE = /\[chose ([^\]]+)\]/;

export function readExplore(history: string[]): ExploreState {
  const st: ExploreState = { seen: new Map() };
  for (const c of history) {
    const list = LIST.exec(c);
    if (list) st.apps = list[1]!.split('|').filter(Boolean);
    for (const m of c.matchAll(SEEN)) st.seen.set(m[1]!, Number(m[2]));
    const chose = CHOSE.exec(c);
    if (chose) st.chosen = chose[1];
  }
  const last = history[history.length - 1];
  const peek = last ? PEEK.exec(last) : null;
  if (peek) st.peeking = peek[1];
  return st;
}

/**
 * Launcher labels (short capitalised lines below the clock), ordered by how well each label fits the request, apps
 * known by a topic the request does not fit last. A label fits by spelling (a part of it is a word of the request:
 * "ParkSpot" for "parking") and by everyday word knowledge (`knowledgeFit`: "ParcelHub" for a "package").
 */
export function launcherApps(lines: OcrLine[], screen: { height: number }, request: string, extraWords: readonly string[] = [], text = request): string[] {
  const cx = (l: OcrLine): number => l.box.x + l.box.w / 2;
  // An icon's glyph ("Rx") sits on its tile right above the icon's label, centred on the same column: not a label.
  const glyph = (l: OcrLine): boolean =>
    lines.some((o) => o !== l && Math.abs(cx(o) - cx(l)) < 14 && o.box.y > l.box.y + l.box.h && o.box.y - (l.box.y + l.box.h) < 40 && l.box.h >= 1.3 * o.box.h && /^[A-Z][a-z]/.test(o.text.trim()));
  const labels = lines
    .filter((l) => l.box.y > screen.height * 0.2 && l.box.h < 30 && /^[A-Z][\w&' -]{1,20}$/.test(l.text.trim()) && /[a-z]/.test(l.text) && !glyph(l))
    .sort((a, b) => Math.round(a.box.y / 20) - Math.round(b.box.y / 20) || a.box.x - b.box.x)
    .map((l) => l.text.trim());
  const unique = [...new Set(labels)];
  // The request's common words only: a name ("Warby Parker", "CVS Pharmacy") says who or what, not which app — unless
  // the name is the label itself, standing alone ("on Foodie", "in HomeHub").
  // (A verb with its person after it is what to do, not what the app is about: "Book me into …" is no library.)
  const doing = new Set([...text.matchAll(/\b([A-Za-z]+)\s+(?:me|us)\b/g)].map((m) => m[1]!.toLowerCase()));
  const common = commonWords(text).filter((w) => !doing.has(w));
  const words = [...contentWords(request), ...extraWords].filter((w) => common.some((c) => c === w || contentWords(c)[0] === w || stemEq(c, w)));
  // (Units of time say when, not what the app is about: "2 days ago" is no calendar's cue.)
  const topical = common.filter((w) => !/^(?:minutes?|hours?|days?|weeks?|months?|years?|ago|today|tomorrow|yesterday|tonight)$/.test(w));
  // The kind of app the request names ("my plant app", "the parking app"): its topic counts double.
  const kind = /\b(?:my|the|a|your|our)\s+([a-z]{3,})\s+app\b/.exec(text)?.[1];
  const topic = kind ? [kind] : [];
  const prior = (a: string): number =>
    labelFit(a, words) + knowledgeFit(a, topical) + (topic.length ? 2 * (labelFit(a, topic) + knowledgeFit(a, topic)) : 0) + (mentionsAlone(text, a) ? 2 : 0);
  const ranked = unique.map((a, i) => ({ a, i, p: prior(a) })).sort((x, y) => y.p - x.p || x.i - y.i).map((x) => x.a);
  return [...ranked.filter((a) => !knownOffTopic(a, request)), ...ranked.filter((a) => knownOffTopic(a, request))];
}

/** The text says the label as a name of its own, not as a word of a longer name ("CVS Pharmacy" is no Pharmacy app). */
export function mentionsAlone(text: string, label: string): boolean {
  const esc = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // (A made-up compound brand — a capital inside the word, "PulseFit" — names its app even before a name of its own:
  // "my PulseFit Vinyasa Flow class".)
  const brand = /^[A-Z][a-z]{2,}[A-Z][a-z]+$/.test(label) && !knowsWord(label.toLowerCase());
  for (const m of text.matchAll(new RegExp(`\\b${esc}\\b${brand ? '' : '(?!\\s+[A-Z0-9])'}`, 'g'))) {
    // The word before it, if capitalised, makes it part of a longer name — unless that word starts the sentence
    // ("Search Foodie for …", "New FreshFold address: …").
    const before = text.slice(0, m.index).trimEnd();
    const prev = /([A-Za-z][\w'&-]*)$/.exec(before);
    const startsSentence = (at: number): boolean => /(?:^|[.!?:;]\s*)$/.test(before.slice(0, at).trimEnd() === '' ? '' : before.slice(0, at));
    if (!prev || !/^[A-Z]/.test(prev[1]!) || startsSentence(prev.index)) return true;
  }
  return false;
}

/**
 * A text's common words: lower-case content words outside names (a capitalised word not starting a sentence is part
 * of a name; a sentence's first word counts when it is an ordinary English word — "Cancel", "Ship").
 */
export function commonWords(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[A-Za-z][A-Za-z'-]+/g)) {
    const w = m[0];
    const before = text.slice(0, m.index).trimEnd();
    const starts = before === '' || /[.!?:;]$/.test(before) || /["“(]$/.test(before);
    if (/^[A-Z]/.test(w) && !(starts && /^[A-Z][a-z]+$/.test(w) && knowsWord(w))) continue;
    // (The word as written, not stemmed: the lexicon finds "bus" under "bus", not "bu".)
    if (contentWords(w).length > 0) out.push(w.toLowerCase());
  }
  return [...new Set(out)];
}

/**
 * How well a label's parts fit the request's common words in everyday English (WordNet synonyms count 1, a word of
 * the other's definition or a direct link half): "ParcelHub" and "package", "CineMax" and nothing (a made-up part
 * the lexicon does not know). A part that is itself a request word is left to spelling (`labelFit`).
 */
export function knowledgeFit(label: string, words: readonly string[]): number {
  let fit = 0;
  for (const whole of labelParts(label)) {
    // A made-up brand word is often a word with an ending ("Fernly" → fern): its longest known start of ≥ 4 letters.
    const part = knowsWord(whole) ? whole : (Array.from({ length: whole.length - 4 }, (_, k) => whole.slice(0, whole.length - 1 - k)).find((p) => knowsWord(p)) ?? whole);
    if (!knowsWord(part) || words.some((w) => stemEq(w, part))) continue;
    fit += Math.max(0, ...words.map((w) => relatedness(part, w, 2, true)));
  }
  return fit;
}

/** The words of a launcher label: its spaced, hyphenated or camel-case parts ("HomeHub" → home, hub). */
export function labelParts(label: string): string[] {
  return label
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 3);
}

/** How many of a label's parts are a word of the request, by stem or a shared start of ≥ 4 letters ("park"/"parking"). */
export function labelFit(label: string, words: readonly string[]): number {
  // A request word without its ending ("parking" → "park") that starts or ends a label part ("Parkspot", "EasyPark").
  const root = (w: string): string => w.replace(/(?:ing|ed|er|s)$/, '');
  const near = (part: string, w: string): boolean =>
    stemEq(part, w) || (part.length >= 4 && w.length >= 4 && (w.startsWith(part) || part.startsWith(w))) || (root(w).length >= 4 && (part.startsWith(root(w)) || part.endsWith(root(w))));
  return labelParts(label).filter((part) => words.some((w) => near(part, w))).length;
}

/**
 * Two words of one stem ("reminder"/"reminders", "subscription"/"subscribe"), or a compound and its head noun ("citycard"
 * and "card", "auto-reload" and "reload"): English morphology, no word lists.
 */
export const stemEq = (a: string, b: string): boolean => {
  if (a === b || (a.length >= 5 && b.length >= 5 && (a.startsWith(b) || b.startsWith(a)))) return true;
  const parts = (w: string): string[] => w.split('-').filter((p) => p.length >= 4);
  if (parts(a).some((p) => p === b) || parts(b).some((p) => p === a)) return true;
  const [long, short] = a.length >= b.length ? [a, b] : [b, a];
  // (A compound is a word of at most twelve letters: an OCR run of merged words — "thesongofachilles" — is not one.)
  return short.length >= 4 && long.length >= short.length + 3 && long.length <= 12 && !long.includes('-') && long.endsWith(short);
};

/** How well a screen fits the request (see the file comment), with the words and names it matched. */
/** Words of a request's narrative that say nothing about an app ("coming" is no match for a "Coming soon" page). */
const NARRATIVE = new Set('coming come going soon later still really thank thanks want need like make know look sure think week weekend morning tonight time'.split(' '));

export function screenFit(lines: OcrLine[], cue: ExploreCue): { score: number; matched: string[] } {
  const screenWords = new Set(lines.flatMap((l) => contentWords(l.text)).filter((w) => !NARRATIVE.has(w)));
  // (A weekday also by its short form: a schedule's day strip says "Sat" for "Saturday".)
  const has = (w: string): boolean => [...screenWords].some((s) => stemEq(s, w) || (/^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*day$/.test(w) && (s === w.slice(0, 3) || s === w.slice(0, 4))));
  const matched: string[] = [];
  let score = 0;
  let about = 0;
  // A word of a longer name ("Home" of "Zara Home") or of a date ("June") is weak evidence on its own: half a point
  // (the whole name shown counts two, below).
  const weak = new Set([
    ...cue.names.filter((n) => n.trim().split(/\s+/).length >= 2).flatMap((n) => contentWords(n)),
    ...cue.words.filter((w) => /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*$|day$/.test(w) && w.length >= 3),
  ]);
  for (const w of new Set(cue.words)) {
    if (has(w)) {
      score += weak.has(w) ? 0.5 : 1;
      matched.push(w);
      // A screen about the word says it on several lines ("Find a class", "My classes", "6 class credits left").
      about += lines.filter((l) => contentWords(l.text).some((s) => stemEq(s, w))).length - 1;
    }
  }
  // (A tenth of a point per further line, at most 0.4: it orders apps that fit alike, it never makes a fit decisive.)
  score += Math.min(0.4, Math.max(0, about) * 0.1);
  // Words of the request's context count half, a point at most ("my bus card" for a transit app's card).
  const own = new Set(cue.words);
  const ctx = [...new Set(cue.context ?? [])].filter((w) => !own.has(w) && has(w));
  if (ctx.length > 0) {
    score += Math.min(1, ctx.length * 0.5);
    matched.push(...ctx.map((w) => `(${w})`));
  }
  const verb = cue.verbs.flatMap((v) => contentWords(v)).find(has);
  if (verb) {
    // A button that starts with the verb ("Send money" for "Send $20 to …") says the app does it: a whole point.
    const button = lines.some((l) => {
      const ws = contentWords(l.text);
      return ws.length > 0 && ws.length <= 3 && !/\d/.test(l.text) && stemEq(ws[0]!, verb) && l.text.trim().toLowerCase().startsWith(verb.slice(0, 3));
    });
    // (0.9, not 1: a thing's word shown beats a verb alone — "book" fits a library, "class" a gym.)
    score += button ? 0.9 : 0.5;
    matched.push(verb);
  }
  for (const n of cue.names) {
    if (normText(n).length >= 4 && lines.some((l) => matchScore(l.text, n) >= 0.9)) {
      score += 2;
      matched.push(`"${n}"`);
    }
  }
  return { score: Math.round(score * 100) / 100, matched };
}

/** A first screen that settles the question at once: a name of the request shown, or two of its content words. */
export const decisive = (score: number, matched: string[]): boolean =>
  matched.some((m) => m.startsWith('"')) || (score >= 1.9 && matched.some((m) => !m.startsWith('(')));

/**
 * After looking into this many apps, one that fitted at all is taken (each look costs a step). Eight: a phone with a
 * dozen apps the policy knows nothing about (newly installed ones sit last on the home screen) is still looked through
 * before a weak fit is settled for.
 */
export const PEEK_BUDGET = 8;

/** A first screen that fits well without settling it: a word of the request and more (more lines about it, the verb). */
export const GOOD_FIT = 1.25;

export type ExploreStep =
  | { kind: 'peek'; app: string; note: string; apps?: string[] }
  | { kind: 'stay'; app: string; note: string }
  | { kind: 'open'; app: string; note: string }
  | { kind: 'none'; note: string };

/**
 * The next exploration step. `onLauncher`: the screen is the home screen (candidates are read from it when none
 * are known yet); otherwise the screen is the first screen of `state.peeking`.
 */
export function exploreStep(state: ExploreState, lines: OcrLine[], screen: { height: number }, cue: ExploreCue, onLauncher: boolean): ExploreStep {
  const seen = new Map(state.seen);
  let note = '';
  let fresh: string[] | undefined;
  let apps = state.apps;
  if (!apps && onLauncher) {
    fresh = launcherApps(lines, screen, cue.request, [...cue.words, ...(cue.context ?? [])], cue.text ?? cue.request);
    apps = fresh;
  }
  if (!apps || apps.length === 0) return { kind: 'none', note: 'no launcher apps to look into' };
  if (state.peeking && onLauncher && !seen.has(state.peeking)) {
    // Opening it left the home screen as it was: that label is no app (an icon's glyph read as text, a widget).
    seen.set(state.peeking, 0);
    note = `[seen ${state.peeking}=0]`;
  } else if (state.peeking && !onLauncher && !seen.has(state.peeking)) {
    const fit = screenFit(lines, cue);
    seen.set(state.peeking, fit.score);
    note = `[seen ${state.peeking}=${fit.score}]`;
    if (decisive(fit.score, fit.matched)) return { kind: 'stay', app: state.peeking, note: `${note} [chose ${state.peeking}]` };
    // The app whose name fits the kind of app the request names ("my plant app" → Fernly), looked into first: a first
    // screen that shares a word with the request confirms it.
    const kind = /\b(?:my|the|a|your|our)\s+([a-z]{3,})\s+app\b/.exec(cue.text ?? cue.request)?.[1];
    const expected = !!kind && state.peeking === apps[0] && labelFit(state.peeking, [kind]) + knowledgeFit(state.peeking, [kind]) > 0;
    // (The kind itself shown confirms it too, however little else of the request shows: "Movies" for "my movie app".)
    const showsKind = !!kind && lines.some((l) => contentWords(l.text).some((w) => stemEq(w, kind)));
    if (expected && ((fit.score >= 1 && fit.matched.some((m) => !m.startsWith('('))) || showsKind)) return { kind: 'stay', app: state.peeking, note: `${note} [chose ${state.peeking}]` };
    // Half the looks taken and this first screen shows a word of the request on several lines, where none before showed
    // as much: each further look costs a step the task needs, so the good fit is taken now.
    const earlier = [...seen].filter(([a]) => a !== state.peeking).map(([, v]) => v);
    if (seen.size >= PEEK_BUDGET / 2 && fit.score >= GOOD_FIT && fit.matched.some((m) => !m.startsWith('(') && !m.startsWith('"')) && earlier.every((v) => v < fit.score / 2)) {
      return { kind: 'stay', app: state.peeking, note: `${note} [chose ${state.peeking}]` };
    }
  }
  const others = apps.filter((a) => !knownOffTopic(a, cue.request));
  const best = (among: string[]): string | undefined => {
    const scored = among.filter((a) => (seen.get(a) ?? 0) > 0).sort((a, b) => (seen.get(b) ?? 0) - (seen.get(a) ?? 0) || among.indexOf(a) - among.indexOf(b));
    return scored[0];
  };
  // Enough looks taken and one app fitted: no more looking.
  const enough = seen.size >= PEEK_BUDGET && best(apps) !== undefined;
  const next = enough ? undefined : (others.find((a) => !seen.has(a)) ?? (best(others) ? undefined : apps.find((a) => !seen.has(a))));
  if (next) return { kind: 'peek', app: next, note: `${note} [peek ${next}]`.trim(), ...(fresh ? { apps: fresh } : {}) };
  const pick = best(others) ?? best(apps);
  if (!pick) return { kind: 'none', note: `${note} no app's first screen shares a word with the request`.trim() };
  if (pick === state.peeking && !onLauncher) return { kind: 'stay', app: pick, note: `${note} [chose ${pick}]` };
  return { kind: 'open', app: pick, note: `${note} [chose ${pick}]`.trim() };
}
