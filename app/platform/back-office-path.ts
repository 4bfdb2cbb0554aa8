/** Whether a path is the back office's (everything under /admin): not a public page. */
export function isBackOfficePath(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}
