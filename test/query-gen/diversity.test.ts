import { describe, expect, it } from 'vitest';
import { loadDags } from '../../environments/app-world.js';
import { inProcessModel } from '../../models/reference/in-process.js';
import { readRequest } from '../../models/reference/roles/critics.js';
import { entityEnd, requestCore } from '../../models/reference/roles/intent.js';
import { planTask } from '../../models/reference/roles/policy.js';
import { diversify, queryRefineRole, querySynthRole, refinementVariants, splitRequest } from '../../models/reference/roles/query.js';
import { distinctN, diversityOf, selfBleu, tokenize } from '../../query-gen/diversity.js';
import { generateQueryBatch } from '../../query-gen/pipeline.js';
import { seededRandom } from '../../query-gen/sample.js';

describe('diversity metrics', () => {
  it('distinct-n counts unique n-grams over all n-grams of the batch', () => {
    expect(tokenize('Order 2 Pad Thai, please.')).toEqual(['order', '2', 'pad', 'thai', ',', 'please', '.']);
    // "a b a b": unigrams {a, b} of 4; bigrams {ab, ba} of 3.
    expect(distinctN(['a b a b'], 1)).toBeCloseTo(0.5);
    expect(distinctN(['a b a b'], 2)).toBeCloseTo(2 / 3);
    expect(distinctN(['x y', 'x y'], 2)).toBeCloseTo(0.5);
    expect(distinctN([], 1)).toBe(0);
  });

  it('self-BLEU is ~1 for a batch of one repeated sentence and low for unrelated ones', () => {
    const same = Array.from({ length: 20 }, () => 'delete the note called shopping list from my phone');
    expect(selfBleu(same)).toBeCloseTo(1, 5);
    const varied = ['order two pizzas tonight', 'what time is my dentist appointment', 'switch wifi off now please', 'email bob the report', 'pin the grocery note'];
    expect(selfBleu(varied)).toBeLessThan(0.35);
    const r = diversityOf([...same, ...varied]);
    expect(r.instructions).toBe(25);
    expect(r.selfBleu).toBeGreaterThan(selfBleu(varied));
  });
});

/** Every built-in family's natural templates, filled with the first value of each slot. */
function filledTemplates(): { core: string; values: string[] }[] {
  const out: { core: string; values: string[] }[] = [];
  const dags = loadDags();
  const slots: Record<string, string> = {};
  for (const d of dags) {
    for (const p of d.pages) for (const s of p.slots) slots[s.key] ??= s.values[0] ?? '';
  }
  for (const d of dags) {
    for (const t of d.tasks) {
      for (const tpl of t.templates.slice(1)) {
        const core = tpl.replace(/\{(\w+)\}/g, (all, k: string) => slots[k] ?? all);
        if (!/\{\w+\}/.test(core)) out.push({ core, values: [...tpl.matchAll(/\{(\w+)\}/g)].map((m) => slots[m[1]!]!) });
      }
    }
  }
  return out;
}

/** What the reference policy plans and the critics read from a request (goal texts aside: they quote it). */
function reading(instruction: string): string {
  const goals = planTask(instruction, []).goals;
  return JSON.stringify([goals, readRequest(instruction)], (k, v: unknown) => (k === 'text' ? undefined : v instanceof RegExp ? String(v) : v));
}

