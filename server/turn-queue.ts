import { performance } from "node:perf_hooks";
import { turnWait } from "~/platform/metrics.server";

/** Queues work (see turnQueue); `depth` says how much waits now. */
export type TurnQueue = ((work: () => void) => void) & { depth: () => number };

/**
 * Work that waits its turn: what is queued starts in the check phase of the event loop, at most
 * `sliceMs` of it per turn (always at least one item), and the rest after the next poll for I/O.
 * Cheap answers given straight from the request listener (cache hits, health checks) therefore
 * never wait behind a flood of expensive ones (redirects, refusals, renders) for more than a
 * slice, however many of those arrived at once: on a saturated loop they would otherwise wait for
 * every request read before them.
 */
export function turnQueue(sliceMs: number): TurnQueue {
  const queue: (() => void)[] = [];
  /** When each waiting item was queued, in the same order. */
  const queuedAt: number[] = [];
  let scheduled = false;
  const schedule = () => {
    scheduled = true;
    setImmediate(drain);
  };
  function drain() {
    scheduled = false;
    const now = performance.now();
    const until = now + sliceMs;
    try {
      do {
        turnWait.observe((now - queuedAt.shift()!) / 1000);
        queue.shift()!();
      } while (queue.length > 0 && performance.now() < until);
    } finally {
      // Even when an item threw, the others still get their turn.
      if (queue.length > 0) schedule();
    }
  }
  const enqueue = (work: () => void) => {
    queue.push(work);
    queuedAt.push(performance.now());
    if (!scheduled) schedule();
  };
  return Object.assign(enqueue, { depth: () => queue.length });
}
