import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import routes from "../../app/routes";
import { test, expect } from "./support/fixtures";
import {
  backOfficeServerForThisFile,
  csrfToken,
  inviteFromCommandLine,
  postForm,
  type Role,
  signInAs,
} from "./support/back-office";
import { withDatabase } from "./support/database";

// The role matrix: every back-office URL and action, asked by each role and by nobody, gets exactly
// the answer that role allows. The server decides, whatever the menu shows. Every route under
// /admin in app/routes.ts must appear here, so a new page cannot be added without its row.

type Who = Role | "nobody";
const EVERYONE: Who[] = ["nobody", "owner", "editor", "legal", "sales", "recruiter"];

/** The answer a role gets: a status, or "sign-in" for a redirect to the sign-in page. */
type Expected = number | "sign-in" | "redirect";

type Case = {
  route: string;
  name: string;
  request: (who: Who) => { method: "GET" | "POST"; path: string; form?: Record<string, string | string[]> };
  expected: (who: Who) => Expected;
};

/** Signed-in people only: everyone else is sent to sign in. */
const signedIn = (status: Expected) => (who: Who) => (who === "nobody" ? "sign-in" : status);
/** One role (and owners, who hold every role). */
const only =
  (role: Role, status: Expected = 200) =>
  (who: Who) =>
    who === "nobody" ? "sign-in" : who === role || who === "owner" ? status : 403;

const server = backOfficeServerForThisFile();
const sessions = new Map<Who, { request: APIRequestContext; csrf: string }>();
let targetId = "";
let invitationToken = "";
let postId = "";
let legalVersionId = "";
let pageId = "";
let positionId = "";
let demoLeadId = "";
let applicationId = "";