describe('instruction diversity in refinement', () => {
  const templates = filledTemplates();

  it('every emitted rewording of every family template reads exactly as the template (policy plan and critic reading)', () => {
    expect(templates.length).toBeGreaterThan(30);
    const unread: string[] = [];
    let checked = 0;
    for (const { core, values } of templates) {
      const want = reading(core);
      const random = seededRandom(core.length);
      const variants = [...refinementVariants(core, values), ...Array.from({ length: 12 }, () => diversify(core, values, random))];
      for (const v of variants) {
        checked++;
        for (const value of values) expect(v).toContain(value);
        if (reading(v) !== want) unread.push(v);
      }
    }
    expect(checked).toBeGreaterThan(1000);
    expect(unread).toEqual([]);
  });

  it('options marked unreadable really are not read the same (so the test above can fail)', () => {
    const unread = templates.flatMap(({ core, values }) => refinementVariants(core, values, true).filter((v) => reading(v) !== reading(core)));
    expect(unread.length).toBeGreaterThan(0);
    // (Also after a phrase fronted before the request: "In Brellow, it would be great if you could …".)
    expect(unread.filter((v) => !/(?:^|[.!?] )(?:[A-Z][^,.!?]*, )?(?:[Ii]t would be great|[Ii]s it possible)/.test(v))).toEqual([]);
  });

  it('a 300-query batch keeps every slot value verbatim and is far more varied than the templates alone', async () => {
    const dags = loadDags();
    const models = { synth: inProcessModel('ref-query-synth', querySynthRole), refine: inProcessModel('ref-query-refine', queryRefineRole) };
    const { queries, report } = await generateQueryBatch({ dags, count: 300, seed: 11, sampler: 'families', models });
    for (const q of queries) for (const v of Object.values(q.checker.params)) if (q.feasible) expect(q.instruction).toContain(v);
    const templatesOnly = diversityOf(templates.map((t) => t.core));
    expect(report.diversity.instructions).toBe(queries.length);
    // The frames add n-grams the templates never had: distinct-2 over the batch beats the old pick-a-template refiner.
    expect(report.diversity.distinct2).toBeGreaterThan(0.15);
    expect(report.diversity.selfBleu).toBeLessThan(0.85);
    expect(templatesOnly.distinct2).toBeGreaterThan(0);
  });
});

describe('request reading (intent.ts)', () => {
  it('a frame words the request sentence of a core, not the context statement before it', () => {
    const core = 'I lost my Scarf on Dr. Lee Route. Report it to lost and found: Blue wool';
    expect(splitRequest(core, ['Scarf', 'Dr. Lee Route', 'Blue wool'])).toEqual({ lead: 'I lost my Scarf on Dr. Lee Route.', request: 'Report it to lost and found: Blue wool' });
    const variants = refinementVariants(core, ['Scarf', 'Dr. Lee Route', 'Blue wool']);
    expect(variants).toContain('I lost my Scarf on Dr. Lee Route. Could you report it to lost and found: Blue wool?');
    expect(variants.some((v) => /\b(?:you|Please|Kindly) i lost\b/i.test(v))).toBe(false);
    // A verb the reader does not list, its object a pronoun, is still the request after a context statement.
    expect(requestCore('I lost my Scarf on Green Line. Report it to lost and found: Blue wool.')).toBe('Report Scarf on Green Line to lost and found: Blue wool.');
  });

  it('strips courtesy frames and content-free sentences, keeps requests and framed follow-ups', () => {
    expect(requestCore('Could you please delete my note Shopping list?')).toBe('Delete my note Shopping list.');
    expect(requestCore("I'm in a bit of a rush. Turn Wi-Fi Off, please. Thanks!")).toBe('Turn Wi-Fi Off.');
    // The framed follow-up is kept, its pronoun read as the thing the first sentence names (issue 17, sentence structure);
    // the new value the context gives is what "fix" changes.
    expect(requestCore('Aaron Blake has a new number: 555-201-7788. Please fix it in my contacts.')).toBe("Change Aaron Blake's number to 555-201-7788.");
    expect(requestCore('Aaron Blake is back in town. Please call him.')).toBe('Aaron Blake is back in town. Call him.');
    expect(requestCore('Text Sam: "Hi there. Running late."')).toBe('Text Sam: "Hi there. Running late."');
    // An information question stays a question.
    expect(requestCore('Can you tell me when my Dentist alarm rings?')).toBe('Can you tell me when my Dentist alarm rings?');
  });

  it('entities stop at function words', () => {
    expect(entityEnd('Off in Settings')).toBe('Off');
    expect(entityEnd('Bacon Burger from Burger Place')).toBe('Bacon Burger');
    expect(entityEnd('Large')).toBe('Large');
  });

  it('a polite question asks for an action; an information question asks for an answer', () => {
    expect(readRequest('Can you pin my note Shopping list to the top?').question).toBe(false);
    expect(readRequest('Can you tell me what time my Work alarm is?').question).toBe(true);
    expect(readRequest('What is on my calendar on June 1?').question).toBe(true);
    // A dictated question is not asked; a question followed by a request asks for the request.
    expect(readRequest('Send an email to bob@example.com, subject Plans, body "Are you free on Saturday?".').question).toBe(false);
    expect(readRequest("What's on the menu at Noodle Bar? Open it in Foodie.").question).toBe(false);
  });
});
