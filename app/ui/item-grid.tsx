import type { ReactNode } from "react";
import { Icon } from "~/ui/icon";
import type { Item } from "~/ui/content-types";

/**
 * Lists on static pages (features, channels, benefits, badges...) are one <ul> with one <li>
 * per item, so assistive technology announces the count. `action` renders an optional control per item (e.g. a Download button).
 */
export function ItemGrid({
  items,
  columns = 3,
  action,
  headingLevel = 3,
}: {
  items: readonly Item[];
  columns?: 2 | 3 | 4;
  action?: (item: Item) => ReactNode;
  headingLevel?: 3 | 4;
}) {
  const Heading = headingLevel === 3 ? "h3" : "h4";
  const grid = { 2: "sm:grid-cols-2", 3: "sm:grid-cols-2 lg:grid-cols-3", 4: "sm:grid-cols-2 lg:grid-cols-4" }[columns];
  return (
    <ul className={`grid gap-6 ${grid}`}>
      {items.map((item) => (
        <li key={item.title} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          {item.icon ? <Icon name={item.icon} className="mb-4 size-8 text-brand-700" /> : null}
          <Heading className="text-lg font-semibold">{item.title}</Heading>
          {item.meta ? <p className="mt-1 text-sm font-medium text-brand-700">{item.meta}</p> : null}
          {item.description ? <p className="mt-2 text-muted">{item.description}</p> : null}
          {action ? <div className="mt-auto pt-4">{action(item)}</div> : null}
        </li>
      ))}
    </ul>
  );
}
