import type { MouseEvent, ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { buttonClasses, type ButtonVariant } from "~/ui/button";
import { Icon } from "~/ui/icon";
import { useShellText } from "~/ui/shell-text";

/**
 * Goes back to the previous page of this visit, or to the blog list when there is none
 * (a post opened from a search result or a shared link). Without JavaScript it is a plain link.
 */
export function BackButton({ children, variant = "ghost" }: { children: ReactNode; variant?: ButtonVariant }) {
  const navigate = useNavigate();
  // The blog of the page's language.
  const { links } = useShellText();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // React Router numbers its history entries: idx > 0 means an earlier page of this visit exists.
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && event.button === 0) {
      event.preventDefault();
      navigate(-1);
    }
  };
  return (
    <Link to={links.blog} onClick={onClick} className={buttonClasses(variant)}>
      <Icon name="arrow-left" className="size-4" />
      {children}
    </Link>
  );
}
