// Brand constants. Nothing brand-specific is hard-coded anywhere else.
import type { BrandIconName } from "~/assets/icon-names";

/** A social profile in the footer: its icon is a brand mark, never a UI glyph of the same name. */
type SocialLink = { name: string; icon: BrandIconName; href: string };

export const site = {
  company: "Quorvant",
  headline: "Private AI Compliance, Security and Governance Platform",
  tagline: "Keep every AI workflow secure, compliant and under your control — on your infrastructure, with your keys.",
  description:
    "Quorvant Sentinel is a private AI compliance, security and governance platform: real-time threat detection and automated response for business communications.",
  foundedYear: 2024,
  email: {
    sales: "sales@quorvant.com",
    support: "support@quorvant.com",
    press: "press@quorvant.com",
    security: "security@quorvant.com",
    legal: "legal@quorvant.com",
  },
  /** Public API origin shown on the documentation and API reference pages. */
  apiBaseUrl: "https://api.quorvant.com/v1",
  /** The SDK package named in the documentation snippet. */
  sdkPackage: "@quorvant/sentinel",
  product: {
    name: "Sentinel",
    slug: "sentinel",
    path: "/products/sentinel",
    summary: "A security platform for business communications with real-time threat detection and automated response.",
  },
  social: [
    { name: "X", icon: "brand-x", href: "https://x.com/quorvant" },
    { name: "LinkedIn", icon: "brand-linkedin", href: "https://www.linkedin.com/company/quorvant" },
    { name: "Instagram", icon: "brand-instagram", href: "https://www.instagram.com/quorvant" },
    { name: "YouTube", icon: "brand-youtube", href: "https://www.youtube.com/@quorvant" },
    { name: "Substack", icon: "brand-substack", href: "https://quorvant.substack.com" },
  ] satisfies readonly SocialLink[],
} as const;

/** Where a buyer checks the security and compliance claims. */
export const trustPagePath = "/terms/trust-transparency";

export type NavLink = { label: string; to: string };
export type NavGroup = { id: string; label: string; links: NavLink[] };
/** The menus an editor may change in the back office (app/features/navigation); these below are their defaults. */
export type SiteNavigation = { header: NavGroup[]; footer: NavGroup[]; "footer-links": NavLink[] };

/** Header menus: exactly these items, in this order. */
export const headerMenus: NavGroup[] = [
  { id: "products", label: "Products", links: [{ label: site.product.name, to: site.product.path }] },
  {
    id: "resources",
    label: "Resources",
    links: [
      { label: "Blog", to: "/resources/blog" },
      { label: "Support", to: "/resources/support" },
    ],
  },
  {
    id: "company",
    label: "Company",
    links: [
      { label: "About", to: "/company/about" },
      { label: "Careers", to: "/company/careers" },
      { label: "Brand", to: "/company/brand" },
      { label: "Charter", to: "/company/charter" },
    ],
  },
];

/** Footer link columns: exactly these links, in this order. */
export const footerColumns: NavGroup[] = [
  { id: "products", label: "Products", links: [{ label: site.product.name, to: site.product.path }] },
  {
    id: "company",
    label: "Company",
    links: [
      { label: "About Us", to: "/company/about" },
      { label: "Careers", to: "/company/careers" },
      { label: "Brand", to: "/company/brand" },
      { label: "Charter", to: "/company/charter" },
    ],
  },
  {
    id: "terms",
    label: "Terms & Policies",
    links: [
      { label: "Terms of Use", to: "/terms/terms-of-use" },
      { label: "Privacy Policy", to: "/terms/privacy-policy" },
      { label: "Legal", to: "/terms/legal" },
      { label: "Trust & Transparency", to: trustPagePath },
    ],
  },
  {
    id: "resources",
    label: "Resources",
    links: [
      { label: "Blog", to: "/resources/blog" },
      { label: "Support", to: "/resources/support" },
    ],
  },
];

export const footerShortLinks: NavLink[] = [
  { label: "Privacy", to: "/terms/privacy-policy" },
  { label: "Terms", to: "/terms/terms-of-use" },
];

/**
 * The site's pages in the sitemap's order: the pages written in code (below) and the pages made of
 * blocks that the seed holds. Pages made of blocks are listed while they are published; the blog
 * adds its posts.
 */
export const staticPaths = [
  "/",
  "/contact-sales",
  "/request-demo",
  "/company/about",
  "/company/careers",
  "/company/brand",
  "/company/charter",
  site.product.path,
  "/resources",
  "/resources/documentation",
  "/resources/blog",
  "/resources/support",
  "/resources/api",
  "/community",
  "/terms/privacy-policy",
  "/terms/terms-of-use",
  "/terms/legal",
  trustPagePath,
] as const;

/**
 * The addresses code holds: the forms (the careers page's job application posts to its own
 * address, so that page stays there), the blog's list and the legal documents.
 */
export const codePaths = [
  "/contact-sales",
  "/request-demo",
  "/company/careers",
  "/resources/blog",
  "/terms/privacy-policy",
  "/terms/terms-of-use",
] as const satisfies readonly (typeof staticPaths)[number][];
