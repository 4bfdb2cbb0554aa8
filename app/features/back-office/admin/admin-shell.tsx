import type { ReactNode } from "react";
import { Form, Link, NavLink } from "react-router";
import { site } from "~/config/site";
import { CsrfField } from "~/ui/admin/csrf-field";
import { mayAct } from "~/config/roles";
import { adminSections } from "~/features/back-office/admin/sections";

export type ShellUser = { email: string; roles: string[] };

const navLink = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-2 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-800" : "text-ink hover:bg-slate-100"}`;

/**
 * The back office's frame: its own header (no public navigation), the sections the person's roles
 * open, and the page. Signed out (the sign-in and invitation pages) it is the header alone.
 */
export function AdminShell({ user, children }: { user: ShellUser | null; children: ReactNode }) {
  const sections = user ? adminSections.filter((section) => mayAct(user.roles, section.roles)) : [];
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <a href="#admin-main" className="sr-only-focusable absolute top-2 left-4 z-50 rounded bg-white px-3 py-2 font-semibold">
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-brand-900 text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <Link to={user ? "/admin" : "/admin/sign-in"} className="text-base font-bold tracking-tight">
            {site.company} <span className="font-medium text-brand-100">back office</span>
          </Link>
          {user ? (
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <Link to="/admin/account" className="underline-offset-2 hover:underline">
                {user.email}
              </Link>
              <Form method="post" action="/admin/sign-out">
                <CsrfField />
                <button type="submit" className="rounded-md border border-white/40 px-3 py-1.5 font-semibold hover:bg-white/10">
                  Sign out
                </button>
              </Form>
            </div>
          ) : (
            <Link to="/" className="text-sm text-brand-100 underline-offset-2 hover:underline">
              Back to the website
            </Link>
          )}
        </div>
      </header>
      <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col gap-6 px-4 py-6 sm:px-6 md:flex-row">
        {user ? (
          <nav aria-label="Back office" className="md:w-52 md:shrink-0">
            <ul className="flex flex-wrap gap-1 md:flex-col">
              <li>
                <NavLink to="/admin" end className={navLink}>
                  Overview
                </NavLink>
              </li>
              {sections.map((section) => (
                <li key={section.path}>
                  <NavLink to={section.path} className={navLink}>
                    {section.label}
                  </NavLink>
                </li>
              ))}
              <li>
                <NavLink to="/admin/account" className={navLink}>
                  Your account
                </NavLink>
              </li>
            </ul>
          </nav>
        ) : null}
        <main id="admin-main" className="min-w-0 flex-1">
          {children}
        </main>
      </div>
    </div>
  );
}
