import { IntlMessageFormat } from "intl-messageformat";
import english from "~/features/i18n/catalogs/en.json" with { type: "json" };
import { FORM_TEXT_VALUES, type Translate } from "~/features/leads/forms/form-texts";
import { leadFormSchemas } from "~/features/leads/forms/form-schemas";

// The forms' schemas with English messages: the registry's (what the command-line tools and the
// privacy tools read of a form) and the tests'. The server answers a post with its page's language's
// (form-texts.server.ts); the browser builds its own from the page's texts (./form-schemas). Read
// straight from the English catalog, so the command-line tools need no bundler; never imported by
// the browser, which would then load the English catalog.

export * from "~/features/leads/forms/form-schemas";

const englishText: Translate = (key, values) =>
  String(new IntlMessageFormat((english as Record<string, string>)[key]!, "en").format({ ...FORM_TEXT_VALUES, ...values }));

const englishSchemas = leadFormSchemas(englishText);

export const contactSalesSchema = englishSchemas["contact-sales"];
export const demoRequestSchema = englishSchemas["request-demo"];
export const careerApplicationSchema = englishSchemas["career-application"];
