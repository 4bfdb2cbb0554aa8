import { isRouteErrorResponse, Outlet, useMatches, useRouteError, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/admin.layout";
import { AdminShell } from "~/features/back-office/admin/admin-shell";
import { PageHeading } from "~/ui/admin/page-heading";
import { SiteFrame } from "~/ui/site-frame";
import { site } from "~/config/site";
import { formToken, getSignedIn } from "~/features/auth/auth.server";
import { roleDescriptions, sortRoles } from "~/config/roles";

// Every page of the back office sits in this layout. It reads the session to draw the frame (the
// menu of what the person's roles open); it does not guard the pages: each page's own loader and
// action checks what it needs, since loaders run side by side, not one after another.

export const handle = { backOffice: true };

/** Never kept by any cache, never indexed: these pages are one person's, and private. */
export const BACK_OFFICE_HEADERS = { "Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow" };

export const headers: Route.HeadersFunction = () => BACK_OFFICE_HEADERS;

export async function loader({ request }: Route.LoaderArgs) {
  const signedIn = await getSignedIn(request);
  return signedIn
    ? { user: { email: signedIn.user.email, roles: signedIn.user.roles }, csrf: formToken(signedIn) }
    : { user: null, csrf: null };
}

export const meta: Route.MetaFunction = () => [
  { title: `Back office | ${site.company}` },
  { name: "robots", content: "noindex, nofollow" },
];

export default function BackOfficeLayout({ loaderData }: Route.ComponentProps) {
  // A preview (handle.publicFrame) shows a page as visitors will see it: in the public site's frame.
  const publicFrame = useMatches().some((match) => (match.handle as { publicFrame?: boolean } | undefined)?.publicFrame);
  if (publicFrame) {
    return (
      <SiteFrame>
        <Outlet />
      </SiteFrame>
    );
  }
  return (
    <AdminShell user={loaderData.user}>
      <Outlet />
    </AdminShell>
  );
}

/** A page the person's roles do not open (403), or anything else that went wrong, inside the frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("back-office");
  return (
    <AdminShell user={data?.user ?? null}>
      <BackOfficeError error={error} />
    </AdminShell>
  );
}

function BackOfficeError({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && error.status === 403) {
    const needed = sortRoles((error.data as { neededRoles?: string[] } | undefined)?.neededRoles ?? []);
    const message = (error.data as { message?: string } | undefined)?.message;
    return (
      <PageHeading title="You don't have access to this page">
        {message ??
          `It needs the ${needed.map((role) => roleDescriptions[role].label).join(" or ")} role. Ask an owner if you need it.`}
      </PageHeading>
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <PageHeading title="Not found">There is nothing at this address in the back office.</PageHeading>;
  }
  if (isRouteErrorResponse(error) && error.status < 500) {
    const message = (error.data as { message?: string } | undefined)?.message;
    return <PageHeading title="That did not work">{message ?? "The request could not be handled."}</PageHeading>;
  }
  return <PageHeading title="Something went wrong">The back office could not do that. Please try again.</PageHeading>;
}
