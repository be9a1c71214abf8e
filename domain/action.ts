import { z } from 'zod';

/**
 * GUI-Owl action spaces, exactly as the paper's Table 9 (mobile) and Table 10 (desktop)
 * (seeds/DIGEST.md §1.1). Coordinates are absolute screen pixels of the screenshot the model saw.
 * A model speaks them as one Qwen function call: `{"name": "mobile_use", "arguments": {"action": "click", ...}}`.
 */

export const Point = z.tuple([z.number().finite(), z.number().finite()]);
export type Point = z.infer<typeof Point>;

export const SYSTEM_BUTTONS = ['Back', 'Home', 'Menu', 'Enter'] as const;
export const TERMINATE_STATUSES = ['success', 'failure'] as const;

export const MobileAction = z.discriminatedUnion('action', [
  /** adb keyevent syntax, e.g. `KEYCODE_ENTER` or `66`. */
  z.object({ action: z.literal('key'), text: z.string().min(1) }),
  z.object({ action: z.literal('click'), coordinate: Point }),
  /** `time` in seconds. */
  z.object({ action: z.literal('long_press'), coordinate: Point, time: z.number().positive().max(10).default(1) }),
  z.object({ action: z.literal('swipe'), coordinate: Point, coordinate2: Point }),
  /** Types into the currently focused input. */
  z.object({ action: z.literal('type'), text: z.string() }),
  z.object({ action: z.literal('answer'), text: z.string() }),
  z.object({ action: z.literal('system_button'), button: z.enum(SYSTEM_BUTTONS) }),
  z.object({ action: z.literal('open'), text: z.string().min(1) }),
  /** `time` in seconds. */
  z.object({ action: z.literal('wait'), time: z.number().positive().max(30).default(1) }),
  z.object({ action: z.literal('terminate'), status: z.enum(TERMINATE_STATUSES) }),
]);
export type MobileAction = z.infer<typeof MobileAction>;
export type MobileActionType = MobileAction['action'];
export const MOBILE_ACTION_TYPES = [
  'key',
  'click',
  'long_press',
  'swipe',
  'type',
  'answer',
  'system_button',
  'open',
  'wait',
  'terminate',
] as const satisfies readonly MobileActionType[];

/**
 * The keycodes of a mobile `key` action: one word, or several KEYCODE_ names or numbers separated by spaces, as
 * `adb shell input keyevent A B …` takes them. Undefined when a text of several words has any other word.
 */
export function keyeventParts(text: string): string[] | undefined {
  const parts = text.trim().split(/\s+/);
  if (parts.length === 1) return parts;
  return parts.every((k) => /^(?:KEYCODE_[A-Z0-9_]+|\d{1,3})$/i.test(k)) ? parts : undefined;
}

export const DesktopAction = z.discriminatedUnion('action', [
  /** Key-down in order, key-up in reverse order (a chord such as ["ctrl", "s"]). */
  z.object({ action: z.literal('key'), keys: z.array(z.string().min(1)).min(1) }),
  z.object({ action: z.literal('type'), text: z.string(), clear: z.boolean().default(false), enter: z.boolean().default(false) }),
  z.object({ action: z.literal('mouse_move'), coordinate: Point }),
  z.object({ action: z.literal('click'), coordinate: Point }),
  z.object({ action: z.literal('drag'), coordinate: Point, coordinate2: Point }),
  z.object({ action: z.literal('right_click'), coordinate: Point }),
  z.object({ action: z.literal('middle_click'), coordinate: Point }),
  z.object({ action: z.literal('double_click'), coordinate: Point }),
  /** Wheel clicks; positive scrolls down. `coordinate` is where the pointer sits while scrolling. */
  z.object({ action: z.literal('scroll'), pixels: z.number().int(), coordinate: Point.optional() }),
  z.object({ action: z.literal('wait'), time: z.number().positive().max(30).default(1) }),
  z.object({ action: z.literal('terminate'), status: z.enum(TERMINATE_STATUSES) }),
]);
export type DesktopAction = z.infer<typeof DesktopAction>;
export type DesktopActionType = DesktopAction['action'];

export const DESKTOP_ACTION_TYPES = [
  'key',
  'type',
  'mouse_move',
  'click',
  'drag',
  'right_click',
  'middle_click',
  'double_click',
  'scroll',
  'wait',
  'terminate',
] as const satisfies readonly DesktopActionType[];

export const ActionSpace = z.enum(['mobile', 'desktop']);
export type ActionSpace = z.infer<typeof ActionSpace>;

export const Action = z.union([MobileAction, DesktopAction]);
export type Action = MobileAction | DesktopAction;

/** Name of the single function the policy calls, per action space (Qwen2.5-VL's tool names). */
export const TOOL_NAME: Record<ActionSpace, string> = { mobile: 'mobile_use', desktop: 'computer_use' };
