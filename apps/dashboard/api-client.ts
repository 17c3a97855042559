/** Where the public API is, on the dashboard's own origin. */
export const API_BASE = '/chainhooks/v1';

/** One field the server found wrong, by its API name (`from_block_height`). */
export type FieldProblem = { field: string; message: string };

/** A failed call, with a message a person can act on, and the fields a 400 names. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
    readonly fields: FieldProblem[] = [],
  ) {
    super(message);
  }
}

/** Calls to the public API with one key. */
export type Api = {
  get<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<T>;
  send<T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
};

type ErrorBody = { message?: string; details?: { field?: string; message?: string }[] };

/** An API client sending `key` as the x-api-key header (never in the URL). */
export function apiWithKey(key: string): Api {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response;
    try {
      response = await fetch(`${API_BASE}${path}`, {
        method,
        headers: {
          'x-api-key': key,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(
        0,
        'The stackhooks server cannot be reached. Check that it is running and that your network is up, then try again.',
      );
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (!response.ok) {
      const failure = parsed as ErrorBody | undefined;
      const fields = (failure?.details ?? []).flatMap(({ field, message }) =>
        field && message ? [{ field, message }] : [],
      );
      throw new ApiError(response.status, describeFailure(response, failure), fields);
    }
    return parsed as T;
  };
  return {
    get(path, query = {}) {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(query)) {
        if (value !== undefined && value !== '') params.set(name, String(value));
      }
      const search = params.toString();
      return call('GET', search ? `${path}?${search}` : path);
    },
    send: (method, path, body) => call(method, path, body),
  };
}

/** The server's reason in words that say what to do next. */
function describeFailure(response: Response, body: ErrorBody | undefined): string {
  const reason = body?.message ?? response.statusText;
  // The message repeats the first problem; the others are added to it.
  const others = (body?.details ?? [])
    .map((detail) => [detail.field, detail.message].filter(Boolean).join(' '))
    .filter((line) => line !== '' && line !== reason);
  const detail = others.length > 0 ? ` (also: ${others.join('; ')})` : '';
  switch (response.status) {
    case 401:
      return 'The API key was refused: it is unknown or has been revoked. Sign in again with a valid key (create one with `npx stackhooks keys create`).';
    case 429:
      return `Too many requests with this key. Wait ${response.headers.get('retry-after') ?? 'a few'} seconds, then try again.`;
    case 503:
      return `The server cannot do this right now: ${reason}. Try again shortly.`;
    default:
      if (response.status >= 500)
        return `The server failed (${reason}). Try again; if it keeps failing, look at the server's log.`;
      return `${reason}${detail}`;
  }
}
