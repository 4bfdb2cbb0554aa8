import { describe, expect, it } from "vitest";
import { cursorParam, readAuditQuery } from "~/features/audit/audit-filter.server";
import { safeRedirect } from "~/features/auth/auth.server";
import { invitationPath } from "~/features/auth/invitations.server";
import { tooManyAttempts } from "~/features/auth/sign-in-limits.server";
import { previewPath } from "~/features/blog/posts";
import { loadEnv } from "~/env.server";
import { logSafeUrl } from "~/platform/log-safe-url";

// The back office's pure helpers: where a sign-in may send the browser, what a log line may show,
// how the audit page reads its filters, and which single sign-on settings the server accepts.

describe("safeRedirect", () => {
  it("keeps back-office paths, query and fragment included", () => {
    for (const to of [
      "/admin",
      "/admin/users",
      "/admin/audit?action=sign-in&from=2025-01-01",
      "/admin/users/1#passkeys",
      "/admin?x=1",
    ]) {
      expect(safeRedirect(to), to).toBe(to);
    }
  });

  it("sends anything else to /admin", () => {
    for (const to of [
      null,
      undefined,
      "",
      "https://evil.example/admin",
      "http://localhost:3000/admin",
      "javascript:alert(1)",
      "//evil.example/admin",
      "//admin",
      "/\\evil.example",
      "/admin\\..\\..\\evil",
      "\\\\evil.example/admin",
      "/admin/\t/evil.example",
      "/admin\n/users",
      " /admin",
      "admin/users",
      "/",
      "/resources/blog",
      // Look like the back office but are not under it.
      "/administrator",
      "/admin.evil.example",
      "/admin-tools/x",
      "/admin/../resources/blog",
      "/admin/%2e%2e/resources",
      "/admin/.%2E/careers",
    ]) {
      expect(safeRedirect(to), JSON.stringify(to)).toBe("/admin");
    }
  });
});

describe("logSafeUrl", () => {
  const invitation = "a".repeat(64);
  const preview = `0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5.1767225600.${"b".repeat(64)}`;

  it("replaces an invitation or preview link's token, keeping the rest", () => {
    expect(logSafeUrl(invitationPath(invitation))).toBe("/admin/invitations/[token]");
    expect(logSafeUrl(previewPath(preview))).toBe("/resources/blog/preview/[token]");
    expect(logSafeUrl(`${invitationPath(invitation)}?from=mail#top`)).toBe("/admin/invitations/[token]?from=mail#top");
    expect(logSafeUrl(`${previewPath(preview)}.data?_routes=x`)).toBe("/resources/blog/preview/[token]?_routes=x");
    expect(logSafeUrl(`${invitationPath(invitation)}/`)).toBe("/admin/invitations/[token]/");
    // A page's preview link (the content core's token names its type first).
    expect(logSafeUrl(`/preview/page-${preview}`)).toBe("/preview/[token]");
    expect(logSafeUrl(`/%70review/page-${preview}.data`)).toBe("/preview/[token]");
    // Other languages' preview links: a German post's, a German page's.
    expect(logSafeUrl(previewPath(preview, "/de/ressourcen/blog"))).toBe("/de/ressourcen/blog/preview/[token]");
    expect(logSafeUrl(`/de/preview/page-${preview}?x=1`)).toBe("/de/preview/[token]?x=1");
    expect(logSafeUrl(`/de/%70review/page-${preview}`)).toBe("/de/preview/[token]");
  });

  it("redacts the spellings the server still routes to those pages", () => {
    const spellings = [
      `/ADMIN/Invitations/${invitation.toUpperCase()}`,
      `/admin/invitations/${invitation.slice(0, 10)}%2F${invitation.slice(10)}`,
      `/admin/invitations/%61%61${invitation.slice(2)}`,
      `/%61dmin/invitations/${invitation}`,
      `/admin/%69nvitations/${invitation}`,
      `//admin/invitations/${invitation}`,
      `/x/../admin/invitations/${invitation}`,
      `/admin/x/%2e%2e/invitations/${invitation}`,
      `/resources/blog/%70review/${preview}`,
      `/Resources/Blog/Preview/${preview}`,
      `///resources/blog/preview/${preview}?a=1`,
      `/resources/blog//preview/${preview}`,
      `/resources/blog\\preview/${preview}`,
      `/admin//invitations/${invitation}`,
      // Refused by the server, but the request line still holds the token.
      `/resources/blog/preview/${preview}/..`,
      `/admin/invitations/${invitation}/../x`,
    ];
    for (const url of spellings) {
      const logged = logSafeUrl(url);
      expect(logged, url).toContain("[token]");
      expect(logged, url).not.toMatch(/a{10}|b{10}|A{10}|%61%61/);
      expect(logged, url).not.toContain(preview.slice(0, 36));
    }
  });

  it("leaves other URLs as they are", () => {
    for (const url of [
      "/",
      "/admin/invitations",
      "/admin/users?status=active",
      "/resources/blog/some-post",
      "/%zz/admin/invitations",
      "/admin/invitation/x",
    ]) {
      expect(logSafeUrl(url), url).toBe(url);
    }
  });
});

