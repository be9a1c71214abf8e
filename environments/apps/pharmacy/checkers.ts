import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { DEFAULT_STORE, MEDICATIONS, REFILLABLE, REMINDER_ON, STORES, type PharmacyState } from './state.js';

export const PHARMACY_FAMILIES = ['refill_prescription', 'switch_reminder', 'transfer_prescription', 'choose_store'] as const;
export type PharmacyFamily = (typeof PHARMACY_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`pharmacy checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`pharmacy checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (names: readonly string[]): string => names.map((t) => `"${t}"`).join(', ');
const digits = (s: string): string => s.replace(/\D/g, '');

/** Success checkers for Pharmacy; they read the server-side session state in-process. */
export function check(state: PharmacyState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'pharmacy') throw new Error(`pharmacy checker got a spec for app "${spec.app}"`);
  switch (spec.family as PharmacyFamily) {
    case 'refill_prescription': {
      const name = param(spec, 'medication', REFILLABLE);
      const requested = state.prescriptions.filter((p) => p.refillsRequested > 0).map((p) => p.name);
      if (!requested.some((n) => same(n, name))) return no(requested.length ? `refill requested for ${list(requested)}, not "${name}"` : 'no refill was requested');
      if (requested.length > 1) return no(`${requested.length} refills were requested (${list(requested)}), expected one`);
      return ok(`refill requested for "${name}"`);
    }
    case 'switch_reminder': {
      const name = param(spec, 'reminder', MEDICATIONS);
      const want = param(spec, 'state', ['On', 'Off']);
      const changed = state.prescriptions.filter((p) => p.reminder !== REMINDER_ON[p.name]);
      const target = state.prescriptions.find((p) => same(p.name, name));
      const others = changed.filter((p) => p !== target).map((p) => p.name);
      if (!target || target.reminder !== same(want, 'On')) {
        return no(`the "${name}" reminder is ${target?.reminder ? 'On' : 'Off'}, expected ${want}${others.length ? ` (switched ${list(others)} instead)` : ''}`);
      }
      if (others.length) return no(`the "${name}" reminder is ${want} but ${list(others)} were switched too`);
      return ok(`the "${name}" reminder is ${want}`);
    }
    case 'transfer_prescription': {
      const medication = param(spec, 'drug');
      const rx = param(spec, 'rx_number');
      const from = param(spec, 'pharmacy');
      const t = state.transfers.find((x) => same(x.medication, medication));
      if (!t) return no(state.transfers.length ? `transfer requested for ${list(state.transfers.map((x) => x.medication))}, not "${medication}"` : 'no transfer was requested');
      if (digits(t.rxNumber) !== digits(rx)) return no(`transfer of "${medication}" has prescription number ${t.rxNumber}, expected ${rx}`);
      if (!same(t.fromPharmacy, from)) return no(`transfer of "${medication}" is from "${t.fromPharmacy}", expected "${from}"`);
      if (state.transfers.length > 1) return no(`${state.transfers.length} transfers were requested, expected one`);
      return ok(`transfer of "${medication}" (Rx ${rx}) from ${from} requested`);
    }
    case 'choose_store': {
      const store = param(spec, 'store', STORES.filter((s) => s !== DEFAULT_STORE));
      if (!same(state.store, store)) return no(`preferred store is ${state.store}, expected ${store}`);
      return ok(`preferred store is ${store}`);
    }
    default:
      throw new Error(`pharmacy checker: unknown task family "${spec.family}" (known: ${PHARMACY_FAMILIES.join(', ')})`);
  }
}

export const pharmacyCheckers: AppCheckers<PharmacyState> = { families: PHARMACY_FAMILIES, check };
