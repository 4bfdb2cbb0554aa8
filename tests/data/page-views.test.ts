import type { Kysely } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { addPageViews, type PageViewKey } from "~/features/visits/db/page-views.server";
import type { Database } from "~/db/schema";
import { PageViewCounter } from "~/features/visits/page-view-counter.server";
import { campaignReport, reportPeriodFrom, weekOf } from "~/features/visits/campaign-report.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// Page views added by several servers to one day's totals, and the report sales reads from them
// with the leads: per week, per source and campaign, on both engines.

const OWN = "www.quorvant.example";
const key = (overrides: Partial<PageViewKey> = {}): PageViewKey => ({
  day: "2026-03-02",
  path: "/",
  referrer_host: "",
  utm_source: "",
  utm_medium: "",
  utm_campaign: "",
  utm_term: "",
  utm_content: "",
  ...overrides,
});

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`page views on ${engine.name}`, () => {
    let db: Kysely<Database>;
    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine));
    });
    afterEach(async () => {
      await db.destroy();
    });
    afterAll(() => engine.cleanup());

    it("adds, never replaces: two servers flushing the same keys both count", async () => {
      const first = new PageViewCounter();
      const second = new PageViewCounter();
      for (let i = 0; i < 3; i += 1) first.record(key());
      first.record(key({ utm_source: "linkedin", utm_campaign: "q3" }));
      for (let i = 0; i < 2; i += 1) second.record(key());
      await Promise.all([first.flush(db), second.flush(db)]);
      await first.flush(db); // nothing left: adds nothing
      const rows = await db.selectFrom("page_views").selectAll().orderBy("utm_source").execute();
      expect(rows.map((row) => [row.utm_source, Number(row.views)])).toEqual([
        ["", 5],
        ["linkedin", 1],
      ]);
    });

    it("reports visits (arrivals, not views from the site's own pages) and leads per week, source and campaign", async () => {
      await addPageViews(db, [
        { key: key({ day: "2026-03-02", utm_source: "linkedin", utm_campaign: "q3" }), views: 40 },
        { key: key({ day: "2026-03-03", referrer_host: "news.example.com" }), views: 10 },
        { key: key({ day: "2026-03-09" }), views: 5 },
        { key: key({ day: "2026-03-09", referrer_host: OWN, path: "/request-demo" }), views: 100 },
      ]);
      const lead = (table: "sales_leads" | "demo_requests" | "career_applications", created: string, extra: object) =>
        db
          .insertInto(table)
          .values({ email: "a@b.example", created_at: created, ...extra } as never)
          .execute();
      // A lead counts under its visit's first touch, whatever its form page's own address said.
      await lead("demo_requests", "2026-03-03T10:00:00.000Z", {
        first_utm_source: "linkedin",
        first_utm_campaign: "q3",
        status: "won",
      });
      await lead("demo_requests", "2026-03-04T10:00:00.000Z", {
        first_utm_source: "linkedin",
        first_utm_campaign: "q3",
        utm_source: "ad",
        utm_campaign: "form-page",
      });
      await lead("sales_leads", "2026-03-10T23:59:59.000Z", { referrer_host: "news.example.com" });
      await lead("career_applications", "2026-03-09T00:00:00.000Z", {});
      await lead("sales_leads", "2026-03-16T00:00:00.000Z", {}); // after the period

      const report = await campaignReport(db, { from: "2026-03-02", to: "2026-03-15" }, OWN);
      expect(report.weeks).toEqual([
        { week: "2026-03-02", visits: 50, leads: { "contact-sales": 0, "request-demo": 2, "career-application": 0 } },
        { week: "2026-03-09", visits: 5, leads: { "contact-sales": 1, "request-demo": 0, "career-application": 1 } },
      ]);
      expect(report.campaigns).toEqual([
        { source: "linkedin", campaign: "q3", visits: 40, leads: 2, won: 1 },
        { source: "news.example.com", campaign: "", visits: 10, leads: 1, won: 0 },
        { source: "direct", campaign: "", visits: 5, leads: 0, won: 0 },
      ]);
    });
  });
}

describe("the report's period", () => {
  it("defaults to twelve weeks ending today and says what is wrong with a bad one", () => {
    const today = new Date("2026-03-12T08:00:00Z");
    expect(weekOf("2026-03-15")).toBe("2026-03-09");
    expect(reportPeriodFrom(new URL("https://x/admin"), today)).toEqual({ period: { from: "2025-12-22", to: "2026-03-12" } });
    expect(reportPeriodFrom(new URL("https://x/admin?from=2026-01-01&to=2026-02-01"), today)).toEqual({
      period: { from: "2026-01-01", to: "2026-02-01" },
    });
    expect(reportPeriodFrom(new URL("https://x/admin?from=2026-02-30&to=2026-03-01"), today).problem).toMatch(/YYYY-MM-DD/);
    expect(reportPeriodFrom(new URL("https://x/admin?from=2026-03-01&to=2026-01-01"), today).problem).toMatch(/start before/);
    expect(reportPeriodFrom(new URL("https://x/admin?from=2020-01-01&to=2026-01-01"), today).problem).toMatch(/two years/);
  });
});
