import { ButtonLink } from "~/ui/button";
import { useShellText } from "~/ui/shell-text";

/** What a visitor sees at an address marked gone (410): in the site's frame, like the 404. */
export function GonePage() {
  const { t, links } = useShellText();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-6xl font-extrabold text-brand-700">410</h1>
      <p className="mt-4 text-xl text-muted">{t("gone.text")}</p>
      <ButtonLink to={links.home} className="mt-8">
        {t("notFound.home")}
      </ButtonLink>
    </div>
  );
}
