import { messageText, type ChatRequest } from '../../../domain/openai.js';
import { RoleInputError } from '../errors.js';
import type { RoleHandler } from '../types.js';

/**
 * Reference query roles (GUI-Owl §6.2 steps 3–4), CPU stand-ins for an LLM:
 * - `ref-query-synth`: a template grammar over the path's steps (verb and phrase alternatives, optional
 *   politeness, clause order and connective styles), seeded by `ctx.random`; every slot value verbatim.
 * - `ref-query-refine`: drops navigation clauses and keeps the goal and slot values; when the request carries
 *   natural phrasings of the task family (`hints`, the DAG's few-shot templates) it picks one of them as the
 *   core and varies it with a generic grammar (`diversify`: synonyms, frames, politeness, questions, indirect
 *   requests, context sentences, low-rate typos), every slot value verbatim.
 * Input is the JSON user message built by query-gen/synth.ts.
 */

interface Step {
  from: string;
  to: string;
  action: string;
  control: string;
  slot?: string;
  value?: string;
}
interface SynthIn {
  appTitle: string;
  apps?: { app: string; title: string }[];
  steps: Step[];
  slots: Record<string, string>;
}
interface RefineIn {
  instruction: string;
  appTitle: string;
  slots: Record<string, string>;
  goal?: string;
  hints?: string[];
  /** Emit the grammar options the reference policy cannot read yet too (for a real model's training data). */
  allOptions?: boolean;
}

function userJson(request: ChatRequest): unknown {
  const user = [...request.messages].reverse().find((m) => m.role === 'user');
  if (!user) throw new RoleInputError('no user message', 'messages');
  try {
    return JSON.parse(messageText(user)) as unknown;
  } catch {
    throw new RoleInputError('the user message must be the JSON metadata', 'messages');
  }
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;
const cap = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
const lowerFirst = (s: string, values: readonly string[]): string =>
  values.some((v) => s.startsWith(v)) ? s : s ? s[0]!.toLowerCase() + s.slice(1) : s;
const words = (key: string): string => key.replace(/_/g, ' ');
const isNumeric = (v: string): boolean => /^\d+$/.test(v);
const plainAction = (a: string): string => a.replace(/\s*\([^)]*\)/g, '').trim();

function stepClause(step: Step, input: SynthIn, random: () => number): string {
  const titles = new Set([input.appTitle, ...(input.apps ?? []).map((a) => a.title)]);
  const v = step.value;
  if (titles.has(step.control) && step.from !== step.to) {
    return pick([`open ${step.control}`, `launch ${step.control}`, `start the ${step.control} app`, `go to the ${step.control} app`, `open the ${step.control} app`], random);
  }
  if (v !== undefined) {
    if (step.control.includes(v)) return pick([`tap ${v}`, `select ${v}`, `choose ${v}`, `pick ${v}`, `tap on ${v}`], random);
    if (isNumeric(v) && step.from === step.to) {
      const k = words(step.slot ?? 'amount');
      return pick([`set the ${k} to ${v}`, `make the ${k} ${v}`, `change the ${k} to ${v}`, `bump the ${k} up to ${v}`], random);
    }
    if (/\b(type|enter|search|fill)\b/i.test(step.action)) {
      const submit = step.from !== step.to ? pick([' and press Enter', ' and search', ', then submit', ''], random) : '';
      return pick([`type ${v} in the ${step.control} field`, `enter ${v} into ${step.control}`, `fill in ${step.control} with ${v}`, `put ${v} in ${step.control}`], random) + submit;
    }
    return pick([`${step.control.toLowerCase()} ${v}`, `tap ${step.control} for ${v}`, `use ${step.control} on ${v}`], random);
  }
  return pick([`tap ${step.control}`, `press ${step.control}`, plainAction(step.action), plainAction(step.action), `hit ${step.control}`], random);
}

