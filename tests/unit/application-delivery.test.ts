import { describe, expect, it } from "vitest";
import { emailHtml, emailSubject, emailText, positionLine, webhookBody } from "~/features/leads/delivery/messages.server";

// An application's email and webhook name its position: its title and id, or an open application
// (with what it asked for, when that position was not open).

const ID = "0d4f7a7e-52f4-4c39-9a38-0f5bbf5fb1d1";
const applicant = { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" };
const filed = { ...applicant, position_id: ID, position_title: "Security Researcher", position_requested: null };
const open = { ...applicant, position_id: null, position_title: null, position_requested: null };
const kept = { ...open, position_requested: `${ID} (Account Executive)` };

describe("an application's position in its delivery", () => {
  it("names the position, or an open application, at the top of the email and in its subject", () => {
    expect(positionLine("career-application", filed)).toBe(`Security Researcher (${ID})`);
    expect(positionLine("career-application", open)).toBe("Open application");
    expect(positionLine("career-application", kept)).toBe(
      `Open application (asked for ${ID} (Account Executive), which is not open)`,
    );
    expect(positionLine("request-demo", filed)).toBeUndefined();

    expect(emailSubject("career-application", filed)).toBe("Job application — Grace Hopper, Security Researcher");
    expect(emailSubject("career-application", kept)).toBe("Job application — Grace Hopper");
    expect(emailText("career-application", filed)).toContain(`from the website.\n\nPosition: Security Researcher (${ID})\n\n`);
    expect(emailText("career-application", filed)).toContain("Position title: Security Researcher\n");
    expect(emailText("career-application", open)).toContain("Position: Open application\n");
    expect(emailText("request-demo", { ...applicant, company: "Navy" })).not.toContain("Position:");
    expect(emailHtml("career-application", filed)).toContain(`<p><strong>Position:</strong> Security Researcher (${ID})</p>`);
  });

  it("keeps a title's markup and line breaks out of the email", () => {
    const hostile = { ...filed, position_title: "Lead <b>x</b>\r\nBcc: x@example.com" };
    expect(emailSubject("career-application", hostile)).not.toMatch(/[\r\n]/);
    expect(emailHtml("career-application", hostile)).toContain("Lead &lt;b&gt;x&lt;/b&gt; Bcc: x@example.com");
  });

  it("gives the webhook the position's id and title, null for an open application", () => {
    expect(JSON.parse(webhookBody("career-application", "career_applications", filed)).lead).toMatchObject({
      position_id: ID,
      position_title: "Security Researcher",
    });
    expect(JSON.parse(webhookBody("career-application", "career_applications", kept)).lead).toMatchObject({
      position_id: null,
      position_title: null,
      position_requested: `${ID} (Account Executive)`,
    });
  });
});
