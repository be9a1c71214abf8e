/**
 * A tiny cookie-keeping HTTP client for the review app's tests and benchmark (fetch, manual redirects): logs in the
 * way a browser does (GET the form for the session cookie and CSRF token, POST the credentials).
 */
export class ReviewClient {
  cookie = '';
  constructor(readonly base: string) {}

  async request(method: string, path: string, form?: Record<string, string>): Promise<Response> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('trajforge_review='));
    if (set) this.cookie = set.split(';')[0]!;
    return res;
  }

  /** The CSRF token embedded in a page's forms. */
  async csrf(path = '/login'): Promise<string> {
    const body = await (await this.request('GET', path)).text();
    const m = /name="_csrf" value="([^"]+)"/.exec(body);
    if (!m) throw new Error(`no CSRF token on ${path}`);
    return m[1]!;
  }

  async login(name: string, password: string): Promise<Response> {
    const token = await this.csrf('/login');
    return this.request('POST', '/login', { _csrf: token, name, password });
  }
}
