/**
 * Log lines that a request can cause (a refused post, a forged header) are bounded: per kind, at
 * most `limit` lines per `intervalMs`; the first line after a quiet spell says how many were left
 * out. A flood of hostile requests then costs a few lines a minute, not one line each.
 */
export type LogThrottle = (kind: string) => { log: boolean; suppressed: number };

export function logThrottle({
  limit = 5,
  intervalMs = 60_000,
  maxKinds = 100,
  now = Date.now,
}: { limit?: number; intervalMs?: number; maxKinds?: number; now?: () => number } = {}): LogThrottle {
  const windows = new Map<string, { start: number; count: number; suppressed: number }>();
  return (kind) => {
    const time = now();
    let window = windows.get(kind);
    let carried = 0;
    if (!window || time - window.start >= intervalMs) {
      carried = window?.suppressed ?? 0;
      // Kinds are names in the code, never request data; the cap only keeps a mistake bounded.
      if (!window && windows.size >= maxKinds) windows.delete(windows.keys().next().value as string);
      window = { start: time, count: 0, suppressed: 0 };
      windows.set(kind, window);
    }
    if (window.count >= limit) {
      window.suppressed += 1;
      return { log: false, suppressed: 0 };
    }
    window.count += 1;
    return { log: true, suppressed: carried };
  };
}

/**
 * A value taken from a request, fit for a log line: at most `max` characters (then "..."), and
 * everything but printable ASCII, and the backslash, escaped as \uXXXX (line breaks, terminal
 * escapes and right-to-left overrides cannot forge or disguise a line).
 */
export function untrusted(value: string, max = 200): string {
  const escaped = value
    .slice(0, max)
    .replace(/[^\x20-\x5b\x5d-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return value.length > max ? `${escaped}...` : escaped;
}
