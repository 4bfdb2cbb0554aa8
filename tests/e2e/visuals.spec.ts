import type { Page } from "@playwright/test";
import { expect, expectAccessible, test, waitForHydration } from "./support/fixtures";

// The product pictures on the home and product pages (the console illustration, the "How it
// works" diagram, the proof points band): accessible at phone and desktop width, readable without
// CSS and without JavaScript, still under reduced motion, and carried by the HTML, not the scripts.
// The axe scans below are the home and product pages' own at both widths: no other spec scans
// them again at rest.

const consoleFigure = (page: Page) => page.getByRole("figure", { name: /^The Sentinel console inspecting an AI prompt inline/ });
const diagramFigure = (page: Page) => page.getByRole("figure", { name: /^Diagram: your AI assistants, email, chat and SDK/ });

const pages = [
  { path: "/", h1: "Private AI Compliance, Security and Governance Platform" },
  { path: "/products/sentinel", h1: "Sentinel keeps your AI private, secure and compliant" },
];

for (const [label, use] of [
  ["390 px phone", { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }],
  ["1440 px desktop", { viewport: { width: 1440, height: 900 } }],
] as const) {
  test.describe(label, () => {
    test.use(use);
    for (const { path, h1 } of pages) {
      test(`${path}: the console illustration, proof points and the page are accessible and fit the width`, async ({ page }) => {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
        await expect(consoleFigure(page)).toHaveCount(1);
        await expect(consoleFigure(page)).toContainText("the inspection took 45 ms");

        // Reflowed, not shrunk: the drawing fits the column and its text keeps a readable size.
        const prompt = page.getByText("Draft a reply to the customer confirming the refund");
        await expect(prompt).toBeVisible();
        const promptSize = await prompt.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
        expect(promptSize).toBeGreaterThanOrEqual(14);
        const box = (await consoleFigure(page).boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(use.viewport.width);

        const proof = page.getByRole("region", { name: "Figures and frameworks you can check" });
        for (const [value, label] of [
          ["99.99%", "Uptime over the last 30 days"],
          ["45 ms", "Average response time"],
          ["Under 2 minutes", "Live chat response"],
          ["Under 4 hours", "Email response"],
        ])
          await expect(proof.getByRole("listitem").filter({ hasText: label })).toHaveText(`${value}${label}`);
        for (const framework of ["SOC 2 Type II", "ISO 27001", "GDPR", "HIPAA"])
          await expect(proof.getByRole("listitem").filter({ hasText: framework })).toHaveCount(1);
        await expect(proof.getByRole("link", { name: "Security practices, audits and subprocessors" })).toHaveAttribute(
          "href",
          "/terms/trust-transparency",
        );

        await expectAccessible(page, `${path} ${label}`);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow, "horizontal overflow in px").toBe(0);
      });
    }
  });
}

test("How it works: the diagram with its boundary, then the four steps as an ordered list", async ({ page }) => {
  await page.goto("/products/sentinel");
  const section = page.getByRole("region", { name: "How it works" });
  await expect(diagramFigure(page)).toContainText("runs inside your own cloud (the private-deployment boundary)");
  await expect(section.getByText("Your cloud: private deployment")).toBeVisible();
  const steps = section.getByRole("list").filter({ hasText: "Connect your channels" });
  await expect(steps.getByRole("listitem")).toHaveText([
    /^Connect your channels: AI assistants, email, chat/,
    /^Choose policies: start from the built-in packs/,
    /^Detect and respond: Sentinel scores every interaction/,
    /^Prove it: export evidence and reports/,
  ]);
  expect(await steps.evaluate((list) => list.tagName)).toBe("OL");
});

