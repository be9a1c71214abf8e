import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppModule, AppResponse } from './app-types.js';
import { BUILT_IN_APPS, DECORATIVE_APPS } from './app-world.js';
import { comingSoonPage, launcherPage, type LauncherIcon } from './launcher.js';

/** A launcher entry `open` can target: a built-in app or a decorative "Coming soon" one. */
export interface OpenableApp {
  id: string;
  title: string;
  builtIn: boolean;
}

export interface AppServer {
  readonly baseUrl: string;
  readonly apps: readonly AppModule[];
  close(): Promise<void>;
  /** Deep copy of every app's state for the session, keyed by app id (the checker side; pages never see it). */
  state(sessionId: string): Record<string, unknown>;
  /** Resets every app of the session to its deterministic initial state for `seed`. */
  reset(sessionId: string, seed: number): void;
  dropSession(sessionId: string): void;
  launcherUrl(sessionId: string): string;
  /** Case-insensitive lookup of a launcher label (`Foodie`) or app id. */
  resolveApp(name: string): OpenableApp | undefined;
  appUrl(sessionId: string, appId: string): string;
}

const SESSION_RE = /^[A-Za-z0-9_-]{1,64}$/;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

/** Serves the phone launcher and every built-in app, with per-session server-side state. */
export async function startAppServer(opts: { port?: number; host?: string; apps?: readonly AppModule[] } = {}): Promise<AppServer> {
  const apps = opts.apps ?? BUILT_IN_APPS;
  const host = opts.host ?? '127.0.0.1';
  const sessions = new Map<string, Map<string, unknown>>();

  const resetSession = (sid: string, seed: number): Map<string, unknown> => {
    const m = new Map<string, unknown>(apps.map((a) => [a.id, a.initialState(seed)]));
    sessions.set(sid, m);
    return m;
  };
  const session = (sid: string): Map<string, unknown> => sessions.get(sid) ?? resetSession(sid, 0);
  const launcherUrl = (sid: string): string => `/s/${sid}/`;
  const appUrl = (sid: string, appId: string): string =>
    apps.some((a) => a.id === appId) ? `/s/${sid}/app/${appId}/` : `/s/${sid}/soon/${appId}`;
  const icons = (sid: string): LauncherIcon[] => [
    ...apps.map((a) => ({ title: a.title, href: appUrl(sid, a.id), color: a.icon.color, glyph: a.icon.glyph })),
    ...DECORATIVE_APPS.map((d) => ({ title: d.title, href: appUrl(sid, d.id), color: d.color, glyph: d.glyph })),
  ];

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/');
    // ['', 's', sid, kind, appId, ...rest]
    const sid = parts[2] ?? '';
    if (parts[1] !== 's' || !SESSION_RE.test(sid)) return send(res, 404, 'text/plain', 'not found');
    const kind = parts[3] ?? '';
    if (kind === '' && req.method === 'GET') return send(res, 200, 'text/html; charset=utf-8', launcherPage(icons(sid)));
    if (kind === 'soon') {
      const icon = icons(sid).find((i) => i.href === url.pathname);
      return icon ? send(res, 200, 'text/html; charset=utf-8', comingSoonPage(icon)) : send(res, 404, 'text/plain', 'not found');
    }
    if (kind === 'app') {
      const app = apps.find((a) => a.id === parts[4]);
      if (!app) return send(res, 404, 'text/plain', 'no such app');
      if (parts.length === 5) {
        res.writeHead(303, { location: `${url.pathname}/` });
        return void res.end();
      }
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      const out: AppResponse = app.handle(session(sid).get(app.id), { method: req.method ?? 'GET', path: '/' + parts.slice(5).join('/'), query: url.searchParams, body }, {
        sessionId: sid,
        base: `/s/${sid}/app/${app.id}`,
        launcherUrl: launcherUrl(sid),
      });
      if ('redirect' in out) {
        res.writeHead(303, { location: out.redirect, 'cache-control': 'no-store' });
        return void res.end();
      }
      return send(res, out.status ?? 200, out.type === 'html' ? 'text/html; charset=utf-8' : 'application/json', out.body);
    }
    return send(res, 404, 'text/plain', 'not found');
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain', err instanceof Error ? err.message : String(err));
      else res.end();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://${host}:${port}`,
    apps,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
    state: (sid) => structuredClone(Object.fromEntries(session(sid))),
    reset: (sid, seed) => {
      if (!SESSION_RE.test(sid)) throw new Error(`bad session id "${sid}"`);
      resetSession(sid, seed);
    },
    dropSession: (sid) => void sessions.delete(sid),
    launcherUrl,
    appUrl,
    resolveApp: (name) => {
      const n = name.trim().toLowerCase();
      const a = apps.find((x) => x.title.toLowerCase() === n || x.id === n);
      if (a) return { id: a.id, title: a.title, builtIn: true };
      const d = DECORATIVE_APPS.find((x) => x.title.toLowerCase() === n || x.id === n);
      return d ? { id: d.id, title: d.title, builtIn: false } : undefined;
    },
  };
}