const cases: Case[] = [
  { route: "admin", name: "overview", request: () => ({ method: "GET", path: "/admin" }), expected: signedIn(200) },
  {
    route: "admin/sign-in",
    name: "sign-in page",
    request: () => ({ method: "GET", path: "/admin/sign-in" }),
    expected: (who) => (who === "nobody" ? 200 : "redirect"),
  },
  {
    route: "admin/sign-in",
    name: "single sign-on start (not configured here)",
    request: () => ({ method: "POST", path: "/admin/sign-in", form: { redirectTo: "/admin" } }),
    expected: () => 404,
  },
  {
    route: "admin/sign-in/sso/callback",
    name: "single sign-on return without a round trip",
    request: () => ({ method: "GET", path: "/admin/sign-in/sso/callback?code=x&state=y" }),
    expected: () => "sign-in",
  },
  {
    route: "admin/invitations/:token",
    name: "an open invitation (the link is the credential)",
    request: () => ({ method: "GET", path: `/admin/invitations/${invitationToken}` }),
    expected: () => 200,
  },
  {
    route: "admin/passkeys/sign-in",
    name: "passkey sign-in options",
    request: () => ({ method: "POST", path: "/admin/passkeys/sign-in", form: { step: "options" } }),
    expected: () => 200,
  },
  {
    route: "admin/passkeys/register",
    name: "adding a passkey",
    request: () => ({ method: "POST", path: "/admin/passkeys/register", form: { step: "options" } }),
    expected: (who) => (who === "nobody" ? 401 : 200),
  },
  {
    route: "admin/passkeys/confirm",
    name: "confirming with a passkey",
    request: () => ({ method: "POST", path: "/admin/passkeys/confirm", form: { step: "options" } }),
    expected: (who) => (who === "nobody" ? 401 : 200),
  },
  {
    route: "admin/confirm",
    name: "confirm page (signed in just now)",
    request: () => ({ method: "GET", path: "/admin/confirm" }),
    expected: signedIn("redirect"),
  },
  {
    route: "admin/confirm",
    name: "confirm with single sign-on (not configured here)",
    request: () => ({ method: "POST", path: "/admin/confirm", form: { redirectTo: "/admin" } }),
    expected: signedIn(404),
  },
  {
    route: "admin/account",
    name: "own account",
    request: () => ({ method: "GET", path: "/admin/account" }),
    expected: signedIn(200),
  },
  {
    route: "admin/account",
    name: "removing a passkey that is not yours",
    request: () => ({ method: "POST", path: "/admin/account", form: { intent: "remove-passkey", passkey: "nope" } }),
    expected: signedIn(404),
  },
  { route: "admin/users", name: "people", request: () => ({ method: "GET", path: "/admin/users" }), expected: only("owner") },
  {
    route: "admin/users",
    name: "inviting",
    request: (who) => ({
      method: "POST",
      path: "/admin/users",
      form: { intent: "invite", email: `matrix-${who}@quorvant.com`, roles: "editor" },
    }),
    expected: only("owner"),
  },
  {
    route: "admin/users/:userId",
    name: "a person",
    request: () => ({ method: "GET", path: `/admin/users/${targetId}` }),
    expected: only("owner"),
  },
  {
    route: "admin/users/:userId",
    name: "changing a person's roles",
    request: () => ({ method: "POST", path: `/admin/users/${targetId}`, form: { intent: "roles", roles: ["editor", "legal"] } }),
    expected: only("owner"),
  },
  {
    route: "admin/users/:userId",
    name: "ending a person's sessions",
    request: () => ({ method: "POST", path: `/admin/users/${targetId}`, form: { intent: "end-sessions" } }),
    expected: only("owner"),
  },
  {
    route: "admin/users/:userId",
    name: "disabling a person",
    request: () => ({ method: "POST", path: `/admin/users/${targetId}`, form: { intent: "disable" } }),
    expected: only("owner"),
  },
  {
    route: "admin/users/:userId",
    name: "enabling a person",
    request: () => ({ method: "POST", path: `/admin/users/${targetId}`, form: { intent: "enable" } }),
    expected: only("owner"),
  },
  { route: "admin/posts", name: "posts", request: () => ({ method: "GET", path: "/admin/posts" }), expected: only("editor") },
  {
    route: "admin/posts",
    name: "starting a post's translation from the list (into a language the site does not have: refused)",
    request: () => ({ method: "POST", path: "/admin/posts", form: { intent: "translate", source: postId, translateInto: "xx" } }),
    expected: only("editor", 400),
  },
  {
    route: "admin/posts/new",
    name: "new post page",
    request: () => ({ method: "GET", path: "/admin/posts/new" }),
    expected: only("editor"),
  },
  {
    route: "admin/posts/new",
    name: "creating a post (an empty form: refused field by field)",
    request: () => ({ method: "POST", path: "/admin/posts/new", form: { intent: "save", baseRevision: "0" } }),
    expected: only("editor", 400),
  },
  {
    route: "admin/posts/live-preview",
    name: "the editor's live preview",
    request: () => ({ method: "POST", path: "/admin/posts/live-preview", form: { content: "# Hello" } }),
    expected: only("editor"),
  },
  {
    route: "admin/posts/:postId",
    name: "a post's editor",
    request: () => ({ method: "GET", path: `/admin/posts/${postId}` }),
    expected: only("editor"),
  },
  {
    route: "admin/posts/:postId",
    name: "previewing a post's changes",
    request: () => ({ method: "POST", path: `/admin/posts/${postId}`, form: { intent: "preview", content: "Draft text" } }),
    expected: only("editor"),
  },
  {
    route: "admin/posts/:postId/revisions",
    name: "a post's revisions",
    request: () => ({ method: "GET", path: `/admin/posts/${postId}/revisions` }),
    expected: only("editor"),
  },
  {
    route: "admin/posts/:postId/revisions",
    name: "restoring a revision that does not exist",
    request: () => ({ method: "POST", path: `/admin/posts/${postId}/revisions`, form: { revision: "999", baseRevision: "0" } }),
    expected: only("editor", 404),
  },
  { route: "admin/audit", name: "audit log", request: () => ({ method: "GET", path: "/admin/audit" }), expected: only("owner") },
  {
    route: "admin/audit/export",
    name: "audit log CSV",
    request: () => ({ method: "GET", path: "/admin/audit/export" }),
    expected: only("owner"),
  },
  {
    route: "admin/privacy",
    name: "privacy requests",
    request: () => ({ method: "GET", path: "/admin/privacy" }),
    expected: only("owner"),
  },
  {
    route: "admin/privacy",
    name: "looking up an address",
    request: () => ({ method: "POST", path: "/admin/privacy", form: { intent: "lookup", email: "nobody-held@example.com" } }),
    expected: only("owner"),
  },
  {
    route: "admin/privacy/export",
    name: "a privacy export (only posted)",
    request: () => ({ method: "GET", path: "/admin/privacy/export" }),
    expected: only("owner", "redirect"),
  },
  {
    route: "admin/privacy/export",
    name: "downloading a privacy export",
    request: () => ({ method: "POST", path: "/admin/privacy/export", form: { email: "nobody-held@example.com" } }),
    expected: only("owner"),
  },
  {
    route: "admin/media",
    name: "media library",
    request: () => ({ method: "GET", path: "/admin/media" }),
    expected: only("editor"),
  },
  {
    route: "admin/media",
    name: "changing an image's alt text (no such image)",
    request: () => ({
      method: "POST",
      path: "/admin/media",
      form: { intent: "alt", id: "00000000-0000-4000-8000-000000000000", alt: "x" },
    }),
    expected: only("editor", 404),
  },
  {
    route: "admin/redirects",
    name: "redirects",
    request: () => ({ method: "GET", path: "/admin/redirects" }),
    expected: only("editor"),
  },
  {
    route: "admin/redirects",
    name: "deleting a redirect (no such redirect)",
    request: () => ({
      method: "POST",
      path: "/admin/redirects",
      form: { intent: "delete", id: "00000000-0000-4000-8000-000000000000" },
    }),
    expected: only("editor", 404),
  },
  {
    route: "admin/redirects",
    name: "adding a redirect (refused: a page of the site)",
    request: () => ({ method: "POST", path: "/admin/redirects", form: { intent: "save", from: "/community", kind: "gone" } }),
    expected: only("editor", 400),
  },
  {
    route: "admin/legal",
    name: "legal documents",
    request: () => ({ method: "GET", path: "/admin/legal" }),
    expected: only("legal"),
  },
  {
    route: "admin/legal",
    name: "starting a legal draft",
    request: () => ({ method: "POST", path: "/admin/legal", form: { intent: "new-draft", type: "terms-of-use" } }),
    expected: only("legal", "redirect"),
  },
  {
    route: "admin/legal/compare",
    name: "comparing legal versions",
    request: () => ({ method: "GET", path: `/admin/legal/compare?from=${legalVersionId}&to=${legalVersionId}` }),
    expected: only("legal"),
  },
  {
    route: "admin/legal/versions/:versionId",
    name: "a legal version",
    request: () => ({ method: "GET", path: `/admin/legal/versions/${legalVersionId}` }),
    expected: only("legal"),
  },
  {
    route: "admin/legal/versions/:versionId",
    name: "publishing a version already published",
    request: () => ({
      method: "POST",
      path: `/admin/legal/versions/${legalVersionId}`,
      form: { intent: "publish", revision: "0" },
    }),
    expected: only("legal", 409),
  },
  {
    route: "admin/legal/versions/:versionId/preview",
    name: "a legal version's preview",
    request: () => ({ method: "GET", path: `/admin/legal/versions/${legalVersionId}/preview` }),
    expected: only("legal"),
  },
  {
    route: "admin/navigation",
    name: "navigation",
    request: () => ({ method: "GET", path: "/admin/navigation" }),
    expected: only("editor"),
  },
  {
    route: "admin/navigation",
    name: "saving a menu (based on a revision that never was: refused, nothing saved)",
    request: () => ({
      method: "POST",
      path: "/admin/navigation",
      form: {
        intent: "save",
        menu: "footer-links",
        revision: "999",
        "group-0-link-0-label": "Privacy",
        "group-0-link-0-to": "/terms/privacy-policy",
      },
    }),
    expected: only("editor", 409),
  },
  {
    route: "admin/pages",
    name: "pages",
    request: () => ({ method: "GET", path: "/admin/pages" }),
    expected: only("editor"),
  },
  {
    route: "admin/pages",
    name: "creating a page (refused: the path is a form's page)",
    request: () => ({ method: "POST", path: "/admin/pages", form: { path: "/contact-sales", title: "Taken" } }),
    expected: only("editor", 400),
  },
  {
    route: "admin/pages",
    name: "starting a page's translation from the list (into a language the site does not have: refused)",
    request: () => ({ method: "POST", path: "/admin/pages", form: { intent: "translate", source: pageId, translateInto: "xx" } }),
    expected: only("editor", 400),
  },
  {
    route: "admin/pages/live-preview",
    name: "a page's live preview",
    request: () => ({ method: "POST", path: "/admin/pages/live-preview", form: { path: "/", "blocks.0.type": "proof-band" } }),
    expected: only("editor", 200),
  },
  {
    route: "admin/pages/:pageId",
    name: "a page's editor",
    request: () => ({ method: "GET", path: `/admin/pages/${pageId}` }),
    expected: only("editor"),
  },
  {
    route: "admin/pages/:pageId",
    name: "saving a page (based on a revision that never was: refused, nothing saved)",
    request: () => ({
      method: "POST",
      path: `/admin/pages/${pageId}`,
      form: { intent: "save", revision: "999", path: "/", title: "Home", description: "Home", "blocks.0.type": "proof-band" },
    }),
    expected: only("editor", 409),
  },
  {
    route: "admin/pages/:pageId/revisions",
    name: "a page's revisions",
    request: () => ({ method: "GET", path: `/admin/pages/${pageId}/revisions` }),
    expected: only("editor"),
  },
  {
    route: "admin/pages/:pageId/revisions",
    name: "restoring a page revision that does not exist",
    request: () => ({ method: "POST", path: `/admin/pages/${pageId}/revisions`, form: { revision: "999", baseRevision: "1" } }),
    expected: only("editor", 404),
  },
  {
    route: "admin/pages/:pageId/preview",
    name: "a page's preview",
    request: () => ({ method: "GET", path: `/admin/pages/${pageId}/preview` }),
    expected: only("editor"),
  },
  {
    route: "admin/positions",
    name: "open positions",
    request: () => ({ method: "GET", path: "/admin/positions" }),
    expected: only("recruiter"),
  },
  {
    route: "admin/positions",
    name: "creating a position (refused: no title)",
    request: () => ({ method: "POST", path: "/admin/positions", form: { title: "", team: "Matrix", location: "Berlin" } }),
    expected: only("recruiter", 400),
  },
  {
    route: "admin/positions",
    name: "starting a position's translation from the list (into a language the site does not have: refused)",
    request: () => ({
      method: "POST",
      path: "/admin/positions",
      form: { intent: "translate", source: positionId, translateInto: "xx" },
    }),
    expected: only("recruiter", 400),
  },
  {
    route: "admin/positions/:positionId",
    name: "a position's editor",
    request: () => ({ method: "GET", path: `/admin/positions/${positionId}` }),
    expected: only("recruiter"),
  },
  {
    route: "admin/positions/:positionId",
    name: "saving a position (based on a revision that never was: refused, nothing saved)",
    request: () => ({
      method: "POST",
      path: `/admin/positions/${positionId}`,
      form: {
        intent: "save",
        revision: "999",
        title: "Matrix",
        slug: "matrix-position",
        team: "Matrix",
        locations: "Berlin",
        workplace: "hybrid",
        employmentType: "full-time",
        payPeriod: "year",
        timeZone: "UTC",
      },
    }),
    expected: only("recruiter", 409),
  },
  {
    route: "admin/positions/:positionId",
    name: "translating a position in its editor (into a language the site does not have: refused, nothing made)",
    request: () => ({ method: "POST", path: `/admin/positions/${positionId}`, form: { translateInto: "xx" } }),
    expected: only("recruiter", 400),
  },
  {
    route: "admin/positions/:positionId/revisions",
    name: "a position's revisions",
    request: () => ({ method: "GET", path: `/admin/positions/${positionId}/revisions` }),
    expected: only("recruiter"),
  },
  {
    route: "admin/positions/:positionId/revisions",
    name: "restoring a position revision that does not exist",
    request: () => ({
      method: "POST",
      path: `/admin/positions/${positionId}/revisions`,
      form: { revision: "999", baseRevision: "1" },
    }),
    expected: only("recruiter", 404),
  },
  {
    route: "admin/positions/:positionId/preview",
    name: "a position's preview",
    request: () => ({ method: "GET", path: `/admin/positions/${positionId}/preview` }),
    expected: only("recruiter"),
  },
  {
    route: "admin/leads",
    name: "lead inboxes",
    request: () => ({ method: "GET", path: "/admin/leads" }),
    expected: only("sales"),
  },
  {
    route: "admin/leads/export",
    name: "a lead inbox's CSV",
    request: () => ({ method: "GET", path: "/admin/leads/export?form=request-demo" }),
    expected: only("sales"),
  },
  {
    route: "admin/leads/:form/:leadId",
    name: "a demo request's page",
    request: () => ({ method: "GET", path: `/admin/leads/request-demo/${demoLeadId}` }),
    expected: only("sales"),
  },
  {
    route: "admin/leads/:form/:leadId",
    name: "a note on a demo request",
    request: () => ({
      method: "POST",
      path: `/admin/leads/request-demo/${demoLeadId}`,
      form: { intent: "note", body: "Matrix" },
    }),
    expected: only("sales"),
  },
  {
    route: "admin/leads/:form/:leadId",
    name: "an application asked for among the leads",
    request: () => ({ method: "GET", path: `/admin/leads/career-application/${applicationId}` }),
    expected: (who) => (who === "nobody" ? "sign-in" : who === "sales" || who === "owner" ? 404 : 403),
  },
  {
    route: "admin/applications",
    name: "job applications",
    request: () => ({ method: "GET", path: "/admin/applications" }),
    expected: only("recruiter"),
  },
  {
    route: "admin/applications/export",
    name: "job applications' CSV",
    request: () => ({ method: "GET", path: "/admin/applications/export" }),
    expected: only("recruiter"),
  },
  {
    route: "admin/applications/:leadId",
    name: "an application's page",
    request: () => ({ method: "GET", path: `/admin/applications/${applicationId}` }),
    expected: only("recruiter"),
  },
  {
    route: "admin/applications/:leadId",
    name: "moving an application on",
    request: () => ({
      method: "POST",
      path: `/admin/applications/${applicationId}`,
      form: { intent: "status", status: "screening" },
    }),
    expected: only("recruiter"),
  },
  {
    route: "admin/sign-out",
    name: "signing out",
    request: () => ({ method: "POST", path: "/admin/sign-out" }),
    expected: signedIn("sign-in"),
  },
];

