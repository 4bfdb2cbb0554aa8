import type { AddressInfo } from "node:net";
import express from "express";
import type { AppLoadContext, ServerBuild } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { reactRouterHandler } from "../../server/react-router";

// The Express glue in front of React Router, on a loopback port, with a build of two routes: the
// root and a resource route that answers with the version of the build that served it.

const servers: { close: () => void }[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

function buildOf(version: number): ServerBuild {
  return {
    entry: { module: { default: () => new Response("no documents in this build", { status: 500 }) } },
    routes: {
      root: { id: "root", path: "", module: {} },
      "routes/version": {
        id: "routes/version",
        parentId: "root",
        path: "version",
        module: { loader: () => new Response(`build ${version}`) },
      },
    },
    assets: { entry: { module: "/entry.js", imports: [] }, routes: {}, url: "/manifest.js", version: String(version) },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

/** Serves the handler; `loads` counts how often it asked for the build. */
async function serve(reloads: boolean) {
  const state = { loads: 0, version: 1 };
  const app = express();
  app.use(
    reactRouterHandler({
      build: async () => {
        state.loads += 1;
        return buildOf(state.version);
      },
      reloads,
      siteUrl: new URL("http://localhost"),
      // The resource route reads nothing of it.
      getLoadContext: () => ({}) as AppLoadContext,
    }),
  );
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const get = async () => (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/version`)).text();
  return { state, get };
}

describe("the React Router handler", () => {
  it("loads a build that never changes once, and derives its routes once, whatever the number of requests", async () => {
    const { state, get } = await serve(false);
    const answers = [await get(), await get(), await get()];
    expect(answers).toEqual(["build 1", "build 1", "build 1"]);
    expect(state.loads).toBe(1);
  });

  it("asks for the build on every request in development, so an edited route is served at once", async () => {
    const { state, get } = await serve(true);
    expect(await get()).toBe("build 1");
    state.version = 2;
    expect(await get()).toBe("build 2");
    expect(state.loads).toBe(2);
  });
});
