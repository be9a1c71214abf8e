/**
 * Android environment over the `adb` binary: one session drives one device (emulator or phone) by serial.
 *
 * What was exercised, and where:
 * - Everything here was exercised ONLY against a stand-in `adb` executable (test/environments/adb.test.ts) that
 *   records argv and serves canned `devices` listings, a canned PNG for `screencap`, a canned `uiautomator` XML,
 *   non-zero exits, offline/unauthorized devices and a hang. That pins the exact command translation of every mobile
 *   action, the device selection, the UI-tree reduction and the error/timeout handling.
 * - NOTHING was run on real hardware or an emulator (none exists on the build machine). Unverified on a device:
 *   real `input text` escaping through the device shell for every metacharacter (the escaping follows the device's
 *   `sh -c` rules that adb uses when it joins shell arguments), `uiautomator dump` timing and its failure modes on
 *   busy screens (it fails with "could not get idle state" while animations run), keyevent names beyond the common
 *   ones, `am start` error texts on different Android versions, and the settle delay (`settleMs`) that real apps
 *   need after an action. `reset` cannot seed app state on Android: it force-stops (optionally clears) the task's
 *   app and goes Home; the seed is ignored.
 * - `input text` cannot type non-ASCII text (it needs an IME such as ADBKeyboard); such text is refused with a
 *   recoverable EnvError rather than typed wrongly.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { keyeventParts, type Action, type MobileAction } from '../domain/action.js';
import type { ObservationRef } from '../domain/entities.js';
import { EnvError, type BlobStore, type EnvSession } from '../domain/ports.js';

export interface AdbAppPackage {
  package: string;
  /** Launch activity (`.MainActivity` or fully qualified); without it the launcher intent is sent via `monkey`. */
  activity?: string;
  /** `reset` also runs `pm clear` on the package (wipes app data). Default false. */
  clearOnReset?: boolean;
}

export interface AdbEnvOptions {
  adbPath?: string;
  /** Device serial (`adb devices`); without it exactly one ready device must be attached. */
  serial?: string;
  blobs: BlobStore;
  /** App names (as in tasks and `open` actions, matched case-insensitively) → Android packages. */
  appPackages: Record<string, AdbAppPackage>;
  /** Bound on every adb invocation. Default 10 000 ms. */
  timeoutMs?: number;
  /** Pause after a screen-changing action before the screenshot. Default 300 ms. */
  settleMs?: number;
  /** Cap on the `wait` action. Default 5000 ms. */
  maxWaitMs?: number;
  /** Dump and store the reduced UI tree per observation. Default true. */
  uiTree?: boolean;
}

export interface AdbDevice {
  serial: string;
  /** `device` (ready), `offline`, `unauthorized`, `no permissions`, `recovery`, ... */
  state: string;
}

export interface AdbSession extends EnvSession {
  readonly serial: string;
  /** `adb get-state` answers `device` within a short bound. */
  healthy(): Promise<boolean>;
}

export interface AdbEnv {
  readonly serial: string;
  newSession(): Promise<AdbSession>;
  close(): Promise<void>;
}

/** Node of the reduced UI tree (same shape as the Chromium environment's, plus Android ids). */
export interface UiNode {
  role: string;
  name: string;
  bounds: [number, number, number, number];
  value?: string;
  focused?: boolean;
  checked?: boolean;
  resourceId?: string;
  className?: string;
}

const SYSTEM_KEYCODES: Record<'Back' | 'Home' | 'Menu' | 'Enter', number> = { Back: 4, Home: 3, Menu: 82, Enter: 66 };
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_BUFFER = 64 * 1024 * 1024;
const DUMP_PATH = '/sdcard/window_dump.xml';

interface ExecResult {
  stdout: Buffer;
  stderr: string;
}

/** Runs adb without a shell; every failure becomes a non-recoverable EnvError naming the command. */
export function runAdb(adbPath: string, args: readonly string[], timeoutMs: number): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    execFile(
      adbPath,
      args,
      { encoding: 'buffer', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: MAX_BUFFER, windowsHide: true },
      (error, stdout, stderr) => {
        const err = stderr.toString('utf8').trim();
        if (!error) return resolve({ stdout, stderr: err });
        const cmd = `adb ${args.join(' ')}`;
        const e = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null; code?: number | string };
        if (e.code === 'ENOENT') return reject(new EnvError(`adb binary not found at "${adbPath}"`, false));
        if (e.killed || e.signal === 'SIGKILL')
          return reject(new EnvError(`${cmd} timed out after ${timeoutMs} ms (device hung or unreachable)`, false));
        const out = `${err} ${stdout.toString('utf8').trim()}`.trim();
        const why = /offline/i.test(out)
          ? 'device offline'
          : /unauthorized/i.test(out)
            ? 'device unauthorized (accept the USB debugging prompt)'
            : /not found|no devices/i.test(out)
              ? 'device not found'
              : `exit code ${String(e.code)}`;
        reject(new EnvError(`${cmd} failed: ${why}${out ? `: ${out.slice(0, 500)}` : ''}`, false));
      },
    );
  });
}

