/**
 * Reference policy — changing one value of a thing the user already has (issue 17): "Change the amount of Airport
 * taxi in Lisbon trip to $48.40", "Update the date of X to June 4", "I entered X wrong in our G group. The receipt
 * says $75.00. Could you fix it?". Not a new thing's form and not the verb's own button ("Change amount"): the thing
 * is opened (through the place the request keeps it in, when it names one), then its Edit button, then the field the
 * value belongs in is cleared and the value typed (or picked), then the change is saved.
 *
 * Generic only — no app's names, labels or data: the field is named by the request ("the amount of …") or, when the
 * request only says the thing was entered wrong, by the kind of the value it gives (a money amount → amount).
 */
import { contentWords, dayLabels, namedAppIn, appGoal, plural, type ActPlan } from './policy-act.js';
import { formValues, type FormValue } from './policy-form.js';
import type { Goal } from './policy-tasks.js';

const esc = (t: string): string => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The field a value of each kind goes in, when the request does not name it (generic form vocabulary). */
const FIELD_OF_KIND: Partial<Record<FormValue['kind'], string[]>> = {
  amount: ['amount', 'total', 'price', 'cost'],
  date: ['date', 'day', 'when'],
  time: ['time', 'at'],
  number: ['number'],
};

/** The place a thing is kept in, as written ("our Climbing crew group" → "Climbing crew"). */
function placeName(p: string | undefined): string | undefined {
  const t = p
    ?.replace(/^(?:the|my|our)\s+/i, '')
    .replace(/\s+(?:group|list|folder)$/i, '')
    .trim();
  return t && /^[A-Z0-9]/.test(t) ? t : undefined;
}

