import { Link } from "react-router";
import { Icon } from "~/ui/icon";
import type { LinkItem } from "~/ui/content-types";

/** A list of internal links with an optional line of description each (resources hub, legal index). */
export function LinkList({ links }: { links: readonly LinkItem[] }) {
  return (
    <ul className="space-y-3">
      {links.map((link) => (
        <li key={link.to}>
          <Link
            to={link.to}
            className="group flex items-start justify-between gap-4 rounded-xl border border-slate-200 bg-white p-4 hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            <span>
              <span className="font-semibold text-brand-700 group-hover:underline">{link.label}</span>
              {link.description ? <span className="mt-1 block text-sm text-muted">{link.description}</span> : null}
            </span>
            <Icon name="arrow-right" className="mt-1 size-4 shrink-0 text-brand-700" />
          </Link>
        </li>
      ))}
    </ul>
  );
}
