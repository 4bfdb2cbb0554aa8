import { performance } from "node:perf_hooks";

export type EventLoopGauge = {
  /** The share of the last sample the event loop spent running code rather than waiting for I/O. */
  utilization: () => number;
  stop: () => void;
};

/**
 * Samples this process's event-loop utilization every `sampleMs` (and hands each sample to
 * `onSample`). Node answers one request at a time, so this is how busy the server is: near 1,
 * every new request waits behind others.
 */
export function watchEventLoop(sampleMs: number, onSample?: (utilization: number) => void): EventLoopGauge {
  let previous = performance.eventLoopUtilization();
  let utilization = 0;
  const timer = setInterval(() => {
    const current = performance.eventLoopUtilization();
    utilization = performance.eventLoopUtilization(current, previous).utilization;
    previous = current;
    onSample?.(utilization);
  }, sampleMs);
  timer.unref();
  return { utilization: () => utilization, stop: () => clearInterval(timer) };
}
