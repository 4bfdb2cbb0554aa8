import { describe, expect, it } from "vitest";
import { parseSiteLocales } from "~/features/i18n/site-locales";
import { leadFormSchemas } from "~/features/leads/forms/form-schemas";
import { textId, translatorOf, type Translate } from "~/features/leads/forms/form-texts";
import { applicationTexts, formPageLocale, formTextsIn, leadFormSchemaIn } from "~/features/leads/forms/form-texts.server";
import { submitForm } from "~/features/leads/forms/submit.server";
import { companySizeChoices, contactReasons, demoExpectations, workStyleChoices } from "~/features/leads/lead-forms";
import { LEAD_FORM_IDS } from "~/features/leads/registry";
import type { FormActionData } from "~/features/leads/forms/outcomes";

// The lead forms in the page's language: the server refuses a German post in German, a form's page
// sends the browser every message its form shows (its language's only), so the browser's own
// checks speak it too, and a form's address in a language the site is not published in is not found.

process.env.SITE_LOCALES = "en,de";

const locales = (text: string) => {
  const read = parseSiteLocales(text);
  if (!read.ok) throw new Error(read.problem);
  return read.locales;
};

/** A Translate over the page's texts that notes every message the server did not send. */
function recording(texts: Record<string, string>) {
  const missing: string[] = [];
  const translate = translatorOf(texts);
  const t: Translate = (key, values) => {
    if (!(textId(key, values) in texts)) missing.push(textId(key, values));
    return translate(key, values);
  };
  return { t, missing };
}

async function post(path: string, fields: Record<string, string>) {
  const request = new Request(`http://site.example${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  const context = { formLimit: { allowed: true }, clientIp: "192.0.2.1", requestId: "test" } as never;
  const response = (await submitForm("request-demo", { request, context })) as unknown as {
    data: FormActionData;
    init: ResponseInit;
  };
  return { status: response.init.status, data: response.data };
}

describe("the lead forms in the page's language", () => {
  it("a German post with a bad email is refused in German, an English one in English", async () => {
    const fields = { first_name: "Hedy", last_name: "Lamarr", email: "hedy@localhost", company: "Acme" };
    const german = await post("/de/demo-anfordern", fields);
    expect(german.status).toBe(400);
    expect(german.data.result?.error).toEqual({ email: ["Bitte geben Sie eine gültige E-Mail-Adresse ein."] });
    expect(german.data.outcome).toEqual({
      kind: "failure",
      title: "Fehler",
      description: expect.stringContaining("markierten Felder"),
    });
    const english = await post("/request-demo", fields);
    expect(english.data.result?.error).toEqual({ email: ["Please enter a valid email address."] });
    expect(english.data.outcome.description).toBe("Please correct the highlighted fields and try again.");
  });

  it("the German schemas refuse in German, with German numbers", () => {
    const demo = leadFormSchemaIn("de", "request-demo").safeParse({
      first_name: "",
      last_name: "x",
      email: "x@example.com",
      company: "x",
    });
    expect(demo.error?.issues.map((issue) => issue.message)).toEqual(["Bitte geben Sie Ihren Vornamen ein."]);
    const long = leadFormSchemaIn("de", "career-application").safeParse({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      why_quorvant: "x".repeat(5001),
    });
    expect(long.error?.issues.map((issue) => issue.message)).toEqual(["Bitte bleiben Sie unter 5.000 Zeichen."]);
    expect(
      leadFormSchemaIn("en", "career-application").safeParse({ first_name: "A", last_name: "L", email: "a@example.com" }).error
        ?.issues[0]?.message,
    ).toBe("Please tell us why you want to work at Quorvant.");
  });

  it("a form's page sends every message its form shows, in its language only", () => {
    for (const locale of ["en", "de"]) {
      for (const form of LEAD_FORM_IDS) {
        const texts =
          form === "career-application"
            ? applicationTexts(new Request(`http://x${locale === "de" ? "/de" : ""}/x`), {
                id: "p",
                title: "Engineer",
                open: true,
              })
            : formTextsIn(locale, form);
        const { t, missing } = recording(texts);
        // The browser's schema: exactly the server's messages.
        const browser = leadFormSchemas(t)[form].safeParse({ email: "nope", years_experience: 81 });
        const server = leadFormSchemaIn(locale, form).safeParse({ email: "nope", years_experience: 81 });
        expect(browser.error?.issues.map((issue) => issue.message)).toEqual(server.error?.issues.map((issue) => issue.message));
        if (form === "request-demo") {
          companySizeChoices(t);
          demoExpectations(t);
        }
        if (form === "contact-sales") contactReasons(t);
        if (form === "career-application") {
          workStyleChoices(t);
          t("form.careerApplication.applyFor", { title: "Engineer" });
        }
        expect(missing, `${locale} ${form}`).toEqual([]);
      }
    }
    const german = formTextsIn("de", "request-demo");
    expect(german["form.common.firstName"]).toBe("Vorname");
    expect(german[textId("form.requestDemo.companySizeOption", { size: "51-200" })]).toBe("51-200 Beschäftigte");
    expect(Object.values(german)).not.toContain("First Name");
    // Another form's words stay on their page.
    expect(Object.keys(german).some((key) => key.startsWith("form.careerApplication."))).toBe(false);
    // English exactly as before.
    const english = translatorOf(formTextsIn("en", "request-demo"));
    expect(companySizeChoices(english).map((choice) => choice.label)).toEqual([
      "Select company size",
      "1-10 employees",
      "11-50 employees",
      "51-200 employees",
      "201-500 employees",
      "500+ employees",
    ]);
  });

  it("a form's address in a language the site is not published in is not found", () => {
    const both = locales("en,de");
    expect(formPageLocale(new URL("http://x/de/demo-anfordern"), both)).toEqual({ tag: "de", prefix: "/de" });
    expect(formPageLocale(new URL("http://x/request-demo"), both)).toEqual({ tag: "en", prefix: "" });
    expect(formPageLocale(new URL("http://x/de/unternehmen/karriere/engineer"), both).tag).toBe("de");
    let thrown: unknown;
    try {
      formPageLocale(new URL("http://x/de/demo-anfordern"), locales("en"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ init: { status: 404 } });
  });
});

