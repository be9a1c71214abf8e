import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import type { Action, MobileAction } from '../domain/action.js';
import type { CheckerSpec, ObservationRef } from '../domain/entities.js';
import { EnvError, type BlobStore, type EnvSession } from '../domain/ports.js';
import type { AppServer } from './app-server.js';
import type { CheckResult } from './app-types.js';
import { checkApp, getApp } from './app-world.js';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface ChromiumEnvOptions {
  appServer: AppServer;
  blobs: BlobStore;
  /** CSS pixels; default 412×915 (a Pixel-class phone). */
  viewport?: { width: number; height: number };
  /** Screenshot pixels per CSS pixel; action coordinates are screenshot pixels. Default 1. */
  deviceScaleFactor?: number;
  /** A browser to share; otherwise one is launched (and closed by `close()`). */
  browser?: Browser;
  executablePath?: string;
  /** Store a reduced accessibility tree per observation (`uiTreeKey`). Default true (~5 ms a step). */
  uiTree?: boolean;
  /** Upper bound on waiting for the page to settle after an action. Default 1500 ms. */
  settleTimeoutMs?: number;
  /** DOM, scroll and network must be quiet this long to count as settled. Default 50 ms. */
  quietMs?: number;
  /** Cap on the `wait` action. Default 5000 ms. */
  maxWaitMs?: number;
}

/** The runner-side session: an `EnvSession` plus ground-truth access that agents never get. */
export interface ChromiumSession extends EnvSession {
  /** Every app's server-side state for this session (deep copy). */
  checkerState(): Promise<Record<string, unknown>>;
  check(spec: CheckerSpec): Promise<CheckResult>;
  /** The live page, for tests and debugging only. */
  readonly page: Page;
  readonly deviceScaleFactor: number;
}

export interface ChromiumEnv {
  readonly browser: Browser;
  newSession(): Promise<ChromiumSession>;
  close(): Promise<void>;
}

/** How an adb keyevent (`KEYCODE_ENTER`, `66`) is executed. */
export type KeyMapping = { kind: 'key'; key: string } | { kind: 'system'; button: 'Back' | 'Home' | 'Menu' };

const NAMED_KEYS: Record<string, KeyMapping> = {
  ENTER: { kind: 'key', key: 'Enter' },
  NUMPAD_ENTER: { kind: 'key', key: 'Enter' },
  SEARCH: { kind: 'key', key: 'Enter' },
  DEL: { kind: 'key', key: 'Backspace' },
  FORWARD_DEL: { kind: 'key', key: 'Delete' },
  TAB: { kind: 'key', key: 'Tab' },
  SPACE: { kind: 'key', key: 'Space' },
  ESCAPE: { kind: 'key', key: 'Escape' },
  DPAD_UP: { kind: 'key', key: 'ArrowUp' },
  DPAD_DOWN: { kind: 'key', key: 'ArrowDown' },
  DPAD_LEFT: { kind: 'key', key: 'ArrowLeft' },
  DPAD_RIGHT: { kind: 'key', key: 'ArrowRight' },
  MOVE_HOME: { kind: 'key', key: 'Home' },
  MOVE_END: { kind: 'key', key: 'End' },
  PAGE_UP: { kind: 'key', key: 'PageUp' },
  PAGE_DOWN: { kind: 'key', key: 'PageDown' },
  COMMA: { kind: 'key', key: ',' },
  PERIOD: { kind: 'key', key: '.' },
  MINUS: { kind: 'key', key: '-' },
  AT: { kind: 'key', key: '@' },
  BACK: { kind: 'system', button: 'Back' },
  HOME: { kind: 'system', button: 'Home' },
  MENU: { kind: 'system', button: 'Menu' },
};
const KEYCODE_NUMBERS: Record<number, string> = {
  3: 'HOME', 4: 'BACK', 19: 'DPAD_UP', 20: 'DPAD_DOWN', 21: 'DPAD_LEFT', 22: 'DPAD_RIGHT', 55: 'COMMA', 56: 'PERIOD',
  61: 'TAB', 62: 'SPACE', 66: 'ENTER', 67: 'DEL', 69: 'MINUS', 77: 'AT', 82: 'MENU', 84: 'SEARCH', 92: 'PAGE_UP',
  93: 'PAGE_DOWN', 111: 'ESCAPE', 112: 'FORWARD_DEL', 122: 'MOVE_HOME', 123: 'MOVE_END', 160: 'NUMPAD_ENTER',
};

