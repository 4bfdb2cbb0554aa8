import type { Locator, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "../e2e/support/fixtures";
import { field, uniqueCampaign, type LeadTable } from "../e2e/forms-support";
import { useTopology } from "./support/topology";

// Each lead form, through nginx (https) to either of two servers, with and without JavaScript:
// exactly one row per submission in PostgreSQL, tracked with the page's path and utm values.

type LeadForm = {
  name: string;
  /** The page, query string to follow (the careers page opens its application with ?apply=1). */
  page: string;
  table: LeadTable;
  /** The careers form is in a dialog (a modal once hydrated); the others are on the page. */
  inDialog: boolean;
  /** Label → value for the required fields (and an email to find the row by). */
  values: (email: string) => Record<string, string>;
  submit: string;
  success: string;
  sourcePage: string;
};

const dialogOf = (page: Page) => page.getByRole("dialog", { name: "Join Our Team" });

const forms: LeadForm[] = [
  {
    name: "contact sales",
    page: "/contact-sales?",
    table: "sales_leads",
    inDialog: false,
    values: (email) => ({ "First Name": "Ada", "Business Email": email }),
    submit: "Send Message",
    success: "Message Sent",
    sourcePage: "/contact-sales",
  },
  {
    name: "request demo",
    page: "/request-demo?",
    table: "demo_requests",
    inDialog: false,
    values: (email) => ({ "First Name": "Grace", "Last Name": "Hopper", "Business Email": email, Company: "Navy Compilers" }),
    submit: "Schedule Demo",
    success: "Demo Request Submitted",
    sourcePage: "/request-demo",
  },
  {
    name: "careers application",
    page: "/company/careers?apply=1&",
    table: "career_applications",
    inDialog: true,
    values: (email) => ({
      "First Name": "Margaret",
      "Last Name": "Hamilton",
      Email: email,
      "Why do you want to work at Quorvant?": "Reliable software.",
    }),
    submit: "Submit Application",
    success: "Application Submitted",
    sourcePage: "/company/careers",
  },
];

test.describe("lead forms through the proxy", () => {
  // One worker keeps one topology for the group; a failure does not skip the other forms.
  test.describe.configure({ mode: "default" });
  // Six posts from one client address (everything arrives from nginx): well under the limit.
  const topology = useTopology({ FORM_RATE_LIMIT: "100" });

  for (const javaScript of [true, false]) {
    test.describe(javaScript ? "with JavaScript" : "without JavaScript", () => {
      test.use({ javaScriptEnabled: javaScript });

      for (const form of forms) {
        test(`${form.name} stores exactly one row with its source page and utm values`, async ({ page }) => {
          const { url, leadRows } = topology();
          const campaign = uniqueCampaign(`topology-${form.table}`);
          const medium = javaScript ? "js" : "nojs";
          const email = `${campaign}@example.com`;
          await page.goto(`${url}${form.page}utm_source=topology&utm_medium=${medium}&utm_campaign=${campaign}`);
          const scope: Page | Locator = form.inDialog ? dialogOf(page) : page;
          if (javaScript) {
            await waitForHydration(page);
            // The dialog opens as a modal once hydrated; filling it before would race that.
            if (form.inDialog)
              await expect.poll(() => dialogOf(page).evaluate((element) => element.matches(":modal"))).toBe(true);
          }
          for (const [label, value] of Object.entries(form.values(email))) await field(scope, label).fill(value);
          await scope.getByRole("button", { name: form.submit }).click();

          await expect(page.getByRole("status").filter({ hasText: form.success })).toBeVisible();
          const rows = await leadRows(form.table, campaign);
          expect(rows).toHaveLength(1);
          expect(rows[0]).toMatchObject({
            email,
            source_page: form.sourcePage,
            utm_source: "topology",
            utm_medium: medium,
            utm_campaign: campaign,
          });
        });
      }
    });
  }
});
