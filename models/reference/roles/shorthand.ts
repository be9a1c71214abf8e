/**
 * Everyday shorthand, read before anything else: chat abbreviations ("w/", "tix", "prefs", "pls" mid-sentence), the
 * verb said last ("Back Door unlock pls", "X on July 26 18:00, add to calendar"), a count of tickets with no verb ("4
 * adult tix for X"), what not to touch said after the request ("…; keep the other locks locked", "…, only that one"),
 * and where the thing is picked up said as a purpose ("… so I can collect it at X"). English usage only: no app's or
 * task family's words.
 */
import { isVerb, knowsWord } from '../wordnet.js';
import { cap1, IMPERATIVES } from './text-match.js';

/** A verb that can start a request (an imperative the readers know, or any English verb that is not a noun first). */
const requestVerb = (w: string): boolean => IMPERATIVES.has(w.toLowerCase()) || /^(?:unlock|lock|renew|refill|cancel|book|reserve|archive|delete|remove|star|pin|mute|track|pay|freeze|unfreeze|extend)$/i.test(w);

/** A weekday's name ("Monday"). */
const WEEKDAY_NAME = String.raw`(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day`;
/** A date with its month ("Saturday, June 7", "June 7"). */
const FULL_DATE = String.raw`(?:${WEEKDAY_NAME},?\s+)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?`;
/** A date as people write it: "Saturday, June 7", "June 7", "Monday". */
const DATE = `${FULL_DATE}|${WEEKDAY_NAME}`;

/** Words that say the rest of a sentence is about what else to leave alone ("the other locks", "anything similar"). */
const OTHERS = String.raw`(?:other|others|rest|else|else['’]s|similar|similar-looking|anything|anyone|everyone|already|existing|remaining|every|all)`;

/**
 * Note-style notation, read as the words it stands for: an arrow says where a thing goes or what it becomes ("X alarm
 * -> On" → "X alarm: On", "X -> pickup at Y" → "X, pickup at Y"); "@" before a place or time is "at"; "3x Name" is
 * three of it; a request opened by a lower-case label and a colon ("lost: X on Y - what it looks like") is the label
 * said as its first word, with the dash before the details a colon; "msg"/"cal" stand for message and calendar, and a
 * message's words after "Message X:" are its text.
 */
