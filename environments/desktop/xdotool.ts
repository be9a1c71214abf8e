import type { DesktopAction } from '../../domain/action.js';

/**
 * GUI-Owl's desktop action space (Tab. 10) as xdotool command lines. Pure: returns the argv lists to run in
 * order (each one `xdotool …` invocation) plus any pause, so the mapping is unit-tested without a display.
 */
export type XdoStep = { argv: string[] } | { pauseMs: number };

/** Key names models use → X keysym names xdotool understands. Single characters pass through. */
const KEYSYMS: Record<string, string> = {
  ctrl: 'ctrl',
  control: 'ctrl',
  alt: 'alt',
  shift: 'shift',
  super: 'super',
  win: 'super',
  meta: 'super',
  cmd: 'super',
  enter: 'Return',
  return: 'Return',
  esc: 'Escape',
  escape: 'Escape',
  tab: 'Tab',
  space: 'space',
  backspace: 'BackSpace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  home: 'Home',
  end: 'End',
  pageup: 'Prior',
  pagedown: 'Next',
  capslock: 'Caps_Lock',
  menu: 'Menu',
};

/** Maps one key name; throws a message naming the key when it is not a key at all. */
export function keysym(name: string): string {
  const k = name.trim().toLowerCase();
  if (KEYSYMS[k]) return KEYSYMS[k];
  if (/^f([1-9]|1[0-2])$/.test(k)) return k.toUpperCase();
  if ([...name.trim()].length === 1) return name.trim();
  // Already a keysym (e.g. "Return", "KP_Add").
  if (/^[A-Za-z][A-Za-z0-9_]{1,30}$/.test(name.trim())) return name.trim();
  throw new Error(`unknown key "${name}"`);
}

/** Wheel clicks per `scroll` unit: the action's `pixels` counts wheel clicks (positive = down). */
const MAX_WHEEL_CLICKS = 50;

const xy = (p: readonly [number, number]): string[] => [String(Math.round(p[0])), String(Math.round(p[1]))];

export function xdotoolSteps(action: DesktopAction): XdoStep[] {
  switch (action.action) {
    case 'key':
      return [{ argv: ['key', '--clearmodifiers', action.keys.map(keysym).join('+')] }];
    case 'type': {
      const steps: XdoStep[] = [];
      if (action.clear) steps.push({ argv: ['key', '--clearmodifiers', 'ctrl+a'] }, { argv: ['key', 'BackSpace'] });
      if (action.text.length > 0) steps.push({ argv: ['type', '--clearmodifiers', '--delay', '8', '--', action.text] });
      if (action.enter) steps.push({ argv: ['key', 'Return'] });
      return steps;
    }
    case 'mouse_move':
      return [{ argv: ['mousemove', '--sync', ...xy(action.coordinate)] }];
    case 'click':
      return [{ argv: ['mousemove', '--sync', ...xy(action.coordinate), 'click', '1'] }];
    case 'double_click':
      return [{ argv: ['mousemove', '--sync', ...xy(action.coordinate), 'click', '--repeat', '2', '--delay', '60', '1'] }];
    case 'right_click':
      return [{ argv: ['mousemove', '--sync', ...xy(action.coordinate), 'click', '3'] }];
    case 'middle_click':
      return [{ argv: ['mousemove', '--sync', ...xy(action.coordinate), 'click', '2'] }];
    case 'drag': {
      // Intermediate moves with pauses: toolkits start a drag only after the pointer moved while pressed.
      const [x0, y0] = action.coordinate;
      const [x1, y1] = action.coordinate2;
      const mid = (t: number): string[] => xy([x0 + (x1 - x0) * t, y0 + (y1 - y0) * t]);
      return [
        { argv: ['mousemove', '--sync', ...xy(action.coordinate), 'mousedown', '1'] },
        { pauseMs: 60 },
        { argv: ['mousemove', '--sync', ...mid(0.25)] },
        { pauseMs: 30 },
        { argv: ['mousemove', '--sync', ...mid(0.75)] },
        { pauseMs: 30 },
        { argv: ['mousemove', '--sync', ...xy(action.coordinate2)] },
        { pauseMs: 60 },
        { argv: ['mouseup', '1'] },
      ];
    }
    case 'scroll': {
      const clicks = Math.min(MAX_WHEEL_CLICKS, Math.abs(action.pixels));
      if (clicks === 0) return [];
      const button = action.pixels > 0 ? '5' : '4';
      const move = action.coordinate ? ['mousemove', '--sync', ...xy(action.coordinate)] : [];
      return [{ argv: [...move, 'click', '--repeat', String(clicks), '--delay', '20', button] }];
    }
    case 'wait':
      return [{ pauseMs: Math.round(action.time * 1000) }];
    case 'terminate':
      return [];
  }
}
