// A snapshot of every marketing page as a visitor and a crawler see it: head tags, visible text,
// links, buttons, form fields, images, headings, landmarks and structured data. It was recorded
// before these pages moved into the database, so the move must leave each record unchanged.
//
// Compare (default): npx playwright test tests/e2e/page-snapshots.spec.ts
// Re-record, only for a change meant to be visible:
//   UPDATE_PAGE_SNAPSHOTS=1 npx playwright test tests/e2e/page-snapshots.spec.ts
// and review the diff of tests/e2e/fixtures/page-snapshots.json before committing it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

const FIXTURE = path.join(import.meta.dirname, "fixtures", "page-snapshots.json");
const UPDATE = process.env.UPDATE_PAGE_SNAPSHOTS === "1";

// Written out, not read from the site's config: a path that changes is a change this test reports.
const PATHS = [
  "/",
  "/products/sentinel",
  "/company/about",
  "/company/careers",
  "/company/brand",
  "/company/charter",
  "/resources",
  "/resources/documentation",
  "/resources/support",
  "/resources/api",
  "/community",
  "/terms/legal",
  "/terms/trust-transparency",
];

/** Stands for the server's origin (its port changes from run to run) in structured data. */
const ORIGIN_PLACEHOLDER = "{origin}";

// The pages render on the server and work without JavaScript; without it nothing on the page can
// change after load, so each record is the server's answer and nothing else (with JavaScript the
// records are the same, bar the careers page's client-only toast regions).
test.use({ javaScriptEnabled: false });

// The home page's Latest Insights block is recorded as it renders: the test server is seeded from
// the sample posts in content/posts, whose dates are fixed, so its titles and dates are stable too.

test("every marketing page keeps its text, links and metadata", async ({ page }) => {
  const records: Record<string, unknown> = {};
  for (const pagePath of PATHS) {
    await test.step(pagePath, async () => {
      records[pagePath] = await snapshot(page, pagePath);
    });
  }

  if (UPDATE) {
    // Written as the formatter would write it, so the repository's format check passes unchanged.
    const prettier = await import("prettier");
    const options = await prettier.resolveConfig(FIXTURE);
    mkdirSync(path.dirname(FIXTURE), { recursive: true });
    writeFileSync(FIXTURE, await prettier.format(JSON.stringify(records), { ...options, filepath: FIXTURE }));
    return;
  }
  expect(existsSync(FIXTURE), `${FIXTURE} is missing: record it with UPDATE_PAGE_SNAPSHOTS=1`).toBe(true);
  const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as Record<string, unknown>;
  expect(Object.keys(recorded), "the pages in the fixture").toEqual(PATHS);
  // Soft: one run lists every page that changed, each with its own diff.
  for (const pagePath of PATHS) expect.soft(records[pagePath], `the snapshot of ${pagePath}`).toEqual(recorded[pagePath]);
});

async function snapshot(page: Page, pagePath: string) {
  let response = await page.goto(pagePath);
  // Data slower than the server's grace period streams behind a loading state, which only
  // JavaScript reveals; such a render is never cached, so loading again gets the inline one.
  for (let attempt = 0; attempt < 5 && (await page.locator("main [aria-busy='true']").count()) > 0; attempt++) {
    await page.waitForTimeout(200);
    response = await page.goto(pagePath);
  }
  const origin = new URL(page.url()).origin;
  const record = { status: response?.status(), ...(await page.evaluate(extract, ORIGIN_PLACEHOLDER)) };
  // Whatever still names the server (its host or port) would make the fixture differ per run.
  const serialised = JSON.stringify(record);
  expect(serialised, `${pagePath}: the record still names the server`).not.toContain(new URL(origin).host);
  expect(serialised).not.toContain(`:${new URL(origin).port}`);
  return record;
}

/**
 * Runs in the page: the normalised record. Same-origin addresses keep only their path; structured
 * data gets `placeholder` in place of the origin. Elements a visitor cannot see (a closed menu, the
 * careers dialog) are listed with `hidden: true`, so their content is compared too.
 */
