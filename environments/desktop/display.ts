import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * One X display for one desktop session: Xvfb (the X server, in memory), a D-Bus session bus, the AT-SPI
 * accessibility bus (so GTK applications publish their accessibility trees) and openbox (a light window manager,
 * so windows get focus, decorations and placement as on a real desktop). Every process is a child of this one and
 * is killed by `close()`; a crashed Xvfb makes `alive()` false so the pool quarantines the session.
 */
export interface Display {
  /** `:N` */
  readonly name: string;
  readonly width: number;
  readonly height: number;
  /** Environment for programs that run on this display (DISPLAY, DBUS_SESSION_BUS_ADDRESS, a11y switches). */
  readonly env: NodeJS.ProcessEnv;
  alive(): boolean;
  /** Pid of the X server (for memory accounting). */
  readonly serverPid: number;
  /**
   * Marks every process of this display: the value of `TRAJFORGE_DISPLAY_SESSION` in their environment. D-Bus
   * starts the accessibility daemons (at-spi2-registryd, the a11y bus) detached from us; the marker finds them.
   */
  readonly marker: string;
  /** Kills every process of the display — X server, buses, window manager, a11y daemons, applications. */
  close(): Promise<void>;
}

export const DISPLAY_MARKER_VAR = 'TRAJFORGE_DISPLAY_SESSION';

/**
 * Pids of the live processes whose environment carries `marker` (this display's processes, whoever their parent
 * is now: double-forked daemons are re-parented to init). Only processes this user may read are seen.
 */
export async function processesOfDisplay(marker: string): Promise<number[]> {
  const needle = `${DISPLAY_MARKER_VAR}=${marker}`;
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((d) => /^\d+$/.test(d)).map(Number);
  const found: number[] = [];
  await Promise.all(
    pids.map(async (pid) => {
      if (pid === process.pid) return;
      const env = await readFile(`/proc/${pid}/environ`).catch(() => undefined);
      if (env && env.toString('latin1').split('\0').includes(needle)) found.push(pid);
    }),
  );
  return found.sort((a, b) => a - b);
}

/**
 * Mount points at or under `dir` (from /proc/self/mountinfo, deepest first). A D-Bus-activated FUSE daemon of the
 * session (xdg-document-portal mounts `$XDG_RUNTIME_DIR/doc`) leaves its mount behind when it is killed, and a
 * mount point cannot be removed (EBUSY) until it is unmounted.
 */
export async function mountsUnder(dir: string): Promise<string[]> {
  const root = path.resolve(dir);
  const info = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  // Field 5 is the mount point, with spaces and other specials octal-escaped.
  const points = info
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((p): p is string => Boolean(p))
    .map((p) => p.replace(/\\([0-7]{3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8))));
  return points.filter((p) => p === root || p.startsWith(root + path.sep)).sort((a, b) => b.length - a.length);
}

/** Detaches every mount under `dir` (lazy unmount: works on a FUSE mount whose daemon is gone). Best effort. */
async function unmountUnder(dir: string): Promise<void> {
  for (const point of await mountsUnder(dir)) {
    const run = (cmd: string, args: string[]): Promise<boolean> =>
      new Promise((resolve) => execFile(cmd, args, { timeout: 5_000 }, (err) => resolve(!err)));
    if (!(await run('fusermount3', ['-u', '-z', point]))) if (!(await run('fusermount', ['-u', '-z', point]))) await run('umount', ['-l', point]);
  }
}

export interface DisplayOptions {
  width?: number;
  height?: number;
  /** Directory for logs and the runtime dir (XDG_RUNTIME_DIR) of this display. */
  stateDir: string;
  /** Bound on start-up (Xvfb + bus + window manager). Default 15 s. */
  startTimeoutMs?: number;
}

const XVFB = '/usr/bin/Xvfb';

