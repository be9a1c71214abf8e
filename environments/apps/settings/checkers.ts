import type { CheckerSpec } from '../../../domain/entities.js';
import type { AppCheckers, CheckResult } from '../../app-types.js';
import { no, ok, same } from '../kit.js';
import { verificationCode } from '../mail/catalog.js';
import type { MailState } from '../mail/state.js';
import { SET_VALUE_OPTIONS, STEPPERS, TASK_TOGGLES, TOGGLES, TOGGLE_STATES, type PickerKey, type StepperKey } from './catalog.js';
import type { SettingsState } from './state.js';

export const SETTINGS_FAMILIES = ['toggle_setting', 'set_value', 'verify_account'] as const;
export type SettingsFamily = (typeof SETTINGS_FAMILIES)[number];

function param(spec: CheckerSpec, key: string): string {
  const v = spec.params[key];
  if (v === undefined || v.trim() === '') throw new Error(`settings checker ${spec.family}: missing param "${key}"`);
  return v;
}

/** set_value's setting label → where the value lives in the state. */
const VALUE_KEYS: Readonly<Record<string, { kind: 'stepper'; key: StepperKey } | { kind: 'picker'; key: PickerKey }>> = {
  Brightness: { kind: 'stepper', key: 'brightness' },
  'Media volume': { kind: 'stepper', key: 'media_volume' },
  'Font size': { kind: 'picker', key: 'font_size' },
  'Screen timeout': { kind: 'picker', key: 'screen_timeout' },
};

/** The mail state of the same session, when the caller passed the world. */
function mailOf(world: Readonly<Record<string, unknown>> | undefined): MailState | undefined {
  const m = world?.mail;
  return typeof m === 'object' && m !== null && typeof (m as MailState).verificationCode === 'string' ? (m as MailState) : undefined;
}

/**
 * Success checkers for Settings; they read the server-side session state in-process. `verify_account` is
 * cross-app: the code entered here must be the one in the Security Team message of the same session's Mail.
 */
export function check(state: SettingsState, spec: CheckerSpec, world?: Readonly<Record<string, unknown>>): CheckResult {
  if (spec.app !== 'settings') throw new Error(`settings checker got a spec for app "${spec.app}"`);
  switch (spec.family as SettingsFamily) {
    case 'toggle_setting': {
      const label = param(spec, 'toggle');
      const key = TASK_TOGGLES.find((k) => same(TOGGLES[k], label));
      if (!key) throw new Error(`settings checker toggle_setting: unknown toggle "${label}"`);
      const want = TOGGLE_STATES.find((s) => same(s, param(spec, 'state')));
      if (!want) throw new Error(`settings checker toggle_setting: bad state "${spec.params.state}"`);
      const on = state.toggles[key];
      if (on !== (want === 'On')) {
        const near = state.changes.filter((c) => c.key !== key && c.key.startsWith(key.split('_')[0] ?? key)).map((c) => c.key);
        return no(`${TOGGLES[key]} is ${on ? 'On' : 'Off'}, expected ${want}${near.length ? ` (changed ${[...new Set(near)].map((k) => TOGGLES[k as keyof typeof TOGGLES]).join(', ')} instead)` : ''}`);
      }
      return ok(`${TOGGLES[key]} is ${want}`);
    }
    case 'set_value': {
      const label = param(spec, 'setting');
      const target = VALUE_KEYS[label];
      const allowed = SET_VALUE_OPTIONS[label];
      if (!target || !allowed) throw new Error(`settings checker set_value: unknown setting "${label}"`);
      const value = param(spec, 'value');
      if (!allowed.some((v) => same(v, value))) throw new Error(`settings checker set_value: "${value}" is not a value of ${label}`);
      const actual =
        target.kind === 'stepper' ? `${state.steppers[target.key]}${STEPPERS[target.key].unit}` : state.pickers[target.key];
      if (!same(actual, value)) return no(`${label} is ${actual}, expected ${value}`);
      return ok(`${label} is ${actual}`);
    }
    case 'verify_account': {
      const mail = mailOf(world);
      const expected = mail?.verificationCode ?? verificationCode(state.seed);
      const source = mail ? 'the Security Team mail' : 'the seeded code (no mail state given)';
      if (!state.verify.verified) {
        const tried = state.verify.attempts.map((a) => a.code);
        return no(tried.length ? `account not verified; codes entered: ${tried.join(', ')} (expected the code from ${source})` : 'no verification code was entered');
      }
      if (state.verify.code !== expected) return no(`verified with ${state.verify.code}, but ${source} says ${expected}`);
      const wrong = state.verify.attempts.filter((a) => !a.ok).length;
      return ok(`account verified with the code from ${source}${wrong ? ` after ${wrong} wrong attempt${wrong === 1 ? '' : 's'}` : ''}`);
    }
    default:
      throw new Error(`settings checker: unknown task family "${spec.family}" (known: ${SETTINGS_FAMILIES.join(', ')})`);
  }
}

export const settingsCheckers: AppCheckers<SettingsState> = { families: SETTINGS_FAMILIES, check };
