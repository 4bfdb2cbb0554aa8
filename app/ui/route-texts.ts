import { fillMessage } from "~/ui/shell-text";

// A route's own texts (the blog list's, the careers board's), sent by its loader in the page's
// language: in that route's data only, not in the frame's JavaScript.

/** Texts a route's loader sends its page (in every language, English too: so they are not in every page's JavaScript). */
export type Texts<K extends string> = Readonly<Record<K, string>>;

/** The message function of a route's texts. */
export function textsOf<K extends string>(texts: Texts<K> | undefined) {
  return (key: K, values?: Record<string, string | number>) => fillMessage(texts?.[key] ?? "", values);
}
