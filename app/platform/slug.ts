/** A slug made from a title: lowercase words joined by hyphens, at most `maxLength` characters. */
export function slugFromTitle(title: string, maxLength: number): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength)
    .replace(/-+$/, "");
}
