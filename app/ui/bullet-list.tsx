import { Icon, type IconName } from "~/ui/icon";
/**
 * A plain list of short statements (principles, do's and don'ts, data-handling rules).
 * `ordered` numbers them; otherwise each item gets `icon` as its decorative marker.
 */
export function BulletList({
  items,
  ordered = false,
  icon = "check",
  iconClassName = "text-brand-700",
}: {
  items: readonly string[];
  ordered?: boolean;
  icon?: IconName;
  iconClassName?: string;
}) {
  if (ordered) {
    return (
      <ol className="list-decimal space-y-3 pl-6 marker:font-semibold marker:text-brand-700">
        {items.map((item) => (
          <li key={item} className="pl-1">
            {item}
          </li>
        ))}
      </ol>
    );
  }
  return (
    <ul className="space-y-3">
      {items.map((item) => (
        <li key={item} className="flex gap-3">
          <Icon name={icon} className={`mt-1 size-4 shrink-0 ${iconClassName}`} />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