test.describe("without CSS and without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  /** The page as text with every stylesheet gone: the inline one and any linked one. */
  async function unstyledText(page: Page, path: string) {
    await page.route(/\.css(\?|$)/, (route) => route.abort());
    await page.goto(path);
    await page.evaluate(() => {
      for (const element of document.querySelectorAll('style, link[rel="stylesheet"]')) element.remove();
    });
    expect(await page.evaluate(() => document.styleSheets.length)).toBe(0);
    return page.locator("body").innerText();
  }

  /** Each of `texts` is there, in this order. */
  function expectInOrder(text: string, texts: string[]) {
    let from = 0;
    for (const expected of texts) {
      const at = text.indexOf(expected, from);
      expect(at, `"${expected}" after position ${from}`).toBeGreaterThanOrEqual(0);
      from = at + expected.length;
    }
  }

  test("home: the hero's text, then the illustration's description, then the proof points", async ({ page }) => {
    const text = await unstyledText(page, "/");
    expectInOrder(text, [
      "Quorvant Sentinel",
      "Private AI Compliance, Security and Governance Platform",
      "Keep every AI workflow secure, compliant and under your control",
      "Explore",
      "Contact Sales",
      "The Sentinel console inspecting an AI prompt inline",
      "the inspection took 45 ms.",
      "Figures and frameworks you can check",
      "99.99%",
      "SOC 2 Type II",
      "Built for regulated, AI-first teams",
    ]);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("product: the hero, the illustration's description, then How it works as numbered steps", async ({ page }) => {
    const text = await unstyledText(page, "/products/sentinel");
    expectInOrder(text, [
      "Sentinel keeps your AI private, secure and compliant",
      "A security platform for business communications",
      "Request Demo",
      "The Sentinel console inspecting an AI prompt inline",
      "What Sentinel does",
      "How it works",
      "Diagram: your AI assistants, email, chat and SDK",
      "Connect your channels",
      "Choose policies",
      "Detect and respond",
      "Prove it",
      "Figures and frameworks you can check",
    ]);
    // Without the stylesheet the browser numbers the steps itself.
    const steps = page.getByRole("region", { name: "How it works" }).locator("ol").last();
    expect(await steps.evaluate((list) => getComputedStyle(list).listStyleType)).toBe("decimal");
  });
});

test.describe("under prefers-reduced-motion: reduce", () => {
  test.use({ reducedMotion: "reduce" });

  for (const { path } of pages)
    test(`${path}: nothing animates`, async ({ page }) => {
      await page.goto(path);
      await expect(consoleFigure(page)).toHaveCount(1);
      expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
      const named = await consoleFigure(page)
        .locator("*")
        .evaluateAll((elements) =>
          elements.map((element) => getComputedStyle(element).animationName).filter((name) => name !== "none"),
        );
      expect(named).toEqual([]);
    });
});

test.describe("with motion allowed", () => {
  test.use({ reducedMotion: "no-preference" });

  test("the verdict and its audit entry arrive once, and every animation ends", async ({ page }) => {
    await page.goto("/");
    await expect(consoleFigure(page)).toHaveCount(1);
    // The computed styles, not the running animations: on a busy machine they may be over before
    // the page is inspected.
    const animated = await consoleFigure(page)
      .locator("*")
      .evaluateAll((elements) =>
        elements.flatMap((element) => {
          const style = getComputedStyle(element);
          if (style.animationName === "none") return [];
          return [
            { text: element.textContent ?? "", iterations: style.animationIterationCount, duration: style.animationDuration },
          ];
        }),
      );
    expect(animated.map((animation) => animation.text)).toEqual([
      expect.stringContaining("Prompt sent on with the account number masked"),
      expect.stringContaining("Audit log"),
    ]);
    for (const animation of animated) {
      expect(animation.iterations).toBe("1");
      expect(parseFloat(animation.duration)).toBeLessThanOrEqual(1);
    }
    // Whatever still runs on the page ends, and leaves nothing running behind it.
    const running = await page.evaluate(() =>
      document.getAnimations().map((animation) => animation.effect!.getComputedTiming().endTime),
    );
    for (const endTime of running) expect(Number(endTime)).toBeLessThan(2_000);
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
  });
});

test("the pictures are in the HTML only: the page's scripts carry none of them", async ({ request }) => {
  for (const path of pages.map((page) => page.path)) {
    const html = await (await request.get(path)).text();
    expect(html).toContain("PII-FIN-004");
    const scripts = [...html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g)].map((match) => match[1]!);
    expect(scripts.length, `${path} scripts`).toBeGreaterThan(0);
    for (const script of scripts) {
      const code = await (await request.get(script)).text();
      for (const drawn of ["PII-FIN-004", "Your cloud: private deployment", "Figures and frameworks you can check"])
        expect(code, `${script} carries "${drawn}"`).not.toContain(drawn);
    }
  }
});

test("after a client-side navigation the pictures come with the page's data", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("link", { name: "Explore" }).click();
  await expect(page).toHaveURL(/\/products\/sentinel$/);
  await expect(consoleFigure(page)).toHaveCount(1);
  await expect(diagramFigure(page)).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Figures and frameworks you can check" })).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: /home/ }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(consoleFigure(page)).toContainText("the inspection took 45 ms");
});