/** Maps adb keyevent syntax (`KEYCODE_ENTER`, `enter`, `66`, `KEYCODE_A`, `KEYCODE_7`) to a key; undefined if unknown. */
export function mapKeyEvent(text: string): KeyMapping | undefined {
  const t = text.trim().toUpperCase();
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    if (n >= 7 && n <= 16) return { kind: 'key', key: String(n - 7) };
    if (n >= 29 && n <= 54) return { kind: 'key', key: String.fromCharCode(97 + n - 29) };
    const name = KEYCODE_NUMBERS[n];
    return name ? NAMED_KEYS[name] : undefined;
  }
  const name = t.replace(/^KEYCODE_/, '');
  if (/^[A-Z]$/.test(name)) return { kind: 'key', key: name.toLowerCase() };
  if (/^[0-9]$/.test(name)) return { kind: 'key', key: name };
  return NAMED_KEYS[name];
}

/** Installed in every document: a timestamp of the last DOM mutation or scroll, for settling. */
const SETTLE_INIT = `(() => {
  window.__tfLast = performance.now();
  const bump = () => { window.__tfLast = performance.now(); };
  new MutationObserver(bump).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  addEventListener('scroll', bump, { capture: true, passive: true });
})();`;

interface SettleProbe {
  domQuietMs: number;
  ready: boolean;
  animations: number;
}

/**
 * Reduced accessibility tree: what is on screen, with roles, names and bounds in screenshot pixels.
 * Kept as plain JS source: transpilers (tsx/esbuild keepNames) inject helpers that do not exist in the page.
 */
const UI_TREE_JS = `(dsf) => {
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  const clean = (s) => s.replace(/\\s+/g, ' ').trim().slice(0, 120);
  const roleOf = (el) => {
    const r = el.getAttribute('role');
    if (r) return r;
    const tag = el.tagName.toLowerCase();
    if (tag === 'a') return 'link';
    if (tag === 'button') return 'button';
    if (tag === 'input') { const t = el.type; return t === 'search' ? 'searchbox' : (t === 'checkbox' || t === 'radio') ? t : 'textbox'; }
    if (/^h[1-6]$/.test(tag)) return 'heading';
    return 'text';
  };
  const interactive = 'a[href],button,input,textarea,select,[role],[onclick],h1,h2,h3';
  for (const el of document.body ? document.body.querySelectorAll('*') : []) {
    if (el.tagName === 'SCRIPT' || el.tagName === 'STYLE') continue;
    const isInteractive = el.matches(interactive);
    let own = '';
    for (const n of el.childNodes) if (n.nodeType === 3) own += ' ' + n.textContent;
    own = clean(own);
    if (!isInteractive && !own) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom <= 0 || r.right <= 0 || r.top >= vh || r.left >= vw) continue;
    const input = el instanceof HTMLInputElement ? el : null;
    const label = el.getAttribute('aria-label');
    const name = clean(label !== null ? label : input ? ((input.labels && input.labels[0] && input.labels[0].textContent) || input.placeholder || '') : isInteractive ? (el.innerText || '') : own);
    const node = { role: roleOf(el), name, bounds: [r.left, r.top, r.right, r.bottom].map((v) => Math.round(v * dsf)) };
    if (input) node.value = input.value;
    if (input && input.placeholder) node.placeholder = input.placeholder;
    if (document.activeElement === el) node.focused = true;
    const checked = el.getAttribute('aria-checked');
    if (checked !== null) node.checked = checked === 'true';
    const cx = Math.min(vw - 1, Math.max(0, (r.left + r.right) / 2)), cy = Math.min(vh - 1, Math.max(0, (r.top + r.bottom) / 2));
    const hit = document.elementFromPoint(cx, cy);
    if (hit && hit !== el && !el.contains(hit) && !hit.contains(el)) node.obscured = true;
    out.push(node);
  }
  return { viewport: [Math.round(vw * dsf), Math.round(vh * dsf)], nodes: out };
}`;

const BACK_PROBE_JS = `(() => {
  if (window.__tfBack && window.__tfBack()) return 'handled';
  if (document.body && document.body.hasAttribute('data-launcher')) return 'launcher';
  if (document.body && document.body.hasAttribute('data-app-root')) return 'root';
  return 'page';
})()`;

/** Settle probe, as JS source for the same reason. */
const SETTLE_PROBE_JS = `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve({
  domQuietMs: performance.now() - (window.__tfLast || 0),
  ready: document.readyState === 'complete',
  animations: document.getAnimations().filter((a) => a.playState === 'running').length,
}))))`;

