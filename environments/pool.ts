import type { EnvSession } from '../domain/ports.js';

export interface PoolStats {
  size: number;
  idle: number;
  leased: number;
  created: number;
  replaced: number;
}

/**
 * A bounded pool of environment sessions. `lease` waits for a free slot; a session released as
 * unhealthy is closed and a fresh one is created for the next lease, so a crashed browser costs one
 * episode, never the pool.
 */
export class EnvPool<S extends EnvSession> {
  private readonly idle: S[] = [];
  private leased = 0;
  private created = 0;
  private replaced = 0;
  private readonly waiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly create: () => Promise<S>,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`pool size must be a positive integer, got ${size}`);
  }

  async lease(): Promise<S> {
    if (this.closed) throw new Error('environment pool is closed');
    while (this.leased >= this.size) await new Promise<void>((resolve) => this.waiters.push(resolve));
    this.leased++;
    const idle = this.idle.pop();
    if (idle) return idle;
    try {
      const session = await this.create();
      this.created++;
      return session;
    } catch (err) {
      this.leased--;
      this.waiters.shift()?.();
      throw err;
    }
  }

  async release(session: S, healthy: boolean): Promise<void> {
    this.leased--;
    if (healthy && !this.closed) this.idle.push(session);
    else {
      if (!healthy) this.replaced++;
      await session.close().catch(() => undefined);
    }
    this.waiters.shift()?.();
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
    return { size: this.size, idle: this.idle.length, leased: this.leased, created: this.created, replaced: this.replaced };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((s) => s.close().catch(() => undefined)));
  }
}
