import type { Session } from 'fastify';
import type { Queryable } from '../storage/db.js';
import { deleteSession, getSessionData, setSessionData } from '../storage/review-queue-repo.js';

type Callback = (err?: unknown) => void;
type CallbackSession = (err: unknown, result?: Session | null) => void;

/**
 * @fastify/session store over the `review_sessions` table: sessions survive a server restart and several server
 * processes behind one load balancer share them (the default memory store does neither and leaks). A session
 * expires with its cookie (`expires`, else `maxAgeMs` from now); destroying one also sweeps expired rows.
 */
export class PgSessionStore {
  constructor(
    private readonly db: Queryable,
    private readonly maxAgeMs: number,
  ) {}

  set(sid: string, session: Session, callback: Callback): void {
    const cookie = (session as unknown as { cookie?: { expires?: Date | string | null } }).cookie;
    const expires = cookie?.expires ? new Date(cookie.expires) : new Date(Date.now() + this.maxAgeMs);
    setSessionData(this.db, sid, session, expires).then(() => callback(), callback);
  }

  get(sid: string, callback: CallbackSession): void {
    getSessionData(this.db, sid).then((data) => callback(null, (data as Session | null) ?? null), callback);
  }

  destroy(sid: string, callback: Callback): void {
    deleteSession(this.db, sid).then(() => callback(), callback);
  }
}
