import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

type Fixtures = {
  /**
   * Console errors and uncaught exceptions seen by the test's page; any of them fails the test.
   * A test may read it, or empty it once it has checked errors it expected.
   */
  consoleErrors: string[];
};

// The checks every page gets ride on the `page` fixture itself, not on auto fixtures that would
// ask for one: a test that only sends HTTP requests (or opens contexts of its own) then pays for
// no browser context it never uses.
export const test = base.extend<Fixtures>({
  // Playwright reads what a fixture needs from its first parameter's pattern: this one needs nothing.
  // eslint-disable-next-line no-empty-pattern
  consoleErrors: async ({}, provide) => {
    await provide([]);
  },
  page: async ({ page, consoleErrors: errors }, provide) => {
    // React reports every commit to the developer-tools hook, in production builds too. A stand-in
    // hook records the first commit whose effects have run: the page is hydrated and interactive
    // (see waitForHydration).
    await page.addInitScript(() => {
      const flags = window as unknown as { __hydrated?: boolean; __REACT_DEVTOOLS_GLOBAL_HOOK__?: unknown };
      flags.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        inject: () => 1,
        onCommitFiberRoot: () => undefined,
        onCommitFiberUnmount: () => undefined,
        onPostCommitFiberRoot: () => (flags.__hydrated = true),
        checkDCE: () => undefined,
      };
    });
    page.on("console", (message) => {
      if (message.type() !== "error") return;
      // Chromium reports a document (or its .data request) answered 4xx/5xx as a console error;
      // those statuses are asserted by the tests themselves. Any other resource failing still counts.
      const source = message.location().url.replace(/\.data(\?.*)?$/, "");
      const isDocument = source !== "" && new URL(source).pathname === new URL(page.url()).pathname;
      if (message.text().startsWith("Failed to load resource") && isDocument) return;
      errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
    // Some blocked actions (a caught eval probe, say) raise no console message: report them all.
    await page.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (event) =>
        console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI} in ${event.sourceFile}`),
      ),
    );
    await provide(page);
    expect(errors, "console errors (CSP violations and hydration errors included)").toEqual([]);
  },
});

export { expect };

/**
 * axe-core, WCAG 2.x A/AA plus best practices: no violation allowed. The page is judged at rest:
 * an entrance animation (a fade) still running would be measured half-transparent.
 */
export async function expectAccessible(page: Page, context = "", options: { exclude?: string } = {}) {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]);
  // A framed document of its own (the page editor's preview) is checked on its own.
  if (options.exclude) builder.exclude(options.exclude);
  const results = await builder.analyze();
  const summary = results.violations.map(
    (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
  );
  expect(summary, `axe violations ${context}`).toEqual([]);
}

/**
 * Waits until React has hydrated the document and run its effects. A public page hydrates on the
 * visitor's first input, so the mouse moves, as a person's does, until it has (a move made before
 * the page's script listens is not seen).
 */
export async function waitForHydration(page: Page) {
  for (let x = 1; ; x = 3 - x) {
    await page.mouse.move(x, 1);
    if (
      await page.waitForFunction(hydrated, undefined, { timeout: 500 }).then(
        () => true,
        () => false,
      )
    )
      return;
  }
}

/** Whether React has hydrated the page (see hydrationProbe). */
export function isHydrated(page: Page): Promise<boolean> {
  return page.evaluate(hydrated);
}

function hydrated() {
  return (window as unknown as { __hydrated?: boolean }).__hydrated === true;
}
