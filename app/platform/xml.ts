/**
 * Everything outside XML 1.0's Char production (tab, line feed, carriage return, U+0020–U+D7FF,
 * U+E000–U+FFFD, U+10000–U+10FFFF): the other C0 controls, U+FFFE, U+FFFF and lone surrogates.
 * No escape can represent them (`&#1;` is not well-formed either), so they are dropped.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** `text` without the characters no XML 1.0 document may hold (for libraries that escape the rest). */
export function withoutXmlForbidden(text: string): string {
  return text.replace(NOT_XML_CHAR, "");
}

/**
 * Escapes text for XML element content and attribute values. Database text is untrusted: characters
 * XML 1.0 forbids are removed first, so one bad row cannot make the whole feed or sitemap unreadable.
 */
export function escapeXml(text: string): string {
  return withoutXmlForbidden(text).replace(
    /[<>&'"]/g,
    (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[char]!,
  );
}
