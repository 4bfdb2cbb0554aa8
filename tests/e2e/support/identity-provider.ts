import { randomBytes } from "node:crypto";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "@playwright/test";
import Provider from "oidc-provider";

// A real OpenID Connect provider (oidc-provider) on a loopback port, standing in for a company's
// identity provider. Its people are a table the test edits (their email, whether it is verified,
// their groups); one signs in on the provider's own development login form with their login name,
// which is also their subject (`sub`) in the ID token.

export type ProviderPerson = {
  email: string;
  /**
   * The `email_verified` claim as the provider sends it: true when not given, left out of the
   * token when "omitted", and any other value as it is (some providers send the string "false").
   */
  emailVerified?: boolean | string;
  groups?: string[];
};

export type IdentityProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people who can sign in at the provider, by login name. Edit freely between sign-ins. */
  people: Map<string, ProviderPerson>;
  /** OIDC_* settings for the site. */
  settings: Record<string, string>;
  /** Registers the site (its address is known once it runs) as the provider's client. */
  registerSite: (siteUrl: string) => void;
  close: () => Promise<void>;
};

export async function startIdentityProvider(): Promise<IdentityProvider> {
  const people = new Map<string, ProviderPerson>();
  const clientId = "quorvant-website";
  const clientSecret = randomBytes(24).toString("hex");
  // Listen first: the issuer is the provider's own address.
  let handler: RequestListener | undefined;
  const server: Server = createServer((request, response) => {
    if (request.url === "/favicon.ico") response.writeHead(204).end();
    else if (handler) handler(request, response);
    else response.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const registerSite = (siteUrl: string) => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [`${siteUrl}/admin/sign-in/sso/callback`],
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      pkce: { required: () => true },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["groups"] },
      // The site reads who signed in from the ID token, as many providers send it.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: true } },
      cookies: { keys: [randomBytes(32).toString("hex")] },
      findAccount: (_context, id) => {
        const person = people.get(id);
        if (!person) return undefined;
        return {
          accountId: id,
          claims: () => ({
            sub: id,
            email: person.email,
            ...(person.emailVerified === "omitted" ? {} : { email_verified: person.emailVerified ?? true }),
            ...(person.groups ? { groups: person.groups } : {}),
          }),
        };
      },
      // The company's own application: no consent screen.
      loadExistingGrant: async (context) => {
        const grant = new context.oidc.provider.Grant({ clientId, accountId: context.oidc.session!.accountId! });
        grant.addOIDCScope("openid email profile");
        await grant.save();
        return grant;
      },
    });
    provider.on("server_error", (_context, error) => console.error("identity provider:", error));
    handler = provider.callback();
  };

  return {
    issuer,
    clientId,
    clientSecret,
    people,
    settings: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_PROVIDER_NAME: "Quorvant SSO",
    },
    registerSite,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The provider's development pages import a web font from the internet, which a test machine cannot reach. */
export async function withoutProviderWebFonts(context: BrowserContext) {
  await context.route("https://fonts.googleapis.com/**", (route) => route.fulfill({ contentType: "text/css", body: "" }));
}

/** At the provider's login form (reached from the site's button), signs in as `login`. */
export async function signInAtProvider(page: Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
}
