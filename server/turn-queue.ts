import { performance } from "node:perf_hooks";

/**
 * Work that waits its turn: what is queued starts in the check phase of the event loop, at most
 * `sliceMs` of it per turn (always at least one item), and the rest after the next poll for I/O.
 * Cheap answers given straight from the request listener (cache hits, health checks) therefore
 * never wait behind a flood of expensive ones (redirects, refusals, renders) for more than a
 * slice, however many of those arrived at once: on a saturated loop they would otherwise wait for
 * every request read before them.
 */
export function turnQueue(sliceMs: number): (work: () => void) => void {
  const queue: (() => void)[] = [];
  let scheduled = false;
  const schedule = () => {
    scheduled = true;
    setImmediate(drain);
  };
  function drain() {
    scheduled = false;
    const until = performance.now() + sliceMs;
    try {
      do queue.shift()!();
      while (queue.length > 0 && performance.now() < until);
    } finally {
      // Even when an item threw, the others still get their turn.
      if (queue.length > 0) schedule();
    }
  }
  return (work) => {
    queue.push(work);
    if (!scheduled) schedule();
  };
}