/** Parses `adb devices` output (`SERIAL\tSTATE` lines after the header; `-l` extras ignored). */
export function parseDevices(text: string): AdbDevice[] {
  const out: AdbDevice[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('List of devices') || line.startsWith('*')) continue;
    const m = /^(\S+)\s+(.+?)(?:\s+(?:usb|product|model|device|transport_id):\S.*)?$/.exec(line);
    if (m?.[1] && m[2]) out.push({ serial: m[1], state: m[2].trim() });
  }
  return out;
}

/** Picks the device to drive: the named serial (must be ready) or the only ready device. */
export function selectDevice(devices: readonly AdbDevice[], serial?: string): string {
  if (serial !== undefined) {
    const d = devices.find((x) => x.serial === serial);
    if (!d) {
      const seen = devices.map((x) => `${x.serial} (${x.state})`).join(', ') || 'none';
      throw new EnvError(`adb device "${serial}" is not attached (attached: ${seen})`, false);
    }
    if (d.state !== 'device') {
      const hint = d.state === 'unauthorized' ? ': accept the USB debugging prompt on the device' : '';
      throw new EnvError(`adb device "${serial}" is ${d.state}, not ready${hint}`, false);
    }
    return serial;
  }
  const ready = devices.filter((d) => d.state === 'device');
  if (ready.length === 1) return ready[0]!.serial;
  if (ready.length === 0) {
    const seen = devices.map((x) => `${x.serial} (${x.state})`).join(', ') || 'none';
    throw new EnvError(`no ready adb device (attached: ${seen})`, false);
  }
  throw new EnvError(`several adb devices are ready (${ready.map((d) => d.serial).join(', ')}): pass a serial`, false);
}

/** Characters the device shell (`sh -c`, which adb runs the joined arguments through) would interpret. */
const SHELL_META = /[\\'"`$&|;<>()*?~#!\[\]{}^]/g;

/**
 * Escapes text for `adb shell input text`: every shell metacharacter is backslash-escaped for the device shell, then
 * spaces become `%s` (input's own encoding of a space). Limitation of `input text`: a literal `%s` in the text is
 * typed as a space.
 */
export function escapeInputText(text: string): string {
  if (/[^\x20-\x7e]/.test(text)) {
    throw new EnvError('type: adb `input text` can only type printable ASCII (install an IME such as ADBKeyboard for other text)', true);
  }
  return text.replace(SHELL_META, (c) => `\\${c}`).replace(/ /g, '%s');
}

/** `KEYCODE_ENTER`, `enter`, `66` → the keyevent argument; undefined when it is not a keycode. */
export function keyeventArg(text: string): string | undefined {
  const t = text.trim();
  if (/^\d{1,3}$/.test(t)) return t;
  const name = t.toUpperCase();
  if (!/^[A-Z0-9_]+$/.test(name)) return undefined;
  return name.startsWith('KEYCODE_') ? name : `KEYCODE_${name}`;
}

/** Several keyevents for one `input keyevent` call ("KEYCODE_MOVE_END KEYCODE_DEL"): each a KEYCODE_ name or a number. */
export function keyeventArgs(text: string): string[] | undefined {
  const args = keyeventParts(text)?.map(keyeventArg);
  return args?.every((a) => a !== undefined) ? (args as string[]) : undefined;
}

function decodeXml(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    switch (e.toLowerCase()) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default:
        return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    }
  });
}

function roleOf(cls: string, attrs: Record<string, string>): string {
  const short = cls.split('.').pop() ?? '';
  if (/EditText|AutoCompleteTextView/.test(short)) return 'textbox';
  if (/CheckBox/.test(short)) return 'checkbox';
  if (/RadioButton/.test(short)) return 'radio';
  if (/Switch|ToggleButton/.test(short)) return 'switch';
  if (/Button/.test(short)) return 'button';
  if (/ImageView/.test(short)) return attrs.clickable === 'true' ? 'button' : 'image';
  if (attrs.clickable === 'true') return 'button';
  return 'text';
}

/**
 * Reduces a `uiautomator dump` to the Chromium environment's shape: `{ viewport, nodes }`, a node per element
 * with text, a description, an id-bearing control or an interaction (what an agent could read or act on).
 */
