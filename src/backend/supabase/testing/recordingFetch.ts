/** One request supabase-js sent, as the test sees it. */
export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The body as text (JSON requests), or null. */
  text: string | null;
  /** The body as bytes (uploads), or null. */
  bytes: Uint8Array | null;
  /** The signal the request was sent with (a read the app may call off), or null. */
  signal: AbortSignal | null;
}

/** A canned answer. `json` wins over `body`. */
export interface FakeResponse {
  status?: number;
  json?: unknown;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

type Route = (req: RecordedRequest) => FakeResponse | undefined;

/**
 * A `fetch` for supabase-js that records every request and answers from a queue of canned
 * responses (first in, first out) or from routes. No network: no live Supabase project is
 * reachable from the tests.
 *
 * @example
 * const net = recordingFetch();
 * net.queue({ json: [] });
 * createSupabaseBackend({ spec, url, anonKey, fetch: net.fetch });
 */
export function recordingFetch() {
  const requests: RecordedRequest[] = [];
  const pending: (FakeResponse | Error)[] = [];
  const routes: Route[] = [];

  async function readBody(
    init: RequestInit | undefined,
    input: Request | string | URL,
  ): Promise<{ text: string | null; bytes: Uint8Array | null }> {
    const b = init?.body ?? (input instanceof Request ? await input.clone().arrayBuffer() : null);
    if (b === null || b === undefined) return { text: null, bytes: null };
    if (typeof b === 'string') return { text: b, bytes: null };
    if (b instanceof Uint8Array) return { text: null, bytes: b };
    if (b instanceof ArrayBuffer) return { text: null, bytes: new Uint8Array(b) };
    if (b instanceof Blob) return { text: null, bytes: new Uint8Array(await b.arrayBuffer()) };
    if (b instanceof FormData) {
      const file = [...b.values()].find((v): v is File => typeof v !== 'string');
      return { text: null, bytes: file ? new Uint8Array(await file.arrayBuffer()) : null };
    }
    return { text: String(b), bytes: null };
  }

  const fetchImpl = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((v, k) => {
      headers.set(k, v);
    });
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const body = await readBody(init, input);
    const req: RecordedRequest = { method, url, headers, ...body, signal: init?.signal ?? null };
    requests.push(req);
    let answer: FakeResponse | Error | undefined;
    for (const r of routes) {
      answer = r(req);
      if (answer) break;
    }
    answer ??= pending.shift();
    if (!answer) throw new Error(`unexpected request ${method} ${url.pathname}${url.search}`);
    if (answer instanceof Error) throw answer;
    const status = answer.status ?? 200;
    const h = new Headers(answer.headers);
    let payload: BodyInit | null = null;
    if (answer.json !== undefined) {
      payload = JSON.stringify(answer.json);
      if (!h.has('content-type')) h.set('content-type', 'application/json; charset=utf-8');
    } else if (answer.body !== undefined)
      payload =
        typeof answer.body === 'string' ? answer.body : new Blob([answer.body as Uint8Array<ArrayBuffer>]);
    return new Response(status === 204 ? null : payload, { status, headers: h });
  };

  return {
    fetch: fetchImpl as typeof fetch,
    requests,
    /** Answer the next unrouted request with this. */
    queue(...answers: (FakeResponse | Error)[]) {
      pending.push(...answers);
    },
    /** Answer every matching request (checked before the queue). */
    route(r: Route) {
      routes.push(r);
    },
    last(): RecordedRequest {
      const r = requests.at(-1);
      if (!r) throw new Error('no request was made');
      return r;
    },
    /** Requests whose path contains `part`. */
    to(part: string): RecordedRequest[] {
      return requests.filter((r) => r.url.pathname.includes(part));
    },
    pendingCount: () => pending.length,
  };
}

export type RecordingFetch = ReturnType<typeof recordingFetch>;
