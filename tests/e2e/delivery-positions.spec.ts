import { uniqueCampaign } from "./forms-support";
import { withDatabase } from "./support/database";
import { expect, test } from "./support/fixtures";
import { startPrivateServer } from "./support/server";
import {
  CLEARTEXT_MAIL,
  FAST_DELIVERY,
  deliveryRows,
  postLead,
  startSmtpReceiver,
  waitUntil,
} from "./support/delivery-receivers";
import { positionRowValues } from "../data/support/position-rows";

// An application for a position with hiring contacts, sent by the built server to a real SMTP
// server: one email, to CAREERS_EMAIL_TO and the position's contacts, naming the position.

const CAREERS = ["jobs@quorvant.example"];
const CONTACTS = ["lena@quorvant.example", "JOBS@quorvant.example"];

test("an application for a position is emailed to its hiring contacts as well as the careers list, naming the position", async () => {
  const smtp = await startSmtpReceiver();
  const server = await startPrivateServer({
    SMTP_URL: smtp.url,
    ...CLEARTEXT_MAIL,
    MAIL_FROM: "Quorvant Website <website@quorvant.example>",
    CAREERS_EMAIL_TO: CAREERS.join(","),
    ...FAST_DELIVERY,
  });
  try {
    const position = positionRowValues({ title: "Security Researcher", hiringContacts: CONTACTS });
    const columns = Object.keys(position);
    withDatabase(server.databasePath, (db) =>
      db
        .prepare(
          `insert into content_documents (${columns.join(", ")}) values (${columns.map((column) => `@${column}`).join(", ")})`,
        )
        .run(position),
    );
    const campaign = uniqueCampaign("mail-position");
    const fields = {
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      why_quorvant: "Compilers.",
      position: position.id,
    };
    expect((await postLead(server.url, "career-application", fields, campaign)).status).toBe(200);
    await waitUntil(
      async () =>
        (await deliveryRows(`file:${server.databasePath}`)).every((row) => row.status === "sent") && smtp.emails.length === 1,
      15_000,
      () => `no email sent:\n${server.output()}`,
    );
    const [email] = smtp.emails;
    // The careers list and each contact once (an address given twice, in another case, gets one copy).
    expect(email!.envelope.to.map((address) => address.toLowerCase()).sort()).toEqual([
      "jobs@quorvant.example",
      "lena@quorvant.example",
    ]);
    expect(email!.mail.subject).toBe("Job application — Grace Hopper, Security Researcher");
    expect(email!.mail.text).toContain(`Position: Security Researcher (${position.id})`);
  } finally {
    await server.stop();
    await smtp.close();
  }
});
