import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DesktopAction, type Action } from '../../domain/action.js';
import type { CheckerSpec, ObservationRef, StepMetrics } from '../../domain/entities.js';
import { EnvError, type BlobStore, type EnvSession } from '../../domain/ports.js';
import type { CheckResult } from '../app-types.js';
import { checkDesktop, getDesktopApp, type DesktopApp, type DesktopCheckContext } from './apps/index.js';
import { dumpA11yTree } from './atspi.js';
import { startDisplay, type Display } from './display.js';
import { xdotoolSteps } from './xdotool.js';

/** A desktop session: one X display with one application, plus checker access agents never get. */
export interface DesktopSession extends EnvSession {
  readonly display: Display;
  /** The session user's home (wiped and re-seeded on every reset). */
  readonly home: string;
  check(spec: CheckerSpec): Promise<CheckResult>;
  healthy(): Promise<boolean>;
}

export interface DesktopEnvOptions {
  blobs: BlobStore;
  /** Parent directory for per-session homes, logs and runtime dirs. */
  stateDir: string;
  width?: number;
  height?: number;
  /** Store the accessibility tree per observation (`uiTreeKey`). Default true. */
  a11yTree?: boolean;
  /** Bound on any one external command (xdotool, scrot, a checker's ssconvert). Default 10 s. */
  commandTimeoutMs?: number;
  /** Settling: the screen must be unchanged for this long after an action (ms). Default 150. */
  quietMs?: number;
  /** …but never wait longer than this for it (ms). Default 2500. */
  maxSettleMs?: number;
}

export interface DesktopEnv {
  newSession(): Promise<DesktopSession>;
  close(): Promise<void>;
}

