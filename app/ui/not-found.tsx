import { useEffect } from "react";
import { useLocation } from "react-router";
import { ButtonLink } from "~/ui/button";
import { useShellText } from "~/ui/shell-text";

export function NotFound() {
  const location = useLocation();
  const { t, links } = useShellText();
  useEffect(() => {
    // The not-found page logs the missing path to the browser console.
    console.warn("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);

  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-6xl font-extrabold text-brand-700">404</h1>
      <p className="mt-4 text-xl text-muted">{t("notFound.text")}</p>
      <ButtonLink to={links.home} className="mt-8">
        {t("notFound.home")}
      </ButtonLink>
    </div>
  );
}