export function parseUiAutomatorXml(xml: string, screen?: { width: number; height: number }): { viewport: [number, number]; nodes: UiNode[] } {
  const nodes: UiNode[] = [];
  let viewport: [number, number] | undefined = screen ? [screen.width, screen.height] : undefined;
  for (const m of xml.matchAll(/<node\b([^>]*?)\/?>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of (m[1] ?? '').matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = decodeXml(a[2]!);
    const b = /^\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]$/.exec(attrs.bounds ?? '');
    if (!b) continue;
    const bounds = [Number(b[1]), Number(b[2]), Number(b[3]), Number(b[4])] as [number, number, number, number];
    viewport ??= [bounds[2], bounds[3]];
    if (bounds[2] - bounds[0] < 1 || bounds[3] - bounds[1] < 1) continue;
    // A password field's text is never stored.
    const text = attrs.password === 'true' ? '' : (attrs.text ?? '').replace(/\s+/g, ' ').trim();
    const desc = (attrs['content-desc'] ?? '').replace(/\s+/g, ' ').trim();
    const cls = attrs.class ?? '';
    const interactive = ['clickable', 'long-clickable', 'checkable', 'scrollable'].some((k) => attrs[k] === 'true');
    const role = roleOf(cls, attrs);
    if (!text && !desc && !interactive && role !== 'textbox') continue;
    const node: UiNode = { role, name: (role === 'textbox' ? desc || text : text || desc).slice(0, 120), bounds };
    if (role === 'textbox') node.value = text;
    if (attrs.focused === 'true') node.focused = true;
    if (attrs.checkable === 'true') node.checked = attrs.checked === 'true';
    if (attrs['resource-id']) node.resourceId = attrs['resource-id'];
    if (cls) node.className = cls;
    nodes.push(node);
  }
  return { viewport: viewport ?? [0, 0], nodes };
}

function pngSize(png: Uint8Array): { width: number; height: number } | undefined {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 24 || sig.some((v, i) => png[i] !== v)) return undefined;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const round1 = (v: number): number => Math.round(v * 10) / 10;
const px = (v: number): string => String(Math.round(v));

const MOBILE_TYPES = new Set(['key', 'click', 'long_press', 'swipe', 'type', 'answer', 'system_button', 'open', 'wait', 'terminate']);
function isMobile(action: Action): action is MobileAction {
  if (!MOBILE_TYPES.has(action.action)) return false;
  if (action.action === 'key') return 'text' in action;
  return true;
}

