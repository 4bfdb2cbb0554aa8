import { usePageLanguages } from "~/platform/page-languages";

/**
 * The other languages of the site, each by its own name, leading to this page in it or, when it
 * has none, to that language's home with a note saying so (in that language). Nothing on a site
 * in one language. The header's is a labelled list in its banner; the footer's its own navigation.
 */
export function LanguageSwitcher({ placement }: { placement: "header" | "footer" }) {
  const languages = usePageLanguages();
  if (!languages?.others.length) return null;
  const list = (
    <ul aria-label={placement === "header" ? languages.label : undefined} className="flex flex-wrap items-center gap-x-4 gap-y-1">
      {languages.others.map((other) => (
        <li key={other.tag}>
          {/* A whole page load: the frame, its texts and menus are the other language's. */}
          <a
            href={other.path}
            hrefLang={other.tag}
            lang={other.tag}
            title={placement === "header" ? other.missing : undefined}
            className={
              placement === "header"
                ? "inline-flex min-h-11 items-center rounded-md px-2 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
                : "inline-block py-1.5 hover:text-brand-700"
            }
          >
            {other.name}
            {other.missing ? (
              <span className={placement === "header" ? "sr-only" : "ml-2 text-xs"}>
                {placement === "header" ? ` (${other.missing})` : other.missing}
              </span>
            ) : null}
          </a>
        </li>
      ))}
    </ul>
  );
  if (placement === "header") return list;
  return (
    <nav aria-label={languages.label} className="text-sm text-muted">
      {list}
    </nav>
  );
}
