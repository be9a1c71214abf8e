import type { EnvSession } from '../domain/ports.js';

export interface PoolStats {
  /** Most sessions this pool holds at once (leased + idle); one worker's bound. */
  size: number;
  idle: number;
  leased: number;
  /** Callers waiting for a free slot. */
  waiting: number;
  /** Sessions ever created. */
  created: number;
  /** Sessions created to take the place of a quarantined one. */
  replaced: number;
  /** Sessions taken out of service as unhealthy: released unhealthy, failed the probe, or their lease was lost. */
  quarantined: number;
  /** Idle sessions closed for being idle longer than `idleMs`. */
  reaped: number;
  /** Leases not heartbeated within `leaseTimeoutMs` (their sessions are quarantined). */
  lostLeases: number;
}

export interface EnvPoolOptions {
  /**
   * A lease not heartbeated (`heartbeat(session)`, or since `lease()`) within this many ms is considered lost: its
   * session is quarantined (closed) and the slot freed. Default: no lease timeout.
   */
  leaseTimeoutMs?: number;
  /** Idle sessions unused for longer than this are closed. Default 10 minutes. */
  idleMs?: number;
  /** Probe an idle session with `session.healthy()` before handing it out. Default true. */
  probe?: boolean;
  /** Outer bound on one `healthy()` probe (the session should bound it itself). Default 5000 ms. */
  probeTimeoutMs?: number;
  /** How often leases and idle sessions are checked. Default: a quarter of the smaller timeout, 10 ms–1 s. */
  reapIntervalMs?: number;
  /** Lifecycle events, for logs. */
  onEvent?: (event: PoolEvent) => void;
}

export type PoolEvent =
  | { kind: 'created'; sessionId: string; replacement: boolean }
  | { kind: 'quarantined'; sessionId: string; reason: 'released-unhealthy' | 'probe-failed' | 'lease-lost' }
  | { kind: 'reaped'; sessionId: string; idleMs: number };

interface Lease {
  id: string;
  since: number;
  lastBeat: number;
}

/**
 * A bounded pool of environment sessions (one worker's share of the machine).
 *
 * - `lease()` waits for a free slot and hands out an idle session (after a bounded `healthy()` probe when the
 *   session has one) or creates a fresh one. Resetting app state between episodes is the episode's job.
 * - A session released unhealthy, failing its probe, or whose lease was lost (no `heartbeat` within
 *   `leaseTimeoutMs`) is quarantined: closed, never handed out again; the next lease creates a replacement. So a
 *   crashed or hung browser costs one episode, never the pool.
 * - Idle sessions older than `idleMs` are closed (reaped).
 */
