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
  positionId: null,
  positionTitle: null,
  positionRequested: null,
  locale: "en",
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
      "5b0c2f4e-1a57-4b1e-9d51-6f1f3f0e8a10,2026-03-01T10:00:00.000Z,Ada,Lovelace,ada@example.com,new,,/request-demo,spring,launch,,,\r\n",
    );
  });

  it("ends an application's row with its position: id and title, or for an open application what it asked for", () => {
    const [header, filed, kept] = leadsToCsv("career_applications", [
      lead({ positionId: "0d4f7a7e-52f4-4c39-9a38-0f5bbf5fb1d1", positionTitle: "Security Researcher" }),
      lead({ positionRequested: "0d4f7a7e-52f4-4c39-9a38-0f5bbf5fb1d1 (Security Researcher)" }),
    ]).split("\r\n");
    expect(header).toBe(
      "id,created_at,first_name,last_name,email,status,owner,source_page,utm_campaign,first_utm_campaign,position_id,position_title,position_requested",
    );
    expect(filed).toMatch(/,launch,0d4f7a7e-52f4-4c39-9a38-0f5bbf5fb1d1,Security Researcher,$/);
    expect(kept).toMatch(/,launch,,,0d4f7a7e-52f4-4c39-9a38-0f5bbf5fb1d1 \(Security Researcher\)$/);
    expect(leadCsvColumns("demo_requests")).not.toContain("position_id");
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
