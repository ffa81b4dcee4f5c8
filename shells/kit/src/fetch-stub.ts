// HTTP stand-in at the fetch boundary: routes keyed 'METHOD /path' answer like the backend.

export interface StubRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type StubResponse = { status?: number; body?: unknown; networkError?: boolean };
export type StubRoute = StubResponse | ((req: StubRequest) => StubResponse | Promise<StubResponse>);

export interface FetchStub {
  calls: StubRequest[];
  restore(): void;
}

function makeResponse(status: number, body: unknown): Response {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    headers: { get: (h: string) => (h.toLowerCase() === 'content-type' ? 'application/json' : null) },
    text: async () => text,
    json: async () => JSON.parse(text),
  } as unknown as Response;
}

export function stubFetch(routes: Record<string, StubRoute>): FetchStub {
  const original = (globalThis as { fetch?: typeof fetch }).fetch;
  const calls: StubRequest[] = [];
  const fake = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const path = new URL(url, 'http://localhost').pathname;
    const method = (init.method || 'GET').toUpperCase();
    const headers = (init.headers || {}) as Record<string, string>;
    let body: unknown = undefined;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const req = { method, url, path, headers, body };
    calls.push(req);
    const route = routes[`${method} ${path}`];
    if (!route) {
      return makeResponse(404, { status: 404, message: 'Not found', errors: {}, error: true });
    }
    const reply = typeof route === 'function' ? await route(req) : route;
    if (reply.networkError) throw new TypeError('Failed to fetch');
    return makeResponse(reply.status ?? 200, reply.body);
  };
  (globalThis as { fetch?: unknown }).fetch = fake;
  return {
    calls,
    restore() {
      (globalThis as { fetch?: unknown }).fetch = original;
    },
  };
}

/** A base64-wrapped unsigned JWT with the given payload, as the backend issues (signature not checked client-side). */
export function makeToken(payload: Record<string, unknown>): string {
  const b64url = (s: string) => Buffer.from(s).toString('base64').replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  const jwt = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}.c2ln`;
  return Buffer.from(jwt).toString('base64');
}