/** Consecutive slot-setting self-loops on one page may be done in any order (numeric ones stay last). */
function shuffleIndependent(steps: Step[], random: () => number): Step[] {
  const out: Step[] = [];
  let i = 0;
  while (i < steps.length) {
    const s = steps[i]!;
    if (s.from !== s.to) {
      out.push(s);
      i++;
      continue;
    }
    const group: Step[] = [];
    while (i < steps.length && steps[i]!.from === s.from && steps[i]!.to === s.from) group.push(steps[i++]!);
    const free = group.filter((g) => !isNumeric(g.value ?? ''));
    const numeric = group.filter((g) => isNumeric(g.value ?? ''));
    // A Fisher–Yates shuffle of free (non-numeric) self-loops only when they are independent of each other.
    if (free.length > 1 && numeric.length === 0) {
      for (let j = free.length - 1; j > 0; j--) {
        const r = Math.floor(random() * (j + 1));
        [free[j], free[r]] = [free[r]!, free[j]!];
      }
    }
    out.push(...free, ...numeric);
  }
  return out;
}

function joinClauses(clauses: string[], random: () => number): string {
  if (clauses.length === 1) return clauses[0]!;
  const style = Math.floor(random() * 4);
  const last = clauses[clauses.length - 1]!;
  const init = clauses.slice(0, -1);
  switch (style) {
    case 0:
      return `${init.join(', ')} and then ${last}`;
    case 1:
      return clauses.join(', then ');
    case 2:
      return `${init.join(', ')}, and finally ${last}`;
    default:
      return [`first ${clauses[0]}`, ...clauses.slice(1, -1).map((c) => `next ${c}`), `finally ${last}`].join('; ');
  }
}

/** Adds every value the text lacks as a trailing constraint (the grammar never drops one; this is a guard). */
function ensureValues(text: string, slots: Record<string, string>): string {
  const missing = Object.entries(slots).filter(([, v]) => !text.includes(v));
  if (!missing.length) return text;
  return `${text.replace(/[.?!]$/, '')} (${missing.map(([k, v]) => `${words(k)}: ${v}`).join(', ')}).`;
}

function politely(core: string, values: readonly string[], random: () => number): string {
  const form = Math.floor(random() * 6);
  const body = lowerFirst(core, values);
  if (form === 0) return `Please ${body}.`;
  if (form === 1) return `Could you ${body}?`;
  if (form === 2) return `${cap(core)}, please.`;
  if (form === 3) return `I need you to ${body}.`;
  return `${cap(core)}.`;
}

export function synthesizeInstruction(input: SynthIn, random: () => number): string {
  if (!Array.isArray(input.steps) || typeof input.slots !== 'object' || input.slots === null || !input.appTitle) {
    throw new RoleInputError('metadata needs appTitle, steps and slots', 'messages');
  }
  const clauses = shuffleIndependent(input.steps, random).map((s) => stepClause(s, input, random));
  if (clauses.length === 0) clauses.push(`open ${input.appTitle}`);
  const finish = pick(['', '', ' and stop there', ' and finish'], random);
  const core = joinClauses(clauses, random) + finish;
  return ensureValues(politely(core, Object.values(input.slots), random), input.slots);
}

const NAV = /^(?:please\s+|could you\s+|i need you to\s+|first\s+|next\s+|finally\s+|then\s+|and\s+)*(open|launch|start|go to|go back|tap|tap on|click|press|hit|select|choose|pick|scroll|navigate|return|view|use)\b/i;

/**
 * The generative refinement grammar. A request is built from a *core* (the family's natural phrasing, or the
 * goal distilled from the explicit instruction) by independent, seeded choices, none of them per app or per
 * family: a leading-verb synonym, a frame (imperative, polite, question, indirect), an optional
 * context sentence before and a closing sentence after, and — at a low rate — one typo in a word the grammar
 * added (never in the core, so slot values and the words that carry the intent stay verbatim).
 *
 * Every option is listed once here. `reads: false` marks the ones the reference policy and critics cannot read
 * yet (test/query-gen/diversity.test.ts proves the `reads: true` ones leave their reading of the request
 * unchanged); only `reads: true` options are emitted unless `RefineIn.allOptions` asks for all of them (e.g.
 * to build data for a real model).
 */
