import type { Role } from "~/config/roles";

// The back office's sections, in menu order, with the roles that open each (owners open every
// one). The menu and the overview list what a person's roles open; the server enforces the same
// roles in each section's loaders and actions.

export type AdminSection = { path: string; label: string; description: string; roles: readonly Role[] };

export const adminSections: readonly AdminSection[] = [
  { path: "/admin/posts", label: "Posts", description: "Write, schedule and publish blog posts.", roles: ["editor"] },
  {
    path: "/admin/pages",
    label: "Pages",
    description: "Edit the site's pages block by block, preview, schedule and publish them; add landing pages.",
    roles: ["editor"],
  },
  { path: "/admin/media", label: "Media", description: "Upload images for posts, edit their alt text.", roles: ["editor"] },
  {
    path: "/admin/navigation",
    label: "Navigation",
    description: "Edit the header's menus and the footer's links: labels, addresses, order.",
    roles: ["editor"],
  },
  {
    path: "/admin/redirects",
    label: "Redirects",
    description: "Send old addresses to their new pages, or mark them gone.",
    roles: ["editor"],
  },
  {
    path: "/admin/legal",
    label: "Legal documents",
    description: "Draft, compare and publish new versions of the privacy policy and terms of use.",
    roles: ["legal"],
  },
  {
    path: "/admin/leads",
    label: "Leads",
    description: "Contact and demo requests: search, follow up, assign, export.",
    roles: ["sales"],
  },
  {
    path: "/admin/positions",
    label: "Open positions",
    description: "Publish, schedule and close the positions on the careers page; see each one's applications.",
    roles: ["recruiter"],
  },
  {
    path: "/admin/applications",
    label: "Applications",
    description: "Job applications: search, move through hiring, assign, export.",
    roles: ["recruiter"],
  },
  { path: "/admin/users", label: "People", description: "Invite people, set their roles, disable access.", roles: ["owner"] },
  { path: "/admin/audit", label: "Audit log", description: "Who did what, when, from where.", roles: ["owner"] },
  {
    path: "/admin/privacy",
    label: "Privacy requests",
    description: "Find, export, correct or erase what is held about an email address.",
    roles: ["owner"],
  },
];
