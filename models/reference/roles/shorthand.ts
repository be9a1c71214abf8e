/**
 * Everyday shorthand, read before anything else: chat abbreviations ("w/", "tix", "prefs", "pls" mid-sentence), the
 * verb said last ("Back Door unlock pls", "X on July 26 18:00, add to calendar"), a count of tickets with no verb ("4
 * adult tix for X"), what not to touch said after the request ("…; keep the other locks locked", "…, only that one"),
 * and where the thing is picked up said as a purpose ("… so I can collect it at X"). English usage only: no app's or
 * task family's words.
 */
import { isVerb } from '../wordnet.js';
import { cap1, IMPERATIVES } from './text-match.js';

/** A verb that can start a request (an imperative the readers know, or any English verb that is not a noun first). */
const requestVerb = (w: string): boolean => IMPERATIVES.has(w.toLowerCase()) || /^(?:unlock|lock|renew|refill|cancel|book|reserve|archive|delete|remove|star|pin|mute|track|pay|freeze|unfreeze|extend)$/i.test(w);

/** Words that say the rest of a sentence is about what else to leave alone ("the other locks", "anything similar"). */
const OTHERS = String.raw`(?:other|others|rest|else|else['’]s|similar|similar-looking|anything|anyone|everyone|already|existing|remaining|every|all)`;

export function everydayShorthand(text: string): string {
  let s = text;
  // Chat abbreviations: "w/" is "with"; "tix" tickets; "prefs" preferences; "appt" appointment; "msg" message; a "pls"
  // inside the request is courtesy ("more X for Luna pls, 60-day supply").
  s = s
    .replace(/\bw\/\s*(?=\S)/gi, 'with ')
    .replace(/\btix\b/gi, 'tickets')
    .replace(/\bprefs\b/gi, 'preferences')
    .replace(/\bappts?\b/gi, (m) => (m.endsWith('s') ? 'appointments' : 'appointment'))
    .replace(/(?<=\S)\s+(?:pls|plz)\b(?=\s*[,;])/gi, '');
  // What else to leave alone, said after the request, adds no step: "…; keep the other locks locked", "…, and don't touch
  // anything with a similar name", "…, only that one", "the Back Gate only;".
  let kindOf: string | undefined;
  // (The kind the clause names — "keep the other notes" — stays when the request says no kind of its own: "Remove
  // the X note".)
  s = s.replace(/,?\s+(?:only|just)\s+(?:that|this|the)\s+one\b(?:\s+[a-z]+)?(?=\s*[,.!?;]|$)/gi, '');
  s = s.replace(new RegExp(String.raw`(?:\s*[;,]\s*(?:and\s+)?|\s+and\s+)(?:leave|keep|don['’]t\s+(?:touch|change|cancel|edit|delete|remove|move)|do\s+not\s+(?:touch|change|cancel|edit|delete|remove|move)|be\s+careful\s+not\s+to\s+[a-z]+)\b[^.!?;"“]*?\b${OTHERS}\b[^.!?;"“]*(?=[.!?]|$)`, 'gi'), (clause: string, at: number, whole: string) => {
    const kind = /\b(?:other|rest\s+of\s+(?:my|the))\s+([a-z]{3,}s)\b/i.exec(clause)?.[1];
    if (!kind) return '';
    const before = whole.slice(0, at);
    const stem = kind.replace(/e?s$/, '').slice(0, 4);
    if (new RegExp(`\\b${stem}`, 'i').test(before.replace(/^.*[.!?]\s+/, ''))) return '';
    if (!/\b(?:delete|remove|get\s+rid\s+of|trash|erase|archive|cancel)\b/i.test(before)) return clause;
    kindOf = kind.toLowerCase().replace(/(?<=(?:s|x|ch|sh))es$|s$/, '');
    return '';
  });
  if (kindOf) s = s.replace(/\b(delete|remove|get\s+rid\s+of|trash|erase|archive|cancel)\s+(?:the\s+)?([A-Z][^.!?;,]*?)(?=[.!?]*$)/i, `$1 the $2 ${kindOf}`);
  s = s.replace(/(?<=\b[A-Z][\w'’-]*)\s+only(?=\s*[;,.!?]|\s*$)/g, '');
  // "Keep a copy of X on my phone (so I can open it offline)" → "Make X available offline": a copy kept on the device.
  s = s.replace(/\b[Kk]eep\s+(?:a\s+)?(?:local\s+)?cop(?:y|ies)\s+of\s+(.+?)\s+on\s+(?:my|this|the)\s+(?:phone|device)\b[^.!?]*/g, 'Make $1 available offline');
  // "… so I can collect it at X" → "… for pickup at X": where a thing is to be picked up, said as a purpose.
  s = s.replace(/\s+so\s+(?:that\s+)?I\s+can\s+(?:collect|pick(?:\s+up)?|get|grab)\s+(?:it|them)(?:\s+up)?\s+(?:at|from)\s+/gi, ' for pickup at ');
  // The verb said last: "Back Door unlock pls" → "Unlock Back Door".
  const last = /^((?:the\s+|my\s+)?[A-Z][\w'’&-]*(?:\s+[A-Z0-9][\w'’&-]*)*)\s+([a-z]+)(?:\s+(?:pls|plz|please|now|asap))?\s*([.!]*)$/.exec(s.trim());
  if (last && requestVerb(last[2]!) && isVerb(last[2]!)) return `${cap1(last[2]!)} ${/^(?:the|my)\s/i.test(last[1]!) ? '' : 'the '}${last[1]}${last[3] || ''}`;
  // "X on July 26 18:00, add to calendar" → "Add X on July 26 18:00 to calendar": a thing, then the verb and where it goes.
  const after = /^((?:the\s+|my\s+)?[^,;.!?]*?[A-Z][^;.!?]*?),\s+(?:please\s+|just\s+)?([a-z]+)\s+((?:to|on|in|into|onto|from|off)\s+(?:my\s+|the\s+)?[A-Za-z][\w-]*(?:\s+app)?)\s*([.!]*)$/.exec(s.trim());
  if (after && requestVerb(after[2]!) && !requestVerb(after[1]!.split(/\s+/)[0]!)) return `${cap1(after[2]!)} ${after[1]} ${after[3]}${after[4] || ''}`;
  // "low balance warning at $100" → "Set the low balance warning to $100": a verbless setting with an amount.
  const amount = /^((?:[a-z][\w-]*\s+){0,4}[a-z][\w-]*)\s+(?:at|to|of)\s+([$€£]\s?\d[\d,]*(?:\.\d{1,2})?)\s*([.!]*)$/.exec(s.trim());
  if (amount && !requestVerb(amount[1]!.split(/\s+/)[0]!)) return `Set the ${amount[1]} to ${amount[2]}${amount[3] || ''}`;
  // "4 adult tickets for X, …": a count of tickets or seats is a purchase.
  s = s.replace(/^(\d+)\s+((?:[a-z]+\s+)?(?:tickets?|seats?))\s+(for|to)\s+/i, 'Buy $1 $2 $3 ');
  return s;
}