function run(argv: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(argv[0]!, argv.slice(1), { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${argv[0]} failed: ${err.message}${stderr ? ` — ${String(stderr).slice(0, 300)}` : ''}`));
      else resolve(String(stdout));
    });
  });
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/**
 * Real desktop applications on Xvfb displays: one display per session, actions through xdotool (XTest), screenshots
 * with scrot, the accessibility tree through AT-SPI. Same contract as the Chromium sessions, so the environment pool
 * (leases, health probes, quarantine) and the episode loop work unchanged.
 */
export function createDesktopEnv(opts: DesktopEnvOptions): DesktopEnv {
  const sessions = new Set<DesktopSession>();
  const timeout = opts.commandTimeoutMs ?? 10_000;
  const quietMs = opts.quietMs ?? 150;
  const maxSettleMs = opts.maxSettleMs ?? 2500;
  let counter = 0;

  async function newSession(): Promise<DesktopSession> {
    await mkdir(opts.stateDir, { recursive: true });
    const dir = await mkdtemp(path.join(opts.stateDir, 'desktop-'));
    const display = await startDisplay({ stateDir: dir, ...(opts.width ? { width: opts.width } : {}), ...(opts.height ? { height: opts.height } : {}) });
    const home = path.join(dir, 'home');
    const id = `desktop-${++counter}${display.name}`;
    let app: DesktopApp | undefined;
    let proc: ChildProcess | undefined;
    let closed = false;
    const envFor = (): NodeJS.ProcessEnv => ({ ...display.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.local', 'share') });
    const exec = (argv: readonly string[]): Promise<string> => run(argv, envFor(), timeout);
    const shotPath = path.join(dir, 'shot.png');

    async function screenshot(): Promise<Buffer> {
      await exec(['scrot', '--overwrite', '--silent', shotPath]);
      return readFile(shotPath);
    }

    /** Waits until two screenshots `quietMs` apart are identical (or `maxSettleMs` passed); returns the last one. */
    async function settle(): Promise<{ png: Buffer; settleMs: number }> {
      const t0 = performance.now();
      let png = await screenshot();
      for (;;) {
        await sleep(quietMs);
        const next = await screenshot();
        const done = sha(next) === sha(png) || performance.now() - t0 > maxSettleMs;
        png = next;
        if (done) return { png, settleMs: performance.now() - t0 };
      }
    }

    async function observe(png: Buffer): Promise<{ observation: ObservationRef; uiTreeBytes?: number }> {
      const screenshotKey = await opts.blobs.put(png, { ext: '.png', contentType: 'image/png' });
      const base = { screenshotKey, width: display.width, height: display.height };
      if (opts.a11yTree === false) return { observation: base };
      const tree = await dumpA11yTree(envFor());
      const bytes = new TextEncoder().encode(JSON.stringify({ viewport: [display.width, display.height], nodes: tree.nodes }));
      const uiTreeKey = await opts.blobs.put(bytes, { ext: '.json', contentType: 'application/json' });
      return { observation: { ...base, uiTreeKey }, uiTreeBytes: bytes.byteLength };
    }

    function stopApp(): void {
      if (proc && proc.exitCode === null && proc.signalCode === null && proc.pid) {
        try {
          process.kill(-proc.pid, 'SIGKILL');
        } catch {
          // Already gone.
        }
      }
      proc = undefined;
    }

    async function waitForWindow(cls: string): Promise<string> {
      const deadline = performance.now() + 20_000;
      while (performance.now() < deadline) {
        const ids = (await exec(['xdotool', 'search', '--onlyvisible', '--class', cls]).catch(() => '')).split('\n').filter(Boolean);
        if (ids.length > 0) return ids.at(-1)!;
        if (proc && proc.exitCode !== null) throw new EnvError(`${cls} exited with ${proc.exitCode} before showing a window`, false);
        await sleep(100);
      }
      throw new EnvError(`no ${cls} window appeared within 20 s`, false);
    }

    async function waitForNoWindow(cls: string): Promise<void> {
      const deadline = performance.now() + 5000;
      while (performance.now() < deadline) {
        const ids = (await exec(['xdotool', 'search', '--onlyvisible', '--class', cls]).catch(() => '')).split('\n').filter(Boolean);
        if (ids.length === 0) return;
        await sleep(50);
      }
    }

    const ctx: DesktopCheckContext = {
      home,
      async windowTitles() {
        const ids = (await exec(['xdotool', 'search', '--onlyvisible', '--name', '.']).catch(() => '')).split('\n').filter(Boolean);
        const titles = await Promise.all(ids.map((w) => exec(['xdotool', 'getwindowname', w]).catch(() => '')));
        return titles.map((t) => t.trim()).filter(Boolean);
      },
      async a11yTexts() {
        // Ground truth is worth waiting for: a starved machine answers AT-SPI slowly (5 s gave empty trees at load 37).
        const tree = await dumpA11yTree(envFor(), 30_000);
        return tree.nodes.flatMap((n) => [n.name, n.text ?? '']).filter(Boolean);
      },
      run: exec,
    };

    const session: DesktopSession = {
      id,
      display,
      home,
      async reset(task) {
        if (closed || !display.alive()) throw new EnvError(`desktop session ${id} is not running`, false);
        const next = getDesktopApp(task.app);
        if (!next) throw new EnvError(`unknown desktop app "${task.app}"`, false);
        const previous = app;
        stopApp();
        // The killed application's windows can stay mapped for a moment: wait until they are gone, so the new
        // episode never acts on (or waits for) a stale window.
        if (previous) await waitForNoWindow(previous.windowClass);
        await rm(home, { recursive: true, force: true });
        await mkdir(home, { recursive: true });
        await next.prepare(home, task.seed, exec);
        app = next;
        // Own process group, so a reset kills the application and everything it spawned.
        proc = spawn(next.command(home)[0]!, next.command(home).slice(1), { env: envFor(), stdio: 'ignore', detached: true });
        proc.on('error', () => undefined);
        const win = await waitForWindow(next.windowClass);
        // Full screen, focused: what a person working in the app sees.
        await exec(['xdotool', 'windowactivate', '--sync', win, 'windowmove', '--sync', win, '0', '0', 'windowsize', '--sync', win, '100%', '100%']).catch(() => undefined);
        const { png } = await settle();
        return (await observe(png)).observation;
      },
      async step(action: Action) {
        if (closed || !display.alive()) throw new EnvError(`desktop session ${id} is not running`, false);
        const parsed = DesktopAction.safeParse(action);
        if (!parsed.success) throw new EnvError(`action "${action.action}" is not in the desktop action space`, true);
        const a = parsed.data;
        if ('coordinate' in a && a.coordinate) {
          for (const p of [a.coordinate, 'coordinate2' in a ? a.coordinate2 : undefined]) {
            if (p && (p[0] < 0 || p[1] < 0 || p[0] >= display.width || p[1] >= display.height)) {
              throw new EnvError(`coordinate (${p.join(', ')}) is outside the ${display.width}×${display.height} screen`, true);
            }
          }
        }
        const t0 = performance.now();
        for (const s of xdotoolSteps(a)) {
          if ('pauseMs' in s) await sleep(s.pauseMs);
          else await exec(['xdotool', ...s.argv]).catch((err: unknown) => {
            throw new EnvError(`xdotool ${s.argv[0]} failed: ${(err as Error).message}`, display.alive());
          });
        }
        const actionMs = performance.now() - t0;
        const { png, settleMs } = await settle();
        const { observation, uiTreeBytes } = await observe(png);
        const metrics: StepMetrics = { actionMs, settleMs, screenshotBytes: png.byteLength, ...(uiTreeBytes !== undefined ? { uiTreeBytes } : {}) };
        return { observation, settleMs, metrics };
      },
      async check(spec) {
        const target = getDesktopApp(spec.app);
        if (!target) throw new Error(`unknown desktop app "${spec.app}"`);
        if (app?.id !== target.id) return { success: false, reason: `the session ran ${app?.id ?? 'no app'}, not ${target.id}` };
        return checkDesktop(target, spec, ctx);
      },
      async healthy() {
        if (closed || !display.alive()) return false;
        return exec(['xdotool', 'getdisplaygeometry']).then(() => true, () => false);
      },
      async close() {
        if (closed) return;
        closed = true;
        sessions.delete(session);
        stopApp();
        await display.close();
        await rm(dir, { recursive: true, force: true }).catch(() => undefined);
      },
    };
    sessions.add(session);
    return session;
  }

  return {
    newSession,
    async close() {
      for (const s of [...sessions]) await s.close();
    },
  };
}