function extract(placeholder: string) {
  const origin = location.origin;
  const collapse = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

  /** An address as written, without this server's origin. */
  const address = (value: string | null) => {
    if (value === null) return null;
    return value.startsWith(origin) ? value.slice(origin.length) || "/" : value;
  };

  const isHiddenNode = (element: Element) => {
    if (element.getAttribute("aria-hidden") === "true" || element.hasAttribute("hidden")) return true;
    const style = getComputedStyle(element);
    return style.display === "none" || style.visibility === "hidden";
  };

  /** A name given by aria-labelledby or aria-label only: landmarks and forms take none from their content. */
  const labelOf = (element: Element) =>
    collapse(
      (element.getAttribute("aria-labelledby") ?? "")
        .split(/\s+/)
        .map((id) => document.getElementById(id)?.textContent)
        .join(" "),
    ) || collapse(element.getAttribute("aria-label"));
  const formName = (form: HTMLFormElement) => form.id || labelOf(form) || "(unnamed)";

  /** Text alternative of a subtree (the element itself counts even when it is not rendered). */
  const contentName = (node: Node, root = false): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? "";
    if (!(node instanceof Element) || (!root && isHiddenNode(node))) return "";
    const label = root ? "" : labelOf(node);
    if (label) return ` ${label} `;
    if (node instanceof HTMLImageElement) return ` ${node.alt} `;
    if (node.tagName.toLowerCase() === "svg") return ` ${node.querySelector(":scope > title")?.textContent ?? ""} `;
    const block = getComputedStyle(node).display.startsWith("inline") ? "" : " ";
    return block + Array.from(node.childNodes, (child) => contentName(child)).join("") + block;
  };

  /** The accessible name, as the rules compute it for the markup this site uses. */
  const accessibleName = (element: Element): string => {
    const label = labelOf(element);
    if (label) return label;
    if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) {
      const labels = collapse(Array.from(element.labels ?? [], (labelElement) => contentName(labelElement, true)).join(" "));
      if (labels) return labels;
      if (element instanceof HTMLInputElement && ["submit", "reset", "button"].includes(element.type))
        return collapse(element.value);
      return collapse(element.getAttribute("title") ?? element.getAttribute("placeholder"));
    }
    if (element instanceof HTMLImageElement) return collapse(element.alt);
    return collapse(contentName(element, true)) || collapse(element.getAttribute("title"));
  };

  const hidden = (element: Element) => (element.checkVisibility() ? {} : { hidden: true });
  const optional = (key: string, value: string | null) => (value === null ? {} : { [key]: value });

  // Head.
  const meta = (selector: string) => document.querySelector<HTMLMetaElement>(`meta[${selector}]`)?.content ?? null;
  /** A page's card is named by the page's id, which each database draws anew: the record keeps its place. */
  const cardAddress = (value: string | null) =>
    value?.replace(/^\/social-cards\/pages\/[0-9a-f-]{36}\.png$/, "/social-cards/pages/{id}.png") ?? null;
  const metaGroup = (attribute: string, prefix: string) =>
    Object.fromEntries(
      Array.from(document.querySelectorAll<HTMLMetaElement>(`meta[${attribute}^="${prefix}"]`), (tag) => [
        tag.getAttribute(attribute),
        /^(og:url|og:image|twitter:image)/.test(tag.getAttribute(attribute) ?? "")
          ? cardAddress(address(tag.content))
          : tag.content,
      ]).sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  const head = {
    title: document.title,
    description: meta('name="description"'),
    canonical: address(document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? null),
    robots: meta('name="robots"'),
    openGraph: metaGroup("property", "og:"),
    twitter: metaGroup("name", "twitter:"),
    alternates: Array.from(document.querySelectorAll('link[rel="alternate"]'), (link) => ({
      type: link.getAttribute("type"),
      title: link.getAttribute("title"),
      href: address(link.getAttribute("href")),
      ...optional("hreflang", link.getAttribute("hreflang")),
    })),
  };

  // The site's own header and footer, not an article's.
  const outside = (tag: string) =>
    Array.from(document.querySelectorAll(tag)).find((element) => !element.closest("main, article, aside, section, nav"));
  const lines = (element: Element | null | undefined) =>
    ((element as HTMLElement | null | undefined)?.innerText ?? "").split("\n").map(collapse).filter(Boolean);
  const text = {
    header: lines(outside("header")),
    main: lines(document.querySelector("main")),
    footer: lines(outside("footer")),
  };

  const headings = Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6, [role='heading']"), (heading) => ({
    level: Number(heading.getAttribute("aria-level") ?? heading.tagName.slice(1)),
    text: accessibleName(heading),
    ...hidden(heading),
  }));

  const landmarkRoles = new Set(["banner", "complementary", "contentinfo", "form", "main", "navigation", "region", "search"]);
  const sectioning = "article, aside, main, nav, section";
  const implicitRole = (element: Element): string | null => {
    switch (element.tagName.toLowerCase()) {
      case "header":
        return element.parentElement?.closest(sectioning) ? null : "banner";
      case "footer":
        return element.parentElement?.closest(sectioning) ? null : "contentinfo";
      case "main":
        return "main";
      case "nav":
        return "navigation";
      case "aside":
        return "complementary";
      case "search":
        return "search";
      case "section":
        return labelOf(element) ? "region" : null;
      case "form":
        return labelOf(element) ? "form" : null;
      default:
        return null;
    }
  };
  const landmarks = Array.from(document.body.querySelectorAll("*"))
    .map((element) => ({ element, role: element.getAttribute("role") ?? implicitRole(element) }))
    .filter(({ role }) => role !== null && landmarkRoles.has(role))
    .map(({ element, role }) => ({
      role,
      name: labelOf(element),
      ...hidden(element),
    }));

  const links = Array.from(document.body.querySelectorAll("a[href], area[href]"), (link) => ({
    name: accessibleName(link),
    href: address(link.getAttribute("href")),
    ...optional("current", link.getAttribute("aria-current")),
    ...optional("target", link.getAttribute("target")),
    ...optional("rel", link.getAttribute("rel")),
    ...optional("download", link.getAttribute("download")),
    ...hidden(link),
  }));

  const buttons = Array.from(
    document.body.querySelectorAll(
      "button, input[type='button'], input[type='submit'], input[type='reset'], summary, [role='button']",
    ),
    (button) => {
      const form = (button as HTMLButtonElement).form ?? null;
      const type =
        button instanceof HTMLButtonElement || button instanceof HTMLInputElement
          ? button.type
          : button.tagName === "SUMMARY"
            ? "summary"
            : "role";
      return {
        name: accessibleName(button),
        type,
        ...(form && type === "submit" ? { form: formName(form) } : {}),
        ...optional("formmethod", button.getAttribute("formmethod")),
        ...(button.hasAttribute("disabled") ? { disabled: true } : {}),
        ...hidden(button),
      };
    },
  );

  const forms = Array.from(document.body.querySelectorAll("form"), (form) => ({
    name: formName(form),
    method: form.getAttribute("method") ?? "get",
    action: address(form.getAttribute("action")),
    ...hidden(form),
  }));

  const fields = Array.from(document.body.querySelectorAll("input, select, textarea"), (field) => {
    const control = field as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    const type = control instanceof HTMLInputElement ? control.type : control.tagName.toLowerCase();
    return {
      name: control.name,
      type,
      label: type === "hidden" ? null : accessibleName(control),
      ...(control.required ? { required: true } : {}),
      ...(control instanceof HTMLSelectElement
        ? { options: Array.from(control.options, (option) => collapse(option.textContent)) }
        : {}),
      ...hidden(control),
    };
  });

  const images = Array.from(document.body.querySelectorAll("img, [role='img']"), (image) => ({
    alt: image instanceof HTMLImageElement ? image.alt : accessibleName(image),
    ...(image instanceof HTMLImageElement ? { src: address(image.getAttribute("src")) } : {}),
    ...hidden(image),
  }));

  const withPlaceholder = (value: unknown): unknown => {
    if (typeof value === "string") return value.split(origin).join(placeholder);
    if (Array.isArray(value)) return value.map(withPlaceholder);
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withPlaceholder(item)]));
    return value;
  };
  const structuredData = Array.from(document.querySelectorAll('script[type="application/ld+json"]'), (script) =>
    withPlaceholder(JSON.parse(script.textContent ?? "null")),
  );

  return { head, landmarks, headings, text, links, buttons, forms, fields, images, structuredData };
}