export function noteNotation(text: string): string {
  let s = text.trim();
  s = s.replace(/\s*(?:->|→|=>)\s*(on|off)\b/gi, (_m, st: string) => `: ${cap1(st.toLowerCase())}`).replace(/\s*(?:->|→|=>)\s*/g, ', ');
  s = s.replace(/\s@\s*(?=[A-Z0-9])/g, ' at ');
  s = s.replace(/\b(\d{1,2})\s?[x×]\s+(?=[A-Z])/g, '$1 ');
  s = s.replace(/^msg\b\.?/i, 'Message').replace(/^cal\b\.?:?/i, 'Calendar:');
  // "notes: rm "X"", "lib: borrow X", "Calendar: rm X": a label and a colon, then a verb — the verb is the request, the
  // label the place it is done in ("Delete "X" in notes"). "rm"/"del" are deletion, as in a shell.
  // (The verb's object a name, a quote or a count of a name — "park: zone 3381, …" is a label and its values; a
  // possessive object is the topic's own: "Chess: cancel Noor's booking" is no app Chess.)
  const placed = /^([A-Za-z]+):\s+(rm|del|[a-z]{3,})\s+(?=[A-Z"“']|\d+\s?[x×]\s+[A-Z])(?![A-Z][\w-]*['’]s\b)/.exec(s);
  if (placed && (/^(?:rm|del)$/.test(placed[2]!) || IMPERATIVES.has(placed[2]!) || isVerb(placed[2]!))) {
    const verb = /^(?:rm|del)$/.test(placed[2]!) ? 'Delete' : cap1(placed[2]!);
    s = `${verb} ${s.slice(placed[0].length).replace(/[.!]+$/, '')} in ${placed[1]!}.`;
  }
  // (One word, before a name: "App prefs: …", "Calendar: …" and "cart: 3 x …" are readers' own shapes.)
  const label = /^([a-z]+):\s+(?=[A-Z"“])/.exec(s);
  if (label && !/^(?:calendar|note|notes|reminder|todo|preferences|settings|options)$/i.test(label[1]!)) {
    s = `${cap1(label[1]!)} ${s.slice(label[0].length)}`;
    if (!s.includes(':')) s = s.replace(/\s[-–]\s/, ': ');
  }
  const msg = /^(Message|Text)\s+([A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,3}):\s+([^"“].*)$/.exec(s);
  if (msg) s = `Message ${msg[2]}: "${msg[3]!.trim()}"`;
  return s;
}

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
  s = noteNotation(s);
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
  // "We'll be away on Friday, October 24. Please cancel X that day" → "… cancel X on Friday, October 24": "that day" is
  // the day the context sentence named.
  const day = new RegExp(String.raw`(?:^|[.!?]\s+)[^.!?]*?\s(on\s+(?:${DATE}))\b[^.!?]*[.!?]\s+(?=[^.!?]*\b(?:that|the\s+same)\s+day\b(?!['’]))`).exec(s);
  if (day) s = s.slice(0, day.index) + s.slice(day.index).replace(day[1]!, '').replace(/\s+,/, ',').replace(/\b(?:that|the\s+same)\s+day\b(?!['’])/, day[1]!);
  // "Something came up on Saturday, June 7, so I won't see Midnight Harbor. Cancel that ReelPass booking …" → "… Cancel
  // my Midnight Harbor booking in ReelPass for Saturday, June 7 …": the booking one no longer goes to is the one of the
  // thing (and the day) the context named.
  const wont = new RegExp(String.raw`(^|[.!?]\s+)([^.!?]*?)(?:,\s*(?:so|and)\s+)?\b(?:I|we)\s+(?:won['’]t|can['’]t|cannot|will\s+not|am\s+not\s+going\s+to|are\s+not\s+going\s+to)\s+(?:be\s+able\s+to\s+)?(?:see|watch|attend|make\s+it\s+to|go\s+to|catch|use)\s+((?:the\s+)?[A-Z][\w'’:-]*(?:\s+(?:[A-Z\d][\w'’:-]*|of|and|the|&))*)([^.!?]*)([.!?])\s+(?=[^.!?]*\b(?:that|this|the)\s+(?:[A-Z][\w&-]*\s+)?(?:booking|reservation|tickets?|appointment|order|class|session|visit)\b)`).exec(s);
  if (wont) {
    const before = wont[2]!;
    const date = new RegExp(String.raw`\bon\s+(${DATE})`).exec(before + wont[4]!)?.[1];
    const context = before.replace(new RegExp(String.raw`,?\s*\bon\s+(?:${DATE})`), '').trim();
    const rest = s.slice(wont.index + wont[0].length).replace(/\b(?:that|this|the)\s+(?:([A-Z][\w&-]*)\s+)?(booking|reservation|tickets?|appointment|order|class|session|visit)\b/, (_a, brand: string | undefined, kind: string) =>
      `my ${wont[3]} ${kind}${brand ? ` in ${brand}` : ''}${date ? ` for ${date}` : ''}`);
    s = `${s.slice(0, wont.index)}${wont[1]}${context ? `${context}${wont[5]} ` : ''}${rest}`;
  }
  // "…; Wallet credit is fine for the money" → "… and take the money back as Wallet credit": the way of a refund one
  // accepts, said as a statement.
  s = s.replace(/([;,.!]\s*|\s+and\s+)((?:[A-Z][\w'’-]*)(?:\s+[\w'’-]+){0,3}?)\s+(?:is|would\s+be|works)\s+(?:fine|ok|okay|good|great)\s+(?:for|as)\s+(?:the\s+|my\s+)?(money|refund)\b(?:\s+back)?/, (_a, _sep: string, way: string, what: string) =>
    ` and take the ${what} back as ${way}`);
  // "… and get the money back with Wallet credit" → "… and take the money back as Wallet credit": how a refund comes.
  s = s.replace(/\b(?:get|have|receive)\s+(?:the\s+|my\s+)?(money|refund|payment)\s+(?:back\s+)?(?:with|as|in|via|through|on|to)\s+(?=(?:my\s+|the\s+)?[A-Z])/, 'take the $1 back as ');
  // "We want to catch X on Thursday, June 5. Please buy 4 tickets for the 7:15 PM show" → "… buy 4 tickets for X on
  // Thursday, June 5 at 7:15 PM": a showing named by its time is one of the thing (and day) the context named.
  const show = new RegExp(String.raw`(^|[.!?]\s+)([^.!?]*?\b(?:catch|see|watch|go\s+to|attend)\s+((?:the\s+)?[A-Z][\w'’:-]*(?:\s+(?:[A-Z\d][\w'’:-]*|of|and|the|&))*)(?:\s+on\s+(${DATE}))?)([.!?])\s+([^.!?]*?)\bfor\s+the\s+(\d{1,2}(?::\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)?)\s+(?:show|showing|screening|performance|session|class)\b`).exec(s);
  // (The context sentence, all said again in the request, goes.)
  if (show) s = `${s.slice(0, show.index)}${show[1]}${show[6]}for ${show[3]}${show[4] ? ` on ${show[4]}` : ''} at ${show[7]}${s.slice(show.index + show[0].length)}`;
  // "Check my Dinner plans note for the delivery address and have X from Y sent there" → "Order X from Y, delivered to
  // the address in my Dinner plans note": sent "there" is to the address read.
  s = s.replace(/\b(?:[Cc]heck|[Ll]ook\s+(?:at|in)|[Rr]ead|[Oo]pen)\s+(?:my\s+|the\s+)?([A-Z][^.!?]*?)\s+note\s+for\s+the\s+(?:delivery\s+)?address\s+and\s+(?:have|get|order|send)\s+([^.!?]+?)\s+(?:sent|delivered|brought|shipped)\s+there\b/, 'Order $2, delivered to the address in my $1 note,');
  // "I want to get a workout in on Monday. Please book me X" → "… book me X on Monday": the day the speaker's wish named
  // is the day of a request that names none.
  const wish = new RegExp(String.raw`^((?:I|We)\s+(?:want|need|would\s+like|['’]d\s+like|plan|hope)\s+to\s+[^.!?A-Z]*?)\s+on\s+(${DATE})([.!])\s+([^.!?]+?)([.!?]?)$`).exec(s.trim());
  if (wish && !new RegExp(DATE).test(wish[4]!) && /^(?:(?:[Pp]lease|[Cc]an\s+you|[Cc]ould\s+you)\s+)?[a-z]+\b/i.test(wish[4]!)) s = `${wish[1]}${wish[3]} ${wish[4]} on ${wish[2]}${wish[5] || '.'}`;
  // "Add Rocky to my pets. Species Cat, breed Maine Coon, weighs 15.2 lb." → "Add Rocky to my pets: Cat, Maine Coon,
  // 15.2 lb.": a sentence that only lists labelled values ("<label> <Value>") gives the values of the request before it.
  s = s.replace(/([^.!?]*?)([.!?])\s+((?:[A-Za-z][a-z]+\s+[A-Z\d$][^,.!?]*?(?:\.\d+[^,.!?]*?)?,\s+)+(?:and\s+)?[A-Za-z][a-z]+\s+[A-Z\d$][^,!?]*?)\s*([.!]?)$/, (all, before: string, end: string, list: string, close: string) => {
    const items = list.split(/,\s+(?:and\s+)?/).map((i) => /^([A-Za-z][a-z]+)\s+([A-Z\d$].*)$/.exec(i.trim()));
    // (Each item a label and a short value: capitalised words or a number with its unit — "breed Maine Coon", "weighs 15.2 lb".)
    const value = /^[A-Z\d$][\w.'’-]*(?:\s+[A-Z\d][\w.'’-]*){0,3}(?:\s+[a-z]{1,3})?$/;
    if (items.length < 2 || items.some((m) => !m || !knowsWord(m[1]!.toLowerCase()) || !value.test(m[2]!) || requestVerb(m[1]!) || /^(?:the|a|an|my|and|or|to|in|on|at|for|with)$/i.test(m[1]!))) return all;
    return `${before}: ${items.map((m) => m![2]).join(', ')}${end === '?' ? '?' : close || end}`;
  });
  // "Send the X parcel to Y instead (of my door)" → "Redirect the X parcel to Y": sent elsewhere instead is a redirect.
  s = s.replace(/\b(?:[Ss]end|[Dd]eliver|[Ss]hip)\s+((?:the|my)\s+[^.!?]+?)\s+to\s+([^.!?]+?)\s+instead\b(?:\s+of\s+[^.!?,;]+)?/, 'Redirect $1 to $2');
  // "Move the "X" email to the archive" → "Archive the "X" email": moving to the archive is archiving.
  s = s.replace(/\b[Mm]ove\s+([^.!?]+?)\s+(?:in)?to\s+(?:the\s+|my\s+)?archives?\b(?:\s+folder)?/, 'Archive $1');
  // "Cancel Lulu's Thursday, October 9 vet appointment" → "Cancel Lulu's vet appointment on Thursday, October 9": a date
  // said between the owner and the thing is when the thing is.
  // (A weekday alone stays: "Leo's Wednesday school dinner" is a thing of that weekday.)
  s = s.replace(new RegExp(String.raw`\b([A-Z][\w-]*['’]s)\s+(${FULL_DATE})\s+((?:[a-z]+\s+){0,2}[a-z]{3,})(?=[\s,.!?;]|$)`), '$1 $3 on $2');
  // "FreshFold pickup: Alterations, …", "Vet visit for Luna: Nail trim, …": an appointment of some kind, then its
  // details — one to schedule.
  s = s.replace(/^((?:[A-Z][\w&-]*\s+)?(?:[a-z]+\s+)?(?:pickup|pick-up|appointment|visit|booking|reservation|ride|delivery|session))((?:\s+for\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)?)\s*:\s+(?=[A-Z\d])/, (_a, what: string, who: string) => `Schedule a ${/^[A-Z][a-z]+\s+[a-z]/.test(what) && !/[A-Z]/.test(what.slice(1)) && knowsWord(what.split(/\s+/)[0]!.toLowerCase()) ? what[0]!.toLowerCase() + what.slice(1) : what}${who}${who ? ':' : ' for'} `);
  // "Make my bank notify me when my balance falls under $250" → "Set the low balance alert to $250": being told when
  // something falls under an amount is a low alert at that amount (likewise "goes over" a high one).
  s = s.replace(/\b(?:[Mm]ake|[Hh]ave|[Gg]et|[Ll]et)\s+(?:my\s+|the\s+)?([A-Z]?[\w-]+)(?:\s+app)?\s+(?:notify|alert|warn|ping|tell)\s+me\s+(?:when(?:ever)?|if|once)\s+(?:my\s+|the\s+)?((?:[a-z]+\s+){0,2}[a-z]+)\s+(?:falls|drops|dips|goes|gets)\s+(under|below|over|above)\s+([$€£]\s?\d[\d,]*(?:\.\d{1,2})?)/, (_a, app: string, what: string, side: string, amount: string) =>
    `Set the ${/^(?:under|below)$/.test(side) ? 'low' : 'high'} ${what} alert to ${amount} in ${cap1(app)}`);
  // "Write to a@b.com. Subject …" → "Send an email to a@b.com. Subject …": writing to an address is an email.
  s = s.replace(/^(?:[Ww]rite|[Dd]rop\s+a\s+line)\s+to\s+(\S+@[\w.-]+\w)/, 'Send an email to $1');
  // "Pay Chris Wong back $200" → "Send $200 to Chris Wong": paying someone back is sending them the amount.
  s = s.replace(/\b[Pp]ay\s+(?:back\s+)?((?:[A-Z][\w'’-]*\s+){0,2}[A-Z][\w'’-]*)\s+(?:back\s+)?([$€£]\s?\d[\d,]*(?:\.\d{1,2})?)/, 'Send $2 to $1');
  // "the contact entry for X" → "the contact X": an entry or record for someone is that one.
  // (Only a thing one has — "the/my contact entry for X"; "add a care entry for X" makes a new entry.)
  s = s.replace(/\b(the|my)\s+([a-z]{3,})\s+(?:entry|record)\s+(?:for|of)\s+(?=[A-Z])/i, '$1 $2 ');
  // "Shoot X a quick "…" message" → "Message X: "…"".
  s = s.replace(/\b(?:[Ss]hoot|[Ss]end|[Dd]rop|[Ff]ire\s+off)\s+((?:[A-Z][\w'’-]*\s+){0,2}[A-Z][\w'’-]*)\s+(?:a|an)\s+(?:(?:quick|short|brief)\s+)?("[^"]+"|“[^”]+”)\s+(?:text|message|msg|note)\b/, 'Message $1: $2');
  // "Snooze = 30 minutes" → "Set Snooze to 30 minutes": a setting and its value written as an equation.
  s = s.replace(/^((?:the\s+|my\s+)?[A-Za-z][\w'’ -]*?)\s*=\s*([^=]+?)\s*([.!]*)$/, 'Set $1 to $2$3');
  // "Search App: X" → "Search for X in App".
  s = s.replace(/^[Ss]earch\s+([A-Z][\w&-]*)\s*:\s*(.+?)\s*([.!]*)$/, 'Search for $2 in $1$3');
  // "Nina Patel number now 555-…" → "Change Nina Patel's number to 555-…": a person's field and what it is now.
  s = s.replace(/^((?:[A-Z][\w'’-]*\s+){0,2}[A-Z][\w-]*)(?:['’]s)?\s+((?:(?:phone|mobile|cell|home|work)\s+)?(?:number|email|address))\s+(?:is\s+)?now\s+(.+?)\s*([.!]*)$/, "Change $1's $2 to $3$4");
  // "Block out August 27 at 13:00 in my calendar for X" → "Add "X" to my calendar on August 27 at 13:00".
  s = s.replace(/\b[Bb]lock\s+(?:out|off)\s+(?:on\s+)?(.+?)\s+(?:in|on)\s+(my\s+[a-z]+|the\s+[a-z]+|[A-Z][\w-]*)\s+for\s+([A-Z][^.!?]*?)(?=\s*[.!?]*$)/, 'Add "$3" to $2 on $1');
  // "Drop Vinyasa Flow Wednesday" → "… on Wednesday": a weekday after a name at the end is when.
  s = s.replace(new RegExp(String.raw`(?<=\b[A-Z][\w'’-]*)\s+(${WEEKDAY_NAME})(?=\s*[.!]*$)`), ' on $1');
  // "Place a Foodie order for 1 X from Y" → "Order 1 X from Y on Foodie".
  s = s.replace(/\b[Pp]lace\s+(?:a|an)\s+([A-Z][\w&-]*)\s+order\s+for\s+(?!(?:me|us)\b)([^,.!?]+)/, 'Order $2 on $1');
  // "Auto-reload $10 on the card" → "Turn on auto-reload with $10 on the card": a feature with its amount, no verb.
  s = s.replace(/^([Aa]uto-[a-z]+(?:-[a-z]+)*)\s+(?:at\s+|of\s+)?([$€£]\s?\d[\d.,]*)\s+/, (_a, f: string, amount: string) => `Turn on ${f} with ${amount} `);
  // "Cancel X's visit, Tuesday, October 7" → "… visit on Tuesday, October 7": a date after a comma at the end is when.
  s = s.replace(new RegExp(String.raw`(?<=[a-z])(?<!${WEEKDAY_NAME})\s*,\s+(${FULL_DATE})(?=\s*[.!]*$)`), ' on $1');
  // "$200 to Chris Wong, note: Birthday gift" → "Send $200 to Chris Wong with the note Birthday gift": an amount to a
  // person is a payment; what follows "note:" / "for" is its note.
  const paid = /^([$€£]\s?\d[\d,]*(?:\.\d{1,2})?)\s+to\s+((?:[A-Z][\w'’.-]*\s+){0,3}[A-Z][\w'’-]*)(?:,?\s+(?:(?:with\s+)?(?:the\s+)?(?:note|memo|reference)\s*:?|for)\s+(.+?))?\s*([.!]*)$/.exec(s.trim());
  if (paid) return `Send ${paid[1]} to ${paid[2]}${paid[3] ? ` with the note ${paid[3]}` : ''}${paid[4] || '.'}`;
  // "Dark mode: On, please" → "Turn Dark mode on": a switch and the state it should be in.
  const state = /^((?:the\s+|my\s+)?[A-Z][\w'’-]*(?:\s+[\w'’-]+){0,3})\s*:\s*(on|off)\b(?:,?\s*(?:please|pls|plz|thanks))?\s*([.!]*)$/i.exec(s.trim());
  if (state) return `Turn ${state[1]} ${state[2]!.toLowerCase()}${state[3] || '.'}`;
  // "Calendar: Haircut, June 24 at 10:30" → "Add "Haircut" to Calendar on June 24 at 10:30": a place, a name and
  // when — a thing to put there at that time.
  const when = new RegExp(String.raw`^([A-Z][\w&-]*)\s*:\s*([^,:;]+?),\s+(${FULL_DATE})(?:,?\s+(?:at|@)\s+|,\s+)(\d{1,2}(?::\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)?)\s*([.!]*)$`).exec(s.trim());
  if (when && !requestVerb(when[2]!.split(/\s+/)[0]!)) return `Add "${when[2]}" to ${when[1]} on ${when[3]} at ${when[4]}${when[5] || '.'}`;
  // "Replace the phone number for X in Contacts with V" → "Change X's phone number to V in Contacts".
  s = s.replace(/\b[Rr]eplace\s+(?:the|my)\s+((?:[a-z]+\s+)?[a-z]+(?<!ed))\s+(?:for|of)\s+((?:[A-Z][\w'’-]*\s+){0,2}[A-Z][\w'’-]*)((?:\s+(?:in|on)\s+(?:the\s+|my\s+)?[A-Z][\w&-]*(?:\s+app)?)?)\s+with\s+((?:[^.!?]|\.(?=\S))+?)(?=\s*[.!?]*$)/, (_a, what: string, who: string, where: string, value: string) => `Change ${who}'s ${what} to ${value}${where}`);
  // "Get X out (on loan) from the library", "check X out" → "Borrow X …": taking a thing out on loan.
  s = s.replace(/\b(?:[Gg]et|[Cc]heck)\s+((?:the\s+)?[A-Z][\w'’:-]*(?:\s+(?:[A-Z\d(][\w'’():-]*|of|and|the|&))*)\s+out\b(?:\s+on\s+loan)?(?!\s+(?:for|to|of)\b)/, 'Borrow $1');
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