interface Option {
  /** Builds the variant; `body` is the core with a lower-cased first letter (unless it starts with a slot value). */
  make: (core: string, body: string) => string;
  reads: boolean;
}

/** A whole sentence added before or after the request. */
interface Sentence {
  text: string;
  reads: boolean;
}

const FRAMES: readonly Option[] = [
  { make: (c) => `${c}.`, reads: true },
  { make: (c) => `${c}.`, reads: true },
  { make: (_c, b) => `Please ${b}.`, reads: true },
  { make: (c) => `${c}, please.`, reads: true },
  { make: (_c, b) => `Please, ${b}.`, reads: true },
  { make: (_c, b) => `Kindly ${b}.`, reads: true },
  { make: (_c, b) => `Could you ${b}?`, reads: true },
  { make: (_c, b) => `Can you ${b}?`, reads: true },
  { make: (_c, b) => `Would you ${b}?`, reads: true },
  { make: (_c, b) => `Could you please ${b}?`, reads: true },
  { make: (_c, b) => `It would be great if you could ${b}.`, reads: false },
  { make: (_c, b) => `Is it possible to ${b}?`, reads: false },
  { make: (_c, b) => `I'd like you to ${b}.`, reads: true },
  { make: (_c, b) => `I need you to ${b}.`, reads: true },
  { make: (_c, b) => `I want you to ${b}.`, reads: true },
  { make: (_c, b) => `Go ahead and ${b}.`, reads: true },
  { make: (_c, b) => `Can I ask you to ${b}?`, reads: true },
  { make: (_c, b) => `Help me out and ${b}.`, reads: true },
];

/** Sentences of context before the request (generic: who is asking and why, never a name or a value). */
const CONTEXT: readonly Sentence[] = [
  { text: "I'm in a bit of a rush.", reads: true },
  { text: 'Quick favour.', reads: true },
  { text: 'Hi there.', reads: true },
  { text: 'I keep forgetting to do this.', reads: true },
  { text: 'No rush.', reads: true },
  { text: 'One more thing for today.', reads: true },
  { text: 'My hands are full right now.', reads: true },
];

/** Closing sentences after the request. */
const CLOSING: readonly Sentence[] = [
  { text: 'Thanks!', reads: true },
  { text: 'Thank you.', reads: true },
  { text: "That's all.", reads: true },
  { text: 'Thanks a lot.', reads: true },
  { text: 'Much appreciated.', reads: true },
];

/**
 * Leading-verb synonyms, generic English (not any app's vocabulary). Only a core that *starts* with the verb is
 * rewritten, so an inner verb of a slot value ("Call back") is never touched.
 */
const SYNONYMS: readonly { verb: RegExp; to: readonly { text: string; reads: boolean }[] }[] = [
  { verb: /^Delete\b/, to: [{ text: 'Remove', reads: true }, { text: 'Erase', reads: true }, { text: 'Get rid of', reads: true }] },
  { verb: /^Remove\b/, to: [{ text: 'Delete', reads: true }, { text: 'Get rid of', reads: true }] },
  { verb: /^Make a\b/, to: [{ text: 'Create a', reads: true }, { text: 'Write a', reads: true }] },
  { verb: /^Show me\b/, to: [{ text: 'Let me see', reads: true }, { text: 'Pull up', reads: true }] },
  { verb: /^Turn\b/, to: [{ text: 'Switch', reads: true }] },
  { verb: /^Set\b(?! up\b)/, to: [{ text: 'Change', reads: true }] },
  // (Not before a clause: "change how X is paid" is English, "set how X is paid" is not.)
  { verb: /^Change\b(?!\s+(?:how|what|when|where|who|which|whether)\b)/, to: [{ text: 'Set', reads: true }] },
  { verb: /^Order\b/, to: [{ text: 'Buy', reads: true }] },
];