export class EnvPool<S extends EnvSession> {
  private readonly idle: { session: S; since: number }[] = [];
  private readonly leases = new Map<S, Lease>();
  /** Slots taken: leases plus sessions being created or probed for a lease. */
  private taken = 0;
  private readonly waiters: (() => void)[] = [];
  private closed = false;
  private nextLease = 1;
  private pendingReplacements = 0;
  private readonly counts = { created: 0, replaced: 0, quarantined: 0, reaped: 0, lostLeases: 0 };
  private readonly leaseTimeoutMs: number;
  private readonly idleMs: number;
  private readonly probe: boolean;
  private readonly probeTimeoutMs: number;
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly size: number,
    private readonly create: () => Promise<S>,
    private readonly opts: EnvPoolOptions = {},
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`pool size must be a positive integer, got ${size}`);
    this.leaseTimeoutMs = positive(opts.leaseTimeoutMs, Infinity, 'leaseTimeoutMs');
    this.idleMs = positive(opts.idleMs, 10 * 60_000, 'idleMs');
    this.probe = opts.probe ?? true;
    this.probeTimeoutMs = positive(opts.probeTimeoutMs, 5000, 'probeTimeoutMs');
    const smaller = Math.min(this.leaseTimeoutMs, this.idleMs);
    const interval = opts.reapIntervalMs ?? Math.min(1000, Math.max(10, smaller / 4));
    if (Number.isFinite(smaller)) {
      this.timer = setInterval(() => void this.reap(), interval);
      this.timer.unref();
    }
  }

  /** Leases a session; call `heartbeat` at least every `leaseTimeoutMs` while holding it, then `release` it. */
  async lease(): Promise<S> {
    for (;;) {
      if (this.closed) throw new Error('environment pool is closed');
      if (this.taken < this.size) break;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    this.taken++;
    try {
      const session = await this.acquire();
      const now = Date.now();
      this.leases.set(session, { id: `lease-${this.nextLease++}`, since: now, lastBeat: now });
      return session;
    } catch (err) {
      this.taken--;
      this.wake();
      throw err;
    }
  }

  /** Marks a leased session as still in use. False when the lease is unknown (released, or lost and quarantined). */
  heartbeat(session: S): boolean {
    const lease = this.leases.get(session);
    if (!lease) return false;
    lease.lastBeat = Date.now();
    return true;
  }

  /** The lease id of a leased session (for logs); undefined when it is not leased. */
  leaseId(session: S): string | undefined {
    return this.leases.get(session)?.id;
  }

  /** Returns a session; an unhealthy one is quarantined. Releasing a lost (already quarantined) lease is a no-op. */
  async release(session: S, healthy: boolean): Promise<void> {
    if (!this.leases.delete(session)) return;
    this.taken--;
    if (healthy && !this.closed) this.idle.push({ session, since: Date.now() });
    else if (!healthy) await this.quarantine(session, 'released-unhealthy');
    else await closeQuietly(session);
    this.wake();
  }

  /** Runs `fn` with a leased session; a thrown error marks the session unhealthy unless `isHealthy` says otherwise. */
  async with<T>(fn: (session: S) => Promise<T>, isHealthy: (err: unknown) => boolean = () => false): Promise<T> {
    const session = await this.lease();
    let healthy = true;
    try {
      return await fn(session);
    } catch (err) {
      healthy = isHealthy(err);
      throw err;
    } finally {
      await this.release(session, healthy);
    }
  }

  stats(): PoolStats {
    return {
      size: this.size,
      idle: this.idle.length,
      leased: this.leases.size,
      waiting: this.waiters.length,
      ...this.counts,
    };
  }

  /** Expires lost leases and idle sessions now (also runs on a timer). */
  async reap(): Promise<void> {
    const now = Date.now();
    const work: Promise<void>[] = [];
    for (const [session, lease] of this.leases) {
      if (now - lease.lastBeat <= this.leaseTimeoutMs) continue;
      this.leases.delete(session);
      this.taken--;
      this.counts.lostLeases++;
      work.push(this.quarantine(session, 'lease-lost'));
    }
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const entry = this.idle[i]!;
      if (now - entry.since <= this.idleMs) continue;
      this.idle.splice(i, 1);
      this.counts.reaped++;
      this.opts.onEvent?.({ kind: 'reaped', sessionId: entry.session.id, idleMs: now - entry.since });
      work.push(closeQuietly(entry.session));
    }
    if (work.length) {
      await Promise.all(work);
      this.wake(work.length);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.wake(this.waiters.length);
    await Promise.all(this.idle.splice(0).map((e) => closeQuietly(e.session)));
  }

  /** An idle session that passes its probe, or a fresh one. */
  private async acquire(): Promise<S> {
    for (let entry = this.idle.pop(); entry; entry = this.idle.pop()) {
      if (await this.passesProbe(entry.session)) return entry.session;
      await this.quarantine(entry.session, 'probe-failed');
    }
    const session = await this.create();
    this.counts.created++;
    const replacement = this.pendingReplacements > 0;
    if (replacement) {
      this.pendingReplacements--;
      this.counts.replaced++;
    }
    this.opts.onEvent?.({ kind: 'created', sessionId: session.id, replacement });
    return session;
  }

  private async passesProbe(session: S): Promise<boolean> {
    if (!this.probe || !session.healthy) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), this.probeTimeoutMs);
    });
    try {
      return await Promise.race([session.healthy().catch(() => false), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async quarantine(session: S, reason: 'released-unhealthy' | 'probe-failed' | 'lease-lost'): Promise<void> {
    this.counts.quarantined++;
    this.pendingReplacements++;
    this.opts.onEvent?.({ kind: 'quarantined', sessionId: session.id, reason });
    await closeQuietly(session);
  }

  private wake(n = 1): void {
    for (let i = 0; i < n; i++) this.waiters.shift()?.();
  }
}

async function closeQuietly(session: EnvSession): Promise<void> {
  await session.close().catch(() => undefined);
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value > 0)) throw new Error(`${name} must be positive, got ${value}`);
  return value;
}
