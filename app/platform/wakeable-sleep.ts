/**
 * A background loop's wait for its next poll, which `wake` ends early (new work arrived, or the
 * loop is stopping). Waking while nobody sleeps does nothing.
 */
export function wakeableSleep(): { sleep: (ms: number) => Promise<void>; wake: () => void } {
  let wakeSleeper: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wakeSleeper = () => {
          clearTimeout(timer);
          resolve();
        };
      }).finally(() => (wakeSleeper = undefined)),
    wake: () => wakeSleeper?.(),
  };
}
