import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { AUTO_LOCK_OPTIONS, DEVICE_ON, KEYPAD_LOCKS, LOCK_NAMES, LOCKED, SWITCHABLE, type SmartHomeState } from './state.js';

export const SMARTHOME_FAMILIES = ['device_power', 'unlock_door', 'set_auto_lock', 'add_guest_code'] as const;
export type SmartHomeFamily = (typeof SMARTHOME_FAMILIES)[number];

function param(spec: CheckerSpec, key: string, known?: readonly string[]): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`smarthome checker ${spec.family}: missing param "${key}"`);
  if (known && !known.some((k) => same(k, v))) throw new Error(`smarthome checker ${spec.family}: unknown ${key} "${v}"`);
  return v;
}
const list = (names: readonly string[]): string => names.map((t) => `"${t}"`).join(', ');

/** Success checkers for HomeHub; they read the server-side session state in-process. */
export function check(state: SmartHomeState, spec: CheckerSpec): CheckResult {
  if (spec.app !== 'smarthome') throw new Error(`smarthome checker got a spec for app "${spec.app}"`);
  switch (spec.family as SmartHomeFamily) {
    case 'device_power': {
      const name = param(spec, 'device', SWITCHABLE);
      const want = same(param(spec, 'power', ['on', 'off']), 'on');
      const word = (on: boolean): string => (on ? 'on' : 'off');
      const target = state.devices.find((d) => same(d.name, name));
      const others = state.devices.filter((d) => d !== target && d.on !== DEVICE_ON[d.name]).map((d) => d.name);
      if (!target || target.on !== want) {
        return no(`"${name}" is ${word(target?.on ?? false)}, expected ${word(want)}${others.length ? ` (switched ${list(others)} instead)` : ''}`);
      }
      if (others.length) return no(`"${name}" is ${word(want)} but ${list(others)} were switched too`);
      return ok(`"${name}" is ${word(want)}`);
    }
    case 'unlock_door': {
      const name = param(spec, 'lock', LOCK_NAMES);
      const target = state.locks.find((l) => same(l.name, name));
      const others = state.locks.filter((l) => l !== target && l.locked !== LOCKED[l.name]).map((l) => `${l.name} (${l.locked ? 'locked' : 'unlocked'})`);
      if (!target || target.locked) return no(`"${name}" is still locked${others.length ? ` (changed ${list(others)} instead)` : ''}`);
      if (others.length) return no(`"${name}" is unlocked but ${list(others)} changed too`);
      return ok(`"${name}" is unlocked`);
    }
    case 'set_auto_lock': {
      const delay = param(spec, 'delay', AUTO_LOCK_OPTIONS);
      if (same(state.autoLock, delay)) return ok(`auto-lock is set to ${delay}`);
      return no(state.autoLock === 'Off' ? `auto-lock is off, expected ${delay}` : `auto-lock is set to ${state.autoLock}, expected ${delay}`);
    }
    case 'add_guest_code': {
      const guest = param(spec, 'guest');
      const door = param(spec, 'door', KEYPAD_LOCKS);
      const code = param(spec, 'code');
      const added = state.codes.filter((c) => c.added);
      const c = added[added.length - 1];
      if (!c) return no('no access code was added');
      if (!same(c.name, guest)) return no(`the new code is named "${c.name}", expected "${guest}"`);
      if (!same(c.door, door)) return no(`the code for "${c.name}" works on "${c.door}", expected "${door}"`);
      if (c.code !== code.trim()) return no(`the code for "${c.name}" is ${c.code}, expected ${code}`);
      if (added.length > 1) return no(`${added.length} access codes were added (${list(added.map((x) => x.name))}), expected one`);
      return ok(`access code ${code} for "${guest}" works on "${door}"`);
    }
    default:
      throw new Error(`smarthome checker: unknown task family "${spec.family}" (known: ${SMARTHOME_FAMILIES.join(', ')})`);
  }
}

export const smartHomeCheckers: AppCheckers<SmartHomeState> = { families: SMARTHOME_FAMILIES, check };
