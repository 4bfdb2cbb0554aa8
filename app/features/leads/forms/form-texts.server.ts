import { parse } from "@formatjs/icu-messageformat-parser";
import { data } from "react-router";
import { getEnv } from "~/env.server";
import { argumentsOf } from "~/features/i18n/catalog-check";
import { catalogMessage, CATALOGS, SOURCE_LOCALE } from "~/features/i18n/messages.server";
import { localizedPath, localizedRouteOf } from "~/features/i18n/route-paths.server";
import { localeOfPath, type SiteLocale } from "~/features/i18n/site-locales";
import { leadFormSchemas, type LeadFormSchemas } from "~/features/leads/forms/form-schemas";
import { FORM_TEXT_VALUES, textId, type FormTexts, type Translate } from "~/features/leads/forms/form-texts";
import type { ApplicationPosition } from "~/features/leads/components/career-application";
import { companySizeChoices } from "~/features/leads/lead-forms";
import type { LeadFormId } from "~/features/leads/registry";

// The lead forms' words in a language, on the server: the schema a post is checked with (so a
// German post is refused in German) and the texts a form's page sends to the browser (its labels,
// options, buttons and the browser's own validation messages), its language's only.

/** The message `key` in `locale`, the site's names filled in. */
export function translateIn(locale: string): Translate {
  return (key, values) => catalogMessage(locale, key, { ...FORM_TEXT_VALUES, ...values });
}

const schemas = new Map<string, LeadFormSchemas>();

/** The form's schema with its messages in `locale`. */
export function leadFormSchemaIn<F extends LeadFormId>(locale: string, form: F): LeadFormSchemas[F] {
  let made = schemas.get(locale);
  if (!made) schemas.set(locale, (made = leadFormSchemas(translateIn(locale))));
  return made[form];
}

/**
 * The language of a form's page at `url`: its address's (/de/demo-anfordern is German). An address
 * in a language the site is not published in (SITE_LOCALES) is not found, whether loaded or posted to.
 */
export function formPageLocale(url: URL, locales: readonly SiteLocale[] = getEnv().SITE_LOCALES): SiteLocale {
  const route = localizedRouteOf(url.pathname, locales);
  if (!route) throw data(null, { status: 404, statusText: "Not Found" });
  return route.locale;
}

const groups: Record<LeadFormId, string> = {
  "contact-sales": "form.contactSales.",
  "request-demo": "form.requestDemo.",
  "career-application": "form.careerApplication.",
};

const plain = new Map<string, string[]>();

/** The source catalog's keys under `prefix` whose messages name no argument but the site's names. */
function plainKeys(prefix: string): string[] {
  let keys = plain.get(prefix);
  if (!keys) {
    const source = CATALOGS.get(SOURCE_LOCALE) ?? {};
    keys = Object.keys(source).filter(
      (key) => key.startsWith(prefix) && [...argumentsOf(parse(source[key]!))].every((name) => name in FORM_TEXT_VALUES),
    );
    plain.set(prefix, keys);
  }
  return keys;
}

/**
 * What a form's page sends the browser: every message of its form and the forms' common ones in
 * `locale`, its validation messages with their arguments (limits), its options, and for an
 * application the position it names.
 */
export function formTextsIn(locale: string, form: LeadFormId, { position }: { position?: ApplicationPosition } = {}): FormTexts {
  const translate = translateIn(locale);
  const texts: FormTexts = {};
  const t: Translate = (key, values) => (texts[textId(key, values)] = translate(key, values));
  for (const key of [...plainKeys("form.common."), ...plainKeys(groups[form])]) t(key);
  // The schemas ask for each of their messages, with the arguments they give them.
  leadFormSchemas(t);
  if (form === "request-demo") companySizeChoices(t);
  if (form === "career-application" && position?.title) {
    t("form.careerApplication.applyFor", { title: position.title });
    t("form.careerApplication.positionClosedNamed", { title: position.title });
  }
  return texts;
}

/**
 * The data of the contact or demo page at the request's address, in its language: the form's texts,
 * the page's title, description and address, and the contact page's address (the demo page links it).
 */
export function leadFormPageData(request: Request, form: "contact-sales" | "request-demo") {
  const locale = formPageLocale(new URL(request.url));
  const name = form === "contact-sales" ? "contactSales" : "requestDemo";
  const t = translateIn(locale.tag);
  return {
    texts: formTextsIn(locale.tag, form),
    meta: {
      title: t(`form.${name}.metaTitle`),
      description: t(`form.${name}.metaDescription`),
      path: localizedPath(name, locale),
    },
    contactSalesPath: localizedPath("contactSales", locale),
  };
}

/** The application form's texts for the page at the request's address (the careers page, a position's page), in its language. */
export function applicationTexts(request: Request, position?: ApplicationPosition | null): FormTexts {
  const locale = localeOfPath(new URL(request.url).pathname, getEnv().SITE_LOCALES);
  return formTextsIn(locale.tag, "career-application", { position: position ?? undefined });
}
