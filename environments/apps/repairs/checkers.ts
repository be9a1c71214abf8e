import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  BUDGETS,
  canChange,
  CARD_ENDINGS,
  dayLabel,
  freeWindows,
  initialRepairsState,
  money,
  openDays,
  openRequestFor,
  paymentDue,
  PROJECT_TYPES,
  TIMINGS,
  TIP_OPTIONS,
  WINDOW_NAMES,
  type QuoteRequest,
  type RepairsState,
  type Visit,
} from './state.js';

export const REPAIRS_FAMILIES = ['book_visit', 'reschedule_visit', 'request_quotes', 'pay_invoice'] as const;
export type RepairsFamily = (typeof REPAIRS_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`repairs checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`repairs checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');

/** Success checkers for Mendwick; they read the server-side session state in-process. */
export function check(state: RepairsState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'repairs') throw new Error(`repairs checker got a spec for app "${spec.app}"`);
  const start = initialRepairsState(state.seed);
  const proName = (v: Visit): string => state.pros.find((p) => p.id === v.proId)?.name ?? 'a pro';
  const when = (v: Visit): string => `${dayLabel(v.day)}, ${v.window}`;
  const visitText = (v: Visit): string => `${proName(v)} (${v.service}), ${when(v)}`;
  const startVisit = (v: Visit): Visit | undefined => start.visits.find((x) => x.id === v.id);
  const booked = state.visits.filter((v) => !v.seeded).sort((a, b) => a.seq - b.seq);
  const moved = state.visits.filter((v) => v.seeded && v.movedFrom && (v.day !== startVisit(v)?.day || v.window !== startVisit(v)?.window)).sort((a, b) => a.seq - b.seq);
  const canceled = state.visits.filter((v) => v.status === 'canceled' && startVisit(v)?.status !== 'canceled').sort((a, b) => a.seq - b.seq);
  const paid = state.visits.filter((v) => v.payment && !startVisit(v)?.payment).sort((a, b) => (a.payment?.seq ?? 0) - (b.payment?.seq ?? 0));
  const sent = state.requests.filter((r) => !r.seeded).sort((a, b) => a.seq - b.seq);
  const requestText = (r: QuoteRequest): string => `${r.project}, ${r.budget}, ${r.timing.toLowerCase()}`;
  const cardEnding = (id: number): string => state.cards.find((c) => c.id === id)?.last4 ?? '????';
  /** Side effects no family asks for beyond its own: visits canceled, moved or booked, invoices paid, requests sent. */
  const sideEffects = (except: 'book' | 'move' | 'pay' | 'quote', targetId = 0): string[] => {
    const out: string[] = [];
    const c = canceled.filter((v) => v.id !== targetId);
    if (c.length) out.push(`${list(c.map(visitText))} was canceled`);
    if (except !== 'move' && moved.length) out.push(`${list(moved.map(visitText))} was moved`);
    if (except !== 'book' && booked.length) out.push(`${list(booked.map(visitText))} was booked`);
    if (except !== 'pay' && paid.length) out.push(`the ${list(paid.map(proName))} invoice was paid`);
    if (except !== 'quote' && sent.length) out.push(`a quote request was sent (${list(sent.map(requestText))})`);
    return out;
  };
  switch (spec.family as RepairsFamily) {
    case 'book_visit': {
      const bookable = start.pros.filter((p) => p.accepting);
      const proText = param(
        spec,
        'pro',
        bookable.map((p) => p.name),
      );
      const pro = bookable.find((p) => same(p.name, proText))!;
      const service = param(
        spec,
        'repair',
        pro.services.map((s) => s.name),
      );
      const day = param(spec, 'booking_day', openDays(pro).map(dayLabel));
      const window = param(spec, 'arrival_window', WINDOW_NAMES);
      const dayNo = openDays(pro).find((d) => same(dayLabel(d), day))!;
      if (!freeWindows(pro, dayNo).some((w) => same(w, window))) throw new Error(`repairs checker book_visit: ${window} on ${day} is taken at ${pro.name}`);
      const want = (v: Visit): boolean => v.proId === pro.id && same(v.service, service) && v.day === dayNo && same(v.window, window);
      const v = booked.find(want) ?? booked.find((x) => x.proId === pro.id) ?? booked[booked.length - 1];
      if (!v) return no('no visit was booked');
      const what = `the ${pro.name} visit`;
      if (v.proId !== pro.id) return no(`the visit was booked with ${proName(v)}, expected ${pro.name}`);
      if (v.status === 'canceled') return no(`${what} was booked and then canceled`);
      if (!same(v.service, service)) return no(`${what} is for ${v.service}, expected ${service}`);
      if (v.day !== dayNo) return no(`${what} is on ${dayLabel(v.day)}, expected ${day}`);
      if (!same(v.window, window)) return no(`${what} on ${day} is for ${v.window}, expected ${window}`);
      if (booked.length > 1) return no(`${booked.length} visits were booked (${list(booked.map(visitText))}), expected one`);
      const other = sideEffects('book');
      if (other.length) return no(`${what} was booked but ${other.join(' and ')}`);
      return ok(`booked ${visitText(v)}`);
    }
    case 'reschedule_visit': {
      const changeable = start.visits.filter(canChange);
      const proText = param(spec, 'reschedule_pro', changeable.map(proName));
      const startTarget = changeable.find((v) => same(proName(v), proText))!;
      const pro = start.pros.find((p) => p.id === startTarget.proId)!;
      const day = param(spec, 'move_day', openDays(pro).map(dayLabel));
      const window = param(spec, 'move_window', WINDOW_NAMES);
      const dayNo = openDays(pro).find((d) => same(dayLabel(d), day))!;
      if (!freeWindows(pro, dayNo).some((w) => same(w, window))) throw new Error(`repairs checker reschedule_visit: ${window} on ${day} is taken at ${pro.name}`);
      if (dayNo === startTarget.day && same(window, startTarget.window)) throw new Error(`repairs checker reschedule_visit: the ${pro.name} visit is already at ${window} on ${day}`);
      const target = state.visits.find((v) => v.id === startTarget.id)!;
      const what = `the ${pro.name} visit`;
      const others = moved.filter((v) => v.id !== target.id);
      if (target.status === 'canceled') return no(`${what} was canceled instead of moved`);
      if (target.day === startTarget.day && target.window === startTarget.window)
        return no(`${what} is still on ${when(target)}${others.length ? ` (moved ${list(others.map(visitText))} instead)` : ''}`);
      if (target.day !== dayNo) return no(`${what} was moved to ${dayLabel(target.day)}, expected ${day}`);
      if (!same(target.window, window)) return no(`${what} on ${day} is for ${target.window}, expected ${window}`);
      if (others.length) return no(`${what} was moved but ${list(others.map(visitText))} too`);
      const other = sideEffects('move', 0);
      if (other.length) return no(`${what} was moved but ${other.join(' and ')}`);
      return ok(`moved ${what} from ${when(startTarget)} to ${when(target)}`);
    }
    case 'request_quotes': {
      const project = param(spec, 'project', PROJECT_TYPES);
      const budget = param(spec, 'budget', BUDGETS);
      const timing = param(spec, 'timing', TIMINGS);
      if (openRequestFor(start, project)) throw new Error(`repairs checker request_quotes: there is already an open request for ${project}`);
      const r = sent.find((x) => same(x.project, project)) ?? sent[sent.length - 1];
      if (!r) return no('no quote request was sent');
      if (!same(r.project, project)) return no(`the quote request is for ${r.project}, expected ${project}`);
      if (!same(r.budget, budget)) return no(`the ${r.project} request has the budget ${r.budget}, expected ${budget}`);
      if (!same(r.timing, timing)) return no(`the ${r.project} request says "${r.timing}", expected "${timing}"`);
      if (sent.length > 1) return no(`${sent.length} quote requests were sent (${list(sent.map(requestText))}), expected one`);
      const other = sideEffects('quote');
      if (other.length) return no(`the ${r.project} request was sent but ${other.join(' and ')}`);
      return ok(`sent a quote request for ${requestText(r)}`);
    }
    case 'pay_invoice': {
      const due = start.visits.filter(paymentDue);
      const proText = param(spec, 'invoice_pro', due.map(proName));
      const ending = param(
        spec,
        'card_ending',
        start.cards.filter((c) => !c.expired).map((c) => c.last4),
      );
      const tip = param(
        spec,
        'tip',
        TIP_OPTIONS.filter((t) => t.endsWith('%')),
      );
      if (!CARD_ENDINGS.includes(ending.trim())) throw new Error(`repairs checker pay_invoice: unknown card_ending "${ending}"`);
      const startTarget = due.find((v) => same(proName(v), proText))!;
      const target = state.visits.find((v) => v.id === startTarget.id)!;
      const what = `the ${proName(target)} invoice`;
      const others = paid.filter((v) => v.id !== target.id);
      const pay = target.payment;
      if (!pay) return no(others.length ? `${what} was not paid (paid ${list(others.map(proName))} instead)` : 'no invoice was paid');
      if (cardEnding(pay.cardId) !== ending.trim()) return no(`${what} was paid with the card ending in ${cardEnding(pay.cardId)}, expected ${ending.trim()}`);
      if (!same(pay.tip, tip)) return no(`${what} was paid with ${pay.tip === 'Custom' ? `a custom tip of ${money(pay.tipCents)}` : pay.tip === 'No tip' ? 'no tip' : `a ${pay.tip} tip`}, expected a ${tip} tip`);
      if (others.length) return no(`${what} was paid but ${list(others.map(proName))} too`);
      const other = sideEffects('pay');
      if (other.length) return no(`${what} was paid but ${other.join(' and ')}`);
      return ok(`paid ${what}, ${money(pay.totalCents)} with a ${pay.tip} tip, card ending in ${ending.trim()}`);
    }
    default:
      throw new Error(`repairs checker: unknown task family "${spec.family}" (known: ${REPAIRS_FAMILIES.join(', ')})`);
  }
}

export const repairsCheckers: AppCheckers<RepairsState> = { families: REPAIRS_FAMILIES, check };



