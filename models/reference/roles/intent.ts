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
 * `instructionEntities` reads the key entities (quoted strings, names introduced by "called/titled/saying",
 * "my <kind> X" / "the X <kind>", e-mail addresses, capitalised runs, numbers); moved here from the critics so
 * policy and critics share one reader.
 *
 * `entityEnd` is the boundary rule for entities read from free text: a name or value stops at a function word
 * ("Set Dark mode to Off in Settings" → value "Off", not "Off in Settings").
 */

import { IMPERATIVES, tokens } from './text-match.js';

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
  for (const re of TRAIL_FRAMES) {
    const next = body.replace(re, '');
    // A sentence that ends in "please" is a request ("Add it to the calendar please."), whatever it names.
    if (next !== body && /please\s*$/i.test(body)) framed = true;
    body = next;
  }
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

/** Whether the instruction uses `entity` as the app to work in ("in Foodie", "on ShopMart", "open Mail"). */
export function namesTheApp(instruction: string, entity: string): boolean {
  const e = entity.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`\\b(?:in|on|open|using)\\s+(?:the\\s+)?${e}(?:\\s+app)?\\b`, 'i').test(instruction);
}

/** A name the instruction introduces ("called X", "titled X", "the subject X"): up to the next clause word. */
const NAMED_PHRASE =
  /\b(?:called|titled|named|labell?ed|(?:the )?subject)\s+(?!a\b|an\b|the\b|it\b)([^,.;:!?"“”]+?)(?=\s+(?:that|which|and|then|saying|says|in|on|to|from|with|as|for)\b|[,;:!?]|\.(?:\s|$)|$)/gi;
/** An item named right after its kind: "my note Shopping list", "the contact Diana Hughes", "the email Q3 review". */
const KIND_NAMED =
  /\b(?:my|the)\s+(?:note|contact|event|alarm|email|mail|message|conversation|chat|thread|product|restaurant|setting)\s+(?:with\s+)?([\p{Lu}\p{N}][^,.;:!?"“”]*?)(?=\s+(?:to|that|which|and|then|in|on|from|with|as|for|at)\b|[,;:!?]|\.(?:\s|$)|$)/gu;
/** An item named right before its kind: "my Work late shift alarm", "the Team Meeting event". */
const NAMED_KIND =
  /\b(?:my|the)\s+([\p{Lu}\p{N}][^,.;:!?"“”]*?)\s+(?:alarm|note|event|contact|conversation|email|mail|setting|switch|toggle)\b/gu;
/** A text the instruction dictates ("that says X", "saying X"): up to the end of the sentence. */
const SAID_PHRASE = /\b(?:saying|says|reads|(?:with\s+)?the\s+(?:text|body|message))\s+(?!a\b|an\b|the\b|it\b)([^"“”]+?)(?=[;!?]|\.(?:\s|$)|$)/gi;

/** Key entities of an instruction: quoted strings, capitalised runs, numbers. */
/** Units of a strength or size written after a name (generic measurement abbreviations). */
const UNIT = /^(?:mg|mcg|µg|g|kg|ml|mL|iu|IU|oz|lb|lbs|mm|cm|GB|TB|MB)$/;

export function instructionEntities(instruction: string): string[] {
  const out: string[] = [];
  const add = (s: string): void => {
    const v = s.trim().replace(/[.,;:!?]+$/, '');
    if (v.length > 0 && tokens(v).length > 0 && !out.some((o) => tokens(o).join(' ') === tokens(v).join(' '))) out.push(v);
  };
  let rest = instruction;
  for (const m of instruction.matchAll(/["“”]([^"“”]{1,80})["“”]|(?:^|\s)'([^']{1,80})'(?=[\s.,;:!?]|$)/g)) {
    add(m[1] ?? m[2] ?? '');
    rest = rest.replace(m[0], ' , ');
  }
  // Unquoted names and texts the instruction introduces: "a note called Birthday party that says Call back …".
  for (const m of [...rest.matchAll(NAMED_PHRASE), ...rest.matchAll(SAID_PHRASE), ...rest.matchAll(KIND_NAMED), ...rest.matchAll(NAMED_KIND)]) {
    const v = (m[1] ?? '').trim();
    if (tokens(v).length > 0 && tokens(v).length <= 12) {
      add(v);
      rest = rest.replace(m[1] ?? '', ' , ');
    }
  }
  for (const m of rest.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)) {
    add(m[0]);
    rest = rest.replace(m[0], ' , ');
  }
  const words = rest.split(/\s+/).filter(Boolean);
  let run: string[] = [];
  let sentenceStart = true;
  let unitNext = false;
  const flush = (): void => {
    while (run.length > 0 && /^(of|the|and|&|de)$/i.test(run[run.length - 1] ?? '')) run.pop();
    if (run.length > 0) add(run.join(' '));
    run = [];
  };
  for (const [wi, raw] of words.entries()) {
    const w = raw.replace(/^[([{]+/, '');
    const core = w.replace(/[.,;:!?)\]}]+$/, '');
    const endsClause = core !== w;
    // A sentence's capitalised first word is read as a name only when a capitalised word follows in the same
    // clause ("Sam Taylor has …"); alone ("Erase my …", "Pull up …", "Thanks!") it is the sentence's verb or
    // a courtesy word, whatever the word is — no verb list needed.
    const next = endsClause ? '' : (words[wi + 1] ?? '').replace(/^[([{"“]+/, '');
    const lonelyStart = sentenceStart && !/^[\p{Lu}\p{N}$]/u.test(next);
    // "On"/"Off" are switch positions, never part of a name ("switch Bluetooth On").
    const capital = /^[\p{Lu}\p{N}$]/u.test(core) && !/^(On|Off)$/.test(core);
    const connector = run.length > 0 && /^(of|the|and|&|de)$/i.test(core);
    const unit = (words[wi + 1] ?? '').replace(/[.,;:!?)\]}]+$/, '');
    if (run.length > 0 && !endsClause && /^\d+(?:\.\d+)?$/.test(core) && UNIT.test(unit)) {
      // A strength or size after a name belongs to it ("Sertraline 50 mg", "Vitamin D3 1000 IU"): the unit follows.
      run.push(core);
      unitNext = true;
    } else if (unitNext) {
      run.push(core);
      unitNext = false;
    } else if (/^[$€£]?\d/.test(core)) {
      // Numbers (quantities, times, prices) are entities of their own, never part of a name.
      flush();
      add(core);
    } else if (sentenceStart && capital && (IMPERATIVES.has(core.toLowerCase()) || lonelyStart)) {
      // "Order a ...": an imperative at the start of a sentence is not a name.
    } else if ((capital && core !== 'I') || connector) run.push(core);
    else flush();
    sentenceStart = false;
    if (endsClause) {
      flush();
      if (/[.!?]$/.test(w)) sentenceStart = true;
    }
  }
  flush();
  // A switch position ("Turn Wi-Fi On") is the state asked for, not a name to find on screen.
  return out.filter((e) => !/^(on|off)$/i.test(e));
}

/**
 * Words that are verbs at a clause start but nouns after a determiner ("Text Sam" vs "with the text Buy milk",
 * "Email Bob" vs "the email"): removed with their determiner before reading the intent verb.
 */
const DETERMINED_NOUN = /\b(?:the|a|an|my|your|this|that|its|his|her|their|some)\s+(?:text|message|email|mail|post|reply|note|call)\b/gi;

/** The text an intent verb is read from: the request without entities, quoted texts and determined nouns. */
export function intentText(instruction: string, entities: readonly string[]): string {
  let t = instruction;
  for (const e of entities) t = t.split(e).join(' ');
  return t.replace(/["“”][^"“”]*["“”]/g, ' ').replace(DETERMINED_NOUN, ' ');
}
