import { useEffect, useRef } from "react";
import { Link, NavLink, useLocation } from "react-router";
import type { NavGroup, NavLink as NavLinkType } from "~/config/site";
import { Logo } from "~/ui/logo";
import { ButtonLink } from "~/ui/button";
import { LanguageSwitcher } from "~/ui/language-switcher";
import { Icon } from "~/ui/icon";
import { useShellText, type ShellText } from "~/ui/shell-text";

/**
 * Menus are native <details>: they open on click, Enter and Space, and reach every link with
 * JavaScript off. Sharing a `name` makes them exclusive (one open at a time). The effect below
 * adds what the platform lacks: Escape and an outside click close them, and navigating closes all.
 */
export function Header({ menus }: { menus: NavGroup[] }) {
  const headerRef = useRef<HTMLElement>(null);
  const location = useLocation();
  const text = useShellText();
  const { t } = text;
  const communityLink = { label: t("header.community"), to: text.links.community };
  const contactSalesLink = { label: t("header.contactSales"), to: text.links.contactSales };

  useEffect(() => {
    const header = headerRef.current;
    if (!header) return;
    const openDetails = () => Array.from(header.querySelectorAll<HTMLDetailsElement>("details[open]"));
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const open = openDetails();
      if (open.length === 0) return;
      // Return focus to the summary of the innermost open menu so the keyboard user keeps their place.
      const innermost = open[open.length - 1];
      open.forEach((details) => details.removeAttribute("open"));
      innermost?.querySelector("summary")?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      for (const details of openDetails()) {
        if (!details.contains(event.target as Node)) details.removeAttribute("open");
      }
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, []);

  // Following any link (Contact Sales included) closes the menus and the mobile panel. Not on the
  // first render: a menu the visitor opened before the page hydrated stays open.
  const locationShown = useRef(location.key);
  useEffect(() => {
    if (locationShown.current === location.key) return;
    locationShown.current = location.key;
    headerRef.current?.querySelectorAll("details[open]").forEach((details) => details.removeAttribute("open"));
  }, [location.key]);

  return (
    <header ref={headerRef} className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <a href="#main" className="sr-only-focusable absolute top-2 left-4 z-50 rounded bg-white px-3 py-2 font-semibold">
        {t("skipLink")}
      </a>
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label={t("header.mainNav")} className="hidden md:block">
          <ul className="flex items-center gap-1">
            {menus.map((group) => (
              <li key={group.id} className="relative">
                <details name="header-menu" className="group">
                  <summary className="flex cursor-pointer items-center gap-1 rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600">
                    {group.label}
                    <Icon name="chevron-down" className="size-4 group-open:rotate-180 motion-safe:transition-transform" />
                  </summary>
                  <ul className="absolute top-full left-0 mt-2 min-w-48 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
                    {group.links.map((link) => (
                      <li key={link.to}>
                        <NavLink
                          to={link.to}
                          className="block rounded-md px-3 py-2 text-sm hover:bg-brand-50 aria-[current=page]:font-semibold aria-[current=page]:text-brand-700"
                        >
                          {link.label}
                        </NavLink>
                      </li>
                    ))}
                  </ul>
                </details>
              </li>
            ))}
            <li>
              <NavLink
                to={communityLink.to}
                className="block rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 aria-[current=page]:text-brand-700"
              >
                {communityLink.label}
              </NavLink>
            </li>
          </ul>
        </nav>
        <div className="flex items-center gap-1 sm:gap-2">
          <LanguageSwitcher placement="header" />
          <ButtonLink to={contactSalesLink.to} className="hidden md:inline-flex">
            {contactSalesLink.label}
          </ButtonLink>
          <MobileMenu menus={menus} text={text} communityLink={communityLink} contactSalesLink={contactSalesLink} />
        </div>
      </div>
    </header>
  );
}

function MobileMenu({
  menus,
  text: { t },
  communityLink,
  contactSalesLink,
}: {
  menus: NavGroup[];
  text: ShellText;
  communityLink: NavLinkType;
  contactSalesLink: NavLinkType;
}) {
  return (
    <details className="group/mobile md:hidden">
      <summary
        aria-label={t("header.menu")}
        className="flex size-11 cursor-pointer items-center justify-center rounded-md hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <Icon name="menu" className="size-6 group-open/mobile:hidden" />
        <Icon name="x" className="hidden size-6 group-open/mobile:block" />
      </summary>
      <nav
        aria-label={t("header.mobileNav")}
        className="absolute inset-x-0 top-16 max-h-[calc(100vh-4rem)] overflow-y-auto border-b border-slate-200 bg-white px-4 pb-6 shadow-lg"
      >
        {menus.map((group) => (
          <div key={group.id} className="border-b border-slate-100 py-3">
            <h2 id={`mobile-${group.id}`} className="px-2 text-xs font-semibold tracking-wider text-muted uppercase">
              {group.label}
            </h2>
            <ul aria-labelledby={`mobile-${group.id}`} className="mt-1">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="block rounded-md px-2 py-2.5 font-medium hover:bg-brand-50">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
        <ul className="py-3">
          <li>
            <Link to={communityLink.to} className="block rounded-md px-2 py-2.5 font-medium hover:bg-brand-50">
              {communityLink.label}
            </Link>
          </li>
        </ul>
        <ButtonLink to={contactSalesLink.to} className="w-full">
          {contactSalesLink.label}
        </ButtonLink>
      </nav>
    </details>
  );
}
