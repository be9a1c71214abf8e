/**
 * A liveness watchdog: sends a trivial probe every `intervalMs` (one at a time) and calls `onHung` once when a probe
 * has gone unanswered for `hangMs`. It runs whatever the caller is doing — between steps while a model thinks, during
 * a settle wait, during a reset — so a frozen browser or page is noticed within `hangMs + intervalMs`, not only when
 * the next bounded call happens to start.
 *
 * Only silence counts: a probe that answers with an error (a navigation destroyed its context, the target closed)
 * answered. And only time this process was running counts: each tick adds at most two intervals to a probe's silence,
 * so an event loop stalled by the process itself (a long synchronous task, the whole process stopped) is not blamed
 * on the browser.
 */
export interface WatchdogOptions {
  /** The probe; it should be as cheap as possible (a `1` evaluated in the page, a version request to the browser). */
  probe: () => Promise<unknown>;
  intervalMs: number;
  hangMs: number;
  onHung: (silentMs: number) => void;
}

export interface Watchdog {
  stop(): void;
  /** Whether `onHung` fired. */
  readonly fired: boolean;
}

export function startWatchdog(opts: WatchdogOptions): Watchdog {
  if (!(opts.intervalMs > 0) || !(opts.hangMs > 0)) throw new Error(`watchdog: intervalMs and hangMs must be positive (got ${opts.intervalMs}, ${opts.hangMs})`);
  let inFlight = false;
  let silentMs = 0;
  let last = Date.now();
  let fired = false;
  let stopped = false;
  const timer = setInterval(() => {
    const now = Date.now();
    const elapsed = Math.min(now - last, 2 * opts.intervalMs);
    last = now;
    if (stopped) return;
    if (inFlight) {
      silentMs += elapsed;
      if (silentMs >= opts.hangMs) {
        fired = true;
        stop();
        opts.onHung(silentMs);
      }
      return;
    }
    inFlight = true;
    silentMs = 0;
    let probe: Promise<unknown>;
    try {
      probe = opts.probe();
    } catch {
      probe = Promise.resolve();
    }
    probe.then(
      () => (inFlight = false),
      () => (inFlight = false),
    );
  }, opts.intervalMs);
  timer.unref();
  function stop(): void {
    stopped = true;
    clearInterval(timer);
  }
  return {
    stop,
    get fired() {
      return fired;
    },
  };
}