function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function createChromiumEnv(opts: ChromiumEnvOptions): Promise<ChromiumEnv> {
  const viewport = opts.viewport ?? { width: 412, height: 915 };
  const dsf = opts.deviceScaleFactor ?? 1;
  const settleTimeoutMs = opts.settleTimeoutMs ?? 1500;
  const quietMs = opts.quietMs ?? 50;
  const maxWaitMs = opts.maxWaitMs ?? 5000;
  const wantTree = opts.uiTree ?? true;
  const ownBrowser = !opts.browser;
  const browser =
    opts.browser ?? (await chromium.launch({ executablePath: opts.executablePath ?? '/usr/bin/chromium', args: CHROMIUM_ARGS }));
  const { appServer, blobs } = opts;
  const sessions = new Set<ChromiumSession>();

  async function newSession(): Promise<ChromiumSession> {
    const id = `chr-${randomUUID()}`;
    const context: BrowserContext = await browser.newContext({
      viewport,
      deviceScaleFactor: dsf,
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
      locale: 'en-US',
      timezoneId: 'UTC',
      baseURL: appServer.baseUrl,
    });
    await context.addInitScript(SETTLE_INIT);
    // Only the app server is reachable; anything else is refused (no outbound network from the phone).
    await context.route(
      (url) => !url.href.startsWith(appServer.baseUrl),
      (route) => route.abort('blockedbyclient'),
    );

    let page: Page | undefined;
    let cdp: CDPSession | undefined;
    let inflight = 0;
    let lastNet = 0;
    let isReset = false;

    async function openPage(): Promise<Page> {
      if (page) await page.close().catch(() => undefined);
      const p = await context.newPage();
      inflight = 0;
      lastNet = Date.now();
      p.on('request', () => {
        inflight++;
        lastNet = Date.now();
      });
      const done = (): void => {
        inflight = Math.max(0, inflight - 1);
        lastNet = Date.now();
      };
      p.on('requestfinished', done);
      p.on('requestfailed', done);
      p.on('framenavigated', () => {
        lastNet = Date.now();
      });
      page = p;
      cdp = await context.newCDPSession(p);
      return p;
    }

    const live = (): Page => {
      if (!page || !isReset) throw new EnvError('session has not been reset: call reset({ app, seed }) first', false);
      return page;
    };

    async function settle(): Promise<void> {
      const p = live();
      const deadline = Date.now() + settleTimeoutMs;
      while (Date.now() < deadline) {
        let probe: SettleProbe | undefined;
        try {
          probe = (await p.evaluate(SETTLE_PROBE_JS)) as SettleProbe;
        } catch {
          // The document is navigating away; wait for the next one to exist.
          await p.waitForLoadState('domcontentloaded', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
          continue;
        }
        const netQuiet = inflight === 0 ? Date.now() - lastNet : 0;
        const quiet = Math.min(probe.domQuietMs, netQuiet);
        if (probe.ready && probe.animations === 0 && quiet >= quietMs) return;
        await delay(Math.max(5, Math.min(quietMs - quiet, deadline - Date.now(), 25)));
      }
    }

    async function observe(): Promise<ObservationRef> {
      const p = live();
      const png = await p.screenshot({ type: 'png', animations: 'disabled', caret: 'hide' });
      const { width, height } = pngSize(png);
      const screenshotKey = await blobs.put(png, { ext: '.png', contentType: 'image/png' });
      if (!wantTree) return { screenshotKey, width, height };
      const tree: unknown = await p.evaluate(`(${UI_TREE_JS})(${dsf})`).catch(() => undefined);
      if (tree === undefined) return { screenshotKey, width, height };
      const uiTreeKey = await blobs.put(new TextEncoder().encode(JSON.stringify(tree)), {
        ext: '.json',
        contentType: 'application/json',
      });
      return { screenshotKey, width, height, uiTreeKey };
    }

    const css = (v: number): number => v / dsf;
    const goto = async (path: string): Promise<void> => {
      await live().goto(appServer.baseUrl + path, { waitUntil: 'commit' });
    };

    async function systemButton(button: 'Back' | 'Home' | 'Menu' | 'Enter'): Promise<void> {
      const p = live();
      switch (button) {
        case 'Home':
          return goto(appServer.launcherUrl(id));
        case 'Enter':
          return p.keyboard.press('Enter');
        case 'Menu':
          await p.evaluate('window.__tfMenu && window.__tfMenu()').catch(() => undefined);
          return;
        case 'Back': {
          const where = (await p.evaluate(BACK_PROBE_JS).catch(() => 'page')) as 'handled' | 'launcher' | 'root' | 'page';
          if (where === 'handled' || where === 'launcher') return;
          if (where === 'root') return goto(appServer.launcherUrl(id));
          const res = await p.goBack({ waitUntil: 'commit' }).catch(() => null);
          if (!res && !p.url().startsWith(`${appServer.baseUrl}/s/${id}/`)) return goto(appServer.launcherUrl(id));
          return;
        }
      }
    }

    async function touch(type: 'touchStart' | 'touchMove' | 'touchEnd', x?: number, y?: number): Promise<void> {
      if (!cdp) throw new EnvError('no CDP session', false);
      await cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: x === undefined || y === undefined ? [] : [{ x, y, radiusX: 4, radiusY: 4, force: 1, id: 1 }],
      });
    }

    async function execute(action: MobileAction): Promise<boolean> {
      const p = live();
      switch (action.action) {
        case 'click':
          await p.touchscreen.tap(css(action.coordinate[0]), css(action.coordinate[1]));
          return true;
        case 'long_press': {
          const [x, y] = action.coordinate;
          await touch('touchStart', css(x), css(y));
          await delay(Math.min(action.time, 10) * 1000);
          await touch('touchEnd');
          return true;
        }
        case 'swipe': {
          const [x1, y1] = action.coordinate.map(css) as [number, number];
          const [x2, y2] = action.coordinate2.map(css) as [number, number];
          const steps = 12;
          await touch('touchStart', x1, y1);
          for (let i = 1; i <= steps; i++) {
            await touch('touchMove', x1 + ((x2 - x1) * i) / steps, y1 + ((y2 - y1) * i) / steps);
            await delay(12);
          }
          // Hold at the end so the content follows the finger without a fling (predictable scrolling).
          await delay(60);
          await touch('touchMove', x2, y2);
          await touch('touchEnd');
          return true;
        }
        case 'type':
          await p.keyboard.insertText(action.text);
          return true;
        case 'key': {
          const m = mapKeyEvent(action.text);
          if (!m) throw new EnvError(`key: unknown keyevent "${action.text}" (use adb names such as KEYCODE_ENTER or 66)`, true);
          if (m.kind === 'system') await systemButton(m.button);
          else await p.keyboard.press(m.key);
          return true;
        }
        case 'system_button':
          await systemButton(action.button);
          return true;
        case 'open': {
          const app = appServer.resolveApp(action.text);
          if (!app) {
            const names = [...appServer.apps.map((a) => a.title)].join(', ');
            throw new EnvError(`open: no app named "${action.text}" is installed (built-in apps: ${names})`, true);
          }
          await goto(appServer.appUrl(id, app.id));
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

    const session: ChromiumSession = {
      id,
      deviceScaleFactor: dsf,
      get page(): Page {
        if (!page) throw new Error('no page before reset');
        return page;
      },
      async reset(task) {
        if (!getApp(task.app)) throw new EnvError(`reset: unknown app "${task.app}"`, false);
        appServer.reset(id, task.seed);
        await openPage();
        isReset = true;
        await goto(appServer.launcherUrl(id));
        await settle();
        return observe();
      },
      async step(action: Action) {
        const started = Date.now();
        if (!('action' in action) || !isMobile(action)) {
          throw new EnvError(`the Chromium phone only executes mobile actions, got "${(action as { action?: string }).action}"`, true);
        }
        try {
          const changes = await execute(action);
          if (changes) await settle();
          const observation = await observe();
          return { observation, settleMs: Date.now() - started };
        } catch (err) {
          if (err instanceof EnvError) throw err;
          const message = err instanceof Error ? err.message : String(err);
          throw new EnvError(`${action.action} failed: ${message}`, !/closed|crash|disconnected/i.test(message));
        }
      },
      async checkerState() {
        return appServer.state(id);
      },
      async check(spec) {
        const state = appServer.state(id);
        if (!(spec.app in state)) throw new Error(`check: unknown app "${spec.app}"`);
        return checkApp(state[spec.app], spec);
      },
      async close() {
        sessions.delete(session);
        appServer.dropSession(id);
        await context.close().catch(() => undefined);
      },
    };
    sessions.add(session);
    return session;
  }

  return {
    browser,
    newSession,
    async close() {
      await Promise.all([...sessions].map((s) => s.close()));
      if (ownBrowser) await browser.close();
    },
  };
}

const MOBILE_TYPES = new Set(['key', 'click', 'long_press', 'swipe', 'type', 'answer', 'system_button', 'open', 'wait', 'terminate']);
function isMobile(action: Action): action is MobileAction {
  if (!MOBILE_TYPES.has(action.action)) return false;
  // Desktop `key` has `keys`, desktop `type` has `clear`; mobile ones do not.
  if (action.action === 'key') return 'text' in action;
  return true;
}
