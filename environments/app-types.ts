import type { AppDag } from '../domain/dag.js';
import type { CheckerSpec } from '../domain/entities.js';

/** One request routed to a built-in app; `path` is relative to the app root (`/`, `/r/sushi_zen`, `/api/add`). */
export interface AppRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON body for POSTs (undefined otherwise). */
  body: unknown;
}

export interface AppContext {
  sessionId: string;
  /** URL path prefix of this app for this session, e.g. `/s/abc/app/food`. */
  base: string;
  /** URL path of the phone's launcher for this session. */
  launcherUrl: string;
}

export type AppResponse =
  | { status?: number; type: 'html' | 'json'; body: string }
  | { status: 303; redirect: string };

export interface CheckResult {
  success: boolean;
  reason: string;
}

export interface AppCheckers<S> {
  /** Task families this app can check. */
  readonly families: readonly string[];
  /**
   * Throws for an unknown family or a spec whose params do not name things in the app. `world` is every
   * app's state for the same session, keyed by app id (cross-app families read other apps' state from it;
   * single-app families ignore it).
   */
  check(state: S, spec: CheckerSpec, world?: Readonly<Record<string, unknown>>): CheckResult;
}

/** A built-in app: its DAG, its per-session state, its routes and its success checkers. */
export interface AppModule<S = unknown> {
  readonly id: string;
  /** Launcher label; `open` matches it case-insensitively. */
  readonly title: string;
  readonly icon: { color: string; glyph: string };
  readonly dag: AppDag;
  initialState(seed: number): S;
  /** Handles one request, mutating `state` in place. */
  handle(state: S, req: AppRequest, ctx: AppContext): AppResponse;
  readonly checkers: AppCheckers<S>;
}
