import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page, type Request } from 'playwright-core';
import { keyeventParts, type Action, type MobileAction } from '../domain/action.js';
import type { CheckerSpec, ObservationRef } from '../domain/entities.js';
import { EnvError, StorageError, type BlobStore, type EnvSession } from '../domain/ports.js';
import type { AppServer } from './app-server.js';
import type { CheckResult } from './app-types.js';
import { checkApp, getApp } from './app-world.js';
import { startWatchdog, type Watchdog } from './watchdog.js';

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
  /** Launch with a window (a person demonstrating: `trajforge demos record` on a display). Default false (headless). */
  headed?: boolean;
  /** Store a reduced accessibility tree per observation (`uiTreeKey`). Default true (~5 ms a step). */
  uiTree?: boolean;
  /** Upper bound on waiting for the page to settle after an action. Default 1500 ms. */
  settleTimeoutMs?: number;
  /**
   * DOM, scroll and network must be quiet this long to count as settled, with no fetch and no short timer pending
   * (the precise signal: see SETTLE_INIT). Default 30 ms, about two frames.
   */
  quietMs?: number;
  /** Cap on the `wait` action. Default 5000 ms. */
  maxWaitMs?: number;
  /**
   * Bound on every browser call of a step or reset (the action itself, the settle probe, the screenshot, the UI
   * tree) and on opening a session. Past it the session is declared hung: `EnvError` with `recoverable: false`, and
   * the session refuses further work (a pool replaces it). Default 10 000 ms.
   */
  actionTimeoutMs?: number;
  /**
   * Bound on opening a session and on each phase of `reset` (new context, new page — a renderer process start —,
   * loading the launcher). Past it: non-recoverable `EnvError`. Default max(30 000, actionTimeoutMs) ms.
   */
  resetTimeoutMs?: number;
  /** Bound on `healthy()`'s liveness probe. Default 2000 ms. */
  probeTimeoutMs?: number;
  /**
   * The watchdog (environments/watchdog.ts): a launched browser and every reset session's page are probed every
   * `watchdogIntervalMs` (default 2000) whatever the episode is doing — mid-step, settling, resetting, or between
   * steps while the model thinks. A page that leaves a probe unanswered for `hangTimeoutMs` (default 10 000) is hung:
   * the session breaks at once (calls in flight fail, `whenUnusable()` resolves). A launched browser that does is
   * killed (its process group), which breaks all its sessions; the next `newSession` relaunches it. So a hang is
   * noticed within `hangTimeoutMs + watchdogIntervalMs` of the moment it starts. `Infinity` turns the watchdog off.
   */
  hangTimeoutMs?: number;
  watchdogIntervalMs?: number;
  /** Called when the watchdog declares the browser or a session's page hung (for logs and benches). */
  onHang?: (event: HangEvent) => void;
  /**
   * Also expose the launched browser's DevTools on this loopback port (`--remote-debugging-port`): for inspecting a
   * worker's browser, and for the chaos bench's page faults. Default: pipe only.
   */
  debugPort?: number;
  /** Screenshot format. PNG is lossless and the default; JPEG (quality 80) is smaller and faster to encode. */
  screenshotFormat?: 'png' | 'jpeg';
  /**
   * How requests to anything but the app server are refused (the phone has no outbound network). `proxy` (default):
   * the context's proxy is a local socket that closes every connection and only the app server's host:port bypasses
   * it — Chromium refuses by itself, no request waits on Node. `route`: Playwright request interception, which pauses
   * every request (the app's own included) for a round trip to Node; kept for comparison (bench/env-farm.ts).
   */
  outboundBlock?: 'proxy' | 'route';
}

export interface HangEvent {
  what: 'browser' | 'page';
  /** The session whose page hung (page hangs). */
  sessionId?: string;
  /** How long the probe went unanswered when the hang was declared. */
  silentMs: number;
  /** Wall-clock ms (Date.now()) of the declaration. */
  at: number;
}

/** The runner-side session: an `EnvSession` plus ground-truth access that agents never get. */
export interface ChromiumSession extends EnvSession {
  /** Every app's server-side state for this session (deep copy). */
  checkerState(): Promise<Record<string, unknown>>;
  check(spec: CheckerSpec): Promise<CheckResult>;
  /** The live page, for tests and debugging only. */
  readonly page: Page;
  readonly deviceScaleFactor: number;
  /** Bounded liveness probe (`page.evaluate('1')`); false once the session hung, crashed or lost its browser. */
  healthy(): Promise<boolean>;
}

