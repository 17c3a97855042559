import { request as undiciRequest } from 'undici';

/** A response as the tests look at it. */
export type RawResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // Tests read answers field by field; a precise type per route would only restate the schemas.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
};

/** Send a raw request (any body, any content type) and parse a JSON answer when there is one. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  options: {
    key?: string;
    body?: string | Buffer;
    contentType?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers['x-api-key'] = options.key;
  if (options.body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const res = await undiciRequest(`${baseUrl}${path}`, {
    method: method as 'GET',
    headers,
    body: options.body,
  });
  const text = await res.body.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.statusCode, headers: res.headers as RawResponse['headers'], body };
}
