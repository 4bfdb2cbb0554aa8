import { Link } from "react-router";
import { Icon } from "~/ui/icon";
import { site } from "~/config/site";
import { useShellText } from "~/ui/shell-text";

export function Logo({ className = "" }: { className?: string }) {
  const { t, links } = useShellText();
  return (
    <Link to={links.home} className={`inline-flex items-center gap-2 text-lg font-bold tracking-tight ${className}`}>
      <Icon name="logo" className="size-8 text-brand-700" />
      <span>{site.company}</span>
      <span className="sr-only">{` ${t("logo.home")}`}</span>
    </Link>
  );
}
