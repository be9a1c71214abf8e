import sharp from 'sharp';
import type { OcrLine } from '../domain/ports.js';

/**
 * PII and secrets scrubbing before any export (and masking in the review queue).
 *
 * Detection is span-based over one text: API keys, e-mail addresses, IBANs (mod-97 checked), card numbers
 * (Luhn checked), phone numbers, one-time codes. Each span becomes a typed placeholder (`[EMAIL]`, `[PHONE]`,
 * `[IBAN]`, `[CARD]`, `[OTP]`, `[API_KEY]`). A value found once is remembered by a `Scrubber`, so a later bare
 * occurrence of the same code (a `type` action's text, far from any "code" word) is replaced too.
 *
 * Low false positives matter as much as recall (training text must keep its numbers): prices, times, dates,
 * quantities, step counts, invoice numbers and content hashes (hex blob keys) survive. Rules that make that so:
 * a phone needs 7–15 digits in separated groups (or a leading `+`/parentheses), never a date shape; a bare digit
 * run is a one-time code only within 40 characters of a word like code/verification/OTP/PIN; a generic token is
 * a secret only when it is ≥ 32 characters, mixes upper case, lower case and digits, and has high entropy.
 */
export const PII_KINDS = ['email', 'phone', 'iban', 'card', 'otp', 'api_key'] as const;
export type PiiKind = (typeof PII_KINDS)[number];
export type PiiCounts = Record<PiiKind, number>;

export const noPii = (): PiiCounts => ({ email: 0, phone: 0, iban: 0, card: 0, otp: 0, api_key: 0 });

/** The placeholder each kind is replaced with. */
export const PII_PLACEHOLDER: Record<PiiKind, string> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  iban: '[IBAN]',
  card: '[CARD]',
  otp: '[OTP]',
  api_key: '[API_KEY]',
};

/** One detected span: `text.slice(start, end) === value`. */
export interface PiiSpan {
  kind: PiiKind;
  start: number;
  end: number;
  value: string;
}

/** Adds `b` into `a` (returns `a`). */
export function addCounts(a: PiiCounts, b: PiiCounts): PiiCounts {
  for (const k of PII_KINDS) a[k] += b[k];
  return a;
}

// ------------------------------------------------------------------------------------------- detectors

const digitsOf = (s: string): string => s.replace(/\D/g, '');

/** Luhn checksum (card numbers). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** ISO 13616 IBAN check: move the first four characters to the end, letters → 10..35, value mod 97 = 1. */
export function ibanValid(iban: string): boolean {
  const s = iban.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  const moved = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const v = ch >= 'A' && ch <= 'Z' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

/** Shannon entropy in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

interface Detector {
  kind: PiiKind;
  re: RegExp;
  /** Accepts (or rejects) a match; `text` and `index` give context. */
  accept?: (value: string, text: string, index: number) => boolean;
}

// Vendor key shapes: OpenAI/Anthropic `sk-…`, AWS access key ids, GitHub tokens, Slack tokens, Google API keys,
// JWTs. Then generic long high-entropy tokens.
const API_KEY_RE = new RegExp(
  [
    String.raw`\bsk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{16,}`,
    String.raw`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
    String.raw`\bgh[pousr]_[A-Za-z0-9]{30,}\b`,
    String.raw`\bgithub_pat_[A-Za-z0-9_]{30,}\b`,
    String.raw`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
    String.raw`\bAIza[0-9A-Za-z_-]{35}\b`,
    String.raw`\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`,
  ].join('|'),
  'g',
);
const TOKEN_RE = /(?<![A-Za-z0-9_/+=-])[A-Za-z0-9_+/=-]{32,}(?![A-Za-z0-9_/+=-])/g;

