import { HtmlValidate } from "html-validate";
import { test, expect, expectAccessible } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// An editor changes the footer's Company column in the browser: renames a link, moves it, adds an
// outside link. A link that is not https is refused next to its field with nothing saved; once
// fixed, the public pages show the new column and the audit log has the save. Its own server: the
// other specs expect the default menus.

const server = backOfficeServerForThisFile();
test.describe.configure({ timeout: 90_000 });

test("an editor edits the footer menu and every page shows it", async ({ browser }) => {
  const { page, email } = await signInAs(browser, server, ["editor"]);
  await page.goto(`${server.url}/admin/navigation`);
  await expect(page.getByRole("heading", { level: 1, name: "Navigation" })).toBeVisible();

  const footer = page.getByRole("form", { name: "Footer columns" });
  const company = footer.getByRole("group", { name: "Column 2: Company" });
  await company.getByLabel("Link 1 text").fill("About");
  // Moving keeps what was typed: the rename travels with the link.
  await company.getByRole("button", { name: "Move down link 1 in Column 2: Company" }).click();
  await expect(company.getByLabel("Link 2 text")).toHaveValue("About");
  await expect(company.getByLabel("Link 1 text")).toHaveValue("Careers");
  await expect(footer.getByText("Not saved yet")).toBeVisible();

  await company.getByRole("button", { name: "Add a link in Column 2: Company" }).click();
  await expect(company.getByLabel("Link 5 text")).toBeFocused();
  await company.getByLabel("Link 5 text").fill("Status");
  await company.getByLabel("Link 5 address").fill("http://status.quorvant.com");
  await footer.getByRole("button", { name: "Save footer columns" }).click();

  // Refused next to its field, the input kept, nothing stored.
  const address = company.getByLabel("Link 5 address");
  await expect(address).toHaveAttribute("aria-invalid", "true");
  await expect(address).toHaveAccessibleDescription("An outside link must be secure: start it with https://.");
  await expect(company.getByLabel("Link 2 text")).toHaveValue("About");
  expect(withDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) AS n FROM navigation_menus").get())).toEqual({
    n: 0,
  });
  await expectAccessible(page, "navigation editor with a refused field");

  await address.fill("https://status.quorvant.com");
  await footer.getByRole("button", { name: "Save footer columns" }).click();
  await expect(page.getByText("Footer columns saved")).toBeVisible();
  expect(auditActions(server, "actor_email = ?", email)).toContain("navigation.saved");

  // The public site: the new column, in its order, on a page rendered after the save.
  const visitor = await browser.newPage();
  await expect(async () => {
    await visitor.goto(`${server.url}/company/brand`);
    const column = visitor.getByRole("contentinfo").getByRole("navigation", { name: "Company" });
    await expect(column.getByRole("link")).toHaveText(["Careers", "About", "Brand", "Charter", "Status"], { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  await expect(visitor.getByRole("contentinfo").getByRole("link", { name: "Status" })).toHaveAttribute(
    "href",
    "https://status.quorvant.com",
  );
  // The editor and a page with the edited menus are valid HTML, as every public page is.
  const validator = new HtmlValidate({ extends: ["html-validate:standard"] });
  for (const [request, path] of [
    [page.context().request, "/admin/navigation"],
    [visitor.context().request, "/company/brand"],
  ] as const) {
    const report = await validator.validateString(await (await request.get(`${server.url}${path}`)).text(), path);
    expect(report.results.flatMap((result) => result.messages.map((message) => `${path}: ${message.message}`))).toEqual([]);
  }
  // The header's menus are still the default ones.
  await expect(visitor.getByRole("navigation", { name: "Main" }).getByText("Company")).toBeVisible();
  await visitor.close();
});
