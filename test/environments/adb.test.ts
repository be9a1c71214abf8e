import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MobileAction } from '../../domain/action.js';
import { EnvError } from '../../domain/ports.js';
import {
  createAdbEnv,
  escapeInputText,
  keyeventArg,
  parseDevices,
  parseUiAutomatorXml,
  type AdbEnv,
  type AdbSession,
  type UiNode,
} from '../../environments/adb.js';
import { MemoryBlobStore } from './memory-blobs.js';

/**
 * A stand-in `adb`: a Node script that appends its argv (JSON) to calls.jsonl and answers from config.json
 * (rules matched by substring of the joined argv: exit code / stdout / stderr / hang; then canned defaults).
 */
const STANDIN = `
const fs = require('node:fs');
const path = require('node:path');
const dir = path.dirname(process.argv[1]);
const args = process.argv.slice(2);
fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify(args) + '\\n');
const cfg = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
const joined = args.join(' ');
const rule = (cfg.rules || []).find((r) => joined.includes(r.match));
if (rule) {
  if (rule.hang) { setInterval(() => {}, 1000); return; }
  if (rule.stdout) process.stdout.write(rule.stdout);
  if (rule.stderr) process.stderr.write(rule.stderr);
  process.exitCode = rule.exit || 0;
  return;
}
if (args[0] === 'devices') process.stdout.write(cfg.devices);
else if (joined.endsWith('exec-out screencap -p')) process.stdout.write(Buffer.from(cfg.png, 'base64'));
else if (joined.includes('shell uiautomator dump')) process.stdout.write('UI hierchary dumped to: /sdcard/window_dump.xml\\n');
else if (joined.endsWith('exec-out cat /sdcard/window_dump.xml')) process.stdout.write(cfg.xml);
else if (joined.endsWith('get-state')) process.stdout.write('device\\n');
`;

const SERIAL = 'emulator-5554';
const DEVICES = `List of devices attached\n${SERIAL}\tdevice\nR58M70ABCDE\toffline\nZX1G22\tunauthorized\n\n`;
const XML = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">
<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.food" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">
<node index="0" text="Restaurants &amp; caf&#233;s" resource-id="com.example.food:id/title" class="android.widget.TextView" package="com.example.food" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[42,120][600,180]" />
<node index="1" text="" resource-id="com.example.food:id/search" class="android.widget.EditText" package="com.example.food" content-desc="Search" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[42,200][1038,320]" />
<node index="2" text="" resource-id="" class="android.widget.LinearLayout" package="com.example.food" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,320][1080,400]" />
<node index="3" text="Vegetarian" resource-id="com.example.food:id/veg" class="android.widget.CheckBox" package="com.example.food" content-desc="" checkable="true" checked="true" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[42,400][500,480]" />
<node index="4" text="" resource-id="com.example.food:id/cart" class="android.widget.ImageButton" package="com.example.food" content-desc="Cart" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[960,100][1060,200]" />
<node index="5" text="hunter2" resource-id="com.example.food:id/pin" class="android.widget.EditText" package="com.example.food" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="true" selected="false" bounds="[42,500][500,580]" />
</node></hierarchy>`;

let dir: string;
let adbPath: string;
let png: Buffer;
const blobs = new MemoryBlobStore();

interface Rule {
  match: string;
  exit?: number;
  stdout?: string;
  stderr?: string;
  hang?: boolean;
}
async function configure(rules: Rule[] = [], devices = DEVICES): Promise<void> {
  await fs.writeFile(path.join(dir, 'config.json'), JSON.stringify({ devices, png: png.toString('base64'), xml: XML, rules }));
  await fs.writeFile(path.join(dir, 'calls.jsonl'), '');
}
async function calls(): Promise<string[][]> {
  const text = await fs.readFile(path.join(dir, 'calls.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as string[]);
}
const OBSERVE = [
  ['-s', SERIAL, 'exec-out', 'screencap', '-p'],
  ['-s', SERIAL, 'shell', 'uiautomator', 'dump', '/sdcard/window_dump.xml'],
  ['-s', SERIAL, 'exec-out', 'cat', '/sdcard/window_dump.xml'],
];
const sh = (...args: string[]): string[] => ['-s', SERIAL, 'shell', ...args];

const APPS = {
  food: { package: 'com.example.food', activity: '.MainActivity' },
  notes: { package: 'com.example.notes' },
};

async function env(extra: { timeoutMs?: number; serial?: string; uiTree?: boolean } = {}): Promise<AdbEnv> {
  return createAdbEnv({ adbPath, serial: SERIAL, blobs, appPackages: APPS, settleMs: 0, maxWaitMs: 50, ...extra });
}

async function envError(p: Promise<unknown>): Promise<EnvError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EnvError);
  return err as EnvError;
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'trajforge-adb-'));
  adbPath = path.join(dir, 'adb');
  await fs.writeFile(adbPath, `#!${process.execPath}\n${STANDIN}`, { mode: 0o755 });
  png = await sharp({ create: { width: 108, height: 240, channels: 3, background: '#3366cc' } }).png().toBuffer();
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await configure();
});

