import { SYMBOL_ID_PREFIX, type IconName } from "~/assets/icon-names";

export type { IconName };

/**
 * A decorative icon: a symbol of the sprite (scripts/build-icons.mjs), which every document
 * carries in its body (app/platform/page-icons.server.ts). Pages carry only the icon's name in their
 * JavaScript, and an icon is drawn with the page's first frame, waiting for no request.
 */
export function Icon({ name, className = "size-5" }: { name: IconName; className?: string }) {
  return (
    // width/height: the size the icon keeps when the stylesheet does not apply (its classes win otherwise).
    <svg aria-hidden="true" focusable="false" className={className} width="1em" height="1em">
      <use href={`#${SYMBOL_ID_PREFIX}${name}`} />
    </svg>
  );
}
