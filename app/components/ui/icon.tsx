import spriteUrl from "~/assets/icons.svg?url";
import type { IconName } from "~/assets/icon-names";

export type { IconName };

/**
 * A decorative icon from the fingerprinted sprite (scripts/build-icons.mjs). The browser fetches
 * the sprite once and caches it for a year; pages carry only the icon's name in their JavaScript.
 */
export function Icon({ name, className = "size-5" }: { name: IconName; className?: string }) {
  return (
    <svg aria-hidden="true" focusable="false" className={className}>
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  );
}