/** Where-to-look sentences for a path value the family's phrasings leave out. */
const WHERE: readonly ((v: string) => string)[] = [(v) => `You will find it under ${v}.`, (v) => `It is listed under ${v}.`, (v) => `Look under ${v}.`];

/** Share of context or closing sentences that get one typo (about 4% of all requests). */
const TYPO_RATE = 0.1;

/** Swaps two inner letters of one word of ≥ 5 letters ("moment" → "monemt"). */
function typo(sentence: string, random: () => number): string {
  const spans = [...sentence.matchAll(/\b[a-z]{5,}\b/g)];
  if (!spans.length) return sentence;
  const m = pick(spans, random);
  const i = 1 + Math.floor(random() * (m[0].length - 3));
  const w = m[0].slice(0, i) + m[0][i + 1] + m[0][i] + m[0].slice(i + 2);
  return sentence.slice(0, m.index) + w + sentence.slice(m.index + m[0].length);
}

/**
 * A core of several sentences ("I lost my X on Y. Report it to lost and found: Z") is context followed by the
 * request: a frame words the last sentence only ("I lost my X on Y. Could you report it …?"), never the
 * statement before it ("Could you i lost my X …?"). Sentence ends inside a slot value ("Dr. Lee") are not
 * boundaries. Returns the leading sentences (with their full stop) and the request sentence.
 */
export function splitRequest(core: string, values: readonly string[]): { lead: string; request: string; tail?: string } {
  // A closing sentence that says what to do when the app asks ("When it asks why, pick X."): it follows the request,
  // never the sentence a frame words.
  const masked0 = values.reduce((t, v, i) => (v ? t.split(v).join(`\u27e6${i}\u27e7`) : t), core);
  const last = [...masked0.matchAll(/[.!?]\s+(?=[A-Z\u27e6])/g)].pop();
  if (last && last.index !== undefined && /^(?:When|If|Once|After|Before|While)\b/.test(masked0.slice(last.index + last[0].length))) {
    const unmask = (t: string): string => t.replace(/\u27e6(\d+)\u27e7/g, (_m, i: string) => values[Number(i)]!);
    const head = splitRequest(unmask(masked0.slice(0, last.index + 1)), values);
    const tail = unmask(masked0.slice(last.index + last[0].length));
    return { ...head, request: head.request.replace(/[.!]+$/, ''), tail: /[.!?]$/.test(tail) ? tail : `${tail}.` };
  }
  const masked = values.reduce((t, v, i) => (v ? t.split(v).join(`\u27e6${i}\u27e7`) : t), core);
  const cut = [...masked.matchAll(/[.!?]\s+(?=[A-Z\u27e6])/g)].pop();
  const unmask = (t: string): string => t.replace(/\u27e6(\d+)\u27e7/g, (_m, i: string) => values[Number(i)]!);
  if (!cut || cut.index === undefined) {
    // A speaker's context clause before a comma ("I can't make X on Monday anymore, drop that booking"): its own
    // sentence, so that a frame words the request after it, never the statement ("Please i can't make …").
    const clause = /^((?:I|I'm|I've|I'll|I'd|We|We're|We've|My|Our)\b[^,;]*?),\s+(?=[a-z])/.exec(masked);
    if (!clause) return { lead: '', request: core };
    const rest = masked.slice(clause[0].length);
    return { lead: `${unmask(clause[1]!)}.`, request: unmask(rest.charAt(0).toUpperCase() + rest.slice(1)) };
  }
  return { lead: unmask(masked.slice(0, cut.index + 1)), request: unmask(masked.slice(cut.index + cut[0].length)) };
}

