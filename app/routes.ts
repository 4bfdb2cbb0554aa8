import { readdirSync, readFileSync } from "node:fs";
import { type RouteConfig, index, prefix, route } from "@react-router/dev/routes";
import { localizedRouteEntries } from "./features/i18n/route-paths";

// The site's own routes in every other language, at the addresses their catalogs give them.
const catalogsDir = new URL("./features/i18n/catalogs/", import.meta.url);
const catalogs = Object.fromEntries(
  readdirSync(catalogsDir)
    .filter((file) => file.endsWith(".json"))
    .map((file) => [file.replace(/\.json$/, ""), JSON.parse(readFileSync(new URL(file, catalogsDir), "utf8"))]),
);

// Every URL of the site, in one reviewable list.
export default [
  // The home page is a page made of blocks like the others (see the last route); "/" needs its own
  // index route, as a splat never matches the root.
  index("features/pages/routes/page.tsx", { id: "page-home" }),
  route("contact-sales", "features/leads/routes/contact-sales.tsx"),
  route("request-demo", "features/leads/routes/request-demo.tsx"),
  // The careers page holds the job application form: the same page module, with the form.
  route("company/careers", "features/pages/routes/page-with-application.tsx"),
  // An open position's page (a closed one answers 410); another address under it is a page's.
  route("company/careers/:slug", "features/careers/routes/company.careers.position.tsx"),
  // The open positions' feeds: static segments, so the router ranks them above :slug.
  route("company/careers/atom.xml", "features/careers/routes/company.careers.atom-xml.ts"),
  route("company/careers/feed.json", "features/careers/routes/company.careers.feed-json.ts"),
  route("resources/blog", "features/blog/routes/resources.blog.tsx"),
  route("resources/blog/:slug", "features/blog/routes/resources.blog.post.tsx"),
  // A private preview link; two segments, so it never meets a post's slug (a slug holds no "/").
  route("resources/blog/preview/:token", "features/blog/routes/resources.blog.preview.tsx"),
  route("resources/blog/:slug/og.png", "features/blog/routes/resources.blog.post-card.ts"),
  route("terms/privacy-policy", "features/legal/routes/terms.legal-document.tsx", { id: "privacy-policy" }),
  route("terms/terms-of-use", "features/legal/routes/terms.legal-document.tsx", { id: "terms-of-use" }),
  // Earlier published versions of each legal document; :version is the URL-encoded version string.
  route("terms/privacy-policy/versions/:version", "features/legal/routes/terms.legal-document-version.tsx", {
    id: "privacy-policy-version",
  }),
  route("terms/terms-of-use/versions/:version", "features/legal/routes/terms.legal-document-version.tsx", {
    id: "terms-of-use-version",
  }),
  // A private preview link to the draft of a page or a position (a signed token made on its editor).
  route("preview/:token", "features/content/routes/content-preview.tsx"),
  // A page's social card, named by the page's id (its path may change).
  route("social-cards/pages/:file", "features/pages/routes/page-card.ts"),
  route("robots.txt", "features/site/routes/robots-txt.ts"),
  route("sitemap.xml", "features/site/routes/sitemap-xml.ts"),
  route("rss.xml", "features/blog/routes/rss-xml.ts"),
  route("atom.xml", "features/blog/routes/atom-xml.ts"),
  route("feed.json", "features/blog/routes/feed-json.ts"),
  route("healthz", "features/site/routes/healthz.ts"),
  // The back office: the people who run the site. Its own folder of route modules, all inside one
  // layout that reads the session and marks every answer no-store and noindex; each module checks
  // the session and role it needs itself (app/features/auth/auth.server.ts).
  route("admin", "features/back-office/routes/admin.layout.tsx", { id: "back-office" }, [
    index("features/back-office/routes/admin.overview.tsx"),
    ...prefix("sign-in", [
      index("features/auth/routes/admin.sign-in.tsx"),
      route("sso/callback", "features/auth/routes/admin.sign-in.sso-callback.ts"),
    ]),
    route("invitations/:token", "features/auth/routes/admin.invitation.tsx"),
    ...prefix("passkeys", [
      route("sign-in", "features/auth/routes/admin.passkeys.sign-in.ts"),
      route("register", "features/auth/routes/admin.passkeys.register.ts"),
      route("confirm", "features/auth/routes/admin.passkeys.confirm.ts"),
    ]),
    route("confirm", "features/auth/routes/admin.confirm.tsx"),
    route("account", "features/auth/routes/admin.account.tsx"),
    route("sign-out", "features/auth/routes/admin.sign-out.ts"),
    route("users", "features/auth/routes/admin.users.tsx"),
    route("users/:userId", "features/auth/routes/admin.user.tsx"),
    ...prefix("posts", [
      index("features/blog/routes/admin.posts.tsx"),
      route("new", "features/blog/routes/admin.posts.new.tsx"),
      route("live-preview", "features/blog/routes/admin.posts.live-preview.ts"),
      route(":postId", "features/blog/routes/admin.post.tsx"),
      route(":postId/revisions", "features/blog/routes/admin.post.revisions.tsx"),
    ]),
    // The lead desks: one inbox, export and lead page module each, mounted under both desks.
    route("leads", "features/leads/routes/admin.lead-inbox.tsx", { id: "admin-leads" }),
    route("leads/export", "features/leads/routes/admin.lead-inbox.export.ts", { id: "admin-leads-export" }),
    route("leads/:form/:leadId", "features/leads/routes/admin.lead.tsx", { id: "admin-lead" }),
    route("applications", "features/leads/routes/admin.lead-inbox.tsx", { id: "admin-applications" }),
    route("applications/export", "features/leads/routes/admin.lead-inbox.export.ts", { id: "admin-applications-export" }),
    route("applications/:leadId", "features/leads/routes/admin.lead.tsx", { id: "admin-application" }),
    route("audit", "features/audit/routes/admin.audit.tsx"),
    route("audit/export", "features/audit/routes/admin.audit.export.ts"),
    route("privacy", "features/privacy/routes/admin.privacy.tsx"),
    route("privacy/export", "features/privacy/routes/admin.privacy.export.ts"),
    route("media", "features/media/routes/admin.media.tsx"),
    route("redirects", "features/redirects/routes/admin.redirects.tsx"),
    route("legal", "features/legal/routes/admin.legal.tsx"),
    route("legal/compare", "features/legal/routes/admin.legal.compare.tsx"),
    route("legal/versions/:versionId", "features/legal/routes/admin.legal.version.tsx"),
    // A version as visitors would see it: drawn in the public frame (its handle says so).
    route("legal/versions/:versionId/preview", "features/legal/routes/admin.legal.preview.tsx"),
    route("navigation", "features/navigation/routes/admin.navigation.tsx"),
    ...prefix("pages", [
      index("features/pages/routes/admin.pages.tsx"),
      route("live-preview", "features/pages/routes/admin.pages.live-preview.ts"),
      route(":pageId", "features/pages/routes/admin.page.tsx"),
      route(":pageId/revisions", "features/pages/routes/admin.page.revisions.tsx"),
      // The saved draft in the public frame (its handle says so), for the editor's preview pane.
      route(":pageId/preview", "features/pages/routes/admin.page.preview.tsx"),
    ]),
    ...prefix("positions", [
      index("features/careers/routes/admin.positions.tsx"),
      route(":positionId", "features/careers/routes/admin.position.tsx"),
      route(":positionId/revisions", "features/careers/routes/admin.position.revisions.tsx"),
      // The saved draft in the public frame (its handle says so).
      route(":positionId/preview", "features/careers/routes/admin.position.preview.tsx"),
    ]),
  ]),
  // The routes above in each other language, under its prefix (/de/demo-anfordern): route-paths.ts.
  ...localizedRouteEntries(catalogs).map((entry) => route(entry.path, entry.file, { id: entry.id })),
  // Every other address: a page made of blocks (the home page, the product, a campaign's landing
  // page…) published at that path in the back office, else a redirect, else 404.
  route("*", "features/pages/routes/page.tsx", { id: "page" }),
] satisfies RouteConfig;