const EMAIL_RE = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const IBAN_RE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g;
const CARD_RE = /(?<![\d-])(?:\d{4}[ -]){3}\d{1,7}(?![\d-])|(?<![\d-])\d{13,19}(?![\d-])/g;
// Groups of 2–4 digits (the first may be 1–4 after a country code), separated by space, dot or dash, with an
// optional +country code and (area) code. Validated below.
const PHONE_RE = /(?<![\w.+/$€£-])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]\d{2,4}){1,4}(?![\w/%-]|[.,:]\d)/g;
const PHONE_WORD_RE = /\b(?:phone|tel|mobile|cell|call|sms|whatsapp|fax)\b/i;
const BARE_PHONE_RE = /(?<![\w.+/$€£-])\+?\d{10,13}(?![\w.,/%-])/g;
const OTP_WORD_RE = /\b(?:codes?|verification|verify|otp|pin|passcode|one[- ]time|2fa|mfa|security code|auth(?:entication)?)\b/i;
const OTP_RE = /(?<![\w.,:/$€£#-])\d{4,8}(?![\w%/-]|[.,:]\d)/g;
const OTP_FORMATTED_RE = /(?<![\w.,:/$€£#-])\d{3}[- ]\d{3}(?![\w%/-]|[.,:]\d)/g;

const YEAR = /^(?:19|20)\d{2}$/;

/** True for groups that read as a date: 2024-01-15, 15.01.2024, 01 15 2024. */
function looksLikeDate(groups: string[]): boolean {
  if (groups.length !== 3) return false;
  const [a, b, c] = groups as [string, string, string];
  const small = (x: string, max: number): boolean => x.length <= 2 && Number(x) >= 1 && Number(x) <= max;
  if (YEAR.test(a) && small(b, 12) && small(c, 31)) return true;
  if (YEAR.test(c) && ((small(a, 31) && small(b, 12)) || (small(a, 12) && small(b, 31)))) return true;
  return false;
}

function phoneAccept(value: string, text: string, index: number): boolean {
  const digits = digitsOf(value);
  if (digits.length < 7 || digits.length > 15) return false;
  const groups = value.replace(/^\+\d{1,3}[ .-]?/, '').replace(/[()]/g, ' ').trim().split(/[ .-]+/).filter(Boolean);
  if (looksLikeDate(groups)) return false;
  const separators = new Set(value.replace(/[\d()+]/g, ''));
  // A dotted group list without a + or a phone word is more often a version or an amount than a number.
  const before = text.slice(Math.max(0, index - 30), index);
  const strong = value.startsWith('+') || value.includes('(') || PHONE_WORD_RE.test(before);
  if (separators.has('.') && !strong) return false;
  // Space-only groups of a short number ("12 30 45") are quantities unless a phone word or + says otherwise.
  if (!strong && separators.size === 1 && separators.has(' ') && digits.length < 10) return false;
  return true;
}

/** A code word within `after` characters after the value, or before it (a year: only as the preceding word). */
function otpContext(text: string, i: number, len: number, after: number): boolean {
  const before = text.slice(Math.max(0, i - (after === 0 ? 14 : 40)), i);
  if (after === 0) return new RegExp(`${OTP_WORD_RE.source}\\W{0,3}$`, 'i').test(before);
  return OTP_WORD_RE.test(before) || OTP_WORD_RE.test(text.slice(i + len, i + len + after));
}

const DETECTORS: readonly Detector[] = [
  { kind: 'api_key', re: API_KEY_RE },
  {
    kind: 'api_key',
    re: TOKEN_RE,
    accept: (v) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /\d/.test(v) && entropy(v) >= 4.0 && !/^[A-Za-z]+$/.test(v),
  },
  { kind: 'email', re: EMAIL_RE },
  { kind: 'iban', re: IBAN_RE, accept: (v) => ibanValid(v) },
  {
    kind: 'card',
    re: CARD_RE,
    accept: (v) => {
      const d = digitsOf(v);
      return d.length >= 13 && d.length <= 19 && /^[2-6]/.test(d) && luhnValid(d);
    },
  },
  { kind: 'phone', re: PHONE_RE, accept: phoneAccept },
  {
    kind: 'phone',
    re: BARE_PHONE_RE,
    accept: (v, text, i) => PHONE_WORD_RE.test(text.slice(Math.max(0, i - 30), i)) || v.startsWith('+'),
  },
  // 123-456 is a code anywhere; 123 456 only next to a code word (room numbers, quantities).
  { kind: 'otp', re: OTP_FORMATTED_RE, accept: (v, text, i) => v.includes('-') || otpContext(text, i, v.length, 40) },
  {
    kind: 'otp',
    re: OTP_RE,
    // A year is a code only right after the word ("PIN 2024"), never elsewhere in a sentence about codes.
    accept: (v, text, i) => otpContext(text, i, v.length, YEAR.test(v) ? 0 : 40),
  },
];

/** Finds every PII/secret span in `text`, earliest detector wins on overlaps; spans are sorted by start. */
export function findPii(text: string, known: ReadonlyMap<string, PiiKind> = new Map()): PiiSpan[] {
  const spans: PiiSpan[] = [];
  const taken = (s: number, e: number): boolean => spans.some((x) => s < x.end && e > x.start);
  for (const d of DETECTORS) {
    d.re.lastIndex = 0;
    for (let m = d.re.exec(text); m; m = d.re.exec(text)) {
      const value = m[0];
      const start = m.index;
      const end = start + value.length;
      if (taken(start, end)) continue;
      if (d.accept && !d.accept(value, text, start)) continue;
      spans.push({ kind: d.kind, start, end, value });
    }
  }
  // Values seen before (in this text or an earlier one of the same scrubber) are secrets wherever they recur.
  for (const [value, kind] of known) {
    if (value.length < 4) continue;
    const re = new RegExp(`(?<![\\w])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`, 'g');
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (!taken(m.index, m.index + value.length)) spans.push({ kind, start: m.index, end: m.index + value.length, value });
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

function replaceSpans(text: string, spans: readonly PiiSpan[], render: (s: PiiSpan) => string): string {
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + render(s);
    at = s.end;
  }
  return out + text.slice(at);
}

/**
 * `findPii`, then again with the values it found added to `known`: a code stated once next to "code" and repeated
 * bare further on (the `type` action's text in a tool call) is caught at both places.
 */
function detect(text: string, known: ReadonlyMap<string, PiiKind>): PiiSpan[] {
  const first = findPii(text, known);
  const fresh = first.filter((s) => !known.has(s.value));
  if (fresh.length === 0) return first;
  const more = new Map(known);
  for (const s of fresh) {
    more.set(s.value, s.kind);
    const bare = digitsOf(s.value);
    if ((s.kind === 'otp' || s.kind === 'phone' || s.kind === 'card') && bare.length >= 6 && !more.has(bare)) more.set(bare, s.kind);
  }
  return findPii(text, more);
}

// ------------------------------------------------------------------------------------------- scrubbers

/**
 * A scrubber remembers the values it has found, so the same secret is caught wherever it recurs across the texts
 * and images of one sample (or one export). `counts` accumulates over every call.
 */
export interface Scrubber {
  text(text: string): string;
  image(image: Uint8Array, lines: readonly OcrLine[]): Promise<{ image: Uint8Array; regions: number }>;
  readonly counts: PiiCounts;
  /** Distinct values found so far (for tests and audits; never export it). */
  readonly found: ReadonlyMap<string, PiiKind>;
}

export function createScrubber(): Scrubber {
  const counts = noPii();
  const found = new Map<string, PiiKind>();
  const remember = (spans: readonly PiiSpan[]): void => {
    for (const s of spans) {
      counts[s.kind]++;
      if (!found.has(s.value)) found.set(s.value, s.kind);
      // A code is also typed without its separator ("123-456" → "123456"); remember that spelling too.
      const bare = digitsOf(s.value);
      if ((s.kind === 'otp' || s.kind === 'phone' || s.kind === 'card') && bare.length >= 6 && !found.has(bare)) found.set(bare, s.kind);
    }
  };
  return {
    counts,
    found,
    text(text) {
      if (!text) return text;
      const spans = detect(text, found);
      if (spans.length === 0) return text;
      remember(spans);
      return replaceSpans(text, spans, (s) => PII_PLACEHOLDER[s.kind]);
    },
    async image(image, lines) {
      const boxes = piiLineBoxes(lines, found);
      remember(boxes.spans);
      if (boxes.boxes.length === 0) return { image, regions: 0 };
      return { image: await blurRegions(image, boxes.boxes), regions: boxes.boxes.length };
    },
  };
}

/** Replaces every PII/secret span in `text` with a typed placeholder (e.g. `[EMAIL]`) and counts them. */
export function scrubText(text: string): { text: string; counts: PiiCounts } {
  const s = createScrubber();
  return { text: s.text(text), counts: { ...s.counts } };
}

/**
 * For showing text to a reviewer: each span keeps its kind and its last two characters (`[PHONE ••88]`), enough
 * to tell two numbers apart without revealing them.
 */
export function maskForDisplay(text: string): string {
  const spans = detect(text, new Map());
  return replaceSpans(text, spans, (s) => `[${s.kind.toUpperCase()} ••${s.value.replace(/\s/g, '').slice(-2)}]`);
}

/** Blurs the screenshot regions whose OCR'd text holds PII/secrets; returns the new image bytes (PNG). */
export async function scrubImage(image: Uint8Array, lines: readonly OcrLine[]): Promise<{ image: Uint8Array; counts: PiiCounts; regions: number }> {
  const s = createScrubber();
  const r = await s.image(image, lines);
  return { image: r.image, counts: { ...s.counts }, regions: r.regions };
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * The OCR lines holding PII. Lines are joined in reading order with newlines, so a keyword on the line above a
 * code ("Your verification code" / "482913") still makes it a code; a span is mapped back to every line it touches.
 */
export function piiLineBoxes(lines: readonly OcrLine[], known: ReadonlyMap<string, PiiKind> = new Map()): { boxes: Box[]; spans: PiiSpan[] } {
  const offsets: { start: number; end: number; line: OcrLine }[] = [];
  let text = '';
  for (const line of lines) {
    offsets.push({ start: text.length, end: text.length + line.text.length, line });
    text += line.text + '\n';
  }
  const spans = detect(text, known);
  const hit = new Set<OcrLine>();
  for (const s of spans) for (const o of offsets) if (s.start < o.end && s.end > o.start) hit.add(o.line);
  return { boxes: [...hit].map((l) => l.box), spans };
}

/** Padding around an OCR box (px): detectors cut boxes tight to the glyphs and anti-aliasing bleeds past them. */
const BLUR_PAD = 4;

async function blurRegions(image: Uint8Array, boxes: readonly Box[]): Promise<Uint8Array> {
  const base = sharp(image);
  const { width = 0, height = 0 } = await base.metadata();
  const overlays = [];
  for (const b of boxes) {
    const left = Math.max(0, Math.floor(b.x - BLUR_PAD));
    const top = Math.max(0, Math.floor(b.y - BLUR_PAD));
    const w = Math.min(width - left, Math.ceil(b.w + 2 * BLUR_PAD));
    const h = Math.min(height - top, Math.ceil(b.h + 2 * BLUR_PAD));
    if (w < 1 || h < 1) continue;
    // Pixelate (down to 1/8, back up) then Gaussian-blur: unreadable to OCR and to people, still a "text here" blob.
    const small = await sharp(image).extract({ left, top, width: w, height: h }).resize(Math.max(1, Math.round(w / 8)), Math.max(1, Math.round(h / 8))).toBuffer();
    const input = await sharp(small).resize(w, h, { kernel: 'nearest' }).blur(Math.max(3, h / 3)).png().toBuffer();
    overlays.push({ input, left, top });
  }
  return new Uint8Array(await base.composite(overlays).png().toBuffer());
}

/**
 * Scrubs every string inside a JSON value (a sample, a role record) with one scrubber, so a secret found in one
 * field is caught in every other. Keys in `skipKeys` (image URIs, blob keys, lineage) are copied unchanged.
 */
export function scrubJsonStrings<T>(value: T, scrubber: Scrubber, opts: { skipKeys?: readonly string[] } = {}): T {
  const skip = new Set(opts.skipKeys ?? []);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubber.text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, skip.has(k) ? x : walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}
