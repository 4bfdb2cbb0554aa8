// The browser the end-to-end tests and benchmarks drive: Debian's Chromium unless CHROMIUM_PATH
// names another. This machine has no network beyond the package registries, so every flag that
// makes Chromium reach out on its own (updates, sync, background fetches, QUIC) is off.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
