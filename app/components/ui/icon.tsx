import spriteUrl from "~/assets/icons.svg?url";
import type { IconName } from "~/assets/icon-names";

export type { IconName };

/**
 * A decorative icon from the fingerprinted sprite (scripts/build-icons.mjs). The browser fetches
 * the sprite once and caches it for a year; pages carry only the icon's name in their JavaScript.
 */
export function Icon({ name, className = "size-5" }: { name: IconName; className?: string }) {
  return (
    // width/height: the size the icon keeps when the stylesheet does not apply (its classes win otherwise).
    <svg aria-hidden="true" focusable="false" className={className} width="1em" height="1em">
      <use href={`${spriteUrl}#${name}`} />
    </svg>
  );
}
