import { type RouteConfig, index, route } from "@react-router/dev/routes";
import { site } from "./config/site";

// Every public URL of the site, in one reviewable list.
export default [
  index("routes/home.tsx"),
  route("contact-sales", "routes/contact-sales.tsx"),
  route("request-demo", "routes/request-demo.tsx"),
  route("company/about", "routes/company.about.tsx"),
  route("company/careers", "routes/company.careers.tsx"),
  route("company/brand", "routes/company.brand.tsx"),
  route("company/charter", "routes/company.charter.tsx"),
  // Only our own product has a page; any other /products/x falls through to the not-found route.
  route(site.product.path.slice(1), "routes/product.tsx"),
  route("resources", "routes/resources.tsx"),
  route("resources/documentation", "routes/resources.documentation.tsx"),
  route("resources/blog", "routes/resources.blog.tsx"),
  route("resources/blog/:slug", "routes/resources.blog.post.tsx"),
  // A private preview link; two segments, so it never meets a post's slug (a slug holds no "/").
  route("resources/blog/preview/:token", "routes/resources.blog.preview.tsx"),
  route("resources/blog/:slug/og.png", "routes/resources.blog.post-card.ts"),
  route("resources/support", "routes/resources.support.tsx"),
  route("resources/api", "routes/resources.api.tsx"),
  route("community", "routes/community.tsx"),
  route("terms/privacy-policy", "routes/terms.legal-document.tsx", { id: "privacy-policy" }),
  route("terms/terms-of-use", "routes/terms.legal-document.tsx", { id: "terms-of-use" }),
  // Earlier published versions of each legal document; :version is the URL-encoded version string.
  route("terms/privacy-policy/versions/:version", "routes/terms.legal-document-version.tsx", { id: "privacy-policy-version" }),
  route("terms/terms-of-use/versions/:version", "routes/terms.legal-document-version.tsx", { id: "terms-of-use-version" }),
  route("terms/legal", "routes/terms.legal.tsx"),
  route("terms/trust-transparency", "routes/terms.trust-transparency.tsx"),
  route("robots.txt", "routes/robots-txt.ts"),
  route("sitemap.xml", "routes/sitemap-xml.ts"),
  route("rss.xml", "routes/rss-xml.ts"),
  route("atom.xml", "routes/atom-xml.ts"),
  route("feed.json", "routes/feed-json.ts"),
  route("healthz", "routes/healthz.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
