import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  CATEGORIES,
  claimTypesOf,
  DELIVERIES,
  dollars,
  initialInsuranceState,
  liveItems,
  longDay,
  methodOf,
  OLDEST_CLAIM_DAY,
  ordinal,
  parseDay,
  parseDollars,
  policyOf,
  TODAY,
  type InsuranceState,
  type Item,
  type Policy,
} from './state.js';

export const INSURANCE_FAMILIES = ['file_claim', 'add_valuable', 'request_document', 'change_payment_method'] as const;
export type InsuranceFamily = (typeof INSURANCE_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`insurance checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`insurance checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const q = (name: string): string => `"${name}"`;
const list = (items: readonly string[]): string => items.join(', ');

/** What changed beyond what a family asks for. */
function sideEffects(start: InsuranceState, st: InsuranceState, o: { claim?: number; item?: number; request?: number; method?: string }): string[] {
  const out: string[] = [];
  const label = (id: string): string => policyOf(st, id)?.label ?? id;
  for (const p of st.policies) {
    const p0 = policyOf(start, p.id)!;
    for (const i of p.items) {
      const i0 = p0.items.find((x) => x.id === i.id);
      if (!i0) {
        if (i.id !== o.item && !i.removed) out.push(`${q(i.name)} was added to the cover of ${q(p.label)}`);
        if (i.id === o.item && i.removed) out.push(`${q(i.name)} was added to ${q(p.label)} and then removed`);
      } else if (i.removed && !i0.removed) out.push(`${q(i0.name)} was removed from the cover of ${q(p.label)}`);
    }
    if (p.methodId !== p0.methodId && p.id !== o.method) out.push(`the payment method of ${q(p.label)} was changed to ${methodOf(st, p.methodId)?.label ?? p.methodId}`);
    if (p.payDay !== p0.payDay) out.push(`the payment day of ${q(p.label)} was changed to the ${ordinal(p.payDay)}`);
  }
  for (const c of st.claims) {
    const c0 = start.claims.find((x) => x.id === c.id);
    if (!c0) {
      if (c.id !== o.claim) out.push(`a ${c.type.toLowerCase()} claim was filed on ${q(label(c.policyId))}${c.status === 'Withdrawn' ? ' (then withdrawn)' : ''}`);
    } else if (c.status !== c0.status) out.push(`claim ${c0.ref} (${c0.type.toLowerCase()}) was ${c.status === 'Withdrawn' ? 'withdrawn' : `set to ${c.status}`}`);
  }
  for (const r of st.requests) {
    if (r.id === o.request || start.requests.some((x) => x.id === r.id)) continue;
    out.push(`a copy of the ${r.document} of ${q(label(r.policyId))} was requested by ${r.delivery.toLowerCase()}`);
  }
  for (const k of Object.keys(st.settings) as (keyof InsuranceState['settings'])[]) {
    if (st.settings[k] !== start.settings[k]) out.push(`the ${k === 'paperless' ? 'Paperless documents' : k === 'reminders' ? 'Payment reminders' : 'Claim updates'} setting was turned ${st.settings[k] ? 'on' : 'off'}`);
  }
  return out;
}

/** Success checkers for the insurance app; they read the server-side session state in-process. */
export function check(state: InsuranceState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'insurance') throw new Error(`insurance checker got a spec for app "${spec.app}"`);
  const start = initialInsuranceState(state.seed);
  const policyParam = (key: string, kind?: 'home' | 'car'): Policy => {
    const pool = start.policies.filter((p) => !kind || p.kind === kind);
    const v = param(
      spec,
      key,
      pool.map((p) => p.label),
    );
    return pool.find((p) => same(p.label, v))!;
  };
  const labelOf = (id: string): string => policyOf(state, id)?.label ?? id;
  switch (spec.family as InsuranceFamily) {
    case 'file_claim': {
      const p0 = policyParam('claim_policy');
      const type = param(spec, 'claim_type', claimTypesOf(p0.kind));
      const rawDate = param(spec, 'claim_date');
      const date = parseDay(rawDate);
      if (!date) throw new Error(`insurance checker file_claim: claim_date "${rawDate}" is not a date`);
      if (date < OLDEST_CLAIM_DAY || date > TODAY) throw new Error(`insurance checker file_claim: claim_date "${rawDate}" is outside ${OLDEST_CLAIM_DAY}..${TODAY}`);
      const rawAmount = param(spec, 'claim_amount');
      const amount = parseDollars(rawAmount);
      if (!(amount > 0)) throw new Error(`insurance checker file_claim: claim_amount "${rawAmount}" is not an amount`);
      const made = state.claims.filter((c) => !c.seeded).sort((a, b) => a.seq - b.seq);
      if (!made.length) return no('no claim was filed');
      const live = made.filter((c) => c.status !== 'Withdrawn');
      const c = live.find((x) => x.policyId === p0.id) ?? live[live.length - 1] ?? made[made.length - 1]!;
      if (c.status === 'Withdrawn') return no(`a claim was filed on ${q(labelOf(c.policyId))} and then withdrawn`);
      if (c.policyId !== p0.id) return no(`the claim was filed on ${q(labelOf(c.policyId))}, expected ${q(p0.label)}`);
      if (!same(c.type, type)) return no(`the claim is for ${c.type.toLowerCase()}, expected ${type.toLowerCase()}`);
      if (c.date !== date) return no(`the claim gives ${longDay(c.date)} as the day it happened, expected ${longDay(date)}`);
      if (c.amount !== amount) return no(`the claim's estimated cost is ${dollars(c.amount)}, expected ${dollars(amount)}`);
      if (live.length > 1) return no(`${live.length} claims were filed (${list(live.map((x) => `${x.type.toLowerCase()} on ${q(labelOf(x.policyId))}`))}), expected one`);
      const other = sideEffects(start, state, { claim: c.id });
      if (other.length) return no(`a ${c.type.toLowerCase()} claim was filed on ${q(p0.label)} but ${other.join(' and ')}`);
      return ok(`filed a ${c.type.toLowerCase()} claim on ${q(p0.label)} for ${longDay(c.date)}, estimated at ${dollars(c.amount)}`);
    }
    case 'add_valuable': {
      const p0 = policyParam('home_policy', 'home');
      const name = param(spec, 'item_name');
      const category = param(spec, 'item_category', CATEGORIES);
      const rawValue = param(spec, 'item_value');
      const value = parseDollars(rawValue);
      if (!(value > 0)) throw new Error(`insurance checker add_valuable: item_value "${rawValue}" is not an amount`);
      const listed = liveItems(p0).find((i) => same(i.name, name));
      if (listed) throw new Error(`insurance checker add_valuable: "${listed.name}" is already listed on "${p0.label}"`);
      const added: { item: Item; policy: Policy }[] = state.policies.flatMap((p) => p.items.filter((i) => !i.seeded).map((item) => ({ item, policy: p })));
      if (!added.length) return no('no valuable was added');
      const live = added.filter((x) => !x.item.removed);
      const hit = live.find((x) => same(x.item.name, name)) ?? added.find((x) => same(x.item.name, name)) ?? live[live.length - 1] ?? added[added.length - 1]!;
      const { item: i, policy: p } = hit;
      if (!same(i.name, name)) return no(`the valuable added is called ${q(i.name)}, expected ${q(name)}`);
      if (i.removed) return no(`${q(i.name)} was added to ${q(p.label)} and then removed`);
      if (p.id !== p0.id) return no(`${q(i.name)} was added to ${q(p.label)}, expected ${q(p0.label)}`);
      if (!same(i.category, category)) return no(`${q(i.name)} was added as ${i.category}, expected ${category}`);
      if (i.value !== value) return no(`${q(i.name)} was added with a value of ${dollars(i.value)}, expected ${dollars(value)}`);
      const other = sideEffects(start, state, { item: i.id });
      if (other.length) return no(`${q(i.name)} was added to ${q(p0.label)} but ${other.join(' and ')}`);
      return ok(`added ${q(i.name)} (${i.category}, ${dollars(i.value)}) to the cover of ${q(p0.label)}`);
    }
    case 'request_document': {
      const p0 = policyParam('doc_policy');
      const doc = param(spec, 'document', p0.documents);
      const delivery = param(spec, 'delivery', DELIVERIES);
      const made = state.requests.filter((r) => !r.seeded).sort((a, b) => a.seq - b.seq);
      if (!made.length) return no('no copy of a document was requested');
      const r = made.find((x) => x.policyId === p0.id && same(x.document, doc)) ?? made.find((x) => same(x.document, doc)) ?? made[made.length - 1]!;
      if (!same(r.document, doc)) return no(`a copy of the ${r.document} of ${q(labelOf(r.policyId))} was requested, expected the ${doc}`);
      if (r.policyId !== p0.id) return no(`the ${r.document} of ${q(labelOf(r.policyId))} was requested, expected the one of ${q(p0.label)}`);
      if (!same(r.delivery, delivery)) return no(`the ${r.document} of ${q(p0.label)} was requested by ${r.delivery.toLowerCase()}, expected by ${delivery.toLowerCase()}`);
      const other = sideEffects(start, state, { request: r.id });
      if (other.length) return no(`the ${r.document} of ${q(p0.label)} was requested by ${r.delivery.toLowerCase()} but ${other.join(' and ')}`);
      return ok(`requested the ${r.document} of ${q(p0.label)} by ${r.delivery.toLowerCase()}`);
    }
    case 'change_payment_method': {
      const p0 = policyParam('pay_policy');
      const mName = param(
        spec,
        'pay_method',
        start.methods.map((m) => m.label),
      );
      const m = start.methods.find((x) => same(x.label, mName))!;
      if (p0.methodId === m.id) throw new Error(`insurance checker change_payment_method: "${p0.label}" is already paid with ${m.label}`);
      const p = policyOf(state, p0.id)!;
      if (p.methodId === p0.methodId) {
        const instead = state.policies.filter((x) => x.methodId !== policyOf(start, x.id)!.methodId);
        if (instead.length) return no(`the payment method of ${list(instead.map((x) => q(x.label)))} was changed instead of ${q(p0.label)}`);
        return no(`${q(p0.label)} is still paid with ${methodOf(state, p.methodId)?.label ?? p.methodId}`);
      }
      if (p.methodId !== m.id) return no(`${q(p0.label)} is now paid with ${methodOf(state, p.methodId)?.label ?? p.methodId}, expected ${m.label}`);
      const other = sideEffects(start, state, { method: p.id });
      if (other.length) return no(`${q(p0.label)} is now paid with ${m.label} but ${other.join(' and ')}`);
      return ok(`${q(p0.label)} is now paid with ${m.label}`);
    }
    default:
      throw new Error(`insurance checker: unknown task family "${spec.family}" (known: ${INSURANCE_FAMILIES.join(', ')})`);
  }
}

export const insuranceCheckers: AppCheckers<InsuranceState> = { families: INSURANCE_FAMILIES, check };