function waitFor<T>(what: string, ms: number, fn: (done: (v: T) => void, fail: (e: Error) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`desktop display: ${what} did not start within ${ms} ms`)), ms);
    fn(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

function kill(child: ChildProcess | undefined): void {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill('SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Starts a display on a free number (Xvfb picks it and reports it through `-displayfd`). */
export async function startDisplay(opts: DisplayOptions): Promise<Display> {
  const width = opts.width ?? 1280;
  const height = opts.height ?? 800;
  const timeout = opts.startTimeoutMs ?? 15_000;
  const runtimeDir = path.join(opts.stateDir, 'run');
  await mkdir(runtimeDir, { recursive: true, mode: 0o700 });
  const children: ChildProcess[] = [];
  const marker = randomUUID();
  const closeAll = async (): Promise<void> => {
    for (const c of children.reverse()) kill(c);
    // Then whatever D-Bus activated or a child forked off (at-spi2-registryd, the a11y bus's dbus-daemon, an
    // application's helpers): every process carrying this display's marker. A few rounds, for processes that
    // were being started while the first round killed.
    for (let round = 0; round < 5; round++) {
      const left = await processesOfDisplay(marker);
      if (left.length === 0) break;
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    await unmountUnder(runtimeDir);
  };
  try {
    // -displayfd 3: Xvfb chooses a free display number and writes it to fd 3 once it accepts connections.
    const xvfb = spawn(XVFB, ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
      env: { ...process.env, [DISPLAY_MARKER_VAR]: marker },
    });
    children.push(xvfb);
    const number = await waitFor<string>('Xvfb', timeout, (done, fail) => {
      let buf = '';
      xvfb.stdio[3]!.on('data', (d: Buffer) => {
        buf += d.toString();
        if (buf.includes('\n')) done(buf.trim());
      });
      xvfb.once('error', fail);
      xvfb.once('exit', (code) => fail(new Error(`Xvfb exited with ${code} before it was ready`)));
    });
    const name = `:${number}`;
    const base: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      DISPLAY: name,
      XDG_RUNTIME_DIR: runtimeDir,
      LANG: 'C.UTF-8',
      // GTK publishes its accessibility tree over AT-SPI only when the bridge is not disabled.
      NO_AT_BRIDGE: '0',
      GTK_A11Y: 'atspi',
      // GTK 2 applications (PCManFM, galculator builds) load the bridge as a module.
      GTK_MODULES: 'gail:atk-bridge',
      // No first-run dialogs or GPU paths.
      LIBGL_ALWAYS_SOFTWARE: '1',
      // No GVfs daemons or FUSE mount in the runtime dir (a mount there would outlive the session).
      GIO_USE_VFS: 'local',
      GVFS_DISABLE_FUSE: '1',
      [DISPLAY_MARKER_VAR]: marker,
    };
    const dbus = spawn('dbus-launch', ['--sh-syntax'], { env: base, stdio: ['ignore', 'pipe', 'ignore'] });
    const dbusOut = await waitFor<string>('dbus-launch', timeout, (done, fail) => {
      let out = '';
      dbus.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      dbus.once('error', fail);
      dbus.once('exit', () => done(out));
    });
    const address = /DBUS_SESSION_BUS_ADDRESS='([^']+)'/.exec(dbusOut)?.[1];
    const busPid = Number(/DBUS_SESSION_BUS_PID=(\d+)/.exec(dbusOut)?.[1]);
    if (!address || !Number.isInteger(busPid)) throw new Error(`desktop display: dbus-launch printed no bus address: ${dbusOut}`);
    // The bus daemon is not our child (dbus-launch forks it): remember its pid to stop it.
    children.push({ kill: () => process.kill(busPid, 'SIGKILL'), exitCode: null, signalCode: null } as unknown as ChildProcess);
    const env = { ...base, DBUS_SESSION_BUS_ADDRESS: address };
    children.push(spawn('/usr/libexec/at-spi-bus-launcher', ['--launch-immediately'], { env, stdio: 'ignore' }));
    children.push(spawn('openbox', ['--sm-disable'], { env, stdio: 'ignore' }));
    return {
      name,
      width,
      height,
      env,
      alive: () => xvfb.exitCode === null && xvfb.signalCode === null,
      serverPid: xvfb.pid!,
      marker,
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}