describe("the audit page's filters", () => {
  const read = (query: string) => readAuditQuery(new URL(`http://localhost/admin/audit?${query}`));
  const status = (query: string) => {
    try {
      read(query);
      return 200;
    } catch (error) {
      return (error as { init?: { status?: number } }).init?.status;
    }
  };

  it("reads days as UTC days, both included, and a page position as its cursor", () => {
    const person = "0C1D2E3F-4A5B-4C6D-8E7F-8091A2B3C4D5";
    const cursor = { createdAt: "2025-03-01T09:00:00.000Z", id: "0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5" };
    expect(read(`person=${person}&action=sign-in&from=2025-03-01&to=2025-03-31&after=${cursorParam(cursor)}`)).toEqual({
      filter: {
        actorId: person.toLowerCase(),
        action: "sign-in",
        from: "2025-03-01T00:00:00.000Z",
        until: "2025-04-01T00:00:00.000Z",
      },
      after: cursor,
      values: { person, action: "sign-in", from: "2025-03-01", to: "2025-03-31" },
    });
    expect(read("person=&action=&from=&to=")).toEqual({
      filter: { actorId: undefined, action: undefined, from: undefined, until: undefined },
      after: undefined,
      values: { person: "", action: "", from: "", to: "" },
    });
  });

  it("answers 400 to anything it does not know", () => {
    for (const query of [
      "person=someone",
      "action=drop-table",
      "from=2025-02-30",
      "to=yesterday",
      "after=2025-03-01_1",
      "after=x",
    ]) {
      expect(status(query), query).toBe(400);
    }
  });
});

describe("sign-in limits", () => {
  it("says how long to wait, in whole minutes", () => {
    expect(tooManyAttempts({ retryAfterSeconds: 1 })).toBe("Too many sign-in attempts. Try again in 1 minute.");
    expect(tooManyAttempts({ retryAfterSeconds: 61 })).toBe("Too many sign-in attempts. Try again in 2 minutes.");
  });
});

