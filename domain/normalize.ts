import { DesktopAction, MobileAction, TOOL_NAME, type Action, type ActionSpace } from './action.js';
import type { StepError } from './errors.js';

export type Normalized = { ok: true; action: Action } | { ok: false; error: StepError };

export interface Screen {
  width: number;
  height: number;
}

/**
 * Action-name aliases seen across the seeds (DIGEST §6.3) and common VLM outputs, mapped onto the
 * GUI-Owl names. Only aliases with one unambiguous meaning are listed.
 */
const ALIASES: Record<ActionSpace, Record<string, string>> = {
  mobile: {
    tap: 'click',
    left_click: 'click',
    longpress: 'long_press',
    long_click: 'long_press',
    input: 'type',
    input_text: 'type',
    open_app: 'open',
    launch: 'open',
    press_back: 'system_button:Back',
    press_home: 'system_button:Home',
    press_enter: 'system_button:Enter',
    finished: 'terminate:success',
    complete: 'terminate:success',
  },
  desktop: {
    left_click: 'click',
    left_click_drag: 'drag',
    rightclick: 'right_click',
    doubleclick: 'double_click',
    moveto: 'mouse_move',
    finished: 'terminate:success',
  },
};

const COORD_FIELDS = ['coordinate', 'coordinate2'] as const;

function fail(kind: StepError['kind'], message: string, field?: string): Normalized {
  return { ok: false, error: field === undefined ? { kind, message } : { kind, message, field } };
}

/**
 * Turns raw tool-call arguments into a valid action of `space`, or a typed error naming the field.
 * Accepts coordinates as numbers or numeric strings (`"120"`), as a pair or `{x, y}`; everything is
 * checked against the screen the model saw. Total: never throws.
 */
export function normalizeAction(raw: unknown, space: ActionSpace, screen: Screen): Normalized {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail('invalid_arguments', 'arguments must be a JSON object', 'arguments');
  }
  const args: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  if (typeof args.action !== 'string') return fail('invalid_arguments', 'missing "action"', 'arguments.action');
  const name = args.action.trim().toLowerCase();
  const alias = ALIASES[space][name];
  if (alias) {
    const [a, value] = alias.split(':');
    args.action = a;
    if (a === 'system_button' && value) args.button = value;
    if (a === 'terminate' && value && args.status === undefined) args.status = value;
  } else {
    args.action = name;
  }

  for (const field of COORD_FIELDS) {
    if (!(field in args)) continue;
    const point = toPoint(args[field]);
    if (!point) return fail('invalid_arguments', `${field} must be [x, y] numbers`, `arguments.${field}`);
    const [x, y] = point;
    if (x < 0 || y < 0 || x >= screen.width || y >= screen.height) {
      return fail(
        'out_of_bounds',
        `${field} (${x}, ${y}) is outside the ${screen.width}x${screen.height} screen`,
        `arguments.${field}`,
      );
    }
    args[field] = point;
  }
  for (const field of ['time', 'pixels'] as const) {
    if (typeof args[field] === 'string' && args[field] !== '' && Number.isFinite(Number(args[field]))) {
      args[field] = Number(args[field]);
    }
  }
  if (space === 'mobile' && args.action === 'system_button' && typeof args.button === 'string') {
    const b = args.button.toLowerCase();
    args.button = b.charAt(0).toUpperCase() + b.slice(1);
  }
  if (args.action === 'terminate' && typeof args.status === 'string') args.status = args.status.toLowerCase();

  const schema = space === 'mobile' ? MobileAction : DesktopAction;
  const known = schema.options.map((o) => o.shape.action.value as string);
  if (!known.includes(args.action as string)) {
    return fail('unknown_action', `unknown ${space} action "${String(args.action)}"`, 'arguments.action');
  }
  const parsed = schema.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue ? ['arguments', ...issue.path.map(String)].join('.') : 'arguments';
    return fail('invalid_arguments', issue?.message ?? 'invalid arguments', field);
  }
  return { ok: true, action: parsed.data };
}

function toPoint(v: unknown): [number, number] | undefined {
  let pair: unknown[] | undefined;
  if (Array.isArray(v)) pair = v;
  else if (typeof v === 'object' && v !== null && 'x' in v && 'y' in v) pair = [(v as { x: unknown }).x, (v as { y: unknown }).y];
  else if (typeof v === 'string') pair = v.replace(/[[\]()]/g, '').split(/[,\s]+/).filter(Boolean);
  if (!pair || pair.length !== 2) return undefined;
  const nums = pair.map((n) => (typeof n === 'number' ? n : typeof n === 'string' && n.trim() !== '' ? Number(n) : NaN));
  if (nums.some((n) => !Number.isFinite(n))) return undefined;
  return [Math.round(nums[0]!), Math.round(nums[1]!)];
}

/** The tool name a reply must call in this action space. */
export function toolNameFor(space: ActionSpace): string {
  return TOOL_NAME[space];
}