/** "Change the <field> of <thing> [in <place>] to <value>", or a thing "entered wrong" with its right value: the edit plan. */
export function understandEdit(request: string): ActPlan | undefined {
  const text = request.replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim();
  const named = namedAppIn(text);
  const appTail = named ? new RegExp(`\\s+(?:in|on|using|with)\\s+(?:the\\s+|my\\s+)?${esc(named)}(?:\\s+app)?(?=\\s*[,.;!?]|\\s*$)`, 'g') : /$^/;
  const plain = text.replace(appTail, '').replace(/[.!]+$/, '');
  let thing: string | undefined;
  let place: string | undefined;
  let field: string[] | undefined;
  let valueText: string | undefined;
  let m: RegExpExecArray | null;
  // A reminder or alarm of the user's, wanted at a time ("Turn on the X reminder at 9:00 AM", "have App give me my X
  // reminder at 6:30 PM"): its time is the value, and it is to be on.
  let kind: string | undefined;
  let on = false;
  // "Change the amount of X [in G] to V [in G]".
  const stated = /^(?:change|update|fix|correct|edit|adjust|set)\s+the\s+([a-z][a-z ]{1,30}?)\s+(?:of|for|on)\s+(?:the\s+|my\s+|our\s+)?(.+?)\s+to\s+(.+)$/i.exec(plain);
  // "Change X's amount to V".
  const owned = stated ? undefined : /^(?:[Cc]hange|[Uu]pdate|[Ff]ix|[Cc]orrect|[Ee]dit|[Aa]djust|[Ss]et)\s+(?:the\s+|my\s+|our\s+)?([A-Z].*?)['’]s?\s+([a-z][a-z ]{1,30}?)\s+to\s+(.+)$/.exec(plain);
  const timed = /\b(?:[Tt]urn\s+on|[Ss]witch\s+on|[Ee]nable|[Ss]et|[Ss]chedule|[Gg]ive\s+me|[Ss]end\s+me|[Rr]emind\s+me\s+with)\s+(?:the|my|our)\s+([A-Z][^.;!?]*?)\s+(reminder|alarm|notification|alert)s?\b[^.;!?]*?\bat\s+(\d{1,2}(?::\d{2})?\s*(?:[AaPp]\.?[Mm]\.?)?)(?![\w:])/.exec(plain);
  if (timed && !stated && !owned) {
    thing = timed[1];
    kind = timed[2]!.toLowerCase();
    valueText = timed[3]!.replace(/\.$/, '');
    field = ['time', 'at', 'when'];
    on = true;
  } else if (stated || owned) {
    field = contentWords(stated ? stated[1]! : owned![2]!);
    const who = (stated ? stated[2] : owned![1])!;
    const at = /^(.+?)\s+(?:in|from|under)\s+(?:the\s+|my\s+|our\s+)?(.+)$/.exec(who);
    thing = at ? at[1] : who;
    place = placeName(at?.[2]);
    valueText = (stated ? stated[3] : owned![3])!;
    const later = /^(.+?)\s+(?:in|from|under)\s+(?:the\s+|my\s+|our\s+)?([A-Z0-9].*)$/.exec(valueText);
    if (later) {
      valueText = later[1]!;
      place ??= placeName(later[2]);
    }
  } else if ((m = /^(?:[A-Z][^.;!?]*?\b(?:made|cooked|did|used|had|ran|took|checked|tried)\s+(?:the\s+|my\s+|our\s+)?)([A-Z][^.;!?]*?)\s+(?:it|that|this|they)\s+(?:needed|took|was|were|came to|cost|lasted|had)\s+([^.;!?]+?)[.;!?]\s+(.*)$/.exec(plain)) && /\b(?:fix|correct|update|change|edit|adjust)\s+(?:the|its|their)\s+([a-z][a-z ]{1,30}?)(?=\s+(?:in|on|so|for|to)\b|\s*[,.;!?]|\s*$)/i.test(m[3]!)) {
    // "Last time I made X it needed 15 minutes of cooking, not what the recipe says. Could you fix the cook time …": the
    // thing the context names, the value it gives, the field the request names.
    thing = m[1];
    valueText = m[2];
    field = contentWords(/\b(?:fix|correct|update|change|edit|adjust)\s+(?:the|its|their)\s+([a-z][a-z ]{1,30}?)(?=\s+(?:in|on|so|for|to)\b|\s*[,.;!?]|\s*$)/i.exec(m[3]!)![1]!);
  } else {
    // "I entered X wrong [in our G group]. The receipt says V. Could you fix it?": the thing, its place, and the value
    // the request gives (its kind says the field).
    const wrong = /\b(?:entered|typed|put|logged|recorded|added|wrote|put in)\s+(?:the\s+|my\s+|our\s+)?([A-Z][^.;!?]*?)\s+(?:wrong|wrongly|incorrectly|by mistake as)\b(?:\s+(?:in|on|under)\s+(?:the\s+|my\s+|our\s+)?([^.;!?]+?))?\s*(?=[.;!?]|$)/.exec(plain);
    if (!wrong || !/\b(?:fix|correct|update|change|edit)\b/i.test(plain.slice(wrong.index + wrong[0].length))) return undefined;
    thing = wrong[1];
    place = placeName(wrong[2]);
    valueText = plain.slice(wrong.index + wrong[0].length);
  }
  if (!thing || !valueText || thing.split(/\s+/).length > 6) return undefined;
  // One typed value (an amount, a number, a date, a time) or a quoted text: what the field becomes — or a quantity with
  // its unit ("40 minutes", "4 servings"), typed as its number (the field shows the unit).
  const quantity = /(?<![\w.$])(\d+(?:\.\d+)?)\s*(minutes?|mins?|hours?|hrs?|seconds?|secs?|days?|weeks?|months?|servings?|portions?|people|persons?|guests?|pieces?|items?|copies|times)\b/i.exec(valueText);
  const value = quantity
    ? { value: quantity[0], input: quantity[1]!, kind: 'number' as const, cues: [] }
    : formValues(valueText, named ? [named] : []).find((v) => v.kind !== 'name' && (v.kind !== 'text' || /"/.test(valueText!)));
  if (!value) return undefined;
  const cues = field?.length ? field : (FIELD_OF_KIND[value.kind] ?? []);
  const values: FormValue[] = [{ ...value, cues }];
  const goals: Goal[] = [
    appGoal(named, { words: contentWords(`${thing} ${place ?? ''} ${cues.join(' ')}`), verbs: ['edit', 'change'], names: [thing, ...(place ? [place] : [])], request: text }),
    { kind: 'type', field: 'search', value: thing, submit: true, text: `search for ${thing}`, optional: true, unlessVisible: thing },
    // (Through the place it is kept in, else the section of its kind: "Reminders" for a reminder.)
    { kind: 'tap', targets: [thing], text: `open ${thing}`, entity: true, min: 0.75, ...(place ? { via: [place, ...contentWords(place)] } : kind ? { via: [`${kind}s`, kind] } : {}) },
    // (A page that is itself the thing's form has no Edit button: nothing to tap then.)
    { kind: 'tap', targets: ['Edit', 'Change', 'Update'], text: 'tap Edit', min: 0.95, words: ['edit'], optional: true },
    { kind: 'field', index: 0, values, text: `change the ${cues[0] ?? 'value'} to ${value.value}`, replace: !on },
    // (A reminder wanted at a time is on: its one switch, if the page shows it off.)
    ...(on ? [{ kind: 'toggle', target: thing, on: true, text: `switch ${thing} on` } satisfies Goal] : []),
    { kind: 'tap', targets: ['Save', 'Done', 'Update', 'Save changes'], text: 'save the change', min: 0.9, words: ['save'], lowest: true },
  ];
  return { goals, result: /\b(?:saved|updated|changed)\b/i };
}

const CLOCK = '(\\d{1,2}(?::\\d{2})?\\s*(?:[AaPp]\\.?[Mm]\\.?)?)';
/** Words that name a window's first and last time on a screen ("Starts", "From"; "Ends", "Until"). */
const START_WORDS = ['start', 'starts', 'from', 'begin', 'begins', 'begin at'];
const END_WORDS = ['end', 'ends', 'until', 'to', 'finish', 'finishes'];

/**
 * A feature switched on for a window of time: "Turn on quiet hours in App from 9:30 PM to 7:30 AM", "make App stay quiet
 * between 10:00 PM and 7:30 AM". The feature's switch (its row found by its words, through the row that mentions
 * them), then the window's start and end, each the value of the row that says start or end. Generic English only.
 */
export function understandTimeWindow(request: string): ActPlan | undefined {
  const text = request.replace(/\s+/g, ' ').trim().replace(/[.!]+$/, '');
  const window = new RegExp(`\\s+(?:from|between)\\s+${CLOCK}\\s+(?:to|and|until|till|through|-|–)\\s+${CLOCK}`, 'i');
  const w = window.exec(text);
  if (!w) return undefined;
  const head = text.slice(0, w.index);
  const turned = /^(?:please\s+)?(?:turn|switch|set)\s+on\s+(?:the\s+|my\s+)?([a-z][a-z -]*?[a-z])(?:\s+(?:in|on|for)\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?:\s+app)?)?$/i.exec(head);
  const stay = turned ? null : /^(?:[Pp]lease\s+)?(?:[Mm]ake|[Hh]ave|[Ll]et|[Gg]et|[Kk]eep)\s+(?:the\s+|my\s+)?([A-Z][\w&'-]*)(?:\s+app)?\s+(?:stay|be|go|keep|remain)\s+([a-z]+)$/.exec(head);
  const setting = turned?.[1] ?? stay?.[2];
  if (!setting || /^(?:it|this|that|them)$/i.test(setting)) return undefined;
  const named = turned?.[2] ?? stay?.[1] ?? namedAppIn(text);
  const words = contentWords(setting);
  if (words.length === 0) return undefined;
  const label = setting.charAt(0).toUpperCase() + setting.slice(1);
  const goals: Goal[] = [
    appGoal(named, { words: [...words, ...contentWords(text)], verbs: ['turn', 'switch'], names: [], request: text }),
    { kind: 'toggle', target: label, on: true, text: `switch ${label} on`, via: words, viaFirst: true, label: words },
    { kind: 'fill', value: w[1]!.trim(), hints: START_WORDS, text: `fill in ${w[1]!.trim()}`, avoid: [label] },
    { kind: 'fill', value: w[2]!.trim(), hints: END_WORDS, text: `fill in ${w[2]!.trim()}`, avoid: [label] },
    // (The last time's picker confirmed, or the page's Save where it has one.)
    { kind: 'tap', targets: ['OK', 'Save', 'Done'], text: 'save', min: 0.95, optional: true },
  ];
  return { goals, result: /\b(?:on|saved|updated)\b/i };
}


const WEEKDAYS = '(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';

/**
 * A choice kept per day for someone, changed: "Change Leo's school lunch on Thursday to Veggie pasta in App", or said as
 * a wish in context — "Leo has been asking for the Veggie pasta, and it's on the menu on Thursday. Could you switch that
 * day's lunch order in App?". The section the noun names (its tab or a row that says it), the person's own tab or chip
 * when the page shows one per person, the day's row, the new choice among the options it opens, then the form's save.
 * Generic English only: the noun, the person, the day and the choice come from the request.
 */
export function understandDayChoice(request: string): ActPlan | undefined {
  const text = request.replace(/[“”]/g, '"').replace(/\s+/g, ' ').trim().replace(/[.!]+$/, '');
  const app = '(?:\\s+(?:in|on|using)\\s+(?:the\\s+|my\\s+)?([A-Z][\\w&\'-]*)(?:\\s+app)?)?';
  const direct = new RegExp(`^(?:[Pp]lease\\s+)?(?:[Cc]hange|[Ss]witch|[Ss]wap|[Uu]pdate|[Ss]et)\\s+([A-Z][\\w'-]*)['’]s\\s+((?:[a-z]+\\s+){0,2}[a-z]+)\\s+(?:on|for)\\s+${WEEKDAYS}\\s+to\\s+(?:the\\s+)?([A-Z][^,;!?]*?)${app}$`).exec(text);
  let owner: string | undefined;
  let noun: string | undefined;
  let day: string | undefined;
  let value: string | undefined;
  let named: string | undefined;
  if (direct) [, owner, noun, day, value, named] = direct;
  else {
    // "<Name> has been asking for / wants the <X> … on <Day>. Switch that day's <noun> …".
    const want = /^([A-Z][\w'-]*)\s+(?:has\s+been\s+asking\s+for|keeps\s+asking\s+for|asked\s+for|wants|would\s+like|really\s+wants|prefers)\s+(?:the\s+|a\s+|an\s+)?([A-Z][^,.;!?]*?)(?=\s*[,.;!?]|\s+(?:but|on)\b)/.exec(text);
    const when = new RegExp(`\\bon\\s+${WEEKDAYS}\\b`).exec(text);
    const ask = new RegExp(`(?:^|[.!?]\\s+)(?:(?:[Cc]ould|[Cc]an|[Ww]ould|[Ww]ill)\\s+you\\s+)?(?:[Pp]lease\\s+)?(?:[Cc]hange|[Ss]witch|[Ss]wap|[Uu]pdate)\\s+(?:that|the\\s+same)\\s+day['’]s\\s+((?:[a-z]+\\s+){0,2}[a-z]+)${app}\\s*[.!?]*$`).exec(text);
    if (!want || !when || !ask || when.index > ask.index) return undefined;
    [owner, value, day, noun, named] = [want[1], want[2], when[1], ask[1], ask[2]];
  }
  if (!owner || !noun || !day || !value) return undefined;
  named ??= namedAppIn(text);
  const words = contentWords(noun);
  if (words.length === 0) return undefined;
  const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
  const goals: Goal[] = [
    appGoal(named, { words: [...words, ...contentWords(value)], verbs: ['change', 'switch'], names: [owner, value], request: text }),
    // The section of such choices: a tab or row that says the noun ("Lunches", "Order lunches").
    { kind: 'tap', targets: [...new Set([cap(plural(noun)), ...words.map((w) => cap(plural(w))), cap(noun), ...words.map(cap)])], text: `open ${cap(plural(noun))}`, min: 0.8, optional: true, notTitle: true },
    // The person's own tab or chip, where the page has one per person ("Maya | Leo").
    { kind: 'tap', targets: [owner], text: `open ${owner}`, min: 0.95, optional: true, notTitle: true },
    { kind: 'tap', targets: dayLabels(day), text: `open ${day}`, min: 0.95, notTitle: true, via: words },
    { kind: 'fill', value: value.trim(), hints: [], text: `fill in ${value.trim()}`, avoid: [owner] },
    { kind: 'submit', verbs: ['change', 'save', 'update', 'confirm'], text: 'save the change' },
  ];
  return { goals, result: /\b(?:saved|updated|changed|ordered|confirmed)\b/i };
}
