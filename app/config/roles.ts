// The back office's roles. A person holds one or more; an owner may do everything. Shared by the
// server (which enforces them) and the pages (which only use them to decide what to show).

export const ROLES = ["owner", "editor", "legal", "sales", "recruiter"] as const;

export type Role = (typeof ROLES)[number];

export const roleDescriptions: Record<Role, { label: string; description: string }> = {
  owner: { label: "Owner", description: "Everything, including people and the audit log" },
  editor: { label: "Editor", description: "Pages, blog posts, media, navigation and redirects" },
  legal: { label: "Legal", description: "Legal documents" },
  sales: { label: "Sales", description: "Contact and demo requests" },
  recruiter: { label: "Recruiter", description: "Job applications" },
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether someone with `roles` may do what needs any one of `needed` (an owner may do everything). */
export function mayAct(roles: readonly string[], needed: Role | readonly Role[]): boolean {
  if (roles.includes("owner")) return true;
  const wanted: readonly Role[] = typeof needed === "string" ? [needed] : needed;
  return wanted.some((role) => roles.includes(role));
}

/** Role names in the fixed order above, for display. */
export function sortRoles(roles: readonly string[]): Role[] {
  return ROLES.filter((role) => roles.includes(role));
}
