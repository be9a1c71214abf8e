/** What Settings shows: toggles, stepped values and pick-one values, with the labels users see. */

export const TOGGLES = {
  wifi: 'Wi-Fi',
  wifi_calling: 'Wi-Fi calling',
  airplane: 'Airplane mode',
  bluetooth: 'Bluetooth',
  bluetooth_scanning: 'Bluetooth scanning',
  mobile_data: 'Mobile data',
  dark_mode: 'Dark mode',
  adaptive_brightness: 'Adaptive brightness',
  night_light: 'Night Light',
  auto_rotate: 'Auto-rotate screen',
  battery_percent: 'Show battery percentage',
  tap_to_wake: 'Tap to wake',
  screen_attention: 'Screen attention',
  dnd: 'Do not disturb',
  vibrate_calls: 'Vibrate for calls',
  touch_sounds: 'Touch sounds',
  find_device: 'Find My Device',
  app_pinning: 'App pinning',
} as const;
export type ToggleKey = keyof typeof TOGGLES;

/** The toggles task families may ask for (toggle_setting's `toggle` slot). */
export const TASK_TOGGLES: readonly ToggleKey[] = ['wifi', 'bluetooth', 'dark_mode', 'dnd'];
export const TOGGLE_STATES = ['On', 'Off'] as const;

export const STEPPERS = {
  brightness: { label: 'Brightness level', min: 0, max: 100, step: 10, unit: '%' },
  media_volume: { label: 'Media volume', min: 0, max: 10, step: 1, unit: '' },
  ring_volume: { label: 'Ring volume', min: 0, max: 10, step: 1, unit: '' },
} as const;
export type StepperKey = keyof typeof STEPPERS;

export const PICKERS = {
  font_size: { label: 'Font size', options: ['Small', 'Default', 'Large', 'Largest'] },
  display_size: { label: 'Display size', options: ['Small', 'Default', 'Large'] },
  colors: { label: 'Colors', options: ['Natural', 'Boosted', 'Saturated'] },
  screen_timeout: { label: 'Screen timeout', options: ['15 seconds', '30 seconds', '1 minute', '2 minutes', '5 minutes', '10 minutes'] },
  ringtone: { label: 'Phone ringtone', options: ['Classic Bell', 'Copycat', 'Flutterby', 'Spaceship'] },
  screen_lock: { label: 'Screen lock', options: ['None', 'Swipe', 'Pattern', 'PIN', 'Password'] },
} as const;
export type PickerKey = keyof typeof PICKERS;

/** set_value's `setting` slot: the label shown in the app → the values it can be set to. */
export const SET_VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  Brightness: ['20%', '40%', '60%', '80%', '100%'],
  'Media volume': ['2', '5', '8', '10'],
  'Font size': ['Small', 'Large', 'Largest'],
  'Screen timeout': ['15 seconds', '1 minute', '2 minutes', '5 minutes', '10 minutes'],
};

export const SECTIONS = [
  { id: 'network', label: 'Network & Wi-Fi', sub: 'Wi-Fi, mobile, data usage, hotspot', color: '#1c7ed6', glyph: 'W' },
  { id: 'devices', label: 'Connected devices', sub: 'Bluetooth, pairing', color: '#0b7285', glyph: 'B' },
  { id: 'display', label: 'Display', sub: 'Dark mode, font size, brightness', color: '#f08c00', glyph: 'D' },
  { id: 'sound', label: 'Sound & vibration', sub: 'Volume, Do not disturb', color: '#ae3ec9', glyph: 'S' },
  { id: 'security', label: 'Security', sub: 'Screen lock, Verify account', color: '#2b8a3e', glyph: 'L' },
  { id: 'about', label: 'About phone', sub: 'Pixel 8', color: '#495057', glyph: 'i' },
] as const;
export type SectionId = (typeof SECTIONS)[number]['id'];