/** Connects to one device (by serial, or the only one attached) and hands out sessions on it. */
export async function createAdbEnv(opts: AdbEnvOptions): Promise<AdbEnv> {
  const adbPath = opts.adbPath ?? 'adb';
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const settleMs = opts.settleMs ?? 300;
  const maxWaitMs = opts.maxWaitMs ?? 5000;
  const wantTree = opts.uiTree ?? true;
  const { blobs } = opts;
  const apps = new Map(Object.entries(opts.appPackages).map(([name, pkg]) => [name.toLowerCase(), pkg]));

  const listed = await runAdb(adbPath, ['devices'], timeoutMs);
  const serial = selectDevice(parseDevices(listed.stdout.toString('utf8')), opts.serial);
  const sessions = new Set<AdbSession>();

  const adb = (args: readonly string[], ms = timeoutMs): Promise<ExecResult> => runAdb(adbPath, ['-s', serial, ...args], ms);
  const shell = (...args: string[]): Promise<ExecResult> => adb(['shell', ...args]);
  const keyevent = (code: string | number): Promise<ExecResult> => shell('input', 'keyevent', String(code));

  function resolveApp(name: string): AdbAppPackage | undefined {
    const key = name.trim().toLowerCase();
    return apps.get(key) ?? [...apps.values()].find((p) => p.package.toLowerCase() === key);
  }

  async function observe(): Promise<{ observation: ObservationRef; screenshotBytes: number; uiTreeBytes?: number }> {
    const shot = (await adb(['exec-out', 'screencap', '-p'])).stdout;
    const size = pngSize(shot);
    if (!size) throw new EnvError(`adb screencap returned ${shot.length} bytes that are not a PNG (device locked or display off?)`, false);
    const screenshotKey = await blobs.put(new Uint8Array(shot), { ext: '.png', contentType: 'image/png' });
    const observation: ObservationRef = { screenshotKey, ...size };
    if (!wantTree) return { observation, screenshotBytes: shot.length };
    let xml: string;
    try {
      await shell('uiautomator', 'dump', DUMP_PATH);
      xml = (await adb(['exec-out', 'cat', DUMP_PATH])).stdout.toString('utf8');
    } catch (err) {
      // uiautomator refuses while the screen animates ("could not get idle state"): keep the screenshot.
      if (err instanceof EnvError && /timed out|offline|not found|unauthorized/.test(err.message)) throw err;
      return { observation, screenshotBytes: shot.length };
    }
    if (!xml.includes('<hierarchy')) return { observation, screenshotBytes: shot.length };
    const tree = new TextEncoder().encode(JSON.stringify(parseUiAutomatorXml(xml, size)));
    const uiTreeKey = await blobs.put(tree, { ext: '.json', contentType: 'application/json' });
    return { observation: { ...observation, uiTreeKey }, screenshotBytes: shot.length, uiTreeBytes: tree.length };
  }

  /** Executes one mobile action; true when the screen may have changed (settle before observing). */
  async function execute(action: MobileAction): Promise<boolean> {
    switch (action.action) {
      case 'click':
        await shell('input', 'tap', px(action.coordinate[0]), px(action.coordinate[1]));
        return true;
      case 'long_press': {
        const [x, y] = action.coordinate;
        const ms = Math.round(Math.min(action.time, 10) * 1000);
        await adb(['shell', 'input', 'swipe', px(x), px(y), px(x), px(y), String(ms)], timeoutMs + ms);
        return true;
      }
      case 'swipe':
        await shell('input', 'swipe', px(action.coordinate[0]), px(action.coordinate[1]), px(action.coordinate2[0]), px(action.coordinate2[1]), '300');
        return true;
      case 'type': {
        const lines = action.text.split('\n');
        const escaped = lines.map(escapeInputText); // validate everything before typing anything
        for (let i = 0; i < escaped.length; i++) {
          if (i > 0) await keyevent(66);
          if (escaped[i]) await shell('input', 'text', escaped[i]!);
        }
        return true;
      }
      case 'key': {
        const args = keyeventArgs(action.text);
        if (!args) throw new EnvError(`key: "${action.text}" is not an adb keyevent (use names such as KEYCODE_ENTER or numbers such as 66, several separated by spaces)`, true);
        await shell('input', 'keyevent', ...args);
        return true;
      }
      case 'system_button':
        await keyevent(SYSTEM_KEYCODES[action.button]);
        return true;
      case 'open': {
        const app = resolveApp(action.text);
        if (!app) {
          throw new EnvError(`open: no app named "${action.text}" is configured (configured: ${Object.keys(opts.appPackages).join(', ')})`, true);
        }
        if (app.activity) {
          const component = `${app.package}/${app.activity}`;
          const res = await shell('am', 'start', '-n', component);
          const out = res.stdout.toString('utf8');
          if (/^Error:/m.test(out)) throw new EnvError(`open: am start -n ${component} failed: ${out.trim().slice(0, 300)}`, true);
        } else {
          const res = await shell('monkey', '-p', app.package, '-c', 'android.intent.category.LAUNCHER', '1');
          const out = res.stdout.toString('utf8');
          if (/No activities found|monkey aborted/i.test(out)) throw new EnvError(`open: ${app.package} has no launcher activity (is it installed?)`, true);
        }
        return true;
      }
      case 'wait':
        await delay(Math.min(action.time * 1000, maxWaitMs));
        return false;
      case 'answer':
      case 'terminate':
        return false;
    }
  }

  async function newSession(): Promise<AdbSession> {
    let closed = false;
    const live = (): void => {
      if (closed) throw new EnvError('adb session is closed', false);
    };
    const session: AdbSession = {
      id: `adb-${serial}-${randomUUID()}`,
      serial,
      async reset(task) {
        live();
        const app = resolveApp(task.app);
        if (!app) throw new EnvError(`reset: no package configured for app "${task.app}"`, false);
        await shell('am', 'force-stop', app.package);
        if (app.clearOnReset) await shell('pm', 'clear', app.package);
        await keyevent(3);
        if (settleMs > 0) await delay(settleMs);
        return (await observe()).observation;
      },
      async step(action: Action) {
        live();
        if (!('action' in action) || !isMobile(action)) {
          throw new EnvError(`the adb phone only executes mobile actions, got "${(action as { action?: string }).action}"`, true);
        }
        const started = performance.now();
        const changes = await execute(action);
        const acted = performance.now();
        if (changes && settleMs > 0) await delay(settleMs);
        const settled = performance.now();
        const { observation, screenshotBytes, uiTreeBytes } = await observe();
        return {
          observation,
          settleMs: Math.round(performance.now() - started),
          metrics: {
            actionMs: round1(acted - started),
            settleMs: round1(settled - acted),
            screenshotBytes,
            ...(uiTreeBytes !== undefined ? { uiTreeBytes } : {}),
          },
        };
      },
      async healthy() {
        if (closed) return false;
        try {
          const res = await adb(['get-state'], Math.min(timeoutMs, 5000));
          return res.stdout.toString('utf8').trim() === 'device';
        } catch {
          return false;
        }
      },
      async close() {
        closed = true;
        sessions.delete(session);
      },
    };
    sessions.add(session);
    return session;
  }

  return {
    serial,
    newSession,
    async close() {
      await Promise.all([...sessions].map((s) => s.close()));
    },
  };
}