describe("back-office configuration", () => {
  const production = { NODE_ENV: "production", SITE_URL: "https://quorvant.com" };
  const sso = {
    ...production,
    OIDC_ISSUER: "https://login.example.com",
    OIDC_CLIENT_ID: "quorvant",
    OIDC_CLIENT_SECRET: "s3cret",
  };

  it("has the session and sign-in defaults, and refuses out-of-range values", () => {
    const env = loadEnv(production);
    expect(env).toMatchObject({ SESSION_IDLE_MINUTES: 30, SESSION_MAX_HOURS: 12, SIGN_IN_RATE_LIMIT: 20 });
    expect(env.SESSION_SECRET).toBeUndefined();
    expect(env.OIDC_ISSUER).toBeUndefined();
    expect(loadEnv({ ...production, SESSION_IDLE_MINUTES: "15", SESSION_MAX_HOURS: "8", SIGN_IN_RATE_LIMIT: "0" })).toMatchObject(
      {
        SESSION_IDLE_MINUTES: 15,
        SESSION_MAX_HOURS: 8,
        SIGN_IN_RATE_LIMIT: 0,
      },
    );
    expect(() => loadEnv({ ...production, SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET must be at least 32 characters/);
    expect(() => loadEnv({ ...production, SESSION_IDLE_MINUTES: "0" })).toThrow(/SESSION_IDLE_MINUTES/);
    expect(() => loadEnv({ ...production, SESSION_MAX_HOURS: "169" })).toThrow(/SESSION_MAX_HOURS/);
    expect(() => loadEnv({ ...production, SIGN_IN_RATE_LIMIT: "-1" })).toThrow(/SIGN_IN_RATE_LIMIT/);
  });

  it("needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together, naming each missing one", () => {
    expect(loadEnv(sso)).toMatchObject({
      OIDC_ISSUER: "https://login.example.com",
      OIDC_PROVIDER_NAME: "single sign-on",
      OIDC_GROUPS_CLAIM: "groups",
    });
    const message = (env: Record<string, string>) => {
      try {
        loadEnv(env);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    };
    const onlyIssuer = message({ ...production, OIDC_ISSUER: sso.OIDC_ISSUER });
    expect(onlyIssuer.split("\n")).toEqual([
      "Invalid configuration: OIDC_CLIENT_ID is required for single sign-on (set all three OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, or none)",
      "Invalid configuration: OIDC_CLIENT_SECRET is required for single sign-on (set all three OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, or none)",
    ]);
    expect(message({ ...sso, OIDC_ISSUER: "" })).toBe(
      "Invalid configuration: OIDC_ISSUER is required for single sign-on (set all three OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, or none)",
    );
    expect(message({ ...sso, OIDC_CLIENT_SECRET: "" })).toMatch(/^Invalid configuration: OIDC_CLIENT_SECRET is required/);
  });

  it("takes the issuer over https, or http only on this machine", () => {
    expect(loadEnv({ ...sso, OIDC_ISSUER: "http://127.0.0.1:4010" }).OIDC_ISSUER).toBe("http://127.0.0.1:4010");
    expect(loadEnv({ ...sso, OIDC_ISSUER: "http://localhost:4010/oidc" }).OIDC_ISSUER).toBe("http://localhost:4010/oidc");
    expect(() => loadEnv({ ...sso, OIDC_ISSUER: "http://login.example.com" })).toThrow(
      /OIDC_ISSUER must use https:\/\/ \(http:\/\/ only to localhost\)/,
    );
    // Not a URL at all: one readable line, not a crash of the check that follows.
    expect(() => loadEnv({ ...sso, OIDC_ISSUER: "login.example.com" })).toThrow(
      /^Invalid configuration: OIDC_ISSUER must be the provider's issuer URL, such as https:\/\/login.example.com$/,
    );
    expect(() =>
      loadEnv({ ...production, WEBHOOK_URL_REQUEST_DEMO: "hooks.example.com", WEBHOOK_SECRET: "whsec_c2VjcmV0c2VjcmV0c2Vj" }),
    ).toThrow(/^Invalid configuration: WEBHOOK_URL_REQUEST_DEMO must be an absolute https:\/\/ URL$/);
  });

  it("reads allowed domains and group roles, which go together, and refuses unknown roles", () => {
    const env = loadEnv({
      ...sso,
      OIDC_ALLOWED_DOMAINS: "Quorvant.com, sub.quorvant.co.uk",
      OIDC_GROUP_ROLES: "Marketing=editor, legal-team = legal,admins=owner",
      OIDC_GROUPS_CLAIM: "roles",
    });
    expect(env.OIDC_ALLOWED_DOMAINS).toEqual(["quorvant.com", "sub.quorvant.co.uk"]);
    expect(env.OIDC_GROUP_ROLES).toEqual([
      { group: "Marketing", role: "editor" },
      { group: "legal-team", role: "legal" },
      { group: "admins", role: "owner" },
    ]);
    expect(env.OIDC_GROUPS_CLAIM).toBe("roles");

    expect(() => loadEnv({ ...sso, OIDC_ALLOWED_DOMAINS: "quorvant.com" })).toThrow(
      /^Invalid configuration: OIDC_GROUP_ROLES goes with the other: people from OIDC_ALLOWED_DOMAINS get the roles/,
    );
    expect(() => loadEnv({ ...sso, OIDC_GROUP_ROLES: "admins=owner" })).toThrow(
      /^Invalid configuration: OIDC_ALLOWED_DOMAINS goes with the other/,
    );
    for (const value of ["admins=admin", "admins", "=owner", "admins=owner=x", "admins=owner,", "admins=Owner"]) {
      expect(() => loadEnv({ ...sso, OIDC_ALLOWED_DOMAINS: "quorvant.com", OIDC_GROUP_ROLES: value }), value).toThrow(
        /OIDC_GROUP_ROLES must be comma-separated group=role pairs, each role one of owner, editor, legal, sales, recruiter/,
      );
    }
    for (const value of ["quorvant", "@quorvant.com", "quorvant.com,", "https://quorvant.com"]) {
      expect(() => loadEnv({ ...sso, OIDC_ALLOWED_DOMAINS: value, OIDC_GROUP_ROLES: "admins=owner" }), value).toThrow(
        /OIDC_ALLOWED_DOMAINS must be comma-separated email domains/,
      );
    }
  });
});
