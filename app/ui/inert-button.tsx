import type { ComponentProps } from "react";
import { Button } from "~/ui/button";

/**
 * The download, search, subscribe and register buttons of the static pages: real, focusable
 * buttons that do nothing and show nothing (placeholders for features to come). `subject` is appended to the accessible
 * name only, so several "Download" buttons on one page stay distinguishable while the visible
 * text stays contained in the name (WCAG 2.5.3, label in name).
 */
export function InertButton({
  children,
  subject,
  variant = "secondary",
  ...props
}: Omit<ComponentProps<typeof Button>, "type" | "onClick"> & { subject?: string }) {
  return (
    <Button variant={variant} {...props}>
      {children}
      {subject ? <span className="sr-only"> {subject}</span> : null}
    </Button>
  );
}
