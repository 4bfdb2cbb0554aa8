import { describe, expect, it } from "vitest";
import type { LeadSummary } from "~/features/leads/db/lead-inbox.server";
import { leadCsvColumns, leadsToCsv } from "~/features/leads/lead-csv.server";

// The inbox export: its columns per form, and a visitor's formula typed into a field arriving in a
// spreadsheet as text, never run.

const lead = (values: Partial<LeadSummary>): LeadSummary => ({
  id: "5b0c2f4e-1a57-4b1e-9d51-6f1f3f0e8a10",
  createdAt: "2026-03-01T10:00:00.000Z",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  company: "Analytical Engines",
  status: "new",
  ownerId: null,
  ownerEmail: "",
  campaign: "spring",
  firstCampaign: "launch",
  sourcePage: "/request-demo",
  cursor: { createdAt: "2026-03-01T10:00:00.000Z", id: "5b0c2f4e-1a57-4b1e-9d51-6f1f3f0e8a10" },
  ...values,
});

describe("lead export CSV", () => {
  it("writes the inbox's columns (the form page's campaign and the first visit's), without company for applications", () => {
    const [header, row] = leadsToCsv("demo_requests", [lead({})]).split("\r\n");
    expect(header).toBe(
      "id,created_at,first_name,last_name,email,company,status,owner,source_page,utm_campaign,first_utm_campaign",
    );
    expect(row).toBe(
      "5b0c2f4e-1a57-4b1e-9d51-6f1f3f0e8a10,2026-03-01T10:00:00.000Z,Ada,Lovelace,ada@example.com,Analytical Engines,new,,/request-demo,spring,launch",
    );
    expect(leadCsvColumns("career_applications")).not.toContain("company");
    expect(leadsToCsv("career_applications", [lead({})], { header: false })).toBe(
      "5b0c2f4e-1a57-4b1e-9d51-6f1f3f0e8a10,2026-03-01T10:00:00.000Z,Ada,Lovelace,ada@example.com,new,,/request-demo,spring,launch\r\n",
    );
  });

  it("neutralises every cell a spreadsheet would run as a formula", () => {
    const csv = leadsToCsv("sales_leads", [
      lead({
        company: '=HYPERLINK("http://x","y")',
        firstName: "+1+1",
        lastName: "-2",
        email: "@SUM(A1)",
        campaign: "\tx",
        firstCampaign: "\tx",
      }),
    ]);
    const row = csv.split("\r\n")[1]!;
    // The company arrives as the text it was, behind a single quote, quoted by the CSV rules.
    expect(row).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(row).toContain(",'+1+1,'-2,'@SUM(A1),");
    expect(row).toMatch(/,"?'\tx"?$/);
    // No cell of the row starts with a formula character.
    expect(row).not.toMatch(/(^|,)"?[=+\-@\t]/);
  });
});
