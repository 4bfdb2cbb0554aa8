/**
 * A value derived from an immutable `source` as of a moment, computed once and reused while the
 * source is the same object and the moment is within the window the computation said the value
 * holds for (from the moment it was computed at until `until`, exclusive). A list that changes by
 * the clock (a scheduled version going live, a closing date passing) says when it next changes.
 */
export function memoByClock<Source extends object, Value>(
  compute: (source: Source, at: number) => { value: Value; until: number },
): (source: Source, at: number) => Value {
  let last: { source: Source; from: number; until: number; value: Value } | undefined;
  return (source, at) => {
    if (last && last.source === source && at >= last.from && at < last.until) return last.value;
    const { value, until } = compute(source, at);
    last = { source, from: at, until, value };
    return value;
  };
}

/** The earliest of `moments` (ISO strings or nulls) after `at`, in milliseconds; Infinity when none is. */
export function nextMomentAfter(at: number, moments: Iterable<string | null | undefined>): number {
  let next = Infinity;
  for (const moment of moments) {
    if (!moment) continue;
    const time = Date.parse(moment);
    if (time > at && time < next) next = time;
  }
  return next;
}
