const LEVEL_COLORS: Record<string, string> = {
  debug: '\x1b[90m',
  info: '\x1b[32m',
  warn: '\x1b[33m',
  error: '\x1b[31m',
};
const RESET = '\x1b[0m';
/** Fields every line carries, shown in the line's head or not at all on a terminal. */
const HEAD_FIELDS = new Set(['time', 'level', 'msg', 'pid', 'hostname']);

/**
 * One JSON log line as a person reads it on a terminal: `12:04:05.120 INFO  block processed
 * height=812 hash=0x3f…`. Lines that are not JSON pass unchanged. Kept this small on purpose: the
 * JSON lines are the format to ship and parse; this is only for watching a terminal.
 */
export function prettyLine(json: string, colors: boolean): string {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof line.time === 'string' ? line.time.slice(11, 23) : '';
  const level = String(line.level ?? '');
  const label = level.toUpperCase().padEnd(5);
  const head = colors ? `${LEVEL_COLORS[level] ?? ''}${label}${RESET}` : label;
  const rest = Object.entries(line)
    .filter(([name]) => !HEAD_FIELDS.has(name))
    .map(([name, value]) => `${name}=${typeof value === 'string' ? quoted(value) : JSON.stringify(value)}`);
  return [time, head, String(line.msg ?? ''), ...rest].filter((part) => part !== '').join(' ');
}

function quoted(value: string): string {
  return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}