export interface ChromiumEnv {
  /** The current browser: a launched one is replaced when its process dies (see `isAlive`). */
  readonly browser: Browser;
  /** Whether the current browser is connected. A dead launched browser is relaunched by the next `newSession`. */
  isAlive(): boolean;
  /** OS pid of the launched browser process (Linux `/proc` lookup); undefined for a shared browser. */
  browserPid(): number | undefined;
  /** How many times a dead browser was relaunched. */
  readonly relaunches: number;
  /** Hangs the watchdog declared so far: browsers killed, sessions broken. */
  readonly hangs: { browser: number; page: number };
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

/**
 * Several keyevents in one action, as `adb shell input keyevent A B C` takes them ("KEYCODE_MOVE_END KEYCODE_DEL …"):
 * each must be a KEYCODE_ name or a number; a single word is read as `mapKeyEvent` reads it. Undefined if any is unknown.
 */
export function mapKeyEvents(text: string): KeyMapping[] | undefined {
  const keys = keyeventParts(text)?.map(mapKeyEvent);
  return keys?.every((k) => k !== undefined) ? (keys as KeyMapping[]) : undefined;
}

/** Timers up to this long (ms) count as pending page work while settling; longer ones (toasts hiding) do not. */
const SHORT_TIMER_MS = 1000;

/** Installed in every document: a timestamp of the last DOM mutation or scroll, for settling. */
const SETTLE_INIT = `(() => {
  window.__tfLast = performance.now();
  const bump = () => { window.__tfLast = performance.now(); };
  new MutationObserver(bump).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  addEventListener('scroll', bump, { capture: true, passive: true });
  // Requests a handler starts are counted in the page, synchronously: the Node-side request events can arrive after
  // a settle probe on a loaded machine, which would let a click's fetch-then-navigate look settled too early.
  window.__tfPending = 0;
  const realFetch = window.fetch.bind(window);
  window.fetch = (...args) => {
    window.__tfPending++;
    bump();
    return realFetch(...args).finally(() => { window.__tfPending--; bump(); });
  };
  addEventListener('beforeunload', () => { window.__tfPending++; bump(); });
  // Short timers are deferred work the page has promised (a loading delay, a debounce): pending ones keep the page
  // unsettled, so settling waits for exactly that work instead of a long quiet window. Longer ones (a toast hiding
  // after seconds) are not waited for. Counted in the page, synchronously, like fetches.
  window.__tfTimers = new Set();
  const realSetTimeout = window.setTimeout.bind(window);
  const realClearTimeout = window.clearTimeout.bind(window);
  window.__tfSetTimeout = realSetTimeout; // the settle probe's own polling must not count as page work
  window.setTimeout = (fn, ms, ...rest) => {
    if (typeof fn !== 'function') return realSetTimeout(fn, ms, ...rest);
    const short = (Number(ms) || 0) <= ${SHORT_TIMER_MS};
    const id = realSetTimeout((...a) => {
      window.__tfTimers.delete(id);
      fn(...a);
    }, ms, ...rest);
    if (short) { window.__tfTimers.add(id); bump(); }
    return id;
  };
  window.clearTimeout = (id) => { window.__tfTimers.delete(id); realClearTimeout(id); };
  // The text caret blinks: hide it so a screen's pixels (and its content-addressed key) do not depend on when the
  // screenshot was taken. Same effect as Playwright's screenshot option caret: 'hide', without its round trips.
  const hideCaret = () => {
    const st = document.createElement('style');
    st.setAttribute('data-tf', 'caret');
    st.textContent = '*, *::before, *::after { caret-color: transparent !important; }';
    (document.head || document.documentElement).appendChild(st);
  };
  if (document.documentElement) hideCaret(); else addEventListener('DOMContentLoaded', hideCaret, { once: true });
})();`;

interface SettleProbe {
  domQuietMs: number;
  ready: boolean;
  animations: number;
  /** The visual viewport's offset in the document (CSS pixels): the screenshot's clip origin. */
  scroll?: [number, number];
  /** The UI tree, read in the same round trip the moment the page counted as settled (when asked for). */
  tree?: unknown;
  treeError?: string;
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

/**
 * Settle wait, as JS source for the same reason: after `frames` animation frames (2 after an action: its effects are
 * rendered), waits in the page until the DOM and scroll have been quiet for `quietMs`, the document is loaded and no
 * animation runs — or the budget is spent — and reports what it saw, with the visual viewport's scroll offset (the
 * screenshot's clip) and, when `treeDsf` > 0, the UI tree read at that moment. One round trip for the settle wait,
 * the tree and the layout metrics instead of three.
 */
const SETTLE_WAIT_JS = `(quietMs, budgetMs, frames, treeDsf) => new Promise((resolve) => {
  const t0 = performance.now();
  const report = () => ({
    domQuietMs: (window.__tfPending || 0) > 0 || (window.__tfTimers ? window.__tfTimers.size : 0) > 0 ? 0 : performance.now() - (window.__tfLast || 0),
    ready: document.readyState === 'complete',
    animations: document.getAnimations().filter((a) => a.playState === 'running').length,
  });
  const done = (r) => {
    const vv = window.visualViewport;
    r.scroll = vv ? [vv.pageLeft, vv.pageTop] : [scrollX, scrollY];
    if (treeDsf > 0) { try { r.tree = (${UI_TREE_JS})(treeDsf); } catch (e) { r.treeError = String(e); } }
    resolve(r);
  };
  const tick = () => {
    const r = report();
    const spent = performance.now() - t0;
    if ((r.ready && r.animations === 0 && r.domQuietMs >= quietMs) || spent >= budgetMs) return done(r);
    const wait = r.animations === 0 && r.ready ? quietMs - r.domQuietMs : 16;
    (window.__tfSetTimeout || setTimeout)(tick, Math.max(4, Math.min(wait, budgetMs - spent, 50)));
  };
  if (frames >= 2) requestAnimationFrame(() => requestAnimationFrame(tick));
  else if (frames === 1) requestAnimationFrame(tick);
  else tick();
})`;

/** Finishes finite animations and cancels infinite ones (remembered for resuming) before a capture. */
const FREEZE_ANIMATIONS_JS = `(() => {
  window.__tfFrozen = [];
  for (const a of document.getAnimations()) {
    if (a.playState !== 'running') continue;
    const t = a.effect && a.effect.getComputedTiming();
    if (t && Number.isFinite(t.endTime)) { try { a.finish(); } catch { a.cancel(); } }
    else { a.cancel(); window.__tfFrozen.push(a); }
  }
})()`;
const RESUME_ANIMATIONS_JS = `(() => { for (const a of window.__tfFrozen || []) a.play(); window.__tfFrozen = []; })()`;
const RAF_RAF_JS = `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`;

function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A blob-store write of an observation: its failure is the store's (StorageError), not the page's. */
function storing<T>(work: Promise<T>): Promise<T> {
  return work.catch((err: unknown) => {
    throw new StorageError(`storing the observation failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  });
}

/** Bound on one CDP capture before frames are forced and it is retried. */
const FAST_CAPTURE_MS = 1500;
/** How often a capture did not answer in time and was retried (process-wide; the bench reports it). */
export let fastCaptureFallbacks = 0;

/**
 * Races `work` against a timer; the timer's loss throws a non-recoverable `EnvError` (the session is hung).
 * The losing promise is kept from becoming an unhandled rejection.
 */
function bounded<T>(work: Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  work.catch(() => undefined);
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout?.();
      reject(new EnvError(`${what} timed out after ${ms} ms: the page or browser is hung`, false));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The pid of the browser we launched: a direct child of this process whose command line carries our marker
 * switch (Chromium ignores unknown switches and does not pass them to renderers). Linux only.
 */
function findBrowserPid(marker: string): number | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return undefined;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${e}/cmdline`, 'utf8');
      if (!cmdline.includes(marker)) continue;
      const stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) return Number(e);
    } catch {
      // The process exited while we looked.
    }
  }
  return undefined;
}

export async function createChromiumEnv(opts: ChromiumEnvOptions): Promise<ChromiumEnv> {
  const viewport = opts.viewport ?? { width: 412, height: 915 };
  const dsf = opts.deviceScaleFactor ?? 1;
  const settleTimeoutMs = opts.settleTimeoutMs ?? 1500;
  const quietMs = opts.quietMs ?? 30;
  const maxWaitMs = opts.maxWaitMs ?? 5000;
  const wantTree = opts.uiTree ?? true;
  const actionTimeoutMs = opts.actionTimeoutMs ?? 10_000;
  const probeTimeoutMs = opts.probeTimeoutMs ?? 2000;
  const resetTimeoutMs = opts.resetTimeoutMs ?? Math.max(30_000, actionTimeoutMs);
  const hangTimeoutMs = opts.hangTimeoutMs ?? 10_000;
  const watchdogIntervalMs = opts.watchdogIntervalMs ?? 2000;
  const watching = Number.isFinite(hangTimeoutMs);
  const hangs = { browser: 0, page: 0 };
  const format = opts.screenshotFormat ?? 'png';
  const ownBrowser = !opts.browser;
  const outboundBlock = opts.outboundBlock ?? 'proxy';
  const { appServer, blobs } = opts;
  const appHost = new URL(appServer.baseUrl).host;
  /** The refusing proxy (outboundBlock 'proxy'): accepts TCP connections and closes them at once. */
  let refuser: net.Server | undefined;
  if (outboundBlock === 'proxy') {
    const server = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.unref();
    refuser = server;
  }
  const proxy = refuser ? { server: `http://127.0.0.1:${(refuser.address() as net.AddressInfo).port}`, bypass: `<-loopback>,${appHost}` } : undefined;
  const sessions = new Set<ChromiumSession>();

  let marker = '';
  let pid: number | undefined;
  let relaunches = 0;
  let closed = false;
  async function launch(): Promise<Browser> {
    marker = `--trajforge-browser=${randomUUID()}`;
    pid = undefined;
    const debug = opts.debugPort !== undefined ? [`--remote-debugging-port=${opts.debugPort}`, '--remote-debugging-address=127.0.0.1'] : [];
    const launched = await chromium.launch({
      executablePath: opts.executablePath ?? '/usr/bin/chromium',
      ...(opts.headed ? { headless: false } : {}),
      args: [...CHROMIUM_ARGS, ...debug, marker],
      timeout: Math.max(30_000, actionTimeoutMs),
    });
    watchBrowser(launched);
    return launched;
  }

  /**
   * The browser-level watchdog of a launched browser: a `Browser.getVersion` round trip. A browser that leaves it
   * unanswered for `hangTimeoutMs` (frozen, SIGSTOPped, wedged) is killed with its process group — Playwright then
   * sees it disconnect, every context closes, every session breaks at once, and the next session relaunches it.
   */
  function watchBrowser(b: Browser): void {
    if (!watching) return;
    let cdp: Promise<CDPSession> | undefined;
    const dog = startWatchdog({
      intervalMs: watchdogIntervalMs,
      hangMs: hangTimeoutMs,
      probe: async () => {
        cdp ??= b.newBrowserCDPSession();
        await (await cdp).send('Browser.getVersion');
      },
      onHung: (silentMs) => {
        hangs.browser++;
        opts.onHang?.({ what: 'browser', silentMs, at: Date.now() });
        const hung = browser === b ? launchedPid() : undefined;
        if (hung !== undefined) {
          // Its own process group (Playwright launches it detached): renderers and helpers go with it.
          signalQuietly(-hung, 'SIGKILL');
          signalQuietly(hung, 'SIGKILL');
        }
        void b.close().catch(() => undefined);
      },
    });
    b.on('disconnected', () => dog.stop());
  }

  function launchedPid(): number | undefined {
    if (!ownBrowser) return undefined;
    if (pid === undefined || !fs.existsSync(`/proc/${pid}`)) pid = findBrowserPid(marker);
    return pid;
  }

  let browser: Browser = opts.browser ?? (await launch());
  let relaunching: Promise<Browser> | undefined;

  /** The live browser: a launched one that died is relaunched once (concurrent callers share the relaunch). */
  async function liveBrowser(): Promise<Browser> {
    if (browser.isConnected()) return browser;
    if (closed) throw new EnvError('the Chromium environment is closed', false);
    if (!ownBrowser) throw new EnvError('the shared browser is disconnected and cannot be relaunched here', false);
    relaunching ??= (async () => {
      try {
        await browser.close().catch(() => undefined);
        const next = await launch();
        browser = next;
        relaunches++;
        return next;
      } finally {
        relaunching = undefined;
      }
    })();
    return relaunching;
  }

  async function newSession(): Promise<ChromiumSession> {
    const id = `chr-${randomUUID()}`;
    const open = (b: Browser): Promise<BrowserContext> =>
      bounded(b.newContext({
        viewport,
        deviceScaleFactor: dsf,
        isMobile: true,
        hasTouch: true,
        userAgent:
          'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
        locale: 'en-US',
        timezoneId: 'UTC',
        baseURL: appServer.baseUrl,
        ...(proxy ? { proxy } : {}),
      }), resetTimeoutMs, 'opening a browser context');
    let sessionBrowser = await liveBrowser();
    let context: BrowserContext;
    try {
      context = await open(sessionBrowser);
    } catch (err) {
      // The browser died under us (a crash, or the watchdog killed it as hung): once more on a relaunched one.
      if (!ownBrowser || sessionBrowser.isConnected()) throw err;
      sessionBrowser = await liveBrowser();
      context = await open(sessionBrowser);
    }
    let contextClosed = false;
    /** Why the session can do no more work (hung, crashed, browser gone); undefined while it is usable. */
    let broken: string | undefined;
    /** Rejects the moment the session dies, so calls in flight fail at once instead of waiting for their bound. */
    let killSwitch: (err: EnvError) => void = () => undefined;
    const died = new Promise<never>((_, reject) => {
      killSwitch = reject;
    });
    died.catch(() => undefined);
    /** Resolves with the error the moment the session becomes unusable (`whenUnusable`). */
    const unusable: Promise<EnvError> = died.catch((err: EnvError) => err);
    let watchdog: Watchdog | undefined;
    const breakSession = (why: string): void => {
      broken ??= why;
      watchdog?.stop();
      killSwitch(new EnvError(`session ${id} is unusable: ${broken}`, false));
    };
    // Also fires when the browser process dies or disconnects.
    context.on('close', () => {
      contextClosed = true;
      breakSession('the browser context closed (session closed, or the browser crashed or disconnected)');
    });
    context.setDefaultTimeout(actionTimeoutMs);
    context.setDefaultNavigationTimeout(actionTimeoutMs);
    try {
      await bounded(context.addInitScript(SETTLE_INIT), resetTimeoutMs, 'addInitScript');
      // Only the app server is reachable; anything else is refused (no outbound network from the phone): by the
      // refusing proxy, or (outboundBlock 'route') by intercepting every request.
      if (outboundBlock === 'route') {
        await bounded(
          context.route(
            (url) => !url.href.startsWith(appServer.baseUrl),
            (route) => route.abort('blockedbyclient'),
          ),
          resetTimeoutMs,
          'route',
        );
      }
    } catch (err) {
      void context.close().catch(() => undefined);
      throw err;
    }

    let page: Page | undefined;
    let cdp: CDPSession | undefined;
    let inflight = 0;
    let lastNet = 0;
    let isReset = false;
    /** Whether the last settle wait ran out of budget before the page was quiet (the step records `unsettled`). */
    let unsettled = false;

    // The page watchdog: a `1` evaluated in the current page through its CDP session. A renderer that answers
    // nothing for `hangTimeoutMs` (an endless script, a frozen process) breaks the session, wherever the episode is.
    if (watching) {
      watchdog = startWatchdog({
        intervalMs: watchdogIntervalMs,
        hangMs: hangTimeoutMs,
        probe: async () => {
          if (!cdp || !page || page.isClosed()) return;
          await cdp.send('Runtime.evaluate', { expression: '1', returnByValue: true });
        },
        onHung: (silentMs) => {
          hangs.page++;
          opts.onHang?.({ what: 'page', sessionId: id, silentMs, at: Date.now() });
          breakSession(`the page answered no liveness probe for ${Math.round(silentMs)} ms: the page or browser is hung`);
        },
      });
    }

    /** Bounds one browser call by the action timeout (a timeout breaks the session for good) and by the session's death. */
    const guard = <T>(work: Promise<T>, what: string, extraMs = 0, baseMs = actionTimeoutMs): Promise<T> =>
      bounded(Promise.race([work, died]), baseMs + extraMs, what, () => breakSession(`${what} timed out`));
    const dead = (): boolean => broken !== undefined || contextClosed || !sessionBrowser.isConnected();

    async function openPage(): Promise<Page> {
      if (page) await bounded(page.close(), actionTimeoutMs, 'closing the previous page').catch(() => undefined);
      const p = await context.newPage();
      p.on('crash', () => breakSession('the page renderer crashed'));
      inflight = 0;
      lastNet = Date.now();
      // Requests in flight keep the page unsettled. A finished subresource request (an image, an XHR) restarts the
      // quiet window, as its handler may still change the page. A navigation's own start, finish and commit do not:
      // the new document's readiness and DOM quiet are measured in the page (SETTLE_INIT), and the Node-side events
      // arrive late on a loaded machine, which cost a second settle probe on most navigations.
      p.on('request', (request) => {
        inflight++;
        if (!request.isNavigationRequest()) lastNet = Date.now();
      });
      const done = (request: Request): void => {
        inflight = Math.max(0, inflight - 1);
        if (!request.isNavigationRequest()) lastNet = Date.now();
      };
      p.on('requestfinished', done);
      p.on('requestfailed', done);
      page = p;
      cdp = await context.newCDPSession(p);
      return p;
    }

    const live = (): Page => {
      if (dead()) throw new EnvError(`session ${id} is unusable: ${broken ?? 'browser disconnected'}`, false);
      if (!page || !isReset) throw new EnvError('session has not been reset: call reset({ app, seed }) first', false);
      return page;
    };

    /**
     * Waits for the page to settle (see SETTLE_WAIT_JS) and returns the final probe — with the UI tree when
     * `withTree` — or undefined when the budget ran out while the document was navigating.
     */
    async function settle(withTree: boolean): Promise<SettleProbe | undefined> {
      const p = live();
      const deadline = Date.now() + settleTimeoutMs;
      calm = false;
      // The first probe waits two frames (the action's effects are rendered); a repeat probe right after one that
      // saw the page quiet needs none.
      let frames = 2;
      let last: SettleProbe | undefined;
      unsettled = false;
      while (Date.now() < deadline) {
        let probe: SettleProbe | undefined;
        const budget = Math.max(1, deadline - Date.now());
        try {
          probe = (await p.evaluate(`(${SETTLE_WAIT_JS})(${quietMs}, ${budget}, ${frames}, ${withTree ? dsf : 0})`)) as SettleProbe;
        } catch {
          // The document is navigating away; wait for the next one to exist.
          last = undefined;
          frames = 2;
          await p.waitForLoadState('domcontentloaded', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
          continue;
        }
        last = probe;
        const netQuiet = inflight === 0 ? Date.now() - lastNet : 0;
        const quiet = Math.min(probe.domQuietMs, netQuiet);
        calm = probe.ready && probe.animations === 0;
        if (calm && quiet >= quietMs) return probe;
        frames = 0;
        await delay(Math.max(5, Math.min(quietMs - quiet, deadline - Date.now(), 25)));
      }
      // The budget ran out first: a page that keeps changing (a ticker, an endless animation, a request loop) is
      // captured as it is, and the step says so.
      unsettled = true;
      return last;
    }

    const screenSize = { width: Math.round(viewport.width * dsf), height: Math.round(viewport.height * dsf) };
    /** Whether the last settle ended with no animation running (nothing to freeze before the capture). */
    let calm = false;

    /**
     * The screenshot: one CDP `Page.captureScreenshot` of the viewport in device pixels, always with the same
     * encoder settings so equal screens give equal bytes (content-addressed keys). The caret is hidden by the init
     * script. When animations still run, finite ones are finished and infinite ones cancelled for the capture (then
     * resumed), like Playwright's `animations: 'disabled'`. Headless Chromium occasionally never answers a capture
     * when no frame is pending: after a short bound, two animation frames are forced and the capture retried.
     * `scroll` is the visual viewport's offset when the settle probe just read it; otherwise it is asked for.
     */
    async function capture(p: Page, scroll?: [number, number]): Promise<Buffer> {
      if (!cdp) throw new EnvError('no CDP session', false);
      const session = cdp;
      // The clip is in document coordinates: it must start at the visual viewport's scroll offset, or a
      // scrolled page is captured from the wrong place. `scale` gives device pixels at any deviceScaleFactor.
      // Bounded by the caller's guard (the action timeout), not by FAST_CAPTURE_MS: the metrics need no new frame, and
      // on an overloaded machine a 1.5 s bound here declared healthy sessions hung and degraded their episodes.
      let [x, y] = scroll ?? [0, 0];
      if (!scroll) {
        const { cssVisualViewport: vv } = await session.send('Page.getLayoutMetrics');
        [x, y] = [vv.pageX, vv.pageY];
      }
      const params = {
        format,
        ...(format === 'jpeg' ? { quality: 80 } : {}),
        optimizeForSpeed: true,
        clip: { x, y, width: viewport.width, height: viewport.height, scale: dsf },
      };
      if (!calm) await p.evaluate(FREEZE_ANIMATIONS_JS);
      try {
        const shot = (): Promise<{ data: string }> => session.send('Page.captureScreenshot', params);
        const data = await bounded(shot(), FAST_CAPTURE_MS, 'capture').then(
          (r) => r.data,
          () => undefined,
        );
        if (data !== undefined) return Buffer.from(data, 'base64');
        fastCaptureFallbacks++;
        await p.evaluate(RAF_RAF_JS);
        return Buffer.from((await shot()).data, 'base64');
      } finally {
        if (!calm) await p.evaluate(RESUME_ANIMATIONS_JS).catch(() => undefined);
      }
    }

    /**
     * Stores the screenshot and the UI tree. `settled` is the probe that ended the settle wait: its scroll offset and
     * tree (read in that same round trip) are used; without it (an action that changes nothing) the tree is read
     * concurrently with the screenshot.
     */
    async function observe(settled?: SettleProbe): Promise<{ observation: ObservationRef; screenshotBytes: number; uiTreeBytes?: number }> {
      const p = live();
      const haveTree = settled?.tree !== undefined;
      const treeWork: Promise<unknown> = !wantTree
        ? Promise.resolve(undefined)
        : haveTree
          ? Promise.resolve(settled.tree)
          : guard(p.evaluate(`(${UI_TREE_JS})(${dsf})`), 'UI tree').catch((err: unknown) => {
              if (err instanceof EnvError) throw err;
              return undefined;
            });
      treeWork.catch(() => undefined); // awaited below unless the screenshot fails first

      const shot = await guard(capture(p, settled?.scroll), 'screenshot');
      const { width, height } = format === 'png' ? pngSize(shot) : screenSize;
      const shotPut = storing(blobs.put(shot, format === 'png' ? { ext: '.png', contentType: 'image/png' } : { ext: '.jpg', contentType: 'image/jpeg' }));
      shotPut.catch(() => undefined);
      const tree: unknown = await treeWork;
      if (tree === undefined) return { observation: { screenshotKey: await shotPut, width, height }, screenshotBytes: shot.byteLength };
      const treeBytes = new TextEncoder().encode(JSON.stringify(tree));
      // Both objects are written at once (two round trips to an S3 store overlap).
      const [screenshotKey, uiTreeKey] = await Promise.all([shotPut, storing(blobs.put(treeBytes, { ext: '.json', contentType: 'application/json' }))]);
      return { observation: { screenshotKey, width, height, uiTreeKey }, screenshotBytes: shot.byteLength, uiTreeBytes: treeBytes.byteLength };
    }

    /** Maps a Playwright failure to an EnvError: non-recoverable when the session itself is gone. A StorageError stays one. */
    function toEnvError(what: string, err: unknown): EnvError | StorageError {
      if (err instanceof EnvError || err instanceof StorageError) return err;
      const message = err instanceof Error ? err.message : String(err);
      const gone = dead() || (page?.isClosed() ?? false) || /closed|crash|disconnected/i.test(message);
      return new EnvError(`${what} failed: ${message}${gone && broken ? ` (${broken})` : ''}`, !gone);
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
          const keys = mapKeyEvents(action.text);
          if (!keys) throw new EnvError(`key: unknown keyevent "${action.text}" (use adb names such as KEYCODE_ENTER or 66, several separated by spaces)`, true);
          for (const m of keys) {
            if (m.kind === 'system') await systemButton(m.button);
            else await p.keyboard.press(m.key);
          }
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
        if (dead()) throw new EnvError(`reset: session ${id} is unusable: ${broken ?? 'browser disconnected'}`, false);
        try {
          appServer.reset(id, task.seed);
          await guard(openPage(), 'opening a page', 0, resetTimeoutMs);
          isReset = true;
          await guard(goto(appServer.launcherUrl(id)), 'loading the launcher', 0, resetTimeoutMs);
          const settled = await guard(settle(wantTree), 'settling', settleTimeoutMs);
          return (await observe(settled)).observation;
        } catch (err) {
          throw toEnvError('reset', err);
        }
      },
      async step(action: Action) {
        const started = performance.now();
        if (!('action' in action) || !isMobile(action)) {
          throw new EnvError(`the Chromium phone only executes mobile actions, got "${(action as { action?: string }).action}"`, true);
        }
        calm = false;
        try {
          // Actions that take time on purpose (long_press, wait, swipe) get it on top of the bound.
          const intendedMs =
            action.action === 'wait' ? Math.min(action.time * 1000, maxWaitMs) : action.action === 'long_press' ? Math.min(action.time, 10) * 1000 : action.action === 'swipe' ? 500 : 0;
          unsettled = false;
          const changes = await guard(execute(action), action.action, intendedMs);
          const acted = performance.now();
          const probe = changes ? await guard(settle(wantTree), 'settling', settleTimeoutMs) : undefined;
          const settled = performance.now();
          const { observation, screenshotBytes, uiTreeBytes } = await observe(probe);
          return {
            observation,
            // Historical meaning: action start → settled observation stored (the whole step).
            settleMs: Math.round(performance.now() - started),
            metrics: {
              actionMs: round1(acted - started),
              settleMs: round1(settled - acted),
              screenshotBytes,
              ...(uiTreeBytes !== undefined ? { uiTreeBytes } : {}),
              ...(unsettled ? { unsettled: true } : {}),
            },
          };
        } catch (err) {
          throw toEnvError(action.action, err);
        }
      },
      async healthy() {
        if (dead()) return false;
        if (!page) return true; // never reset: the context is open and the browser connected
        if (page.isClosed()) return false;
        return bounded(page.evaluate('1'), probeTimeoutMs, 'health probe').then(
          (v) => v === 1,
          () => false,
        );
      },
      whenUnusable: () => unusable,
      async checkerState() {
        return appServer.state(id);
      },
      async check(spec) {
        const state = appServer.state(id);
        if (!(spec.app in state)) throw new Error(`check: unknown app "${spec.app}"`);
        return checkApp(state[spec.app], spec, state);
      },
      async close() {
        watchdog?.stop();
        sessions.delete(session);
        appServer.dropSession(id);
        // A hung renderer must not hang the close: bounded, and errors ignored (the browser may be gone).
        await bounded(context.close(), actionTimeoutMs, 'closing the context').catch(() => undefined);
      },
    };
    sessions.add(session);
    return session;
  }

  const env: ChromiumEnv = {
    get browser(): Browser {
      return browser;
    },
    get relaunches(): number {
      return relaunches;
    },
    get hangs() {
      return { ...hangs };
    },
    isAlive: () => browser.isConnected(),
    browserPid: launchedPid,
    newSession,
    async close() {
      closed = true;
      await Promise.all([...sessions].map((s) => s.close()));
      if (ownBrowser) await bounded(browser.close(), actionTimeoutMs, 'closing the browser').catch(() => undefined);
      refuser?.close();
    },
  };
  return env;
}

function signalQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already, or not ours.
  }
}

const round1 = (v: number): number => Math.round(v * 10) / 10;

const MOBILE_TYPES = new Set(['key', 'click', 'long_press', 'swipe', 'type', 'answer', 'system_button', 'open', 'wait', 'terminate']);
function isMobile(action: Action): action is MobileAction {
  if (!MOBILE_TYPES.has(action.action)) return false;
  // Desktop `key` has `keys`, desktop `type` has `clear`; mobile ones do not.
  if (action.action === 'key') return 'text' in action;
  return true;
}
