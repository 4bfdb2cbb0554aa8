import { useRouteLoaderData } from "react-router";
import type { ShellKeys } from "~/ui/shell-keys";

/** A frame message's name: its catalog key without "shell." (the frame's texts, short on the wire). */
type ShellKey = ShellKeys extends infer K ? (K extends `shell.${infer Name}` ? Name : never) : never;

// The texts of the site's frame (header, footer, 404 and error pages, and what the blog's cards and
// states say wherever they are drawn), in the page's language. Their source is the catalogs'
// `shell.*` messages (app/features/i18n/catalogs): the root loader sends a page the messages of
// its own language (~/ui/shell-keys lists them), so no language's texts are in the JavaScript
// every page loads. They take plain {name} arguments only (no plural or select): they are filled
// in here, in the browser, without shipping a message-format library to every page.

/**
 * What the error and 404 pages say when the root has no data (its loader failed): the English catalog's
 * words. Every other page gets its texts from the root loader.
 */
export const SHELL_FALLBACK: Partial<Record<ShellKey, string>> = {
  "notFound.text": "Oops! Page not found",
  "notFound.home": "Return to Home",
  "error.title": "Unexpected Application Error!",
  "error.text": "Something went wrong on our side. Please try again.",
};

export type { ShellKey };

/** The frame's own links in the page's language. */
export type ShellLinks = { home: string; community: string; contactSales: string; blog: string; careers: string };

/** What the root loader sends every page: the frame's messages and links in its language. */
export type ShellData = { tag: string; messages: Partial<Record<ShellKey, string>>; links: ShellLinks };

export type ShellText = {
  /** The page's language tag. */
  tag: string;
  t: (key: ShellKey, values?: Record<string, string | number>) => string;
  links: ShellLinks;
};

/** Fills in a message's {name} arguments (the only kind a shell message has). */
export function fillMessage(message: string, values?: Record<string, string | number>): string {
  return values
    ? message.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole))
    : message;
}

export function shellText(shell: ShellData | undefined): ShellText {
  const tag = shell?.tag ?? "en";
  return {
    tag,
    t: (key, values) => fillMessage(shell?.messages[key] ?? SHELL_FALLBACK[key] ?? "", values),
    links: shell?.links ?? ({ home: "/" } as ShellLinks),
  };
}

/** The frame's texts for the page being drawn (English when the root has no data, as on its own error). */
export function useShellText(): ShellText {
  const data = useRouteLoaderData("root") as { shell?: ShellData } | undefined;
  return shellText(data?.shell);
}
