import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  CATEGORIES,
  GROUP_NAMES,
  groupByName,
  groupOf,
  initialSplitsState,
  METHODS,
  money,
  pairBalance,
  parseMoney,
  seededTitles,
  who,
  YOU,
  type Expense,
  type Group,
  type Payment,
  type SplitsState,
} from './state.js';

export const SPLITS_FAMILIES = ['add_expense', 'edit_expense', 'settle_up', 'delete_expense'] as const;
export type SplitsFamily = (typeof SPLITS_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`splits checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`splits checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (items: readonly string[]): string => items.map((t) => `"${t}"`).join(', ');
const people = (keys: readonly string[]): string => keys.map(who).join(', ');
const sameSet = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

/** Success checkers for Splitto; they read the server-side session state in-process. */
export function check(state: SplitsState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'splits') throw new Error(`splits checker got a spec for app "${spec.app}"`);
  const start = initialSplitsState(state.seed);
  const before = (e: Expense): Expense | undefined => start.expenses.find((x) => x.id === e.id);
  const group = (key: string): Group => {
    const g = groupByName(param(spec, key, GROUP_NAMES));
    if (!g) throw new Error(`splits checker ${spec.family}: no group for "${key}"`);
    return g;
  };
  const seededExpense = (g: Group, key: string): Expense => {
    const title = param(spec, key);
    if (!seededTitles(g.id).some((t) => same(t, title))) throw new Error(`splits checker ${spec.family}: unknown ${key} "${title}" in ${g.name}`);
    const e = state.expenses.find((x) => x.seeded && x.groupId === g.id && same(x.title, title)) ?? state.expenses.find((x) => x.seeded && x.groupId === g.id && same(before(x)?.title ?? '', title));
    if (!e) throw new Error(`splits checker ${spec.family}: no expense "${title}" in ${g.name}`);
    return e;
  };
  const amount = (key: string): number => {
    const v = param(spec, key);
    const c = parseMoney(v);
    if (Number.isNaN(c) || c <= 0) throw new Error(`splits checker ${spec.family}: unknown ${key} "${v}"`);
    return c;
  };
  const where = (e: Expense): string => `"${e.title}" in ${groupOf(e.groupId)?.name ?? '?'}`;
  const added = state.expenses.filter((e) => e.added);
  const deleted = state.expenses.filter((e) => e.seeded && e.deleted).sort((a, b) => a.seq - b.seq);
  /** Seeded expenses (not deleted) that differ from how they started. */
  const changed = state.expenses.filter((e) => {
    const b = before(e);
    return e.seeded && !e.deleted && b !== undefined && (e.title !== b.title || e.cents !== b.cents || e.payer !== b.payer || !sameSet(e.split, b.split) || e.category !== b.category || e.day !== b.day);
  });
  const newPays = state.payments.filter((p) => !p.seeded).sort((a, b) => a.seq - b.seq);
  const payText = (p: Payment): string => `${who(p.from)} paid ${p.to === YOU ? 'you' : p.to} ${money(p.cents)} in ${groupOf(p.groupId)?.name ?? '?'}`;
  /** What else changed besides the task, or '' when nothing did. */
  const sideEffects = (skip: { added?: boolean; deleted?: boolean; changed?: boolean; paid?: boolean }): string => {
    if (!skip.added && added.length) return `${list(added.map((e) => e.title))} was added`;
    if (!skip.deleted && deleted.length) return `${list(deleted.map((e) => e.title))} was deleted`;
    if (!skip.changed && changed.length) return `${list(changed.map((e) => e.title))} was changed`;
    if (!skip.paid && newPays.length) return `a payment was recorded (${newPays.map(payText).join('; ')})`;
    return '';
  };
  switch (spec.family as SplitsFamily) {
    case 'add_expense': {
      const g = group('new_group');
      const title = param(spec, 'new_title');
      const cents = amount('new_amount');
      const payer = param(spec, 'new_payer', g.members.filter((m) => m !== YOU));
      const category = param(spec, 'new_category', CATEGORIES);
      if (seededTitles(g.id).some((t) => same(t, title))) throw new Error(`splits checker add_expense: "${title}" is already an expense in ${g.name}`);
      const kept = added.filter((e) => !e.deleted);
      if (!kept.length) return no(added.length ? `an expense was added but then deleted (${list(added.map((e) => e.title))})` : 'no expense was added');
      const e = kept.find((x) => same(x.title, title) && x.groupId === g.id) ?? kept.find((x) => x.groupId === g.id) ?? kept[kept.length - 1]!;
      if (e.groupId !== g.id) return no(`"${e.title}" was added to ${groupOf(e.groupId)?.name ?? '?'}, expected ${g.name}`);
      if (!same(e.title, title)) return no(`the expense added is "${e.title}", expected "${title}"`);
      if (e.cents !== cents) return no(`${e.title} was added for ${money(e.cents)}, expected ${money(cents)}`);
      if (!same(e.payer, payer)) return no(`${e.title} was paid by ${who(e.payer)}, expected ${payer}`);
      if (!same(e.category, category)) return no(`${e.title} is under ${e.category}, expected ${category}`);
      if (!sameSet(e.split, g.members)) return no(`${e.title} is split between ${people(e.split)}, expected everyone in ${g.name}`);
      if (added.length > 1) return no(`${added.length} expenses were added (${list(added.map((x) => x.title))}), expected one`);
      const side = sideEffects({ added: true });
      if (side) return no(`${e.title} was added but ${side}`);
      return ok(`added ${e.title} (${money(e.cents)}, paid by ${who(e.payer)}, ${e.category}) to ${g.name}, split between ${e.split.length}`);
    }
    case 'edit_expense': {
      const g = group('edit_group');
      const e = seededExpense(g, 'edit_expense');
      const cents = amount('edit_amount');
      const b = before(e);
      if (!b) throw new Error(`splits checker edit_expense: "${e.title}" was not seeded`);
      if (b.cents === cents) throw new Error(`splits checker edit_expense: ${e.title} already costs ${money(cents)}`);
      if (e.deleted) return no(`${e.title} was deleted`);
      const edited = state.expenses.filter((x) => x.edits > 0);
      if (!edited.length) return no('no expense was edited');
      if (e.cents !== cents) {
        if (e.cents === b.cents) return no(`${e.title} still costs ${money(e.cents)} (edited ${list(edited.map((x) => x.title))} instead)`);
        return no(`${e.title} now costs ${money(e.cents)}, expected ${money(cents)}`);
      }
      if (e.title !== b.title) return no(`${b.title}'s amount was fixed but it was renamed "${e.title}"`);
      if (e.payer !== b.payer) return no(`${e.title}'s amount was fixed but its payer changed from ${who(b.payer)} to ${who(e.payer)}`);
      if (!sameSet(e.split, b.split)) return no(`${e.title}'s amount was fixed but it is now split between ${people(e.split)} instead of ${people(b.split)}`);
      if (e.category !== b.category) return no(`${e.title}'s amount was fixed but its category changed from ${b.category} to ${e.category}`);
      if (e.day !== b.day) return no(`${e.title}'s amount was fixed but its date changed`);
      const others = changed.filter((x) => x.id !== e.id);
      if (others.length) return no(`${e.title} was fixed but ${others.map(where).join(', ')} changed too`);
      const side = sideEffects({ changed: true });
      if (side) return no(`${e.title} was fixed but ${side}`);
      return ok(`${e.title} in ${g.name} now costs ${money(e.cents)} (was ${money(b.cents)})`);
    }
    case 'settle_up': {
      const g = group('settle_group');
      const friend = param(spec, 'settle_friend', g.members.filter((m) => m !== YOU));
      const key = g.members.find((m) => same(m, friend)) ?? friend;
      const method = param(spec, 'settle_method', METHODS);
      const owedAtStart = pairBalance(start, g.id, key);
      if (owedAtStart === 0) throw new Error(`splits checker settle_up: you and ${key} start settled up in ${g.name}`);
      if (!newPays.length) return no('no payment was recorded');
      const mine = newPays.filter((p) => p.groupId === g.id && (p.from === key || p.to === key));
      if (!mine.length) return no(`no payment with ${key} in ${g.name} was recorded (recorded ${newPays.map(payText).join('; ')} instead)`);
      const p = mine[mine.length - 1]!;
      if (!same(p.method, method)) return no(`the payment with ${key} was recorded as ${p.method}, expected ${method}`);
      if (newPays.length > 1) return no(`${newPays.length} payments were recorded (${newPays.map(payText).join('; ')}), expected one`);
      const left = pairBalance(state, g.id, key);
      const side = sideEffects({ paid: true });
      if (side) return no(`a payment with ${key} was recorded but ${side}`);
      if (left !== 0) return no(`${payText(p)}, but ${left > 0 ? `${key} still owes you ${money(left)}` : `you still owe ${key} ${money(-left)}`}`);
      return ok(`${payText(p)} by ${p.method}; settled up with ${key}`);
    }
    case 'delete_expense': {
      const g = group('delete_group');
      const e = seededExpense(g, 'delete_expense');
      const others = deleted.filter((x) => x.id !== e.id);
      if (!e.deleted) return no(deleted.length ? `${e.title} was not deleted (deleted ${others.map(where).join(', ')} instead)` : 'no expense was deleted');
      if (others.length) return no(`${deleted.length} expenses were deleted (${list(deleted.map((x) => x.title))}), expected one`);
      const side = sideEffects({ deleted: true });
      if (side) return no(`${e.title} was deleted but ${side}`);
      return ok(`deleted ${e.title} (${money(e.cents)}) from ${g.name}`);
    }
    default:
      throw new Error(`splits checker: unknown task family "${spec.family}" (known: ${SPLITS_FAMILIES.join(', ')})`);
  }
}

export const splitsCheckers: AppCheckers<SplitsState> = { families: SPLITS_FAMILIES, check };
