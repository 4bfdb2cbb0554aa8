import { Link } from "react-router";
import { site, type NavGroup, type NavLink } from "~/config/site";
import { Logo } from "~/ui/logo";
import { Icon } from "~/ui/icon";
import { LanguageSwitcher } from "~/ui/language-switcher";
import { useShellText } from "~/ui/shell-text";

export function Footer({ columns, shortLinks }: { columns: NavGroup[]; shortLinks: NavLink[] }) {
  const { t } = useShellText();
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <div className="grid gap-10 lg:grid-cols-[1.4fr_repeat(4,1fr)]">
          <div>
            <Logo />
            <p className="mt-4 max-w-xs text-sm text-muted">{t("footer.tagline")}</p>
            <ul className="mt-6 flex gap-3" aria-label={t("footer.social")}>
              {site.social.map((link) => {
                return (
                  <li key={link.name}>
                    <a
                      href={link.href}
                      target="_blank"
                      rel="noopener noreferrer"
                      aria-label={t("footer.socialLink", { company: site.company, network: link.name })}
                      className="flex size-11 items-center justify-center rounded-full text-slate-600 hover:bg-white hover:text-brand-700"
                    >
                      <Icon name={link.icon} className="size-5" />
                    </a>
                  </li>
                );
              })}
            </ul>
          </div>
          {columns.map((column) => (
            <nav key={column.id} aria-labelledby={`footer-${column.id}`}>
              <h2 id={`footer-${column.id}`} className="text-sm font-semibold">
                {column.label}
              </h2>
              <ul className="mt-3 space-y-1">
                {column.links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to} className="inline-block py-1.5 text-sm text-muted hover:text-brand-700">
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="mt-10 flex flex-col gap-3 border-t border-slate-200 pt-6 text-sm text-muted sm:flex-row sm:items-center sm:justify-between">
          <p>{t("footer.copyright")}</p>
          <ul className="flex gap-4" aria-label={t("footer.legal")}>
            {shortLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="inline-block py-1.5 hover:text-brand-700">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <LanguageSwitcher placement="footer" />
        </div>
      </div>
    </footer>
  );
}
