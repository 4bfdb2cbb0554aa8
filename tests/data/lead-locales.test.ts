import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { listLeadInbox } from "~/features/leads/db/lead-inbox.server";
import { findLead, insertLead } from "~/features/leads/db/leads.server";
import { emailText, webhookBody } from "~/features/leads/delivery/messages.server";
import { leadDesks } from "~/features/leads/desks";
import { readInboxQuery } from "~/features/leads/inbox-query.server";
import { parseSiteLocales } from "~/features/i18n/site-locales";
import { engines } from "./support/engines";
import { demo } from "./support/fixtures";
import { migratedDatabase } from "./support/migrated-database";

// A lead's language on both engines: stored with the lead (English when none is named), carried by
// its email and its webhook, and the sales desk filtered by it; a language the site does not have
// is named beside its field and filters nothing.

const read = parseSiteLocales("en,de");
if (!read.ok) throw new Error(read.problem);
const LOCALES = read.locales;

const demoFrom = (email: string) => ({ ...demo, email });

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`a lead's language on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());

    it("is stored, carried by the email and the webhook, and filters the desk", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        const at = (createdAt: string) => ({ id: randomUUID(), createdAt });
        const english = await insertLead(db, "request-demo", demoFrom("ada@example.com"), [], at("2026-03-01T10:00:00.000Z"));
        const german = await insertLead(
          db,
          "request-demo",
          { ...demoFrom("hedy@example.de"), source_page: "/de/demo-anfordern", locale: "de" },
          [],
          at("2026-03-02T10:00:00.000Z"),
        );

        const record = (await findLead(db, "demo_requests", german))!;
        expect(record.locale).toBe("de");
        expect(Object.keys(record).at(-1)).toBe("locale");
        expect(emailText("request-demo", record)).toContain("\nLocale: de\n");
        expect(JSON.parse(webhookBody("request-demo", "demo_requests", record)).lead).toMatchObject({ locale: "de" });
        expect((await findLead(db, "demo_requests", english))!.locale).toBe("en");

        const query = (search: string) =>
          readInboxQuery(leadDesks.leads, new URL(`https://x.example/admin/leads?form=request-demo&${search}`), LOCALES);
        const germanView = query("locale=DE");
        expect(germanView).toMatchObject({ filter: { locale: "de" }, values: { locale: "de" }, problems: {} });
        const page = await listLeadInbox(db, "demo_requests", germanView.filter, { limit: 10 });
        expect(page.leads.map((lead) => [lead.id, lead.locale])).toEqual([[german, "de"]]);
        const all = await listLeadInbox(db, "demo_requests", query("").filter, { limit: 10 });
        expect(all.leads.map((lead) => lead.locale)).toEqual(["de", "en"]);

        // Hostile or unknown: named beside the field, no filter.
        for (const bad of ["fr", "de' or 1=1", "en%00"]) {
          const refused = query(`locale=${encodeURIComponent(bad)}`);
          expect(refused.problems.locale, bad).toBe("Choose a language from the list.");
          expect(refused.filter.locale, bad).toBeUndefined();
          expect(refused.values.locale, bad).toBe("");
        }
      } finally {
        await db.destroy();
      }
    });
  });
}
