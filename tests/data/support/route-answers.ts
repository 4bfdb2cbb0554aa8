import { afterAll, beforeAll } from "vitest";

// Calling a route's loader or action as the router does, for the data tests that drive the back
// office's routes with real sessions.

/** What a route answered, thrown or returned: its status, its redirect, and its body. */
export async function answerOf(run: () => Promise<unknown>): Promise<{ status: number; location?: string | null; body: unknown }> {
  let answer: unknown;
  try {
    answer = await run();
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response) return { status: answer.status, location: answer.headers.get("Location"), body: null };
  if (answer && typeof answer === "object" && (answer as { type?: string }).type === "DataWithResponseInit") {
    const { data, init } = answer as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, body: data };
  }
  return { status: 200, body: answer };
}

/** SITE_LOCALES for the tests of the enclosing block, as it was again afterwards. */
export function withSiteLocales(value: string): void {
  let previous: string | undefined;
  beforeAll(() => {
    previous = process.env.SITE_LOCALES;
    process.env.SITE_LOCALES = value;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.SITE_LOCALES;
    else process.env.SITE_LOCALES = previous;
  });
}