// One server and one session per role for the whole file, asked in order: "signing out" comes last.
// Each test signs people in with passkeys: more than the suite's 30 s on a busy machine.
test.describe.configure({ mode: "default", timeout: 60_000 });

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(120_000);
  for (const role of EVERYONE) {
    if (role === "nobody") {
      sessions.set(role, { request: await playwright.request.newContext(), csrf: "" });
      continue;
    }
    const person = await signInAs(browser, server, [role]);
    sessions.set(role, { request: person.context.request, csrf: await csrfToken(person.page) });
  }
  const target = await signInAs(browser, server, ["recruiter"]);
  targetId = withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM admin_users WHERE email = ?").get(target.email) as { id: string }).id,
  );
  postId = withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM blog_posts ORDER BY id LIMIT 1").get() as { id: string }).id,
  );
  pageId = withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM content_documents WHERE type = 'page' AND path = '/'").get() as { id: string }).id,
  );
  positionId = withDatabase(
    server.databasePath,
    (db) =>
      (db.prepare("SELECT id FROM content_documents WHERE type = 'position' ORDER BY path LIMIT 1").get() as { id: string }).id,
  );
  legalVersionId = withDatabase(
    server.databasePath,
    (db) => (db.prepare("SELECT id FROM legal_documents WHERE published = 1 LIMIT 1").get() as { id: string }).id,
  );
  [demoLeadId, applicationId] = withDatabase(server.databasePath, (db) =>
    ["demo_requests", "career_applications"].map((table) => {
      const id = randomUUID();
      db.prepare(`INSERT INTO ${table} (id, created_at, first_name, last_name, email) VALUES (?, ?, 'Matrix', 'Lead', ?)`).run(
        id,
        new Date().toISOString(),
        `matrix-${table}@example.com`,
      );
      return id;
    }),
  ) as [string, string];
  invitationToken = inviteFromCommandLine(server, `matrix-invitee-${Date.now()}@quorvant.com`, ["sales"]).split("/").at(-1)!;
});