describe("the forms' code", () => {
  it("names only messages the catalogs have", async () => {
    const { readFileSync } = await import("node:fs");
    const { CATALOGS } = await import("~/features/i18n/messages.server");
    const english = CATALOGS.get("en")!;
    const files = [
      "app/features/leads/components/business-contact-fields.tsx",
      "app/features/leads/components/career-application.tsx",
      "app/features/leads/components/field.tsx",
      "app/features/leads/components/toast.tsx",
      "app/features/leads/routes/contact-sales.tsx",
      "app/features/leads/routes/request-demo.tsx",
      "app/features/leads/lead-forms.ts",
      "app/features/leads/forms/form-schemas.ts",
    ];
    const keys = files.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\bt\("(form\.[^"]+)"/g)].map((match) => match[1]!),
    );
    expect(keys.length).toBeGreaterThan(40);
    expect(keys.filter((key) => !(key in english))).toEqual([]);
  });
});

describe("a form page in another language", () => {
  it("reads the query parameters of its English address", async () => {
    const { sourcePathOf } = await import("~/features/i18n/route-paths");
    const { keptQuery } = await import("~/features/site/query-params");
    expect(sourcePathOf("/de/demo-anfordern", "route-requestDemo.de")).toBe("/request-demo");
    expect(sourcePathOf("/de/unternehmen/karriere", "route-careers.de")).toBe("/company/careers");
    expect(sourcePathOf("/de/unternehmen/karriere/engineer", "route-careers/:slug.de")).toBe("/company/careers/engineer");
    expect(sourcePathOf("/request-demo", "features/leads/routes/request-demo")).toBeUndefined();
    expect(keptQuery(sourcePathOf("/de/demo-anfordern", "route-requestDemo.de")!, "?utm_source=x&x=1")).toBe("?utm_source=x");
  });
});
