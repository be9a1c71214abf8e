import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { ALERTS_ON, FARE_NAMES, LINE_NAMES, LOST_ITEMS, RELOAD_AMOUNTS, type TransitState } from './state.js';

export const TRANSIT_FAMILIES = ['buy_ticket', 'line_alerts', 'report_lost_item', 'set_auto_reload'] as const;
export type TransitFamily = (typeof TRANSIT_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`transit checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`transit checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (names: readonly string[]): string => names.map((t) => `"${t}"`).join(', ');
/** Free text compared as typed, ignoring case, spacing and a final full stop. */
const sameText = (a: string, b: string): boolean => same(a.replace(/\.\s*$/, ''), b.replace(/\.\s*$/, ''));

/** Success checkers for Transit; they read the server-side session state in-process. */
export function check(state: TransitState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'transit') throw new Error(`transit checker got a spec for app "${spec.app}"`);
  switch (spec.family as TransitFamily) {
    case 'buy_ticket': {
      const fare = param(spec, 'fare', FARE_NAMES);
      const bought = state.purchases.map((p) => p.fare);
      if (!bought.some((n) => same(n, fare))) return no(bought.length ? `bought ${list(bought)}, not "${fare}"` : 'no ticket was bought');
      if (bought.length > 1) return no(`${bought.length} tickets were bought (${list(bought)}), expected one`);
      return ok(`bought one "${fare}"`);
    }
    case 'line_alerts': {
      const name = param(spec, 'line', LINE_NAMES);
      const want = same(param(spec, 'alerts', ['on', 'off']), 'on');
      const word = (on: boolean): string => (on ? 'on' : 'off');
      const target = state.lines.find((l) => same(l.name, name));
      const others = state.lines.filter((l) => l !== target && l.alerts !== ALERTS_ON[l.name]).map((l) => l.name);
      if (!target || target.alerts !== want) {
        return no(`service alerts for "${name}" are ${word(target?.alerts ?? false)}, expected ${word(want)}${others.length ? ` (switched ${list(others)} instead)` : ''}`);
      }
      if (others.length) return no(`service alerts for "${name}" are ${word(want)} but ${list(others)} were switched too`);
      return ok(`service alerts for "${name}" are ${word(want)}`);
    }
    case 'report_lost_item': {
      const route = param(spec, 'route', LINE_NAMES);
      const item = param(spec, 'item', LOST_ITEMS);
      const description = param(spec, 'description');
      const sent = state.reports;
      const r = sent[sent.length - 1];
      if (!r) return no('no lost item report was sent');
      if (!same(r.line, route)) return no(`the report names "${r.line}", expected "${route}"`);
      if (!same(r.item, item)) return no(`the report is for "${r.item}", expected "${item}"`);
      if (!sameText(r.description, description)) return no(`the report's description is "${r.description}", expected "${description}"`);
      if (sent.length > 1) return no(`${sent.length} reports were sent, expected one`);
      return ok(`lost ${item.toLowerCase()} on ${route} reported ("${description}")`);
    }
    case 'set_auto_reload': {
      const amount = param(spec, 'amount', RELOAD_AMOUNTS);
      if (!state.autoReload) return no(`auto-reload is off (reload amount ${state.reloadAmount})`);
      if (!same(state.reloadAmount, amount)) return no(`auto-reload is on with ${state.reloadAmount}, expected ${amount}`);
      return ok(`auto-reload is on with ${amount}`);
    }
    default:
      throw new Error(`transit checker: unknown task family "${spec.family}" (known: ${TRANSIT_FAMILIES.join(', ')})`);
  }
}

export const transitCheckers: AppCheckers<TransitState> = { families: TRANSIT_FAMILIES, check };