test("every back-office route of app/routes.ts is in the matrix", () => {
  const paths: string[] = [];
  const walk = (entries: readonly { path?: string; index?: boolean; children?: unknown[] }[], prefix: string) => {
    for (const entry of entries) {
      const path = entry.path ? (prefix ? `${prefix}/${entry.path}` : entry.path) : prefix;
      if (path === "admin" || path.startsWith("admin/")) paths.push(path);
      if (entry.children) walk(entry.children as typeof entries, path);
    }
  };
  walk(routes as never, "");
  expect([...new Set(paths)].sort()).toEqual([...new Set(cases.map((entry) => entry.route))].sort());
});

for (const entry of cases) {
  test(`${entry.name}: each role gets what it may`, async () => {
    const answers: Record<string, Expected | number> = {};
    const expected: Record<string, Expected> = {};
    for (const who of EVERYONE) {
      const { request, csrf } = sessions.get(who)!;
      const { method, path, form } = entry.request(who);
      const response =
        method === "GET"
          ? await request.get(`${server.url}${path}`, { maxRedirects: 0 })
          : await postForm(request, server, path, { ...form, ...(csrf ? { csrf } : {}) });
      const location = response.headers()["location"] ?? "";
      answers[who] =
        response.status() === 302 || response.status() === 303
          ? location.startsWith("/admin/sign-in")
            ? "sign-in"
            : "redirect"
          : response.status();
      expected[who] = entry.expected(who);
      // A page says so in words; a download (the CSV) answers with the roles it needs.
      if (response.status() === 403 && response.headers()["content-type"]?.startsWith("text/html")) {
        expect(await response.text()).toMatch(/You don(&#x27;|')t have access to this page/);
      } else if (response.status() === 403) {
        expect(await response.json()).toHaveProperty("neededRoles");
      }
    }
    expect(answers).toEqual(expected);
  });
}