/** Words that open a statement, never a request: a determiner, a pronoun, "there". */
const STATEMENT_OPENER = /^(?:The|A|An|This|That|These|Those|It|It's|There|There's|Their|His|Her|Its|They|They're|He|She|Everyone|Everybody|Nobody|Someone|Somebody)\s/;

/** A place phrase fronted before a request, up to its comma: "In Brellow, ", "Using the Foodie app, ", "On Nimbrel, ". */
const FRONTED = /^(?:(?:Over\s+)?(?:In|On)|Using|Inside|Via|Through)\s+(?:the\s+|my\s+)?[A-Z][\w-]*(?:\s+app)?,\s+(?=[a-z])/;

/** A frame applied to the request sentence of a core, its context sentences kept before it. */
function framed(frame: Option, c: string, values: readonly string[]): string {
  const { lead, request: asked, tail } = splitRequest(c, values);
  // A statement with its request inside ("The others will check in later, so just check in X …"): no frame can word it
  // ("Please the others will …"), so it stays as written.
  if (!lead && STATEMENT_OPENER.test(asked)) return tail ? `${asked.replace(/[.!]+$/, '')}. ${tail}` : `${asked.replace(/[.!]+$/, '')}.`;
  // (A request that already says "please" is framed without it: never "Could you please please …".)
  // (Not when the word after it is a value of the request, written as the checker wants it.)
  const after = /^[Pp]lease,?\s+(\S+)/.exec(asked)?.[1] ?? '';
  const bare = values.some((v) => v.startsWith(after)) ? asked : asked.replace(/^[Pp]lease,?\s+(?=[a-z])/, '');
  const request0 = bare === asked ? asked : bare.charAt(0).toUpperCase() + bare.slice(1);
  // A phrase fronted before the request ("In Brellow, list it …") stays in front of the frame: "In Brellow, could you
  // list it …?", never "Could you in Brellow, list it …?".
  const front = FRONTED.exec(request0)?.[0] ?? '';
  const request = front ? cap(request0.slice(front.length)) : request0;
  const made0 = frame.make(request, lowerFirst(request, values));
  const made = front ? `${front}${lowerFirst(made0, values)}` : made0;
  const said = lead ? `${lead} ${made}` : made;
  return tail ? `${said.replace(/[.!]+$/, '')}${/\?$/.test(said) ? '' : '.'} ${tail}` : said;
}

/** Every single-option variant of a core (for the readability test and for inspection), one choice at a time. */
export function refinementVariants(core: string, values: readonly string[], allOptions = false): string[] {
  const c = core.replace(/[.!]+$/, '');
  const ok = (o: { reads: boolean }): boolean => allOptions || o.reads;
  // A core that already asks ("Can you open X?") is its own frame: only context before and a closing after.
  if (/\?\s*$/.test(c)) return [...new Set([c, ...CONTEXT.filter(ok).map((o) => `${o.text} ${c}`), ...CLOSING.filter(ok).map((o) => `${c} ${o.text}`)])];
  const out = FRAMES.filter(ok).map((f) => framed(f, c, values));
  out.push(...CONTEXT.filter(ok).map((o) => `${o.text} ${c}.`), ...CLOSING.filter(ok).map((o) => `${c}. ${o.text}`));
  for (const s of SYNONYMS) if (s.verb.test(c)) out.push(...s.to.filter(ok).map((t) => `${c.replace(s.verb, t.text)}.`));
  return [...new Set(out)];
}

/**
 * One seeded request from a core: synonym?, frame, context?, closing?, typo? (see the option lists above).
 * Typos go only into the context or closing sentence the grammar added — never into the request itself, whose
 * words carry the intent and the slot values.
 */
export function diversify(core: string, values: readonly string[], random: () => number, allOptions = false, extra = ''): string {
  const ok = (o: { reads: boolean }): boolean => allOptions || o.reads;
  let c = core.trim().replace(/[.!]+$/, '');
  const asks = /\?\s*$/.test(c);
  const syn = asks ? undefined : SYNONYMS.find((s) => s.verb.test(c));
  if (syn && random() < 0.4) {
    const to = syn.to.filter(ok);
    if (to.length) c = c.replace(syn.verb, pick(to, random).text);
  }
  const request = asks ? c : framed(pick(FRAMES.filter(ok), random), c, values);
  let before = random() < 0.25 ? pick(CONTEXT.filter(ok), random).text : '';
  let after = random() < 0.2 ? pick(CLOSING.filter(ok), random).text : '';
  if ((before || after) && random() < TYPO_RATE) {
    if (before && (!after || random() < 0.5)) before = typo(before, random);
    else after = typo(after, random);
  }
  return [before, request, extra, after].filter(Boolean).join(' ');
}

export function refineInstruction(input: RefineIn, random: () => number): string {
  if (typeof input.instruction !== 'string' || typeof input.slots !== 'object' || input.slots === null) {
    throw new RoleInputError('metadata needs instruction and slots', 'messages');
  }
  const values = Object.values(input.slots);
  const all = input.allOptions === true;
  const hints = (input.hints ?? []).filter((h) => values.every((v) => h.includes(v)));
  if (hints.length) return ensureValues(diversify(pick(hints, random), values, random, all), input.slots);
  // Natural phrasings leave out a value only when it names where to look (a category or section on the path,
  // not the goal): such a hint plus one sentence saying where to look beats the explicit instruction.
  const near = (input.hints ?? []).filter((h) => values.filter((v) => !h.includes(v)).length === 1);
  if (near.length) {
    const h = pick(near, random);
    const missing = values.find((v) => !h.includes(v))!;
    return ensureValues(diversify(h, values, random, all, pick(WHERE, random)(missing)), input.slots);
  }
  // Slot values are masked while splitting ("Chicken and Waffles" is one value, not two clauses).
  const masked = values.reduce((t, v, i) => t.split(v).join(`\u27e6${i}\u27e7`), input.instruction);
  const clauses = masked
    .replace(/[.?!]+$/, '')
    .split(/\s*[;,.]\s*(?:and\s+)?(?:then\s+)?|\s+and then\s+|\s+then\s+|\s+and\s+(?=[a-z]+\s)/i)
    .map((c) => c.trim().replace(/\u27e6(\d+)\u27e7/g, (_m, i: string) => values[Number(i)]!))
    .filter(Boolean);
  const constraints: string[] = [];
  const goals: string[] = [];
  for (const clause of clauses) {
    const carried = Object.entries(input.slots).filter(([, v]) => clause.includes(v));
    if (carried.length) {
      for (const [k, v] of carried) constraints.push(`${words(k)} ${v}`);
      continue;
    }
    const c = clause.replace(/^(?:please|could you|i need you to|first|next|finally|and)\s+/i, '');
    if (!NAV.test(c) && !/^(stop|finish)/i.test(c)) goals.push(c);
  }
  const goal = goals.length ? goals.join(' and ') : input.goal ? input.goal.replace(/[.]$/, '').replace(/;.*$/, '') : `do this`;
  const g = lowerFirst(goal, values);
  const list = constraints.length ? constraints.join(', ') : '';
  const out = pick(
    list
      ? [`${cap(g)} in ${input.appTitle} with ${list}.`, `In ${input.appTitle}, ${g}: ${list}.`, `I want to ${g} on ${input.appTitle} — ${list}.`]
      : [`${cap(g)} in ${input.appTitle}.`, `In ${input.appTitle}, ${g}.`],
    random,
  );
  return ensureValues(out, input.slots);
}

export const querySynthRole: RoleHandler = async (request, ctx) => {
  const text = synthesizeInstruction(userJson(request) as SynthIn, ctx.random);
  return { role: 'assistant', content: text };
};

export const queryRefineRole: RoleHandler = async (request, ctx) => {
  const text = refineInstruction(userJson(request) as RefineIn, ctx.random);
  return { role: 'assistant', content: text };
};
