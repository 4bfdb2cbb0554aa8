import { HtmlValidate } from "html-validate";
import { expect, test } from "./support/fixtures";

// Every public page as the server sends it is valid HTML: html-validate's standard rules
// (nesting, duplicate ids, unknown or misplaced elements and attributes, broken references
// between labels, ids and ARIA attributes). Its style rules are left out: React writes void
// elements as <meta/> and attributes such as dateTime in its own case, which browsers read the same.

const validator = new HtmlValidate({ extends: ["html-validate:standard"] });

/** Pages the sitemap does not list: the forms' own addresses with a campaign, a 404, a back-office page. */
const MORE_PAGES = ["/contact-sales?utm_source=validity", "/company/careers?apply=1", "/no-such-page", "/admin/sign-in"];

test("every page in the sitemap, the form pages, a 404 and the sign-in page are valid HTML", async ({ request }) => {
  test.setTimeout(120_000);
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1]!).pathname);
  expect(listed.length).toBeGreaterThan(10);
  const problems: string[] = [];
  for (const path of [...new Set(listed), ...MORE_PAGES]) {
    const html = await (await request.get(path)).text();
    const report = await validator.validateString(html, path);
    for (const message of report.results.flatMap((result) => result.messages)) {
      problems.push(
        `${path}: ${message.ruleId} ${message.message} (${html.slice(Math.max(0, message.offset - 60), message.offset + 60)})`,
      );
    }
  }
  expect(problems).toEqual([]);
});