describe('adb environment: device selection', () => {
  it('parses `adb devices` (plain and -l) and picks the serial or the only ready device', async () => {
    expect(parseDevices(DEVICES)).toEqual([
      { serial: SERIAL, state: 'device' },
      { serial: 'R58M70ABCDE', state: 'offline' },
      { serial: 'ZX1G22', state: 'unauthorized' },
    ]);
    expect(parseDevices('List of devices attached\n* daemon started successfully\nemulator-5556          device product:sdk_gphone64 model:Pixel_8 transport_id:1\n')).toEqual([
      { serial: 'emulator-5556', state: 'device' },
    ]);
    expect((await env()).serial).toBe(SERIAL);
    expect((await createAdbEnv({ adbPath, blobs, appPackages: APPS })).serial).toBe(SERIAL); // the only ready one
    expect(await calls()).toContainEqual(['devices']);
  });

  it('refuses an absent, offline or unauthorized serial, no ready device, and several ready devices', async () => {
    expect((await envError(env({ serial: 'nope' }))).message).toMatch(/"nope" is not attached \(attached: emulator-5554 \(device\), R58M70ABCDE \(offline\)/);
    expect((await envError(env({ serial: 'R58M70ABCDE' }))).message).toMatch(/is offline, not ready/);
    expect((await envError(env({ serial: 'ZX1G22' }))).message).toMatch(/is unauthorized, not ready: accept the USB debugging prompt/);
    await configure([], 'List of devices attached\nR58M70ABCDE\toffline\n');
    expect((await envError(createAdbEnv({ adbPath, blobs, appPackages: APPS }))).message).toMatch(/no ready adb device/);
    await configure([], `List of devices attached\n${SERIAL}\tdevice\nemulator-5556\tdevice\n`);
    expect((await envError(createAdbEnv({ adbPath, blobs, appPackages: APPS }))).message).toMatch(/several adb devices are ready.*pass a serial/);
    const missing = await envError(createAdbEnv({ adbPath: path.join(dir, 'no-such-adb'), blobs, appPackages: APPS }));
    expect(missing.message).toMatch(/adb binary not found/);
    expect(missing.recoverable).toBe(false);
  });
});

describe('adb environment: actions', () => {
  let s: AdbSession;
  beforeAll(async () => {
    await configure();
    // Without the UI tree each observation is one adb call (the stand-in costs a Node start per call).
    s = await (await env({ uiTree: false })).newSession();
  });

  /** Runs one action and returns the adb invocations it made before the observation. */
  async function translate(action: MobileAction): Promise<string[][]> {
    await configure();
    const r = await s.step(action);
    const all = await calls();
    expect(all.slice(-1)).toEqual(OBSERVE.slice(0, 1));
    expect(r.observation).toMatchObject({ width: 108, height: 240 });
    expect(r.metrics).toMatchObject({ screenshotBytes: png.length });
    return all.slice(0, -1);
  }

  it('translates every mobile action type to the exact adb command', async () => {
    expect(await translate({ action: 'click', coordinate: [100.4, 200.6] })).toEqual([sh('input', 'tap', '100', '201')]);
    expect(await translate({ action: 'long_press', coordinate: [50, 60], time: 1.5 })).toEqual([sh('input', 'swipe', '50', '60', '50', '60', '1500')]);
    expect(await translate({ action: 'swipe', coordinate: [540, 1800], coordinate2: [540, 600] })).toEqual([
      sh('input', 'swipe', '540', '1800', '540', '600', '300'),
    ]);
    expect(await translate({ action: 'type', text: 'pad thai' })).toEqual([sh('input', 'text', 'pad%sthai')]);
    expect(await translate({ action: 'type', text: `it's $5 & (a|b); "q" *x?` })).toEqual([
      sh('input', 'text', `it\\'s%s\\$5%s\\&%s\\(a\\|b\\)\\;%s\\"q\\"%s\\*x\\?`),
    ]);
    expect(await translate({ action: 'type', text: 'line one\nline2' })).toEqual([
      sh('input', 'text', 'line%sone'),
      sh('input', 'keyevent', '66'),
      sh('input', 'text', 'line2'),
    ]);
    expect(await translate({ action: 'key', text: 'KEYCODE_ENTER' })).toEqual([sh('input', 'keyevent', 'KEYCODE_ENTER')]);
    expect(await translate({ action: 'key', text: 'del' })).toEqual([sh('input', 'keyevent', 'KEYCODE_DEL')]);
    expect(await translate({ action: 'key', text: '67' })).toEqual([sh('input', 'keyevent', '67')]);
    for (const [button, code] of [['Back', '4'], ['Home', '3'], ['Menu', '82'], ['Enter', '66']] as const) {
      expect(await translate({ action: 'system_button', button })).toEqual([sh('input', 'keyevent', code)]);
    }
    expect(await translate({ action: 'open', text: 'Food' })).toEqual([sh('am', 'start', '-n', 'com.example.food/.MainActivity')]);
    expect(await translate({ action: 'open', text: 'notes' })).toEqual([
      sh('monkey', '-p', 'com.example.notes', '-c', 'android.intent.category.LAUNCHER', '1'),
    ]);
    expect(await translate({ action: 'open', text: 'com.example.notes' })).toHaveLength(1);
    expect(await translate({ action: 'wait', time: 1 })).toEqual([]);
    expect(await translate({ action: 'answer', text: '42' })).toEqual([]);
    expect(await translate({ action: 'terminate', status: 'success' })).toEqual([]);
  }, 120_000);

  it('refuses bad input with recoverable errors and sends nothing to the device', async () => {
    for (const action of [
      { action: 'type', text: 'crème brûlée' },
      { action: 'key', text: 'ctrl+c' },
      { action: 'open', text: 'Maps' },
    ] as MobileAction[]) {
      await configure();
      const err = await envError(s.step(action));
      expect(err.recoverable).toBe(true);
      expect(await calls()).toEqual([]);
    }
    const desktop = await envError(s.step({ action: 'scroll', pixels: 3 }));
    expect(desktop.recoverable).toBe(true);
  });

  it('reset force-stops the app and goes Home; the observation stores the PNG and the reduced UI tree', async () => {
    const s = await (await env()).newSession();
    await configure();
    const obs = await s.reset({ app: 'food', seed: 1 });
    expect(await calls()).toEqual([sh('am', 'force-stop', 'com.example.food'), sh('input', 'keyevent', '3'), ...OBSERVE]);
    expect(Buffer.from(await blobs.get(obs.screenshotKey)).equals(png)).toBe(true);
    expect(obs.screenshotKey).toMatch(/^sha256\/[0-9a-f]{64}\.png$/);
    const tree = JSON.parse(new TextDecoder().decode(await blobs.get(obs.uiTreeKey ?? ''))) as { viewport: number[]; nodes: UiNode[] };
    expect(tree.viewport).toEqual([108, 240]);
    expect(tree.nodes).toEqual([
      { role: 'text', name: 'Restaurants & cafés', bounds: [42, 120, 600, 180], resourceId: 'com.example.food:id/title', className: 'android.widget.TextView' },
      { role: 'textbox', name: 'Search', bounds: [42, 200, 1038, 320], value: '', focused: true, resourceId: 'com.example.food:id/search', className: 'android.widget.EditText' },
      { role: 'checkbox', name: 'Vegetarian', bounds: [42, 400, 500, 480], checked: true, resourceId: 'com.example.food:id/veg', className: 'android.widget.CheckBox' },
      { role: 'button', name: 'Cart', bounds: [960, 100, 1060, 200], resourceId: 'com.example.food:id/cart', className: 'android.widget.ImageButton' },
      { role: 'textbox', name: '', bounds: [42, 500, 500, 580], value: '', resourceId: 'com.example.food:id/pin', className: 'android.widget.EditText' },
    ]);
    const unknown = await envError(s.reset({ app: 'maps', seed: 1 }));
    expect(unknown.message).toMatch(/no package configured for app "maps"/);
  });
});

describe('adb environment: failures', () => {
  it('a non-zero exit or an offline device mid-episode is a non-recoverable EnvError naming the command', async () => {
    const s = await (await env()).newSession();
    await configure([{ match: 'input tap', exit: 1, stderr: 'error: device offline' }]);
    const offline = await envError(s.step({ action: 'click', coordinate: [1, 2] }));
    expect(offline.recoverable).toBe(false);
    expect(offline.message).toMatch(/^adb -s emulator-5554 shell input tap 1 2 failed: device offline/);
    await configure([{ match: 'input swipe', exit: 255, stderr: 'boom' }]);
    const exit = await envError(s.step({ action: 'swipe', coordinate: [1, 2], coordinate2: [3, 4] }));
    expect(exit.message).toMatch(/input swipe 1 2 3 4 300 failed: exit code 255: boom/);
    expect(exit.recoverable).toBe(false);
    await configure([{ match: 'screencap', stdout: 'not a png' }]);
    expect((await envError(s.step({ action: 'wait', time: 1 }))).message).toMatch(/not a PNG/);
    await configure([{ match: 'get-state', exit: 1, stderr: "error: device 'emulator-5554' not found" }]);
    expect(await s.healthy()).toBe(false);
    await configure();
    expect(await s.healthy()).toBe(true);
  });

  it('am start errors are recoverable (the app choice was wrong, not the device)', async () => {
    const s = await (await env()).newSession();
    await configure([{ match: 'am start', stdout: 'Starting: Intent { cmp=com.example.food/.MainActivity }\nError: Activity class {com.example.food/com.example.food.MainActivity} does not exist.\n' }]);
    const err = await envError(s.step({ action: 'open', text: 'food' }));
    expect(err.recoverable).toBe(true);
    expect(err.message).toMatch(/does not exist/);
  });

  it('a uiautomator failure keeps the screenshot without a tree', async () => {
    const s = await (await env()).newSession();
    await configure([{ match: 'uiautomator dump', exit: 1, stderr: 'ERROR: could not get idle state.' }]);
    const r = await s.step({ action: 'click', coordinate: [1, 2] });
    expect(r.observation.uiTreeKey).toBeUndefined();
    expect(r.metrics?.uiTreeBytes).toBeUndefined();
  });

  it('a hung adb call is killed at the timeout and reported as non-recoverable', async () => {
    // 2 s: long enough that the fake's other adb calls never hit it on a loaded CI machine, short enough to wait.
    const s = await (await env({ timeoutMs: 2000 })).newSession();
    await configure([{ match: 'screencap', hang: true }]);
    const started = Date.now();
    const err = await envError(s.step({ action: 'click', coordinate: [5, 6] }));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(err.recoverable).toBe(false);
    expect(err.message).toMatch(/adb -s emulator-5554 exec-out screencap -p timed out after 2000 ms/);
    await s.close();
    expect((await envError(s.step({ action: 'wait', time: 1 }))).message).toMatch(/closed/);
  });
});

describe('adb helpers', () => {
  it('escapes input text and maps keyevents', () => {
    expect(escapeInputText('a b')).toBe('a%sb');
    expect(escapeInputText('~#!`{}[]\\')).toBe('\\~\\#\\!\\`\\{\\}\\[\\]\\\\');
    expect(() => escapeInputText('tab\there')).toThrow(EnvError);
    expect(keyeventArg('KEYCODE_BACK')).toBe('KEYCODE_BACK');
    expect(keyeventArg(' enter ')).toBe('KEYCODE_ENTER');
    expect(keyeventArg('4')).toBe('4');
    expect(keyeventArg('ctrl c')).toBeUndefined();
  });

  it('reduces a dump without screen size to the root bounds', () => {
    expect(parseUiAutomatorXml(XML).viewport).toEqual([1080, 2400]);
  });
});
