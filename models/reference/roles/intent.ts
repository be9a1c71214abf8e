/**
 * Request reading shared by the reference policy and critics: what is asked, independent of how it is worded.
 *
 * `requestCore` removes the *discourse* around a request — courtesy and indirect frames ("Could you please …?",
 * "I'd like you to …", "Go ahead and …", "…, please"), and sentences that carry nothing to act on (context such
 * as "I'm in a bit of a rush." or a closing "Thanks!") — leaving the request itself for the task readers. The
 * frames are English discourse markers, not any app's or task family's vocabulary; a sentence is dropped only
 * when it names nothing (no capitalised word after its first, no number, no quote, no address), was not
 * itself framed as a request ("Please fix it." stays) and another sentence is kept.
 *
 * `entityEnd` is the boundary rule for entities read from free text: a name or value stops at a function word
 * ("Set Dark mode to Off in Settings" → value "Off", not "Off in Settings").
 */

/** Leading courtesy/indirect frames, longest first (each is removed repeatedly: "Kindly, please …"). */
const LEAD_FRAMES: readonly RegExp[] = [
  /^(?:could|can|would|will)\s+i\s+ask\s+you\s+to\s+/i,
  /^(?:could|can|would|will)\s+you\s+(?:please\s+|kindly\s+)?(?=\w)(?!tell\b|say\b|let me know\b|find out\b)/i,
  /^(?:i'd|i\s+would|i)\s+(?:like|need|want)\s+you\s+to\s+/i,
  /^(?:please|kindly|pls|plz)\s*,?\s+/i,
  /^go\s+ahead\s+and\s+/i,
  /^help\s+me\s+out\s+and\s+/i,
];
/** Trailing courtesy: ", please", " for me", " thanks". */
const TRAIL_FRAMES: readonly RegExp[] = [/,?\s+please\s*$/i, /,?\s+(?:thanks|thank you)\s*$/i];

/** A sentence that names something to act on: a capitalised word after its first, a number, a quote, an e-mail. */
function namesSomething(sentence: string): boolean {
  const words = sentence.trim().split(/\s+/).slice(1);
  return words.some((w) => /^["“'(]?[\p{Lu}\p{N}$€£]/u.test(w) && !/^I(?:'[a-z]+)?[,.!?:;]*$/.test(w)) || /["“”]|\d|@/.test(sentence);
}

/** Splits into sentences at ". ", "! " and "? " followed by a capital (never inside quotes). */
function sentences(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    cur += ch;
    if (ch === '"' || ch === '“' || ch === '”') quoted = !quoted;
    if (!quoted && /[.!?]/.test(ch) && /\s/.test(text[i + 1] ?? '') && /[\p{Lu}"“]/u.test(text.slice(i + 1).trimStart()[0] ?? '')) {
      out.push(cur.trim());
      cur = '';
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function stripFrames(sentence: string): { text: string; framed: boolean } {
  let s = sentence.trim();
  const question = /\?\s*$/.test(s);
  let changed = true;
  let framed = false;
  while (changed) {
    changed = false;
    for (const re of LEAD_FRAMES) {
      const next = s.replace(re, '');
      if (next !== s) {
        s = next;
        changed = true;
        framed = true;
      }
    }
  }
  const end = /[.!?]+$/.exec(s)?.[0] ?? '';
  let body = s.slice(0, s.length - end.length);
  for (const re of TRAIL_FRAMES) body = body.replace(re, '');
  // A framed question ("Could you X?") is a request: its "?" becomes a full stop.
  const stop = framed && question ? '.' : end;
  body = body.trim();
  return { text: framed && body ? body[0]!.toUpperCase() + body.slice(1) + stop : body + stop, framed };
}

/**
 * The request without its discourse: courtesy frames removed from every sentence, content-free context and
 * closing sentences dropped. An instruction that is all request comes back unchanged (apart from frames).
 */
export function requestCore(instruction: string): string {
  const text = instruction.replace(/\s+/g, ' ').trim();
  if (!text) return text;
  const parts = sentences(text).map(stripFrames).filter((s) => /\w/.test(s.text));
  // A sentence that was framed as a request ("Please fix it.") is kept even when it names nothing.
  const keep = (s: { text: string; framed: boolean }): boolean => s.framed || namesSomething(s.text);
  const kept = parts.some(keep) ? parts.filter(keep) : parts;
  return kept.map((s) => s.text).join(' ').trim();
}

/** Function words that end an entity read from free text ("Off in Settings" → "Off"). */
export const FUNCTION_WORDS = /^(?:in|on|at|to|from|for|with|by|of|via|using|inside|under|and|or|but|then|so|please|now|the|a|an|my|your|this|that)$/i;

/** Cuts a free-text entity at its first function word after the first word. */
export function entityEnd(value: string): string {
  const words = value.trim().split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && FUNCTION_WORDS.test(w.replace(/[,.;:!?]+$/, '')));
  return (cut > 0 ? words.slice(0, cut) : words).join(' ').replace(/[,.;:!?]+$/, '');
}
