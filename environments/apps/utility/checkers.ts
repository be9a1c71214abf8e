import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import {
  CARD_LABELS,
  cardByLabel,
  cardLabel,
  cardOf,
  dayLabel,
  ddDayByLabel,
  initialUtilityState,
  installDayByLabel,
  lastOf,
  meterByName,
  meterOf,
  METER_NAMES,
  money,
  ordinal,
  pad,
  parseMoney,
  WINDOW_NAMES,
  windowOpen,
  type Payment,
  type Reading,
  type UtilityState,
} from './state.js';

export const UTILITY_FAMILIES = ['submit_reading', 'make_payment', 'change_payment_day', 'book_smart_meter'] as const;
export type UtilityFamily = (typeof UTILITY_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`utility checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`utility checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}

/** Success checkers for Norvale; they read the server-side session state in-process. */
export function check(state: UtilityState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'utility') throw new Error(`utility checker got a spec for app "${spec.app}"`);
  const start = initialUtilityState(state.seed);
  const readingText = (r: Reading): string => {
    const m = meterOf(state, r.meterId);
    return m ? `${m.name} ${pad(m, r.value)}` : String(r.value);
  };
  const cardName = (id: string): string => {
    const c = cardOf(state, id);
    return c ? cardLabel(c) : id;
  };
  const paymentText = (p: Payment): string => `${money(p.pence)} with ${cardName(p.cardId)}`;

  const readings = [...state.readings].sort((a, b) => a.seq - b.seq);
  const payments = state.payments.filter((p) => !p.seeded).sort((a, b) => a.seq - b.seq);
  const dd = state.dd;
  const dayChanged = dd.day !== start.dd.day;
  const amountChanged = dd.pence !== start.dd.pence;
  const appt = state.appointment;
  const prefs = state.prefs.filter((p) => p.on !== start.prefs.find((x) => x.id === p.id)?.on);
  /** What else changed besides the task, or '' when nothing did. */
  const sideEffects = (skip: { readings?: boolean; payments?: boolean; day?: boolean; appointment?: boolean }): string => {
    if (!skip.readings && readings.length) return `a meter reading was submitted (${readings.map(readingText).join(', ')})`;
    if (!skip.payments && payments.length) return `a payment was made (${payments.map(paymentText).join(', ')})`;
    if (!skip.day && dayChanged) return `the Direct Debit date was changed to the ${ordinal(dd.day)}`;
    if (amountChanged) return `the Direct Debit amount was changed to ${money(dd.pence)}`;
    if (!skip.appointment && appt) return appt.cancelled ? 'a smart meter installation was booked and cancelled' : `a smart meter installation was booked for ${dayLabel(appt.day)}, ${appt.window}`;
    if (prefs.length) return `${prefs.map((p) => `"${p.name}" was turned ${p.on ? 'on' : 'off'}`).join(', ')}`;
    return '';
  };

  switch (spec.family as UtilityFamily) {
    case 'submit_reading': {
      const name = param(spec, 'meter', METER_NAMES);
      const m = meterByName(state, name)!;
      const text = param(spec, 'reading');
      if (!/^\d+$/.test(text.trim())) throw new Error(`utility checker submit_reading: reading "${text}" is not a meter reading`);
      const want = Number(text.trim());
      const before = lastOf(meterByName(start, name)!).value;
      if (want <= before) throw new Error(`utility checker submit_reading: ${m.name} reading ${text} is not above the last reading ${pad(m, before)}`);
      if (!readings.length) return no('no meter reading was submitted');
      const mine = readings.filter((r) => r.meterId === m.id);
      if (!mine.length) return no(`no ${m.name} reading was submitted (submitted ${readings.map(readingText).join(', ')} instead)`);
      const r = mine.find((x) => x.value === want) ?? mine[mine.length - 1]!;
      if (r.value !== want) return no(`the ${m.name} reading submitted is ${pad(m, r.value)}, expected ${pad(m, want)}`);
      if (readings.length > 1) return no(`${readings.length} readings were submitted (${readings.map(readingText).join(', ')}), expected one`);
      const side = sideEffects({ readings: true });
      if (side) return no(`the ${m.name} reading was submitted but ${side}`);
      return ok(`submitted a reading of ${pad(m, r.value)} ${m.unit} for ${m.name}`);
    }
    case 'make_payment': {
      const amountText = param(spec, 'pay_amount');
      const want = parseMoney(amountText);
      if (Number.isNaN(want) || want <= 0) throw new Error(`utility checker make_payment: pay_amount "${amountText}" is not an amount`);
      const cardText = param(spec, 'pay_card', CARD_LABELS);
      const card = cardByLabel(state, cardText)!;
      if (card.expired) throw new Error(`utility checker make_payment: ${cardLabel(card)} has expired`);
      if (!payments.length) return no('no payment was made');
      const p = payments.find((x) => x.pence === want && x.cardId === card.id) ?? payments.find((x) => x.pence === want) ?? payments[payments.length - 1]!;
      if (p.pence !== want) return no(`a payment of ${money(p.pence)} was made, expected ${money(want)}`);
      if (p.cardId !== card.id) return no(`${money(p.pence)} was paid with ${cardName(p.cardId)}, expected ${cardLabel(card)}`);
      if (payments.length > 1) return no(`${payments.length} payments were made (${payments.map(paymentText).join(', ')}), expected one`);
      const side = sideEffects({ payments: true });
      if (side) return no(`${paymentText(p)} was paid but ${side}`);
      return ok(`paid ${paymentText(p)}`);
    }
    case 'change_payment_day': {
      const text = param(spec, 'dd_day');
      const want = ddDayByLabel(text);
      if (want === undefined) throw new Error(`utility checker change_payment_day: unknown dd_day "${text}"`);
      if (want === start.dd.day) throw new Error(`utility checker change_payment_day: the Direct Debit is already taken on the ${ordinal(want)}`);
      if (!dayChanged) return no(dd.dayChanges ? `the payment date is back on the ${ordinal(dd.day)}, expected the ${ordinal(want)}` : 'the Direct Debit date was not changed');
      if (dd.day !== want) return no(`the Direct Debit date is the ${ordinal(dd.day)}, expected the ${ordinal(want)}`);
      const side = sideEffects({ day: true });
      if (side) return no(`the Direct Debit date is the ${ordinal(dd.day)} but ${side}`);
      return ok(`the Direct Debit is now taken on the ${ordinal(dd.day)} of each month (was the ${ordinal(start.dd.day)})`);
    }
    case 'book_smart_meter': {
      const dayText = param(spec, 'install_date');
      const day = installDayByLabel(dayText);
      if (day === undefined) throw new Error(`utility checker book_smart_meter: unknown install_date "${dayText}"`);
      const w = param(spec, 'install_window', WINDOW_NAMES);
      if (!windowOpen(day, w)) throw new Error(`utility checker book_smart_meter: ${dayLabel(day)} has no free ${w} window`);
      if (!appt) return no('no smart meter installation was booked');
      if (appt.cancelled) return no(`the smart meter installation booked for ${dayLabel(appt.day)}, ${appt.window} was cancelled`);
      if (appt.day !== day) return no(`the installation is booked for ${dayLabel(appt.day)}, expected ${dayLabel(day)}`);
      if (!same(appt.window, w)) return no(`the installation on ${dayLabel(day)} is booked for the ${appt.window.toLowerCase()}, expected the ${w.toLowerCase()}`);
      const side = sideEffects({ appointment: true });
      if (side) return no(`the installation is booked for ${dayLabel(day)}, ${appt.window} but ${side}`);
      return ok(`a smart meter installation is booked for ${dayLabel(day)}, ${appt.window}`);
    }
    default:
      throw new Error(`utility checker: unknown task family "${spec.family}" (known: ${UTILITY_FAMILIES.join(', ')})`);
  }
}

export const utilityCheckers: AppCheckers<UtilityState> = { families: UTILITY_FAMILIES, check };
