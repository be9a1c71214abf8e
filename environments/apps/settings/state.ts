import { rng } from '../shared.js';
import { PICKERS, TOGGLES, type PickerKey, type StepperKey, type ToggleKey } from './catalog.js';

/** Settings' per-session state. Read by checkers in-process; the page never sees this object. */
export interface SettingsState {
  seed: number;
  toggles: Record<ToggleKey, boolean>;
  steppers: Record<StepperKey, number>;
  pickers: Record<PickerKey, string>;
  verify: { attempts: { code: string; ok: boolean; seq: number }[]; verified: boolean; code: string };
  changes: { key: string; value: string; seq: number }[];
  seq: number;
}

export function initialSettingsState(seed: number): SettingsState {
  const rand = rng((seed ^ 0x5e77) >>> 0);
  const toggles = Object.fromEntries(Object.keys(TOGGLES).map((k) => [k, rand() < 0.5])) as Record<ToggleKey, boolean>;
  toggles.airplane = false;
  const pickers = Object.fromEntries(
    (Object.keys(PICKERS) as PickerKey[]).map((k) => [k, k === 'font_size' || k === 'display_size' ? 'Default' : PICKERS[k].options[Math.floor(rand() * PICKERS[k].options.length)] ?? '']),
  ) as Record<PickerKey, string>;
  pickers.screen_timeout = '30 seconds';
  return {
    seed,
    toggles,
    steppers: { brightness: 30 + 20 * Math.floor(rand() * 2), media_volume: 3 + Math.floor(rand() * 2), ring_volume: 6 },
    pickers,
    verify: { attempts: [], verified: false, code: '' },
    changes: [],
    seq: 0,
  };
}
