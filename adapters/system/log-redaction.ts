/** What a censored value becomes in a log line. */
export const REDACTED = '[redacted]';

// Compared after lower-casing and dropping `-` and `_`, so `x-api-key`, `apiKey` and `API_KEY` match.
const SECRET_KEYS = new Set([
  'authorization',
  'proxyauthorization',
  'xapikey',
  'apikey',
  'key',
  'cookie',
  'setcookie',
]);
const SECRET_SUFFIXES = ['secret', 'password', 'passwd', 'token'];
/** `scheme://user:password@host`: a database or node URL named in an error message. */
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]*@/gi;
/** Nesting beyond this is cut rather than walked (a log field is never that deep on purpose). */
const MAX_DEPTH = 6;

/** Whether a field of this name holds a secret (API keys, consumer secrets, `authorization` headers, tokens). */
export function isSecretField(name: string): boolean {
  const normalized = name.toLowerCase().replace(/[-_]/g, '');
  return SECRET_KEYS.has(normalized) || SECRET_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
}

/**
 * A copy of a line's fields with every secret censored, at any depth: values of secret-named
 * fields, and the credentials of URLs inside strings (an error quoting a `postgres://user:pw@…`).
 * Censoring by name at any depth (pino's own `redact` takes fixed paths) keeps a secret out even
 * when a field nests it somewhere nobody listed.
 */
export function redactFields(fields: Record<string, unknown>): Record<string, unknown> {
  return redactValue(fields, 0) as Record<string, unknown>;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return value.includes('@') ? value.replace(URL_CREDENTIALS, '$1' + REDACTED + '@') : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (value instanceof Error)
    return redactValue({ type: value.name, message: value.message, stack: value.stack }, depth);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    out[name] = isSecretField(name) && field != null ? REDACTED : redactValue(field, depth + 1);
  }
  return out;
}
