import { site } from "~/config/site";

// The words of the lead forms in the page's language. They are messages of the catalogs (keys
// `form.…`), put into words by the server and sent with the page's data (form-texts.server.ts):
// a page carries its own language's texts only, and the browser needs no message formatter.

export type FormTextValues = Record<string, string | number>;

/** A message of the catalogs in words: its key and the arguments it names beyond the site's own. */
export type Translate = (key: string, values?: FormTextValues) => string;

/** Messages in words, by key (and arguments, for a message that names some: see textId). */
export type FormTexts = Record<string, string>;

/** Arguments every form message may name without being given them: the company's and product's names. */
export const FORM_TEXT_VALUES = { company: site.company, product: site.product.name } as const;

/** Where a message with `values` is kept in FormTexts: "form.error.tooLong {"max":100}". */
export function textId(key: string, values?: FormTextValues): string {
  return values ? `${key} ${JSON.stringify(values)}` : key;
}

/** The page's messages as a Translate; a message the server did not send shows its key (the tests make sure none is missing). */
export function translatorOf(texts: FormTexts): Translate {
  return (key, values) => texts[textId(key, values)] ?? key;
}
