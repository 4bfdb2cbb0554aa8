import { afterAll, describe, expect, it } from "vitest";
import { findLead, insertLead, type CareerApplicationInput } from "~/features/leads/db/leads.server";
import { hiringContactsOf } from "~/features/leads/delivery/hiring-contacts.server";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";
import { addPosition } from "./support/position-rows";

// Who receives an application's email beside CAREERS_EMAIL_TO, on both engines: the hiring
// contacts of the position it is filed under, as the position names them when the email is sent.

const application: CareerApplicationInput = {
  first_name: "Ada",
  last_name: "Lovelace",
  email: "ada@example.com",
  phone: "",
  linkedin_profile: "",
  years_experience: 7,
  current_position: "",
  why_quorvant: "Engines.",
  biggest_achievement: "",
  work_style: "",
  resume_url: "",
  source_page: "/company/careers",
  utm_source: "",
  utm_medium: "",
  utm_campaign: "",
};

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`an application's hiring contacts on ${engine.name}`, () => {
    afterAll(() => engine.cleanup());
    it("emails an application filed under a position to its hiring contacts too, never an open application", async () => {
      const { db } = await migratedDatabase(engine);
      try {
        const contacts = ["lena@quorvant.example", "omar@quorvant.example"];
        const position = await addPosition(db, { title: "Account Executive", hiringContacts: [...contacts, "not an address, x@y.example"] });
        const filed = await insertLead(db, "career-application", { ...application, position_id: position, position_title: "Account Executive" });
        const kept = await insertLead(db, "career-application", { ...application, position_requested: `${position} (Account Executive)` });
        const contactsOf = async (id: string) => hiringContactsOf(db, "career_applications", (await findLead(db, "career_applications", id))!);
        expect(await contactsOf(filed)).toEqual(contacts);
        expect(await contactsOf(kept)).toEqual([]);
        expect(await hiringContactsOf(db, "demo_requests", { position_id: position })).toEqual([]);
      } finally {
        await db.destroy();
      }
    });
  });
}
