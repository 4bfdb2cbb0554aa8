// The addresses of the site's own route modules in every language. English keeps today's paths
// (app/routes.ts); each other language gets its own, translated, from its catalog's `route.<name>`
// messages (de: "route.requestDemo": "demo-anfordern" → /de/demo-anfordern), so a new language's
// addresses are a catalog file, not code. Pages made of blocks need none of this: their whole path
// is content (/de/produkte/sentinel).

type LocalizedRoute = {
  /** The English path, without a leading slash: what the `route.<name>` message translates. */
  path: string;
  file: string;
  /** The route's id in English (app/routes.ts); other languages' ids add ".<tag>". */
  id?: string;
  /** Addresses under it, the same in every language (a post's slug, a feed's file name). */
  children?: readonly { path: string; file: string; id?: string }[];
};

export const LOCALIZED_ROUTES = {
  contactSales: { path: "contact-sales", file: "features/leads/routes/contact-sales.tsx" },
  requestDemo: { path: "request-demo", file: "features/leads/routes/request-demo.tsx" },
  careers: {
    path: "company/careers",
    file: "features/pages/routes/page-with-application.tsx",
    children: [
      { path: ":slug", file: "features/careers/routes/company.careers.position.tsx" },
      { path: "atom.xml", file: "features/careers/routes/company.careers.atom-xml.ts" },
      { path: "feed.json", file: "features/careers/routes/company.careers.feed-json.ts" },
    ],
  },
  blog: {
    path: "resources/blog",
    file: "features/blog/routes/resources.blog.tsx",
    children: [
      { path: ":slug", file: "features/blog/routes/resources.blog.post.tsx" },
      { path: ":slug/og.png", file: "features/blog/routes/resources.blog.post-card.ts" },
      // A post's preview link, so a draft is seen in its own language's frame.
      { path: "preview/:token", file: "features/blog/routes/resources.blog.preview.tsx" },
    ],
  },
  privacyPolicy: {
    path: "terms/privacy-policy",
    file: "features/legal/routes/terms.legal-document.tsx",
    id: "privacy-policy",
    children: [
      { path: "versions/:version", file: "features/legal/routes/terms.legal-document-version.tsx", id: "privacy-policy-version" },
    ],
  },
  termsOfUse: {
    path: "terms/terms-of-use",
    file: "features/legal/routes/terms.legal-document.tsx",
    id: "terms-of-use",
    children: [
      { path: "versions/:version", file: "features/legal/routes/terms.legal-document-version.tsx", id: "terms-of-use-version" },
    ],
  },
} as const satisfies Record<string, LocalizedRoute>;

export type LocalizedRouteName = keyof typeof LOCALIZED_ROUTES;

/** Files every language has under its prefix with the same name (the blog's feeds). */
export const LOCALIZED_FILES = [
  { path: "rss.xml", file: "features/blog/routes/rss-xml.ts" },
  { path: "atom.xml", file: "features/blog/routes/atom-xml.ts" },
  { path: "feed.json", file: "features/blog/routes/feed-json.ts" },
] as const;

/** A page's or position's preview link in every language (/de/preview/<token>): its draft in its own language's frame. */
export const LOCALIZED_PREVIEW = { path: "preview/:token", file: "features/content/routes/content-preview.tsx" } as const;

export const routeMessageKey = (name: LocalizedRouteName) => `route.${name}`;

/** A `route.<name>` message's shape: lower-case segments of letters, digits and hyphens. */
export const ROUTE_PATH_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\/[a-z0-9]+(?:-[a-z0-9]+)*)*$/;

/** The language's prefix made from a catalog's tag ("de" → "de", "pt-BR" → "pt-br"), no slash. */
const prefixOf = (tag: string) => tag.toLowerCase();

/**
 * The route entries of every language but the source (`source`, whose routes app/routes.ts lists
 * itself): [path, file, id], for app/routes.ts. A route module finds its language from the path.
 */
export function localizedRouteEntries(
  /** The catalogs by language tag: their messages by key. */
  catalogs: Record<string, Record<string, string>>,
  source = "en",
): { path: string; file: string; id: string }[] {
  const entries: { path: string; file: string; id: string }[] = [];
  for (const [tag, catalog] of Object.entries(catalogs)) {
    if (tag === source) continue;
    const prefix = prefixOf(tag);
    for (const [name, route] of Object.entries(LOCALIZED_ROUTES) as [LocalizedRouteName, LocalizedRoute][]) {
      const translated = catalog[routeMessageKey(name)];
      if (!translated || !ROUTE_PATH_PATTERN.test(translated)) continue; // the catalog check says why
      const base = `${prefix}/${translated}`;
      entries.push({ path: base, file: route.file, id: `${route.id ?? `route-${name}`}.${tag}` });
      for (const child of route.children ?? [])
        entries.push({
          path: `${base}/${child.path}`,
          file: child.file,
          id: `${child.id ?? `route-${name}/${child.path}`}.${tag}`,
        });
    }
    for (const file of LOCALIZED_FILES)
      entries.push({ path: `${prefix}/${file.path}`, file: file.file, id: `file-${file.path}.${tag}` });
    entries.push({ path: `${prefix}/${LOCALIZED_PREVIEW.path}`, file: LOCALIZED_PREVIEW.file, id: `preview.${tag}` });
  }
  return entries;
}

/**
 * The English address of a page served by one of these route modules in another language, found
 * from its route's id (`route-requestDemo.de`, `route-careers/:slug.de`): what reads the English
 * address's settings (the query parameters a page reads) reads them for every language. Undefined
 * for any other route.
 */
export function sourcePathOf(pathname: string, routeId: string | undefined): string | undefined {
  if (!routeId) return undefined;
  for (const [name, route] of Object.entries(LOCALIZED_ROUTES) as [LocalizedRouteName, LocalizedRoute][]) {
    if (routeId.startsWith(`${route.id ?? `route-${name}`}.`)) return `/${route.path}`;
    for (const child of route.children ?? []) {
      if (!routeId.startsWith(`${child.id ?? `route-${name}/${child.path}`}.`)) continue;
      const tail = pathname.split("/").slice(-child.path.split("/").length);
      return `/${route.path}/${tail.join("/")}`;
    }
  }
  return undefined;
}
