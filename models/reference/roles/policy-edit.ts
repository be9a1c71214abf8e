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
import { contentWords, namedAppIn, appGoal, type ActPlan } from './policy-act.js';
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
