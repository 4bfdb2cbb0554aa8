import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, useRouteError } from "react-router";
import { describe, expect, it } from "vitest";
import { ErrorBoundary } from "~/root";

// The root error boundary under the router's real server-side machinery: a loader that throws
// must give HTTP 500 and the generic screen, never the error's message or stack.
async function render(loader: () => unknown) {
  const routes = [
    {
      id: "root",
      path: "/",
      loader,
      Component: () => <p>page</p>,
      ErrorBoundary: function RootBoundary() {
        const error = useRouteError();
        return <ErrorBoundary error={error} params={{}} loaderData={undefined} />;
      },
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return {
    status: context.statusCode,
    html: renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />),
  };
}

describe("root error boundary", () => {
  it("shows the generic error screen with status 500 when a loader throws", async () => {
    const { status, html } = await render(() => {
      throw new Error("database password is hunter2");
    });
    expect(status).toBe(500);
    expect(html).toContain("Unexpected Application Error!");
    expect(html).not.toContain("hunter2");
    expect(html).not.toMatch(/at .+:\d+:\d+/);
  });

  it("shows the not-found page for a thrown 404", async () => {
    const { status, html } = await render(() => {
      throw new Response(null, { status: 404 });
    });
    expect(status).toBe(404);
    expect(html).toContain("Oops! Page not found");
    expect(html).toContain("Return to Home");
  });
});
