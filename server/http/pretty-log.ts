/** What every line has, shown in its own place rather than as `name=value`. */
const SHOWN_APART = new Set(['level', 'time', 'msg', 'instance', 'host', 'pid', 'requestId']);

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** `14:03:27.512`, in the machine's time zone. */
function clockTime(iso: unknown): string {
  const date = new Date(typeof iso === 'string' ? iso : Date.now());
  return `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}:${twoDigits(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

const shown = (value: unknown) => (typeof value === 'string' && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value));

/**
 * One JSON log line as a person at a terminal reads it (LOG_FORMAT=pretty):
 * `14:03:27.512 INFO  [5f0c…] GET /api/x 200 3ms  status=200 ms=3`. The values were escaped
 * before they were written, so nothing in them can start a line or colour the terminal.
 */
export function prettyLine(json: string): string {
  const record = JSON.parse(json) as Record<string, unknown>;
  const level = String(record.level ?? 'info').toUpperCase().padEnd(5);
  const request = typeof record.requestId === 'string' ? `[${record.requestId}] ` : '';
  const extra = Object.entries(record)
    .filter(([name]) => !SHOWN_APART.has(name))
    .map(([name, value]) => `${name}=${shown(value)}`)
    .join(' ');
  return `${clockTime(record.time)} ${level} ${request}${String(record.msg ?? '')}${extra ? `  ${extra}` : ''}`;
}
