import type { PageSnapshot } from "~/features/content/content-types";

/** A small landing page as an editor would make it, with any field replaced. */
export const samplePage = (overrides: Partial<PageSnapshot> = {}): PageSnapshot => ({
  path: "/solutions/financial-services",
  title: "Financial services",
  description: "AI governance for banks",
  noindex: false,
  blocks: [{ type: "hero", title: "Govern every model", lede: "From one place." }],
  ...overrides,
});

/** The outcome of a write that must succeed; a refusal fails the test with its reasons. */
export const ok = <T extends { ok: boolean }>(outcome: T) => {
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome)}`);
  return outcome as Extract<T, { ok: true }>;
};
