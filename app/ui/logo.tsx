import { Link } from "react-router";
import { Icon } from "~/ui/icon";
import { site } from "~/config/site";

export function Logo({ className = "" }: { className?: string }) {
  return (
    <Link to="/" className={`inline-flex items-center gap-2 text-lg font-bold tracking-tight ${className}`}>
      <Icon name="logo" className="size-8 text-brand-700" />
      <span>{site.company}</span>
      <span className="sr-only"> home</span>
    </Link>
  );
}
