import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { ALERT_OPTIONS, BILLER_NAMES, CARD_FROZEN, CARD_NAMES, DEFAULT_ALERT, money, parseAmount, PAYEES, type BankState } from './state.js';

export const BANK_FAMILIES = ['freeze_card', 'send_money', 'pay_bill', 'set_balance_alert'] as const;
export type BankFamily = (typeof BANK_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`bank checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`bank checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (names: readonly string[]): string => names.map((t) => `"${t}"`).join(', ');

/** Success checkers for Bank; they read the server-side session state in-process. */
export function check(state: BankState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'bank') throw new Error(`bank checker got a spec for app "${spec.app}"`);
  switch (spec.family as BankFamily) {
    case 'freeze_card': {
      const name = param(spec, 'card', CARD_NAMES);
      const want = same(param(spec, 'action', ['freeze', 'unfreeze']), 'freeze');
      const target = state.cards.find((c) => same(c.name, name));
      const others = state.cards.filter((c) => c !== target && c.frozen !== CARD_FROZEN[c.name]).map((c) => c.name);
      const word = (f: boolean): string => (f ? 'frozen' : 'active');
      if (!target || target.frozen !== want) {
        return no(`"${name}" is ${word(target?.frozen ?? false)}, expected ${word(want)}${others.length ? ` (changed ${list(others)} instead)` : ''}`);
      }
      if (others.length) return no(`"${name}" is ${word(want)} but ${list(others)} changed too`);
      return ok(`"${name}" is ${word(want)}`);
    }
    case 'send_money': {
      const payee = param(spec, 'payee', PAYEES);
      const amountText = param(spec, 'amount');
      const cents = parseAmount(amountText);
      if (cents === undefined) throw new Error(`bank checker send_money: amount "${amountText}" is not an amount`);
      const note = spec.params.note?.trim() ?? '';
      const sent = state.transfers;
      const t = sent.find((x) => same(x.payee, payee));
      if (!t) {
        const pending = state.draft ? ` (a transfer to ${state.draft.payee} was reviewed but not confirmed)` : '';
        return no(sent.length ? `money sent to ${list(sent.map((x) => x.payee))}, not "${payee}"` : `no money was sent${pending}`);
      }
      if (t.cents !== cents) return no(`sent ${money(t.cents)} to ${payee}, expected ${money(cents)}`);
      if (note && !same(t.note, note)) return no(`transfer to ${payee} has note "${t.note}", expected "${note}"`);
      if (sent.length > 1) return no(`${sent.length} transfers were sent, expected one`);
      return ok(`sent ${money(cents)} to ${payee}${note ? ` with note "${note}"` : ''}`);
    }
    case 'pay_bill': {
      const name = param(spec, 'biller', BILLER_NAMES);
      const paid = state.billers.filter((b) => b.paidCents > 0).map((b) => b.name);
      if (!paid.some((n) => same(n, name))) return no(paid.length ? `paid ${list(paid)}, not "${name}"` : 'no bill was paid');
      if (paid.length > 1) return no(`${paid.length} bills were paid (${list(paid)}), expected one`);
      return ok(`paid "${name}"`);
    }
    case 'set_balance_alert': {
      const want = param(spec, 'threshold', ALERT_OPTIONS.filter((a) => a !== DEFAULT_ALERT));
      if (!same(state.alert, want)) return no(`low balance alert is ${state.alert}, expected ${want}`);
      return ok(`low balance alert is ${want}`);
    }
    default:
      throw new Error(`bank checker: unknown task family "${spec.family}" (known: ${BANK_FAMILIES.join(', ')})`);
  }
}

export const bankCheckers: AppCheckers<BankState> = { families: BANK_FAMILIES, check };
